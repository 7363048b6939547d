import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/shared/api/custom-bus/orders';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { customClasses, customOrders, customTickets } from '../../src/server/modules/custom-bus/schema';
import { buyMonth, buySingle, expireHolds, monthSaleCloses, payOrder, riderRefund, splitFen } from '../../src/server/modules/custom-bus/rider-side';
import { customBaseOf } from '../../src/server/modules/custom-setting/read';
import { customBaseSettings } from '../../src/server/modules/custom-setting/schema';
import type { LadderRow } from '../../src/shared/custom/refund-ladder';
import { addDays, shanghaiDate, shanghaiMidnight } from '../../src/shared/domain/time';
import { DAY, MINUTE } from '../support/clock';
import { type CustomFixture, fixtureCar, fixtureClass, fixtureLadder, fixtureLine, fixturePaidOrder } from '../support/custom-bus-fixture';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/** 订单记录、订单详情、退票、验票、取消班次 and the rider side against the real server. */
let s: TestServer;
let admin: string;
let manager: string;
let viewer: string;
let agent: string;
let xuhui: number;
let huangpu: number;
let riders: number[];

const db = () => s.database.db;
const pii = createPii(TEST_PII_KEY);
const deps = () => ({ db: s.database.db, clock: s.clock, pii, payments: { refund: async () => ({ state: 1 as const, channelRefundNo: 'CH1', failReason: null }) } }) as unknown as AppDeps;
const f = (): CustomFixture => ({ db: db(), pii, now: s.clock.now() });
const key = () => `k-${Math.random().toString(36).slice(2, 14)}`;

beforeAll(async () => {
  s = await startTestServer();
  [admin, manager, viewer, agent] = (await Promise.all(['admin', 'manager', 'viewer', 'agent'].map((u) => s.login(u)))) as [string, string, string, string];
  const districts = await db().select().from(t.districts);
  xuhui = districts.find((d) => d.name === '徐汇区')!.id;
  huangpu = districts.find((d) => d.name === '黄浦区')!.id;
  riders = (await db().select({ id: t.riders.id }).from(t.riders).limit(40)).map((r) => r.id);
  await fixtureLadder(f(), xuhui);
});
afterAll(() => s.close());

const audits = (type: string, target: string) =>
  db()
    .select()
    .from(t.sysLog)
    .where(and(eq(t.sysLog.operationType, type), eq(t.sysLog.target, target)));
const storedClass = async (id: number) => (await db().select().from(customClasses).where(eq(customClasses.id, id)))[0]!;
const storedOrder = async (id: number) => (await db().select().from(customOrders).where(eq(customOrders.id, id)))[0]!;
const ticketsOf = (orderId: number) => db().select().from(customTickets).where(eq(customTickets.orderId, orderId)).orderBy(customTickets.id);
const ledger = (orderId: number) => db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'custom'), eq(t.moneyRefunds.orderId, orderId)));

/** A class of a fresh line in `district`, departing `minutes` from now. */
async function classIn(minutes: number, district = xuhui, over: Partial<typeof customClasses.$inferInsert> = {}) {
  const { line } = await fixtureLine(f(), district);
  const departAt = new Date(s.clock.now().getTime() + minutes * MINUTE);
  const departDate = shanghaiDate(departAt);
  const departTime = Math.round((departAt.getTime() - shanghaiMidnight(departDate).getTime()) / 1000);
  return fixtureClass(f(), line, 0, { departDate, departTime, departAt, arriveAt: new Date(departAt.getTime() + 60 * MINUTE), saleCloseAt: new Date(departAt.getTime() - 5 * MINUTE), ...over });
}
const seatsOk = (c: typeof customClasses.$inferSelect) => expect(c.stock + c.held + c.sold).toBe(c.publish);

describe('the rider side: buy, pay, hold expiry, late pay', () => {
  it('buySingle holds seats; refuses 余票不足 and the per-class limit; payOrder is idempotent', async () => {
    const c = await classIn(3 * DAY / MINUTE, xuhui, { publish: 6, stock: 6 });
    const { order, tickets } = await buySingle(deps(), { riderId: riders[0]!, classesId: c.id, seats: 3 });
    expect(tickets.map((x) => x.state)).toEqual([0, 0, 0]);
    expect(await storedClass(c.id)).toMatchObject({ stock: 3, held: 3, sold: 0 });
    await expect(buySingle(deps(), { riderId: riders[0]!, classesId: c.id, seats: 2 })).rejects.toThrow('每位乘客每个班次最多购买4张票');
    await expect(buySingle(deps(), { riderId: riders[1]!, classesId: c.id, seats: 4 })).rejects.toThrow('余票不足，剩余3座');
    expect(await storedClass(c.id)).toMatchObject({ stock: 3, held: 3 });
    expect(order.ruleVersionId).not.toBeNull();
    await payOrder(deps(), order.orderNo);
    await payOrder(deps(), order.orderNo);
    const after = await storedClass(c.id);
    expect(after).toMatchObject({ stock: 3, held: 0, sold: 3 });
    seatsOk(after);
    expect((await ticketsOf(order.id)).map((x) => x.state)).toEqual([1, 1, 1]);
    expect(await storedOrder(order.id)).toMatchObject({ status: 1, payStatus: 1 });
  });

  it('the district’s own limit replaces 4', async () => {
    const c = await classIn(3 * DAY / MINUTE, huangpu);
    await db().insert(customBaseSettings).values({ districtId: huangpu, maxSeatsPerUserPerClass: 2, updatedAt: s.clock.now() } as typeof customBaseSettings.$inferInsert).onConflictDoUpdate({ target: customBaseSettings.districtId, set: { maxSeatsPerUserPerClass: 2 } });
    await expect(buySingle(deps(), { riderId: riders[2]!, classesId: c.id, seats: 3 })).rejects.toThrow('每位乘客每个班次最多购买2张票');
  });

  it('ticket.holdExpire closes unpaid orders past their hold: tickets 0 → 4, seats back, audited; a late payment retakes free seats', async () => {
    const c = await classIn(3 * DAY / MINUTE, xuhui, { publish: 4, stock: 4 });
    const { order } = await buySingle(deps(), { riderId: riders[3]!, classesId: c.id, seats: 2 });
    expect(await expireHolds(deps())).not.toContain(order.id);
    s.clock.advance(3 * MINUTE);
    expect(await expireHolds(deps())).toContain(order.id);
    expect(await storedOrder(order.id)).toMatchObject({ status: 2 });
    expect((await ticketsOf(order.id)).map((x) => x.state)).toEqual([4, 4]);
    expect(await storedClass(c.id)).toMatchObject({ stock: 4, held: 0, sold: 0 });
    expect(await audits('TICKET_HOLD_EXPIRE', `custom-order/${order.id}`)).toHaveLength(1);
    await payOrder(deps(), order.orderNo);
    expect(await storedOrder(order.id)).toMatchObject({ status: 1, payStatus: 1 });
    expect(await storedClass(c.id)).toMatchObject({ stock: 2, sold: 2 });
    expect(await audits('CUSTOM_ORDER_LATE_PAY', `custom-order/${order.id}`)).toHaveLength(1);
  });

  it('a late payment whose seats were sold meanwhile is refunded in full once (支付成功但座位已释放)', async () => {
    const c = await classIn(3 * DAY / MINUTE, xuhui, { publish: 2, stock: 2 });
    const { order } = await buySingle(deps(), { riderId: riders[4]!, classesId: c.id, seats: 2 });
    s.clock.advance(3 * MINUTE);
    await expireHolds(deps());
    const other = await buySingle(deps(), { riderId: riders[5]!, classesId: c.id, seats: 1 });
    await payOrder(deps(), other.order.orderNo);
    await payOrder(deps(), order.orderNo);
    await payOrder(deps(), order.orderNo);
    expect(await storedOrder(order.id)).toMatchObject({ status: 4, payStatus: 2, refundedAmount: order.amount });
    const rows = await ledger(order.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ itemId: 0, amount: order.amount, reason: '支付成功但座位已释放', state: 1 });
    const after = await storedClass(c.id);
    expect(after).toMatchObject({ stock: 1, sold: 1, held: 0 });
  });

  it('月票: a seat on every class of the month, all or nothing; the amount split to the fen', async () => {
    expect(splitFen(1000, [1, 1, 1])).toEqual([334, 333, 333]);
    expect(splitFen(999, [300, 700]).reduce((a, b) => a + b)).toBe(999);
    const { line } = await fixtureLine(f(), xuhui);
    const next = addDays(shanghaiDate(s.clock.now()), 40).slice(0, 7);
    const days = Array.from({ length: 31 }, (_, i) => `${next}-${String(i + 1).padStart(2, '0')}`).filter((d) => !Number.isNaN(Date.parse(d)) && d.slice(0, 7) === next && ![0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay()));
    const classes = [];
    for (const d of days) {
      const daysAhead = Math.round((Date.parse(d) - Date.parse(shanghaiDate(s.clock.now()))) / DAY);
      classes.push(await fixtureClass(f(), line, daysAhead, { publish: 2, stock: 2 }));
    }
    const full = classes[5]!;
    await db().update(customClasses).set({ stock: 0, sold: 2 }).where(eq(customClasses.id, full.id));
    await expect(buyMonth(deps(), { riderId: riders[6]!, lineId: line.id, direction: 0, month: next, amount: 20_000 })).rejects.toThrow(`${full.departDate}班次余票不足，月票需包含当月全部工作日班次`);
    for (const c of classes) if (c.id !== full.id) expect((await storedClass(c.id)).stock).toBe(2);
    await db().update(customClasses).set({ stock: 2, sold: 0 }).where(eq(customClasses.id, full.id));
    const { order, tickets } = await buyMonth(deps(), { riderId: riders[6]!, lineId: line.id, direction: 0, month: next, amount: 20_000 });
    expect(tickets).toHaveLength(classes.length);
    expect(tickets.reduce((a, x) => a + x.amount, 0)).toBe(20_000);
    expect(order).toMatchObject({ ticketType: 2, month: next, classesId: null });
    for (const c of classes) expect(await storedClass(c.id)).toMatchObject({ stock: 1, held: 1 });
  });

  it('月票截止销售日: a month’s ticket is sold until the end of that day (Shanghai) of the month before; this month’s is past it', async () => {
    expect(monthSaleCloses('2027-01', 25)).toEqual({ at: new Date('2026-12-25T16:00:00Z'), label: '2027年1月的月票已于2026年12月25日截止销售' });
    expect(monthSaleCloses('2027-03', 1).at).toEqual(new Date('2027-02-01T16:00:00Z'));
    const { line } = await fixtureLine(f(), xuhui);
    const month = addDays(shanghaiDate(s.clock.now()), 40).slice(0, 7);
    const first = addDays(`${month}-01`, [1, 0, 0, 0, 0, 0, 2][new Date(`${month}-01T00:00:00Z`).getUTCDay()]!);
    await fixtureClass(f(), line, Math.round((Date.parse(first) - Date.parse(shanghaiDate(s.clock.now()))) / DAY), { publish: 3, stock: 3 });
    const { monthSaleUntilDay } = await customBaseOf(db(), xuhui);
    const closes = monthSaleCloses(month, monthSaleUntilDay);
    const at = (ms: number) => ({ ...deps(), clock: { now: () => new Date(ms) } }) as unknown as AppDeps;
    const buy = (d: AppDeps, m = month) => buyMonth(d, { riderId: riders[8]!, lineId: line.id, direction: 0, month: m });
    await expect(buy(at(closes.at.getTime()))).rejects.toThrow(closes.label);
    await expect(buy(deps(), '2026-13')).rejects.toThrow('月份应为 YYYY-MM');
    const thisMonth = shanghaiDate(s.clock.now()).slice(0, 7);
    await expect(buy(deps(), thisMonth)).rejects.toThrow(monthSaleCloses(thisMonth, monthSaleUntilDay).label);
    const { tickets } = await buy(at(closes.at.getTime() - 1));
    expect(tickets.length).toBeGreaterThanOrEqual(1);
  });
});

describe('订单记录: list, totals, detail, export', () => {
  it('the list keeps to the district, masks phones, filters; the phone works through the body form; the viewer is refused, the agent reads', async () => {
    const c = await classIn(2 * DAY / MINUTE);
    const { order } = await fixturePaidOrder(f(), c, { seats: 2 });
    const foreign = await classIn(2 * DAY / MINUTE, huangpu);
    await fixturePaidOrder(f(), foreign);
    const page = (await s.call(api.customOrderPage, { token: manager, query: { size: 1000 } })).body.data;
    expect(page.content.length).toBeGreaterThan(0);
    expect(page.content.every((o) => o.districtId === xuhui)).toBe(true);
    expect(page.content.every((o) => o.riderPhone === null || /^\d{3}\*{4}\d{4}$/.test(o.riderPhone))).toBe(true);
    const byNo = (await s.call(api.customOrderPage, { token: manager, query: { orderNo: order.orderNo } })).body.data.content;
    expect(byNo.map((o) => o.id)).toEqual([order.id]);
    expect(byNo[0]).toMatchObject({ seats: 2, ticketType: 1, departDate: c.departDate });
    const [rider] = await db().select().from(t.riders).where(eq(t.riders.id, order.riderId));
    const byPhone = (await s.call(api.customOrderPageByBody, { token: manager, body: { phone: pii.decrypt(rider!.phoneEnc), size: 100 } })).body.data.content;
    expect(byPhone.length).toBeGreaterThan(0);
    expect(byPhone.every((o) => o.riderId === order.riderId)).toBe(true);
    const byDay = (await s.call(api.customOrderPage, { token: manager, query: { startDate: c.departDate, endDate: c.departDate, ticketType: 1, size: 1000 } })).body.data.content;
    expect(byDay.some((o) => o.id === order.id)).toBe(true);
    expect(byDay.every((o) => o.departDate === c.departDate)).toBe(true);
    const total = (await s.call(api.customOrderTotal, { token: manager })).body.data;
    expect(total.orders).toBe(page.totalElements);
    expect(total.tickets).toBeGreaterThanOrEqual(2);
    expect((await s.call(api.customOrderPage, { token: viewer })).status).toBe(403);
    // The agent takes the call: reads the orders (masked) but refunds nothing (退票 below).
    expect((await s.call(api.customOrderPage, { token: agent })).status).toBe(200);
    expect((await s.call(api.customOrderPage, { token: manager, query: { orderNo: 'x'.repeat(41) } })).body.code).not.toBe(1);
    expect((await s.call(api.customOrderPage, { token: manager, query: { startDate: '2026/01/01' } })).body.code).not.toBe(1);
  });

  it('the detail: tickets with what each refunds now by the order’s ladder, the ladder, the refunds; a foreign order is refused', async () => {
    const c = await classIn(60);
    const { order } = await fixturePaidOrder(f(), c);
    const msg = (await s.call(api.customOrderMsg, { token: manager, query: { id: order.id } })).body.data;
    expect(msg.ladder.length).toBeGreaterThan(0);
    expect(msg.tickets).toHaveLength(1);
    // 60 minutes before: the 20 min–2 h band, 20%.
    expect(msg.tickets[0]!.quote).toMatchObject({ fee: 240, refund: 960, refusal: null });
    const foreign = await fixturePaidOrder(f(), await classIn(60, huangpu));
    expect((await s.call(api.customOrderMsg, { token: manager, query: { id: foreign.order.id } })).status).toBe(403);
    expect((await s.call(api.customOrderMsg, { token: manager, query: { id: 'abc' } })).body.code).not.toBe(1);
    expect((await s.call(api.customOrderMsg, { token: viewer, query: { id: order.id } })).status).toBe(403);
    expect((await s.call(api.customOrderMsg, { token: agent, query: { id: order.id } })).body.data.riderPhone).toMatch(/^\d{3}\*{4}\d{4}$/);
  });

  it('the export is a download-centre task', async () => {
    const res = await s.call(api.customOrderExport, { token: manager, query: { status: 1 } });
    expect(res.body.code).toBe(1);
    expect(res.body.data.id).toBeGreaterThan(0);
    expect((await s.call(api.customOrderExport, { token: viewer, query: {} })).status).toBe(403);
  });
});

describe('退票', () => {
  const refund = (token: string, body: Record<string, unknown>) => s.call(api.customOrderRefund, { token, body: { reason: '乘客来电退票', idempotencyKey: key(), ...body } });

  it('by the ladder the order was sold under, even after a new ladder is in force; the seat goes back; a retry replays', async () => {
    const c = await classIn(5 * 60);
    const soldUnder: LadderRow[] = [
      { fromMin: 0, toMin: 20, refundable: 0, feeRate: 0, minFee: 0 },
      { fromMin: 20, toMin: 1440, refundable: 1, feeRate: 100, minFee: 0 },
      { fromMin: 1440, toMin: null, refundable: 1, feeRate: 0, minFee: 0 },
    ];
    const rule = await fixtureLadder(f(), xuhui, soldUnder);
    const { order, tickets } = await fixturePaidOrder(f(), c, { seats: 2, ruleVersionId: rule.id });
    await fixtureLadder(f(), xuhui, [
      { fromMin: 0, toMin: 60, refundable: 0, feeRate: 0, minFee: 0 },
      { fromMin: 60, toMin: null, refundable: 1, feeRate: 500, minFee: 0 },
    ]);
    const k = key();
    const res = await refund(manager, { id: order.id, ticketNos: [tickets[0]!.ticketNo], idempotencyKey: k, amount: 1080 });
    expect(res.body.code).toBe(1);
    expect(res.body.data.refund).toMatchObject({ amount: 1080, fee: 120 });
    expect(res.body.data.order).toMatchObject({ status: 3, refundedAmount: 1080 });
    expect(res.body.data.replayed).toBe(false);
    expect(await storedClass(c.id)).toMatchObject({ stock: c.publish - 1, sold: 1 });
    const again = await refund(manager, { id: order.id, ticketNos: [tickets[0]!.ticketNo], idempotencyKey: k, amount: 1080 });
    expect(again.body.data.replayed).toBe(true);
    expect(await ledger(order.id)).toHaveLength(1);
    expect(await audits('TICKET_REFUND', `custom-order/${order.id}`)).toHaveLength(1);
    // The second ticket with the fee waived: in full, the order 已退款.
    const waived = await refund(manager, { id: order.id, ticketNos: [tickets[1]!.ticketNo], waiveFee: true });
    expect(waived.body.data.refund).toMatchObject({ amount: 1200, fee: 0 });
    expect(waived.body.data.order).toMatchObject({ status: 4, payStatus: 2, refundedAmount: 2280 });
    const twice = await refund(manager, { id: order.id, ticketNos: [tickets[1]!.ticketNo] });
    expect(twice.body.msg).toBe('车票已退票');
    expect(await ledger(order.id)).toHaveLength(2);
    await fixtureLadder(f(), xuhui);
  });

  it('refuses a checked ticket, more than refundable, a departed class, tickets of another order; nothing changes', async () => {
    const c = await classIn(90);
    const { order, tickets } = await fixturePaidOrder(f(), c, { seats: 2 });
    await db().update(customTickets).set({ state: 2, checkedAt: s.clock.now() }).where(eq(customTickets.id, tickets[1]!.id));
    expect((await refund(manager, { id: order.id, ticketNos: [tickets[1]!.ticketNo] })).body.msg).toBe('车票已核销，不能退票');
    expect((await refund(manager, { id: order.id, ticketNos: [tickets[0]!.ticketNo], amount: 1200 })).body.msg).toBe('退款金额不能超过可退金额（9.60元）');
    const other = await fixturePaidOrder(f(), c);
    expect((await refund(manager, { id: order.id, ticketNos: [other.tickets[0]!.ticketNo] })).body.msg).toBe('所选车票不属于该订单');
    const gone = await classIn(-5);
    const late = await fixturePaidOrder(f(), gone);
    expect((await refund(manager, { id: late.order.id, ticketNos: [late.tickets[0]!.ticketNo] })).body.msg).toBe('班次已发车，不能退票');
    // Inside the band the ladder does not refund: only with the fee waived.
    const soon = await classIn(10);
    const near = await fixturePaidOrder(f(), soon);
    expect((await refund(manager, { id: near.order.id, ticketNos: [near.tickets[0]!.ticketNo] })).body.msg).toMatch(/^距发车不足20分钟，不可退票/);
    expect((await refund(manager, { id: near.order.id, ticketNos: [near.tickets[0]!.ticketNo], waiveFee: true })).body.data.refund.amount).toBe(1200);
    for (const id of [order.id, late.order.id]) {
      expect(await ledger(id)).toHaveLength(0);
      expect((await storedOrder(id)).status).toBe(1);
    }
    expect((await ticketsOf(order.id)).map((x) => x.state)).toEqual([1, 2]);
  });

  it('roles, scope and malformed bodies change nothing', async () => {
    const c = await classIn(3 * DAY / MINUTE);
    const { order, tickets } = await fixturePaidOrder(f(), c);
    const body = { id: order.id, ticketNos: [tickets[0]!.ticketNo] };
    expect((await refund(viewer, body)).status).toBe(403);
    expect((await refund(agent, body)).status).toBe(403);
    const foreign = await fixturePaidOrder(f(), await classIn(3 * DAY / MINUTE, huangpu));
    expect((await refund(manager, { id: foreign.order.id, ticketNos: [foreign.tickets[0]!.ticketNo] })).status).toBe(403);
    const bad: Record<string, unknown>[] = [
      { ...body, ticketNos: [] },
      { ...body, reason: '退' },
      { ...body, reason: '退'.repeat(101) },
      { ...body, idempotencyKey: 'short' },
      { id: order.id },
      { ...body, ticketNos: ['x'.repeat(41)] },
      { ...body, id: 'abc' },
    ];
    for (const b of bad) expect((await s.call(api.customOrderRefund, { token: manager, body: { reason: '乘客来电退票', idempotencyKey: key(), ...b } })).body.code, JSON.stringify(b)).not.toBe(1);
    expect((await s.call(api.customOrderRefund, { token: manager, body: { ...body, idempotencyKey: key() } })).body.msg).toContain('请填写退票原因');
    for (const id of [order.id, foreign.order.id]) {
      expect(await ledger(id)).toHaveLength(0);
      expect((await storedOrder(id)).status).toBe(1);
    }
    expect(await audits('TICKET_REFUND', `custom-order/${order.id}`)).toHaveLength(0);
  });

  it('the rider refunds by the ladder: 距发车不足20分钟，不可退票; a key is answered once', async () => {
    const soon = await classIn(15);
    const { order, tickets } = await fixturePaidOrder(f(), soon, { riderId: riders[7]! });
    await expect(riderRefund(deps(), { riderId: riders[7]!, orderNo: order.orderNo, ticketNos: [tickets[0]!.ticketNo], idempotencyKey: key() })).rejects.toThrow('距发车不足20分钟，不可退票');
    const later = await classIn(3 * 60);
    const o2 = await fixturePaidOrder(f(), later, { riderId: riders[7]! });
    const k = key();
    const r = await riderRefund(deps(), { riderId: riders[7]!, orderNo: o2.order.orderNo, ticketNos: [o2.tickets[0]!.ticketNo], idempotencyKey: k });
    expect(r).toMatchObject({ amount: 1080, fee: 120, replayed: false });
    expect(await riderRefund(deps(), { riderId: riders[7]!, orderNo: o2.order.orderNo, ticketNos: [o2.tickets[0]!.ticketNo], idempotencyKey: k })).toMatchObject({ amount: 1080, replayed: true });
    await expect(riderRefund(deps(), { riderId: riders[7]!, orderNo: o2.order.orderNo, ticketNos: [o2.tickets[0]!.ticketNo], idempotencyKey: key() })).rejects.toThrow('车票已退票');
    expect(await ledger(o2.order.id)).toHaveLength(1);
    await expect(riderRefund(deps(), { riderId: riders[8]!, orderNo: o2.order.orderNo, ticketNos: [o2.tickets[0]!.ticketNo], idempotencyKey: key() })).rejects.toThrow('订单不存在');
  });
});

describe('验票', () => {
  const check = (token: string, body: Record<string, unknown>) => s.call(api.customTicketCheck, { token, body });

  it('1 → 2 once, only inside the check window; audited; the agent checks too; roles and scope', async () => {
    const early = await classIn(2 * 60);
    const e = await fixturePaidOrder(f(), early);
    expect((await check(manager, { ticketNo: e.tickets[0]!.ticketNo })).body.msg).toBe('未到验票时间（发车前30分钟开始验票）');
    const car = await fixtureCar(f(), xuhui);
    const c = await classIn(10, xuhui, { carId: car.id });
    const { order, tickets } = await fixturePaidOrder(f(), c);
    expect((await check(viewer, { ticketNo: tickets[0]!.ticketNo })).status).toBe(403);
    const ok = await check(manager, { ticketNo: tickets[0]!.ticketNo });
    expect(ok.body.data.ticket).toMatchObject({ state: 2, checkPlateNo: car.plateNo, checkMethod: 2 });
    expect((await check(manager, { ticketNo: tickets[0]!.ticketNo })).body.msg).toBe('车票已核销');
    // 客服坐席组 holds CUSTOM_TICKET_CHECK (second wave §1): the agent checks the second seat.
    const second = await fixturePaidOrder(f(), c);
    expect((await check(agent, { ticketNo: second.tickets[0]!.ticketNo })).body.data.ticket.state).toBe(2);
    expect(await audits('TICKET_CHECK', `custom-order/${order.id}`)).toHaveLength(1);
    expect((await check(manager, { ticketNo: 'NOPE' })).body.msg).toBe('车票不存在');
    expect((await check(manager, {})).body.code).not.toBe(1);
    const foreign = await fixturePaidOrder(f(), await classIn(10, huangpu));
    expect((await check(manager, { ticketNo: foreign.tickets[0]!.ticketNo })).status).toBe(403);
    expect((await check(agent, { ticketNo: foreign.tickets[0]!.ticketNo })).status).toBe(403);
    expect((await ticketsOf(foreign.order.id))[0]!.state).toBe(1);
  });
});

describe('取消班次', () => {
  const cancel = (token: string, body: Record<string, unknown>) => s.call(api.customClassesCancel, { token, body: { reason: '车辆故障', idempotencyKey: key(), ...body } });

  it('every paid ticket refunded in full, unpaid holds closed, 0/1/2 → 4; a second cancel refunds nothing more', async () => {
    const c = await classIn(30);
    const a = await fixturePaidOrder(f(), c, { seats: 2 });
    const b = await fixturePaidOrder(f(), c);
    const hold = await buySingle(deps(), { riderId: riders[9]!, classesId: c.id, seats: 1 });
    const res = await cancel(manager, { id: c.id });
    expect(res.body.data).toMatchObject({ status: 4, refundedTickets: 3, refundedAmount: 3600, replayed: false });
    expect(await storedClass(c.id)).toMatchObject({ status: 4, cancelReason: '车辆故障', sold: 0, held: 0, stock: c.publish });
    expect(await storedOrder(a.order.id)).toMatchObject({ status: 4, refundedAmount: 2400 });
    expect(await storedOrder(hold.order.id)).toMatchObject({ status: 2 });
    expect(await ledger(a.order.id)).toHaveLength(2);
    expect(await ledger(b.order.id)).toHaveLength(1);
    expect(await audits('CUSTOM_CLASSES_CANCEL', `custom-classes/${c.id}`)).toHaveLength(1);
    const again = await cancel(manager, { id: c.id });
    expect(again.body.data).toMatchObject({ status: 4, refundedTickets: 3, replayed: true });
    expect(await ledger(a.order.id)).toHaveLength(2);
  });

  it('refuses a departed class, roles and scope, malformed bodies; nothing changes', async () => {
    const gone = await classIn(-1);
    const o = await fixturePaidOrder(f(), gone);
    expect((await cancel(manager, { id: gone.id })).body.msg).toBe('班次已发车，不能取消');
    const c = await classIn(3 * DAY / MINUTE);
    await fixturePaidOrder(f(), c);
    expect((await cancel(viewer, { id: c.id })).status).toBe(403);
    expect((await cancel(agent, { id: c.id })).status).toBe(403);
    const foreign = await classIn(3 * DAY / MINUTE, huangpu);
    expect((await cancel(manager, { id: foreign.id })).status).toBe(403);
    expect((await cancel(manager, { id: c.id, reason: '坏' })).body.code).not.toBe(1);
    expect((await cancel(manager, { id: c.id, reason: '坏'.repeat(101) })).body.code).not.toBe(1);
    expect((await s.call(api.customClassesCancel, { token: manager, body: { id: c.id, reason: '车辆故障' } })).body.code).not.toBe(1);
    for (const id of [gone.id, c.id, foreign.id]) expect((await storedClass(id)).status).toBe(1);
    expect(await ledger(o.order.id)).toHaveLength(0);
    expect((await cancel(admin, { id: foreign.id })).body.data.status).toBe(4);
  });
});
