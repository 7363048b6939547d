import { useMemo, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { type BusLineInfo, busLine } from '../../../../shared/api';
import { MAX_STOP_OFFSET_M, type TravelDirection, directionLabel, travelledBy } from '../../../../shared/api/bus-line';
import { distanceToPath } from '../../../../shared/domain/geo';
import { pagePath } from '../../../../shared/modules';
import { Button } from '../../../components/button';
import { LazyMap, type LngLat } from '../../../components/map/lazy-map';
import { ScreenSection } from '../../../components/screen-section';
import { toast } from '../../../lib/toast';
import { api } from '../../../lib/api-client';
import { saveKey } from '../../../lib/use-save-key';
import { useDraft } from '../../../lib/use-draft';
import { useScreenLocation } from '../../../lib/screen-context';
import { idParam, useLineInfo } from '../api';

/**
 * 线路轨迹 (LinePath, `?id=&direction=`): a direction's path on the map over its stops, drawn by
 * clicking points (or A at the map's centre), dragged (or Shift+arrows), checked against the
 * 300 m rule while drawing, and saved with Ctrl+S.
 */
export function LinePathPage() {
  const { search } = useScreenLocation();
  const id = idParam(search);
  const info = useLineInfo(id);
  if (!id || info.error)
    return (
      <ScreenSection title="线路轨迹">
        <p className="text-sm text-gray-700">
          线路不存在，或不属于当前区域。
          <Link href={pagePath('bus', 'list')} className="ml-2 text-[var(--theme-strong)] underline">
            返回线路列表
          </Link>
        </p>
      </ScreenSection>
    );
  if (!info.data) return <ScreenSection title="线路轨迹"><p className="text-sm text-gray-600">加载中…</p></ScreenSection>;
  const asked = Number(new URLSearchParams(search).get('direction'));
  const directions = travelledBy(info.data.direction);
  const direction = directions.includes(asked as TravelDirection) ? (asked as TravelDirection) : directions[0]!;
  return <PathEditor key={`${info.data.id}-${direction}`} line={info.data} direction={direction} reload={() => void info.mutate()} />;
}

const pathKey = (points: readonly LngLat[]) => JSON.stringify(points);

function PathEditor({ line, direction, reload }: { line: BusLineInfo; direction: TravelDirection; reload(): void }) {
  const [, navigate] = useLocation();
  const route = line.routes.find((r) => r.direction === direction) ?? null;
  const other = line.routes.find((r) => r.direction !== direction) ?? null;
  const stops = direction === 0 ? line.stops.up : line.stops.down;
  const savedPoints = useMemo(() => (route?.points ?? []) as LngLat[], [route]);
  const { draft: points, setDraft: setPoints, reset, dirty } = useDraft<LngLat[]>(savedPoints, pathKey);
  const [vertex, setVertex] = useState(-1);
  const [stationId, setStationId] = useState<number | null>(stops[0]?.stationId ?? null);
  const [busy, setBusy] = useState(false);
  // A new object each render would redraw every marker on every render (and every mousemove of a drag).
  const editPath = useMemo(() => (line.editable ? { points, onChange: setPoints, selected: vertex, onSelect: setVertex } : undefined), [line.editable, points, vertex]); // eslint-disable-line react-hooks/exhaustive-deps

  const far = useMemo(() => (points.length >= 2 ? stops.map((s) => ({ s, off: distanceToPath([s.lng, s.lat], points) })).filter((x) => x.off > MAX_STOP_OFFSET_M) : []), [points, stops]);
  const mapPoints = useMemo(() => stops.map((s) => ({ id: s.stationId, name: `${s.seq + 1}. ${s.name}`, lng: s.lng, lat: s.lat, muted: s.state !== 1 })), [stops]);
  const paths = useMemo(() => (other ? [{ key: 'other', points: other.points as LngLat[], colour: '#9ca3af', dashed: true }] : []), [other]);

  const save = async () => {
    if (busy || !dirty || !line.editable) return;
    setBusy(true);
    try {
      if (points.length === 0 && route) await api.call(busLine.busLineRouteDeleteBatch, { body: { ids: [route.id] } });
      else await api.call(busLine.busLineRouteSave, { body: { lineId: line.id, direction, points } });
      toast.success(`已保存${line.name}${directionLabel(direction)}轨迹（${points.length} 点）`);
      reload();
    } catch {
      // In the toast.
    } finally {
      setBusy(false);
    }
  };
  const onKeyDown = saveKey(() => void save());
  return (
    <ScreenSection title={`线路轨迹 · ${line.name}`}>
      <div className="flex flex-col gap-3" onKeyDown={onKeyDown}>
        <div className="flex flex-wrap items-center gap-2">
          <div role="group" aria-label="方向" className="flex gap-1">
            {travelledBy(line.direction).map((d) => (
              <Button key={d} variant={d === direction ? 'primary' : 'default'} className="h-8" aria-pressed={d === direction} onClick={() => navigate(pagePath('bus', 'line-path', { query: { id: line.id, direction: d } }), { replace: true })}>
                {directionLabel(d)}
              </Button>
            ))}
          </div>
          <span className="text-sm text-gray-700">
            {points.length} 个轨迹点 · {stops.length} 站{dirty && <span className="ml-2 rounded bg-orange-50 px-1.5 py-0.5 text-xs text-orange-700">未保存</span>}
          </span>
          {line.editable && (
            <span className="ml-auto flex flex-wrap gap-1">
              <Button className="h-8" disabled={!route || dirty} title={dirty ? '先保存轨迹' : undefined} onClick={() => navigate(pagePath('station', 'gps-sort', { query: { lineId: line.id, direction } }))}>
                按轨迹排序站点
              </Button>
              <Button className="h-8" disabled={stops.length < 2} onClick={() => (setPoints(stops.map((s) => [s.lng, s.lat] as LngLat)), setVertex(-1))} title="按站点顺序连线，再逐段调整到道路上">
                按站点生成
              </Button>
              <Button className="h-8" disabled={!points.length} onClick={() => (setPoints([]), setVertex(-1))}>
                清空
              </Button>
              <Button className="h-8" disabled={!dirty || busy} onClick={() => (reset(), setVertex(-1))}>
                撤销修改
              </Button>
              <Button variant="primary" className="h-8" hotkey="Ctrl+S" disabled={!dirty || busy || points.length === 1} onClick={() => void save()}>
                保存轨迹
              </Button>
            </span>
          )}
        </div>
        {!line.editable && <p className="rounded bg-gray-50 px-3 py-2 text-sm text-gray-700">只读：版本「{line.version.name}」不是开放编辑状态，或没有线网编辑权限。</p>}
        {far.length > 0 && (
          <p role="status" className="rounded bg-orange-50 px-3 py-2 text-sm text-orange-800">
            {far.length} 个站点离轨迹超过 {MAX_STOP_OFFSET_M} 米，提交审核时会被拦下：{far.slice(0, 3).map((x) => `${x.s.name}（${Math.round(x.off)} 米）`).join('、')}
            {far.length > 3 ? ' 等' : ''}
          </p>
        )}
        <div className="flex flex-col gap-3 lg:flex-row">
          <LazyMap
            label={`${line.name}${directionLabel(direction)}轨迹`}
            className="h-[60vh] flex-1"
            points={mapPoints}
            paths={paths}
            selectedId={stationId}
            onSelect={setStationId}
            editPath={editPath}
          />
          <ol aria-label={`${directionLabel(direction)}站点`} className="max-h-[60vh] overflow-auto rounded border border-gray-200 text-sm lg:w-64">
            {stops.map((s) => (
              <li key={s.id}>
                <button
                  type="button"
                  onClick={() => setStationId(s.stationId)}
                  aria-current={s.stationId === stationId ? 'true' : undefined}
                  className={`flex w-full items-center gap-2 px-3 py-1 text-left focus-visible:outline-2 focus-visible:outline-[var(--theme)] ${s.stationId === stationId ? 'bg-[var(--theme)]/10 font-medium' : ''}`}
                >
                  <span className="w-6 text-right tabular-nums text-gray-600">{s.seq + 1}</span>
                  <span className="truncate">{s.name}</span>
                </button>
              </li>
            ))}
          </ol>
        </div>
      </div>
    </ScreenSection>
  );
}
