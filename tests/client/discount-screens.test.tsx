import { screen, waitFor, within } from '@testing-library/react';
import { and, count, desc, eq, lte, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { system } from '../../src/shared/api';
import { clientSuite, renderWithUser, visit, warmPalette } from '../support/render';
import { signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/** 特殊码管理 against the real server: orders and their refund, counts, rules, the agreement. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});
const db = () => s.database.db;

const xuhui = async () => (await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区')))[0]!.id;

/**
 * A paid order of 徐汇区 nobody has refunded yet (each test takes its own), of at most the amount
 * that asks for a password (tests/client/refund-password.test.tsx refunds those).
 */
async function paidOrder() {
  const [o] = await db()
    .select()
    .from(t.discountOrders)
    .where(and(eq(t.discountOrders.districtId, await xuhui()), eq(t.discountOrders.payStatus, 1), lte(t.discountOrders.amount, s.config.refundPasswordAboveFen)))
    .orderBy(desc(t.discountOrders.id))
    .limit(1);
  return o!;
}

const refundsOf = async (orderId: number) => (await db().select({ n: count() }).from(t.refunds).where(eq(t.refunds.orderId, orderId)))[0]!.n;

const rows = (main: HTMLElement) => main.querySelectorAll<HTMLTableRowElement>('tr[tabindex]');

describe('特殊码列表', () => {
  it('shows the area’s orders with the totals the server counts; Enter opens a detail without 退款 for the agent', async () => {
    const district = await xuhui();
    const orders = await db().select().from(t.discountOrders).where(eq(t.discountOrders.districtId, district));
    const paid = orders.filter((o) => o.payStatus === 1);
    await signIn(s, 'agent');
    visit(s, '/specialCode/special-code-list');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const totals = await within(main).findByText(/^共 \d+ 笔订单/, {}, { timeout: 5_000 });
    expect(totals.textContent).toContain(`共 ${orders.length} 笔订单，已支付 ${paid.length} 笔 ${(paid.reduce((n, o) => n + o.amount, 0) / 100).toFixed(2)} 元`);
    await waitFor(() => expect(rows(main).length).toBeGreaterThan(1));
    // Newest first; the card number opens the card view.
    const [newest] = [...orders].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);
    const first = rows(main)[0]!;
    expect(first.textContent).toContain(newest!.orderNo);
    expect(within(first).getByRole('link', { name: /^卡片详情 \d{16}$/ })).toBeTruthy();
    // The agent holds no REFUND_ORDER: no 退款 in the rows nor in the detail.
    expect(within(main).queryByRole('button', { name: /^退款/ })).toBeNull();
    first.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: `订单详情 · ${newest!.orderNo}` });
    expect(within(dialog).getByText('支付状态')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: /^退款/ })).toBeNull();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('the manager refunds a paid order from its detail: one refund stored, the detail shows it', async () => {
    const order = await paidOrder();
    await signIn(s, 'manager');
    visit(s, `/specialCode/special-code-list?orderNo=${order.orderNo}`);
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    await waitFor(() => expect(rows(main)).toHaveLength(1), { timeout: 5_000 });
    rows(main)[0]!.focus();
    await user.keyboard('{Enter}');
    const detail = await screen.findByRole('dialog', { name: `订单详情 · ${order.orderNo}` });
    await user.click(await within(detail).findByRole('button', { name: `退款 ${(order.amount / 100).toFixed(2)} 元` }));
    const refund = await screen.findByRole('dialog', { name: `订单退款 · ${order.orderNo}` });
    await user.type(within(refund).getByLabelText(/退款原因/), '乘客来电申请退款{Enter}');
    expect(await screen.findByText(new RegExp(`订单 ${order.orderNo} 已退款`))).toBeTruthy();
    // Back on the detail, which now carries the refund.
    const after = await screen.findByRole('dialog', { name: `订单详情 · ${order.orderNo}` });
    expect(await within(after).findByText('乘客来电申请退款')).toBeTruthy();
    expect(within(after).queryByRole('button', { name: /^退款/ })).toBeNull();
    expect(await refundsOf(order.id)).toBe(1);
    const [stored] = await db().select().from(t.discountOrders).where(eq(t.discountOrders.id, order.id));
    expect(stored!.payStatus).toBe(2);
    const [ledger] = await db().select().from(t.refunds).where(eq(t.refunds.orderId, order.id));
    expect(ledger).toMatchObject({ amount: order.amount, reason: '乘客来电申请退款' });
  });

  it('an order number pasted anywhere is offered as the order: Alt+T opens its refund', async () => {
    const order = await paidOrder();
    await signIn(s, 'manager');
    visit(s, '/specialCode/rule-setting');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    await warmPalette(user);
    await user.paste(order.orderNo);
    const palette = await screen.findByRole('dialog', { name: '命令面板' });
    await waitFor(() => expect(within(palette).getAllByRole('option')[0]!.textContent).toContain(`订单 ${order.orderNo}`));
    expect(within(palette).getAllByRole('option')[0]!.textContent).toContain('Alt+T 退款');
    await user.keyboard('{Alt>}t{/Alt}');
    expect(await screen.findByRole('dialog', { name: `订单退款 · ${order.orderNo}` }, { timeout: 8_000 })).toBeTruthy();
    expect(window.location.pathname).toBe('/specialCode/special-code-list');
  });


  it('an order number typed as printed (capitals first) where no field takes it opens the palette with it; j stays the table’s', async () => {
    const order = await paidOrder();
    await signIn(s, 'manager');
    visit(s, '/specialCode/special-code-list');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    await waitFor(() => expect(rows(main).length).toBeGreaterThan(1), { timeout: 5_000 });
    await warmPalette(user);
    rows(main)[0]!.focus();
    await user.keyboard('j');
    expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull();
    expect(document.activeElement).toBe(rows(main)[1]);
    // With Caps Lock on, a capital is a hotkey's letter (G of g u), not the start of a record.
    await user.keyboard('{CapsLock}G{CapsLock}');
    expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull();
    await user.keyboard(order.orderNo);
    const palette = await screen.findByRole('dialog', { name: '命令面板' });
    expect((within(palette).getByRole('combobox') as HTMLInputElement).value).toBe(order.orderNo);
    await waitFor(() => expect(within(palette).getAllByRole('option')[0]!.textContent).toContain(`订单 ${order.orderNo}`));
  });
  it('the palette’s 订单退款 lands with the order number and opens its refund at once', async () => {
    const order = await paidOrder();
    await signIn(s, 'manager');
    visit(s, `/specialCode/special-code-list?orderNo=${order.orderNo}&action=refund`);
    const { user } = renderWithUser(<App />);
    const refund = await screen.findByRole('dialog', { name: `订单退款 · ${order.orderNo}` }, { timeout: 5_000 });
    // The action is gone from the address (a reload does not refund again); the filter stays.
    await waitFor(() => expect(window.location.search).toBe(`?orderNo=${order.orderNo}`));
    await user.type(within(refund).getByLabelText(/退款原因/), '重复购买{Enter}');
    expect(await screen.findByText(new RegExp(`订单 ${order.orderNo} 已退款`))).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await refundsOf(order.id)).toBe(1);
  });
});

describe('订单统计', () => {
  it('counts the area’s orders per product, with the sums', async () => {
    const district = await xuhui();
    const [r] = await db()
      .select({ products: sql<number>`count(distinct ${t.discountOrders.productId})::int`, orders: count() })
      .from(t.discountOrders)
      .where(eq(t.discountOrders.districtId, district));
    await signIn(s, 'agent');
    visit(s, '/specialCode/special-code-count');
    renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const totals = await within(main).findByText(/^共 \d+ 种产品/, {}, { timeout: 5_000 });
    expect(totals.textContent).toContain(`共 ${r!.products} 种产品，${r!.orders} 笔订单`);
    await waitFor(() => expect(rows(main)).toHaveLength(Math.min(r!.products, 20)));
  });
});

describe('规则设置 and 规则编辑', () => {
  it('the manager adds a rule on 规则编辑 in yuan: stored in fen, off sale, listed', async () => {
    await signIn(s, 'manager');
    visit(s, '/specialCode/rule-setting');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    await user.click(await within(main).findByRole('button', { name: '＋ 新增规则' }, { timeout: 5_000 }));
    await waitFor(() => expect(window.location.pathname).toBe('/specialCode/rule-edit'));
    const form = await screen.findByRole('form', { name: '优惠卡规则' }, { timeout: 5_000 });
    await user.type(within(form).getByLabelText(/名称/), '夜班通勤季票');
    await user.selectOptions(within(form).getByLabelText(/票种/), '2');
    await user.type(within(form).getByLabelText(/价格/), '12.5x');
    await user.keyboard('{Enter}');
    // Yuan is what the agent types, so a malformed amount is told in yuan; nothing is sent.
    expect(await within(form).findByText('请输入金额（元），如 12.50，最多两位小数')).toBeTruthy();
    await user.type(within(form).getByLabelText(/价格/), '{Backspace}0');
    const days = within(form).getByLabelText(/有效天数/);
    await user.clear(days);
    await user.type(days, '90');
    await user.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText(/已新增优惠卡「夜班通勤季票」/)).toBeTruthy();
    await waitFor(() => expect(window.location.pathname).toBe('/specialCode/rule-setting'));
    const [stored] = await db().select().from(t.discountProducts).where(eq(t.discountProducts.name, '夜班通勤季票'));
    expect(stored).toMatchObject({ price: 1250, ticketType: 2, validDays: 90, status: 0, districtId: await xuhui() });
    expect(await within(screen.getByRole('main')).findByText('夜班通勤季票', {}, { timeout: 5_000 })).toBeTruthy();
  });

  it('edits a rule loaded by ?id=: the price typed in yuan is stored in fen; Esc returns to 规则设置', async () => {
    const [p] = await db().insert(t.discountProducts).values({ districtId: await xuhui(), name: '测试编辑月票', ticketType: 2, price: 3000, status: 0, validDays: 30, createdAt: new Date(), updatedAt: new Date() }).returning();
    await signIn(s, 'manager');
    visit(s, `/specialCode/rule-edit?id=${p!.id}`);
    const { user } = renderWithUser(<App />);
    const price = await screen.findByLabelText(/价格/, {}, { timeout: 5_000 });
    expect((price as HTMLInputElement).value).toBe('30.00');
    await user.clear(price);
    await user.type(price, '9.9{Enter}');
    expect(await screen.findByText('已保存优惠卡「测试编辑月票」')).toBeTruthy();
    const [stored] = await db().select().from(t.discountProducts).where(eq(t.discountProducts.id, p!.id));
    expect(stored!.price).toBe(990);
    // Saved, it is back on 规则设置; Enter on the row opens the rule again, Esc leaves without saving.
    await waitFor(() => expect(window.location.pathname).toBe('/specialCode/rule-setting'));
    const main = screen.getByRole('main');
    await user.click(await within(main).findByRole('button', { name: '编辑 测试编辑月票' }, { timeout: 5_000 }));
    await waitFor(() => expect(window.location.search).toBe(`?id=${p!.id}`));
    const again = (await screen.findByLabelText(/价格/, {}, { timeout: 5_000 })) as HTMLInputElement;
    await waitFor(() => expect(again.value).toBe('9.90'));
    await user.type(again, '9');
    // Esc with a change typed asks first; Esc there keeps editing, Ctrl+Enter gives the change up
    // (focus starts on 取消, the safe choice).
    await user.keyboard('{Escape}');
    await screen.findByRole('dialog', { name: '放弃修改' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(window.location.pathname).toBe('/specialCode/rule-edit');
    await user.keyboard('{Escape}');
    await screen.findByRole('dialog', { name: '放弃修改' });
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(window.location.pathname).toBe('/specialCode/rule-setting'));
    const [unchanged] = await db().select().from(t.discountProducts).where(eq(t.discountProducts.id, p!.id));
    expect(unchanged!.price).toBe(990);
  });

  it('下架 after a confirmation changes the stored status; 删除 of a product with orders shows the server’s refusal', async () => {
    const district = await xuhui();
    const [onSale] = await db()
      .select()
      .from(t.discountProducts)
      .where(and(eq(t.discountProducts.districtId, district), eq(t.discountProducts.status, 1), sql`exists (select 1 from discount_orders o where o.product_id = ${t.discountProducts.id})`))
      .limit(1);
    await signIn(s, 'manager');
    visit(s, `/specialCode/rule-setting?name=${encodeURIComponent(onSale!.name)}`);
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    await user.click(await within(main).findByRole('button', { name: `下架 ${onSale!.name}` }, { timeout: 5_000 }));
    const confirm = await screen.findByRole('dialog', { name: '下架优惠卡' });
    expect(confirm.textContent).toContain(onSale!.name);
    // 下架 is dangerous: focus starts on 取消, Ctrl+Enter confirms.
    expect(document.activeElement?.textContent).toMatch(/^取消/);
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText(`优惠卡「${onSale!.name}」（徐汇区）已下架`)).toBeTruthy();
    const [stored] = await db().select().from(t.discountProducts).where(eq(t.discountProducts.id, onSale!.id));
    expect(stored!.status).toBe(0);
    expect(await within(main).findByRole('button', { name: `上架 ${onSale!.name}` })).toBeTruthy();

    // 删除 cannot be undone: it asks naming the product and its district, 取消 focused, so Enter cancels.
    const remove = within(main).getByRole('button', { name: `删除 ${onSale!.name}` });
    await user.click(remove);
    let asked = await screen.findByRole('dialog', { name: `删除优惠卡「${onSale!.name}」（徐汇区）` });
    expect(asked.textContent).toContain(`确定删除 徐汇区 的优惠卡 ${onSale!.name} 吗？`);
    await waitFor(() => expect(document.activeElement).toBe(within(asked).getByRole('button', { name: /取消/ })));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(remove);
    asked = await screen.findByRole('dialog', { name: `删除优惠卡「${onSale!.name}」（徐汇区）` });
    await waitFor(() => expect(document.activeElement).toBe(within(asked).getByRole('button', { name: /取消/ })));
    await user.tab();
    expect(document.activeElement).toBe(within(asked).getByRole('button', { name: '删除' }));
    await user.keyboard('{Enter}');
    expect(await screen.findByText(/已有 \d+ 笔订单，不能删除，请改为下架/)).toBeTruthy();
    const [kept] = await db().select().from(t.discountProducts).where(eq(t.discountProducts.id, onSale!.id));
    expect(kept!.deletedAt).toBeNull();
  });

  it('the agent sees the rules read-only: no 新增, 编辑, 上架/下架 or 删除', async () => {
    await signIn(s, 'agent');
    visit(s, '/specialCode/rule-setting');
    renderWithUser(<App />);
    const main = await screen.findByRole('main');
    expect(await within(main).findByText(/^共 \d+ 种，在售 \d+，已下架 \d+$/, {}, { timeout: 5_000 })).toBeTruthy();
    await waitFor(() => expect(rows(main).length).toBeGreaterThan(0));
    for (const verb of [/新增/, /^编辑/, /^上架/, /^下架/, /^删除/]) expect(within(main).queryByRole('button', { name: verb })).toBeNull();
  });

  it('规则编辑 is read-only for the agent', async () => {
    const [p] = await db().select().from(t.discountProducts).where(eq(t.discountProducts.districtId, await xuhui())).limit(1);
    await signIn(s, 'agent');
    visit(s, `/specialCode/rule-edit?id=${p!.id}`);
    renderWithUser(<App />);
    const name = (await screen.findByLabelText(/名称/, {}, { timeout: 5_000 })) as HTMLInputElement;
    expect(name.value).toBe(p!.name);
    expect(name.readOnly).toBe(true);
    expect(screen.getByText(/只读：只有区域管理员可以修改优惠卡规则/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^保存/ })).toBeNull();
  });
});

describe('特殊码协议', () => {
  it('opened while the area had none, and made meanwhile by someone else: saving does not overwrite theirs', async () => {
    await signIn(s, 'manager');
    visit(s, '/specialCode/special-code-agreement');
    const { user } = renderWithUser(<App />);
    const form = await screen.findByRole('form', { name: '特殊码协议' }, { timeout: 5_000 });
    const admin = await s.login('admin');
    const made = await s.call(system.agreementSave, { token: admin, district: await xuhui(), body: { code: 'special-code', title: '他人先建的协议', content: '他人写的内容。' } });
    expect(made.body.code, made.body.msg).toBe(1);
    try {
      // Whether or not the page's row has been refetched meanwhile, the form saves as new (it made no row).
      await new Promise((r) => setTimeout(r, 1_500));
      const title = within(form).getByLabelText(/标题/);
      await user.clear(title);
      await user.type(title, '本机的协议');
      await user.type(within(form).getByLabelText(/内容/), '本机写的内容。');
      await user.keyboard('{Control>}s{/Control}');
      expect((await screen.findAllByText('该区域已存在相同编码的协议', {}, { timeout: 5_000 })).length).toBeGreaterThan(0);
      const all = await db().select().from(t.agreements).where(and(eq(t.agreements.code, 'special-code'), eq(t.agreements.districtId, await xuhui())));
      expect(all.map((a) => a.title)).toEqual(['他人先建的协议']);
    } finally {
      await db().delete(t.agreements).where(eq(t.agreements.id, made.body.data.id));
    }
  });

  it('the manager saves the area’s agreement with Ctrl+S, then edits the same row with 保存', async () => {
    await signIn(s, 'manager');
    visit(s, '/specialCode/special-code-agreement');
    const { user } = renderWithUser(<App />);
    const form = await screen.findByRole('form', { name: '特殊码协议' }, { timeout: 5_000 });
    const title = within(form).getByLabelText(/标题/);
    await user.clear(title);
    await user.type(title, '徐汇区特殊码服务协议');
    await user.type(within(form).getByLabelText(/内容/), '一、特殊码仅限本人使用。');
    await user.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText('已保存协议「徐汇区特殊码服务协议」')).toBeTruthy();
    const [stored] = await db().select().from(t.agreements).where(and(eq(t.agreements.code, 'special-code'), eq(t.agreements.districtId, await xuhui())));
    expect(stored).toMatchObject({ title: '徐汇区特殊码服务协议', content: '一、特殊码仅限本人使用。' });

    // A second save edits the same row (the 保存 button, this time), once the first has finished.
    await waitFor(() => expect((within(form).getByRole('button', { name: /^保存/ }) as HTMLButtonElement).disabled).toBe(false));
    await user.type(within(form).getByLabelText(/内容/), '二、退款按原路退回。');
    await user.click(within(form).getByRole('button', { name: /^保存/ }));
    await waitFor(async () => {
      const all = await db().select().from(t.agreements).where(and(eq(t.agreements.code, 'special-code'), eq(t.agreements.districtId, await xuhui())));
      expect(all.map((a) => a.content)).toEqual(['一、特殊码仅限本人使用。二、退款按原路退回。']);
    });
  });

  it('is read-only for the agent', async () => {
    await signIn(s, 'agent');
    visit(s, '/specialCode/special-code-agreement');
    renderWithUser(<App />);
    const form = await screen.findByRole('form', { name: '特殊码协议' }, { timeout: 5_000 });
    expect((within(form).getByLabelText(/标题/) as HTMLInputElement).readOnly).toBe(true);
    expect(within(form).queryByRole('button', { name: /^保存/ })).toBeNull();
  });
});

describe('the palette’s 特殊码 commands', () => {
  async function palette(login: string) {
    await signIn(s, login);
    visit(s, '/specialCode/special-code-list');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    await user.keyboard('{Control>}k{/Control}');
    const dialog = await screen.findByRole('dialog', { name: '命令面板' }, { timeout: 5_000 });
    const selected = () => within(dialog).queryByRole('option', { selected: true })?.textContent ?? '';
    return { user, dialog, selected };
  }

  it('订单退款 asks for the order number and opens that order’s refund on 特殊码列表', async () => {
    const order = await paidOrder();
    const { user, dialog, selected } = await palette('manager');
    await user.keyboard('订单退款');
    await waitFor(() => expect(selected().startsWith('订单退款')).toBe(true), { timeout: 3_000 });
    await user.keyboard('{Enter}');
    // The argument step: the same input asks for the order number.
    await waitFor(() => expect(within(dialog).getByRole('combobox').getAttribute('placeholder')).toContain('订单号，如 DC'));
    await user.keyboard(order.orderNo);
    await waitFor(() => expect(selected()).toContain(order.orderNo));
    await user.keyboard('{Enter}');
    const refund = await screen.findByRole('dialog', { name: `订单退款 · ${order.orderNo}` }, { timeout: 5_000 });
    expect(window.location.pathname).toBe('/specialCode/special-code-list');
    await user.type(within(refund).getByLabelText(/退款原因/), '乘客申请退款{Enter}');
    expect(await screen.findByText(new RegExp(`订单 ${order.orderNo} 已退款`))).toBeTruthy();
    expect(await refundsOf(order.id)).toBe(1);
  });

  it('下架优惠卡 offers the products on sale; the chosen one is taken off sale', async () => {
    const [p] = await db().insert(t.discountProducts).values({ districtId: await xuhui(), name: '命令下架测试票', ticketType: 1, price: 200, status: 1, validDays: 1, createdAt: new Date(), updatedAt: new Date() }).returning();
    const { user, dialog, selected } = await palette('manager');
    await user.keyboard('下架优惠卡');
    await waitFor(() => expect(selected().startsWith('下架优惠卡')).toBe(true), { timeout: 3_000 });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(dialog).getByRole('combobox').getAttribute('placeholder')).toContain('选择在售的优惠卡'));
    await user.keyboard('命令下架测试票');
    await waitFor(() => expect(selected()).toContain('命令下架测试票（单次票 2.00 元）'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    expect(await screen.findByText('优惠卡「命令下架测试票」（徐汇区）已下架')).toBeTruthy();
    await waitFor(() => expect(window.location.pathname).toBe('/specialCode/rule-setting'));
    const [stored] = await db().select().from(t.discountProducts).where(eq(t.discountProducts.id, p!.id));
    expect(stored!.status).toBe(0);
  });

  it('the agent is offered neither 订单退款 nor 上架/下架 nor 新增优惠卡规则', async () => {
    const { user, dialog } = await palette('agent');
    for (const title of ['订单退款', '上架优惠卡', '下架优惠卡', '新增优惠卡规则']) {
      await user.clear(within(dialog).getByRole('combobox'));
      await user.keyboard(title);
      await waitFor(() => expect(within(dialog).queryAllByRole('option').some((o) => (o.textContent ?? '').startsWith(title))).toBe(false));
    }
  });
});
