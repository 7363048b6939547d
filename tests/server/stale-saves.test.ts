import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Msg, account, busLine, discount, family, lineVersion, station, system } from '../../src/shared/api';
import * as notice from '../../src/shared/api/notice';
import * as t from '../../src/server/db/schema';
import { notices } from '../../src/server/modules/notice-report/schema';
import { DEMO_PASSWORD, type TestServer, startTestServer } from '../support/test-server';

/**
 * Edits never overwrite another's (issue 21): a save or status change sent from a version the record
 * no longer has is refused with the record as it is now, and nothing changes (the row, its version,
 * the audit log); one sent from the current version is saved and answers the next version.
 */
let s: TestServer;
let admin: string;
let manager: string;

beforeAll(async () => {
  s = await startTestServer();
  [admin, manager] = await Promise.all([s.login('admin'), s.login('manager')]);
});
afterAll(() => s.close());

const db = () => s.database.db;
const auditCount = async () => (await db().select({ id: t.sysLog.id }).from(t.sysLog)).length;

/** What a refusal must leave: the envelope, the record as it is now, and nothing written. */
async function expectStale<R>(res: { body: { code: number; msg: string; data: unknown } }, current: Partial<R>) {
  expect(res.body.code).toBe(0);
  expect(res.body.msg).toBe(Msg.staleEdit);
  expect(res.body.data).toMatchObject({ stale: true, current });
}

describe('站点', () => {
  const stationOf = async (token: string) => (await s.call(station.stationList, { token, query: { size: 1 } })).body.data.content[0]!;

  it('answers its version; a save from it is kept and answers the next one', async () => {
    const st = await stationOf(manager);
    expect(st.rowVersion).toBeGreaterThanOrEqual(1);
    const res = await s.call(station.stationSave, { token: manager, body: { id: st.id, name: `${st.name}甲`, lng: st.lng, lat: st.lat, state: st.state, rowVersion: st.rowVersion } });
    expect(res.body.code).toBe(1);
    expect(res.body.data).toMatchObject({ name: `${st.name}甲`, rowVersion: st.rowVersion + 1 });
  });

  it('a save from the version before another’s is refused with the other’s values, and nothing changes', async () => {
    const seen = await stationOf(manager);
    const other = await s.call(station.stationSave, { token: admin, body: { id: seen.id, name: `${seen.name}乙`, lng: seen.lng, lat: seen.lat, state: seen.state, rowVersion: seen.rowVersion } });
    expect(other.body.code).toBe(1);
    const [rowBefore] = await db().select().from(t.stations).where(eq(t.stations.id, seen.id));
    const audits = await auditCount();
    const res = await s.call(station.stationSave, { token: manager, body: { id: seen.id, name: '我的改名', lng: seen.lng, lat: seen.lat, state: seen.state, rowVersion: seen.rowVersion } });
    await expectStale(res, { id: seen.id, name: `${seen.name}乙`, rowVersion: seen.rowVersion + 1 });
    const [rowAfter] = await db().select().from(t.stations).where(eq(t.stations.id, seen.id));
    expect(rowAfter).toEqual(rowBefore);
    expect(await auditCount()).toBe(audits);
  });

  it('停用 from a stale version is refused; from the current one it moves, and 撤销 with the version it produced', async () => {
    const seen = await stationOf(manager);
    await s.call(station.stationSave, { token: admin, body: { id: seen.id, name: `${seen.name}丙`, lng: seen.lng, lat: seen.lat, state: seen.state, rowVersion: seen.rowVersion } });
    const audits = await auditCount();
    const to = seen.state ? 0 : 1;
    const stale = await s.call(station.stationUpdateState, { token: manager, body: { id: seen.id, state: to, fromStatus: seen.state, rowVersion: seen.rowVersion } });
    await expectStale(stale, { id: seen.id, state: seen.state, rowVersion: seen.rowVersion + 1 });
    expect(await auditCount()).toBe(audits);
    const moved = await s.call(station.stationUpdateState, { token: manager, body: { id: seen.id, state: to, fromStatus: seen.state, rowVersion: seen.rowVersion + 1 } });
    expect(moved.body.data).toMatchObject({ state: to, rowVersion: seen.rowVersion + 2 });
    const undo = await s.call(station.stationUpdateState, { token: manager, body: { id: seen.id, state: seen.state, fromStatus: to, rowVersion: moved.body.data.rowVersion } });
    expect(undo.body.data).toMatchObject({ state: seen.state, rowVersion: seen.rowVersion + 3 });
  });

  it('a save without a version (a client of the spec) is served as before, and still moves the version on', async () => {
    const seen = await stationOf(manager);
    const res = await s.call(station.stationSave, { token: manager, body: { id: seen.id, name: `${seen.name}丁`, lng: seen.lng, lat: seen.lat } });
    expect(res.body.data).toMatchObject({ rowVersion: seen.rowVersion + 1 });
  });
});

/**
 * The other record kinds, each the same way: someone saves first (from the version both saw), then
 * the late save or move is refused as stale with nothing written, then sent from the answered
 * version it is kept.
 */
type Answer = { status: number; body: { code: number; msg: string; data: unknown } };
async function raceOf<R>(kind: { snapshot(): Promise<unknown>; first(): Promise<Answer>; late(): Promise<Answer>; fresh(v: number): Promise<Answer> }, now: Partial<R>, version: number) {
  expect((await kind.first()).body).toMatchObject({ code: 1 });
  const [row, audits] = [await kind.snapshot(), await auditCount()];
  await expectStale(await kind.late(), now);
  expect(await kind.snapshot()).toEqual(row);
  expect(await auditCount()).toBe(audits);
  const kept = await kind.fresh(version + 1);
  expect(kept.body).toMatchObject({ code: 1, data: { rowVersion: version + 2 } });
}

describe('the other editable records', () => {
  it('账号: 编辑 and 禁用 from a stale version are refused; from the answered one kept', async () => {
    const target = (await s.call(account.userPage, { token: admin, query: { keyword: 'agent', size: 5 } })).body.data.content.find((u) => u.login === 'agent')!;
    const snapshot = async () => (await db().select().from(t.users).where(eq(t.users.id, target.id)))[0];
    await raceOf(
      {
        snapshot,
        first: () => s.call(account.userUpdate, { token: admin, body: { id: target.id, firstName: '他人改的名', rowVersion: target.rowVersion } }),
        late: () => s.call(account.userUpdate, { token: admin, body: { id: target.id, activated: false, rowVersion: target.rowVersion } }),
        fresh: (v) => s.call(account.userUpdate, { token: admin, body: { id: target.id, firstName: '我改的名', rowVersion: v } }),
      },
      { id: target.id, firstName: '他人改的名', activated: true },
      target.rowVersion,
    );
  });

  it('角色组 (its query form): a stale save is refused', async () => {
    const group = (await s.call(account.groupList, { token: admin })).body.data[0]!;
    await raceOf(
      {
        snapshot: async () => [(await db().select().from(t.roleGroups).where(eq(t.roleGroups.id, group.id)))[0], await db().select().from(t.roleGroupItems).where(eq(t.roleGroupItems.groupId, group.id))],
        first: () => s.call(account.groupUpdate, { token: admin, query: { id: group.id, description: '他人的描述', rowVersion: group.rowVersion } }),
        late: () => s.call(account.groupUpdate, { token: admin, query: { id: group.id, description: '我的描述', itemIds: ',', rowVersion: group.rowVersion } }),
        fresh: (v) => s.call(account.groupUpdate, { token: admin, query: { id: group.id, description: '我的描述', rowVersion: v } }),
      },
      { id: group.id, description: '他人的描述' },
      group.rowVersion,
    );
  });

  it('优惠卡: a stale save and a stale 上架/下架 (the spec’s GET) are refused', async () => {
    const p = (await s.call(discount.productPage, { token: manager, query: { size: 1 } })).body.data.content[0]!;
    const body = { id: p.id, name: p.name, ticketType: p.ticketType as 1 | 2 | 3, price: p.price, validDays: p.validDays };
    await raceOf(
      {
        snapshot: async () => (await db().select().from(t.discountProducts).where(eq(t.discountProducts.id, p.id)))[0],
        first: () => s.call(discount.productSave, { token: admin, body: { ...body, price: p.price + 100, rowVersion: p.rowVersion } }),
        late: () => s.call(discount.productStatus, { token: manager, query: { id: p.id, status: p.status ? '0' : '1', rowVersion: p.rowVersion } }),
        fresh: (v) => s.call(discount.productSave, { token: manager, body: { ...body, name: `${p.name}甲`, rowVersion: v } }),
      },
      { id: p.id, price: p.price + 100 },
      p.rowVersion,
    );
  });

  it('线路: a stale save is refused (the line’s fields and its stops untouched)', async () => {
    const created = await s.call(busLine.busLineSave, { token: manager, body: { code: 'STALE1', name: '并改测试线' } });
    const line = created.body.data;
    const body = { id: line.id, code: line.code, name: line.name };
    await raceOf(
      {
        snapshot: async () => (await db().select().from(t.busLines).where(eq(t.busLines.id, line.id)))[0],
        first: () => s.call(busLine.busLineSave, { token: admin, body: { ...body, name: '他人改的线名', rowVersion: line.rowVersion } }),
        late: () => s.call(busLine.busLineDisable, { token: manager, body: { id: line.id, state: 0, rowVersion: line.rowVersion } }),
        fresh: (v) => s.call(busLine.busLineSave, { token: manager, body: { ...body, name: '我改的线名', rowVersion: v } }),
      },
      { id: line.id, name: '他人改的线名', state: 1 },
      line.rowVersion,
    );
  });

  it('公告: a stale 置顶 or status move is refused', async () => {
    const [xuhui] = await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
    const now = s.clock.now();
    const [n] = await db().insert(notices).values({ districtId: xuhui!.id, title: '并改测试公告', type: 1, content: '内容', status: 2, publishAt: now, createdAt: now, updatedAt: now }).returning();
    await raceOf(
      {
        snapshot: async () => (await db().select().from(notices).where(eq(notices.id, n!.id)))[0],
        first: () => s.call(notice.noticeTop, { token: admin, body: { id: n!.id, top: 1, rowVersion: n!.rowVersion } }),
        late: () => s.call(notice.noticeUpdateStatus, { token: manager, body: { id: n!.id, fromStatus: 2, toStatus: 3, rowVersion: n!.rowVersion } }),
        fresh: (v) => s.call(notice.noticeUpdateStatus, { token: manager, body: { id: n!.id, fromStatus: 2, toStatus: 3, rowVersion: v } }),
      },
      { id: n!.id, top: 1, status: 2 },
      n!.rowVersion,
    );
  });

  it('版本: a stale status move is refused before the network is checked', async () => {
    const v = (await s.call(lineVersion.versionPage, { token: manager, query: { size: 20 } })).body.data.content.find((x) => x.status === 0)!;
    await db().update(t.lineVersions).set({ rowVersion: v.rowVersion + 1 }).where(eq(t.lineVersions.id, v.id));
    const audits = await auditCount();
    const res = await s.call(lineVersion.versionUpdateStatus, { token: manager, body: { id: v.id, status: 1, fromStatus: 0, rowVersion: v.rowVersion } });
    await expectStale(res, { id: v.id, status: 0, rowVersion: v.rowVersion + 1 });
    expect(await auditCount()).toBe(audits);
  });

  it('亲情卡绑定: a stale 修改关系 is refused (after the password), nothing written', async () => {
    const [xuhui] = await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
    const [b] = await db().select().from(t.familyBindings).where(and(eq(t.familyBindings.status, 1), eq(t.familyBindings.districtId, xuhui!.id))).limit(1);
    const change = (token: string, relation: string, rowVersion: number) => s.call(family.updateBindByBody, { token, body: { id: b!.id, relation, pwd: DEMO_PASSWORD, rowVersion } });
    await raceOf(
      {
        snapshot: async () => (await db().select().from(t.familyBindings).where(eq(t.familyBindings.id, b!.id)))[0],
        first: () => change(admin, '祖父', b!.rowVersion),
        late: () => change(manager, '外婆', b!.rowVersion),
        fresh: (v) => change(manager, '外婆', v),
      },
      { id: b!.id, relation: '祖父' },
      b!.rowVersion,
    );
  });

  it('协议 and 基础设置: stale saves are refused', async () => {
    const ag = (await s.call(system.agreementList, { token: manager, query: {} })).body.data[0]!;
    const agBody = { id: ag.id, code: ag.code, title: ag.title, content: ag.content };
    await raceOf(
      {
        snapshot: async () => (await db().select().from(t.agreements).where(eq(t.agreements.id, ag.id)))[0],
        first: () => s.call(system.agreementSave, { token: admin, body: { ...agBody, title: '他人的标题', rowVersion: ag.rowVersion } }),
        late: () => s.call(system.agreementSave, { token: manager, body: { ...agBody, content: '我的内容', rowVersion: ag.rowVersion } }),
        fresh: (v) => s.call(system.agreementSave, { token: manager, body: { ...agBody, content: '我的内容', rowVersion: v } }),
      },
      { id: ag.id, title: '他人的标题' },
      ag.rowVersion,
    );
    const loc = (await s.call(system.cityLocation, { token: admin })).body.data;
    const base = { qrCode: null, lat: loc.lat, lon: loc.lon };
    await raceOf(
      {
        snapshot: () => db().select().from(t.appConfig).where(and(eq(t.appConfig.key, 'cityCenter'))),
        first: () => s.call(system.configSave, { token: admin, body: { ...base, lat: 31.2, rowVersion: loc.rowVersion } }),
        late: () => s.call(system.configSave, { token: admin, body: { ...base, lon: 121.5, rowVersion: loc.rowVersion } }),
        fresh: (v) => s.call(system.configSave, { token: admin, body: { ...base, lon: 121.5, rowVersion: v } }),
      },
      { lat: 31.2, rowVersion: loc.rowVersion + 1 },
      loc.rowVersion,
    );
  });
});
