import { and, asc, count, desc, eq, gt, like, lte, notInArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, discount, family } from '../../src/shared/api';
import { refundNeedsPassword } from '../../src/shared/api/discount';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { skipWithoutPostgres } from '../support/test-db';
import { DEMO_PASSWORD, TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/**
 * Money safeguards by amount (issue 21): a refund above REFUND_PASSWORD_ABOVE (200.00 元 by
 * default) asks for the operator's own password, through the guard and lockout of the family card's
 * unbind; one at or below it does not. A refusal changes nothing and is in the system log.
 */
let s: TestServer;
let manager: string;
let xuhui: number;
const pii = createPii(TEST_PII_KEY);
const db = () => s.database.db;

beforeAll(async () => {
  s = await startTestServer();
  manager = await s.login('manager');
  xuhui = (await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区')))[0]!.id;
});
afterAll(() => s.close());

let n = 0;
const key = () => `pwd-${Date.now().toString(36)}-${n++}`;
const above = () => s.config.refundPasswordAboveFen;

/** A paid order of 徐汇区 no test has refunded yet, above the amount that asks for a password or not. */
async function paidOrder(big: boolean) {
  const taken = (await db().select({ id: t.refunds.orderId }).from(t.refunds)).map((r) => r.id);
  const [o] = await db()
    .select()
    .from(t.discountOrders)
    .where(and(eq(t.discountOrders.payStatus, 1), eq(t.discountOrders.districtId, xuhui), big ? gt(t.discountOrders.amount, above()) : lte(t.discountOrders.amount, above()), notInArray(t.discountOrders.id, taken.length ? taken : [0])))
    .orderBy(desc(t.discountOrders.id))
    .limit(1);
  expect(o, `the demo has a paid order ${big ? 'above' : 'at most'} ${above()} fen in 徐汇区`).toBeDefined();
  return o!;
}

const refund = (id: number, opts: { pwd?: string; k?: string; token?: string } = {}) =>
  s.call(discount.discountOrderRefund, { token: opts.token ?? manager, body: { id, reason: '乘客申请退款', idempotencyKey: opts.k ?? key(), ...(opts.pwd === undefined ? {} : { pwd: opts.pwd }) } });
const ledger = async (orderId: number) => (await db().select({ n: count() }).from(t.refunds).where(eq(t.refunds.orderId, orderId)))[0]!.n;
const payStatus = async (orderId: number) => (await db().select().from(t.discountOrders).where(eq(t.discountOrders.id, orderId)))[0]!.payStatus;
const failures = async (login: string) => (await db().select().from(t.users).where(eq(t.users.login, login)))[0]!.failedCount;
const logSince = async (id: number) => db().select().from(t.sysLog).where(gt(t.sysLog.id, id)).orderBy(asc(t.sysLog.id));
const lastLogId = async () => (await db().select({ id: t.sysLog.id }).from(t.sysLog).orderBy(desc(t.sysLog.id)).limit(1))[0]?.id ?? 0;
const yuan = (fen: number) => (fen / 100).toFixed(2);

describe('the refund rule', () => {
  it('tells the accounts that may refund what asks for a password: 200.00 元 by default, above it exclusive', async () => {
    const rule = await s.call(discount.discountOrderRefundRule, { token: manager });
    expect(rule.body.data).toEqual({ passwordAbove: 20_000 });
    expect(refundNeedsPassword(20_000, rule.body.data)).toBe(false);
    expect(refundNeedsPassword(20_001, rule.body.data)).toBe(true);
    // The agent holds no REFUND_ORDER.
    expect((await s.call(discount.discountOrderRefundRule, { token: await s.login('agent') })).status).toBe(403);
  });
});

describe('refunds by amount', () => {
  it('at or below the amount: refunded with a reason alone, and no password attempt counted', async () => {
    const o = await paidOrder(false);
    const before = await failures('manager');
    const res = await refund(o.id);
    expect(res.body.code, res.body.msg).toBe(1);
    expect(res.body.data).toMatchObject({ replayed: false, refund: { amount: o.amount } });
    expect(await ledger(o.id)).toBe(1);
    expect(await failures('manager')).toBe(before);
  });

  it('above it without a password: refused under the field in Chinese naming both amounts, nothing changed, the refusal logged, no attempt counted', async () => {
    const o = await paidOrder(true);
    const mark = await lastLogId();
    const before = await failures('manager');
    for (const pwd of [undefined, '']) {
      const res = await refund(o.id, { pwd });
      const msg = `退款金额 ${yuan(o.amount)} 元超过 200.00 元，请输入您的登录密码`;
      expect(res.body).toMatchObject({ code: 0, msg, data: { errors: [{ field: 'pwd', msg }] } });
    }
    expect([await payStatus(o.id), await ledger(o.id)]).toEqual([1, 0]);
    const rows = await logSince(mark);
    expect(rows.map((r) => [r.operationType, r.result, r.target])).toEqual([
      ['ORDER_REFUND', 0, `discount-order/${o.id}`],
      ['ORDER_REFUND', 0, `discount-order/${o.id}`],
    ]);
    expect(rows[0]!.summary).toBe(`订单 ${o.orderNo} 退款 ${yuan(o.amount)} 元被拒：超过 200.00 元须输入登录密码`);
    expect(await failures('manager')).toBe(before);
  });

  it('above it with a wrong password: refused, nothing changed, counted and logged as the unbind\'s are (never the password)', async () => {
    const o = await paidOrder(true);
    const mark = await lastLogId();
    const before = await failures('manager');
    const res = await refund(o.id, { pwd: 'Wrong-refund-1' });
    expect(res.body).toMatchObject({ code: 0, msg: '登录密码错误', data: { errors: [{ field: 'pwd', msg: '登录密码错误' }] } });
    expect([await payStatus(o.id), await ledger(o.id)]).toEqual([1, 0]);
    expect(await failures('manager')).toBe(before + 1);
    const rows = await logSince(mark);
    expect(rows.map((r) => [r.operationType, r.result, r.target, r.operatorLogin])).toEqual([['LOGIN_FAIL', 0, 'manager', 'manager']]);
    expect(rows[0]!.summary).toBe(`订单 ${o.orderNo} 退款 ${yuan(o.amount)} 元：登录密码错误`);
    expect(JSON.stringify(await db().select().from(t.sysLog))).not.toContain('Wrong-refund-1');
  });

  it('above it with the right password: refunded once; a retry with the key and the password gets the same answer, without it is refused', async () => {
    const o = await paidOrder(true);
    const k = key();
    const first = await refund(o.id, { pwd: DEMO_PASSWORD, k });
    expect(first.body.code, first.body.msg).toBe(1);
    expect(first.body.data).toMatchObject({ replayed: false, order: { id: o.id, payStatus: 2 }, refund: { amount: o.amount } });
    const again = await refund(o.id, { pwd: DEMO_PASSWORD, k });
    expect(again.body.data).toMatchObject({ replayed: true, refund: { id: first.body.data.refund.id } });
    expect((await refund(o.id, { k })).body.code).toBe(0);
    expect((await refund(o.id, { pwd: DEMO_PASSWORD })).body).toMatchObject({ code: 0, msg: `订单 ${o.orderNo} 已退款，不能重复退款` });
    expect(await ledger(o.id)).toBe(1);
    const logs = await db().select().from(t.sysLog).where(and(eq(t.sysLog.target, `discount-order/${o.id}`), eq(t.sysLog.result, 1)));
    expect(logs.map((l) => l.summary)).toEqual([`订单 ${o.orderNo} 退款 ${yuan(o.amount)} 元（已验证登录密码）：乘客申请退款`]);
  });

  it('follows REFUND_PASSWORD_ABOVE: at 0 every refund asks', async () => {
    const strict = await startTestServer({ refundPasswordAboveFen: 0 });
    try {
      const token = await strict.login('manager');
      const [o] = await strict.database.db.select().from(t.discountOrders).where(and(eq(t.discountOrders.payStatus, 1), eq(t.discountOrders.districtId, xuhui), lte(t.discountOrders.amount, 200))).limit(1);
      expect((await strict.call(discount.discountOrderRefundRule, { token })).body.data).toEqual({ passwordAbove: 0 });
      const res = await strict.call(discount.discountOrderRefund, { token, body: { id: o!.id, reason: '乘客申请退款', idempotencyKey: key() } });
      expect(res.body.msg).toBe(`退款金额 ${yuan(o!.amount)} 元超过 0.00 元，请输入您的登录密码`);
    } finally {
      await strict.close();
    }
  });
});

describe.skipIf(skipWithoutPostgres('refund races above the amount'))('on PostgreSQL, above the amount', () => {
  it('5 concurrent refunds of one order with the password and different keys: one refund, one ledger row', async () => {
    const o = await paidOrder(true);
    const res = await Promise.all(Array.from({ length: 5 }, () => refund(o.id, { pwd: DEMO_PASSWORD })));
    expect(res.filter((r) => r.body.code === 1)).toHaveLength(1);
    expect(res.filter((r) => r.body.code === 0).map((r) => r.body.msg)).toEqual(Array(4).fill(`订单 ${o.orderNo} 已退款，不能重复退款`));
    expect(await ledger(o.id)).toBe(1);
  });

  it('5 concurrent duplicates with one key and the password: one refund, every answer that refund', async () => {
    const o = await paidOrder(true);
    const k = key();
    const res = await Promise.all(Array.from({ length: 5 }, () => refund(o.id, { pwd: DEMO_PASSWORD, k })));
    expect(res.map((r) => r.body.code)).toEqual([1, 1, 1, 1, 1]);
    expect(new Set(res.map((r) => r.body.data.refund.id)).size).toBe(1);
    expect(await ledger(o.id)).toBe(1);
  });
});

// Last: it locks the manager out.
describe('the lockout shared with unbinding a family card', () => {
  it('wrong passwords at unbinding and at refunding count together: the fifth locks the operator out, ends the session, and nothing is refunded or unbound', async () => {
    const o = await paidOrder(true);
    const [live] = await db()
      .select({ cardNo: t.busCards.cardNo, citizenEnc: t.riders.citizenEnc, id: t.familyBindings.id })
      .from(t.familyBindings)
      .innerJoin(t.busCards, eq(t.busCards.id, t.familyBindings.cardId))
      .innerJoin(t.riders, eq(t.riders.id, t.familyBindings.holderId))
      .where(and(eq(t.familyBindings.districtId, xuhui), eq(t.familyBindings.status, 1)))
      .limit(1);
    const unbind = (pwd: string) => s.call(family.unBindByBody, { token: manager, body: { busCardNo: live!.cardNo, citizenCardNo: pii.decrypt(live!.citizenEnc!), pwd } });
    const mark = await lastLogId();
    expect((await unbind('Wrong-unbind-1')).body.msg).toBe('登录密码错误');
    expect((await refund(o.id, { pwd: 'Wrong-refund-2' })).body.msg).toBe('登录密码错误');
    expect((await unbind('Wrong-unbind-3')).body.msg).toBe('登录密码错误');
    expect((await refund(o.id, { pwd: 'Wrong-refund-4' })).body.msg).toBe('登录密码错误');
    expect((await refund(o.id, { pwd: 'Wrong-refund-5' })).body.msg).toBe('登录密码错误');
    // The fifth ended the session: the right password comes too late.
    expect((await refund(o.id, { pwd: DEMO_PASSWORD })).status).toBe(401);
    const relogin = await s.call(auth.authenticate, { body: { username: 'manager', password: DEMO_PASSWORD } });
    expect(relogin.body.code).not.toBe(1);
    expect(relogin.body.msg).toMatch(/锁定/);
    expect([await payStatus(o.id), await ledger(o.id)]).toEqual([1, 0]);
    expect((await db().select().from(t.familyBindings).where(eq(t.familyBindings.id, live!.id)))[0]!.status).toBe(1);
    const rows = await logSince(mark);
    expect(rows.filter((r) => r.operationType === 'LOGIN_FAIL' && r.target === 'manager')).toHaveLength(5);
    expect(rows.filter((r) => r.operationType === 'LOCK' && r.target === 'manager')).toHaveLength(1);
    expect(await db().select().from(t.sysLog).where(like(t.sysLog.summary, '%Wrong-%'))).toEqual([]);
    // Still locked 29 minutes later.
    s.clock.advance(29 * 60_000);
    expect((await s.call(auth.authenticate, { body: { username: 'manager', password: DEMO_PASSWORD } })).body.code).not.toBe(1);
  });
});
