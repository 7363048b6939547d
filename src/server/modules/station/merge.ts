import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { audit } from '../../lib/audit';
import { fail, notFound } from '../../lib/errors';
import { assertInScope } from '../../lib/scope';
import { VERSION_STATE, type VersionStatus } from '../../../shared/api/line-version';
import { stationById } from './service';

export interface MergeQuery {
  stationId: number;
  mergeStationId: number;
}

/** The steps of a merge, in order; tests make each one fail to prove the transaction holds. */
export const MERGE_STEPS = ['repoint', 'collapse', 'details', 'remove', 'audit'] as const;
export type MergeStep = (typeof MERGE_STEPS)[number];

async function both(db: Db, a: AuthContext, q: MergeQuery, lock: boolean) {
  const base = db.select().from(t.stations).where(inArray(t.stations.id, [q.stationId, q.mergeStationId])).orderBy(t.stations.id);
  const rows = lock ? await base.for('update') : await base;
  const keep = rows.find((r) => r.id === q.stationId);
  const merge = rows.find((r) => r.id === q.mergeStationId);
  if (!keep || !merge) throw notFound('站点不存在');
  assertInScope(a, keep.districtId);
  assertInScope(a, merge.districtId);
  if (keep.districtId !== merge.districtId) throw fail('只能合并同一区域的站点');
  return { keep, merge };
}

/** Lines of editable (open) versions that stop at the merged station, and versions past editing that use it. */
async function usage(db: Db, stationId: number) {
  const rows = await db
    .select({ versionId: t.lineVersions.id, versionName: t.lineVersions.name, status: t.lineVersions.status, lineId: t.busLines.id, lineName: t.busLines.name, direction: t.lineStations.direction, stops: sql<number>`count(*)::int` })
    .from(t.lineStations)
    .innerJoin(t.busLines, eq(t.busLines.id, t.lineStations.lineId))
    .innerJoin(t.lineVersions, eq(t.lineVersions.id, t.busLines.versionId))
    .where(eq(t.lineStations.stationId, stationId))
    .groupBy(t.lineVersions.id, t.lineVersions.name, t.lineVersions.status, t.busLines.id, t.busLines.name, t.lineStations.direction)
    .orderBy(t.lineVersions.id, t.busLines.name, t.lineStations.direction);
  const detailRows = await db
    .select({ versionId: t.lineVersions.id, versionName: t.lineVersions.name, status: t.lineVersions.status })
    .from(t.lineDetailStations)
    .innerJoin(t.lineDetails, eq(t.lineDetails.id, t.lineDetailStations.detailId))
    .innerJoin(t.busLines, eq(t.busLines.id, t.lineDetails.lineId))
    .innerJoin(t.lineVersions, eq(t.lineVersions.id, t.busLines.versionId))
    .where(eq(t.lineDetailStations.stationId, stationId));
  const blocked = new Map<number, { versionId: number; versionName: string; status: number }>();
  for (const r of [...rows, ...detailRows]) if (r.status !== 0) blocked.set(r.versionId, { versionId: r.versionId, versionName: r.versionName, status: r.status });
  return { affected: rows.filter((r) => r.status === 0).map(({ status: _s, ...r }) => ({ ...r, stops: Number(r.stops) })), blockedBy: [...blocked.values()] };
}

export async function mergePreview(deps: AppDeps, a: AuthContext, q: MergeQuery) {
  const { keep, merge } = await both(deps.db, a, q, false);
  const use = await usage(deps.db, merge.id);
  return { keep: await stationById(deps.db, keep.id), merge: await stationById(deps.db, merge.id), ...use };
}

/**
 * Merges station B (`mergeStationId`) into A (`stationId`), in one transaction: every stop of B in an
 * open version becomes A, in place (order kept); where that puts A twice in a row the repeat is
 * dropped and the direction renumbered; sub-line stops likewise; B is removed; the audit row is
 * written. B used by a version past editing (submitted, passed, online, offline) blocks the merge:
 * history is not rewritten.
 */
export async function mergeStations(deps: AppDeps, a: AuthContext, q: MergeQuery, failAt?: MergeStep) {
  const now = deps.clock.now();
  const step = (s: MergeStep) => {
    if (failAt === s) throw new Error(`injected failure at ${s}`);
  };
  return deps.db.transaction(async (tx) => {
    const { keep, merge } = await both(tx, a, q, true);
    const use = await usage(tx, merge.id);
    if (use.blockedBy.length) {
      const names = use.blockedBy.map((v) => `「${v.versionName}」（${VERSION_STATE.label(v.status as VersionStatus)}）`).join('、');
      throw fail(`站点「${merge.name}」被不可编辑的版本使用，不能合并：${names}`, { blockedBy: use.blockedBy });
    }
    const lineIds = [...new Set(use.affected.map((r) => r.lineId))];
    const repointed = lineIds.length
      ? await tx.update(t.lineStations).set({ stationId: keep.id }).where(and(eq(t.lineStations.stationId, merge.id), inArray(t.lineStations.lineId, lineIds))).returning({ id: t.lineStations.id })
      : [];
    step('repoint');
    if (lineIds.length) {
      const lineList = sql`(${sql.join(lineIds.map((id) => sql`${id}`), sql`, `)})`;
      // A then A: the repeat goes, and each direction is numbered 0… again in its order.
      await tx.execute(sql`
        delete from line_stations s using line_stations p
        where s.line_id = p.line_id and s.direction = p.direction and s.station_id = p.station_id
          and p.seq = (select max(seq) from line_stations q where q.line_id = s.line_id and q.direction = s.direction and q.seq < s.seq)
          and s.line_id in ${lineList}`);
      await tx.execute(sql`
        update line_stations s set seq = r.n - 1 + 1000000 from (
          select id, row_number() over (partition by line_id, direction order by seq) as n from line_stations
          where line_id in ${lineList}
        ) r where s.id = r.id`);
      await tx.execute(sql`update line_stations set seq = seq - 1000000 where seq >= 1000000 and line_id in ${lineList}`);
    }
    step('collapse');
    await tx.execute(sql`
      update line_detail_stations ds set station_id = ${keep.id}
      from line_details d join bus_lines l on l.id = d.line_id join line_versions v on v.id = l.version_id
      where ds.detail_id = d.id and v.status = 0 and ds.station_id = ${merge.id}`);
    step('details');
    const removed = await tx.delete(t.stations).where(and(eq(t.stations.id, merge.id), ne(t.stations.id, keep.id))).returning({ id: t.stations.id });
    if (!removed.length) throw notFound('站点不存在');
    step('remove');
    await audit(
      tx,
      a.actor,
      {
        type: 'STATION_MERGE',
        targetDistrictId: keep.districtId,
        target: `station/${keep.id}`,
        summary: `合并站点「${merge.name}」→「${keep.name}」，改动 ${lineIds.length} 条线路的 ${repointed.length} 个站点`,
        before: { keep: { id: keep.id, name: keep.name }, merge: { id: merge.id, name: merge.name, lng: merge.lng, lat: merge.lat } },
        after: { keep: keep.id, lines: lineIds, repointed: repointed.length },
      },
      now,
    );
    step('audit');
    return { keep: await stationById(tx, keep.id), repointed: repointed.length, lines: lineIds.length };
  });
}
