import { screen, waitFor, within } from '@testing-library/react';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import type { AppDeps } from '../../src/server/context';
import { cardLoaded } from '../../src/server/modules/recharge/rider-side';
import { packageOrders } from '../../src/server/modules/package-pay/schema';
import { rechargeOrders } from '../../src/server/modules/recharge/schema';
import { moneyCard, topUpWallet } from '../support/money-card';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/**
 * 卡片详情's money against the real server (issue 22): the holder's wallet, packages and the card's
 * NFC top-ups, each with the actions the account may do, and the palette's 储值退款 / 套餐退款 / 补查.
 */
let s: TestServer;
clientSuite((server) => {
  s = server;
});
const db = () => s.database.db;

async function cardViewAs(login: string, cardNo: string, action?: string) {
  await signIn(s, login);
  visit(s, `/busUser/card?no=${cardNo}${action ? `&action=${action}` : ''}`);
  const { user } = renderWithUser(<App />);
  const main = await screen.findByRole('main', {}, { timeout: 5_000 });
  await within(main).findByText(`卡片详情 · ${cardNo}`, {}, { timeout: 8_000 });
  return { user, main };
}

async function paletteAs(login: string) {
  await signIn(s, login);
  visit(s, '/');
  const { user } = renderWithUser(<App />);
  await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
  await user.keyboard('{Control>}k{/Control}');
  return { user, dialog: await screen.findByRole('dialog', { name: '命令面板' }, { timeout: 8_000 }) };
}

/** Tab on the highlighted card: its action panel's labels (each option's text up to its key hint). */
async function actionsOf(user: Awaited<ReturnType<typeof paletteAs>>['user'], dialog: HTMLElement, cardNo: string) {
  await user.keyboard('{Tab}');
  const group = await within(dialog).findByRole('group', { name: `查询卡片 ${cardNo} · 操作` }, { timeout: 5_000 });
  return within(group).getAllByRole('option').map((o) => (o.textContent ?? '').replace(/(打开页面|可撤销|先确认|打开对话框|需要选择|Alt\+).*$/, '').trim());
}

describe('卡片详情: the card’s money', () => {
  it('shows the wallet (principal, gift, status), the package with its rides left and the top-ups with their write state; 补查 runs from the keyboard and the server stores it', async () => {
    const m = await moneyCard(s);
    // The card centre has the load the phone never confirmed: 补查 settles it as 写卡成功.
    await cardLoaded({ db: db(), clock: s.clock } as unknown as AppDeps, m.writing.id, { txnSeq: String(800_000 + m.writing.id), tac: '1234ABCD' });
    const { user, main } = await cardViewAs('manager', m.card.cardNo);
    const wallet = within(main).getByRole('region', { name: '储值钱包' });
    expect(wallet.textContent).toContain('本金200.00 元');
    expect(wallet.textContent).toContain('赠送0.00 元');
    expect(wallet.textContent).toContain('正常');
    expect(within(wallet).getByRole('button', { name: `储值退款 ${m.walletOrder.orderNo}` })).toBeTruthy();
    const packages = within(main).getByRole('region', { name: '套餐' });
    expect(packages.textContent).toContain('卡片详情套餐');
    expect(packages.textContent).toContain('10 / 10 次');
    expect(packages.textContent).toContain('生效中');
    const topUps = within(main).getByRole('region', { name: 'NFC充值' });
    expect(within(topUps).getByText('写卡中')).toBeTruthy();
    expect(within(topUps).getByText('写卡成功')).toBeTruthy();
    // axe (jsdom: structure, names, roles; contrast is the browser a11y walk's) finds nothing serious.
    const axe = (await import('axe-core')).default;
    const found = await axe.run(main, { resultTypes: ['violations'], rules: { 'color-contrast': { enabled: false } } });
    expect(found.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([]);
    // 补查 only on the open write.
    expect(within(topUps).queryByRole('button', { name: `补查 ${m.written.orderNo}` })).toBeNull();
    const requery = within(topUps).getByRole('button', { name: `补查 ${m.writing.orderNo}` });
    requery.focus();
    expect(document.activeElement).toBe(requery);
    await user.keyboard('{Enter}');
    expect(await screen.findByText(new RegExp(`补查 ${m.writing.orderNo}：`), {}, { timeout: 8_000 })).toBeTruthy();
    await waitFor(async () => expect((await db().select().from(rechargeOrders).where(eq(rechargeOrders.id, m.writing.id)))[0]!.writeState).toBe(2));
    // The view reloads: both written, no 补查 left.
    await waitFor(() => expect(within(main.querySelector('[aria-label="NFC充值"]') as HTMLElement).getAllByText('写卡成功')).toHaveLength(2), { timeout: 8_000 });
    expect(within(main).queryByRole('button', { name: /^补查 / })).toBeNull();
  });

  it('储值退款 opens the wallet module’s own refund of that order', async () => {
    const m = await moneyCard(s);
    const { user, main } = await cardViewAs('manager', m.card.cardNo);
    const button = within(main).getByRole('button', { name: `储值退款 ${m.walletOrder.orderNo}` });
    button.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: `储值退款 · ${m.walletOrder.orderNo}` }, { timeout: 8_000 })).toBeTruthy();
    expect(window.location.pathname).toBe('/rechargeable/recharge-order');
  });

  it('a palette landing with several refundable orders focuses the newest one’s 储值退款 to choose, and says how many', async () => {
    const m = await moneyCard(s);
    const second = await topUpWallet(s, m.riderId, 10_000);
    const { main } = await cardViewAs('manager', m.card.cardNo, 'walletRefund');
    expect(await screen.findByText('有 2 笔可退款的储值订单，请选择一笔', {}, { timeout: 8_000 })).toBeTruthy();
    // Newest first: the second top-up's button holds the focus, visibly (the button's focus-visible outline).
    await waitFor(() => expect(document.activeElement).toBe(within(main).getByRole('button', { name: `储值退款 ${second.orderNo}` })));
    expect(document.activeElement!.className).toContain('focus-visible:outline-2');
    expect(window.location.search).toBe(`?no=${m.card.cardNo}`);
  });

  it('the agent’s landing on 套餐退款 (an address typed or kept) is refused in words, nothing opened', async () => {
    const m = await moneyCard(s);
    await cardViewAs('agent', m.card.cardNo, 'packageRefund');
    expect(await screen.findByText('当前用户没有套餐退款的权限', {}, { timeout: 8_000 })).toBeTruthy();
    expect(window.location.pathname).toBe('/busUser/card');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('the agent (reads, no refunds) sees the wallet, the packages and the top-ups, with no 退款 or 补查 to press', async () => {
    const m = await moneyCard(s);
    const { main } = await cardViewAs('agent', m.card.cardNo);
    const wallet = within(main).getByRole('region', { name: '储值钱包' });
    expect(wallet.textContent).toContain('本金200.00 元');
    expect(within(wallet).queryByRole('button', { name: /储值退款/ })).toBeNull();
    expect(within(main).getByRole('region', { name: '套餐' })).toBeTruthy();
    expect(within(main).getByRole('region', { name: 'NFC充值' })).toBeTruthy();
    expect(within(main).queryByRole('button', { name: /套餐退款|补查/ })).toBeNull();
  });
});

describe('the palette’s card actions: 储值退款, 套餐退款, 补查', () => {
  it('the manager is offered all three; Alt+T opens 套餐订单详情 with the package module’s refund', async () => {
    const m = await moneyCard(s);
    const { user, dialog } = await paletteAs('manager');
    await user.keyboard(m.card.cardNo);
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain(`查询卡片 ${m.card.cardNo}`));
    // The row shows its first hints; Tab shows every action the account may do on the card.
    expect(await actionsOf(user, dialog, m.card.cardNo)).toEqual(expect.arrayContaining(['储值退款', '套餐退款', '补查']));
    await user.keyboard('{Escape}');
    await user.keyboard('{Alt>}t{/Alt}');
    const [po] = await db().select().from(packageOrders).where(eq(packageOrders.id, m.packageOrderId));
    expect(await screen.findByRole('dialog', { name: `套餐退款 · ${po!.orderNo}` }, { timeout: 10_000 })).toBeTruthy();
    expect(window.location.pathname).toBe('/packagePay/package-order-detail');
  });

  it('Alt+B on a card with one open write runs 补查 at once and says what the centre answered', async () => {
    const m = await moneyCard(s);
    const { user, dialog } = await paletteAs('manager');
    await user.keyboard(m.card.cardNo);
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain(`查询卡片 ${m.card.cardNo}`));
    await user.keyboard('{Alt>}b{/Alt}');
    expect(await screen.findByText(new RegExp(`补查 ${m.writing.orderNo}：`), {}, { timeout: 10_000 })).toBeTruthy();
    expect(window.location.pathname).toBe('/busUser/card');
  });

  it('the agent is offered none of them (no refund or 补查 key)', async () => {
    const m = await moneyCard(s);
    const { user, dialog } = await paletteAs('agent');
    await user.keyboard(m.card.cardNo);
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain(`查询卡片 ${m.card.cardNo}`));
    const labels = await actionsOf(user, dialog, m.card.cardNo);
    expect(labels).toContain('查看实名信息');
    for (const label of ['储值退款', '套餐退款', '补查']) expect(labels).not.toContain(label);
  });
});
