import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as classesApi from '../../src/shared/api/custom-bus/classes';
import * as demandApi from '../../src/shared/api/custom-bus/demand';
import * as netApi from '../../src/shared/api/custom-bus/network';
import * as api from '../../src/shared/api/custom-bus/orders';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { runSaleJob, saleWindow } from '../../src/server/modules/custom-bus/classes-service';
import { BUY_LOCK, buyMonth, buySingle, payOrder } from '../../src/server/modules/custom-bus/rider-side';
import * as cb from '../../src/server/modules/custom-bus/schema';
import { customClasses, customLines, customOrders, customTickets } from '../../src/server/modules/custom-bus/schema';
import { customBaseOf } from '../../src/server/modules/custom-setting/read';
import { LADDER_LOCK } from '../../src/server/modules/custom-setting/service';
import { addDays, shanghaiDate, shanghaiMidnight } from '../../src/shared/domain/time';
import { DAY, MINUTE } from '../support/clock';
import { type CustomFixture, fixtureClass, fixtureLadder, fixtureLine, fixturePaidOrder } from '../support/custom-bus-fixture';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/** The review's defects of 定制公交, each pinned by a test that fails without its fix. */
let s: TestServer;
let manager: string;
let xuhui: number;
let riders: number[];

const db = () => s.database.db;
const pii = createPii(TEST_PII_KEY);
const deps = () => ({ db: s.database.db, clock: s.clock, pii, payments: { refund: async () => ({ state: 1 as const, channelRefundNo: 'CH1', failReason: null }) } }) as unknown as AppDeps;
const f = (): CustomFixture => ({ db: db(), pii, now: s.clock.now() });
const key = () => `k-${Math.random().toString(36).slice(2, 14)}`;

beforeAll(async () => {
  s = await startTestServer();
  manager = await s.login('manager');
  const districts = await db().select().from(t.districts);
  xuhui = districts.find((d) => d.name === '徐汇区')!.id;
  riders = (await db().select({ id: t.riders.id }).from(t.riders).limit(40)).map((r) => r.id);
  await fixtureLadder(f(), xuhui);
});
afterAll(() => s.close());

const storedClass = async (id: number) => (await db().select().from(customClasses).where(eq(customClasses.id, id)))[0]!;
const storedOrder = async (id: number) => (await db().select().from(customOrders).where(eq(customOrders.id, id)))[0]!;
const ticketsOf = (orderId: number) => db().select().from(customTickets).where(eq(customTickets.orderId, orderId)).orderBy(customTickets.id);
const ledger = (orderId: number) => db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'custom'), eq(t.moneyRefunds.orderId, orderId)));
const audits = (type: string, target: string) =>
  db()
    .select()
    .from(t.sysLog)
    .where(and(eq(t.sysLog.operationType, type), eq(t.sysLog.target, target)));
const cancel = (id: number) => s.call(api.customClassesCancel, { token: manager, body: { id, reason: '车辆故障', idempotencyKey: key() } });

/** A class of a fresh line (over: the line's columns) departing `minutes` from now. */
async function classIn(minutes: number, lineOver: Partial<typeof customLines.$inferInsert> = {}, over: Partial<typeof customClasses.$inferInsert> = {}) {
  const { line } = await fixtureLine(f(), xuhui, lineOver);
  const departAt = new Date(s.clock.now().getTime() + minutes * MINUTE);
  const departDate = shanghaiDate(departAt);
  const departTime = Math.round((departAt.getTime() - shanghaiMidnight(departDate).getTime()) / 1000);
  const c = await fixtureClass(f(), line, 0, { departDate, departTime, departAt, arriveAt: new Date(departAt.getTime() + 60 * MINUTE), saleCloseAt: new Date(departAt.getTime() - 5 * MINUTE), ...over });
  return { line, c };
}

describe('1. 取消班次 refunds checked tickets too', () => {
  it('a checked (已核销) ticket is refunded in full on cancel; the operator’s 退票 of a checked ticket stays refused', async () => {
    const { c } = await classIn(20);
    const { order, tickets } = await fixturePaidOrder(f(), c, { seats: 2 });
    await db().update(customTickets).set({ state: 2, checkedAt: s.clock.now() }).where(eq(customTickets.id, tickets[0]!.id));
    const refused = await s.call(api.customOrderRefund, { token: manager, body: { id: order.id, ticketNos: [tickets[0]!.ticketNo], reason: '乘客来电退票', idempotencyKey: key(), waiveFee: true } });
    expect(refused.body.msg).toContain('车票已核销');
    const res = await cancel(c.id);
    expect(res.body.code, res.body.msg).toBe(1);
    expect(res.body.data).toMatchObject({ status: 4, refundedTickets: 2, refundedAmount: 2 * c.price });
    expect((await ticketsOf(order.id)).map((x) => [x.state, x.refundedAmount])).toEqual([
      [3, c.price],
      [3, c.price],
    ]);
    expect(await ledger(order.id)).toHaveLength(2);
    expect(await storedOrder(order.id)).toMatchObject({ status: 4, payStatus: 2, refundedAmount: 2 * c.price });
    expect(await storedClass(c.id)).toMatchObject({ status: 4, sold: 0, stock: c.publish });
  });
});

describe('2. 月票 paid after one of its classes was cancelled', () => {
  it('only the held tickets become seats; the closed ticket’s share is refunded, one ledger row; a repeated notice adds nothing', async () => {
    const { line } = await fixtureLine(f(), xuhui);
    const today = shanghaiDate(s.clock.now());
    const month = addDays(today, 40).slice(0, 7);
    const days = Array.from({ length: 31 }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`)
      .filter((d) => !Number.isNaN(Date.parse(d)) && new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d && ![0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay()))
      .slice(0, 3);
    const classes = [];
    for (const d of days) classes.push(await fixtureClass(f(), line, Math.round((Date.parse(d) - Date.parse(today)) / DAY), { publish: 5, stock: 5 }));
    const { order, tickets } = await buyMonth(deps(), { riderId: riders[11]!, lineId: line.id, direction: 0, month, amount: 3000 });
    expect(tickets.map((x) => x.amount)).toEqual([1000, 1000, 1000]);
    expect((await cancel(classes[1]!.id)).body.data.status).toBe(4);
    expect((await ticketsOf(order.id)).map((x) => x.state)).toEqual([0, 4, 0]);
    const paid = await payOrder(deps(), order.orderNo);
    expect(paid).toMatchObject({ status: 3, payStatus: 1, refundedAmount: 1000 });
    expect((await ticketsOf(order.id)).map((x) => [x.state, x.refundedAmount])).toEqual([
      [1, 0],
      [4, 1000],
      [1, 0],
    ]);
    const rows = await ledger(order.id);
    expect(rows.map((r) => [r.itemId, r.amount])).toEqual([[tickets[1]!.id, 1000]]);
    expect(await storedClass(classes[0]!.id)).toMatchObject({ sold: 1, held: 0, stock: 4 });
    expect(await storedClass(classes[1]!.id)).toMatchObject({ status: 4, sold: 0, held: 0, stock: 5 });
    await payOrder(deps(), order.orderNo);
    expect(await ledger(order.id)).toHaveLength(1);
    expect(await audits('TICKET_REFUND', `custom-order/${order.id}`)).toHaveLength(1);
  });
});

describe('3. only a listed line sells', () => {
  it('the sale job opens a draft line’s classes only once it is listed; buy and 开售 refuse an unlisted line and a ticket type it does not sell', async () => {
    const { line, c } = await classIn(3 * 24 * 60, { status: 0 }, { status: 0 });
    await runSaleJob(deps());
    expect((await storedClass(c.id)).status).toBe(0);
    const open = await s.call(classesApi.classesUpdateStatus, { token: manager, body: { id: c.id, fromStatus: 0, toStatus: 1, rowVersion: c.rowVersion } });
    expect(open.body.msg).toBe('线路未上架，不能售票');
    await db().update(customClasses).set({ status: 1 }).where(eq(customClasses.id, c.id));
    await expect(buySingle(deps(), { riderId: riders[12]!, classesId: c.id, seats: 1 })).rejects.toThrow('线路未上架，不能购票');
    await expect(buyMonth(deps(), { riderId: riders[12]!, lineId: line.id, direction: 0, month: c.departDate.slice(0, 7) })).rejects.toThrow('线路未上架，不能购票');
    await db().update(customClasses).set({ status: 0 }).where(eq(customClasses.id, c.id));
    await db().update(customLines).set({ status: 1 }).where(eq(customLines.id, line.id));
    await runSaleJob(deps());
    expect((await storedClass(c.id)).status).toBe(1);
    const single = await classIn(3 * 24 * 60, { ticketTypes: [2] });
    await expect(buySingle(deps(), { riderId: riders[12]!, classesId: single.c.id, seats: 1 })).rejects.toThrow('该线路不售单次票');
    expect((await storedClass(single.c.id)).stock).toBe(single.c.publish);
  });

  it('a class saved on a draft line waits 待售 even inside its sale window', async () => {
    const { line } = await fixtureLine(f(), xuhui, { status: 0 });
    const departDate = addDays(shanghaiDate(s.clock.now()), 1);
    const res = await s.call(classesApi.classesSave, { token: manager, body: { lineId: line.id, direction: 0, departDate, departTime: '09:30', publish: 20 } });
    expect(res.body.code, res.body.msg).toBe(1);
    expect(res.body.data.status).toBe(0);
  });

  it('下架 stops the line’s 售票中 classes (audited); 上架 does not reopen them', async () => {
    const { line, c } = await classIn(3 * 24 * 60);
    const off = await s.call(netApi.lineUpdateStatus, { token: manager, body: { id: line.id, fromStatus: 1, toStatus: 2, rowVersion: line.rowVersion, reason: '调整' } });
    expect(off.body.code, off.body.msg).toBe(1);
    expect((await storedClass(c.id)).status).toBe(2);
    expect(await audits('CUSTOM_CLASSES_STATUS', `custom-classes/${c.id}`)).toHaveLength(1);
    const on = await s.call(netApi.lineUpdateStatus, { token: manager, body: { id: line.id, fromStatus: 2, toStatus: 1, rowVersion: off.body.data.rowVersion } });
    expect(on.body.code, on.body.msg).toBe(1);
    await runSaleJob(deps());
    expect((await storedClass(c.id)).status).toBe(2);
  });

  it('★ 需求成线 gives its classes the district’s sale window, not “now”', async () => {
    const stops = await db().select().from(t.stations).where(and(eq(t.stations.districtId, xuhui), eq(t.stations.state, 1))).limit(40);
    const a = stops[0]!;
    const b = stops.at(-1)!;
    const now = s.clock.now();
    const [demand] = await db()
      .insert(cb.customDemands)
      .values({ districtId: xuhui, fromName: '测试小区', fromLng: a.lng, fromLat: a.lat, toName: '测试园区', toLng: b.lng, toLat: b.lat, goFrom: 7 * 3600, goTo: 8 * 3600, distanceM: 5000, supporters: 40, threshold: 30, createdAt: now, updatedAt: now })
      .returning();
    const res = await s.call(demandApi.customDemandToLine, { token: manager, body: { demandId: demand!.id, name: '需求成线复核', price: 900, lineNo: `R${Date.now().toString(36).slice(-6)}`.toUpperCase() } });
    expect(res.body.code, res.body.msg).toBe(1);
    const made = await db().select().from(customClasses).where(eq(customClasses.lineId, res.body.data.lineId));
    expect(made.length).toBeGreaterThan(0);
    const base = await customBaseOf(db(), xuhui);
    for (const c of made) {
      const w = saleWindow(base, c.departDate, c.departAt);
      expect([c.saleOpenAt.getTime(), c.saleCloseAt.getTime(), c.status]).toEqual([w.saleOpenAt.getTime(), w.saleCloseAt.getTime(), 0]);
    }
  });
});

describe('4. the 62-day window with one end', () => {
  it('a missing end is the other ±61 days: page and total never reach past it', async () => {
    const { line } = await fixtureLine(f(), xuhui);
    const far = await fixtureClass(f(), line, 70);
    const today = shanghaiDate(s.clock.now());
    const ids = async (query: Record<string, unknown>) => (await s.call(classesApi.classesPage, { token: manager, query: { lineId: line.id, size: 100, ...query } })).body.data.content.map((c) => c.id);
    expect(await ids({ dateFrom: today })).toEqual([]);
    expect(await ids({ dateFrom: addDays(today, 9) })).toEqual([far.id]);
    expect(await ids({ dateTo: addDays(today, 200) })).toEqual([]);
    expect(await ids({ dateTo: addDays(today, 120) })).toEqual([far.id]);
    expect(await ids({})).toEqual([]);
    const total = (query: Record<string, unknown>) => s.call(classesApi.classesTotal, { token: manager, query: { lineId: line.id, ...query } });
    expect((await total({ dateFrom: today })).body.data.classes).toBe(0);
    expect((await total({ dateTo: addDays(today, 120) })).body.data.classes).toBe(1);
  });
});

describe('6. a reused refund key with another ticket set', () => {
  it('is refused in words; the same set is the first answer', async () => {
    const { c } = await classIn(3 * 24 * 60);
    const { order, tickets } = await fixturePaidOrder(f(), c, { seats: 3 });
    const k = key();
    const refund = (ticketNos: string[]) => s.call(api.customOrderRefund, { token: manager, body: { id: order.id, ticketNos, reason: '乘客来电退票', idempotencyKey: k, waiveFee: true } });
    const first = await refund([tickets[0]!.ticketNo]);
    expect(first.body.code, first.body.msg).toBe(1);
    expect((await refund([tickets[0]!.ticketNo])).body.data.replayed).toBe(true);
    expect((await refund([tickets[1]!.ticketNo])).body.msg).toBe('该退款请求编号已用于另一笔退款，请重新发起');
    expect((await refund([tickets[0]!.ticketNo, tickets[1]!.ticketNo])).body.msg).toBe('该退款请求编号已用于另一笔退款，请重新发起');
    expect((await ticketsOf(order.id)).map((x) => x.state)).toEqual([3, 1, 1]);
    expect(await ledger(order.id)).toHaveLength(1);
  });
});

describe('8. lock keys and 0-fen refunds', () => {
  it('a rider’s purchases and the ladders do not share an advisory lock', () => {
    expect(BUY_LOCK).not.toBe(LADDER_LOCK);
  });

  it('a ticket with nothing to give back is refunded without a 0-fen ledger row', async () => {
    // A 月票 share can be 0 fen (a small amount split over many classes): such a ticket.
    const { c } = await classIn(3 * 24 * 60);
    const { order, tickets } = await fixturePaidOrder(f(), c, { seats: 1 });
    await db().update(customTickets).set({ amount: 0 }).where(eq(customTickets.id, tickets[0]!.id));
    await db().update(customOrders).set({ amount: 0 }).where(eq(customOrders.id, order.id));
    const res = await s.call(api.customOrderRefund, { token: manager, body: { id: order.id, ticketNos: [tickets[0]!.ticketNo], reason: '乘客来电退票', idempotencyKey: key(), waiveFee: true } });
    expect(res.body.code, res.body.msg).toBe(1);
    expect(res.body.data.refund).toMatchObject({ amount: 0, rows: [] });
    expect((await ticketsOf(order.id))[0]!.state).toBe(3);
    expect(await ledger(order.id)).toHaveLength(0);
  });
});
