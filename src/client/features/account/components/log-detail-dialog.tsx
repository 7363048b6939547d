import type { SysLog } from '../../../../shared/api';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { Modal } from '../../../components/modal';
import { ResultBadge } from './result-badge';

/** Pretty JSON as plain text: what was stored is user-supplied and never becomes markup. */
const asText = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v, null, 2));

function Snapshot({ title, value }: { title: string; value: unknown }) {
  const text = asText(value);
  return (
    <figure className="min-w-0 flex-1">
      <figcaption className="mb-1 text-xs text-gray-500">{title}</figcaption>
      {text ? (
        <pre tabIndex={0} className="max-h-72 overflow-auto rounded border border-gray-200 bg-gray-50 p-2 text-xs leading-5 text-gray-800 focus-visible:outline-2 focus-visible:outline-[var(--theme)]">
          {text}
        </pre>
      ) : (
        <p className="rounded border border-dashed border-gray-200 p-2 text-xs text-gray-500">无</p>
      )}
    </figure>
  );
}

export function LogDetailDialog({ log, onClose }: { log: SysLog; onClose(): void }) {
  const rows: [string, React.ReactNode][] = [
    ['时间', formatDateTime(log.createdDate)],
    ['操作人', log.operatorLogin ?? '—'],
    ['操作类型', `${log.operationLabel}（${log.operationType}）`],
    ['对象', log.target ?? '—'],
    ['摘要', log.summary],
    ['IP', log.ip ?? '—'],
    ['结果', <ResultBadge key="r" result={log.result} />],
  ];
  return (
    <Modal
      open
      title="日志详情"
      onClose={onClose}
      width="max-w-3xl"
      footer={
        <Button onClick={onClose} hotkey="Esc" autoFocus>
          关闭
        </Button>
      }
    >
      <dl className="mb-4 grid grid-cols-[5rem_1fr] gap-x-3 gap-y-1.5 text-sm">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-gray-500">{k}</dt>
            <dd className="min-w-0 break-words text-gray-800">{v}</dd>
          </div>
        ))}
      </dl>
      <div className="flex flex-col gap-3 md:flex-row">
        <Snapshot title="变更前" value={log.before} />
        <Snapshot title="变更后" value={log.after} />
      </div>
    </Modal>
  );
}
