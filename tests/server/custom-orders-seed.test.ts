import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { SeedContext } from '../../src/server/db/seed/context';
import { createPii } from '../../src/server/lib/pii';
import { seedOrders } from '../../src/server/modules/custom-bus/orders-seed';
import { customClasses, customOrders, customTickets } from '../../src/server/modules/custom-bus/schema';
import { refundQuote } from '../../src/shared/custom/refund-ladder';
import { DAY } from '../support/clock';
import { type CustomFixture, fixtureCar, fixtureClass, fixtureLadder, fixtureLine } from '../support/custom-bus-fixture';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';
import { customRefundRules } from '../../src/server/modules/custom-setting/schema';

/**
 * The orders seed on classes of the test's own (the classes part seeds them in the demo): sold 60–95%,
 * seats consistent, past classes checked but for ~3% no-shows, refunds by the order's ladder with one
 * ledger row each, cancelled classes refunded in full, 月票 on every class of their month.
 */
let s: TestServer;
let area: number;
let classIds: number[];
const db = () => s.database.db;
const pii = createPii(TEST_PII_KEY);

beforeAll(async () => {
  s = await startTestServer();
  area = (await db().select().from(t.districts)).find((d) => d.name === '徐汇区')!.id;
  const f: CustomFixture = { db: db(), pii, now: s.clock.now() };
  await fixtureLadder(f, area);
  const car = await fixtureCar(f, area);
  const { line } = await fixtureLine(f, area);
  classIds = [];
  for (let d = -45; d <= 10; d++) {
    const past = d < 0;
    const c = await fixtureClass(f, line, d, { status: past ? 3 : d > 7 ? 0 : 1, carId: car.id, saleOpenAt: new Date(s.clock.now().getTime() + (d > 7 ? DAY : -50 * DAY)), saleCloseAt: new Date(s.clock.now().getTime() + (d - 1) * DAY + 2 * DAY) });
    classIds.push(c.id);
  }
  await db().update(customClasses).set({ status: 4, cancelReason: '车辆故障', cancelledAt: s.clock.now() }).where(inArray(customClasses.id, classIds.slice(-10, -8)));
  const started = Date.now();
  await seedOrders({ db: db(), now: s.clock.now(), pii } as unknown as SeedContext);
  expect(Date.now() - started).toBeLessThan(20_000);
});
afterAll(() => s.close());

describe('the orders seed', () => {
  it('sells 60–95% of every open class; seats add up; nothing on a class not yet on sale', async () => {
    const classes = await db().select().from(customClasses).where(inArray(customClasses.id, classIds));
    for (const c of classes) {
      expect(c.stock + c.held + c.sold).toBe(c.publish);
      const tickets = await db().select().from(customTickets).where(eq(customTickets.classesId, c.id));
      if (c.status === 0) {
        expect(tickets).toHaveLength(0);
        continue;
      }
      expect(tickets.length / c.publish).toBeGreaterThanOrEqual(0.58);
      expect(tickets.length / c.publish).toBeLessThanOrEqual(0.96);
      expect(c.sold).toBe(tickets.filter((x) => x.state === 1 || x.state === 2).length);
      if (c.status === 4) expect(tickets.every((x) => x.state === 3 && x.refundedAmount === x.amount)).toBe(true);
    }
  });

  it('past classes are checked but for a few no-shows; future tickets are paid', async () => {
    const rows = await db()
      .select({ state: customTickets.state, departAt: customClasses.departAt, checkedAt: customTickets.checkedAt, plate: customTickets.checkPlateNo })
      .from(customTickets)
      .innerJoin(customClasses, eq(customClasses.id, customTickets.classesId))
      .where(inArray(customTickets.classesId, classIds));
    const now = s.clock.now().getTime();
    const past = rows.filter((r) => r.departAt.getTime() < now && r.state !== 3);
    const noShow = past.filter((r) => r.state === 1).length / past.length;
    expect(noShow).toBeGreaterThan(0.005);
    expect(noShow).toBeLessThan(0.08);
    expect(past.filter((r) => r.state === 2).every((r) => r.checkedAt && r.plate)).toBe(true);
    expect(rows.filter((r) => r.departAt.getTime() > now).every((r) => r.state === 1 || r.state === 3)).toBe(true);
  });

  it('every refunded ticket has one ledger row; rider refunds follow the order’s ladder; orders add up', async () => {
    const refunded = await db()
      .select({ x: customTickets, o: customOrders, departAt: customClasses.departAt, status: customClasses.status })
      .from(customTickets)
      .innerJoin(customOrders, eq(customOrders.id, customTickets.orderId))
      .innerJoin(customClasses, eq(customClasses.id, customTickets.classesId))
      .where(and(inArray(customTickets.classesId, classIds), eq(customTickets.state, 3)));
    expect(refunded.length).toBeGreaterThan(0);
    const ledger = await db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'custom'), inArray(t.moneyRefunds.itemId, refunded.map((r) => r.x.id))));
    expect(ledger).toHaveLength(refunded.length);
    const fees = new Set<number>();
    for (const r of refunded.filter((r) => r.status !== 4)) {
      const [rule] = await db().select().from(customRefundRules).where(eq(customRefundRules.id, r.o.ruleVersionId!));
      const q = refundQuote(rule!.rows, r.x.amount, (r.departAt.getTime() - r.x.refundedAt!.getTime()) / 60_000);
      expect(q.refundable).toBe(true);
      expect(r.x.refundedAmount).toBe(q.refund);
      fees.add(q.row!.feeRate);
    }
    expect(fees.size).toBeGreaterThanOrEqual(2);
    const orders = await db().select().from(customOrders).where(eq(customOrders.lineId, (await db().select().from(customClasses).where(eq(customClasses.id, classIds[0]!)))[0]!.lineId));
    expect(orders.some((o) => o.ticketType === 2)).toBe(true);
    const [bad] = await db().execute(sql`select count(*)::int as n from custom_orders o where o.amount <> (select sum(amount) from custom_tickets x where x.order_id = o.id)
      or o.refunded_amount <> (select sum(refunded_amount) from custom_tickets x where x.order_id = o.id)`).then((r) => (r as unknown as { rows: { n: number }[] }).rows);
    expect(bad!.n).toBe(0);
  });
});
