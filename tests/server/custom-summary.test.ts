import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/shared/api/custom-bus/demand';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import * as cb from '../../src/server/modules/custom-bus/schema';
import { DAY_MS, addDays, shanghaiDate } from '../../src/shared/domain/time';
import { type CustomFixture, fixtureClass, fixtureLine, fixturePaidOrder } from '../support/custom-bus-fixture';
import { exportThroughTask } from '../support/export-task';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/**
 * 定制汇总 against the real server: per line and Shanghai day of departure, the classes, seats, sales,
 * load, checks, no-shows, refunds (the ledger's 'custom' rows, per ticket) and revenue, on rows the
 * fixture writes as the rider side and the refunds would leave them; roles, scope, input, export.
 */
let s: TestServer;
let admin: string;
let manager: string;
let viewer: string;
let agent: string;
let xuhui: number;
let huangpu: number;
const pii = createPii(TEST_PII_KEY);
const db = () => s.database.db;
const f = (): CustomFixture => ({ db: db(), pii, now: s.clock.now() });

type Line = typeof cb.customLines.$inferSelect;
let line: Line;
let foreignLine: Line;
let past: string;
let future: string;

/** A ticket checked (验票) or refunded with its ledger row, as those parts leave it. */
async function check(ticketId: number) {
  await db().update(cb.customTickets).set({ state: 2, checkedAt: s.clock.now(), checkMethod: 2 }).where(eq(cb.customTickets.id, ticketId));
}
async function refund(ticket: typeof cb.customTickets.$inferSelect, order: typeof cb.customOrders.$inferSelect, amount: number) {
  await db().update(cb.customTickets).set({ state: 3, refundedAmount: amount, refundedAt: s.clock.now() }).where(eq(cb.customTickets.id, ticket.id));
  const key = `sum-${ticket.id}-${Math.random().toString(36).slice(2, 8)}`;
  await db().insert(t.moneyRefunds).values({ kind: 'custom', orderId: order.id, itemId: ticket.id, districtId: order.districtId, orderNo: order.orderNo, amount, reason: '乘客退票', idempotencyKey: key, outRefundNo: key, state: 1, createdAt: s.clock.now() });
}

beforeAll(async () => {
  s = await startTestServer();
  [admin, manager, viewer, agent] = (await Promise.all(['admin', 'manager', 'viewer', 'agent'].map((u) => s.login(u)))) as [string, string, string, string];
  const districts = await db().select().from(t.districts);
  xuhui = districts.find((d) => d.name === '徐汇区')!.id;
  huangpu = districts.find((d) => d.name === '黄浦区')!.id;
  ({ line } = await fixtureLine(f(), xuhui, { price: 1000, originalPrice: 1000, discountType: 1, discountPrice: null }));
  ({ line: foreignLine } = await fixtureLine(f(), huangpu));
  const today = shanghaiDate(s.clock.now());
  past = addDays(today, -3);
  future = addDays(today, 2);
  const opened = { saleOpenAt: new Date(s.clock.now().getTime() - 10 * DAY_MS) };
  // Three days ago: two classes (07:30 and 08:00) of 10 seats, departed; a cancelled one.
  const a = await fixtureClass(f(), line, -3, { ...opened, publish: 10, status: 3 });
  const b = await fixtureClass(f(), line, -3, { ...opened, publish: 10, status: 3, departTime: line.departTime + 1800 });
  const cancelled = await fixtureClass(f(), line, -3, { ...opened, publish: 10, status: 4, departTime: line.departTime + 3600 });
  // a: 6 tickets (3 orders of 2): 3 checked, 1 refunded 600 of 1000, 2 never came.
  const oa = [await fixturePaidOrder(f(), a, { seats: 2 }), await fixturePaidOrder(f(), a, { seats: 2 }), await fixturePaidOrder(f(), a, { seats: 2 })];
  await check(oa[0]!.tickets[0]!.id);
  await check(oa[0]!.tickets[1]!.id);
  await check(oa[1]!.tickets[0]!.id);
  await refund(oa[1]!.tickets[1]!, oa[1]!.order, 600);
  // b: 2 tickets, both checked.
  const ob = await fixturePaidOrder(f(), b, { seats: 2 });
  for (const tk of ob.tickets) await check(tk.id);
  // The cancelled class: 1 ticket refunded in full (its money moved, its seats are no seats).
  const oc = await fixturePaidOrder(f(), cancelled, { seats: 1 });
  await refund(oc.tickets[0]!, oc.order, 1000);
  // In two days: a class of 45 with 4 sold, not yet departed (no no-shows).
  const d = await fixtureClass(f(), line, 2);
  await fixturePaidOrder(f(), d, { seats: 4 });
  // The foreign district's line: a class with a sale.
  const e = await fixtureClass(f(), foreignLine, 2);
  await fixturePaidOrder(f(), e, { seats: 1 });
});
afterAll(() => s.close());

const page = (token: string, query: Record<string, string | number>) => s.call(api.customSummaryPage, { token, query });

describe('定制汇总: per line and day', () => {
  it('counts classes, seats, sold, load, checked, no-shows, refunds and revenue on the class’s day', async () => {
    const res = await page(manager, { lineId: line.id, startDate: past, endDate: future });
    expect(res.body.code).toBe(1);
    const rows = res.body.data.content;
    expect(rows.map((r) => r.day)).toEqual([future, past]);
    const [ahead, before] = rows as [api.CustomSummaryRow, api.CustomSummaryRow];
    expect(before).toMatchObject({
      lineId: line.id,
      lineNo: line.lineNo,
      classes: 2,
      seats: 20,
      // 6 + 2 + the cancelled class's 1.
      sold: 9,
      checked: 5,
      // a's 2 paid, never checked.
      noShows: 2,
      refunds: 2,
      refundAmount: 1600,
      revenue: 9 * 1000 - 1600,
    });
    // Kept seats (5 checked + 2 unchecked) of 20 issued.
    expect(before.loadRate).toBe(350);
    expect(ahead).toMatchObject({ classes: 1, seats: 45, sold: 4, checked: 0, noShows: 0, refunds: 0, revenue: 4 * line.price });
    expect(ahead.loadRate).toBe(Math.round((4 * 1000) / 45));
  });

  it('the total is the rows’ sum with the load over all seats', async () => {
    const q = { lineId: line.id, startDate: past, endDate: future };
    const total = (await s.call(api.customSummaryTotal, { token: manager, query: q })).body.data;
    expect(total).toMatchObject({ lines: 1, days: 2, classes: 3, seats: 65, sold: 13, checked: 5, noShows: 2, refunds: 2, refundAmount: 1600, revenue: 13 * 1000 - 1600 });
    expect(total.loadRate).toBe(Math.round((11 * 1000) / 65));
  });

  it('sorts by load and by revenue; pages', async () => {
    const q = { lineId: line.id, startDate: past, endDate: future };
    const byLoad = (await page(manager, { ...q, sort: 'loadRate,desc' })).body.data.content.map((r) => r.day);
    expect(byLoad).toEqual([past, future]);
    const byRevenue = (await page(manager, { ...q, sort: 'revenue,asc' })).body.data.content.map((r) => r.day);
    expect(byRevenue).toEqual([future, past]);
    const second = (await page(manager, { ...q, size: 1, page: 1 })).body.data;
    expect(second.totalElements).toBe(2);
    expect(second.content).toHaveLength(1);
    const beyond = (await page(manager, { ...q, size: 1, page: 5 })).body.data;
    expect(beyond).toMatchObject({ totalElements: 2, content: [] });
  });

  it('keeps to the district: the manager never sees the foreign line; the super user sees both', async () => {
    const mine = (await page(manager, { startDate: past, endDate: future, size: 1000 })).body.data.content;
    expect(mine.some((r) => r.lineId === foreignLine.id)).toBe(false);
    expect(mine.some((r) => r.lineId === line.id)).toBe(true);
    expect((await page(manager, { lineId: foreignLine.id, startDate: past, endDate: future })).body.data.totalElements).toBe(0);
    const all = (await page(admin, { startDate: past, endDate: future, size: 1000 })).body.data.content;
    expect(all.some((r) => r.lineId === foreignLine.id)).toBe(true);
  });

  it('without dates: the last 30 days to today (the future class is not in it)', async () => {
    const rows = (await page(manager, { lineId: line.id })).body.data.content;
    expect(rows.map((r) => r.day)).toEqual([past]);
  });

  it('refuses the viewer (no 定制公交 menu); the agent (客服坐席组 reads 定制公交) reads its district', async () => {
    expect((await page(viewer, {})).status).toBe(403);
    expect((await s.call(api.customSummaryTotal, { token: viewer })).status).toBe(403);
    expect((await s.call(api.customSummaryExport, { token: viewer })).status).toBe(403);
    const seen = (await page(agent, { startDate: past, endDate: future, size: 1000 })).body.data.content;
    expect(seen.some((r) => r.lineId === line.id)).toBe(true);
    expect(seen.some((r) => r.lineId === foreignLine.id)).toBe(false);
  });

  it('refuses bad ranges and malformed input in Chinese', async () => {
    const reversed = await page(manager, { startDate: future, endDate: past });
    expect(reversed.body).toMatchObject({ code: 0, msg: '开始日期不能晚于结束日期' });
    const long = await s.call(api.customSummaryTotal, { token: manager, query: { startDate: '2025-01-01', endDate: '2026-06-01' } });
    expect(long.body.msg).toBe('日期范围不能超过366天');
    for (const query of [{ startDate: '2026/01/01' }, { lineId: 'x' }, { sort: 'lineId,desc' }, { size: 5000 }] as Record<string, string | number>[]) {
      const res = await page(manager, query);
      expect(res.status).toBe(400);
      expect(res.body.msg).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('exports as a download-centre task with the rows the page shows, and logs it', async () => {
    const q = { lineId: line.id, startDate: past, endDate: future };
    const { sheet } = await exportThroughTask(s, api.customSummaryExport, manager, q);
    expect(sheet.rows[0]).toContain('上座率');
    const body = sheet.rows.slice(1);
    expect(body).toHaveLength(2);
    expect(body[1]!.map(String)).toEqual([past, line.lineNo, line.name, '2', '20', '9', '35.0%', '5', '2', '2', '16', '74']);
    const logs = await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'CUSTOM_EXPORT'), eq(t.sysLog.operatorLogin, 'manager')));
    expect(logs.length).toBeGreaterThan(0);
  });
});
