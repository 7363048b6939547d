import { useMemo, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { CUSTOM_LINE_EDITOR } from '../../../../shared/api/custom-bus/buttons';
import { type CustomLine, LEG_LABEL, type LineLeg, PATH_STOPS_MAX, STOP_OFFSET_MAX, legsOf, linePath, linePathSave, stationPage } from '../../../../shared/api/custom-bus/network';
import { STOP_MODE } from '../../../../shared/api/custom-bus/states';
import { metresBetween } from '../../../../shared/domain/geo';
import { Button } from '../../../components/button';
import { SelectField } from '../../../components/form-controls';
import { Field } from '../../../components/field';
import { LazyMap, type LngLat } from '../../../components/map/lazy-map';
import { type OrderedItem, OrderedListEditor } from '../../../components/ordered-list-editor';
import { PinyinPicker } from '../../../components/pinyin-picker';
import { ScreenSection } from '../../../components/screen-section';
import { api } from '../../../lib/api-client';
import { useAllowed } from '../../../lib/permission';
import { useScreenLocation } from '../../../lib/screen-context';
import { useApi } from '../../../lib/use-api';
import { useDraft } from '../../../lib/use-draft';
import { saveKey } from '../../../lib/use-save-key';
import { toast } from '../../../lib/toast';
import { lineListPath, linePathPath } from '../network-paths';

/**
 * 定制线路轨迹 (CustomLinePath, `?id=&direction=`): a leg's stops in order with the minutes each is
 * reached and who may board, and its drawn path, on the network map (offline vectors; tiles when
 * configured). Stops are added by name or pinyin, reordered with Alt+↑/↓, removed with Delete; the
 * path is drawn on the map (A adds a point at the centre, Shift+arrows move one) or generated from
 * the stops. Ctrl+S saves the leg whole, from the line's version on screen.
 */
export function CustomLinePathPage() {
  const { search } = useScreenLocation();
  const params = new URLSearchParams(search);
  const raw = params.get('id');
  const id = raw && /^\d+$/.test(raw) ? Number(raw) : null;
  const loaded = useApi(linePath, id ? { query: { lineId: id } } : null);
  const data = loaded.data?.line.id === id ? loaded.data : undefined;
  if (!id || loaded.error)
    return (
      <ScreenSection title="定制线路轨迹">
        <p className="text-sm text-gray-700">
          线路不存在，或不属于当前区域。
          <Link href={lineListPath()} className="ml-2 text-[var(--theme-strong)] underline">
            返回定制线路
          </Link>
        </p>
      </ScreenSection>
    );
  if (!data)
    return (
      <ScreenSection title="定制线路轨迹">
        <p role="status" className="text-sm text-gray-600">
          加载中…
        </p>
      </ScreenSection>
    );
  const legs = legsOf(data.line.direction);
  const asked = Number(params.get('direction'));
  const direction = legs.includes(asked as 0 | 1) ? (asked as 0 | 1) : legs[0]!;
  const leg = data.legs.find((l) => l.direction === direction) ?? { direction, stops: [], points: [], updatedDate: null };
  const other = data.legs.find((l) => l.direction !== direction) ?? null;
  return <LegEditor key={`${data.line.id}-${direction}`} line={data.line} leg={leg} other={other} reload={() => void loaded.mutate()} />;
}

interface DraftStop extends OrderedItem {
  stationId: number;
  name: string;
  lng: number;
  lat: number;
  offsetMin: number;
  mode: 0 | 1 | 2;
}

let draftKey = 0;
const stopOf = (s: { stationId: number; name: string; lng: number; lat: number; offsetMin: number; mode: 0 | 1 | 2 }): DraftStop => ({ ...s, key: `s${draftKey++}`, label: s.name });
const legKey = (v: { stops: readonly DraftStop[]; points: readonly LngLat[] }) => JSON.stringify([v.stops.map((s) => [s.stationId, s.offsetMin, s.mode]), v.points]);
/** The first problem the server would refuse, said before sending. */
function problemOf(stops: readonly DraftStop[], points: readonly LngLat[]) {
  if (stops.length < 2) return '线路至少需要2个站点';
  for (let i = 1; i < stops.length; i++) if (stops[i]!.offsetMin <= stops[i - 1]!.offsetMin) return `站点到达时间须依次递增（第${i + 1}站「${stops[i]!.name}」）`;
  if (points.length === 1) return '轨迹至少需要2个点，或不画轨迹';
  return null;
}
/** Minutes along the stops at about 25 km/h plus a minute a stop, rounded: a start the planner corrects. */
const estimate = (stops: readonly DraftStop[]) => {
  let m = 0;
  return stops.map((s, i) => (i === 0 ? 0 : (m += Math.max(1, Math.round(metresBetween([stops[i - 1]!.lng, stops[i - 1]!.lat], [s.lng, s.lat]) / 420) + 1))));
};

function LegEditor({ line, leg, other, reload }: { line: CustomLine; leg: LineLeg; other: LineLeg | null; reload(): void }) {
  const [, navigate] = useLocation();
  const editable = useAllowed(CUSTOM_LINE_EDITOR);
  const stations = useApi(stationPage, { query: { page: 0, size: 1000, sort: 'name,asc' } });
  const saved = useMemo(() => ({ stops: leg.stops.map((s) => stopOf(s)), points: leg.points as LngLat[] }), [leg]);
  const { draft, setDraft, reset, dirty } = useDraft(saved, legKey);
  const [selected, setSelected] = useState(draft.stops.length ? 0 : -1);
  const [vertex, setVertex] = useState(-1);
  const [busy, setBusy] = useState(false);
  const label = LEG_LABEL[leg.direction];
  const stops = draft.stops;
  const setStops = (next: DraftStop[]) => setDraft({ ...draft, stops: next });
  const setPoints = (points: LngLat[]) => setDraft({ ...draft, points });
  const current = selected >= 0 ? stops[selected] : undefined;
  const problem = problemOf(stops, draft.points);

  const inPath = useMemo(() => new Set(stops.map((s) => s.stationId)), [stops]);
  const all = useMemo(() => (stations.data?.content ?? []).filter((s) => s.districtId === line.districtId), [stations.data, line.districtId]);
  // The map fits what it is given: the leg's stops and the stations near them (4 km), not the district.
  const nearby = useMemo(() => {
    const near = (s: { lng: number; lat: number }) => !draft.stops.length || draft.stops.some((x) => metresBetween([x.lng, x.lat], [s.lng, s.lat]) <= 4000);
    return all.filter(near);
  }, [all, draft.stops]);
  const choices = useMemo(() => all.filter((s) => !inPath.has(s.id) && s.status === 1).map((s) => ({ id: s.id, label: s.name, hint: s.address })), [all, inPath]);
  const add = (stationId: number) => {
    const s = all.find((x) => x.id === stationId);
    if (!s || inPath.has(s.id) || stops.length >= PATH_STOPS_MAX) return;
    const at = selected >= 0 ? selected + 1 : stops.length;
    const prev = stops[at - 1];
    const next = stops[at];
    const offsetMin = prev ? (next ? Math.floor((prev.offsetMin + next.offsetMin) / 2) : prev.offsetMin + 5) : 0;
    setStops([...stops.slice(0, at), stopOf({ stationId: s.id, name: s.name, lng: s.lng, lat: s.lat, offsetMin, mode: 0 }), ...stops.slice(at)]);
    setSelected(at);
  };
  const patch = (i: number, p: Partial<DraftStop>) => setStops(stops.map((s, k) => (k === i ? { ...s, ...p } : s)));

  const items = useMemo(
    () =>
      stops.map((s, i) => ({
        ...s,
        label: `${s.name} · ${s.offsetMin}分`,
        badges: [
          ...(s.mode ? [{ text: STOP_MODE[s.mode], tone: 'muted' as const }] : []),
          ...(i > 0 && s.offsetMin <= stops[i - 1]!.offsetMin ? [{ text: '时间未递增', tone: 'warn' as const }] : []),
          ...(all.find((x) => x.id === s.stationId)?.status === 0 ? [{ text: '停用', tone: 'warn' as const }] : []),
        ],
      })),
    [stops, all],
  );
  const mapPoints = useMemo(
    () => [
      ...stops.map((s, i) => ({ id: s.stationId, name: `${i + 1}. ${s.name}`, lng: s.lng, lat: s.lat })),
      ...nearby.filter((s) => !inPath.has(s.id)).map((s) => ({ id: s.id, name: s.name, lng: s.lng, lat: s.lat, muted: true })),
    ],
    [stops, nearby, inPath],
  );
  const paths = useMemo(() => (other && other.points.length ? [{ key: 'other', points: other.points as LngLat[], colour: '#9ca3af', dashed: true }] : []), [other]);
  // A new object each render would redraw every marker on every render.
  const editPath = useMemo(() => (editable ? { points: draft.points, onChange: setPoints, selected: vertex, onSelect: setVertex } : undefined), [editable, draft, vertex]); // eslint-disable-line react-hooks/exhaustive-deps

  const save = async () => {
    if (busy || !dirty || !editable) return;
    if (problem) {
      toast.error(problem);
      return;
    }
    setBusy(true);
    try {
      await api.call(linePathSave, { body: { lineId: line.id, direction: leg.direction, stops: stops.map((s) => ({ stationId: s.stationId, offsetMin: s.offsetMin, mode: s.mode })), points: draft.points, rowVersion: line.rowVersion } });
      toast.success(`已保存 ${line.lineNo}「${line.name}」${label}轨迹（${stops.length} 站，${draft.points.length} 个轨迹点）`);
      reload();
    } catch {
      // The refusal (a stale version among them) is in the toast; the draft stays.
    } finally {
      setBusy(false);
    }
  };
  return (
    <ScreenSection title={`定制线路轨迹 · ${line.lineNo} ${line.name}`}>
      <div className="flex flex-col gap-3" onKeyDown={saveKey(() => void save())}>
        <div className="flex flex-wrap items-center gap-2">
          <div role="group" aria-label="方向" className="flex gap-1">
            {legsOf(line.direction).map((d) => (
              <Button key={d} variant={d === leg.direction ? 'primary' : 'default'} className="h-8" aria-pressed={d === leg.direction} onClick={() => navigate(linePathPath(line.id, d), { replace: true })}>
                {LEG_LABEL[d]}
              </Button>
            ))}
          </div>
          <span className="text-sm text-gray-700">
            {stops.length} 站 · {draft.points.length} 个轨迹点
            {dirty && <span className="ml-2 rounded bg-orange-50 px-1.5 py-0.5 text-xs text-orange-700">未保存</span>}
          </span>
          {editable && (
            <span className="ml-auto flex flex-wrap gap-1">
              {leg.direction === 1 && other && other.stops.length > 0 && stops.length === 0 && (
                <Button className="h-8" onClick={() => setStops([...other.stops].reverse().map((s, _i, list) => stopOf({ ...s, offsetMin: list[0]!.offsetMin - s.offsetMin, mode: s.mode === 1 ? 2 : s.mode === 2 ? 1 : 0 })))}>
                  按上行反向填充
                </Button>
              )}
              <Button className="h-8" disabled={stops.length < 2} onClick={() => setStops(estimate(stops).map((m, i) => ({ ...stops[i]!, offsetMin: m })))} title="按距离估算到达时间（约25公里/小时），再逐站修正">
                估算时间
              </Button>
              <Button className="h-8" disabled={stops.length < 2} onClick={() => (setPoints(stops.map((s) => [s.lng, s.lat] as LngLat)), setVertex(-1))} title="按站点顺序连线，再逐段调整到道路上">
                按站点生成轨迹
              </Button>
              <Button className="h-8" disabled={!draft.points.length} onClick={() => (setPoints([]), setVertex(-1))}>
                清空轨迹
              </Button>
              <Button className="h-8" disabled={!dirty || busy} onClick={() => (reset(), setSelected(saved.stops.length ? 0 : -1), setVertex(-1))}>
                撤销修改
              </Button>
              <Button variant="primary" className="h-8" hotkey="Ctrl+S" disabled={!dirty || busy} onClick={() => void save()}>
                保存{label}轨迹
              </Button>
            </span>
          )}
        </div>
        {!editable && <p className="rounded bg-gray-50 px-3 py-2 text-sm text-gray-700">只读：没有编辑定制线路的权限。</p>}
        {dirty && problem && (
          <p role="status" className="rounded bg-orange-50 px-3 py-2 text-sm text-orange-800">
            {problem}
          </p>
        )}
        <div className="flex flex-col gap-3 lg:flex-row">
          <section aria-label={`${label}站点`} className="flex flex-col gap-2 lg:w-80">
            {editable && (
              <PinyinPicker
                label={`添加${label}站点`}
                items={choices}
                onPick={(item) => add(Number(item.id))}
                placeholder="站点名称、拼音或首字母"
                help={selected >= 0 ? `Enter 添加到第 ${selected + 1} 站之后` : 'Enter 添加到末尾'}
              />
            )}
            <OrderedListEditor
              label={`${line.name}${label}站点`}
              items={items}
              onChange={editable ? (next) => setStops(next.map(({ badges: _b, ...s }) => ({ ...s, label: s.name }))) : undefined}
              selected={selected}
              onSelect={setSelected}
              empty={editable ? '还没有站点：在上方输入站点名称添加' : '没有站点'}
            />
            {current && editable && (
              <div className="rounded border border-gray-200 p-3" aria-label={`第${selected + 1}站「${current.name}」`} role="group">
                <p className="mb-2 text-sm font-medium text-gray-900">
                  第{selected + 1}站 · {current.name}
                </p>
                <Field
                  labelWidth={96}
                  label="到达（分钟）"
                  inputMode="numeric"
                  maxLength={3}
                  value={String(current.offsetMin)}
                  onChange={(e) => {
                    const v = e.target.value.trim();
                    if (/^\d{0,3}$/.test(v)) patch(selected, { offsetMin: Math.min(Number(v || '0'), STOP_OFFSET_MAX) });
                  }}
                  hint="发车后的分钟数，须依次递增"
                />
                <SelectField
                  labelWidth={96}
                  label="上下客"
                  options={Object.entries(STOP_MODE).map(([value, text]) => ({ value, label: text }))}
                  value={String(current.mode)}
                  onChange={(e) => patch(selected, { mode: Number(e.target.value) as 0 | 1 | 2 })}
                />
              </div>
            )}
          </section>
          <LazyMap
            label={`${line.name}${label}轨迹`}
            className="h-[60vh] flex-1"
            points={mapPoints}
            paths={paths}
            selectedId={current?.stationId ?? null}
            onSelect={(sid) => {
              const i = stops.findIndex((s) => s.stationId === sid);
              if (i >= 0) setSelected(i);
              else if (editable) add(sid);
            }}
            editPath={editPath}
          />
        </div>
      </div>
    </ScreenSection>
  );
}
