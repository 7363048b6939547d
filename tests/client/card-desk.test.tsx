import { screen, waitFor, within } from '@testing-library/react';
import { and, desc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { clientSuite, renderWithUser, visit, warmPalette } from '../support/render';
import { signIn } from '../support/request-log';
import { TEST_PII_KEY, type TestServer } from '../support/test-server';

/** The call-centre desk against the real server: from the palette to the card view, and its actions. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});
const db = () => s.database.db;
const pii = createPii(TEST_PII_KEY);

/** Signed in as `login` on `path`, the layout up, then Ctrl+K: the palette dialog, ready for keys. */
async function paletteAs(login: string, path = '/') {
  await signIn(s, login);
  visit(s, path);
  const { user } = renderWithUser(<App />);
  await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
  await user.keyboard('{Control>}k{/Control}');
  // The palette's code is fetched on the first Ctrl+K of a file: more than a second on a busy run.
  return { user, dialog: await screen.findByRole('dialog', { name: '命令面板' }, { timeout: 8_000 }) };
}

async function xuhuiCard(opts: { held?: boolean } = {}) {
  const [d] = await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
  const [c] = await db().select().from(t.busCards).where(and(eq(t.busCards.districtId, d!.id), opts.held ? isNotNull(t.busCards.riderId) : undefined)).limit(1);
  return c!;
}

describe('卡片详情', () => {
  it('a card number typed into the palette opens the card view: state, category, holder masked', async () => {
    const c = await xuhuiCard({ held: true });
    const { user, dialog } = await paletteAs('agent');
    await user.keyboard(c.cardNo);
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain(`查询卡片 ${c.cardNo}`));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(window.location.pathname + window.location.search).toBe(`/busUser/card?no=${c.cardNo}`));
    const main = screen.getByRole('main');
    expect(await within(main).findByText(`卡片详情 · ${c.cardNo}`, {}, { timeout: 5_000 })).toBeTruthy();
    const [holder] = await db().select().from(t.riders).where(eq(t.riders.id, c.riderId!));
    const phone = pii.decrypt(holder!.phoneEnc);
    expect(within(main).getByText(`${phone.slice(0, 3)}****${phone.slice(7)}`)).toBeTruthy();
    expect(main.textContent).not.toContain(phone);
  });

  it('a typed card offers its actions at once: Alt+U opens 解绑亲情卡 on its card view; a card without a binding says so', async () => {
    const [d] = await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
    const [bound] = await db()
      .select({ cardNo: t.busCards.cardNo })
      .from(t.familyBindings)
      .innerJoin(t.busCards, eq(t.busCards.id, t.familyBindings.cardId))
      .where(and(eq(t.familyBindings.districtId, d!.id), eq(t.familyBindings.status, 1)))
      .limit(1);
    const { user, dialog } = await paletteAs('agent');
    await user.keyboard(bound!.cardNo);
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain('Alt+U 解绑亲情卡'));
    await user.keyboard('{Alt>}u{/Alt}');
    const unbind = await screen.findByRole('dialog', { name: `解绑亲情卡 · ${bound!.cardNo}` }, { timeout: 8_000 });
    expect(window.location.pathname).toBe('/busUser/card');
    expect(unbind).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: `解绑亲情卡 · ${bound!.cardNo}` })).toBeNull());

    const [free] = await db()
      .select({ cardNo: t.busCards.cardNo })
      .from(t.busCards)
      .where(and(eq(t.busCards.districtId, d!.id), sql`not exists (select 1 from ${t.familyBindings} b where b.card_id = ${t.busCards.id} and b.status = 1)`))
      .limit(1);
    await user.keyboard('{Control>}k{/Control}');
    const again = await screen.findByRole('dialog', { name: '命令面板' });
    await user.keyboard(free!.cardNo);
    await waitFor(() => expect(within(again).getAllByRole('option')[0]!.textContent).toContain('Alt+U 解绑亲情卡'));
    await user.keyboard('{Alt>}u{/Alt}');
    expect(await screen.findByText(`卡片 ${free!.cardNo} 没有绑定中的亲情卡，无需解绑`, {}, { timeout: 8_000 })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: `解绑亲情卡 · ${free!.cardNo}` })).toBeNull();
  });

  it('a card number typed or pasted where no field takes it opens the palette with it: Enter opens the card', async () => {
    const c = await xuhuiCard({ held: true });
    await signIn(s, 'agent');
    visit(s, '/');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    // Its code here, as it is moments after the console shows (index.html keeps the keys before that).
    await warmPalette(user);
    await user.keyboard(c.cardNo);
    const dialog = await screen.findByRole('dialog', { name: '命令面板' });
    expect((within(dialog).getByRole('combobox') as HTMLInputElement).value).toBe(c.cardNo);
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain(`查询卡片 ${c.cardNo}`));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull());

    (document.getElementById('main') as HTMLElement).focus();
    await user.paste(` ${c.cardNo} `);
    const again = await screen.findByRole('dialog', { name: '命令面板' });
    expect((within(again).getByRole('combobox') as HTMLInputElement).value).toBe(c.cardNo);
    await waitFor(() => expect(within(again).getAllByRole('option')[0]!.textContent).toContain(`查询卡片 ${c.cardNo}`));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(window.location.pathname + window.location.search).toBe(`/busUser/card?no=${c.cardNo}`));
  });

  it('a phone number opens its rider\'s card through memory, never the address', async () => {
    const c = await xuhuiCard({ held: true });
    const [holder] = await db().select().from(t.riders).where(eq(t.riders.id, c.riderId!));
    const cards = await db().select().from(t.busCards).where(eq(t.busCards.riderId, holder!.id));
    const phone = pii.decrypt(holder!.phoneEnc);
    const { user } = await paletteAs('agent');
    await user.keyboard(`${phone.slice(0, 3)} ${phone.slice(3, 7)} ${phone.slice(7)}{Enter}`);
    await waitFor(() => expect(window.location.pathname).toBe('/busUser/card'));
    if (cards.length === 1) await waitFor(() => expect(window.location.search).toBe(`?no=${cards[0]!.cardNo}`), { timeout: 5_000 });
    else expect(await screen.findByRole('list', { name: '查到的卡片' }, { timeout: 5_000 })).toBeTruthy();
    expect(window.location.href).not.toContain(phone);
  });

  it('a card of another district says which, without a toast, and offers from the keyboard the way back and the palette again', async () => {
    const [foreign] = await db()
      .select({ cardNo: t.busCards.cardNo, districtName: t.districts.name })
      .from(t.busCards)
      .innerJoin(t.districts, eq(t.districts.id, t.busCards.districtId))
      .where(sql`${t.districts.name} <> '徐汇区'`)
      .limit(1);
    const { user, dialog } = await paletteAs('agent', '/busUser/bus-user');
    await user.keyboard(foreign!.cardNo);
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain(`查询卡片 ${foreign!.cardNo}`));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(window.location.pathname + window.location.search).toBe(`/busUser/card?no=${foreign!.cardNo}`));
    const main = screen.getByRole('main');
    const said = await within(main).findByRole('alert', {}, { timeout: 5_000 });
    expect(said.textContent).toBe(`该卡属于 ${foreign!.districtName}，当前账号无权查看`);
    expect(screen.queryByText(/当前用户没有权限操作/)).toBeNull();

    // After the navigation the hands are on the main region; Tab reaches the way on.
    await waitFor(() => expect(document.activeElement).toBe(main));
    await user.tab();
    expect(document.activeElement).toBe(within(main).getByRole('button', { name: '返回上一页' }));
    await user.tab();
    expect(document.activeElement).toBe(within(main).getByRole('button', { name: /重新查询/ }));
    await user.keyboard('{Enter}');
    const again = await screen.findByRole('dialog', { name: '命令面板' });
    await waitFor(() => expect(document.activeElement).toBe(within(again).getByRole('combobox')));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull());
  });

  it('the manager refunds a paid order from the card view, once', async () => {
    const [order] = await db()
      .select({ o: t.discountOrders, cardNo: t.busCards.cardNo })
      .from(t.discountOrders)
      .innerJoin(t.busCards, eq(t.busCards.id, t.discountOrders.cardId))
      .innerJoin(t.districts, eq(t.districts.id, t.discountOrders.districtId))
      // At most the amount that asks for a password: a reason alone refunds it.
      .where(and(eq(t.discountOrders.payStatus, 1), eq(t.districts.name, '徐汇区'), lte(t.discountOrders.amount, s.config.refundPasswordAboveFen)))
      .limit(1);
    await signIn(s, 'manager');
    visit(s, `/busUser/card?no=${order!.cardNo}`);
    const { user } = renderWithUser(<App />);
    await user.click(await screen.findByRole('button', { name: `退款 ${order!.o.orderNo}` }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog', { name: `订单退款 · ${order!.o.orderNo}` });
    await user.type(within(dialog).getByLabelText(/退款原因/), '乘客申请退款{Enter}');
    expect(await screen.findByText(new RegExp(`订单 ${order!.o.orderNo} 已退款`))).toBeTruthy();
    const [stored] = await db().select().from(t.discountOrders).where(eq(t.discountOrders.id, order!.o.id));
    expect(stored!.payStatus).toBe(2);
    await waitFor(() => expect(screen.queryByRole('button', { name: `退款 ${order!.o.orderNo}` })).toBeNull());
  });
});

describe('异常用户: 处理异常 (ycOrder)', () => {
  it('the agent clears an abnormal rider with a note: Enter on the row, the note, Enter; the row leaves the list', async () => {
    const [d] = await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
    const [r] = await db().select().from(t.riders).where(and(eq(t.riders.districtId, d!.id), eq(t.riders.state, 0))).limit(1);
    const phone = pii.decrypt(r!.phoneEnc);
    const masked = `${phone.slice(0, 3)}****${phone.slice(7)}`;
    await signIn(s, 'agent');
    visit(s, '/busUser/yc-user');
    const { user } = renderWithUser(<App />);
    await user.click(await screen.findByRole('button', { name: `处理异常 ${masked}` }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog', { name: `处理异常 · ${masked}` });
    expect(within(dialog).getByText(`异常原因：${r!.abnormalReason}`)).toBeTruthy();
    await user.type(within(dialog).getByLabelText(/处理说明/), '好{Enter}');
    expect(await within(dialog).findByText('处理说明至少4个字')).toBeTruthy();
    expect((await db().select().from(t.riders).where(eq(t.riders.id, r!.id)))[0]!.state).toBe(0);
    await user.type(within(dialog).getByLabelText(/处理说明/), '已电话核实本人{Enter}');
    expect(await screen.findByText(`乘客 ${masked} 已恢复正常`)).toBeTruthy();
    expect((await db().select().from(t.riders).where(eq(t.riders.id, r!.id)))[0]).toMatchObject({ state: 1, abnormalReason: null });
    await waitFor(() => expect(screen.queryByRole('button', { name: `处理异常 ${masked}` })).toBeNull());
  });

  it('乘客用户 offers no 处理异常: the action belongs to the abnormal list', async () => {
    await signIn(s, 'agent');
    visit(s, '/busUser/bus-user');
    renderWithUser(<App />);
    expect((await screen.findAllByRole('button', { name: /^查看实名信息 / }, { timeout: 5_000 })).length).toBeGreaterThan(0);
    expect(screen.queryAllByRole('button', { name: /^处理异常 / })).toHaveLength(0);
  });
});

describe('卡片列表', () => {
  it('finds cards by a number prefix; a card number opens 卡片详情', async () => {
    const c = await xuhuiCard();
    await signIn(s, 'agent');
    visit(s, '/handleCard/card-list');
    const { user } = renderWithUser(<App />);
    const input = await screen.findByLabelText('卡号', {}, { timeout: 5_000 });
    await user.type(input, `${c.cardNo.slice(0, 14)}{Enter}`);
    const link = await screen.findByRole('link', { name: `卡片详情 ${c.cardNo}` }, { timeout: 5_000 });
    await user.click(link);
    await waitFor(() => expect(window.location.pathname + window.location.search).toBe(`/busUser/card?no=${c.cardNo}`));
    expect(await screen.findByText(`卡片详情 · ${c.cardNo}`, {}, { timeout: 5_000 })).toBeTruthy();
  });
});

describe('the desk\'s palette commands', () => {
  it('查看实名信息 takes a card number and opens the holder\'s reveal dialog on the card view', async () => {
    const c = await xuhuiCard({ held: true });
    const { user, dialog } = await paletteAs('agent');
    await user.keyboard('查看实名信息');
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain('查看实名信息（持卡人）'));
    // Typed ahead, as an agent does: the number and its Enter may arrive while the first Enter waits
    // for results, and neither a digit nor the Enter may be lost.
    await user.keyboard('{Enter}');
    await user.keyboard(`${c.cardNo}{Enter}`);
    const reveal = await screen.findByRole('dialog', { name: '查看实名信息' }, { timeout: 5_000 });
    expect(within(reveal).getByLabelText(/查看原因/)).toBeTruthy();
    expect(window.location.search).toBe(`?no=${c.cardNo}`);
  });

  it('新增乘客 opens the add dialog on 乘客用户', async () => {
    const { user, dialog } = await paletteAs('agent');
    await user.keyboard('新增乘客');
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain('新增乘客'));
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: '新增乘客' }, { timeout: 5_000 })).toBeTruthy();
    expect(window.location.pathname).toBe('/busUser/bus-user');
  });

  it('an account without 乘客用户管理 (the viewer) is offered no card lookup: a typed card number finds nothing to open', async () => {
    const c = await xuhuiCard();
    const { user, dialog } = await paletteAs('viewer');
    await user.keyboard(c.cardNo);
    await waitFor(() => expect(within(dialog).queryByRole('option', { name: /查询卡片/ })).toBeNull());
    await user.clear(within(dialog).getByRole('combobox'));
    await user.keyboard('查看实名');
    await waitFor(() => expect(within(dialog).queryByRole('option', { name: /查看实名信息/ })).toBeNull());
  });

  it('a phone typed into 乘客用户\'s filter finds the rider, and stays out of the address and local storage', async () => {
    const c = await xuhuiCard({ held: true });
    const [holder] = await db().select().from(t.riders).where(eq(t.riders.id, c.riderId!));
    const phone = pii.decrypt(holder!.phoneEnc);
    await signIn(s, 'agent');
    visit(s, '/busUser/bus-user');
    const { user } = renderWithUser(<App />);
    const input = await screen.findByLabelText('手机号', {}, { timeout: 5_000 });
    await user.type(input, `${phone}{Enter}`);
    const masked = `${phone.slice(0, 3)}****${phone.slice(7)}`;
    await waitFor(() => expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(2), { timeout: 5_000 });
    expect(within(screen.getByRole('table')).getByText(masked)).toBeTruthy();
    expect(window.location.href).not.toContain(phone);
    const stored = Object.keys(localStorage).map((k) => localStorage.getItem(k) ?? '').join('\n');
    expect(stored).not.toContain(phone);
  });

  it('查看实名信息 for card B while card A is shown reveals B\'s holder, never A\'s (the previous answer is not acted on)', async () => {
    const [d] = await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
    const held = await db().select().from(t.busCards).where(and(eq(t.busCards.districtId, d!.id), isNotNull(t.busCards.riderId))).limit(50);
    const a = held[0]!;
    const b = held.find((x) => x.riderId !== a.riderId)!;
    await signIn(s, 'agent');
    visit(s, `/busUser/card?no=${a.cardNo}`);
    const { user } = renderWithUser(<App />);
    expect(await screen.findByText(`卡片详情 · ${a.cardNo}`, {}, { timeout: 5_000 })).toBeTruthy();
    await user.keyboard('{Control>}k{/Control}');
    const dialog = await screen.findByRole('dialog', { name: '命令面板' });
    await user.keyboard('查看实名信息');
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain('查看实名信息（持卡人）'));
    await user.keyboard('{Enter}');
    await user.keyboard(`${b.cardNo}{Enter}`);
    const reveal = await screen.findByRole('dialog', { name: '查看实名信息' }, { timeout: 5_000 });
    expect(screen.getByText(`卡片详情 · ${b.cardNo}`)).toBeTruthy();
    await user.type(within(reveal).getByLabelText(/查看原因/), '乘客来电核实{Enter}');
    await within(reveal).findByText('本次查看已记入系统日志（含原因，不含号码）。');
    const [log] = await db().select().from(t.sysLog).where(eq(t.sysLog.operationType, 'RIDER_REVEAL')).orderBy(desc(t.sysLog.id)).limit(1);
    expect(log!.target).toBe(`rider/${b.riderId}`);
  });

  it('shows the card\'s latest rides, newest first, at most ten', async () => {
    const [d] = await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
    const [busiest] = await db()
      .select({ cardNo: t.rideRecords.cardNo, n: sql<number>`count(*)::int` })
      .from(t.rideRecords)
      .where(eq(t.rideRecords.districtId, d!.id))
      .groupBy(t.rideRecords.cardNo)
      .orderBy(desc(sql`count(*)`))
      .limit(1);
    const rides = await db().select().from(t.rideRecords).where(eq(t.rideRecords.cardNo, busiest!.cardNo)).orderBy(desc(t.rideRecords.rideAt)).limit(10);
    await signIn(s, 'agent');
    visit(s, `/busUser/card?no=${busiest!.cardNo}`);
    renderWithUser(<App />);
    const region = await screen.findByRole('region', { name: '最近乘车记录列表' }, { timeout: 5_000 });
    const rows = within(region).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(Math.min(10, busiest!.n));
    expect(rows[0]!.textContent).toContain(rides[0]!.lineName);
    expect(rows[0]!.textContent).toContain(rides[0]!.busName);
  });
});
