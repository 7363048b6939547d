import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { busLine } from '../../../shared/api';
import { type TravelDirection, directionLabel, travelledBy } from '../../../shared/api/bus-line';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { audit } from '../../lib/audit';
import { fail, notFound } from '../../lib/errors';
import { assertStationsOfDistrict, canEdit, type LineRow, loadLine, lockEditableLine, lockStations } from './access';

type StopsBody = z.output<typeof busLine.busLineStationSave.body>;
type RouteBody = z.output<typeof busLine.busLineRouteSave.body>;

/** A direction's stops in order, with the station each one is. */
export async function stopsOf(db: Db, lineId: number, direction: TravelDirection) {
  const rows = await db
    .select({ id: t.lineStations.id, seq: t.lineStations.seq, stationId: t.stations.id, name: t.stations.name, lng: t.stations.lng, lat: t.stations.lat, state: t.stations.state })
    .from(t.lineStations)
    .innerJoin(t.stations, eq(t.stations.id, t.lineStations.stationId))
    .where(and(eq(t.lineStations.lineId, lineId), eq(t.lineStations.direction, direction)))
    .orderBy(asc(t.lineStations.seq));
  return rows;
}

function assertTravels(line: LineRow, direction: TravelDirection) {
  if (!travelledBy(line.direction).includes(direction)) throw fail(`线路「${line.name}」是${directionLabel(line.direction)}线路，没有${directionLabel(direction)}方向`);
}

export async function stopsInfo(deps: AppDeps, a: AuthContext, lineId: number, direction: TravelDirection) {
  const { version } = await loadLine(deps.db, a, lineId);
  return { lineId, direction, editable: canEdit(a, version), stops: await stopsOf(deps.db, lineId, direction) };
}

/** Writes a direction's order (seq 0…n-1) and keeps its sub-lines to stops the line still has. */
async function writeStops(tx: Db, lineId: number, direction: TravelDirection, stationIds: readonly number[]) {
  await lockStations(tx, stationIds);
  await tx.delete(t.lineStations).where(and(eq(t.lineStations.lineId, lineId), eq(t.lineStations.direction, direction)));
  if (stationIds.length) await tx.insert(t.lineStations).values(stationIds.map((stationId, seq) => ({ lineId, direction, seq, stationId })));
  const details = await tx.select().from(t.lineDetails).where(and(eq(t.lineDetails.lineId, lineId), eq(t.lineDetails.direction, direction)));
  for (const d of details) await syncSubLine(tx, d, stationIds);
}

/** A sub-line serving all stops follows the line; otherwise it keeps the stops still on the line, in line order. */
export async function syncSubLine(tx: Db, detail: typeof t.lineDetails.$inferSelect, lineStationIds: readonly number[]) {
  const current = await tx.select({ stationId: t.lineDetailStations.stationId }).from(t.lineDetailStations).where(eq(t.lineDetailStations.detailId, detail.id)).orderBy(asc(t.lineDetailStations.seq));
  const keep = new Set(current.map((c) => c.stationId));
  const next = detail.allStationsOn ? [...lineStationIds] : lineStationIds.filter((id) => keep.has(id));
  // Unchanged stops keep their rows (and ids).
  if (next.length === current.length && next.every((id, i) => id === current[i]!.stationId)) return;
  await tx.delete(t.lineDetailStations).where(eq(t.lineDetailStations.detailId, detail.id));
  if (next.length) await tx.insert(t.lineDetailStations).values(next.map((stationId, seq) => ({ detailId: detail.id, seq, stationId })));
}

export async function saveStops(deps: AppDeps, a: AuthContext, body: StopsBody) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const { line, version } = await lockEditableLine(tx, a, body.lineId);
    assertTravels(line, body.direction);
    const repeat = body.stationIds.findIndex((id, i) => i > 0 && body.stationIds[i - 1] === id);
    if (repeat > 0) throw fail(`第 ${repeat + 1} 站与上一站相同`);
    await assertStationsOfDistrict(tx, version.districtId, body.stationIds);
    const before = (await stopsOf(tx, line.id, body.direction)).map((s) => s.stationId);
    await writeStops(tx, line.id, body.direction, body.stationIds);
    await tx.update(t.busLines).set({ updatedAt: now }).where(eq(t.busLines.id, line.id));
    const stops = await stopsOf(tx, line.id, body.direction);
    await audit(tx, a.actor, {
      type: 'LINE_STOPS',
      targetDistrictId: version.districtId,
      target: `line/${line.id}`,
      summary: `线路「${line.name}」${directionLabel(body.direction)}站点：${before.length} 站 → ${stops.length} 站`,
      before: { stationIds: before },
      after: { stationIds: body.stationIds },
    }, now);
    return { lineId: line.id, direction: body.direction, editable: true, stops };
  });
}

export async function deleteStop(deps: AppDeps, a: AuthContext, id: number) {
  const [row] = await deps.db.select().from(t.lineStations).where(eq(t.lineStations.id, id));
  if (!row) throw notFound('线路站点不存在');
  const direction = row.direction as TravelDirection;
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const { line, version } = await lockEditableLine(tx, a, row.lineId);
    const stops = await stopsOf(tx, line.id, direction);
    const gone = stops.find((s) => s.id === id);
    if (!gone) throw notFound('线路站点不存在');
    const next = stops.filter((s) => s.id !== id).map((s) => s.stationId);
    await writeStops(tx, line.id, direction, next);
    await tx.update(t.busLines).set({ updatedAt: now }).where(eq(t.busLines.id, line.id));
    await audit(tx, a.actor, { type: 'LINE_STOPS', targetDistrictId: version.districtId, target: `line/${line.id}`, summary: `线路「${line.name}」${directionLabel(direction)}删除第 ${gone.seq + 1} 站「${gone.name}」`, before: { stationIds: stops.map((s) => s.stationId) }, after: { stationIds: next } }, now);
    return { lineId: line.id, direction, editable: true, stops: await stopsOf(tx, line.id, direction) };
  });
}

const routeDto = (r: typeof t.lineRoutes.$inferSelect) => ({ id: r.id, lineId: r.lineId, direction: r.direction as TravelDirection, points: r.points });

export async function listRoutes(deps: AppDeps, a: AuthContext, lineId: number) {
  await loadLine(deps.db, a, lineId);
  return (await deps.db.select().from(t.lineRoutes).where(eq(t.lineRoutes.lineId, lineId)).orderBy(asc(t.lineRoutes.direction))).map(routeDto);
}

export async function saveRoute(deps: AppDeps, a: AuthContext, body: RouteBody) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const { line, version } = await lockEditableLine(tx, a, body.lineId);
    assertTravels(line, body.direction);
    const [old] = await tx.select().from(t.lineRoutes).where(and(eq(t.lineRoutes.lineId, line.id), eq(t.lineRoutes.direction, body.direction)));
    const points = body.points as [number, number][];
    const [saved] = await tx
      .insert(t.lineRoutes)
      .values({ lineId: line.id, direction: body.direction, points })
      .onConflictDoUpdate({ target: [t.lineRoutes.lineId, t.lineRoutes.direction], set: { points: sql`excluded.points` } })
      .returning();
    await tx.update(t.busLines).set({ updatedAt: now }).where(eq(t.busLines.id, line.id));
    await audit(tx, a.actor, { type: 'LINE_ROUTE', targetDistrictId: version.districtId, target: `line/${line.id}`, summary: `线路「${line.name}」${directionLabel(body.direction)}轨迹：${old?.points.length ?? 0} 点 → ${points.length} 点`, before: old ? { points: old.points.length } : null, after: { points: points.length } }, now);
    return routeDto(saved!);
  });
}

export async function deleteRoutes(deps: AppDeps, a: AuthContext, ids: readonly number[]) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const routes = await tx.select().from(t.lineRoutes).where(inArray(t.lineRoutes.id, [...ids]));
    if (routes.length !== new Set(ids).size) throw notFound('轨迹不存在');
    // Lines lock in id order, so two batches over the same lines never deadlock.
    for (const lineId of [...new Set(routes.map((r) => r.lineId))].sort((x, y) => x - y)) {
      const { line, version } = await lockEditableLine(tx, a, lineId);
      const mine = routes.filter((r) => r.lineId === lineId);
      await tx.delete(t.lineRoutes).where(inArray(t.lineRoutes.id, mine.map((r) => r.id)));
      await audit(tx, a.actor, { type: 'LINE_ROUTE', targetDistrictId: version.districtId, target: `line/${line.id}`, summary: `线路「${line.name}」删除${mine.map((r) => directionLabel(r.direction)).join('、')}轨迹`, before: { routes: mine.map((r) => r.id) } }, now);
    }
    return { deleted: routes.length };
  });
}
