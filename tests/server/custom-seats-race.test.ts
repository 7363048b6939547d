import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/shared/api/custom-bus/orders';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { customClasses, customOrders, customTickets } from '../../src/server/modules/custom-bus/schema';
import { buyMonth, buySingle, expireHolds, payOrder, riderRefund } from '../../src/server/modules/custom-bus/rider-side';
import { addDays, shanghaiDate } from '../../src/shared/domain/time';
import { DAY, MINUTE } from '../support/clock';
import { type CustomFixture, fixtureClass, fixtureLadder, fixtureLine, fixturePaidOrder } from '../support/custom-bus-fixture';
import { skipWithoutPostgres } from '../support/test-db';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/**
 * 定制公交's seat and refund races on PostgreSQL (a pool of connections, real row locks; second wave
 * §12): the last seats, 月票 against single buys, a hold expiring against its late payment, 取消班次
 * twice with rider refunds, a rider and an operator refunding one ticket, 50 refunds at once.
 */
describe.skipIf(skipWithoutPostgres('custom seats races (last seats, month ticket, hold vs pay, cancel, refunds)'))('on PostgreSQL', () => {
  let s: TestServer;
  let manager: string;
  let area: number;
  let riders: number[];
  const db = () => s.database.db;
  const pii = createPii(TEST_PII_KEY);
  const deps = () => ({ db: s.database.db, clock: s.clock, payments: { refund: async () => ({ state: 1 as const, channelRefundNo: 'CH', failReason: null }) } }) as unknown as AppDeps;
  const f = (): CustomFixture => ({ db: db(), pii, now: s.clock.now() });
  const key = () => `race-${Math.random().toString(36).slice(2, 14)}`;
  const stored = async (id: number) => (await db().select().from(customClasses).where(eq(customClasses.id, id)))[0]!;
  const ledgerOf = (orderIds: number[]) => db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'custom'), inArray(t.moneyRefunds.orderId, orderIds)));

  beforeAll(async () => {
    s = await startTestServer();
    manager = await s.login('manager');
    area = (await db().select().from(t.districts)).find((d) => d.name === '徐汇区')!.id;
    riders = (await db().select({ id: t.riders.id }).from(t.riders).orderBy(t.riders.id).limit(250)).map((r) => r.id);
    await fixtureLadder(f(), area);
  });
  afterAll(() => s?.close());

  it('200 buyers for the last 10 seats: 10 tickets, stock 0, never negative', async () => {
    const { line } = await fixtureLine(f(), area);
    const c = await fixtureClass(f(), line, 3, { publish: 45, stock: 10, sold: 35 });
    const answers = await Promise.allSettled(Array.from({ length: 200 }, (_, i) => buySingle(deps(), { riderId: riders[i % riders.length]!, classesId: c.id, seats: 1 })));
    const won = answers.filter((a) => a.status === 'fulfilled');
    expect(won).toHaveLength(10);
    expect(answers.filter((a) => a.status === 'rejected').every((a) => /余票不足|每位乘客/.test(String((a as PromiseRejectedResult).reason)))).toBe(true);
    const after = await stored(c.id);
    expect(after).toMatchObject({ stock: 0, held: 10, sold: 35 });
    const tickets = await db().select().from(customTickets).where(eq(customTickets.classesId, c.id));
    expect(tickets).toHaveLength(10);
  });

  it('月票 against single buys over ~22 classes: each month order has every class or nothing; no deadlock; seats add up', async () => {
    const { line } = await fixtureLine(f(), area);
    const month = addDays(shanghaiDate(s.clock.now()), 40).slice(0, 7);
    const first = Date.parse(`${month}-01`);
    const classes: (typeof customClasses.$inferSelect)[] = [];
    for (let d = first; new Date(d).toISOString().slice(0, 7) === month; d += DAY) {
      const day = new Date(d).toISOString().slice(0, 10);
      if ([0, 6].includes(new Date(d).getUTCDay())) continue;
      classes.push(await fixtureClass(f(), line, Math.round((d - Date.parse(shanghaiDate(s.clock.now()))) / DAY), { publish: 5, stock: 5 }));
      expect(classes.at(-1)!.departDate).toBe(day);
    }
    expect(classes.length).toBeGreaterThanOrEqual(20);
    const months = Array.from({ length: 4 }, (_, i) => buyMonth(deps(), { riderId: riders[i]!, lineId: line.id, direction: 0, month }));
    const singles = Array.from({ length: 40 }, (_, i) => buySingle(deps(), { riderId: riders[10 + i]!, classesId: classes[(i * 7) % classes.length]!.id, seats: 1 }));
    const answers = await Promise.allSettled([...months, ...singles]);
    for (const a of answers) if (a.status === 'rejected') expect(String(a.reason)).toMatch(/余票不足/);
    const monthOrders = await db().select().from(customOrders).where(and(eq(customOrders.lineId, line.id), eq(customOrders.ticketType, 2)));
    for (const o of monthOrders) expect(await db().select().from(customTickets).where(eq(customTickets.orderId, o.id))).toHaveLength(classes.length);
    expect(monthOrders.length).toBe(answers.slice(0, 4).filter((a) => a.status === 'fulfilled').length);
    expect(monthOrders.length).toBeGreaterThanOrEqual(1);
    for (const c of classes) {
      const after = await stored(c.id);
      expect(after.stock).toBeGreaterThanOrEqual(0);
      const [n] = await db().select({ n: sql<number>`count(*)::int` }).from(customTickets).where(and(eq(customTickets.classesId, c.id), eq(customTickets.state, 0)));
      expect(after.held).toBe(n!.n);
    }
  });

  it('a hold expiring against its late payment: paid with its seats, or refunded once; the seats add up', async () => {
    for (let round = 0; round < 6; round++) {
      const { line } = await fixtureLine(f(), area);
      const c = await fixtureClass(f(), line, 3, { publish: 2, stock: 2 });
      const { order } = await buySingle(deps(), { riderId: riders[100 + round]!, classesId: c.id, seats: 2 });
      s.clock.advance(3 * MINUTE);
      // A rival buyer wants the same seats the moment they return.
      await Promise.allSettled([expireHolds(deps()), payOrder(deps(), order.orderNo), buySingle(deps(), { riderId: riders[150 + round]!, classesId: c.id, seats: 1 })]);
      const o = (await db().select().from(customOrders).where(eq(customOrders.id, order.id)))[0]!;
      const after = await stored(c.id);
      expect(after.stock + after.held + after.sold).toBe(2);
      expect(after.stock).toBeGreaterThanOrEqual(0);
      const refunds = await ledgerOf([order.id]);
      if (o.status === 1) {
        expect(refunds).toHaveLength(0);
        expect(after.sold).toBeGreaterThanOrEqual(2);
      } else {
        expect(o.status).toBe(4);
        expect(refunds).toHaveLength(1);
        expect(refunds[0]!.reason).toBe('支付成功但座位已释放');
      }
    }
  });

  it('取消班次 twice at once with rider refunds racing: one refund row per ticket', async () => {
    const { line } = await fixtureLine(f(), area);
    const c = await fixtureClass(f(), line, 2, { publish: 30, stock: 30 });
    const orders = [];
    for (let i = 0; i < 8; i++) orders.push(await fixturePaidOrder(f(), c, { seats: 2, riderId: riders[200 + i]! }));
    const cancels = [0, 1].map(() => s.call(api.customClassesCancel, { token: manager, body: { id: c.id, reason: '道路封闭', idempotencyKey: key() } }));
    const riderRefunds = orders.slice(0, 4).map((o) => riderRefund(deps(), { riderId: o.order.riderId, orderNo: o.order.orderNo, ticketNos: [o.tickets[0]!.ticketNo], idempotencyKey: key() }));
    const answers = await Promise.allSettled([...cancels, ...riderRefunds]);
    for (const a of answers) if (a.status === 'rejected') expect(String(a.reason)).not.toMatch(/deadlock/i);
    const rows = await ledgerOf(orders.map((o) => o.order.id));
    expect(rows).toHaveLength(16);
    expect(new Set(rows.map((r) => r.itemId)).size).toBe(16);
    expect((await stored(c.id)).status).toBe(4);
    const tickets = await db().select().from(customTickets).where(eq(customTickets.classesId, c.id));
    expect(tickets.every((x) => x.state === 3)).toBe(true);
  });

  it('a rider and an operator refunding one ticket at once: one refund', async () => {
    for (let round = 0; round < 6; round++) {
      const { line } = await fixtureLine(f(), area);
      const c = await fixtureClass(f(), line, 2);
      const { order, tickets } = await fixturePaidOrder(f(), c, { riderId: riders[220 + round]! });
      await Promise.allSettled([
        riderRefund(deps(), { riderId: order.riderId, orderNo: order.orderNo, ticketNos: [tickets[0]!.ticketNo], idempotencyKey: key() }),
        s.call(api.customOrderRefund, { token: manager, body: { id: order.id, ticketNos: [tickets[0]!.ticketNo], reason: '来电退票', idempotencyKey: key() } }),
      ]);
      expect(await ledgerOf([order.id])).toHaveLength(1);
      expect((await stored(c.id)).sold).toBe(0);
    }
  });

  it('50 concurrent refunds of one ticket, with one key and with different keys: one refund, one ledger row, one audit row', async () => {
    for (const sameKey of [true, false]) {
      const { line } = await fixtureLine(f(), area);
      const c = await fixtureClass(f(), line, 2);
      const { order, tickets } = await fixturePaidOrder(f(), c);
      const k = key();
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => s.call(api.customOrderRefund, { token: manager, body: { id: order.id, ticketNos: [tickets[0]!.ticketNo], reason: '并发退票', idempotencyKey: sameKey ? k : key() } })),
      );
      const ok = answers.filter((a) => a.body.code === 1);
      if (sameKey) {
        expect(ok).toHaveLength(50);
        expect(ok.filter((a) => !a.body.data.replayed)).toHaveLength(1);
      } else {
        expect(ok).toHaveLength(1);
        expect(answers.filter((a) => a.body.code !== 1).every((a) => a.body.msg === '车票已退票')).toBe(true);
      }
      expect(await ledgerOf([order.id])).toHaveLength(1);
      expect(await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'TICKET_REFUND'), eq(t.sysLog.target, `custom-order/${order.id}`)))).toHaveLength(1);
    }
  });
});
