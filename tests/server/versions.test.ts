import { and, eq, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lineVersion } from '../../src/shared/api';
import { VERSION_STATE, type VersionProblem } from '../../src/shared/api/line-version';
import * as t from '../../src/server/db/schema';
import type { AppDeps } from '../../src/server/context';
import { takeDueVersionsOnline } from '../../src/server/modules/version/service';
import { type TestServer, startTestServer } from '../support/test-server';

/** Line-network versions: transitions, submit checks, copying, the go-live job and the constraints. */
let s: TestServer;
let manager: string;
let viewer: string;
let xuhui: number;
let stops: { id: number; lng: number; lat: number }[];

beforeAll(async () => {
  s = await startTestServer();
  manager = await s.login('manager');
  viewer = await s.login('viewer');
  const [d] = await s.database.db.select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
  xuhui = d!.id;
  stops = await s.database.db.select({ id: t.stations.id, lng: t.stations.lng, lat: t.stations.lat }).from(t.stations).where(and(eq(t.stations.districtId, xuhui), eq(t.stations.state, 1))).limit(4);
});
afterAll(() => s.close());

const db = () => s.database.db;
/** What the job reads: the same database (a pool on PostgreSQL, so racing runs use separate connections) and clock. */
const jobDeps = () => ({ db: s.database.db, clock: s.clock }) as unknown as AppDeps;

async function clearVersions() {
  await db().delete(t.lineVersions).where(eq(t.lineVersions.districtId, xuhui));
}

/** A version with one line serving both directions with two stops each (valid unless told). */
async function versionWith(status: number, opts: { upStops?: number[]; path?: [number, number][] } = {}) {
  const now = s.clock.now();
  const [v] = await db().insert(t.lineVersions).values({ districtId: xuhui, name: `版本${status}-${Math.random().toString(36).slice(2, 6)}`, status, createdAt: now, updatedAt: now }).returning();
  const [line] = await db().insert(t.busLines).values({ versionId: v!.id, code: '49', name: '49路', direction: -1, createdAt: now, updatedAt: now }).returning();
  const up = opts.upStops ?? [stops[0]!.id, stops[1]!.id];
  const down = [stops[1]!.id, stops[0]!.id];
  await db().insert(t.lineStations).values([
    ...up.map((stationId, seq) => ({ lineId: line!.id, direction: 0, seq, stationId })),
    ...down.map((stationId, seq) => ({ lineId: line!.id, direction: 1, seq, stationId })),
  ]);
  if (opts.path) await db().insert(t.lineRoutes).values({ lineId: line!.id, direction: 0, points: opts.path });
  return v!;
}

/** A version in the given status without a single line (as the demo once seeded its passed ones). */
async function emptyVersion(status: number, onlineAt: Date | null = null) {
  const now = s.clock.now();
  const [v] = await db().insert(t.lineVersions).values({ districtId: xuhui, name: `空版本${status}-${Math.random().toString(36).slice(2, 6)}`, status, onlineAt, createdAt: now, updatedAt: now }).returning();
  return v!;
}

/** The version's stored row and its audit rows: what a refusal must leave as it was. */
const stateOf = async (id: number) => ({
  row: (await db().select().from(t.lineVersions).where(eq(t.lineVersions.id, id)))[0],
  audits: await db().select().from(t.sysLog).where(eq(t.sysLog.target, `version/${id}`)),
});

/** A move from the status the caller saw (`fromStatus`). */
const setStatus = (token: string, id: number, status: number, fromStatus: number) => s.call(lineVersion.versionUpdateStatus, { token, body: { id, status, fromStatus } });

describe('the seeded network', () => {
  it('each district has one online and one open version, lines on both directions, and the open one could be submitted as is', async () => {
    const all = await db().select().from(t.lineVersions);
    const districts = new Set(all.map((v) => v.districtId));
    for (const d of districts) {
      expect(all.filter((v) => v.districtId === d && v.status === 3), `district ${d}`).toHaveLength(1);
      expect(all.filter((v) => v.districtId === d && v.status === 0), `district ${d}`).toHaveLength(1);
    }
    expect(new Set(all.map((v) => v.status))).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    const open = all.find((v) => v.districtId === xuhui && v.status === 0)!;
    const lines = await db().select().from(t.busLines).where(eq(t.busLines.versionId, open.id));
    expect(lines.length).toBeGreaterThan(0);
    const { validateVersion } = await import('../../src/server/modules/version/validate');
    expect(await validateVersion(db(), open.id)).toEqual([]);
  });

  it('no version past editing is empty: every submitted, passed or online one has lines and passes the submit checks', async () => {
    const { validateVersion } = await import('../../src/server/modules/version/validate');
    const past = (await db().select().from(t.lineVersions)).filter((v) => [1, 2, 3].includes(v.status));
    expect(past.filter((v) => v.status === 1 || v.status === 2).length).toBeGreaterThan(0);
    for (const v of past) {
      const lines = await db().select({ id: t.busLines.id }).from(t.busLines).where(eq(t.busLines.versionId, v.id));
      expect(lines.length, `${v.name} (${v.status})`).toBeGreaterThan(0);
      expect(await validateVersion(db(), v.id), `${v.name} (${v.status})`).toEqual([]);
    }
  });
});

describe('a version without lines goes nowhere', () => {
  beforeEach(clearVersions);

  it.each([
    [0, 1, '版本中没有线路，不能提交审核'],
    [1, 2, '版本中没有线路，不能审核通过'],
  ] as const)('%i → %i is refused: %s, and nothing changes', async (from, to, msg) => {
    const v = await emptyVersion(from);
    const before = await stateOf(v.id);
    const res = await setStatus(manager, v.id, to, from);
    expect(res.body).toMatchObject({ code: 0, msg });
    expect(await stateOf(v.id)).toEqual(before);
    expect(before.row?.status).toBe(from);
  });

  it('设置上线时间 is refused: 版本中没有线路，不能设置上线时间, and nothing changes', async () => {
    const v = await emptyVersion(2);
    const before = await stateOf(v.id);
    const soon = new Date(s.clock.now().getTime() + 3_600_000).toISOString();
    const res = await s.call(lineVersion.versionSetOnlineTime, { token: manager, body: { id: v.id, onlineAt: soon } });
    expect(res.body).toMatchObject({ code: 0, msg: '版本中没有线路，不能设置上线时间' });
    expect(await stateOf(v.id)).toEqual(before);
    expect(before.row).toMatchObject({ status: 2, onlineAt: null });
  });

  it('a version emptied after its time was set does not go online: it stays passed, its time cleared, the old network runs on, one audit row says why', async () => {
    const old = await versionWith(3);
    const next = await versionWith(2);
    const soon = new Date(s.clock.now().getTime() + 60_000).toISOString();
    expect((await s.call(lineVersion.versionSetOnlineTime, { token: manager, body: { id: next.id, onlineAt: soon } })).body.code).toBe(1);
    // Emptied behind the console's back (an old database, a hand edit): the job looks again.
    await db().delete(t.busLines).where(eq(t.busLines.versionId, next.id));
    s.clock.advance(61_000);
    const runs = await Promise.all(Array.from({ length: 4 }, () => takeDueVersionsOnline(jobDeps())));
    expect(runs.flat()).toEqual([]);
    const rows = await db().select().from(t.lineVersions).where(eq(t.lineVersions.districtId, xuhui));
    expect(rows.find((r) => r.id === next.id)).toMatchObject({ status: 2, onlineAt: null, wentOnlineAt: null });
    expect(rows.find((r) => r.id === old.id)?.status).toBe(3);
    const held = await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'VERSION_ONLINE_HELD'), eq(t.sysLog.target, `version/${next.id}`)));
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ targetDistrictId: xuhui, result: 0, operatorLogin: 'system' });
    expect(held[0]!.summary).toBe(`版本「${next.name}」（徐汇区）中没有线路，未上线：已取消上线时间，原线网继续运行`);
    expect(await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'VERSION_ONLINE'), eq(t.sysLog.target, `version/${next.id}`)))).toEqual([]);
    // Held once: later runs find nothing due and write nothing more.
    s.clock.advance(61_000);
    expect(await takeDueVersionsOnline(jobDeps())).toEqual([]);
    expect(await db().select().from(t.sysLog).where(eq(t.sysLog.operationType, 'VERSION_ONLINE_HELD'))).toHaveLength(1);
  });

  it('an empty version due at the same time as a good one in another run is held, and the good one still goes online', async () => {
    await versionWith(3);
    const empty = await emptyVersion(2, new Date(s.clock.now().getTime() - 1_000));
    const good = await versionWith(2);
    await db().update(t.lineVersions).set({ onlineAt: new Date(s.clock.now().getTime() - 500) }).where(eq(t.lineVersions.id, good.id));
    expect(await takeDueVersionsOnline(jobDeps())).toEqual([good.id]);
    const rows = await db().select().from(t.lineVersions).where(eq(t.lineVersions.districtId, xuhui));
    expect(rows.find((r) => r.id === empty.id)).toMatchObject({ status: 2, onlineAt: null });
    expect(rows.find((r) => r.id === good.id)?.status).toBe(3);
  });
});

describe('status transitions, every pair', () => {
  beforeEach(clearVersions);
  const pairs = ([0, 1, 2, 3, 4, 5] as const).flatMap((from) => ([0, 1, 2, 3, 4, 5] as const).filter((to) => to !== from).map((to) => [from, to] as const));

  it.each(pairs)('%i → %i', async (from, to) => {
    const v = await versionWith(from);
    const allowed = VERSION_STATE.can(from, to);
    const res = await setStatus(manager, v.id, to, from);
    const [stored] = await db().select().from(t.lineVersions).where(eq(t.lineVersions.id, v.id));
    if (allowed) {
      expect(res.body.code, res.body.msg).toBe(1);
      expect(stored?.status).toBe(to);
    } else {
      expect(res.body.code).toBe(0);
      expect(res.body.msg).toMatch(/不能从「.+」改为「.+」/);
      expect(stored?.status).toBe(from);
    }
    // A viewer is refused whatever the pair, and nothing moves.
    expect((await setStatus(viewer, v.id, to, from)).status).toBe(403);
  });
});

describe('a move from a status the version no longer has', () => {
  beforeEach(clearVersions);

  // Confirmed on a 待审核 snapshot after someone else passed (or returned) the version.
  it.each([
    ['作废 (删除) after it was passed', 2, (id: number) => s.call(lineVersion.versionDelete, { token: manager, body: { id, fromStatus: 1 } })],
    ['作废 (status 5) after it was passed', 2, (id: number) => setStatus(manager, id, 5, 1)],
    ['审核通过 after it was returned', 0, (id: number) => setStatus(manager, id, 2, 1)],
    ['提交审核 after it was voided', 5, (id: number) => setStatus(manager, id, 1, 0)],
  ] as const)('%s is refused in Chinese and nothing changes', async (_what, now, move) => {
    const v = await versionWith(now);
    const before = await stateOf(v.id);
    const res = await move(v.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 0, msg: `版本「${v.name}」已被他人改为「${VERSION_STATE.label(now)}」，请刷新后查看` });
    expect(await stateOf(v.id)).toEqual(before);
  });

  it('a fromStatus is required, and must be a status', async () => {
    const v = await versionWith(1);
    const before = await stateOf(v.id);
    for (const res of [
      await s.call(lineVersion.versionUpdateStatus, { token: manager, body: { id: v.id, status: 2 } }),
      await s.call(lineVersion.versionDelete, { token: manager, body: { id: v.id } }),
      await s.call(lineVersion.versionDelete, { token: manager, body: { id: v.id, fromStatus: 9 } }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.msg).toMatch(/版本状态/);
    }
    expect(await stateOf(v.id)).toEqual(before);
  });
});

describe('one version by id', () => {
  beforeEach(clearVersions);

  it('answers a version in any status, 已下线 included; another area’s is refused, a missing one is not found', async () => {
    const offline = await versionWith(4);
    const res = await s.call(lineVersion.versionInfo, { token: viewer, query: { id: offline.id } });
    expect(res.body.code, res.body.msg).toBe(1);
    expect(res.body.data).toMatchObject({ id: offline.id, name: offline.name, status: 4, districtId: xuhui, districtName: '徐汇区', lineCount: 1 });
    const [other] = await db().select().from(t.lineVersions).where(ne(t.lineVersions.districtId, xuhui)).limit(1);
    const foreign = await s.call(lineVersion.versionInfo, { token: manager, query: { id: other!.id } });
    expect([foreign.status, foreign.body.msg]).toEqual([403, '当前用户没有权限操作该区域']);
    const missing = await s.call(lineVersion.versionInfo, { token: manager, query: { id: 99_999_999 } });
    expect(missing.body).toMatchObject({ code: 404, msg: '版本不存在', data: null });
  });
});

describe('submitting checks the network', () => {
  beforeEach(clearVersions);

  const cases: Array<[string, { upStops?: number[]; path?: [number, number][] }, RegExp]> = [
    ['a direction with one stop', { upStops: [0] }, /49路上行：站点少于2个（现有 1 个）/],
    ['the same stop twice in a row', { upStops: [0, 0, 1] }, /第 2 站「.+」与上一站相同/],
    ['a stop far from the drawn path', { path: [[121.2, 31.0], [121.21, 31.0]] }, /离线路轨迹 \d+ 米，超过 300 米/],
  ];
  it.each(cases)('%s blocks it, and every problem is listed', async (_what, opts, msg) => {
    const o = { ...opts, upStops: opts.upStops?.map((i) => stops[i]!.id) };
    const v = await versionWith(0, o);
    const res = await s.call(lineVersion.versionUpdateStatus, { token: manager, body: { id: v.id, status: 1, fromStatus: 0 } });
    expect(res.body.code).toBe(0);
    const problems = (res.body.data as unknown as { problems: VersionProblem[] }).problems;
    expect(problems.some((p) => msg.test(p.msg))).toBe(true);
    const [stored] = await db().select().from(t.lineVersions).where(eq(t.lineVersions.id, v.id));
    expect(stored?.status).toBe(0);
  });

  it('a stop taken out of service blocks it', async () => {
    const v = await versionWith(0);
    await db().update(t.stations).set({ state: 0 }).where(eq(t.stations.id, stops[0]!.id));
    try {
      const res = await setStatus(manager, v.id, 1, 0);
      expect(res.body.msg).toMatch(/已停用/);
    } finally {
      await db().update(t.stations).set({ state: 1 }).where(eq(t.stations.id, stops[0]!.id));
    }
  });
});

describe('adding, scheduling and going online', () => {
  beforeEach(clearVersions);

  it('a new version copies the online network; a second open one is refused by the database itself', async () => {
    const online = await versionWith(3);
    const res = await s.call(lineVersion.versionAdd, { token: manager, body: { name: '2027 春季线网' } });
    expect(res.body.code, res.body.msg).toBe(1);
    expect(res.body.data).toMatchObject({ status: 0, districtId: xuhui, lineCount: 1 });
    const copied = await db().select().from(t.busLines).where(eq(t.busLines.versionId, res.body.data.id));
    const stopsCopied = await db().select().from(t.lineStations).where(eq(t.lineStations.lineId, copied[0]!.id));
    expect(stopsCopied).toHaveLength(4);
    expect(online.id).not.toBe(res.body.data.id);

    const again = await s.call(lineVersion.versionAdd, { token: manager, body: { name: '再来一个' } });
    expect(again.body.msg).toBe('该区域已有开放编辑的版本，请先提交或作废它');
    await expect(db().execute(sql`insert into line_versions (district_id, name, status, created_at, updated_at) values (${xuhui}, 'x', 0, now(), now())`)).rejects.toThrow();
    await expect(db().execute(sql`insert into line_versions (district_id, name, status, created_at, updated_at) values (${xuhui}, 'y', 3, now(), now())`)).rejects.toThrow();
  });

  it('an online time must be in the future and on a passed version', async () => {
    const open = await versionWith(0);
    const passed = await versionWith(2);
    const soon = new Date(s.clock.now().getTime() + 3_600_000).toISOString();
    const past = new Date(s.clock.now().getTime() - 60_000).toISOString();
    expect((await s.call(lineVersion.versionSetOnlineTime, { token: manager, body: { id: passed.id, onlineAt: past } })).body.msg).toBe('上线时间必须晚于当前时间');
    expect((await s.call(lineVersion.versionSetOnlineTime, { token: manager, body: { id: open.id, onlineAt: soon } })).body.msg).toMatch(/只有审核通过的版本/);
    const ok = await s.call(lineVersion.versionSetOnlineTime, { token: manager, body: { id: passed.id, onlineAt: soon } });
    expect(ok.body.data.onlineAt).not.toBeNull();
  });

  it('the job takes a due version online and the old one offline exactly once, however many runners race', async () => {
    const old = await versionWith(3);
    const next = await versionWith(2);
    await db().update(t.lineVersions).set({ onlineAt: new Date(s.clock.now().getTime() + 60_000) }).where(eq(t.lineVersions.id, next.id));
    // Not due yet: nothing happens.
    expect(await takeDueVersionsOnline(jobDeps())).toEqual([]);
    s.clock.advance(61_000);
    const runs = await Promise.all(Array.from({ length: 6 }, () => takeDueVersionsOnline(jobDeps())));
    expect(runs.flat()).toEqual([next.id]);
    const rows = await db().select().from(t.lineVersions).where(eq(t.lineVersions.districtId, xuhui));
    expect(rows.find((r) => r.id === next.id)?.status).toBe(3);
    expect(rows.find((r) => r.id === old.id)?.status).toBe(4);
    const logged = await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'VERSION_ONLINE'), eq(t.sysLog.target, `version/${next.id}`)));
    expect(logged).toHaveLength(1);
  });

  it('删除 voids an open version, and refuses an online one', async () => {
    const open = await versionWith(0);
    expect((await s.call(lineVersion.versionDelete, { token: manager, body: { id: open.id, fromStatus: 0 } })).body.data.status).toBe(5);
    const online = await versionWith(3);
    expect((await s.call(lineVersion.versionDelete, { token: manager, body: { id: online.id, fromStatus: 3 } })).body.code).toBe(0);
  });
});
