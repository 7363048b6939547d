import { and, asc, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { station } from '../../src/shared/api';
import type { AuthContext } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { MERGE_STEPS, mergeStations } from '../../src/server/modules/station/merge';
import { type TestServer, startTestServer } from '../support/test-server';

/** 合并站点: order kept, repeats collapsed, history protected, all or nothing. */
let s: TestServer;
let manager: string;
let xuhui: number;
let ids: number[];

beforeAll(async () => {
  s = await startTestServer();
  manager = await s.login('manager');
  const [d] = await s.database.db.select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
  xuhui = d!.id;
});
afterAll(() => s.close());

const db = () => s.database.db;
type Fixture = { a: number; b: number; line: number; version: number };

/** Fresh stations A, B, C, D and an open version whose line runs A B C up and D B A down. */
async function fixture(versionStatus = 0): Promise<Fixture> {
  const now = s.clock.now();
  await db().delete(t.lineVersions).where(eq(t.lineVersions.districtId, xuhui));
  const made = await db()
    .insert(t.stations)
    .values(['甲站', '甲站站', '乙站', '丙站'].map((name, i) => ({ districtId: xuhui, name: `${name}${Math.random().toString(36).slice(2, 5)}`, lng: 121.43 + i * 0.001, lat: 31.18, createdAt: now, updatedAt: now })))
    .returning({ id: t.stations.id });
  ids = made.map((m) => m.id);
  const [a, b, c, d] = ids as [number, number, number, number];
  const [v] = await db().insert(t.lineVersions).values({ districtId: xuhui, name: '测试版本', status: versionStatus, createdAt: now, updatedAt: now }).returning();
  const [line] = await db().insert(t.busLines).values({ versionId: v!.id, code: '88', name: '88路', createdAt: now, updatedAt: now }).returning();
  await db().insert(t.lineStations).values([
    ...[a, b, c].map((stationId, seq) => ({ lineId: line!.id, direction: 0, seq, stationId })),
    ...[d, b, a].map((stationId, seq) => ({ lineId: line!.id, direction: 1, seq, stationId })),
  ]);
  return { a, b, line: line!.id, version: v!.id };
}

const sequence = async (line: number, direction: number) =>
  (await db().select().from(t.lineStations).where(and(eq(t.lineStations.lineId, line), eq(t.lineStations.direction, direction))).orderBy(asc(t.lineStations.seq))).map((r) => [r.seq, r.stationId]);

/** Everything a merge may touch, to compare before and after a failed one. */
const snapshot = async (f: Fixture) => ({
  stations: await db().select().from(t.stations).where(eq(t.stations.districtId, xuhui)).orderBy(asc(t.stations.id)),
  up: await sequence(f.line, 0),
  down: await sequence(f.line, 1),
  logs: (await db().select().from(t.sysLog).where(eq(t.sysLog.operationType, 'STATION_MERGE'))).length,
});

describe('merging B into A', () => {
  it('previews the lines it changes, then re-points B in place, drops the repeat it makes and removes B', async () => {
    const f = await fixture();
    const [, , c, d] = ids as [number, number, number, number];
    const preview = await s.call(station.stationMergePreview, { token: manager, query: { stationId: f.a, mergeStationId: f.b } });
    expect(preview.body.data.affected.map((r) => `${r.lineName}/${r.direction}`)).toEqual(['88路/0', '88路/1']);
    expect(preview.body.data.blockedBy).toEqual([]);

    const res = await s.call(station.stationMerge, { token: manager, query: { stationId: f.a, mergeStationId: f.b } });
    expect(res.body.code, res.body.msg).toBe(1);
    expect(res.body.data).toMatchObject({ repointed: 2, lines: 1 });
    // Up A B C → A A C → A C; down D B A → D A A → D A; numbered from 0 again.
    expect(await sequence(f.line, 0)).toEqual([[0, f.a], [1, c]]);
    expect(await sequence(f.line, 1)).toEqual([[0, d], [1, f.a]]);
    expect(await db().select().from(t.stations).where(eq(t.stations.id, f.b))).toEqual([]);
    const [log] = await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'STATION_MERGE'), eq(t.sysLog.target, `station/${f.a}`)));
    expect(log?.summary).toMatch(/合并站点「.+」→「.+」，改动 1 条线路的 2 个站点/);
  });

  it('refuses when a version past editing uses B, naming it, and changes nothing', async () => {
    const f = await fixture(3);
    const before = await snapshot(f);
    const res = await s.call(station.stationMerge, { token: manager, query: { stationId: f.a, mergeStationId: f.b } });
    expect(res.body.code).toBe(0);
    expect(res.body.msg).toMatch(/被不可编辑的版本使用，不能合并：「测试版本」（已上线）/);
    expect(await snapshot(f)).toEqual(before);
  });

  it('refuses merging a station into itself, another district’s station, and a viewer', async () => {
    const f = await fixture();
    expect((await s.call(station.stationMerge, { token: manager, query: { stationId: f.a, mergeStationId: f.a } })).body.msg).toMatch(/不能把站点合并到它自己/);
    const [foreign] = await db().select().from(t.stations).where(ne(t.stations.districtId, xuhui)).orderBy(asc(t.stations.id)).limit(1);
    expect(foreign, 'a station of another district').toBeDefined();
    const before = await snapshot(f);
    const refused = await s.call(station.stationMerge, { token: manager, query: { stationId: f.a, mergeStationId: foreign!.id } });
    expect(refused.status).toBe(403);
    expect(await snapshot(f)).toEqual(before);
    expect(await db().select().from(t.stations).where(eq(t.stations.id, foreign!.id))).toHaveLength(1);
    const viewer = await s.login('viewer');
    expect((await s.call(station.stationMerge, { token: viewer, query: { stationId: f.a, mergeStationId: f.b } })).status).toBe(403);
  });

  it.each(MERGE_STEPS)('a failure right after "%s" leaves everything as it was', async (step) => {
    const f = await fixture();
    const before = await snapshot(f);
    const [user] = await db().select().from(t.users).where(eq(t.users.login, 'manager'));
    const a = { user, roles: ['ROLE_ADMIN'], districtScope: xuhui, actor: { id: user!.id, login: 'manager', districtId: xuhui, ip: '127.0.0.1' } } as unknown as AuthContext;
    await expect(mergeStations({ db: db(), clock: s.clock } as never, a, { stationId: f.a, mergeStationId: f.b }, step)).rejects.toThrow(`injected failure at ${step}`);
    expect(await snapshot(f)).toEqual(before);
  });
});
