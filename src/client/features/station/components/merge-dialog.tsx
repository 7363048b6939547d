import { useState } from 'react';
import { station } from '../../../../shared/api';
import { Button } from '../../../components/button';
import { Modal } from '../../../components/modal';
import { toast } from '../../../lib/toast';
import { api } from '../../../lib/api-client';
import { useApi } from '../../../lib/use-api';
import { mergedMessage, metres, placeSpaced } from '../station-place';

const DIRECTION: Record<number, string> = { 0: '上行', 1: '下行' };
export { mergedMessage };

/**
 * 合并站点: which of the two stays (a radio pair: Shift+Tab to it, ←/→ to switch), what changes
 * (the open versions' lines that stop at the other one), and what blocks it. It cannot be undone:
 * focus starts on 取消 and only 确认合并 itself merges (Tab to it, Enter); Enter on the choice does
 * nothing. Focus stays inside while the preview refuses a pair and 确认合并 is disabled.
 */
export function MergeDialog({ pair, onClose, onMerged }: { pair: readonly [number, number]; onClose(): void; onMerged(): void }) {
  const [keepFirst, setKeepFirst] = useState(true);
  const [busy, setBusy] = useState(false);
  const [keepId, mergeId] = keepFirst ? pair : ([pair[1], pair[0]] as const);
  const preview = useApi(station.stationMergePreview, { query: { stationId: keepId, mergeStationId: mergeId } });
  // The previous pair's answer stays while the swapped one loads: it names the same two stations,
  // but its lines and its refusal are not this pair's.
  const shown = preview.data;
  const p = shown && shown.keep.id === keepId && shown.merge.id === mergeId ? shown : undefined;
  const byId = new Map(shown ? [shown.keep, shown.merge].map((s) => [s.id, s] as const) : []);
  const keep = byId.get(keepId);
  const merge = byId.get(mergeId);
  const district = keep?.districtName ?? merge?.districtName ?? null;
  const blocked = !!p?.blockedBy.length;

  const submit = async () => {
    if (busy || !p || blocked) return;
    setBusy(true);
    try {
      const res = await api.call(station.stationMerge, { query: { stationId: keepId, mergeStationId: mergeId } });
      toast.success(mergedMessage(res.keep, p.merge, res.lines));
      onMerged();
    } catch {
      // The client has shown the refusal.
    } finally {
      setBusy(false);
    }
  };

  const option = (first: boolean) => {
    const s = byId.get(first ? pair[0] : pair[1]);
    return (
      <label className={`flex cursor-pointer items-start gap-2 rounded border p-2 focus-within:outline-2 focus-within:outline-[var(--theme)] ${keepFirst === first ? 'border-[var(--theme)] bg-[var(--theme)]/10' : 'border-gray-200'}`}>
        <input type="radio" name="keep" checked={keepFirst === first} onChange={() => setKeepFirst(first)} className="mt-1" />
        <span className="text-sm">
          <span className="font-medium text-gray-800">{s?.name ?? '…'}</span>
          <span className="block text-xs text-gray-600">{s ? `${placeSpaced(s)} · ${s.qrCode ? `二维码 ${s.qrCode}` : '无二维码'}` : ''}</span>
        </span>
      </label>
    );
  };

  return (
    <Modal
      open
      title={district ? `合并站点（${district}）` : '合并站点'}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose} autoFocus hotkey="Esc">
            取消
          </Button>
          <Button variant="danger" disabled={busy || !p || blocked} onClick={() => void submit()}>
            {busy ? '合并中…' : '确认合并'}
          </Button>
        </>
      }
    >
      <fieldset className="mb-3">
        <legend className="mb-2 text-sm text-gray-700">保留哪一个（另一个并入后删除；←/→ 切换）</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {option(true)}
          {option(false)}
        </div>
        {keep && merge && (
          <p className="mt-1 text-xs text-gray-600">
            两站相距约 {Math.round(metres(keep, merge))} 米。将把 {district ?? ''}「{merge.name}」并入「{keep.name}」，然后删除「{merge.name}」。
          </p>
        )}
      </fieldset>
      {preview.error && <p role="alert" className="text-sm text-red-600">{preview.error.message}</p>}
      {p && blocked && (
        <p role="alert" className="mb-2 rounded bg-red-50 p-2 text-sm text-red-700">
          「{p.merge.name}」被不可编辑的版本使用，不能合并：{p.blockedBy.map((v) => v.versionName).join('、')}
        </p>
      )}
      {p && !blocked && (
        <div className="text-sm">
          <p className="mb-1 text-gray-700">{p.affected.length ? `将改动开放版本中 ${new Set(p.affected.map((r) => r.lineId)).size} 条线路：` : '没有线路经过被合并的站点，只删除该站点。'}</p>
          <ul className="max-h-48 list-disc overflow-y-auto pl-5 text-gray-700">
            {p.affected.map((r) => (
              <li key={`${r.lineId}-${r.direction}`}>
                {r.versionName} · {r.lineName} {DIRECTION[r.direction] ?? ''}（{r.stops} 个站点）
              </li>
            ))}
          </ul>
        </div>
      )}
      <p className="mt-3 text-xs text-gray-600">合并不能撤销。按 Tab 移到「确认合并」再按 Enter 确认，Esc 取消。</p>
    </Modal>
  );
}
