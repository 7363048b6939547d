import { screen, waitFor, within } from '@testing-library/react';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { customClasses, customTickets } from '../../src/server/modules/custom-bus/schema';
import { type CustomFixture, fixtureClass, fixtureLine, fixturePaidOrder } from '../support/custom-bus-fixture';
import { openPalette } from '../support/palette-client';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import { TEST_PII_KEY, type TestServer } from '../support/test-server';

/** 订单记录 and 订单详情 on the real server: what the screens show of real rows, and what the server stored after the keys. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const db = () => s.database.db;
const pii = createPii(TEST_PII_KEY);

async function paidOrder(seats = 2, daysAhead = 3) {
  const [xuhui] = await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
  const f: CustomFixture = { db: db(), pii, now: s.clock.now() };
  const { line } = await fixtureLine(f, xuhui!.id);
  const c = await fixtureClass(f, line, daysAhead);
  return { ...(await fixturePaidOrder(f, c, { seats })), classes: c, line };
}
const ledger = (orderId: number) => db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'custom'), eq(t.moneyRefunds.orderId, orderId)));

describe('订单记录', () => {
  it('lists the order with the summary line; Enter opens the detail with its tickets and the ladder', async () => {
    const { order, line } = await paidOrder();
    await signIn(s, 'manager');
    visit(s, `/customBus/order-record?orderNo=${order.orderNo}`);
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const table = await within(main).findByRole('table', { name: '定制订单列表' }, { timeout: 5_000 });
    const row = await waitFor(
      () => {
        const found = within(table)
          .getAllByRole('row')
          .find((r) => r.textContent?.includes(order.orderNo));
        expect(found).toBeTruthy();
        return found!;
      },
      { timeout: 5_000 },
    );
    expect(row.textContent).toContain(line.lineNo);
    expect(row.textContent).toContain('24.00');
    const summary = await screen.findByLabelText('定制订单合计');
    await waitFor(() => expect(summary.textContent).toMatch(/^共 1 笔 2 张票，实收 24\.00 元/));
    row.focus();
    await user.keyboard('{Enter}');
    const tickets = await screen.findByRole('region', { name: '车票' }, { timeout: 5_000 });
    expect(tickets.textContent).toContain(`${order.orderNo}-1`);
    expect(tickets.textContent).toContain('已支付');
    expect((await screen.findByRole('region', { name: '退款规则' })).textContent).toContain('不可退票');
  });
});

describe('the keyboard task: refund a ticket during a call', () => {
  it('Ctrl+K 定制退票, the order number, Enter: the detail with 退票 open; reason, the amount retyped, Enter; one ledger row', async () => {
    const { order, tickets, classes } = await paidOrder(2, 3);
    await signIn(s, 'manager');
    visit(s, '/customBus/order-record');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    const { dialog } = await openPalette(user);
    await user.keyboard('定制退票');
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain('定制退票'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    await user.keyboard(order.orderNo);
    await user.keyboard('{Enter}');
    const refund = await screen.findByRole('dialog', { name: `定制退票 · ${order.orderNo}` }, { timeout: 8_000 });
    expect(window.location.pathname).toBe('/customBus/order-detail');
    expect(refund.textContent).toContain('应退合计：12.00 元（1 张）');
    await user.type(within(refund).getByLabelText(/退票原因/), '乘客来电退票');
    // A wrong retyped amount is refused in the dialog; nothing is sent.
    await user.type(within(refund).getByLabelText(/确认金额/), '15');
    await user.keyboard('{Enter}');
    expect(await within(refund).findByText('退款金额应为 12.00 元')).toBeTruthy();
    expect(await ledger(order.id)).toHaveLength(0);
    await user.clear(within(refund).getByLabelText(/确认金额/));
    await user.type(within(refund).getByLabelText(/确认金额/), '12.00{Enter}');
    expect(await screen.findByText(`订单 ${order.orderNo} 已退票 1 张，退款 12.00 元`, {}, { timeout: 5_000 })).toBeTruthy();
    const rows = await ledger(order.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount: 1200, itemId: tickets[0]!.id, reason: '乘客来电退票' });
    expect((await db().select().from(customTickets).where(eq(customTickets.id, tickets[0]!.id)))[0]!.state).toBe(3);
    expect((await db().select().from(customClasses).where(eq(customClasses.id, classes.id)))[0]!.sold).toBe(1);
  });
});
