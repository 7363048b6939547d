import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as pkg from '../../src/shared/api/package-pay';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { packageOrders, packageUsages, packages } from '../../src/server/modules/package-pay/schema';
import { retryRefunds } from '../../src/server/lib/refund-ledger';
import { buyPackage, expireOrders, packagesOfRider, payOrder, refundTerms, useRide } from '../../src/server/modules/package-pay/service';
import { builtInPaymentChannel } from '../../src/server/lib/payment-channel';
import { DAY, HOUR, MINUTE } from '../support/clock';
import { createPii } from '../../src/server/lib/pii';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/** 套餐购买 against the real server: roles, scope, input, every refusal, nothing changed on refusal, audit, the rider side, the job. */
let s: TestServer;
let admin: string;
let manager: string;
let viewer: string;
let agent: string;
let xuhui: number;
let huangpu: number;

const db = () => s.database.db;
const pii = createPii(TEST_PII_KEY);
const deps = () => ({ db: s.database.db, clock: s.clock, pii }) as unknown as AppDeps;

beforeAll(async () => {
  s = await startTestServer();
  [admin, manager, viewer, agent] = (await Promise.all(['admin', 'manager', 'viewer', 'agent'].map((u) => s.login(u)))) as [string, string, string, string];
  const districts = await db().select().from(t.districts);
  xuhui = districts.find((d) => d.name === '徐汇区')!.id;
  huangpu = districts.find((d) => d.name === '黄浦区')!.id;
});
afterAll(() => s.close());

const audits = (type: string, target: string) =>
  db()
    .select()
    .from(t.sysLog)
    .where(and(eq(t.sysLog.operationType, type), eq(t.sysLog.target, target)));
const storedPackage = async (id: number) => (await db().select().from(packages).where(eq(packages.id, id)))[0]!;
const storedOrder = async (id: number) => (await db().select().from(packageOrders).where(eq(packageOrders.id, id)))[0]!;

const later = (days: number) => new Date(s.clock.now().getTime() + days * DAY).toISOString();
const form = (over: Record<string, unknown> = {}) => ({ name: '测试套餐', price: 3000, originalPrice: 4400, rides: 22, validDays: 30, saleStart: later(-1), saleEnd: later(60), ...over });
const save = (token: string, body: unknown, district?: number) => s.call(pkg.packageSave, { token, body, district });
const move = (token: string, body: unknown) => s.call(pkg.packageUpdateStatus, { token, body });

/** A package of the test's own, on sale in 徐汇区 (the manager's). */
async function onSale(over: Partial<typeof packages.$inferInsert> = {}) {
  const now = s.clock.now();
  const [row] = await db()
    .insert(packages)
    .values({ districtId: xuhui, name: '并发测试', price: 1000, originalPrice: 2000, rides: 10, validDays: 30, saleStart: new Date(now.getTime() - DAY), saleEnd: new Date(now.getTime() + 30 * DAY), status: 1, createdAt: now, updatedAt: now, ...over })
    .returning();
  return row!;
}
const riderIds = async (n: number) => (await db().select({ id: t.riders.id }).from(t.riders).limit(n)).map((r) => r.id);
async function paidOrder(packageId: number, riderId?: number) {
  const rider = riderId ?? (await riderIds(1))[0]!;
  const o = await buyPackage(deps(), { riderId: rider, packageId });
  return payOrder(deps(), o.id);
}
const ride = (orderId: number, over: Partial<Parameters<typeof useRide>[1]> = {}) => useRide(deps(), { orderId, rideAt: s.clock.now(), lineCode: '01', busNo: '沪B12345', singleFare: 200, ...over });

describe('the seeded packages and orders (second wave §7, §13)', () => {
  it('12 packages: 5 on sale and open (1 limited), 3 off sale, 2 drafts, 2 past their window', async () => {
    const all = (await s.call(pkg.packagePage, { token: admin, query: { size: 100 } })).body.data.content;
    expect(all).toHaveLength(12);
    const now = s.clock.now().getTime();
    expect(all.filter((p) => p.status === 1 && Date.parse(p.saleEnd) > now)).toHaveLength(5);
    expect(all.filter((p) => p.status === 1 && Date.parse(p.saleEnd) > now && p.stock !== null)).toHaveLength(1);
    expect(all.filter((p) => p.status === 2)).toHaveLength(3);
    expect(all.filter((p) => p.status === 0)).toHaveLength(2);
    expect(all.filter((p) => p.status === 1 && Date.parse(p.saleEnd) <= now)).toHaveLength(2);
    const total = (await s.call(pkg.packageTotal, { token: admin })).body.data;
    expect(total).toMatchObject({ total: 12, draft: 2, onSale: 7, offSale: 3 });
  });

  it('orders in several statuses; used rides equal the usage rows; refunds have a settled ledger row', async () => {
    const orders = await db().select().from(packageOrders);
    expect(orders.length).toBeGreaterThanOrEqual(40);
    const statuses = new Set(orders.map((o) => o.status));
    for (const st of [1, 2, 3, 4, 5]) expect(statuses.has(st)).toBe(true);
    const usages = await db().select().from(packageUsages);
    const per = new Map<number, number>();
    for (const u of usages) per.set(u.orderId, (per.get(u.orderId) ?? 0) + 1);
    for (const o of orders) expect(per.get(o.id) ?? 0).toBe(o.usedRides);
    const refunded = orders.filter((o) => o.status === 4);
    const ledger = await db().select().from(t.moneyRefunds).where(eq(t.moneyRefunds.kind, 'package'));
    expect(ledger).toHaveLength(refunded.length);
  });
});

describe('套餐管理: the list, roles and scope', () => {
  it('a district manager reads the district’s packages only; the viewer has no menu; the agent reads (a call is about a card’s packages too)', async () => {
    const mine = (await s.call(pkg.packagePage, { token: manager, query: { size: 100 } })).body.data.content;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((p) => p.districtId === xuhui)).toBe(true);
    expect((await s.call(pkg.packagePage, { token: viewer })).status).toBe(403);
    expect((await s.call(pkg.packagePage, { token: agent })).status).toBe(200);
    const foreign = (await s.call(pkg.packagePage, { token: admin, query: { size: 100 } })).body.data.content.find((p) => p.districtId !== xuhui)!;
    const res = await s.call(pkg.packageById, { token: manager, query: { id: foreign.id } });
    expect(res.status).toBe(403);
    const del = await s.call(pkg.packageDelete, { token: manager, query: { id: foreign.id } });
    expect(del.status).toBe(403);
    expect(await storedPackage(foreign.id)).toBeTruthy();
  });

  it('filters by name and status; sorts by price', async () => {
    const drafts = (await s.call(pkg.packagePage, { token: admin, query: { status: 0 } })).body.data.content;
    expect(drafts.every((p) => p.status === 0)).toBe(true);
    const named = (await s.call(pkg.packagePage, { token: admin, query: { name: '月卡' } })).body.data.content;
    expect(named.length).toBeGreaterThan(0);
    expect(named.every((p) => p.name.includes('月卡'))).toBe(true);
    const byPrice = (await s.call(pkg.packagePage, { token: admin, query: { sort: 'price,asc', size: 100 } })).body.data.content.map((p) => p.price);
    expect(byPrice).toEqual([...byPrice].sort((a, b) => a - b));
    expect((await s.call(pkg.packagePage, { token: admin, query: { sort: 'hack,asc' } })).body.code).not.toBe(1);
  });
});

describe('新增套餐 / 编辑: input and refusals', () => {
  it('refuses each bad field with the design’s words and stores nothing', async () => {
    const before = (await db().select().from(packages)).length;
    const cases: [Record<string, unknown>, string][] = [
      [{ price: 5000, originalPrice: 4000 }, '售价不能高于原价'],
      [{ rides: 0 }, '次数应在1–999之间'],
      [{ rides: 1000 }, '次数应在1–999之间'],
      [{ validDays: 0 }, '有效天数应在1–366天之间'],
      [{ validDays: 367 }, '有效天数应在1–366天之间'],
      [{ saleEnd: later(-2) }, '销售结束时间必须晚于开始时间'],
      [{ name: '套'.repeat(21) }, '套餐名称不能超过20个字符'],
      [{ name: '' }, '套餐名称不能为空'],
      [{ price: 'abc' }, '售价必须是数字'],
    ];
    for (const [over, msg] of cases) {
      const res = await save(manager, form(over));
      expect(res.body.code, msg).not.toBe(1);
      expect(JSON.stringify(res.body), msg).toContain(msg);
    }
    const missing = await save(manager, { name: '缺字段' });
    expect(missing.body.code).not.toBe(1);
    expect((await db().select().from(packages)).length).toBe(before);
  });

  it('a manager adds a draft in the district (audited); 全部区域 must name the district; the viewer may not', async () => {
    const res = await save(manager, form({ name: '新增草稿', lineScope: ['01', '01', '02'] }));
    expect(res.body.code).toBe(1);
    const p = res.body.data;
    expect(p).toMatchObject({ districtId: xuhui, status: 0, sold: 0, lineScope: ['01', '02'] });
    expect(await audits('PACKAGE_SAVE', `package/${p.id}`)).toHaveLength(1);
    const noArea = await save(admin, form({ name: '无区域' }));
    expect(noArea.body.msg).toBe('请选择套餐所属区域');
    const withArea = await save(admin, form({ name: '黄浦套餐', districtId: huangpu }));
    expect(withArea.body.data.districtId).toBe(huangpu);
    expect((await save(viewer, form())).status).toBe(403);
  });

  it('an on-sale package keeps price, rides and valid days until taken off sale; other fields change', async () => {
    const p = await onSale({ name: '在售改价' });
    const base = { id: p.id, name: p.name, price: p.price, originalPrice: p.originalPrice, rides: p.rides, validDays: p.validDays, saleStart: p.saleStart.toISOString(), saleEnd: p.saleEnd.toISOString() };
    for (const over of [{ price: 900 }, { rides: 11 }, { validDays: 31 }]) {
      const res = await save(manager, { ...base, ...over });
      expect(res.body.msg).toBe('在售套餐不能修改价格、次数和有效期，请先下架');
    }
    expect(await storedPackage(p.id)).toMatchObject({ price: 1000, rides: 10, validDays: 30 });
    const ok = await save(manager, { ...base, description: '改说明', sort: 3 });
    expect(ok.body.data).toMatchObject({ description: '改说明', sort: 3, rowVersion: 2 });
    const stale = await save(manager, { ...base, description: '旧版本', rowVersion: 1 });
    expect(stale.body.code).not.toBe(1);
  });
});

describe('上架 / 下架 / 删除', () => {
  it('上架 needs the area’s 套餐协议 and a sale end ahead; 下架 and 重新上架 are audited', async () => {
    const draft = (await save(manager, form({ name: '上架测试' }))).body.data;
    const [agreement] = await db().select().from(t.agreements).where(and(eq(t.agreements.districtId, xuhui), eq(t.agreements.code, 'package')));
    await db().delete(t.agreements).where(eq(t.agreements.id, agreement!.id));
    const refused = await move(manager, { id: draft.id, fromStatus: 0, toStatus: 1 });
    expect(refused.body.msg).toBe('请先设置套餐协议再上架');
    expect((await storedPackage(draft.id)).status).toBe(0);
    await db().insert(t.agreements).values(agreement!);
    const up = await move(manager, { id: draft.id, fromStatus: 0, toStatus: 1 });
    expect(up.body.data.status).toBe(1);
    expect(await audits('PACKAGE_PUBLISH', `package/${draft.id}`)).toHaveLength(1);
    const twice = await move(manager, { id: draft.id, fromStatus: 0, toStatus: 1 });
    expect(twice.body.msg).toMatch(/已被他人处理/);
    const down = await move(manager, { id: draft.id, fromStatus: 1, toStatus: 2, reason: '调价' });
    expect(down.body.data.status).toBe(2);
    expect((await audits('PACKAGE_UNPUBLISH', `package/${draft.id}`))[0]!.summary).toContain('调价');
    const again = await move(manager, { id: draft.id, fromStatus: 2, toStatus: 1 });
    expect(again.body.data.status).toBe(1);
    expect((await audits('PACKAGE_PUBLISH', `package/${draft.id}`)).map((a) => a.summary).join()).toContain('重新上架');
    const bad = await move(manager, { id: draft.id, fromStatus: 1, toStatus: 0 });
    expect(bad.body.code).not.toBe(1);
    expect((await move(agent, { id: draft.id, fromStatus: 1, toStatus: 2 })).status).toBe(403);
  });

  it('refuses 上架 after the sale window ended', async () => {
    const p = await onSale({ status: 2, saleStart: new Date(s.clock.now().getTime() - 10 * DAY), saleEnd: new Date(s.clock.now().getTime() - DAY) });
    const res = await move(manager, { id: p.id, fromStatus: 2, toStatus: 1 });
    expect(res.body.msg).toBe('销售结束时间已过，请先修改销售时间再上架');
    expect((await storedPackage(p.id)).status).toBe(2);
  });

  it('删除: only without orders and not on sale', async () => {
    const sold = await onSale({ name: '有订单' });
    await paidOrder(sold.id);
    await db().update(packages).set({ status: 2 }).where(eq(packages.id, sold.id));
    expect((await s.call(pkg.packageDelete, { token: manager, query: { id: sold.id } })).body.msg).toBe('该套餐已有订单，不能删除，请下架');
    const live = await onSale({ name: '在售删除' });
    expect((await s.call(pkg.packageDelete, { token: manager, query: { id: live.id } })).body.msg).toBe('在售套餐不能删除，请先下架');
    const draft = (await save(manager, form({ name: '删除草稿' }))).body.data;
    const res = await s.call(pkg.packageDelete, { token: manager, query: { id: draft.id } });
    expect(res.body.data).toEqual({ id: draft.id });
    expect(await audits('PACKAGE_DELETE', `package/${draft.id}`)).toHaveLength(1);
    expect((await db().select().from(packages).where(eq(packages.id, draft.id))).length).toBe(0);
  });
});

describe('the rider side: buy, pay, ride, expire', () => {
  it('buy refuses outside the window, off sale, sold out and over the per-rider limit', async () => {
    const [r1] = await riderIds(1);
    const limited = await onSale({ stock: 1, perUserLimit: 1 });
    const o = await buyPackage(deps(), { riderId: r1!, packageId: limited.id });
    expect(o).toMatchObject({ status: 0, amount: 1000, rides: 10 });
    expect(o.agreementVersion).toBeGreaterThan(0);
    expect(await storedPackage(limited.id)).toMatchObject({ stock: 0, sold: 1 });
    await expect(buyPackage(deps(), { riderId: r1!, packageId: limited.id })).rejects.toThrow('每人同时最多持有1个生效中的该套餐');
    const [, r2] = await riderIds(2);
    await expect(buyPackage(deps(), { riderId: r2!, packageId: limited.id })).rejects.toThrow('套餐已售罄');
    const off = await onSale({ status: 2 });
    await expect(buyPackage(deps(), { riderId: r1!, packageId: off.id })).rejects.toThrow('套餐未在售');
    const later = await onSale({ saleStart: new Date(s.clock.now().getTime() + DAY), saleEnd: new Date(s.clock.now().getTime() + 2 * DAY) });
    await expect(buyPackage(deps(), { riderId: r1!, packageId: later.id })).rejects.toThrow('不在套餐销售时间内');
  });

  it('pay sets the expiry at the end of the last Shanghai day; rides respect line scope, daily limit and expiry; the last ride uses it up', async () => {
    const p = await onSale({ rides: 3, dailyLimit: 2, lineScope: ['01', '02'] });
    const o = await paidOrder(p.id);
    expect(o.status).toBe(1);
    expect(o.expireAt!.getTime() - o.paidAt!.getTime()).toBeLessThanOrEqual(30 * DAY);
    expect(o.expireAt!.getTime() - o.paidAt!.getTime()).toBeGreaterThan(29 * DAY);
    await expect(ride(o.id, { lineCode: '99' })).rejects.toThrow('该线路不在套餐适用范围内');
    await ride(o.id);
    await ride(o.id, { lineCode: '02' });
    await expect(ride(o.id)).rejects.toThrow('今日乘车次数已达上限（2次）');
    await expect(ride(o.id, { rideAt: o.expireAt! })).rejects.toThrow('套餐已过期');
    const last = await ride(o.id, { rideAt: new Date(s.clock.now().getTime() + DAY) });
    expect(last.order).toMatchObject({ usedRides: 3, status: 2 });
    await expect(ride(o.id, { rideAt: new Date(s.clock.now().getTime() + 2 * DAY) })).rejects.toThrow('套餐次数已用完');
    expect((await storedOrder(o.id)).usedRides).toBe(3);
  });

  it('the job expires active orders at expireAt and closes unpaid ones after 15 minutes, giving their stock back; a ride taken before expiry still counts after the job', async () => {
    const p = await onSale({ stock: 5, validDays: 1 });
    const o = await paidOrder(p.id);
    const unpaid = await buyPackage(deps(), { riderId: (await riderIds(3))[2]!, packageId: p.id });
    expect((await storedPackage(p.id)).stock).toBe(3);
    const start = s.clock.now();
    s.clock.advance(2 * DAY);
    const done = await expireOrders(deps());
    // Back to the sessions' time (the job ran on a clock of its own).
    s.clock.set(start);
    expect(done.expired).toContain(o.id);
    expect(done.closed).toContain(unpaid.id);
    expect((await storedOrder(o.id)).status).toBe(3);
    expect((await storedOrder(unpaid.id)).status).toBe(5);
    expect(await storedPackage(p.id)).toMatchObject({ stock: 4, sold: 1 });
    expect(await audits('PACKAGE_ORDER_EXPIRE', `package-order/${o.id}`)).toHaveLength(1);
    expect(await audits('PACKAGE_ORDER_CLOSE', `package-order/${unpaid.id}`)).toHaveLength(1);
    const late = await ride(o.id, { rideAt: new Date(o.expireAt!.getTime() - MINUTE) });
    expect(late.order.usedRides).toBe(1);
    await expect(ride(o.id, { rideAt: o.expireAt! })).rejects.toThrow('套餐已过期');
    expect((await expireOrders(deps())).expired).not.toContain(o.id);
  });

  it('a pay notice after the order closed opens it again while stock lasts, and refunds it in full at once when the package sold out; a repeated notice changes nothing', async () => {
    const p = await onSale({ stock: 1 });
    const [a, b] = (await riderIds(9)).slice(7);
    const closedFirst = await buyPackage(deps(), { riderId: a!, packageId: p.id });
    const start = s.clock.now();
    s.clock.advance(20 * MINUTE);
    await expireOrders(deps());
    s.clock.set(start);
    expect(await storedOrder(closedFirst.id)).toMatchObject({ status: 5, payStatus: 0 });
    expect((await storedPackage(p.id)).stock).toBe(1);
    // The money arrives late: the unit is still there, so the order opens again and takes it.
    expect(await payOrder(deps(), closedFirst.id)).toMatchObject({ status: 1, payStatus: 1 });
    expect(await storedPackage(p.id)).toMatchObject({ stock: 0, sold: 1 });
    expect(await audits('PACKAGE_ORDER_LATE_PAY', `package-order/${closedFirst.id}`)).toHaveLength(1);
    // Another closed order of the now sold-out package: paid and refunded in full, one ledger row.
    const p2 = await onSale({ stock: 1 });
    const closedSecond = await buyPackage(deps(), { riderId: b!, packageId: p2.id });
    s.clock.advance(20 * MINUTE);
    await expireOrders(deps());
    s.clock.set(start);
    await db().update(packages).set({ stock: 0 }).where(eq(packages.id, p2.id));
    const paying = { ...deps(), payments: builtInPaymentChannel({ refundFails: false }) } as AppDeps;
    expect(await payOrder(paying, closedSecond.id)).toMatchObject({ status: 4, payStatus: 2, refundAmount: closedSecond.amount });
    const ledger = await db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'package'), eq(t.moneyRefunds.orderId, closedSecond.id)));
    expect(ledger).toEqual([expect.objectContaining({ amount: closedSecond.amount, state: 1 })]);
    // The channel sends the notice again: nothing more.
    expect(await payOrder(paying, closedSecond.id)).toMatchObject({ status: 4 });
    expect(await payOrder(deps(), closedFirst.id)).toMatchObject({ status: 1 });
    expect(await db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'package'), eq(t.moneyRefunds.orderId, closedSecond.id)))).toHaveLength(1);
    expect(await storedPackage(p.id)).toMatchObject({ stock: 0, sold: 1 });
  });

  it('the same ride sent twice (a reader retrying) is paid by the package once', async () => {
    const p = await onSale();
    const o = await paidOrder(p.id, (await riderIds(11))[10]);
    const first = await ride(o.id, { rideRecordId: 9_000_001 });
    const again = await ride(o.id, { rideRecordId: 9_000_001 });
    expect([first.replayed, again.replayed]).toEqual([false, true]);
    expect(again.usage.id).toBe(first.usage.id);
    expect((await storedOrder(o.id)).usedRides).toBe(1);
    await expect(db().insert(packageUsages).values({ orderId: o.id, rideRecordId: 9_000_001, rideAt: s.clock.now(), lineCode: '01', busNo: 'x', singleFare: 200, createdAt: s.clock.now() })).rejects.toThrow();
  });

  it('packagesOfRider (for the card view) lists the rider’s orders with what is left', async () => {
    const [r] = await riderIds(1);
    const mine = await packagesOfRider({ db: db(), clock: s.clock, pii: { decrypt: () => '13812345678' } } as never, r!);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((o) => o.riderId === r && o.remainingRides === o.rides - o.usedRides)).toBe(true);
    expect(mine[0]!.riderPhone).toBe('138****5678');
  });
});

describe('套餐订单: list, summary, detail, export', () => {
  it('the list masks phones, keeps to the district and filters; the phone filter works through the body form only', async () => {
    const page = (await s.call(pkg.packageOrderPage, { token: manager, query: { size: 1000 } })).body.data;
    expect(page.content.length).toBeGreaterThan(0);
    expect(page.content.every((o) => o.districtId === xuhui)).toBe(true);
    expect(page.content.every((o) => o.riderPhone === null || /^\d{3}\*{4}\d{4}$/.test(o.riderPhone))).toBe(true);
    const one = page.content[0]!;
    const byNo = (await s.call(pkg.packageOrderPage, { token: manager, query: { orderNo: one.orderNo } })).body.data.content;
    expect(byNo.map((o) => o.id)).toEqual([one.id]);
    const [rider] = await db().select().from(t.riders).where(eq(t.riders.id, one.riderId));
    const phone = pii.decrypt(rider!.phoneEnc);
    {
      const byPhone = (await s.call(pkg.packageOrderPageByBody, { token: manager, body: { phone, size: 100 } })).body.data.content;
      expect(byPhone.length).toBeGreaterThan(0);
      expect(byPhone.every((o) => o.riderId === one.riderId)).toBe(true);
    }
    const active = (await s.call(pkg.packageOrderPage, { token: manager, query: { status: 1, size: 1000 } })).body.data.content;
    expect(active.every((o) => o.status === 1)).toBe(true);
    const total = (await s.call(pkg.packageOrderTotal, { token: manager })).body.data;
    expect(total.orders).toBe(page.totalElements);
    expect((await s.call(pkg.packageOrderPage, { token: viewer })).status).toBe(403);
    expect((await s.call(pkg.packageOrderPage, { token: manager, query: { orderNo: 'x'.repeat(41) } })).body.code).not.toBe(1);
  });

  it('the detail carries the snapshot, usages and refunds; a foreign district’s order is refused', async () => {
    const p = await onSale();
    const o = await paidOrder(p.id);
    await ride(o.id);
    const msg = (await s.call(pkg.packageOrderMsg, { token: manager, query: { id: o.id } })).body.data;
    expect(msg.snapshot).toMatchObject({ name: '并发测试', rides: 10 });
    expect(msg.usages).toHaveLength(1);
    const foreign = await onSale({ districtId: huangpu });
    const fo = await paidOrder(foreign.id);
    expect((await s.call(pkg.packageOrderMsg, { token: manager, query: { id: fo.id } })).status).toBe(403);
    expect((await s.call(pkg.packageOrderMsg, { token: manager, query: { id: 'abc' } })).body.code).not.toBe(1);
  });

  it('the export is a download-centre task', async () => {
    const res = await s.call(pkg.packageOrderExport, { token: manager, query: { status: 1 } });
    expect(res.body.code).toBe(1);
    expect(res.body.data.id).toBeGreaterThan(0);
    const sum = await s.call(pkg.packageSummaryExport, { token: manager, query: {} });
    expect(sum.body.code).toBe(1);
  });
});

describe('退款', () => {
  const key = () => `k-${Math.random().toString(36).slice(2, 12)}`;
  const refund = (token: string, body: Record<string, unknown>) => s.call(pkg.packageOrderRefund, { token, body: { reason: '乘客申请退款', idempotencyKey: key(), ...body } });

  it('unused within 7 days: in full; the ledger row settles; a retry with the key replays', async () => {
    const p = await onSale();
    const o = await paidOrder(p.id);
    const preview = (await s.call(pkg.packageOrderRefundPreview, { token: manager, query: { id: o.id } })).body.data;
    expect(preview).toMatchObject({ full: true, refundable: 1000, refusal: null });
    const k = key();
    const res = await refund(manager, { id: o.id, amount: 1000, idempotencyKey: k });
    expect(res.body.data).toMatchObject({ replayed: false, order: { status: 4, payStatus: 2, refundAmount: 1000 }, refund: { amount: 1000, state: 1 } });
    const again = await refund(manager, { id: o.id, amount: 1000, idempotencyKey: k });
    expect(again.body.data.replayed).toBe(true);
    expect(await db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'package'), eq(t.moneyRefunds.orderId, o.id)))).toHaveLength(1);
    expect(await audits('PACKAGE_ORDER_REFUND', `package-order/${o.id}`)).toHaveLength(1);
    const other = await refund(manager, { id: o.id, amount: 1 });
    expect(other.body.msg).toBe('订单已退款，不能重复退款');
  });

  it('used, or past 7 days: the amount less the used rides’ single fares, never below zero; more is refused', async () => {
    const p = await onSale();
    const o = await paidOrder(p.id);
    await ride(o.id, { singleFare: 300 });
    await ride(o.id, { singleFare: 200 });
    const preview = (await s.call(pkg.packageOrderRefundPreview, { token: manager, query: { id: o.id } })).body.data;
    expect(preview).toMatchObject({ full: false, refundable: 500, usedFare: 500, usedRides: 2 });
    const over = await refund(manager, { id: o.id, amount: 501 });
    expect(over.body.msg).toBe('退款金额不能超过可退金额（5.00元）');
    expect((await storedOrder(o.id)).status).toBe(1);
    expect(await audits('PACKAGE_ORDER_REFUND', `package-order/${o.id}`)).toHaveLength(0);
    expect(refundTerms({ status: 1, amount: 1000, usedRides: 0, paidAt: new Date(0), expireAt: new Date(Date.now() + DAY) }, 0, new Date()).full).toBe(false);
    expect(refundTerms({ status: 1, amount: 1000, usedRides: 8, paidAt: new Date(), expireAt: new Date(Date.now() + DAY) }, 1600, new Date()).refundable).toBe(0);
    const ok = await refund(manager, { id: o.id, amount: 500 });
    expect(ok.body.data.order).toMatchObject({ status: 4, refundAmount: 500 });
  });

  it('refuses used-up, expired and unpaid orders, a foreign district, the agent, bad input; nothing changes', async () => {
    const p = await onSale({ rides: 1, validDays: 1 });
    const used = await paidOrder(p.id);
    await ride(used.id);
    expect((await refund(manager, { id: used.id, amount: 1 })).body.msg).toBe('套餐已用完，不能退款');
    const exp = await paidOrder(p.id, (await riderIds(2))[1]);
    await db().update(packageOrders).set({ status: 3, expireAt: new Date(s.clock.now().getTime() - HOUR) }).where(eq(packageOrders.id, exp.id));
    expect((await refund(manager, { id: exp.id, amount: 1 })).body.msg).toBe('套餐已过期，不能退款');
    const unpaid = await buyPackage(deps(), { riderId: (await riderIds(4))[3]!, packageId: p.id });
    expect((await refund(manager, { id: unpaid.id, amount: 1 })).body.msg).toBe('订单未支付，不能退款');
    const foreign = await paidOrder((await onSale({ districtId: huangpu })).id);
    expect((await refund(manager, { id: foreign.id, amount: 1 })).status).toBe(403);
    expect((await refund(agent, { id: foreign.id, amount: 1 })).status).toBe(403);
    expect((await refund(manager, { id: foreign.id, amount: 1, reason: '短' })).body.code).not.toBe(1);
    expect((await refund(manager, { id: foreign.id, amount: -1 })).body.code).not.toBe(1);
    expect((await refund(manager, { id: foreign.id, amount: 1, idempotencyKey: 'bad key!' })).body.code).not.toBe(1);
    const rows = await db().select().from(packageOrders).where(inArray(packageOrders.id, [used.id, exp.id, unpaid.id, foreign.id]));
    expect(rows.map((r) => r.status).sort()).toEqual([0, 1, 2, 3]);
    expect(await db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'package'), inArray(t.moneyRefunds.orderId, [used.id, exp.id, unpaid.id, foreign.id])))).toHaveLength(0);
  });

  it('退款异常 is asked again by the retry job with the same refund number, once settled it stays', async () => {
    const p = await onSale();
    const o = await paidOrder(p.id, (await riderIds(7))[6]);
    const res = await refund(manager, { id: o.id, amount: 1000 });
    const id = res.body.data.refund.id;
    const before = (await db().select().from(t.moneyRefunds).where(eq(t.moneyRefunds.id, id)))[0]!;
    await db().update(t.moneyRefunds).set({ state: 2, failReason: '渠道异常', createdAt: new Date(s.clock.now().getTime() - 5 * MINUTE) }).where(eq(t.moneyRefunds.id, id));
    const failing = { ...deps(), payments: builtInPaymentChannel({ refundFails: true }) } as AppDeps;
    expect(await retryRefunds(failing, 'package')).not.toContain(id);
    const working = { ...deps(), payments: builtInPaymentChannel({ refundFails: false }) } as AppDeps;
    expect(await retryRefunds(working, 'package')).toContain(id);
    const after = (await db().select().from(t.moneyRefunds).where(eq(t.moneyRefunds.id, id)))[0]!;
    expect(after).toMatchObject({ state: 1, outRefundNo: before.outRefundNo });
    expect(await retryRefunds(working, 'package')).not.toContain(id);
  });

  it('a key used for another order is refused', async () => {
    const p = await onSale();
    const a = await paidOrder(p.id);
    const b = await paidOrder(p.id, (await riderIds(5))[4]);
    const k = key();
    expect((await refund(manager, { id: a.id, amount: 1, idempotencyKey: k })).body.code).toBe(1);
    expect((await refund(manager, { id: b.id, amount: 1, idempotencyKey: k })).body.msg).toBe('该退款请求编号已用于另一笔退款，请重新发起');
    expect((await storedOrder(b.id)).status).toBe(1);
  });
});

describe('套餐汇总 and 套餐体检', () => {
  it('rows per package and day; the total adds them; bad dates are refused', async () => {
    const page = (await s.call(pkg.packageSummaryPage, { token: admin, query: { size: 1000 } })).body.data;
    expect(page.content.length).toBeGreaterThan(0);
    const total = (await s.call(pkg.packageSummaryTotal, { token: admin })).body.data;
    expect(total.sold).toBe(page.content.reduce((n, r) => n + r.sold, 0));
    expect(total.ridesUsed).toBe(page.content.reduce((n, r) => n + r.ridesUsed, 0));
    expect(total.net).toBe(total.amount - total.refundAmount);
    const mine = (await s.call(pkg.packageSummaryPage, { token: manager, query: { size: 1000 } })).body.data.content;
    const myPackages = new Set((await s.call(pkg.packagePage, { token: manager, query: { size: 1000 } })).body.data.content.map((p) => p.id));
    expect(mine.every((r) => myPackages.has(r.packageId))).toBe(true);
    expect((await s.call(pkg.packageSummaryPage, { token: admin, query: { startDate: '2026-13-01' } })).body.code).not.toBe(1);
    expect((await s.call(pkg.packageSummaryPage, { token: admin, query: { startDate: '2026-11-20', endDate: '2026-11-01' } })).body.msg).toBe('开始日期不能晚于结束日期');
  });

  it('体检: paid vs single fares, breakage, buyers who lost money, the undercut flag', async () => {
    const p = await onSale({ name: '体检套餐', price: 1000, originalPrice: 2000, rides: 4 });
    const a = await paidOrder(p.id);
    // Rides on a dear line: fully used, 4 × 500 = 2000 for 1000 → 500‰, deeper than the intended 500‰? equal → not flagged.
    for (let i = 0; i < 4; i++) await ride(a.id, { singleFare: 500, rideAt: new Date(s.clock.now().getTime() + i * DAY) });
    let h = (await s.call(pkg.packageSummaryHealth, { token: manager, query: { packageId: p.id } })).body.data.rows[0]!;
    expect(h).toMatchObject({ orders: 1, paid: 1000, ridesUsed: 4, wouldPay: 2000, paidPerRide: 250, realRate: 500, intendedRate: 500, fullUseRate: 500, undercut: false, lostShare: 0, finished: 1 });
    const b = await paidOrder(p.id, (await riderIds(6))[5]);
    await ride(b.id, { singleFare: 800 });
    await db().update(packageOrders).set({ status: 3 }).where(eq(packageOrders.id, b.id));
    h = (await s.call(pkg.packageSummaryHealth, { token: manager, query: { packageId: p.id } })).body.data.rows[0]!;
    // 2800 of fares over 5 rides → 560 a ride; 1000 / (4 × 560) = 446‰ < 500 − 50: undercut.
    expect(h).toMatchObject({ breakageRides: 3, finished: 2, lostShare: 500, undercut: true, fullUseRate: 446 });
  });
});
