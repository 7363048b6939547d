import { and, asc, eq, inArray } from 'drizzle-orm';
import { directionLabel, travelledBy } from '../../../shared/api/bus-line';
import type { LineChange } from '../../../shared/api/line-version';
import { distanceToPath } from '../../../shared/domain/geo';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { notFound } from '../../lib/errors';
import { assertInScope } from '../../lib/scope';

/** A path counts as moved when some point of one lies farther than this from the other. */
const PATH_MOVED_M = 20;

interface LineShape {
  code: string;
  name: string;
  direction: number;
  isLoop: boolean;
  state: number;
  fare: number;
  hours: string;
  stops: Map<number, { id: number; name: string }[]>;
  routes: Map<number, [number, number][]>;
}

async function shapes(db: Db, versionId: number): Promise<Map<string, LineShape>> {
  const lines = await db.select().from(t.busLines).where(eq(t.busLines.versionId, versionId));
  const ids = lines.map((l) => l.id);
  const stops = ids.length
    ? await db
        .select({ lineId: t.lineStations.lineId, direction: t.lineStations.direction, id: t.stations.id, name: t.stations.name })
        .from(t.lineStations)
        .innerJoin(t.stations, eq(t.stations.id, t.lineStations.stationId))
        .where(inArray(t.lineStations.lineId, ids))
        .orderBy(asc(t.lineStations.lineId), asc(t.lineStations.direction), asc(t.lineStations.seq))
    : [];
  const routes = ids.length ? await db.select().from(t.lineRoutes).where(inArray(t.lineRoutes.lineId, ids)) : [];
  const out = new Map<string, LineShape>();
  for (const l of lines) {
    const mine = stops.filter((s) => s.lineId === l.id);
    out.set(l.code, {
      code: l.code,
      name: l.name,
      direction: l.direction,
      isLoop: l.isLoop,
      state: l.state,
      fare: l.fare,
      hours: `${l.firstBus ?? ''}–${l.lastBus ?? ''}`,
      stops: new Map([0, 1].map((d) => [d, mine.filter((s) => s.direction === d).map((s) => ({ id: s.id, name: s.name }))])),
      routes: new Map(routes.filter((r) => r.lineId === l.id).map((r) => [r.direction, r.points])),
    });
  }
  return out;
}

/** Paths are compared on at most this many of their points each: a 5,000-point path stays cheap. */
const SAMPLE = 200;
const sample = (p: readonly [number, number][]) => (p.length <= SAMPLE ? p : Array.from({ length: SAMPLE }, (_, i) => p[Math.round((i * (p.length - 1)) / (SAMPLE - 1))]!));

/** Metres the farther of two paths strays from the other (a symmetric Hausdorff distance on sampled points). */
function pathShift(a: readonly [number, number][], b: readonly [number, number][]): number {
  if (a.length < 2 || b.length < 2) return Number.POSITIVE_INFINITY;
  if (a.length === b.length && a.every((p, i) => p[0] === b[i]![0] && p[1] === b[i]![1])) return 0;
  const one = (p: readonly [number, number][], q: readonly [number, number][]) => {
    let worst = 0;
    for (const pt of sample(p)) worst = Math.max(worst, distanceToPath(pt, q));
    return worst;
  };
  return Math.max(one(a, b), one(b, a));
}

function lineDetails(was: LineShape, now: LineShape): string[] {
  const out: string[] = [];
  if (was.name !== now.name) out.push(`名称：${was.name} → ${now.name}`);
  if (was.direction !== now.direction) out.push(`方向：${directionLabel(was.direction)} → ${directionLabel(now.direction)}`);
  if (was.isLoop !== now.isLoop) out.push(now.isLoop ? '改为环线' : '不再是环线');
  if (was.state !== now.state) out.push(now.state ? '恢复运营' : '停运');
  if (was.fare !== now.fare) out.push(`票价：${(was.fare / 100).toFixed(2)} → ${(now.fare / 100).toFixed(2)} 元`);
  if (was.hours !== now.hours) out.push(`运营时间：${was.hours} → ${now.hours}`);
  for (const d of new Set([...travelledBy(was.direction), ...travelledBy(now.direction)])) {
    const label = directionLabel(d);
    const a = was.stops.get(d) ?? [];
    const b = now.stops.get(d) ?? [];
    const aIds = new Set(a.map((s) => s.id));
    const bIds = new Set(b.map((s) => s.id));
    const added = b.filter((s) => !aIds.has(s.id));
    const removed = a.filter((s) => !bIds.has(s.id));
    if (added.length) out.push(`${label}新增站点：${added.map((s) => s.name).join('、')}`);
    if (removed.length) out.push(`${label}删除站点：${removed.map((s) => s.name).join('、')}`);
    const keptA = a.filter((s) => bIds.has(s.id)).map((s) => s.id);
    const keptB = b.filter((s) => aIds.has(s.id)).map((s) => s.id);
    if (keptA.join() !== keptB.join()) out.push(`${label}站序调整`);
    const ra = was.routes.get(d);
    const rb = now.routes.get(d);
    if (ra && !rb) out.push(`${label}轨迹删除`);
    else if (!ra && rb) out.push(`${label}新增轨迹`);
    else if (ra && rb) {
      const shift = pathShift(ra, rb);
      if (shift > PATH_MOVED_M) out.push(`${label}轨迹改变，最大偏移 ${Number.isFinite(shift) ? Math.round(shift) : '—'} 米`);
    }
  }
  return out;
}

/** What a version changes against its district's online version: lines added, removed and changed. */
export async function versionDiff(deps: AppDeps, a: AuthContext, id: number) {
  const [v] = await deps.db.select().from(t.lineVersions).where(eq(t.lineVersions.id, id));
  if (!v) throw notFound('版本不存在');
  assertInScope(a, v.districtId);
  const [online] = await deps.db.select().from(t.lineVersions).where(and(eq(t.lineVersions.districtId, v.districtId), eq(t.lineVersions.status, 3)));
  const version = { id: v.id, name: v.name, status: v.status };
  if (!online || online.id === v.id) return { version, against: null, changes: [], unchanged: 0 };
  const [was, now] = await Promise.all([shapes(deps.db, online.id), shapes(deps.db, v.id)]);
  const changes: LineChange[] = [];
  let unchanged = 0;
  for (const [code, line] of now) {
    const old = was.get(code);
    if (!old) changes.push({ code, name: line.name, change: 'added', details: [`${[0, 1].map((d) => line.stops.get(d)?.length ?? 0).join(' / ')} 站（上行/下行）`] });
    else {
      const details = lineDetails(old, line);
      if (details.length) changes.push({ code, name: line.name, change: 'changed', details });
      else unchanged++;
    }
  }
  for (const [code, line] of was) if (!now.has(code)) changes.push({ code, name: line.name, change: 'removed', details: [] });
  const natural = (x: string, y: string) => x.length - y.length || x.localeCompare(y);
  changes.sort((x, y) => natural(x.code, y.code));
  return { version, against: { id: online.id, name: online.name }, changes, unchanged };
}
