import { and, count, desc, eq, lte, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discount } from '../../src/shared/api';
import * as t from '../../src/server/db/schema';
import { skipWithoutPostgres } from '../support/test-db';
import { type TestServer, startTestServer } from '../support/test-server';

/** Discount-card orders and refunds: exactly once, refused in Chinese when they cannot be, audited. */
let s: TestServer;
let manager: string;
let agent: string;
let xuhui: number;
const db = () => s.database.db;

beforeAll(async () => {
  s = await startTestServer();
  manager = await s.login('manager');
  agent = await s.login('agent');
  xuhui = (await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区')))[0]!.id;
});
afterAll(() => s.close());

let n = 0;
const key = () => `test-${Date.now().toString(36)}-${n++}`;
/** An order no test has refunded yet, at most the amount that asks for a password (refund-password.test.ts has those). */
async function orderIn(status: number, district = xuhui) {
  const taken = (await db().select({ id: t.refunds.orderId }).from(t.refunds)).map((r) => r.id);
  const rows = await db()
    .select()
    .from(t.discountOrders)
    .where(and(eq(t.discountOrders.payStatus, status), eq(t.discountOrders.districtId, district), lte(t.discountOrders.amount, s.config.refundPasswordAboveFen)))
    .orderBy(desc(t.discountOrders.id));
  return rows.find((r) => !taken.includes(r.id))!;
}
const refund = (token: string, id: number, k = key(), reason = '乘客申请退款') => s.call(discount.discountOrderRefund, { token, body: { id, reason, idempotencyKey: k } });
const ledger = async (orderId: number) => (await db().select({ n: count() }).from(t.refunds).where(eq(t.refunds.orderId, orderId)))[0]!.n;

describe('busDiscountCardOrder reads', () => {
  it('lists the area\'s orders newest first with the phone masked, totals them, and shows one with its refund', async () => {
    const page = await s.call(discount.discountOrderPage, { token: agent, query: { size: 50 } });
    expect(page.body.data.content.every((o) => o.districtId === xuhui)).toBe(true);
    const dates = page.body.data.content.map((o) => o.createdDate);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(JSON.stringify(page.body.data)).not.toMatch(/"1\d{10}"/);
    const totals = await s.call(discount.discountOrderTotal, { token: agent });
    expect(totals.body.data.orders).toBe(page.body.data.totalElements);
    expect(totals.body.data.paid + totals.body.data.refunded + totals.body.data.unpaid).toBe(totals.body.data.orders);
    const [stored] = await db().select({ sum: sql<number>`sum(amount)::int` }).from(t.discountOrders).where(and(eq(t.discountOrders.districtId, xuhui), eq(t.discountOrders.payStatus, 1)));
    expect(totals.body.data.paidAmount).toBe(stored!.sum);
    // A refunded order with its ledger row (orderIn skips those: it hands out orders to refund).
    const [refunded] = await db()
      .select({ id: t.discountOrders.id, amount: t.refunds.amount })
      .from(t.discountOrders)
      .innerJoin(t.refunds, eq(t.refunds.orderId, t.discountOrders.id))
      .where(and(eq(t.discountOrders.payStatus, 2), eq(t.discountOrders.districtId, xuhui)))
      .limit(1);
    expect(refunded, 'the demo has a refunded order in 徐汇区').toBeDefined();
    const msg = await s.call(discount.discountOrderMsg, { token: agent, query: { id: refunded!.id } });
    expect(msg.body.data.refund?.amount).toBe(refunded!.amount);
  });
});

describe('busDiscountCardOrder/refund', () => {
  it('refunds a paid order once: status, ledger row and audit row together; a retry with the key gets the same answer', async () => {
    const order = await orderIn(1);
    const k = key();
    const first = await refund(manager, order.id, k);
    expect(first.body.code, first.body.msg).toBe(1);
    expect(first.body.data).toMatchObject({ replayed: false, order: { id: order.id, payStatus: 2 }, refund: { amount: order.amount } });
    const again = await refund(manager, order.id, k);
    expect(again.body.data).toMatchObject({ replayed: true, refund: { id: first.body.data.refund.id } });
    expect(await ledger(order.id)).toBe(1);
    const [stored] = await db().select().from(t.discountOrders).where(eq(t.discountOrders.id, order.id));
    expect(stored!.payStatus).toBe(2);
    const logs = await db().select().from(t.sysLog).where(eq(t.sysLog.target, `discount-order/${order.id}`));
    expect(logs.map((l) => l.operationType)).toEqual(['ORDER_REFUND']);
  });

  it('refuses a refunded order, an unpaid one, a key used for another order, in Chinese, changing nothing', async () => {
    const order = await orderIn(1);
    const k = key();
    await refund(manager, order.id, k);
    const twice = await refund(manager, order.id);
    expect(twice.body).toMatchObject({ code: 0, msg: `订单 ${order.orderNo} 已退款，不能重复退款` });
    const unpaid = await orderIn(0);
    const refused = await refund(manager, unpaid.id);
    expect(refused.body).toMatchObject({ code: 0, msg: `订单 ${unpaid.orderNo} 未支付，不能退款` });
    expect(await ledger(unpaid.id)).toBe(0);
    const other = await orderIn(1);
    const reused = await refund(manager, other.id, k);
    expect(reused.body).toMatchObject({ code: 0, msg: '该幂等键已用于另一笔订单的退款' });
    const [still] = await db().select().from(t.discountOrders).where(eq(t.discountOrders.id, other.id));
    expect(still!.payStatus).toBe(1);
  });

  it('refuses the agent (no REFUND_ORDER), another district\'s order, and bad input', async () => {
    const order = await orderIn(1);
    expect((await refund(agent, order.id)).status).toBe(403);
    const [other] = await db().select().from(t.districts).where(sql`${t.districts.id} <> ${xuhui}`).limit(1);
    const foreign = await orderIn(1, other!.id);
    expect((await refund(manager, foreign.id)).status).toBe(403);
    const short = await s.call(discount.discountOrderRefund, { token: manager, body: { id: order.id, reason: '退', idempotencyKey: key() } });
    expect([short.status, short.body.msg]).toEqual([400, '参数错误：退款原因至少2个字']);
    const noKey = await s.call(discount.discountOrderRefund, { token: manager, body: { id: order.id, reason: '乘客申请退款' } });
    expect(noKey.status).toBe(400);
    expect(await ledger(order.id)).toBe(0);
  });
});

describe.skipIf(skipWithoutPostgres('refund races'))('on PostgreSQL', () => {
  it('50 concurrent refunds of one order with different keys: one refund, one ledger row, 49 refusals', async () => {
    const order = await orderIn(1);
    const res = await Promise.all(Array.from({ length: 50 }, () => refund(manager, order.id)));
    expect(res.filter((r) => r.body.code === 1)).toHaveLength(1);
    expect(res.filter((r) => r.body.code === 0).every((r) => r.body.msg.includes('已退款'))).toBe(true);
    expect(await ledger(order.id)).toBe(1);
  });

  it('50 concurrent duplicates with one key: one refund, and every answer is that refund', async () => {
    const order = await orderIn(1);
    const k = key();
    const res = await Promise.all(Array.from({ length: 50 }, () => refund(manager, order.id, k)));
    expect(res.map((r) => r.body.code)).toEqual(res.map(() => 1));
    expect(new Set(res.map((r) => r.body.data.refund.id)).size).toBe(1);
    expect(res.filter((r) => !r.body.data.replayed)).toHaveLength(1);
    expect(await ledger(order.id)).toBe(1);
    const logs = await db().select().from(t.sysLog).where(eq(t.sysLog.target, `discount-order/${order.id}`));
    expect(logs).toHaveLength(1);
  });
});
