import { screen, waitFor, within } from '@testing-library/react';
import { and, count, desc, eq, gt, lte } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { type RequestLog, signIn } from '../support/request-log';
import { DEMO_PASSWORD, TEST_PII_KEY, type TestServer } from '../support/test-server';

/**
 * 订单退款 by amount against the real server, started with REFUND_PASSWORD_ABOVE at 50.00 元 (not
 * the default 200.00): the dialog asks for the password exactly when the server will, because it
 * learns the amount from the server. It names the amount, the card and the rider, masked.
 */
let s: TestServer;
let log: RequestLog;
clientSuite(
  (server, requests) => {
    s = server;
    log = requests;
  },
  { refundPasswordAboveFen: 5_000 },
);
const db = () => s.database.db;
const pii = createPii(TEST_PII_KEY);

/** A paid order of 徐汇区 nobody has refunded yet, above 50.00 元 or not, with its rider's phone in clear. */
async function paidOrder(big: boolean) {
  const [o] = await db()
    .select({ o: t.discountOrders, cardNo: t.busCards.cardNo, phoneEnc: t.riders.phoneEnc })
    .from(t.discountOrders)
    .innerJoin(t.districts, eq(t.districts.id, t.discountOrders.districtId))
    .innerJoin(t.busCards, eq(t.busCards.id, t.discountOrders.cardId))
    .innerJoin(t.riders, eq(t.riders.id, t.discountOrders.riderId))
    .where(and(eq(t.districts.name, '徐汇区'), eq(t.discountOrders.payStatus, 1), big ? gt(t.discountOrders.amount, 5_000) : lte(t.discountOrders.amount, 5_000)))
    .orderBy(desc(t.discountOrders.id))
    .limit(1);
  return { ...o!.o, cardNo: o!.cardNo, phone: pii.decrypt(o!.phoneEnc) };
}

const ledger = async (orderId: number) => (await db().select({ n: count() }).from(t.refunds).where(eq(t.refunds.orderId, orderId)))[0]!.n;
const yuan = (fen: number) => `${(fen / 100).toFixed(2)} 元`;

/** The palette's 订单退款 lands here: the refund dialog of that order, open at once. */
async function openRefund(orderNo: string) {
  await signIn(s, 'manager');
  visit(s, `/specialCode/special-code-list?orderNo=${orderNo}&action=refund`);
  const { user } = renderWithUser(<App />);
  const dialog = await screen.findByRole('dialog', { name: `订单退款 · ${orderNo}` }, { timeout: 5_000 });
  return { user, dialog };
}

describe('订单退款 above the server’s amount', () => {
  it('names the amount, card and masked rider, asks for the password in a password field, and refunds once with the right one', async () => {
    const order = await paidOrder(true);
    const { user, dialog } = await openRefund(order.orderNo);
    // The confirmation: amount, card, rider masked (never the number in clear).
    expect(within(dialog).getByText('退款金额').nextElementSibling?.textContent).toBe(yuan(order.amount));
    expect(within(dialog).getByText('卡号').nextElementSibling?.textContent).toBe(order.cardNo);
    expect(within(dialog).getByText('乘客').nextElementSibling?.textContent).toBe(`${order.phone.slice(0, 3)}****${order.phone.slice(7)}`);
    expect(dialog.textContent).not.toContain(order.phone);
    const reason = within(dialog).getByLabelText(/退款原因/);
    expect(document.activeElement).toBe(reason);
    const pwd = await within(dialog).findByLabelText(/您的登录密码/);
    expect([pwd.getAttribute('type'), pwd.getAttribute('autocomplete')]).toEqual(['password', 'current-password']);
    expect(within(dialog).getByText(/金额超过 50\.00 元，需验证登录密码/)).toBeTruthy();

    // Enter without the password: said under the field, which takes focus; nothing sent.
    await user.type(reason, '乘客申请退款{Enter}');
    expect(await within(dialog).findByText('退款金额超过 50.00 元，请输入您的登录密码')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(pwd));
    expect(log.to('/busDiscountCardOrder/refund', 'POST')).toEqual([]);

    // A wrong one: the server's refusal under the field; nothing refunded, the attempt counted.
    await user.keyboard('Wrong-pass-9{Enter}');
    expect(await within(dialog).findByText('登录密码错误')).toBeTruthy();
    expect(await ledger(order.id)).toBe(0);
    expect((await db().select().from(t.users).where(eq(t.users.login, 'manager')))[0]!.failedCount).toBeGreaterThan(0);

    // The right one typed over the wrong one (left selected), Enter: refunded once.
    await waitFor(() => expect([document.activeElement, (pwd as HTMLInputElement).selectionStart, (pwd as HTMLInputElement).selectionEnd]).toEqual([pwd, 0, 'Wrong-pass-9'.length]));
    await user.keyboard(`${DEMO_PASSWORD}{Enter}`);
    expect(await screen.findByText(new RegExp(`订单 ${order.orderNo} 已退款 ${(order.amount / 100).toFixed(2)} 元`))).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: `订单退款 · ${order.orderNo}` })).toBeNull());
    expect(await ledger(order.id)).toBe(1);
    expect((await db().select().from(t.discountOrders).where(eq(t.discountOrders.id, order.id)))[0]!.payStatus).toBe(2);
  });

  it('at or below it: the amount and rider are named, no password is asked, a reason and Enter refund', async () => {
    const order = await paidOrder(false);
    const { user, dialog } = await openRefund(order.orderNo);
    expect(within(dialog).getByText('退款金额').nextElementSibling?.textContent).toBe(yuan(order.amount));
    expect(within(dialog).getByText('乘客').nextElementSibling?.textContent).toMatch(/^1\d{2}\*{4}\d{4}$/);
    // The rule has arrived (the request was answered) and still no password field.
    await waitFor(() => expect(log.to('/busDiscountCardOrder/refundRule', 'GET')).toHaveLength(1));
    expect(within(dialog).queryByLabelText(/您的登录密码/)).toBeNull();
    await user.type(within(dialog).getByLabelText(/退款原因/), '乘客申请退款{Enter}');
    expect(await screen.findByText(new RegExp(`订单 ${order.orderNo} 已退款`))).toBeTruthy();
    expect(await ledger(order.id)).toBe(1);
  });

  it('before the rule has arrived, the server’s refusal brings the password field, which stays while typed', async () => {
    const order = await paidOrder(true);
    // Outside the product: a slow network holds the rule's answer until the end of the test.
    const realFetch = globalThis.fetch;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      if (String(input instanceof Request ? input.url : input).includes('/refundRule')) await held;
      return realFetch(input, init);
    });
    try {
      const { user, dialog } = await openRefund(order.orderNo);
      expect(within(dialog).queryByLabelText(/您的登录密码/)).toBeNull();
      await user.type(within(dialog).getByLabelText(/退款原因/), '乘客申请退款{Enter}');
      const pwd = await within(dialog).findByLabelText(/您的登录密码/);
      expect(within(dialog).getByText(`退款金额 ${yuan(order.amount)}超过 50.00 元，请输入您的登录密码`)).toBeTruthy();
      await waitFor(() => expect(document.activeElement).toBe(pwd));
      await user.keyboard(DEMO_PASSWORD);
      expect(within(dialog).getByLabelText(/您的登录密码/)).toBe(pwd);
      await user.keyboard('{Enter}');
      expect(await screen.findByText(new RegExp(`订单 ${order.orderNo} 已退款`))).toBeTruthy();
      expect(await ledger(order.id)).toBe(1);
    } finally {
      release();
    }
  });

  it('Esc closes the dialog and refunds nothing', async () => {
    const order = await paidOrder(true);
    const { user } = await openRefund(order.orderNo);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: `订单退款 · ${order.orderNo}` })).toBeNull());
    expect(await ledger(order.id)).toBe(0);
  });
});
