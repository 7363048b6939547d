import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { busLine } from '../../../shared/api';
import { type TravelDirection, directionLabel, travelledBy } from '../../../shared/api/bus-line';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { audit } from '../../lib/audit';
import { fail, notFound } from '../../lib/errors';
import { paged } from '../../lib/paging';
import { assertInScope } from '../../lib/scope';
import { contains, iso } from '../../lib/sql';
import { nextVersion, updateVersioned } from '../../lib/row-version';
import { canEdit, listVersions, lockEditableLine, lockStations, versionRef } from './access';
import { stopsOf, syncSubLine } from './stops';

type ListQuery = z.output<typeof busLine.busLineDetailList.query>;
type SaveBody = z.output<typeof busLine.busLineDetailSave.body>;

const columns = {
  d: t.lineDetails,
  lineCode: t.busLines.code,
  lineName: t.busLines.name,
  versionId: t.busLines.versionId,
  districtId: t.lineVersions.districtId,
  versionStatus: t.lineVersions.status,
  stops: sql<number>`(select count(*)::int from ${t.lineDetailStations} x where x.detail_id = ${t.lineDetails.id})`,
};
type Row = { d: typeof t.lineDetails.$inferSelect; lineCode: string; lineName: string; versionId: number; districtId: number; versionStatus: number; stops: number };

const dto = (r: Row) => ({
  id: r.d.id,
  lineId: r.d.lineId,
  lineCode: r.lineCode,
  lineName: r.lineName,
  versionId: r.versionId,
  districtId: r.districtId,
  name: r.d.name,
  direction: r.d.direction as TravelDirection,
  allStationsOn: r.d.allStationsOn,
  state: r.d.state,
  stops: Number(r.stops),
  updatedDate: iso(r.d.updatedAt),
  rowVersion: r.d.rowVersion,
});

const select = (db: Db) =>
  db.select(columns).from(t.lineDetails).innerJoin(t.busLines, eq(t.busLines.id, t.lineDetails.lineId)).innerJoin(t.lineVersions, eq(t.lineVersions.id, t.busLines.versionId));

async function loadDetail(db: Db, a: AuthContext, id: number): Promise<Row> {
  const [r] = await select(db).where(eq(t.lineDetails.id, id));
  if (!r) throw notFound('子线路不存在');
  assertInScope(a, r.districtId);
  return r;
}

export async function listSubLines(deps: AppDeps, a: AuthContext, q: ListQuery) {
  const where: (SQL | undefined)[] = [];
  let version = null;
  if (q.lineId !== undefined) {
    const [line] = await deps.db.select({ versionId: t.busLines.versionId }).from(t.busLines).where(eq(t.busLines.id, q.lineId));
    if (!line) throw notFound('线路不存在');
    const [v] = await listVersions(deps.db, a, line.versionId);
    version = versionRef(v);
    where.push(eq(t.lineDetails.lineId, q.lineId));
  } else {
    const versions = await listVersions(deps.db, a, q.versionId);
    version = versions.length === 1 ? versionRef(versions[0]) : null;
    where.push(inArray(t.busLines.versionId, versions.length ? versions.map((v) => v.id) : [-1]));
  }
  if (q.name) where.push(sql`(${contains(t.lineDetails.name, q.name)} or ${contains(t.busLines.name, q.name)} or ${contains(t.busLines.code, q.name)})`);
  const cond = and(...where);
  const [field, dir] = (q.sort ?? '').split(',');
  const by = dir === 'desc' ? desc : asc;
  const order = field === 'name' ? [by(t.lineDetails.name)] : field === 'updatedDate' ? [by(t.lineDetails.updatedAt)] : [asc(sql`length(${t.busLines.code})`), asc(t.busLines.code), asc(t.lineDetails.name)];
  const page = await paged(
    q,
    async (limit, offset) => (await select(deps.db).where(cond).orderBy(...order, asc(t.lineDetails.id)).limit(limit).offset(offset)).map(dto),
    () => deps.db.select({ n: count() }).from(t.lineDetails).innerJoin(t.busLines, eq(t.busLines.id, t.lineDetails.lineId)).where(cond),
  );
  return { ...page, version };
}

async function stationsOfDetail(db: Db, detailId: number) {
  return db
    .select({ id: t.lineDetailStations.id, seq: t.lineDetailStations.seq, stationId: t.stations.id, name: t.stations.name, lng: t.stations.lng, lat: t.stations.lat, state: t.stations.state })
    .from(t.lineDetailStations)
    .innerJoin(t.stations, eq(t.stations.id, t.lineDetailStations.stationId))
    .where(eq(t.lineDetailStations.detailId, detailId))
    .orderBy(asc(t.lineDetailStations.seq));
}

async function info(db: Db, a: AuthContext, id: number) {
  const r = await loadDetail(db, a, id);
  const [stations, lineStops] = await Promise.all([stationsOfDetail(db, id), stopsOf(db, r.d.lineId, r.d.direction as TravelDirection)]);
  return { ...dto(r), editable: canEdit(a, { status: r.versionStatus }), stations, lineStops };
}

export const subLineInfo = (deps: AppDeps, a: AuthContext, id: number) => info(deps.db, a, id);

/** Locks a sub-line's line for a change, and refuses it unless its version is open. */
async function lockDetail(tx: Db, a: AuthContext, id: number) {
  const [d] = await tx.select().from(t.lineDetails).where(eq(t.lineDetails.id, id));
  if (!d) throw notFound('子线路不存在');
  const locked = await lockEditableLine(tx, a, d.lineId);
  // Read again under the line's lock: a delete that committed while this waited has taken it.
  const [detail] = await tx.select().from(t.lineDetails).where(eq(t.lineDetails.id, id));
  if (!detail) throw notFound('子线路不存在');
  return { ...locked, detail };
}

export async function saveSubLine(deps: AppDeps, a: AuthContext, body: SaveBody) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const { line, version } = await lockEditableLine(tx, a, body.lineId);
    if (!travelledBy(line.direction).includes(body.direction)) throw fail(`线路「${line.name}」没有${directionLabel(body.direction)}方向`);
    const fields = { name: body.name, direction: body.direction, state: body.state };
    if (body.id === undefined) {
      const [created] = await tx.insert(t.lineDetails).values({ ...fields, lineId: line.id, createdAt: now, updatedAt: now }).returning({ id: t.lineDetails.id });
      const after = dto(await loadDetail(tx, a, created!.id));
      await audit(tx, a.actor, { type: 'SUB_LINE_SAVE', targetDistrictId: version.districtId, target: `sub-line/${after.id}`, summary: `线路「${line.name}」新增子线路「${after.name}」`, after }, now);
      return after;
    }
    const before = await loadDetail(tx, a, body.id);
    if (before.d.lineId !== line.id) throw fail('子线路不属于该线路，不能改到其他线路');
    await updateVersioned(tx, { table: t.lineDetails, key: t.lineDetails.id, id: body.id, version: body.rowVersion, set: { ...fields, updatedAt: now }, current: () => dto(before) });
    // Another direction means other stops: start from the line's stops again only if all were served.
    if (before.d.direction !== body.direction) {
      const lineStops = (await stopsOf(tx, line.id, body.direction)).map((s) => s.stationId);
      await syncSubLine(tx, { ...before.d, direction: body.direction }, before.d.allStationsOn ? lineStops : []);
    }
    const after = dto(await loadDetail(tx, a, body.id));
    await audit(tx, a.actor, { type: 'SUB_LINE_SAVE', targetDistrictId: version.districtId, target: `sub-line/${after.id}`, summary: `修改子线路「${after.name}」（${line.name}）`, before: dto(before), after }, now);
    return after;
  });
}

export async function deleteSubLine(deps: AppDeps, a: AuthContext, id: number) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const { line, version, detail } = await lockDetail(tx, a, id);
    const before = dto(await loadDetail(tx, a, id));
    await tx.delete(t.lineDetails).where(eq(t.lineDetails.id, id));
    await audit(tx, a.actor, { type: 'SUB_LINE_DELETE', targetDistrictId: version.districtId, target: `sub-line/${id}`, summary: `线路「${line.name}」删除子线路「${detail.name}」`, before }, now);
    return { id };
  });
}

/** Replaces a sub-line's stops; each must be a stop of its line's direction, and they are kept in line order. */
async function writeSubLineStops(deps: AppDeps, a: AuthContext, id: number, pick: (lineStops: number[], current: number[]) => number[], describe: (n: number) => string, allOn?: boolean) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const { line, version, detail } = await lockDetail(tx, a, id);
    const lineStops = (await stopsOf(tx, line.id, detail.direction as TravelDirection)).map((s) => s.stationId);
    const current = (await stationsOfDetail(tx, id)).map((s) => s.stationId);
    const chosen = pick(lineStops, current);
    const wanted = new Set(chosen);
    const next = lineStops.filter((s) => wanted.has(s));
    const all = allOn ?? (next.length === lineStops.length && lineStops.length > 0);
    await tx.update(t.lineDetails).set({ allStationsOn: all, updatedAt: now, rowVersion: nextVersion(t.lineDetails.rowVersion) }).where(eq(t.lineDetails.id, id));
    await lockStations(tx, next);
    await tx.delete(t.lineDetailStations).where(eq(t.lineDetailStations.detailId, id));
    if (next.length) await tx.insert(t.lineDetailStations).values(next.map((stationId, seq) => ({ detailId: id, seq, stationId })));
    await audit(tx, a.actor, { type: 'SUB_LINE_STOPS', targetDistrictId: version.districtId, target: `sub-line/${id}`, summary: `子线路「${detail.name}」（${line.name}）${describe(next.length)}`, before: { stationIds: current }, after: { stationIds: next } }, now);
    return info(tx, a, id);
  });
}

export function saveSubLineStops(deps: AppDeps, a: AuthContext, body: { detailId: number; stationIds: number[] }) {
  return writeSubLineStops(
    deps,
    a,
    body.detailId,
    (lineStops) => {
      const on = new Set(lineStops);
      const bad = body.stationIds.findIndex((s) => !on.has(s));
      if (bad >= 0) throw fail(`第 ${bad + 1} 站不是所属线路该方向的站点`);
      return body.stationIds;
    },
    (n) => `站点改为 ${n} 站`,
  );
}

export function setAllStationsOn(deps: AppDeps, a: AuthContext, id: number) {
  return writeSubLineStops(deps, a, id, (lineStops) => lineStops, (n) => `设为全部 ${n} 站停靠`, true);
}

export async function deleteSubLineStop(deps: AppDeps, a: AuthContext, rowId: number) {
  const [row] = await deps.db.select().from(t.lineDetailStations).where(eq(t.lineDetailStations.id, rowId));
  if (!row) throw notFound('子线路站点不存在');
  return writeSubLineStops(deps, a, row.detailId, (_l, current) => current.filter((s) => s !== row.stationId), (n) => `删除一站，余 ${n} 站`);
}
