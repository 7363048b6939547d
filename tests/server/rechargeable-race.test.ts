import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as wallet from '../../src/shared/api/wallet';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { builtInPaymentChannel } from '../../src/server/lib/payment-channel';
import { createPii } from '../../src/server/lib/pii';
import { consume, createOrder, payNotify, settingOf } from '../../src/server/modules/rechargeable/money';
import { reconcileWallets } from '../../src/server/modules/rechargeable/reconcile';
import { walletAdjustments, walletLedger, walletOrders, wallets } from '../../src/server/modules/rechargeable/schema';
import { skipWithoutPostgres } from '../support/test-db';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/**
 * 储值's races on PostgreSQL (a pool of connections, real row locks; second wave §12): a pay notice
 * delivered three times at once; 1,000 mixed top-ups, rides and refunds over 20 wallets; 50 refunds
 * of one order; two checkers; the maker approving from a second session.
 */
describe.skipIf(skipWithoutPostgres('wallet races (pay notice ×3, 1,000 mixed ops, 50 refunds, two checkers, the maker)'))('on PostgreSQL', () => {
  let s: TestServer;
  let admin: string;
  let manager: string;
  let agent: string;
  let xuhui: number;
  let deps: AppDeps;
  const db = () => s.database.db;
  const used = new Set<number>();

  beforeAll(async () => {
    s = await startTestServer({}, { jobs: false });
    [admin, manager, agent] = await Promise.all([s.login('admin'), s.login('manager'), s.login('agent')]);
    xuhui = (await db().select().from(t.districts)).find((d) => d.name === '徐汇区')!.id;
    deps = { db: db(), clock: s.clock, pii: createPii(TEST_PII_KEY), payments: builtInPaymentChannel({ refundFails: false }), config: s.config } as unknown as AppDeps;
  });
  afterAll(() => s?.close());

  async function riders(n: number) {
    const rows = (await db().execute(sql`select r.id from riders r where r.district_id = ${xuhui} and not exists (select 1 from wallets w where w.rider_id = r.id) order by r.id`)) as unknown as { rows: { id: number }[] };
    const ids = rows.rows.map((r) => r.id).filter((id) => !used.has(id)).slice(0, n);
    ids.forEach((id) => used.add(id));
    expect(ids).toHaveLength(n);
    return ids;
  }
  const key = (i: number | string) => `race-${i}-${Math.random().toString(36).slice(2, 10)}`;
  const audits = (type: string, targets: string[]) => db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, type), inArray(t.sysLog.target, targets)));

  it('a pay notice delivered 3× at once credits once', async () => {
    const [riderId] = await riders(1);
    const order = await createOrder(deps, { riderId: riderId!, amount: 30_000 });
    const answers = await Promise.all([payNotify(deps, order.orderNo), payNotify(deps, order.orderNo), payNotify(deps, order.orderNo)]);
    expect(answers.filter((a) => a.credited)).toHaveLength(1);
    const [w] = await db().select().from(wallets).where(eq(wallets.id, order.walletId));
    expect(w!.principal).toBe(30_000);
    expect(await db().select().from(walletLedger).where(eq(walletLedger.walletId, order.walletId))).toHaveLength(1);
    expect(await audits('WALLET_ORDER_PAY', [`wallet-order/${order.id}`])).toHaveLength(1);
  });

  it('1,000 random concurrent top-ups, rides and refunds over 20 wallets: never negative, each balance = Σ its ledger', async () => {
    const ids = await riders(20);
    // Each wallet starts with one paid order, so there is something to ride on and to refund.
    const firsts = await Promise.all(ids.map((riderId) => createOrder(deps, { riderId, amount: 20_000 })));
    await Promise.all(firsts.map((o) => payNotify(deps, o.orderNo)));
    const walletIds = firsts.map((o) => o.walletId);
    const setting = await settingOf(db());
    let seed = 20_261_128;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const orders = [...firsts];
    const ops: (() => Promise<string>)[] = [];
    for (let i = 0; i < 1_000; i++) {
      const w = rand(20);
      const kind = rand(10);
      if (kind < 3) {
        // A top-up: its order, then its pay notice (the daily limits may refuse the order: that is fine).
        ops.push(async () => {
          const o = await createOrder(deps, { riderId: ids[w]!, amount: 1_000 + rand(5) * 1_000 });
          orders.push(o);
          await payNotify(deps, o.orderNo);
          return 'topup';
        });
      } else if (kind < 9) {
        // Fares of 1–5.50 元: rides dearer than the day's capped top-ups drained every wallet early in
        // some interleavings, and then no refund had anything left to refund.
        ops.push(async () => ((await consume(deps, walletIds[w]!, 100 + rand(10) * 50, `race-ride-${i}`, setting)).charged ? 'ride' : 'ride again'));
      } else {
        ops.push(async () => {
          const candidates = orders.filter((o) => o.walletId === walletIds[w]);
          const o = candidates[rand(candidates.length)]!;
          const r = await s.call(wallet.orderRefund, { token: manager, body: { id: o.id, reason: '并发退款', idempotencyKey: key(i) } });
          return r.body.code === 1 ? 'refund' : `refused:${r.body.msg}`;
        });
      }
    }
    // 40 at a time: as many as the pool has connections to queue on, without exhausting the test's sockets.
    const results: PromiseSettledResult<string>[] = new Array(ops.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: 40 }, async () => {
        for (let i = next++; i < ops.length; i = next++) {
          try {
            results[i] = { status: 'fulfilled', value: await ops[i]!() };
          } catch (reason) {
            results[i] = { status: 'rejected', reason };
          }
        }
      }),
    );
    const refusals = results.flatMap((r) => (r.status === 'rejected' ? [String((r.reason as Error).message)] : []));
    // Every refusal is one of the rules', none is a crash.
    for (const msg of refusals) expect(msg).toMatch(/余额不足|每日|上限|已退款|未到账|可退金额/);
    const done = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(done.filter((d) => d === 'ride').length).toBeGreaterThan(50);
    expect(done.filter((d) => d === 'refund').length).toBeGreaterThan(0);
    const rows = (await db().execute(sql`
      select w.id, w.principal, w.gift, coalesce(sum(l.principal_delta), 0)::int as lp, coalesce(sum(l.gift_delta), 0)::int as lg
      from wallets w left join wallet_ledger l on l.wallet_id = w.id
      where w.id in (${sql.join(walletIds.map((id) => sql`${id}`), sql`, `)}) group by w.id`)) as unknown as { rows: { id: number; principal: number; gift: number; lp: number; lg: number }[] };
    for (const r of rows.rows) {
      expect(r.principal).toBeGreaterThanOrEqual(0);
      expect(r.gift).toBeGreaterThanOrEqual(0);
      expect([r.principal, r.gift]).toEqual([r.lp, r.lg]);
    }
    const rec = await reconcileWallets(deps, xuhui);
    expect(rec.broken.filter((b) => walletIds.includes(b.walletId))).toEqual([]);
  });

  it('50 concurrent refunds of one order with one key: one refund, one ledger row, one audit row; all answer the same', async () => {
    const [riderId] = await riders(1);
    const o = await createOrder(deps, { riderId: riderId!, amount: 10_000 });
    await payNotify(deps, o.orderNo);
    const k = key('one');
    const answers = await Promise.all(Array.from({ length: 50 }, () => s.call(wallet.orderRefund, { token: manager, body: { id: o.id, reason: '并发退款', idempotencyKey: k } })));
    expect(answers.every((a) => a.body.code === 1)).toBe(true);
    expect(new Set(answers.map((a) => a.body.data.refund.id)).size).toBe(1);
    expect(answers.filter((a) => !a.body.data.replayed)).toHaveLength(1);
    expect(await db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'wallet'), eq(t.moneyRefunds.orderId, o.id)))).toHaveLength(1);
    expect(await db().select().from(walletLedger).where(and(eq(walletLedger.walletId, o.walletId), eq(walletLedger.type, 4)))).toHaveLength(1);
    expect(await audits('WALLET_ORDER_REFUND', [`wallet-order/${o.id}`])).toHaveLength(1);
  });

  it('50 concurrent refunds of one order with different keys: one refund, 49 told it is refunded', async () => {
    const [riderId] = await riders(1);
    const o = await createOrder(deps, { riderId: riderId!, amount: 10_000 });
    await payNotify(deps, o.orderNo);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => s.call(wallet.orderRefund, { token: manager, body: { id: o.id, reason: '并发退款', idempotencyKey: key(i) } })));
    expect(answers.filter((a) => a.body.code === 1)).toHaveLength(1);
    expect(answers.filter((a) => a.body.code !== 1).every((a) => /已退款，不能重复退款/.test(a.body.msg))).toBe(true);
    expect(await db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'wallet'), eq(t.moneyRefunds.orderId, o.id)))).toHaveLength(1);
    expect(await db().select().from(walletLedger).where(and(eq(walletLedger.walletId, o.walletId), eq(walletLedger.type, 4)))).toHaveLength(1);
    expect(await audits('WALLET_ORDER_REFUND', [`wallet-order/${o.id}`])).toHaveLength(1);
    const [stored] = await db().select().from(walletOrders).where(eq(walletOrders.id, o.id));
    expect(stored!.status).toBe(2);
  });

  it('two checkers at once: one approval, one ledger row; the other is told it was handled', async () => {
    const [riderId] = await riders(1);
    const o = await createOrder(deps, { riderId: riderId!, amount: 10_000 });
    await payNotify(deps, o.orderNo);
    const made = (await s.call(wallet.adjust, { token: agent, body: { walletId: o.walletId, bucket: 1, delta: 500, reason: '乘车重复扣费，人工退回五元', idempotencyKey: key('adj') } })).body.data.adjustment;
    const body = { id: made.id, fromStatus: 0, toStatus: 1, confirmDelta: made.delta };
    const [a, b] = await Promise.all([s.call(wallet.adjustCheck, { token: manager, body }), s.call(wallet.adjustCheck, { token: admin, body })]);
    expect([a.body.code, b.body.code].sort()).toEqual([0, 1]);
    expect([a, b].find((r) => r.body.code !== 1)!.body.msg).toBe('该调账已被处理，请刷新后查看');
    expect(await db().select().from(walletLedger).where(and(eq(walletLedger.refKind, 'adjust'), eq(walletLedger.refId, String(made.id))))).toHaveLength(1);
    expect((await db().select().from(wallets).where(eq(wallets.id, o.walletId)))[0]!.principal).toBe(10_500);
    expect(await audits('WALLET_ADJUST_CHECK', [`wallet-adjust/${made.id}`])).toHaveLength(1);
  });

  it('the maker approving from a second session is refused in SQL (maker_id <> :me), even racing a checker', async () => {
    const [riderId] = await riders(1);
    const o = await createOrder(deps, { riderId: riderId!, amount: 10_000 });
    await payNotify(deps, o.orderNo);
    // The manager makes it, and approves it from a second session while the super user approves too.
    const made = (await s.call(wallet.adjust, { token: manager, body: { walletId: o.walletId, bucket: 1, delta: 300, reason: '乘客投诉多扣三元，人工补回', idempotencyKey: key('mk') } })).body.data.adjustment;
    const second = await s.login('manager');
    const body = { id: made.id, fromStatus: 0, toStatus: 1, confirmDelta: made.delta };
    const alone = await s.call(wallet.adjustCheck, { token: second, body });
    expect(alone.body.msg).toBe('复核人不能与申请人为同一人');
    expect((await db().select().from(walletAdjustments).where(eq(walletAdjustments.id, made.id)))[0]!.status).toBe(0);
    const [mine, theirs] = await Promise.all([s.call(wallet.adjustCheck, { token: second, body }), s.call(wallet.adjustCheck, { token: admin, body })]);
    expect(mine.body.code).not.toBe(1);
    expect(theirs.body.code).toBe(1);
    const [stored] = await db().select().from(walletAdjustments).where(eq(walletAdjustments.id, made.id));
    expect(stored!.checkerId).not.toBe(stored!.makerId);
    expect(await db().select().from(walletLedger).where(and(eq(walletLedger.refKind, 'adjust'), eq(walletLedger.refId, String(made.id))))).toHaveLength(1);
  });
});
