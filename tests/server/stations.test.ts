import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { station } from '../../src/shared/api';
import { STATION_QR_PAGE, type Station } from '../../src/shared/api/station';
import * as t from '../../src/server/db/schema';
import { type TestServer, startTestServer } from '../support/test-server';

/** 站点管理 against the real server: scope, refusals, audit, QR codes. */
let s: TestServer;
let admin: string;
let manager: string;
let viewer: string;
let xuhui: number;
let huangpu: number;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login('admin');
  manager = await s.login('manager');
  viewer = await s.login('viewer');
  const districts = await s.database.db.select().from(t.districts);
  xuhui = districts.find((d) => d.name === '徐汇区')!.id;
  huangpu = districts.find((d) => d.name === '黄浦区')!.id;
});
afterAll(() => s.close());

const list = (token: string, query: Record<string, string | number> = {}, district?: number) =>
  s.call(station.stationList, { token, query: { size: 1000, ...query }, district });
const auditRows = (type: string) => s.database.db.select().from(t.sysLog).where(eq(t.sysLog.operationType, type));

describe('the seeded network', () => {
  it('has stops on both sides of the street, shared names, coordinates near their district, a few near-duplicates', async () => {
    const all = (await list(admin)).body.data.content;
    expect(all.length).toBeGreaterThan(40);
    const byName = new Map<string, Station[]>();
    for (const st of all) byName.set(st.name, [...(byName.get(st.name) ?? []), st]);
    expect([...byName.values()].filter((pair) => pair.length === 2).length).toBeGreaterThan(10);
    expect(all.some((st) => st.name.endsWith('站') && byName.has(st.name.slice(0, -1)))).toBe(true);
    for (const st of all) {
      expect(st.lng).toBeGreaterThan(120.8);
      expect(st.lng).toBeLessThan(122.1);
      expect(st.lat).toBeGreaterThan(30.6);
      expect(st.lat).toBeLessThan(31.9);
    }
  });

  it('a district manager lists only the stations of the district', async () => {
    const mine = (await list(manager)).body.data.content;
    expect(mine.length).toBeGreaterThan(0);
    expect(new Set(mine.map((st) => st.districtId))).toEqual(new Set([xuhui]));
  });
});

describe('saving a station', () => {
  it('the manager adds one in the district; the audit row says so in the same breath', async () => {
    const before = (await auditRows('STATION_SAVE')).length;
    const res = await s.call(station.stationSave, { token: manager, body: { name: '漕溪北路新站', lng: 121.4365, lat: 31.1885 } });
    expect(res.body.code).toBe(1);
    expect(res.body.data).toMatchObject({ name: '漕溪北路新站', districtId: xuhui, state: 1, qrCode: null });
    const rows = await auditRows('STATION_SAVE');
    expect(rows.length).toBe(before + 1);
    expect(rows.at(-1)).toMatchObject({ operatorLogin: 'manager', targetDistrictId: xuhui, target: `station/${res.body.data.id}` });
  });

  it('on 全部区域 the admin is asked to choose an area first, and nothing is stored', async () => {
    const res = await s.call(station.stationSave, { token: admin, body: { name: '无区域站', lng: 121.47, lat: 31.23 } });
    expect(res.body.code).toBe(0);
    expect(res.body.msg).toBe('请先选择区域再新增站点');
    expect(await s.database.db.select().from(t.stations).where(eq(t.stations.name, '无区域站'))).toEqual([]);
  });

  it('refuses swapped or missing coordinates, a long name, a viewer and another district, changing nothing', async () => {
    const [other] = await s.database.db.select().from(t.stations).where(eq(t.stations.districtId, huangpu)).limit(1);
    const cases: Array<[string, string, Parameters<typeof s.call>[1], number, RegExp]> = [
      ['lng/lat swapped', manager, { body: { name: '反了', lng: 31.18, lat: 121.43 } }, 400, /经度应在 73–136 之间/],
      ['no latitude', manager, { body: { name: '缺纬度', lng: 121.43 } }, 400, /纬度/],
      ['name too long', manager, { body: { name: '站'.repeat(41), lng: 121.43, lat: 31.18 } }, 400, /站点名称/],
      ['a viewer', viewer, { body: { name: '观察员新站', lng: 121.43, lat: 31.18 } }, 403, /./],
      ['another district', manager, { body: { id: other!.id, name: '越区修改', lng: other!.lng, lat: other!.lat } }, 403, /./],
    ];
    for (const [what, token, input, status, msg] of cases) {
      const res = await s.call(station.stationSave, { ...input, token });
      expect(res.status, what).toBe(status);
      expect(res.body.msg, what).toMatch(msg);
    }
    const [still] = await s.database.db.select().from(t.stations).where(eq(t.stations.id, other!.id));
    expect(still?.name).toBe(other!.name);
    expect(await s.database.db.select().from(t.stations).where(eq(t.stations.name, '反了'))).toEqual([]);
  });
});

describe('QR codes', () => {
  it('init gives every station of the area without one a short unique code; surplus counts down to 0', async () => {
    const surplus = await s.call(station.stationQrSurplus, { token: manager });
    expect(surplus.body.data.surplus).toBeGreaterThan(0);
    // Two at once: together they generate exactly the missing ones (the second finds none left).
    const [a, b] = await Promise.all([
      s.call(station.stationQrInit, { token: manager }),
      s.call(station.stationQrInit, { token: manager }),
    ]);
    expect(a.body.data.generated + b.body.data.generated).toBe(surplus.body.data.surplus);
    const after = await s.call(station.stationQrSurplus, { token: manager });
    expect(after.body.data).toEqual({ surplus: 0, total: surplus.body.data.total });
    const codes = (await list(manager)).body.data.content.map((st) => st.qrCode);
    for (const c of codes) expect(c).toMatch(/^s[a-hj-km-np-z2-9]{9}$/);
    expect(new Set(codes).size).toBe(codes.length);
    // Other districts were not touched by the manager's init.
    const otherMissing = await s.database.db.select().from(t.stations).where(and(eq(t.stations.districtId, huangpu), isNull(t.stations.qrCode)));
    expect(otherMissing.length).toBeGreaterThan(0);
  });

  it('asking for one station without a code makes it one; the page lists what the QR encodes', async () => {
    const [bare] = await s.database.db.select().from(t.stations).where(and(eq(t.stations.districtId, huangpu), isNull(t.stations.qrCode))).limit(1);
    const res = await s.call(station.stationQrByStation, { token: admin, query: { stationId: bare!.id } });
    expect(res.body.data.qrCode).toMatch(/^s.{9}$/);
    expect(res.body.data.content).toBe(`${STATION_QR_PAGE}?scene=${res.body.data.qrCode}`);
    expect(`scene=${res.body.data.qrCode}`.length).toBeLessThanOrEqual(32 + 'scene='.length);
    const again = await s.call(station.stationQrByStation, { token: admin, query: { stationId: bare!.id } });
    expect(again.body.data.qrCode).toBe(res.body.data.qrCode);
    const page = await s.call(station.stationQrPage, { token: viewer, query: { size: 1000 } });
    expect(page.body.data.content.every((q) => q.content.endsWith(q.qrCode))).toBe(true);
    // The manager cannot generate for another district's station.
    const [foreign] = await s.database.db.select().from(t.stations).where(and(eq(t.stations.districtId, huangpu), isNull(t.stations.qrCode))).limit(1);
    expect((await s.call(station.stationQrByStation, { token: manager, query: { stationId: foreign!.id } })).status).toBe(403);
  });
});

describe('启用 / 停用 (the state alone, through the status flow)', () => {
  const move = (token: string, body: Record<string, unknown>) => s.call(station.stationUpdateState, { token, body });
  /** A stop of 徐汇区 made for one test, in service. */
  const fresh = async (name: string) => {
    const now = new Date();
    const [made] = await s.database.db.insert(t.stations).values({ districtId: xuhui, name, lng: 121.4401, lat: 31.1802, createdAt: now, updatedAt: now }).returning();
    return made!;
  };
  const stored = async (id: number) => (await s.database.db.select().from(t.stations).where(eq(t.stations.id, id)))[0]!;

  it('moves only the state, keeps a rename made since, and writes its audit row in the same breath', async () => {
    const stop = await fresh('状态测试甲站');
    // Someone renames and moves the stop after the operator's list was drawn.
    await s.call(station.stationSave, { token: manager, body: { id: stop.id, name: '状态测试甲站（新）', lng: 121.4402, lat: 31.1803, state: 1 } });
    const before = (await auditRows('STATION_SAVE')).length;
    const res = await move(manager, { id: stop.id, state: 0, fromStatus: 1 });
    expect(res.body.code, res.body.msg).toBe(1);
    expect(res.body.data).toMatchObject({ id: stop.id, name: '状态测试甲站（新）', lng: 121.4402, lat: 31.1803, state: 0 });
    expect(await stored(stop.id)).toMatchObject({ name: '状态测试甲站（新）', lng: 121.4402, state: 0 });
    const rows = await auditRows('STATION_SAVE');
    expect(rows.length).toBe(before + 1);
    expect(rows.at(-1)).toMatchObject({ operatorLogin: 'manager', targetDistrictId: xuhui, target: `station/${stop.id}`, summary: '停用站点「状态测试甲站（新）」', result: 1 });
    // And back (the 撤销), from the state it now has.
    const back = await move(manager, { id: stop.id, state: 1, fromStatus: 0 });
    expect(back.body.data).toMatchObject({ name: '状态测试甲站（新）', state: 1 });
  });

  it('refuses a state that moved under the operator in Chinese, changing nothing', async () => {
    const stop = await fresh('状态测试乙站');
    expect((await move(manager, { id: stop.id, state: 0, fromStatus: 1 })).body.code).toBe(1);
    const audits = (await auditRows('STATION_SAVE')).length;
    const row = await stored(stop.id);
    // A second operator, whose list still showed it in service, presses 停用 too.
    const stale = await move(manager, { id: stop.id, state: 0, fromStatus: 1 });
    expect(stale.status).toBe(200);
    expect(stale.body).toMatchObject({ code: 0, msg: '站点「状态测试乙站」已被他人停用，请刷新后查看' });
    // A move the flow has not: 停用 to 停用.
    const same = await move(manager, { id: stop.id, state: 0, fromStatus: 0 });
    expect(same.body).toMatchObject({ code: 0, msg: '站点「状态测试乙站」不能从「停用」改为「停用」' });
    expect(await stored(stop.id)).toEqual(row);
    expect((await auditRows('STATION_SAVE')).length).toBe(audits);
  });

  it('refuses another district, a viewer, a missing stop and a malformed body, changing nothing', async () => {
    const [other] = await s.database.db.select().from(t.stations).where(and(eq(t.stations.districtId, huangpu), eq(t.stations.state, 1))).limit(1);
    const mine = await fresh('状态测试丙站');
    const cases: Array<[string, string, Record<string, unknown>, number, RegExp]> = [
      ['another district', manager, { id: other!.id, state: 0, fromStatus: 1 }, 403, /当前用户没有权限操作该区域/],
      ['a viewer', viewer, { id: mine.id, state: 0, fromStatus: 1 }, 403, /./],
      ['no such stop (code 404 in the envelope)', manager, { id: 99_999_999, state: 0, fromStatus: 1 }, 200, /站点不存在/],
      ['a state the flow has not', manager, { id: mine.id, state: 2, fromStatus: 1 }, 400, /状态应为 0 或 1/],
      ['no fromStatus', manager, { id: mine.id, state: 0 }, 400, /状态/],
      ['a whole save body', manager, { id: mine.id, name: '改名', lng: 121.44, lat: 31.18 }, 400, /状态/],
    ];
    const audits = (await auditRows('STATION_SAVE')).length;
    for (const [what, token, body, status, msg] of cases) {
      const res = await move(token, body);
      expect(res.status, what).toBe(status);
      expect(res.body.msg, what).toMatch(msg);
    }
    expect((await stored(other!.id)).state).toBe(1);
    expect(await stored(mine.id)).toMatchObject({ name: '状态测试丙站', state: 1 });
    expect((await auditRows('STATION_SAVE')).length).toBe(audits);
  });
});
