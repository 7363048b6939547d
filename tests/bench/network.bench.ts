import { performance } from 'node:perf_hooks';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../src/server/db/connection';
import * as t from '../../src/server/db/schema';
import { type Client, expectOk } from './lib';

/** The line screens' reads: the area's line list and the longest line's info (both directions, paths). */
export async function networkPaths(db: Db): Promise<{ lineList: string; lineInfo: string; versionDiff: string; stops: number }> {
  const n = sql<number>`count(*)::int`;
  const [row] = await db
    .select({ id: t.lineStations.lineId, n, versionId: t.busLines.versionId })
    .from(t.lineStations)
    .innerJoin(t.busLines, eq(t.busLines.id, t.lineStations.lineId))
    .innerJoin(t.lineVersions, eq(t.lineVersions.id, t.busLines.versionId))
    .where(eq(t.lineVersions.status, 0))
    .groupBy(t.lineStations.lineId, t.busLines.versionId)
    .orderBy(desc(n))
    .limit(1);
  const { id, versionId } = row!;
  return {
    lineList: '/busline/api/busLine/list?page=0&size=20',
    lineInfo: `/busline/api/busLine/info?id=${id}`,
    versionDiff: `/busline/api/bus/line/version/diff?id=${versionId}`,
    stops: row!.n,
  };
}

/**
 * 合并站点 of a station used by 30 lines: 30 extra lines of a district's open version each stop at
 * the station to be merged (among 20 others); each run merges a fresh one, `runs` times.
 */
export async function benchMerge(client: Client, token: string, db: Db, runs: number): Promise<{ lines: number; ms: number[] }> {
  const [district] = await db.select().from(t.districts).orderBy(asc(t.districts.id)).limit(1);
  const [open] = await db.select().from(t.lineVersions).where(and(eq(t.lineVersions.districtId, district!.id), eq(t.lineVersions.status, 0)));
  const stops = await db.select().from(t.stations).where(and(eq(t.stations.districtId, district!.id), eq(t.stations.state, 1))).orderBy(asc(t.stations.id)).limit(21);
  const keep = stops[0]!;
  const now = new Date();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const [dup] = await db.insert(t.stations).values({ districtId: district!.id, name: `${keep.name}站${run}`, lng: keep.lng + 0.0001, lat: keep.lat, createdAt: now, updatedAt: now }).returning();
    for (let k = 0; k < 30; k++) {
      const [line] = await db.insert(t.busLines).values({ versionId: open!.id, code: `M${run}-${k}`, name: `合并测试${run}-${k}`, direction: 0, createdAt: now, updatedAt: now }).returning();
      const ids = stops.slice(1, 21).map((s) => s.id);
      ids.splice(k % 20, 0, dup!.id);
      await db.insert(t.lineStations).values(ids.map((stationId, seq) => ({ lineId: line!.id, direction: 0, seq, stationId })));
    }
    const t0 = performance.now();
    const res = await client.request('POST', `/busline/api/busStation/merge?stationId=${keep.id}&mergeStationId=${dup!.id}`, { token, headers: { districtid: String(district!.id) } });
    times.push(performance.now() - t0);
    const data = expectOk(res, 'merge') as { lines: number };
    if (data.lines !== 30) throw new Error(`merge touched ${data.lines} lines, expected 30`);
  }
  return { lines: 30, ms: times.sort((a, b) => a - b) };
}
