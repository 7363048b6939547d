import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as pkg from '../../src/shared/api/package-pay';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { packageOrders, packageUsages, packages } from '../../src/server/modules/package-pay/schema';
import { buyPackage, expireOrders, payOrder, useRide } from '../../src/server/modules/package-pay/service';
import { DAY } from '../support/clock';
import { skipWithoutPostgres } from '../support/test-db';
import { type TestServer, startTestServer } from '../support/test-server';

/**
 * 套餐购买's races on PostgreSQL (a pool of connections, real row locks): two taps for the last ride,
 * a refund against a ride, the last of a limited package's stock, 50 refunds at once.
 */
describe.skipIf(skipWithoutPostgres('package races (last ride, refund vs ride, last stock, 50 refunds)'))('on PostgreSQL', () => {
  let s: TestServer;
  let manager: string;
  let area: number;
  let riders: number[];
  const db = () => s.database.db;
  const deps = () => ({ db: s.database.db, clock: s.clock }) as unknown as AppDeps;

  beforeAll(async () => {
    s = await startTestServer();
    manager = await s.login('manager');
    area = (await db().select().from(t.districts)).find((d) => d.name === '徐汇区')!.id;
    riders = (await db().select({ id: t.riders.id }).from(t.riders).limit(250)).map((r) => r.id);
  });
  afterAll(() => s?.close());

  const make = async (over: Partial<typeof packages.$inferInsert> = {}) => {
    const now = s.clock.now();
    const [row] = await db()
      .insert(packages)
      .values({ districtId: area, name: '并发套餐', price: 1000, originalPrice: 2000, rides: 2, validDays: 30, saleStart: new Date(now.getTime() - DAY), saleEnd: new Date(now.getTime() + 30 * DAY), status: 1, createdAt: now, updatedAt: now, ...over })
      .returning();
    return row!;
  };
  const paid = async (packageId: number, rider: number) => payOrder(deps(), (await buyPackage(deps(), { riderId: rider, packageId })).id);
  const tap = (orderId: number, fare = 200) => useRide(deps(), { orderId, rideAt: s.clock.now(), lineCode: '01', busNo: '沪B00001', singleFare: fare });
  const stored = async (id: number) => (await db().select().from(packageOrders).where(eq(packageOrders.id, id)))[0]!;
  const refundAudits = (id: number) => db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'PACKAGE_ORDER_REFUND'), eq(t.sysLog.target, `package-order/${id}`)));
  const ledger = (id: number) => db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'package'), eq(t.moneyRefunds.orderId, id)));

  it('ten taps for the last ride at once: exactly one ride, the order used up, never over', async () => {
    const p = await make({ rides: 2 });
    for (let round = 0; round < 5; round++) {
      const o = await paid(p.id, riders[round]!);
      await tap(o.id);
      const answers = await Promise.allSettled(Array.from({ length: 10 }, () => tap(o.id)));
      expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
      expect(answers.filter((a) => a.status === 'rejected').every((a) => /用完/.test(String((a as PromiseRejectedResult).reason)))).toBe(true);
      const after = await stored(o.id);
      expect(after).toMatchObject({ usedRides: 2, status: 2 });
      expect(await db().select().from(packageUsages).where(eq(packageUsages.orderId, o.id))).toHaveLength(2);
    }
  });

  it('a refund against a ride: the refund is computed on the count it locked, whichever goes first', async () => {
    const p = await make({ rides: 10, price: 1000 });
    for (let round = 0; round < 8; round++) {
      const o = await paid(p.id, riders[10 + round]!);
      await tap(o.id, 300);
      // The preview said 700 (one ride used); a second ride may land before the refund locks the order.
      const [ride, refund] = await Promise.allSettled([
        tap(o.id, 300),
        s.call(pkg.packageOrderRefund, { token: manager, body: { id: o.id, amount: 700, reason: '并发退款', idempotencyKey: `race-ride-${o.id}` } }),
      ]);
      const after = await stored(o.id);
      const refundAnswer = refund.status === 'fulfilled' ? refund.value.body : null;
      if (ride.status === 'fulfilled') {
        // The ride went first: 2 used, 400 left; a 700 refund is refused and nothing is refunded.
        expect(after.usedRides).toBe(2);
        expect(refundAnswer?.msg).toBe('退款金额不能超过可退金额（4.00元）');
        expect(after.status).toBe(1);
        expect(await ledger(o.id)).toHaveLength(0);
      } else {
        // The refund went first: the ride finds the order refunded.
        expect(String(ride.reason)).toMatch(/已退款/);
        expect(after).toMatchObject({ usedRides: 1, status: 4, refundAmount: 700 });
        expect(await ledger(o.id)).toHaveLength(1);
      }
      expect(after.refundAmount).toBeLessThanOrEqual(after.amount - after.usedRides * 300);
    }
  });

  it('the last of a limited package’s stock: 200 buyers for 10, never oversold, stock never below zero', async () => {
    const p = await make({ stock: 10, perUserLimit: 1 });
    const answers = await Promise.allSettled(riders.slice(30, 230).map((r) => buyPackage(deps(), { riderId: r, packageId: p.id })));
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(10);
    expect(answers.filter((a) => a.status === 'rejected').every((a) => /售罄/.test(String((a as PromiseRejectedResult).reason)))).toBe(true);
    const after = (await db().select().from(packages).where(eq(packages.id, p.id)))[0]!;
    expect(after).toMatchObject({ stock: 0, sold: 10 });
    expect(await db().select().from(packageOrders).where(eq(packageOrders.packageId, p.id))).toHaveLength(10);
  });

  it('one rider, limit 1, ten buys at once: one order', async () => {
    const p = await make({ perUserLimit: 1 });
    const answers = await Promise.allSettled(Array.from({ length: 10 }, () => buyPackage(deps(), { riderId: riders[240]!, packageId: p.id })));
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    expect(await db().select().from(packageOrders).where(eq(packageOrders.packageId, p.id))).toHaveLength(1);
  });

  it('expiry against rides at expireAt: the ride’s own time decides, whether the job ran first or not', async () => {
    const p = await make({ rides: 10, validDays: 1 });
    const orders: Awaited<ReturnType<typeof paid>>[] = [];
    for (let i = 0; i < 6; i++) orders.push(await paid(p.id, riders[243 + i]!));
    const start = s.clock.now();
    s.clock.set(new Date(orders[0]!.expireAt!.getTime() + 1));
    const before = (o: (typeof orders)[number]) => useRide(deps(), { orderId: o.id, rideAt: new Date(o.expireAt!.getTime() - 1), lineCode: '01', busNo: '沪B1', singleFare: 200 });
    const at = (o: (typeof orders)[number]) => useRide(deps(), { orderId: o.id, rideAt: o.expireAt!, lineCode: '01', busNo: '沪B1', singleFare: 200 });
    const [job, ...rides] = await Promise.allSettled([expireOrders(deps()), ...orders.map(before), ...orders.map(at)]);
    s.clock.set(start);
    expect(job.status).toBe('fulfilled');
    // Every ride a millisecond before expiry counted; every ride at expiry was refused.
    expect(rides.slice(0, 6).every((r) => r.status === 'fulfilled')).toBe(true);
    expect(rides.slice(6).every((r) => r.status === 'rejected' && /已过期/.test(String(r.reason)))).toBe(true);
    for (const o of orders) expect(await stored(o.id)).toMatchObject({ usedRides: 1, status: 3 });
  });

  it('50 refunds at once with one key: one refund, one ledger row, one audit row; every answer the same refund', async () => {
    const p = await make({ rides: 5 });
    const o = await paid(p.id, riders[241]!);
    const body = { id: o.id, amount: 1000, reason: '并发退款', idempotencyKey: `race-one-key-${o.id}` };
    const answers = await Promise.all(Array.from({ length: 50 }, () => s.call(pkg.packageOrderRefund, { token: manager, body })));
    expect(answers.every((a) => a.body.code === 1)).toBe(true);
    expect(new Set(answers.map((a) => a.body.data.refund.id)).size).toBe(1);
    expect(answers.filter((a) => !a.body.data.replayed).length).toBeLessThanOrEqual(1);
    expect(await ledger(o.id)).toHaveLength(1);
    expect(await refundAudits(o.id)).toHaveLength(1);
    expect(await stored(o.id)).toMatchObject({ status: 4, refundAmount: 1000 });
  });

  it('50 refunds at once with different keys: one refund; the rest are told it is refunded', async () => {
    const p = await make({ rides: 5 });
    const o = await paid(p.id, riders[242]!);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => s.call(pkg.packageOrderRefund, { token: manager, body: { id: o.id, amount: 1000, reason: '并发退款', idempotencyKey: `race-keys-${o.id}-${i}` } })),
    );
    expect(answers.filter((a) => a.body.code === 1)).toHaveLength(1);
    expect(answers.filter((a) => a.body.code !== 1).every((a) => a.body.msg === '订单已退款，不能重复退款')).toBe(true);
    expect(await ledger(o.id)).toHaveLength(1);
    expect(await refundAudits(o.id)).toHaveLength(1);
  });
});
