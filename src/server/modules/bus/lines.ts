import { and, asc, count, eq, inArray, notInArray, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { busLine } from '../../../shared/api';
import { directionLabel, travelledBy } from '../../../shared/api/bus-line';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { audit } from '../../lib/audit';
import { fail, isUniqueViolation } from '../../lib/errors';
import { listService } from '../../lib/list';
import { contains, iso } from '../../lib/sql';
import { checkVersion, updateVersioned } from '../../lib/row-version';
import { type LineRow, canEdit, currentVersions, listVersions, loadLine, lockEditableLine, openVersionForNewLine, versionRef } from './access';
import { stopsOf } from './stops';

type ListQuery = z.output<typeof busLine.busLineList.query>;
type SaveBody = z.output<typeof busLine.busLineSave.body>;

const stopCount = (direction: 0 | 1) => sql<number>`(select count(*)::int from ${t.lineStations} s where s.line_id = ${t.busLines.id} and s.direction = ${direction})`;
const terminal = (pick: 'asc' | 'desc') =>
  sql<string | null>`(select st.name from ${t.lineStations} s join ${t.stations} st on st.id = s.station_id where s.line_id = ${t.busLines.id}
    and s.direction = (case when ${t.busLines.direction} = 1 then 1 else 0 end) order by s.seq ${sql.raw(pick)} limit 1)`;
const columns = {
  line: t.busLines,
  districtId: t.lineVersions.districtId,
  upStops: stopCount(0),
  downStops: stopCount(1),
  first: terminal('asc'),
  last: terminal('desc'),
  subLines: sql<number>`(select count(*)::int from ${t.lineDetails} d where d.line_id = ${t.busLines.id})`,
};
type Row = { line: LineRow; districtId: number; upStops: number; downStops: number; first: string | null; last: string | null; subLines: number };

export const lineDto = (r: Row) => ({
  id: r.line.id,
  versionId: r.line.versionId,
  districtId: r.districtId,
  code: r.line.code,
  name: r.line.name,
  direction: r.line.direction as -1 | 0 | 1,
  isLoop: r.line.isLoop,
  state: r.line.state === 0 ? (0 as const) : (1 as const),
  firstBus: r.line.firstBus,
  lastBus: r.line.lastBus,
  fare: r.line.fare,
  upStops: Number(r.upStops),
  downStops: Number(r.downStops),
  terminals: r.first && r.last ? `${r.first} — ${r.last}` : null,
  subLines: Number(r.subLines),
  updatedDate: iso(r.line.updatedAt),
  rowVersion: r.line.rowVersion,
});

const selectLines = (db: Db) => db.select(columns).from(t.busLines).innerJoin(t.lineVersions, eq(t.lineVersions.id, t.busLines.versionId));

export async function lineRow(db: Db, id: number) {
  const [r] = await selectLines(db).where(eq(t.busLines.id, id));
  return lineDto(r!);
}

/** 线路列表: the lines of a version, by code or name and state; line codes sort as people read them (2, 9, 49, 101, then 隧道三线). */
export const lineList = listService({
  endpoint: busLine.busLineList,
  select: selectLines,
  count: (db) => db.select({ n: count() }).from(t.busLines).innerJoin(t.lineVersions, eq(t.lineVersions.id, t.busLines.versionId)),
  scope: t.lineVersions.districtId,
  filters: {
    versionId: (versionId) => eq(t.busLines.versionId, versionId),
    name: (name) => or(contains(t.busLines.code, name), contains(t.busLines.name, name)),
    state: (state) => eq(t.busLines.state, state),
  },
  base: (q, a: AuthContext) => (q.versionId === undefined ? currentVersions(a) : undefined),
  sorts: { code: [sql`length(${t.busLines.code})`, t.busLines.code], name: t.busLines.name, updatedDate: t.busLines.updatedAt },
  order: { column: [sql`length(${t.busLines.code})`, t.busLines.code], dir: 'asc' },
  key: { column: t.busLines.id, of: (r) => r.line.id },
  dto: (r) => lineDto(r),
});

/** The page with the version it shows (one asked for, or the area's current one), for the screen's banner. */
export async function listLines(deps: AppDeps, a: AuthContext, q: ListQuery) {
  // Resolved first: an unknown version or one of another district is refused, not an empty page.
  const versions = await listVersions(deps.db, a, q.versionId);
  const page = await lineList.page(deps, a, q);
  return { ...page, version: versions.length === 1 ? versionRef(versions[0]) : null };
}

export async function lineInfo(deps: AppDeps, a: AuthContext, id: number) {
  const { version } = await loadLine(deps.db, a, id);
  const [row, up, down, routes] = await Promise.all([lineRow(deps.db, id), stopsOf(deps.db, id, 0), stopsOf(deps.db, id, 1), deps.db.select().from(t.lineRoutes).where(eq(t.lineRoutes.lineId, id)).orderBy(asc(t.lineRoutes.direction))]);
  return {
    ...row,
    version: versionRef(version)!,
    editable: canEdit(a, version),
    stops: { up, down },
    routes: routes.map((r) => ({ id: r.id, lineId: r.lineId, direction: r.direction as 0 | 1, points: r.points })),
  };
}

const codeTaken = (code: string) => fail(`线路编号「${code}」在本版本中已存在`, { errors: [{ field: 'code', msg: '线路编号已存在' }] });

export async function saveLine(deps: AppDeps, a: AuthContext, body: SaveBody) {
  const now = deps.clock.now();
  const fields = { code: body.code, name: body.name, direction: body.direction, isLoop: body.isLoop, firstBus: body.firstBus ?? null, lastBus: body.lastBus ?? null, fare: body.fare };
  try {
    return await deps.db.transaction(async (tx) => {
      if (body.id === undefined) {
        const version = await openVersionForNewLine(tx, a);
        const [created] = await tx.insert(t.busLines).values({ ...fields, versionId: version.id, createdAt: now, updatedAt: now }).returning({ id: t.busLines.id });
        const after = await lineRow(tx, created!.id);
        await audit(tx, a.actor, { type: 'LINE_SAVE', targetDistrictId: version.districtId, target: `line/${after.id}`, summary: `版本「${version.name}」新增线路「${after.name}」`, after }, now);
        return after;
      }
      const { line, version } = await lockEditableLine(tx, a, body.id);
      const before = await lineRow(tx, line.id);
      await updateVersioned(tx, { table: t.busLines, key: t.busLines.id, id: line.id, version: body.rowVersion, set: { ...fields, updatedAt: now }, current: () => before });
      // A direction the line no longer travels loses its stops, path and sub-lines.
      const dropped = travelledBy(line.direction).filter((d) => !travelledBy(body.direction).includes(d));
      if (dropped.length) {
        await tx.delete(t.lineStations).where(and(eq(t.lineStations.lineId, line.id), inArray(t.lineStations.direction, dropped)));
        await tx.delete(t.lineRoutes).where(and(eq(t.lineRoutes.lineId, line.id), inArray(t.lineRoutes.direction, dropped)));
        await tx.delete(t.lineDetails).where(and(eq(t.lineDetails.lineId, line.id), notInArray(t.lineDetails.direction, travelledBy(body.direction))));
      }
      const after = await lineRow(tx, line.id);
      const note = dropped.length ? `，删除${dropped.map(directionLabel).join('、')}站点与轨迹` : '';
      await audit(tx, a.actor, { type: 'LINE_SAVE', targetDistrictId: version.districtId, target: `line/${line.id}`, summary: `修改线路「${after.name}」${note}`, before, after }, now);
      return after;
    });
  } catch (err) {
    // The unique index (version, code) decides, not a read before the write.
    if (isUniqueViolation(err)) throw codeTaken(body.code);
    throw err;
  }
}

export async function setLineState(deps: AppDeps, a: AuthContext, body: { id: number; state: 0 | 1; rowVersion?: number | undefined }) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const { line, version } = await lockEditableLine(tx, a, body.id);
    await checkVersion(line, body.rowVersion, () => lineRow(tx, line.id));
    if (line.state === body.state) throw fail(`线路「${line.name}」已经${body.state ? '在运营' : '停运'}`);
    const before = await lineRow(tx, line.id);
    await updateVersioned(tx, { table: t.busLines, key: t.busLines.id, id: line.id, version: body.rowVersion, set: { state: body.state, updatedAt: now }, current: () => before });
    const after = await lineRow(tx, line.id);
    await audit(tx, a.actor, { type: 'LINE_STATE', targetDistrictId: version.districtId, target: `line/${line.id}`, summary: `线路「${line.name}」${body.state ? '恢复运营' : '停运'}`, before, after }, now);
    return after;
  });
}

export async function deleteLine(deps: AppDeps, a: AuthContext, id: number) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const { line, version } = await lockEditableLine(tx, a, id);
    const before = await lineRow(tx, line.id);
    await tx.delete(t.busLines).where(eq(t.busLines.id, line.id));
    await audit(tx, a.actor, { type: 'LINE_DELETE', targetDistrictId: version.districtId, target: `line/${line.id}`, summary: `版本「${version.name}」删除线路「${line.name}」`, before }, now);
    return { id: line.id };
  });
}
