import { type KeyboardEvent, useId, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { type SubLineInfo, busLine } from '../../../../shared/api';
import { directionLabel } from '../../../../shared/api/bus-line';
import { pagePath } from '../../../../shared/modules';
import { Button } from '../../../components/button';
import { ScreenSection } from '../../../components/screen-section';
import { toast } from '../../../lib/toast';
import { api } from '../../../lib/api-client';
import { saveKey } from '../../../lib/use-save-key';
import { useDraft } from '../../../lib/use-draft';
import { useScreenLocation } from '../../../lib/screen-context';
import { idParam, useSubLineInfo } from '../api';

/**
 * 子线路站点 (SubLineStation, `?id=`): which of its line's stops a sub-line serves. The line's
 * stops in order, each checked or not: ↑/↓ move, Space toggles, Ctrl+S saves; 全部停靠 serves all
 * (and follows later changes of the line).
 */
export function SubLineStationPage() {
  const { search } = useScreenLocation();
  const id = idParam(search);
  const info = useSubLineInfo(id);
  if (!id || info.error)
    return (
      <ScreenSection title="子线路站点">
        <p className="text-sm text-gray-700">
          子线路不存在，或不属于当前区域。
          <Link href={pagePath('bus', 'sub-list')} className="ml-2 text-[var(--theme-strong)] underline">
            返回子线路列表
          </Link>
        </p>
      </ScreenSection>
    );
  if (!info.data) return <ScreenSection title="子线路站点"><p className="text-sm text-gray-600">加载中…</p></ScreenSection>;
  return <Editor detail={info.data} onSaved={(d) => void info.mutate(d, { revalidate: false })} />;
}

const setKey = (ids: ReadonlySet<number>) => [...ids].sort((a, b) => a - b).join(',');

function Editor({ detail, onSaved }: { detail: SubLineInfo; onSaved(d: SubLineInfo): void }) {
  const listId = useId();
  const savedServed = useMemo(() => new Set(detail.stations.map((s) => s.stationId)), [detail.stations]);
  const { draft: served, setDraft: setServed, reset, dirty } = useDraft<ReadonlySet<number>>(savedServed, setKey);
  const [at, setAt] = useState(0);
  const [busy, setBusy] = useState(false);
  const stops = detail.lineStops;
  const toggle = (stationId: number) => {
    if (!detail.editable) return;
    const next = new Set(served);
    if (next.has(stationId)) next.delete(stationId);
    else next.add(stationId);
    setServed(next);
  };
  const run = async (call: () => Promise<SubLineInfo>, done: string) => {
    if (busy) return;
    setBusy(true);
    try {
      const d = await call();
      toast.success(done);
      onSaved(d);
    } catch {
      // In the toast.
    } finally {
      setBusy(false);
    }
  };
  const save = () => run(() => api.call(busLine.busLineDetailStationSave, { body: { detailId: detail.id, stationIds: stops.filter((s) => served.has(s.stationId)).map((s) => s.stationId) } }), `已保存子线路「${detail.name}」的站点`);
  const allOn = () => run(() => api.call(busLine.busLineDetailAllOn, { body: { id: detail.id } }), `子线路「${detail.name}」全部站点停靠`);
  const onSaveKey = saveKey(() => detail.editable && dirty && void save());
  // The list's own keys: Space on a button must still press the button.
  const onListKey = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const move = (to: number) => setAt(Math.max(0, Math.min(stops.length - 1, to)));
    if (e.key === 'ArrowDown' || e.key === 'j') move(at + 1);
    else if (e.key === 'ArrowUp' || e.key === 'k') move(at - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(stops.length - 1);
    else if (e.key === ' ' && stops[at]) toggle(stops[at].stationId);
    else return;
    e.preventDefault();
  };
  return (
    <ScreenSection title={`子线路站点 · ${detail.name}`}>
      <div className="flex max-w-2xl flex-col gap-3" onKeyDown={onSaveKey}>
        <p className="text-sm text-gray-700">
          {detail.lineName}（{detail.lineCode}）{directionLabel(detail.direction)} · 停靠 {served.size} / {stops.length} 站
          {detail.allStationsOn && !dirty && <span className="ml-2 rounded bg-green-50 px-1.5 py-0.5 text-xs text-green-700">全部停靠</span>}
          {dirty && <span className="ml-2 rounded bg-orange-50 px-1.5 py-0.5 text-xs text-orange-700">未保存</span>}
        </p>
        {!detail.editable && <p className="rounded bg-gray-50 px-3 py-2 text-sm text-gray-700">只读：所属版本不是开放编辑状态，或没有线网编辑权限。</p>}
        {detail.editable && (
          <div className="flex flex-wrap gap-1">
            <Button className="h-8" disabled={busy} onClick={() => void allOn()}>
              全部停靠
            </Button>
            <Button className="h-8" disabled={busy || !dirty} onClick={reset}>
              撤销修改
            </Button>
            <Button variant="primary" className="h-8" hotkey="Ctrl+S" disabled={busy || !dirty} onClick={() => void save()}>
              保存
            </Button>
          </div>
        )}
        {stops.length === 0 ? (
          <p className="rounded border border-dashed border-gray-300 px-3 py-6 text-center text-sm text-gray-600">所属线路的{directionLabel(detail.direction)}还没有站点</p>
        ) : (
          <ol
            role="listbox"
            aria-multiselectable
            aria-label={`${detail.name} 停靠站点（空格切换）`}
            tabIndex={0}
            onKeyDown={onListKey}
            aria-activedescendant={`${listId}-${at}`}
            className="max-h-[65vh] overflow-auto rounded border border-gray-200 bg-white outline-none focus-visible:ring-2 focus-visible:ring-[var(--theme)]/50"
          >
            {stops.map((s, i) => {
              const on = served.has(s.stationId);
              return (
                <li
                  key={`${s.id}`}
                  id={`${listId}-${i}`}
                  role="option"
                  aria-selected={on}
                  onClick={() => (setAt(i), toggle(s.stationId))}
                  className={`flex cursor-pointer items-center gap-3 border-b border-gray-100 px-3 py-1.5 text-sm last:border-b-0 ${i === at ? 'bg-[var(--theme)]/10' : ''}`}
                >
                  <span aria-hidden className={`flex size-4 items-center justify-center rounded border text-[10px] ${on ? 'border-[var(--theme-strong)] bg-[var(--theme-strong)] text-white' : 'border-gray-400'}`}>
                    {on ? '✓' : ''}
                  </span>
                  <span className="w-7 text-right tabular-nums text-gray-600">{i + 1}</span>
                  <span className={on ? 'font-medium text-gray-900' : 'text-gray-600'}>{s.name}</span>
                </li>
              );
            })}
          </ol>
        )}
      </div>
    </ScreenSection>
  );
}
