import { useMemo, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { busLine } from '../../../../shared/api';
import { type TravelDirection, directionLabel, travelledBy } from '../../../../shared/api/bus-line';
import { orderAlongPath } from '../../../../shared/domain/geo';
import { pagePath } from '../../../../shared/modules';
import { Button } from '../../../components/button';
import { LazyMap, type LngLat } from '../../../components/map/lazy-map';
import { PinyinPicker } from '../../../components/pinyin-picker';
import { ScreenSection } from '../../../components/screen-section';
import { toast } from '../../../lib/toast';
import { api } from '../../../lib/api-client';
import { saveKey } from '../../../lib/use-save-key';
import { useScreenLocation } from '../../../lib/screen-context';
import { useApi } from '../../../lib/use-api';

const positive = (v: string | null) => (Number.isInteger(Number(v)) && Number(v) > 0 ? Number(v) : null);

/**
 * GPS排序 (GpsSort, `?lineId=&direction=`): orders a direction's stops by where they fall along its
 * path, shows the new order beside the old one (and on the map) before anything is saved, and
 * saves it with Ctrl+S.
 */
export function GpsSortPage() {
  const { search } = useScreenLocation();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(search);
  const lineId = positive(params.get('lineId'));
  const lines = useApi(busLine.busLineList, { query: { page: 0, size: 1000 } });
  const info = useApi(busLine.busLineInfoCall, lineId ? { query: { id: lineId } } : null);
  const choices = useMemo(() => (lines.data?.content ?? []).map((l) => ({ id: l.id, label: `${l.name}（${l.code}）`, hint: l.terminals ?? undefined })), [lines.data]);
  const line = info.data;
  const directions = line ? travelledBy(line.direction) : [];
  const asked = Number(params.get('direction'));
  const direction = (directions.includes(asked as TravelDirection) ? asked : directions[0]) as TravelDirection | undefined;
  const go = (id: number, d?: number) => navigate(pagePath('station', 'gps-sort', { query: { lineId: id, direction: d } }), { replace: true });
  return (
    <ScreenSection title="GPS排序">
      <div className="mb-3 flex flex-wrap items-end gap-3">
        <PinyinPicker className="w-72" label="线路" items={choices} onPick={(item) => go(item.id)} placeholder={line ? `${line.name}（${line.code}）` : '线路编号或名称，如 49'} help={line ? '输入可换一条线路' : 'Enter 选择线路'} />
        {line && (
          <div role="group" aria-label="方向" className="flex gap-1 pb-5">
            {directions.map((d) => (
              <Button key={d} className="h-8" variant={d === direction ? 'primary' : 'default'} aria-pressed={d === direction} onClick={() => go(line.id, d)}>
                {directionLabel(d)}
              </Button>
            ))}
          </div>
        )}
      </div>
      {!lineId && <p className="text-sm text-gray-700">选择一条线路：按它的轨迹重新排列站点顺序，保存前先预览。</p>}
      {info.error && <p className="text-sm text-gray-700">线路不存在，或不属于当前区域。</p>}
      {line && direction !== undefined && <Preview key={`${line.id}-${direction}`} lineId={line.id} direction={direction} onSaved={() => void info.mutate()} />}
    </ScreenSection>
  );
}

function Preview({ lineId, direction, onSaved }: { lineId: number; direction: TravelDirection; onSaved(): void }) {
  const info = useApi(busLine.busLineInfoCall, { query: { id: lineId } });
  const [busy, setBusy] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const line = info.data;
  const stops = useMemo(() => (line ? (direction === 0 ? line.stops.up : line.stops.down) : []), [line, direction]);
  const route = line?.routes.find((r) => r.direction === direction);
  const sorted = useMemo(() => (route && route.points.length >= 2 ? orderAlongPath(stops, route.points) : stops), [route, stops]);
  if (!line) return null;
  if (!route || route.points.length < 2)
    return (
      <p className="text-sm text-gray-700">
        {line.name}{directionLabel(direction)}还没有轨迹，无法按轨迹排序。
        <Link href={pagePath('bus', 'line-path', { query: { id: line.id, direction } })} className="ml-2 text-[var(--theme-strong)] underline">
          去绘制轨迹
        </Link>
      </p>
    );
  const oldIndex = new Map(stops.map((s, i) => [s.id, i]));
  const changed = sorted.some((s, i) => s.id !== stops[i]?.id);
  const save = async () => {
    if (!changed || busy || !line.editable) return;
    setBusy(true);
    try {
      await api.call(busLine.busLineStationSave, { body: { lineId: line.id, direction, stationIds: sorted.map((s) => s.stationId) } });
      toast.success(`已按轨迹排序${line.name}${directionLabel(direction)}站点`);
      await info.mutate();
      onSaved();
    } catch {
      // In the toast.
    } finally {
      setBusy(false);
    }
  };
  const onKeyDown = saveKey(() => void save());
  const points = sorted.map((s, i) => ({ id: s.stationId, name: `${i + 1}. ${s.name}`, lng: s.lng, lat: s.lat }));
  return (
    <div className="flex flex-col gap-3" onKeyDown={onKeyDown}>
      <div className="flex flex-wrap items-center gap-2 text-sm text-gray-700">
        {changed ? `按轨迹排序后有 ${sorted.filter((s, i) => s.id !== stops[i]?.id).length} 个站点位置改变` : '站点顺序已与轨迹一致'}
        {!line.editable && <span className="rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-700">只读：版本「{line.version.name}」不可修改</span>}
        {line.editable && (
          <Button variant="primary" className="ml-auto h-8" hotkey="Ctrl+S" disabled={!changed || busy} onClick={() => void save()}>
            应用排序
          </Button>
        )}
      </div>
      <div className="flex flex-col gap-3 lg:flex-row">
        <table className="text-sm lg:w-96">
          <caption className="sr-only">排序预览</caption>
          <thead>
            <tr className="bg-gray-50 text-left text-gray-700">
              <th className="px-2 py-1.5 font-medium">新顺序</th>
              <th className="px-2 py-1.5 font-medium">站点</th>
              <th className="px-2 py-1.5 font-medium">原顺序</th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((s, i) => {
              const was = oldIndex.get(s.id) ?? i;
              return (
                <tr key={s.id} className={`border-t border-gray-100 ${was !== i ? 'bg-orange-50' : ''} ${selected === s.stationId ? 'outline-2 -outline-offset-2 outline-[var(--theme)]' : ''}`}>
                  <td className="px-2 py-1 tabular-nums">{i + 1}</td>
                  <td className="px-2 py-1">
                    <button type="button" className="text-left hover:underline focus-visible:outline-2 focus-visible:outline-[var(--theme)]" onClick={() => setSelected(s.stationId)}>
                      {s.name}
                    </button>
                  </td>
                  <td className="px-2 py-1 tabular-nums text-gray-700">
                    {was + 1}
                    {was !== i && <span className="ml-1 text-orange-800">{was > i ? `↑${was - i}` : `↓${i - was}`}</span>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <LazyMap label={`${line.name}${directionLabel(direction)}排序预览`} className="h-[60vh] flex-1" points={points} paths={[{ key: 'route', points: route.points as LngLat[], colour: '#126dc2' }]} selectedId={selected} onSelect={setSelected} />
      </div>
    </div>
  );
}
