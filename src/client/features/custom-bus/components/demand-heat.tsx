import { useMemo, useState } from 'react';
import { CUSTOM_DEMAND_HANDLER } from '../../../../shared/api/custom-bus/buttons';
import { type Cluster, customDemandHeat } from '../../../../shared/api/custom-bus/demand';
import { hhmm } from '../../../../shared/custom/demand-grid';
import { Button } from '../../../components/button';
import { LazyMap, type MapPath, type MapPoint } from '../../../components/map/lazy-map';
import { Allowed } from '../../../lib/permission';
import { useApi } from '../../../lib/use-api';
import { ToLineDialog } from './demand-dialogs';

const km = (m: number) => `${(m / 1000).toFixed(1)}`;
const MIN_OPTIONS = [3, 5, 10, 20] as const;
const snapText = (s: Cluster['homeSnap']) => (s ? `${s.name}（${s.distanceM}米${s.kind === 'bus' ? '，公交站' : ''}）` : '1公里内无站点');

/**
 * ★ 需求热力: the riders' submissions clustered by home cell × work cell × half hour, drawn on the
 * line network's map (offline: vector only) as home → work strokes, and listed beside it with the
 * stations each end snaps to; 生成线路 makes a cluster a draft line (the dialog). Keys: the list's
 * rows are buttons (Tab, Enter selects on the map), g on a row or its button opens 生成线路.
 */
export function DemandHeat() {
  const [min, setMin] = useState<number>(5);
  const heat = useApi(customDemandHeat, { query: { minSupporters: min, limit: 50 } });
  const clusters = useMemo(() => heat.data?.clusters ?? [], [heat.data]);
  const [picked, setPicked] = useState<number | null>(null);
  const [making, setMaking] = useState<Cluster | null>(null);
  const points: MapPoint[] = useMemo(
    () => clusters.flatMap((c, i) => [{ id: i * 2 + 1, name: `${i + 1} 家 ${c.homeName}（${c.supporters}人）`, lng: c.home.lng, lat: c.home.lat, muted: picked !== null && picked !== i }, { id: i * 2 + 2, name: `${i + 1} 单位 ${c.workName}`, lng: c.work.lng, lat: c.work.lat, muted: picked !== null && picked !== i }]),
    [clusters, picked],
  );
  const paths: MapPath[] = useMemo(
    () => clusters.map((c, i) => ({ key: `c${i}`, points: [[c.home.lng, c.home.lat], [c.work.lng, c.work.lat]], colour: i === picked ? '#dc2626' : '#126dc2', dashed: i !== picked })),
    [clusters, picked],
  );
  const key = (c: Cluster) => `${c.districtId}|${c.homeCell}|${c.workCell}|${c.window}`;
  return (
    <section aria-label="需求热力" className="mt-6 rounded border border-gray-200 bg-white p-4">
      <div className="mb-2 flex flex-wrap items-center gap-3">
        <h3 className="text-base font-medium text-gray-900">需求热力</h3>
        <label className="flex items-center gap-1 text-sm text-gray-700">
          最少人数
          <select className="rounded border border-gray-300 px-1 py-0.5 focus-visible:outline-2 focus-visible:outline-[var(--theme)]" value={min} onChange={(e) => setMin(Number(e.target.value))}>
            {MIN_OPTIONS.map((n) => (
              <option key={n} value={n}>
                {n} 人
              </option>
            ))}
          </select>
        </label>
        <p className="text-xs text-gray-600">按家庭 500 米网格 × 单位网格 × 30 分钟出发时段聚类；位置只显示网格中心。</p>
      </div>
      {!heat.data ? (
        <p role="status" className="text-sm text-gray-600">
          {heat.error ? '无法加载需求热力' : '加载中…'}
        </p>
      ) : !clusters.length ? (
        <p role="status" className="text-sm text-gray-600">
          没有达到 {min} 人的聚类
        </p>
      ) : (
        <div className="flex flex-col gap-4 xl:flex-row">
          <LazyMap label="需求聚类地图" className="h-80 xl:h-[32rem] xl:flex-1" points={points} paths={paths} selectedId={picked === null ? null : picked * 2 + 1} onSelect={(id) => setPicked(Math.floor((id - 1) / 2))} />
          <ol aria-label="需求聚类" className="max-h-[32rem] overflow-y-auto xl:w-[28rem]">
            {clusters.map((c, i) => (
              <li key={key(c)} className={`mb-2 rounded border px-3 py-2 text-sm ${picked === i ? 'border-red-300 bg-red-50' : 'border-gray-200'}`}>
                <button
                  type="button"
                  className="w-full text-left focus-visible:outline-2 focus-visible:outline-[var(--theme)]"
                  aria-pressed={picked === i}
                  onClick={() => setPicked(picked === i ? null : i)}
                  onKeyDown={(e) => {
                    if (e.key === 'g' && c.homeSnap && c.workSnap) {
                      e.preventDefault();
                      setMaking(c);
                    }
                  }}
                >
                  <span className="font-medium text-gray-900">
                    {i + 1}. {c.homeName || c.homeCell} → {c.workName || c.workCell}
                  </span>
                  <span className="block tabular-nums text-gray-700">
                    {c.supporters} 人 · {hhmm(c.window)}–{hhmm(c.window + 1800)} · 中位 {hhmm(c.medianGoTime)} · {km(c.distanceM)} 公里
                  </span>
                  <span className="block text-xs text-gray-600">
                    起点站 {snapText(c.homeSnap)} · 终点站 {snapText(c.workSnap)}
                  </span>
                </button>
                <Allowed permission={CUSTOM_DEMAND_HANDLER}>
                  <Button className="mt-1" disabled={!c.homeSnap || !c.workSnap} hotkey="g" title={!c.homeSnap || !c.workSnap ? '有一端1公里内没有站点，不能生成线路' : '生成草稿线路和首周班次'} onClick={() => setMaking(c)}>
                    生成线路
                  </Button>
                </Allowed>
              </li>
            ))}
          </ol>
        </div>
      )}
      {making && <ToLineDialog source={{ cluster: making }} onClose={() => setMaking(null)} onDone={() => void heat.mutate()} />}
    </section>
  );
}
