import { screen, waitFor, within } from '@testing-library/react';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { packageOrders, packages } from '../../src/server/modules/package-pay/schema';
import { buyPackage, payOrder, useRide } from '../../src/server/modules/package-pay/service';
import { takeQueuedTask } from '../support/queued-task';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { openPalette } from '../support/palette-client';
import { signIn } from '../support/request-log';
import { TEST_PII_KEY, type TestServer } from '../support/test-server';
import { createPii } from '../../src/server/lib/pii';

/** 套餐购买 on the real server: what the screens show of real rows, and what the server stored after the keys. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const db = () => s.database.db;
const deps = () => ({ db: s.database.db, clock: s.clock }) as unknown as AppDeps;
const DAY = 86_400_000;

async function make(name: string, status: number, over: Partial<typeof packages.$inferInsert> = {}) {
  const now = s.clock.now();
  const [xuhui] = await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
  const [row] = await db()
    .insert(packages)
    .values({ districtId: xuhui!.id, name, price: 3000, originalPrice: 4400, rides: 22, validDays: 30, saleStart: new Date(now.getTime() - DAY), saleEnd: new Date(now.getTime() + 60 * DAY), status, createdAt: now, updatedAt: now, ...over })
    .returning();
  return row!;
}
const storedPackage = async (id: number) => (await db().select().from(packages).where(eq(packages.id, id)))[0]!;

async function rowOf(table: string, text: string) {
  const main = await screen.findByRole('main');
  const t = await within(main).findByRole('table', { name: table }, { timeout: 5_000 });
  return waitFor(
    () => {
      const row = within(t)
        .getAllByRole('row')
        .find((r) => r.textContent?.includes(text));
      expect(row).toBeTruthy();
      return row!;
    },
    { timeout: 5_000 },
  );
}

describe('套餐管理', () => {
  it('lists the district’s packages with the summary line; p on a draft asks and 上架 is stored', async () => {
    const p = await make('客户端上架测试', 0);
    await signIn(s, 'manager');
    visit(s, '/packagePay/package-manage?name=客户端上架');
    const { user } = renderWithUser(<App />);
    const row = await rowOf('套餐列表', p.name);
    expect(within(row).getByText('草稿')).toBeTruthy();
    expect(within(row).getByText('44.00')).toBeTruthy();
    const summary = await screen.findByLabelText('套餐统计');
    await waitFor(() => expect(summary.textContent).toMatch(/^共 1 个套餐 · 在售 0 · 已下架 0 · 草稿 1/));
    row.focus();
    await user.keyboard('p');
    const dialog = await screen.findByRole('dialog', { name: '上架套餐' });
    expect(dialog.textContent).toContain(p.name);
    await user.keyboard('{Enter}');
    expect(await screen.findByText(`已上架套餐「${p.name}」`)).toBeTruthy();
    expect((await storedPackage(p.id)).status).toBe(1);
  });

  it('o takes an on-sale package off sale at once; Ctrl+Z puts it back, both stored', async () => {
    const p = await make('客户端下架测试', 1);
    await signIn(s, 'manager');
    visit(s, '/packagePay/package-manage?name=客户端下架');
    const { user } = renderWithUser(<App />);
    const row = await rowOf('套餐列表', p.name);
    row.focus();
    await user.keyboard('o');
    expect(await screen.findByText(`已下架套餐「${p.name}」`)).toBeTruthy();
    await waitFor(async () => expect((await storedPackage(p.id)).status).toBe(2));
    await user.keyboard('{Control>}z{/Control}');
    expect(await screen.findByText(`已撤销：套餐「${p.name}」恢复在售`)).toBeTruthy();
    await waitFor(async () => expect((await storedPackage(p.id)).status).toBe(1));
  });
});

describe('套餐管理: export (issue 22)', () => {
  it('导出 Excel queues a task of the filtered packages, under the manager’s district', async () => {
    await make('客户端导出测试', 1);
    await signIn(s, 'manager');
    visit(s, '/packagePay/package-manage?name=客户端导出');
    const { user } = renderWithUser(<App />);
    await rowOf('套餐列表', '客户端导出测试');
    await user.click(screen.getByRole('button', { name: '导出 Excel' }));
    const [xuhui] = await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
    const task = await takeQueuedTask(db(), 'packagePay.packages');
    expect(task).toEqual(expect.objectContaining({ title: '套餐', districtScope: xuhui!.id, params: expect.objectContaining({ name: '客户端导出' }) }));
  });
});

describe('新增套餐', () => {
  it('refuses a price above the original price in Chinese, then saves a draft in fen', async () => {
    await signIn(s, 'manager');
    visit(s, '/packagePay/add-package');
    const { user } = renderWithUser(<App />);
    const form = await screen.findByRole('form', { name: '套餐' }, { timeout: 5_000 });
    await user.type(within(form).getByLabelText(/套餐名称/), '客户端新增套餐');
    await user.type(within(form).getByLabelText(/售价/), '50');
    await user.type(within(form).getByLabelText(/原价/), '44');
    await user.keyboard('{Control>}s{/Control}');
    expect(await within(form).findByText('售价不能高于原价')).toBeTruthy();
    expect(await db().select().from(packages).where(eq(packages.name, '客户端新增套餐'))).toHaveLength(0);
    const price = within(form).getByLabelText(/售价/);
    await user.clear(price);
    await user.type(price, '30.5');
    await user.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText('已新增套餐「客户端新增套餐」（草稿，请在套餐管理中上架）')).toBeTruthy();
    const [saved] = await db().select().from(packages).where(eq(packages.name, '客户端新增套餐'));
    expect(saved).toMatchObject({ price: 3050, originalPrice: 4400, rides: 22, validDays: 30, status: 0, stock: null });
  });
});

describe('套餐订单 and its detail: the refund during a call', () => {
  it('the list masks phones and sums; the detail shows the usage; r opens the refund with the preview, Ctrl+Enter refunds it', async () => {
    const p = await make('客户端退款套餐', 1, { price: 1000, originalPrice: 2000, rides: 10 });
    const [rider] = await db().select({ id: t.riders.id }).from(t.riders).limit(1);
    const o = await payOrder(deps(), (await buyPackage(deps(), { riderId: rider!.id, packageId: p.id })).id);
    await useRide(deps(), { orderId: o.id, rideAt: s.clock.now(), lineCode: '01', busNo: '沪B12345', singleFare: 300 });

    await signIn(s, 'manager');
    visit(s, `/packagePay/package-order?orderNo=${o.orderNo}`);
    const first = renderWithUser(<App />);
    const row = await rowOf('套餐订单列表', o.orderNo);
    expect(row.textContent).toMatch(/\d{3}\*{4}\d{4}/);
    expect(row.textContent).toContain('1 / 10');
    const summary = await screen.findByLabelText('套餐订单合计');
    await waitFor(() => expect(summary.textContent).toMatch(/^共 1 笔，实收 10\.00 元/));
    first.unmount();

    visit(s, `/packagePay/package-order-detail?id=${o.id}`);
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const usage = await within(main).findByRole('region', { name: '使用记录' }, { timeout: 5_000 });
    expect(usage.textContent).toContain('沪B12345');
    expect(usage.textContent).toContain('3.00');
    await user.keyboard('r');
    const dialog = await screen.findByRole('dialog', { name: `套餐退款 · ${o.orderNo}` }, { timeout: 5_000 });
    expect(dialog.textContent).toContain('可退金额');
    expect((within(dialog).getByLabelText(/退款金额/) as HTMLInputElement).value).toBe('7.00');
    await user.type(within(dialog).getByLabelText(/退款原因/), '乘客来电申请退款');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText(`套餐订单 ${o.orderNo} 已退款 7.00 元`)).toBeTruthy();
    const [after] = await db().select().from(packageOrders).where(eq(packageOrders.id, o.id));
    expect(after).toMatchObject({ status: 4, refundAmount: 700, payStatus: 2 });
    const ledger = await db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'package'), eq(t.moneyRefunds.orderId, o.id)));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ amount: 700, state: 1, reason: '乘客来电申请退款' });
  });
});

describe('the keyboard task: a refund during a call', () => {
  it('Ctrl+K 套餐退款, the order number, Enter: the detail with its usage and the refund open, prefilled; reason, Ctrl+Enter', async () => {
    const p = await make('客户端面板退款', 1, { price: 2000, originalPrice: 4000, rides: 20 });
    const [rider] = await db().select({ id: t.riders.id }).from(t.riders).offset(3).limit(1);
    const o = await payOrder(deps(), (await buyPackage(deps(), { riderId: rider!.id, packageId: p.id })).id);
    await useRide(deps(), { orderId: o.id, rideAt: s.clock.now(), lineCode: '02', busNo: '沪B54321', singleFare: 250 });
    await signIn(s, 'manager');
    visit(s, '/packagePay/package-summary');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    const { dialog } = await openPalette(user);
    await user.keyboard('套餐退款');
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain('套餐退款'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    await user.keyboard(o.orderNo);
    await user.keyboard('{Enter}');
    const refund = await screen.findByRole('dialog', { name: `套餐退款 · ${o.orderNo}` }, { timeout: 8_000 });
    expect(window.location.pathname).toBe('/packagePay/package-order-detail');
    expect((await screen.findByRole('region', { name: '使用记录' })).textContent).toContain('沪B54321');
    expect((within(refund).getByLabelText(/退款金额/) as HTMLInputElement).value).toBe('17.50');
    await user.type(within(refund).getByLabelText(/退款原因/), '乘客来电退款');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText(`套餐订单 ${o.orderNo} 已退款 17.50 元`)).toBeTruthy();
    const [after] = await db().select().from(packageOrders).where(eq(packageOrders.id, o.id));
    expect(after).toMatchObject({ status: 4, refundAmount: 1750 });
  });
});

describe('查套餐订单 by phone', () => {
  it('the palette hands the phone to 套餐订单 in memory: the rider’s orders, masked, and no phone in the address', async () => {
    const [order] = await db().select().from(packageOrders).where(eq(packageOrders.status, 1)).limit(1);
    const [rider] = await db().select().from(t.riders).where(eq(t.riders.id, order!.riderId));
    const phone = createPii(TEST_PII_KEY).decrypt(rider!.phoneEnc);
    await signIn(s, 'admin');
    visit(s, '/packagePay/package-summary');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    const { dialog } = await openPalette(user);
    await user.keyboard('查套餐订单');
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain('查套餐订单'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    await user.keyboard(phone);
    await user.keyboard('{Enter}');
    const row = await rowOf('套餐订单列表', order!.orderNo);
    expect(row.textContent).toContain(`${phone.slice(0, 3)}****${phone.slice(7)}`);
    expect(row.textContent).not.toContain(phone);
    expect(window.location.pathname).toBe('/packagePay/package-order');
    expect(window.location.search).not.toContain(phone);
  });
});

describe('套餐汇总', () => {
  it('shows the days’ rows, the summary line and 套餐体检 with the seeded packages', async () => {
    await signIn(s, 'admin');
    visit(s, '/packagePay/package-summary');
    renderWithUser(<App />);
    const summary = await screen.findByLabelText('套餐汇总合计', {}, { timeout: 5_000 });
    await waitFor(() => expect(summary.textContent).toMatch(/^售出 \d+ 份 [\d.]+ 元 · 退款 \d+ 笔/));
    const health = await screen.findByRole('region', { name: '套餐体检' });
    await waitFor(() => expect(health.textContent).toContain('月度通勤22次'), { timeout: 5_000 });
    expect(health.textContent).toMatch(/\d\.\d折/);
  });
});
