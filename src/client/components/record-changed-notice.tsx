import { formatDateTime } from '../../shared/domain/time';
import { useRecordChanged } from '../lib/live-changes';

/**
 * Inside an open form of a record: says, once someone else has committed a change to it, who and
 * when (the live console). It refuses nothing itself: a save from an old version is the server's to
 * refuse (the stale-save check), this only warns before the user types on.
 */
export function RecordChangedNotice({ kind, id }: { kind: string; id: string | number | null | undefined }) {
  const mark = useRecordChanged(kind, id);
  if (!mark) return null;
  const who = mark.by ? `${mark.by}，` : '';
  return (
    <p role="status" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
      该记录已被他人修改（{who}
      {formatDateTime(mark.at, 'HH:mm:ss')}），保存前请核对
    </p>
  );
}
