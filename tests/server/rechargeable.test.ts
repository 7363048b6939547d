import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as wallet from '../../src/shared/api/wallet';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { builtInPaymentChannel } from '../../src/server/lib/payment-channel';
import { createPii } from '../../src/server/lib/pii';
import { closeUnpaidOrders, consume, createOrder, payNotify, walletOfCard } from '../../src/server/modules/rechargeable/money';
import { nightlyReconcile, reconcileWallets } from '../../src/server/modules/rechargeable/reconcile';
import { retryRefunds } from '../../src/server/lib/refund-ledger';
import { rechargePlans, walletAdjustments, walletLedger, walletOrders, walletReconcileRuns, wallets } from '../../src/server/modules/rechargeable/schema';
import { HOUR, MINUTE } from '../support/clock';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/** 储值管理 against the real server: every endpoint's roles, scope, input, refusals, stored rows and audit rows. */
let s: TestServer;
let admin: string;
let manager: string;
let agent: string;
let viewer: string;
let xuhui: number;
let huangpu: number;
let deps: AppDeps;
const db = () => s.database.db;

beforeAll(async () => {
  s = await startTestServer({}, { jobs: false });
  [admin, manager, agent, viewer] = (await Promise.all(['admin', 'manager', 'agent', 'viewer'].map((u) => s.login(u)))) as [string, string, string, string];
  const districts = await db().select().from(t.districts);
  xuhui = districts.find((d) => d.name === '徐汇区')!.id;
  huangpu = districts.find((d) => d.name === '黄浦区')!.id;
  deps = { db: db(), clock: s.clock, pii: createPii(TEST_PII_KEY), payments: builtInPaymentChannel({ refundFails: false }), config: s.config } as unknown as AppDeps;
});
afterAll(() => s?.close());

/** Riders of a district that have no wallet yet, one per call. */
const usedRiders = new Set<number>();
async function freshRider(districtId: number) {
  const rows = await db().execute(sql`select r.id from riders r where r.district_id = ${districtId} and not exists (select 1 from wallets w where w.rider_id = r.id) order by r.id`);
  const id = (rows as unknown as { rows: { id: number }[] }).rows.map((r) => r.id).find((r) => !usedRiders.has(r))!;
  usedRiders.add(id);
  return id;
}
/** A paid top-up for a new rider: returns the wallet and the order. */
async function funded(districtId: number, amount = 20_000, planName?: string) {
  const riderId = await freshRider(districtId);
  const planId = planName ? (await db().select().from(rechargePlans).where(eq(rechargePlans.name, planName)))[0]!.id : undefined;
  const order = await createOrder(deps, planId ? { riderId, planId } : { riderId, amount });
  await payNotify(deps, order.orderNo);
  const [w] = await db().select().from(wallets).where(eq(wallets.id, order.walletId));
  return { wallet: w!, order: (await db().select().from(walletOrders).where(eq(walletOrders.id, order.id)))[0]! };
}
const ledgerOf = (walletId: number) => db().select().from(walletLedger).where(eq(walletLedger.walletId, walletId)).orderBy(walletLedger.id);
const audits = (type: string, target?: string) =>
  db()
    .select()
    .from(t.sysLog)
    .where(and(eq(t.sysLog.operationType, type), target ? eq(t.sysLog.target, target) : undefined));
const storedWallet = async (id: number) => (await db().select().from(wallets).where(eq(wallets.id, id)))[0]!;
const key = () => `k${Math.random().toString(36).slice(2)}${Date.now()}`;

describe('the seeded stored value (second wave §9, small profile)', () => {
  it('6 plans (one 停用), a few wallets, orders, adjustments, one frozen; the reconcile passes on it', async () => {
    const plans = (await s.call(wallet.planPage, { token: admin, query: { size: 100 } })).body.data.content;
    expect(plans).toHaveLength(6);
    expect(plans.filter((p) => p.status === 0)).toHaveLength(1);
    const all = (await s.call(wallet.walletPage, { token: admin, query: { size: 100 } })).body.data;
    expect(all.totalElements).toBe(4);
    expect(all.content.filter((w) => w.status === 2)).toHaveLength(1);
    expect(all.content.every((w) => /^1\d{2}\*{4}\d{4}$/.test(w.riderPhone))).toBe(true);
    const orders = (await s.call(wallet.orderTotal, { token: admin })).body.data;
    expect(orders.orders).toBe(8);
    expect(orders.refunded).toBe(1);
    expect(orders.closed).toBe(1);
    const adjustments = (await s.call(wallet.adjustPage, { token: admin, query: { size: 100 } })).body.data.content;
    expect(adjustments.map((a) => a.status).sort()).toEqual([0, 1, 2]);
    const rec = (await s.call(wallet.reconcile, { token: admin })).body.data;
    expect(rec.broken).toEqual([]);
    expect(rec.wallets).toBe(4);
    expect(rec.liability.at(-1)).toEqual(expect.objectContaining({ principal: rec.principal, gift: rec.gift }));
  });
});

describe('who may do what', () => {
  it('the read-only group has no 储值 menu; the agent reads and may only make adjustments', async () => {
    expect((await s.call(wallet.walletPage, { token: viewer })).status).toBe(403);
    expect((await s.call(wallet.orderPage, { token: viewer })).status).toBe(403);
    expect((await s.call(wallet.walletPage, { token: agent })).body.code).toBe(1);
    const { order } = await funded(xuhui);
    const refused = await s.call(wallet.orderRefund, { token: agent, body: { id: order.id, reason: '乘客申请', idempotencyKey: key() } });
    expect(refused.status).toBe(403);
    expect((await s.call(wallet.walletStatus, { token: agent, body: { id: order.walletId, fromStatus: 1, toStatus: 2, reason: '挂失冻结' } })).status).toBe(403);
    expect((await s.call(wallet.planSave, { token: agent, body: { name: 'x', amount: 5000, giftAmount: 0 } })).status).toBe(403);
    const made = await s.call(wallet.adjust, { token: agent, body: { walletId: order.walletId, bucket: 1, delta: 100, reason: '乘车重复扣费，人工退回一元', idempotencyKey: key() } });
    expect(made.body.code).toBe(1);
    // The maker's key cannot approve: WALLET_ADJUST_CHECK is the manager's and the super user's.
    expect((await s.call(wallet.adjustCheck, { token: agent, body: { id: made.body.data.adjustment.id, fromStatus: 0, toStatus: 1, confirmDelta: 100 } })).status).toBe(403);
    expect((await storedWallet(order.walletId)).principal).toBe(20_000);
  });

  it('a district manager sees its district only: another district’s wallet and order are refused', async () => {
    const { order } = await funded(huangpu);
    expect((await s.call(wallet.walletMsg, { token: manager, query: { id: order.walletId } })).body.code).not.toBe(1);
    expect((await s.call(wallet.orderMsg, { token: manager, query: { id: order.id } })).body.code).not.toBe(1);
    const r = await s.call(wallet.orderRefund, { token: manager, body: { id: order.id, reason: '乘客申请', idempotencyKey: key() } });
    expect(r.body.code).not.toBe(1);
    expect((await db().select().from(walletOrders).where(eq(walletOrders.id, order.id)))[0]!.status).toBe(1);
    const mine = (await s.call(wallet.walletPage, { token: manager, query: { size: 1000 } })).body.data.content;
    expect(mine.every((w) => w.districtId === xuhui)).toBe(true);
    expect((await s.call(wallet.ledgerPage, { token: manager, query: { walletId: order.walletId } })).body.code).not.toBe(1);
  });
});

describe('bad input is refused in Chinese and changes nothing', () => {
  it('malformed, too long, missing', async () => {
    const { order } = await funded(xuhui);
    const bad = [
      await s.call(wallet.orderRefund, { token: manager, body: { id: 'x', reason: '乘客申请', idempotencyKey: key() } }),
      await s.call(wallet.orderRefund, { token: manager, body: { id: order.id, reason: '退'.repeat(101), idempotencyKey: key() } }),
      await s.call(wallet.orderRefund, { token: manager, body: { id: order.id, reason: '乘客申请' } }),
      await s.call(wallet.orderRefund, { token: manager, body: { id: order.id, reason: '乘客申请', idempotencyKey: 'short' } }),
      await s.call(wallet.adjust, { token: manager, body: { walletId: order.walletId, bucket: 3, delta: 100, reason: '一二三四五六七八九十', idempotencyKey: key() } }),
      await s.call(wallet.adjust, { token: manager, body: { walletId: order.walletId, bucket: 1, delta: 0, reason: '一二三四五六七八九十', idempotencyKey: key() } }),
      await s.call(wallet.walletPage, { token: manager, query: { status: '9' } }),
      await s.call(wallet.planSave, { token: admin, body: { name: '', amount: 5000, giftAmount: 0 } }),
      await s.call(wallet.settingSave, { token: admin, body: { minFen: 'a' } }),
    ];
    for (const r of bad) {
      expect(r.body.code).not.toBe(1);
      expect(r.body.msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect((await db().select().from(walletOrders).where(eq(walletOrders.id, order.id)))[0]!.status).toBe(1);
    expect(await db().select().from(walletAdjustments).where(eq(walletAdjustments.walletId, order.walletId))).toHaveLength(0);
  });

  it('调账原因至少10个字', async () => {
    const { wallet: w } = await funded(xuhui);
    const r = await s.call(wallet.adjust, { token: agent, body: { walletId: w.id, bucket: 1, delta: 100, reason: '太短的原因', idempotencyKey: key() } });
    expect(r.body.msg).toContain('调账原因至少10个字');
  });
});

describe('top-up and pay notice (rider side)', () => {
  it('a pay notice delivered three times credits once: two ledger rows (充值, 赠送), one audit row', async () => {
    const riderId = await freshRider(xuhui);
    const plan = (await db().select().from(rechargePlans).where(eq(rechargePlans.name, '充200送15元')))[0]!;
    const order = await createOrder(deps, { riderId, planId: plan.id });
    const answers = [await payNotify(deps, order.orderNo), await payNotify(deps, order.orderNo), await payNotify(deps, order.orderNo)];
    expect(answers.map((a) => a.credited)).toEqual([true, false, false]);
    const w = await storedWallet(order.walletId);
    expect([w.principal, w.gift]).toEqual([20_000, 1_500]);
    const rows = await ledgerOf(w.id);
    expect(rows.map((r) => [r.type, r.principalDelta, r.giftDelta, r.principalAfter, r.giftAfter])).toEqual([
      [1, 20_000, 0, 20_000, 0],
      [2, 0, 1_500, 20_000, 1_500],
    ]);
    expect(await audits('WALLET_ORDER_PAY', `wallet-order/${order.id}`)).toHaveLength(1);
    const msg = (await s.call(wallet.orderMsg, { token: manager, query: { id: order.id } })).body.data;
    expect(msg).toEqual(expect.objectContaining({ status: 1, payStatus: 1, principalAfter: 20_000, refundable: 20_000, clawback: 1_500 }));
  });

  it('the setting bounds a top-up: 10–999 元, the balance cap, the daily count', async () => {
    const riderId = await freshRider(xuhui);
    await expect(createOrder(deps, { riderId, amount: 999 })).rejects.toThrow('充值金额应在10–999元之间');
    await expect(createOrder(deps, { riderId, amount: 100_000 })).rejects.toThrow('充值金额应在10–999元之间');
    const o = await createOrder(deps, { riderId, amount: 99_900 });
    await payNotify(deps, o.orderNo);
    await expect(createOrder(deps, { riderId, amount: 1_000 })).rejects.toThrow('充值后余额将超过上限1000元');
    const other = await freshRider(xuhui);
    for (let i = 0; i < 5; i++) await createOrder(deps, { riderId: other, amount: 1_000 });
    await expect(createOrder(deps, { riderId: other, amount: 1_000 })).rejects.toThrow('每日最多充值5次');
  });

  it('the balance cap holds when the money arrives: of two orders made under it, the one that would exceed it is refunded in full at once, its gift never granted', async () => {
    const riderId = await freshRider(xuhui);
    const plan = (await db().select().from(rechargePlans).where(eq(rechargePlans.name, '充500送60元')))[0]!;
    // Each fits the empty wallet (560 元 ≤ 1000 元); both together do not.
    const first = await createOrder(deps, { riderId, planId: plan.id });
    const second = await createOrder(deps, { riderId, planId: plan.id });
    expect((await payNotify(deps, first.orderNo)).credited).toBe(true);
    const late = await payNotify(deps, second.orderNo);
    expect(late).toEqual(expect.objectContaining({ credited: false, orderId: second.id, refundId: expect.any(Number) }));
    expect(await storedWallet(first.walletId)).toEqual(expect.objectContaining({ principal: 50_000, gift: 6_000 }));
    expect((await db().select().from(walletOrders).where(eq(walletOrders.id, second.id)))[0]).toEqual(
      expect.objectContaining({ status: 2, payStatus: 2, refundAmount: 50_000, giftClawback: 0, principalAfter: null }),
    );
    const refunds = await db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'wallet'), eq(t.moneyRefunds.orderId, second.id)));
    expect(refunds).toEqual([expect.objectContaining({ amount: 50_000, state: 1, reason: '余额将超过上限1000元，到账金额全额退回', idempotencyKey: `over-cap-${second.orderNo}` })]);
    expect((await ledgerOf(first.walletId)).map((l) => [l.type, l.refId])).toEqual([
      [1, String(first.id)],
      [2, String(first.id)],
    ]);
    expect((await audits('WALLET_ORDER_PAY', `wallet-order/${second.id}`))[0]!.summary).toBe(`储值订单 ${second.orderNo} 到账时余额将超过上限1000元，500 元全额退回`);
    // Delivered again: nothing more; and the wallet reconciles (the refunded order gave no gift and has no ledger refund).
    expect((await payNotify(deps, second.orderNo)).credited).toBe(false);
    expect(await db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'wallet'), eq(t.moneyRefunds.orderId, second.id)))).toHaveLength(1);
    const rec = await reconcileWallets(deps, xuhui);
    expect(rec.broken.find((b) => b.walletId === first.walletId)).toBeUndefined();
    // Its refund row is proved too: one paying back less than the order says it gave back is a break.
    const overCap = eq(t.moneyRefunds.idempotencyKey, `over-cap-${second.orderNo}`);
    await db().update(t.moneyRefunds).set({ amount: 49_900 }).where(overCap);
    try {
      expect((await reconcileWallets(deps, xuhui)).broken.find((b) => b.walletId === first.walletId)).toEqual(
        expect.objectContaining({ failed: ['refunds'], refundsRecorded: 49_900, ledgerRefunded: 50_000 }),
      );
    } finally {
      await db().update(t.moneyRefunds).set({ amount: 50_000 }).where(overCap);
    }
    // The refunded order took none of the day's five top-ups (review): four more fit, a fifth does not.
    for (let i = 0; i < 4; i++) await createOrder(deps, { riderId, amount: 1_000 });
    await expect(createOrder(deps, { riderId, amount: 1_000 })).rejects.toThrow('每日最多充值5次');
  });

  it('the timeout job closes unpaid orders once; a late notice still credits', async () => {
    const riderId = await freshRider(xuhui);
    const o = await createOrder(deps, { riderId, amount: 5_000 });
    // Made 31 minutes ago (the shared clock stays: sessions would lapse).
    await db().update(walletOrders).set({ createdAt: new Date(s.clock.now().getTime() - 31 * MINUTE) }).where(eq(walletOrders.id, o.id));
    const closed = await closeUnpaidOrders(deps);
    expect(closed).toContain(o.id);
    expect(await closeUnpaidOrders(deps)).not.toContain(o.id);
    expect((await db().select().from(walletOrders).where(eq(walletOrders.id, o.id)))[0]!.status).toBe(3);
    expect(await audits('WALLET_ORDER_CLOSE', `wallet-order/${o.id}`)).toHaveLength(1);
    expect((await payNotify(deps, o.orderNo)).credited).toBe(true);
    expect((await storedWallet(o.walletId)).principal).toBe(5_000);
  });
});

describe('rides (consume)', () => {
  it('principal first by default; never negative; the same ride once; a frozen wallet refuses', async () => {
    const { wallet: w } = await funded(xuhui, 10_000, '充100送5元');
    expect(await consume(deps, w.id, 9_900, 'ride-a')).toEqual({ charged: true, principal: 100, gift: 500 });
    expect(await consume(deps, w.id, 300, 'ride-b')).toEqual({ charged: true, principal: 0, gift: 300 });
    expect((await consume(deps, w.id, 300, 'ride-b')).charged).toBe(false);
    await expect(consume(deps, w.id, 301, 'ride-c')).rejects.toThrow('余额不足，操作后余额不能为负');
    await db().update(wallets).set({ status: 2 }).where(eq(wallets.id, w.id));
    await expect(consume(deps, w.id, 100, 'ride-d')).rejects.toThrow('钱包已冻结，不能消费或退款');
    await db().update(wallets).set({ status: 1 }).where(eq(wallets.id, w.id));
    const rows = await ledgerOf(w.id);
    expect(rows.filter((r) => r.type === 3)).toHaveLength(2);
    expect((await storedWallet(w.id)).gift).toBe(300);
  });
});

describe('储值退款', () => {
  it('min(paid − refunded, principal) back, the order’s gift clawed back (type 6), the refund settled, one audit row', async () => {
    const { wallet: w, order } = await funded(xuhui, 0, '充300送30元');
    await consume(deps, w.id, 5_000, `r-${order.id}`);
    const before = await s.call(wallet.orderMsg, { token: manager, query: { id: order.id } });
    expect(before.body.data.refundable).toBe(25_000);
    const k = key();
    const over = await s.call(wallet.orderRefund, { token: manager, body: { id: order.id, amount: 30_000, reason: '乘客申请', idempotencyKey: k } });
    expect(over.body.msg).toBe('退款金额不能超过可退金额（250元）');
    const gift = await s.call(wallet.orderRefund, { token: manager, body: { id: order.id, amount: 26_000, reason: '乘客申请', idempotencyKey: k } });
    expect(gift.body.msg).toBe('赠送金额不可退');
    expect((await storedWallet(w.id)).principal).toBe(25_000);
    const r = await s.call(wallet.orderRefund, { token: manager, body: { id: order.id, reason: '乘客申请退款', idempotencyKey: k } });
    expect(r.body.code).toBe(1);
    expect(r.body.data.replayed).toBe(false);
    expect(r.body.data.refund).toEqual(expect.objectContaining({ amount: 25_000, state: 1 }));
    expect(r.body.data.order).toEqual(expect.objectContaining({ status: 2, payStatus: 2, refundAmount: 25_000, giftClawback: 3_000 }));
    const after = await storedWallet(w.id);
    expect([after.principal, after.gift]).toEqual([0, 0]);
    const rows = (await ledgerOf(w.id)).slice(-2);
    expect(rows.map((x) => [x.type, x.principalDelta, x.giftDelta])).toEqual([
      [4, -25_000, 0],
      [6, 0, -3_000],
    ]);
    expect(await audits('WALLET_ORDER_REFUND', `wallet-order/${order.id}`)).toHaveLength(1);
    const again = await s.call(wallet.orderRefund, { token: manager, body: { id: order.id, reason: '乘客申请退款', idempotencyKey: k } });
    expect(again.body.data.replayed).toBe(true);
    const other = await s.call(wallet.orderRefund, { token: manager, body: { id: order.id, reason: '乘客申请退款', idempotencyKey: key() } });
    expect(other.body.msg).toMatch(/已退款，不能重复退款/);
    expect(await db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'wallet'), eq(t.moneyRefunds.orderId, order.id)))).toHaveLength(1);
  });

  it('a frozen wallet refuses a refund; an unpaid order is not refundable', async () => {
    const { wallet: w, order } = await funded(xuhui);
    await s.call(wallet.walletStatus, { token: manager, body: { id: w.id, fromStatus: 1, toStatus: 2, reason: '乘客挂失' } });
    const r = await s.call(wallet.orderRefund, { token: manager, body: { id: order.id, reason: '乘客申请', idempotencyKey: key() } });
    expect(r.body.msg).toBe('钱包已冻结，不能消费或退款');
    expect((await storedWallet(w.id)).principal).toBe(20_000);
    const riderId = await freshRider(xuhui);
    const unpaid = await createOrder(deps, { riderId, amount: 1_000 });
    const u = await s.call(wallet.orderRefund, { token: manager, body: { id: unpaid.id, reason: '乘客申请', idempotencyKey: key() } });
    expect(u.body.msg).toMatch(/未到账，不能退款/);
  });
});

describe('冻结 / 解冻 / 注销', () => {
  it('each with its reason and audit row; 注销 only at balance 0; a stale move is refused', async () => {
    const { wallet: w } = await funded(xuhui);
    const frozen = await s.call(wallet.walletStatus, { token: manager, body: { id: w.id, fromStatus: 1, toStatus: 2, reason: '乘客挂失' } });
    expect(frozen.body.data).toEqual(expect.objectContaining({ status: 2, statusReason: '乘客挂失' }));
    expect(await audits('WALLET_FREEZE', `wallet/${w.id}`)).toHaveLength(1);
    const stale = await s.call(wallet.walletStatus, { token: manager, body: { id: w.id, fromStatus: 1, toStatus: 2, reason: '乘客挂失' } });
    expect(stale.body.code).not.toBe(1);
    const close = await s.call(wallet.walletStatus, { token: manager, body: { id: w.id, fromStatus: 2, toStatus: 0, reason: '乘客注销账户' } });
    expect(close.body.msg).toBe('钱包余额不为0，不能注销');
    expect((await storedWallet(w.id)).status).toBe(2);
    expect((await s.call(wallet.walletStatus, { token: manager, body: { id: w.id, fromStatus: 2, toStatus: 1, reason: '找回卡片' } })).body.data.status).toBe(1);
    await consume(deps, w.id, 20_000, `close-${w.id}`);
    expect((await s.call(wallet.walletStatus, { token: manager, body: { id: w.id, fromStatus: 1, toStatus: 0, reason: '乘客注销账户' } })).body.data.status).toBe(0);
    expect(await audits('WALLET_CLOSE', `wallet/${w.id}`)).toHaveLength(1);
  });
});

describe('注销 and money still on its way', () => {
  it('注销 is refused while an order is waiting for payment; a late notice for a wallet closed since is refunded in full, never credited', async () => {
    const { wallet: w } = await funded(xuhui, 1_000);
    await consume(deps, w.id, 1_000, `drain-${w.id}`);
    const pending = await createOrder(deps, { riderId: w.riderId, amount: 2_000 });
    const refused = await s.call(wallet.walletStatus, { token: manager, body: { id: w.id, fromStatus: 1, toStatus: 0, reason: '乘客注销账户' } });
    expect(refused.body.msg).toBe('钱包有待支付的充值订单，不能注销，请在订单关闭后再试');
    expect((await storedWallet(w.id)).status).toBe(1);
    // The timeout closes it; then 注销 goes through; then the money arrives after all.
    await db().update(walletOrders).set({ createdAt: new Date(s.clock.now().getTime() - 31 * MINUTE) }).where(eq(walletOrders.id, pending.id));
    expect(await closeUnpaidOrders(deps)).toContain(pending.id);
    expect((await s.call(wallet.walletStatus, { token: manager, body: { id: w.id, fromStatus: 1, toStatus: 0, reason: '乘客注销账户' } })).body.data.status).toBe(0);
    const late = await payNotify(deps, pending.orderNo);
    expect(late).toEqual(expect.objectContaining({ credited: false, orderId: pending.id }));
    expect(await storedWallet(w.id)).toEqual(expect.objectContaining({ status: 0, principal: 0, gift: 0 }));
    expect((await db().select().from(walletOrders).where(eq(walletOrders.id, pending.id)))[0]).toEqual(expect.objectContaining({ status: 2, payStatus: 2, refundAmount: 2_000 }));
    expect(await db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'wallet'), eq(t.moneyRefunds.orderId, pending.id)))).toEqual([expect.objectContaining({ amount: 2_000, state: 1 })]);
    // Delivered again: nothing more.
    expect((await payNotify(deps, pending.orderNo)).credited).toBe(false);
    expect(await db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'wallet'), eq(t.moneyRefunds.orderId, pending.id)))).toHaveLength(1);
    expect((await ledgerOf(w.id)).filter((l) => l.refId === String(pending.id))).toEqual([]);
  });
});

describe('人工调账 (maker/checker)', () => {
  it('in effect only when a second person approves; the maker is refused; a second approval finds it handled', async () => {
    const { wallet: w } = await funded(xuhui);
    const made = (await s.call(wallet.adjust, { token: manager, body: { walletId: w.id, bucket: 2, delta: 800, reason: '活动赠送未到账，人工补发', idempotencyKey: key() } })).body.data.adjustment;
    expect(made.status).toBe(0);
    expect((await storedWallet(w.id)).gift).toBe(0);
    const self = await s.call(wallet.adjustCheck, { token: manager, body: { id: made.id, fromStatus: 0, toStatus: 1, confirmDelta: 800 } });
    expect(self.body.msg).toBe('复核人不能与申请人为同一人');
    const wrong = await s.call(wallet.adjustCheck, { token: admin, body: { id: made.id, fromStatus: 0, toStatus: 1, confirmDelta: 80 } });
    expect(wrong.body.msg).toMatch(/确认金额与调账金额不一致/);
    const ok = await s.call(wallet.adjustCheck, { token: admin, body: { id: made.id, fromStatus: 0, toStatus: 1, confirmDelta: 800 } });
    expect(ok.body.data).toEqual(expect.objectContaining({ status: 1, checkerName: '系统管理员' }));
    expect((await storedWallet(w.id)).gift).toBe(800);
    expect((await ledgerOf(w.id)).at(-1)).toEqual(expect.objectContaining({ type: 5, giftDelta: 800, refKind: 'adjust', refId: String(made.id) }));
    const twice = await s.call(wallet.adjustCheck, { token: admin, body: { id: made.id, fromStatus: 0, toStatus: 1, confirmDelta: 800 } });
    // Approving without retyping the amount is refused before anything is read.
    expect((await s.call(wallet.adjustCheck, { token: admin, body: { id: made.id, fromStatus: 0, toStatus: 1 } })).body.msg).toBe('复核通过请再次输入调账金额');
    expect(twice.body.msg).toBe('该调账已被处理，请刷新后查看');
    expect(await audits('WALLET_ADJUST_CHECK', `wallet-adjust/${made.id}`)).toHaveLength(1);
  });

  it('above the single maximum only the super user approves; a debit below zero is refused at approval and changes nothing', async () => {
    const { wallet: w } = await funded(xuhui);
    const big = (await s.call(wallet.adjust, { token: agent, body: { walletId: w.id, bucket: 1, delta: 60_000, reason: '财务核对后补入历史充值本金', idempotencyKey: key() } })).body.data.adjustment;
    expect(big.needsSuper).toBe(true);
    expect((await s.call(wallet.adjustCheck, { token: manager, body: { id: big.id, fromStatus: 0, toStatus: 1, confirmDelta: 60_000 } })).body.msg).toBe('单笔调整超过500元需超级管理员复核');
    expect((await s.call(wallet.adjustCheck, { token: admin, body: { id: big.id, fromStatus: 0, toStatus: 1, confirmDelta: 60_000 } })).body.code).toBe(1);
    const debit = (await s.call(wallet.adjust, { token: agent, body: { walletId: w.id, bucket: 1, delta: -30_000, reason: '误操作补入，按财务要求扣回', idempotencyKey: key() } })).body.data.adjustment;
    await consume(deps, w.id, 60_000, `adj-${w.id}`);
    const r = await s.call(wallet.adjustCheck, { token: manager, body: { id: debit.id, fromStatus: 0, toStatus: 1, confirmDelta: debit.delta } });
    expect(r.body.msg).toBe('余额不足，操作后余额不能为负');
    expect((await db().select().from(walletAdjustments).where(eq(walletAdjustments.id, debit.id)))[0]!.status).toBe(0);
    // 驳回 needs a reason; 撤回 is the maker's own.
    expect((await s.call(wallet.adjustCheck, { token: manager, body: { id: debit.id, fromStatus: 0, toStatus: 2 } })).body.code).not.toBe(1);
    expect((await s.call(wallet.adjustCheck, { token: manager, body: { id: debit.id, fromStatus: 0, toStatus: 3 } })).body.msg).toBe('只有申请人可以撤回调账');
    expect((await s.call(wallet.adjustCheck, { token: agent, body: { id: debit.id, fromStatus: 0, toStatus: 3 } })).body.data.status).toBe(3);
    expect(await audits('WALLET_ADJUST_WITHDRAW', `wallet-adjust/${debit.id}`)).toHaveLength(1);
  });

  it('the same key twice is one request', async () => {
    const { wallet: w } = await funded(xuhui);
    const k = key();
    const body = { walletId: w.id, bucket: 1, delta: 100, reason: '乘车重复扣费，人工退回一元', idempotencyKey: k };
    const [a, b] = [await s.call(wallet.adjust, { token: agent, body }), await s.call(wallet.adjust, { token: agent, body })];
    expect(b.body.data.replayed).toBe(true);
    expect(b.body.data.adjustment.id).toBe(a.body.data.adjustment.id);
    expect((await s.call(wallet.adjust, { token: agent, body: { ...body, delta: 200 } })).body.msg).toMatch(/已用于另一笔调账/);
  });
});

describe('储值档位 and 储值设置', () => {
  it('the plan’s refusals; city-wide plans are the super user’s; a plan with orders is kept', async () => {
    const gift = await s.call(wallet.planSave, { token: admin, body: { name: '充100送60', amount: 10_000, giftAmount: 6_000 } });
    expect(gift.body.msg).toBe('赠送金额不能超过充值金额的50%');
    const amount = await s.call(wallet.planSave, { token: admin, body: { name: '充5元', amount: 500, giftAmount: 0 } });
    expect(amount.body.msg).toBe('充值金额应在10–999元之间');
    const seeded = (await db().select().from(rechargePlans).where(eq(rechargePlans.name, '充100送5元')))[0]!;
    expect((await s.call(wallet.planSave, { token: manager, body: { id: seeded.id, name: '改名', amount: 10_000, giftAmount: 500 } })).status).toBe(403);
    expect((await s.call(wallet.planDelete, { token: admin, query: { id: seeded.id } })).body.msg).toBe('该档位已有订单，不能删除，请停用');
    const mine = (await s.call(wallet.planSave, { token: manager, body: { name: '徐汇专享充150', amount: 15_000, giftAmount: 1_000 } })).body.data;
    expect(mine).toEqual(expect.objectContaining({ districtId: xuhui, manageable: true, status: 1 }));
    const off = await s.call(wallet.planStatus, { token: manager, body: { id: mine.id, fromStatus: 1, toStatus: 0, rowVersion: mine.rowVersion } });
    expect(off.body.data.status).toBe(0);
    expect(await audits('RECHARGE_PLAN_STATUS', `recharge-plan/${mine.id}`)).toHaveLength(1);
    expect((await s.call(wallet.planDelete, { token: manager, query: { id: mine.id } })).body.code).toBe(1);
    expect(await db().select().from(rechargePlans).where(eq(rechargePlans.id, mine.id))).toHaveLength(0);
  });

  it('the setting is city-wide: the manager reads it, only the super user saves it', async () => {
    const cur = (await s.call(wallet.settingQuery, { token: manager })).body.data;
    expect(cur).toEqual(expect.objectContaining({ minFen: 1_000, maxFen: 99_900, balanceCapFen: 100_000, adjustSingleMaxFen: 50_000, giftRefundable: false, consumeOrder: 1 }));
    const body = { ...cur, dailyTimes: 6 };
    delete (body as { updatedDate?: unknown }).updatedDate;
    expect((await s.call(wallet.settingSave, { token: manager, body })).status).toBe(403);
    expect((await s.call(wallet.settingSave, { token: admin, body: { ...body, minFen: 200_000 } })).body.msg).toBe('单笔最高充值不能低于单笔最低充值');
    const saved = await s.call(wallet.settingSave, { token: admin, body });
    expect(saved.body.data.dailyTimes).toBe(6);
    expect(await audits('RECHARGE_SETTING_SAVE')).toHaveLength(1);
    await s.call(wallet.settingSave, { token: admin, body: { ...body, dailyTimes: 5, rowVersion: saved.body.data.rowVersion } });
  });
});

describe('★ 每日轧账', () => {
  it('the ledger is append-only: UPDATE and DELETE are refused by the database', async () => {
    const { wallet: w } = await funded(xuhui);
    const refusal = async (work: PromiseLike<unknown>) => {
      try {
        await work;
        return 'done';
      } catch (err) {
        return String((err as { cause?: Error }).cause?.message ?? err);
      }
    };
    expect(await refusal(db().update(walletLedger).set({ principalDelta: 1 }).where(eq(walletLedger.walletId, w.id)))).toMatch(/append-only \(UPDATE refused\)/);
    expect(await refusal(db().delete(walletLedger).where(eq(walletLedger.walletId, w.id)))).toMatch(/append-only \(DELETE refused\)/);
    expect(await ledgerOf(w.id)).toHaveLength(1);
  });

  it('a broken wallet is a row pointing at its first bad ledger entry; the nightly job stores the day once', async () => {
    const { wallet: w } = await funded(xuhui);
    // A row written past the services: its after-values do not follow from the one before.
    const [bad] = await db()
      .insert(walletLedger)
      .values({ walletId: w.id, districtId: w.districtId, type: 5, principalDelta: 100, giftDelta: 0, principalAfter: 99_999, giftAfter: 0, refKind: 'adjust', refId: 'forged', createdAt: s.clock.now() })
      .returning();
    const { wallet: tampered } = await funded(xuhui);
    await db().update(wallets).set({ principal: tampered.principal + 1 }).where(eq(wallets.id, tampered.id));
    const rec = (await s.call(wallet.reconcile, { token: manager })).body.data;
    const a = rec.broken.find((b) => b.walletId === w.id)!;
    expect(a).toEqual(expect.objectContaining({ principal: 20_000, ledgerPrincipal: 20_100, ordersPrincipal: 20_100, firstBadLedgerId: bad!.id }));
    const b = rec.broken.find((x) => x.walletId === tampered.id)!;
    expect(b).toEqual(expect.objectContaining({ principal: 20_001, ledgerPrincipal: 20_000, firstBadLedgerId: null }));
    // The job's clock a day on (the shared clock stays: sessions would lapse).
    const tomorrow = { ...deps, clock: { now: () => new Date(s.clock.now().getTime() + 24 * HOUR) } } as AppDeps;
    const first = await nightlyReconcile(tomorrow);
    expect(first?.broken).toBeGreaterThanOrEqual(2);
    expect(await nightlyReconcile(tomorrow)).toBeNull();
    expect(await db().select().from(walletReconcileRuns)).toHaveLength(1);
    expect((await s.call(wallet.reconcile, { token: admin })).body.data.lastRun).toEqual(expect.objectContaining({ day: first!.day }));
    expect((await audits('WALLET_RECONCILE')).length).toBe(1);
  });
});

describe('★ 每日轧账: the gift and refund proofs, the count, the district', () => {
  it('a gift granted without an order (ledger and wallet agree) fails the gift proof alone', async () => {
    const { wallet: w } = await funded(xuhui, 20_000, '充200送15元');
    // Written past the services but coherently: the ledger still sums to the wallet.
    await db().insert(walletLedger).values({ walletId: w.id, districtId: w.districtId, type: 2, principalDelta: 0, giftDelta: 700, principalAfter: 20_000, giftAfter: 2_200, refKind: 'order', refId: 'forged-gift', createdAt: s.clock.now() });
    await db().update(wallets).set({ gift: 2_200 }).where(eq(wallets.id, w.id));
    const rec = (await s.call(wallet.reconcile, { token: manager })).body.data;
    expect(rec.broken.find((b) => b.walletId === w.id)).toEqual(
      expect.objectContaining({ failed: ['gift'], gift: 2_200, ledgerGift: 2_200, ordersGift: 1_500, principal: 20_000, ordersPrincipal: 20_000, firstBadLedgerId: null }),
    );
  });

  it('a refund and its gift clawback reconcile; a refund recorded without its ledger row, or a ledger refund nobody recorded, fails the refund proof', async () => {
    const { wallet: sound, order: soundOrder } = await funded(xuhui, 20_000, '充200送15元');
    await consume(deps, sound.id, 300, `r-${sound.id}`);
    expect((await s.call(wallet.orderRefund, { token: manager, body: { id: soundOrder.id, reason: '乘客申请退回储值余额', idempotencyKey: key() } })).body.code).toBe(1);
    const { wallet: paidOut, order: paidOrder } = await funded(xuhui);
    await db().insert(t.moneyRefunds).values({ kind: 'wallet', orderId: paidOrder.id, districtId: paidOrder.districtId, orderNo: paidOrder.orderNo, amount: 5_000, reason: '绕过系统的退款', idempotencyKey: key(), outRefundNo: `RF${key()}`.slice(0, 32), createdAt: s.clock.now() });
    const { wallet: unrecorded } = await funded(xuhui);
    const [row] = await db()
      .insert(walletLedger)
      .values({ walletId: unrecorded.id, districtId: unrecorded.districtId, type: 4, principalDelta: -1_000, giftDelta: 0, principalAfter: 19_000, giftAfter: 0, refKind: 'order', refId: 'forged-refund', createdAt: s.clock.now() })
      .returning();
    await db().update(wallets).set({ principal: 19_000 }).where(eq(wallets.id, unrecorded.id));
    const rec = (await s.call(wallet.reconcile, { token: manager })).body.data;
    expect(rec.broken.find((b) => b.walletId === sound.id)).toBeUndefined();
    expect(rec.broken.find((b) => b.walletId === paidOut.id)).toEqual(expect.objectContaining({ failed: ['refunds'], refundsRecorded: 5_000, ledgerRefunded: 0 }));
    // The refund row also takes principal the orders never gave back: the orders' proof fails with it.
    expect(rec.broken.find((b) => b.walletId === unrecorded.id)).toEqual(expect.objectContaining({ failed: ['orders', 'refunds'], refundsRecorded: 0, ledgerRefunded: 1_000, ordersPrincipal: 20_000 }));
    expect(row).toBeTruthy();
    expect(rec.brokenCount).toBe(rec.broken.length);
  });

  it('brokenCount counts every broken wallet beside the first 200 listed', async () => {
    // 201 wallets holding 1 fen with no ledger row at all (riders from the end, as freshRider takes them from the start); removed at the end.
    const made = (await db().execute(sql`
      insert into wallets (rider_id, district_id, principal, gift, created_at, updated_at)
      select r.id, r.district_id, 1, 0, now(), now() from riders r
      where not exists (select 1 from wallets w where w.rider_id = r.id)
      order by r.id desc limit 201 returning id, district_id`)) as unknown as { rows: { id: number; district_id: number }[] };
    const ids = sql.join(
      made.rows.map((m) => sql`${m.id}`),
      sql`, `,
    );
    try {
      expect(made.rows).toHaveLength(201);
      const before = (await s.call(wallet.reconcile, { token: admin })).body.data;
      expect(before.broken).toHaveLength(200);
      expect(before.brokenCount).toBeGreaterThanOrEqual(201);
      const listedOf = before.broken.filter((b) => made.rows.some((m) => m.id === b.walletId));
      expect(listedOf.length).toBeGreaterThan(0);
      expect(listedOf.every((b) => b.failed.join() === 'ledger,orders')).toBe(true);
      const small = await reconcileWallets(deps, null, 3);
      expect(small.broken).toHaveLength(3);
      expect(small.brokenCount).toBe(before.brokenCount);
      expect(small.districts.reduce((n, d) => n + d.broken, 0)).toBe(small.brokenCount);
    } finally {
      await db().execute(sql`delete from wallets where id in (${ids})`);
    }
  });

  it("a district manager reads their district's share of the last nightly run, not the city's", async () => {
    await db().delete(walletReconcileRuns);
    const { wallet: w } = await funded(huangpu);
    await db().update(wallets).set({ principal: w.principal + 5 }).where(eq(wallets.id, w.id));
    try {
      const inTwoDays = { ...deps, clock: { now: () => new Date(s.clock.now().getTime() + 48 * HOUR) } } as AppDeps;
      const run = await nightlyReconcile(inTwoDays);
      const [stored] = await db().select().from(walletReconcileRuns);
      const city = stored!.districts!;
      const xh = city.find((d) => d.districtId === xuhui)!;
      const hp = city.find((d) => d.districtId === huangpu)!;
      expect(hp.broken).toBeGreaterThanOrEqual(1);
      expect(city.reduce((n, d) => n + d.broken, 0)).toBe(stored!.broken);
      expect(city.reduce((n, d) => n + d.wallets, 0)).toBe(stored!.wallets);
      const mine = (await s.call(wallet.reconcile, { token: manager })).body.data.lastRun;
      expect(mine).toEqual({ day: run!.day, wallets: xh.wallets, broken: xh.broken, ranDate: expect.any(String), ms: stored!.ms });
      expect((await s.call(wallet.reconcile, { token: admin })).body.data.lastRun).toEqual(expect.objectContaining({ wallets: stored!.wallets, broken: stored!.broken }));
      // A run stored before the districts were kept shows a district manager none, not the city's.
      await db().update(walletReconcileRuns).set({ districts: null });
      expect((await s.call(wallet.reconcile, { token: manager })).body.data.lastRun).toBeNull();
    } finally {
      await db().update(wallets).set({ principal: w.principal }).where(eq(wallets.id, w.id));
    }
  });
});

describe('lists, summary, export, card view', () => {
  it('orders by status with the summary over the same filters; the export is a task; the card view reads the wallet', async () => {
    const { order } = await funded(xuhui);
    const page = (await s.call(wallet.orderPage, { token: manager, query: { orderNo: order.orderNo } })).body.data;
    expect(page.content).toHaveLength(1);
    expect(page.content[0]!.riderPhone).toMatch(/^1\d{2}\*{4}\d{4}$/);
    const total = (await s.call(wallet.orderTotal, { token: manager, query: { orderNo: order.orderNo } })).body.data;
    expect(total).toEqual(expect.objectContaining({ orders: 1, paid: 1, paidAmount: 20_000 }));
    const task = await s.call(wallet.orderExport, { token: manager, query: { status: '1' } });
    expect(task.body.data).toEqual(expect.objectContaining({ kind: 'wallet.orders', phase: 'queued' }));
    const ledger = (await s.call(wallet.ledgerPage, { token: manager, query: { walletId: order.walletId } })).body.data;
    expect(ledger.totalElements).toBe(1);
    const [card] = await db().insert(t.busCards).values({ cardNo: '3101999900001234', districtId: xuhui, category: 1, riderId: order.riderId, issuedAt: s.clock.now(), updatedAt: s.clock.now() }).returning();
    expect(await walletOfCard(deps, card!.id)).toEqual({ walletId: order.walletId, principal: 20_000, gift: 0, status: 1 });
    const byCard = (await s.call(wallet.walletPageByBody, { token: manager, body: { cardNo: '3101999900001234' } })).body.data.content;
    expect(byCard.map((w) => w.id)).toEqual([order.walletId]);
    const phone = createPii(TEST_PII_KEY).decrypt((await db().select().from(t.riders).where(eq(t.riders.id, order.riderId)))[0]!.phoneEnc);
    const byPhone = (await s.call(wallet.walletPageByBody, { token: manager, body: { phone } })).body.data.content;
    expect(byPhone.map((w) => w.id)).toEqual([order.walletId]);
  });
});

describe('a channel that answers 退款异常 (PAYMENT_REFUND_FAILS=1)', () => {
  it('the refund commits (order 已退款, ledger rows) with the refund 退款异常; the retry job settles it under the same number', async () => {
    const failing = await startTestServer({ paymentRefundFails: true }, { jobs: false });
    try {
      const fdb = failing.database.db;
      const fdeps = { db: fdb, clock: failing.clock, pii: createPii(TEST_PII_KEY), payments: builtInPaymentChannel({ refundFails: false }), config: failing.config } as unknown as AppDeps;
      const [area] = await fdb.select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
      const rows = (await fdb.execute(sql`select r.id from riders r where r.district_id = ${area!.id} and not exists (select 1 from wallets w where w.rider_id = r.id) order by r.id limit 1`)) as unknown as { rows: { id: number }[] };
      const o = await createOrder(fdeps, { riderId: rows.rows[0]!.id, amount: 8_000 });
      await payNotify(fdeps, o.orderNo);
      const token = await failing.login('manager');
      const r = await failing.call(wallet.orderRefund, { token, body: { id: o.id, reason: '乘客申请', idempotencyKey: key() } });
      expect(r.body.data.refund.state).toBe(2);
      expect(r.body.data.order.status).toBe(2);
      const [before] = await fdb.select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'wallet'), eq(t.moneyRefunds.orderId, o.id)));
      // The retry job, a few minutes on, with a channel that accepts: the same out_refund_no, now 退款成功.
      const later = { ...fdeps, clock: { now: () => new Date(failing.clock.now().getTime() + 5 * MINUTE) } } as AppDeps;
      expect((await retryRefunds(later, 'wallet')).length).toBeGreaterThanOrEqual(1);
      const [after] = await fdb.select().from(t.moneyRefunds).where(eq(t.moneyRefunds.id, before!.id));
      expect(after).toEqual(expect.objectContaining({ state: 1, outRefundNo: before!.outRefundNo, attempts: 2 }));
    } finally {
      await failing.close();
    }
  });
});
