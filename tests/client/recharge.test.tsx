import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { cardLoaded, createOrder, failWrite, pay, startWrite } from '../../src/server/modules/recharge/rider-side';
import { rechargeOrders, rechargeReconcileItems } from '../../src/server/modules/recharge/schema';
import { DAY } from '../support/clock';
import { takeQueuedTask } from '../support/queued-task';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/** NFC充值记录 on the real server: the list and its summary, the 可疑 keyboard task, a refund. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const db = () => s.database.db;
const deps = () => ({ db: s.database.db, clock: s.clock }) as unknown as AppDeps;
const stored = async (id: number) => (await db().select().from(rechargeOrders).where(eq(rechargeOrders.id, id)))[0]!;

let used = 0;
async function xuhuiCard() {
  const [xuhui] = await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
  const cards = await db().select().from(t.busCards).where(and(eq(t.busCards.state, 1), eq(t.busCards.districtId, xuhui!.id)));
  return cards.filter((c) => c.balance < 50_000)[used++]!.cardNo;
}

/** A 可疑 order whose write began `daysAgo` days ago; `loaded`: the centre has its load. */
async function suspect(daysAgo: number, loaded: boolean) {
  const o = await createOrder(deps(), { cardNo: await xuhuiCard(), amount: 5_000 });
  await pay(deps(), o.id);
  await startWrite(deps(), o.id);
  if (loaded) await cardLoaded(deps(), o.id, { txnSeq: `C${o.id}`, tac: 'ABCD1234' });
  const at = new Date(s.clock.now().getTime() - daysAgo * DAY);
  await db().update(rechargeOrders).set({ writeState: 4, writeStartedAt: at, createdAt: at }).where(eq(rechargeOrders.id, o.id));
  return o;
}

async function table(name: string) {
  const main = await screen.findByRole('main');
  return within(main).findByRole('table', { name }, { timeout: 8_000 });
}
async function rowOf(name: string, text: string) {
  const tb = await table(name);
  return waitFor(
    () => {
      const row = within(tb)
        .getAllByRole('row')
        .find((r) => r.textContent?.includes(text));
      expect(row).toBeTruthy();
      return row!;
    },
    { timeout: 8_000 },
  );
}

describe('NFC充值记录', () => {
  it('lists the seeded top-ups with their states and the summary line', async () => {
    await signIn(s, 'admin');
    visit(s, '/recharge/recharge');
    renderWithUser(<App />);
    const tb = await table('NFC充值记录列表');
    await waitFor(() => expect(within(tb).getAllByText('写卡成功').length).toBeGreaterThan(0), { timeout: 8_000 });
    const summary = await screen.findByLabelText('NFC充值统计');
    await waitFor(() => expect(summary.textContent).toMatch(/^共 \d+ 笔 .* 可疑 \d+（1小时内 \d+ · 24小时内 \d+ · 超24小时 \d+）/));
  });

  it('the 可疑队列 tab shows only 可疑 orders, oldest first; 圈存日对账 shows the worklist', async () => {
    await signIn(s, 'admin');
    visit(s, '/recharge/recharge');
    const { user } = renderWithUser(<App />);
    await table('NFC充值记录列表');
    await user.click(await screen.findByRole('tab', { name: '可疑队列' }));
    const queue = await table('可疑订单队列');
    await waitFor(
      () => {
        const body = within(queue).getAllByRole('row').slice(1);
        expect(body.length).toBeGreaterThan(0);
        expect(body.every((r) => r.textContent?.includes('可疑'))).toBe(true);
      },
      { timeout: 8_000 },
    );
    await user.click(screen.getByRole('tab', { name: '圈存日对账' }));
    expect(await screen.findByRole('table', { name: '圈存日对账差异' })).toBeTruthy();
  });

  it('圈存日对账 of a day: its summary line by kind, and 导出对账差异 queues that day’s worklist', async () => {
    const [xuhui] = await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
    const day = '2026-02-03';
    const now = s.clock.now();
    const base = { day, districtId: xuhui!.id, status: 0, createdAt: now };
    const items = await db()
      .insert(rechargeReconcileItems)
      .values([
        { ...base, kind: 1, orderNo: 'RCCLIENT1', cardNo: '3101000000009001', orderAmount: 5_000, centreAmount: null, note: '已付款，卡中心无圈存记录' },
        { ...base, kind: 1, orderNo: 'RCCLIENT2', cardNo: '3101000000009002', orderAmount: 3_000, centreAmount: null, note: '已付款，卡中心无圈存记录' },
        { ...base, kind: 3, orderNo: 'RCCLIENT3', cardNo: '3101000000009003', orderAmount: 5_000, centreAmount: 4_000, note: '金额不一致' },
      ])
      .returning();
    try {
      await signIn(s, 'manager');
      visit(s, '/recharge/recharge');
      const { user } = renderWithUser(<App />);
      await table('NFC充值记录列表');
      await user.click(await screen.findByRole('tab', { name: '圈存日对账' }));
      fireEvent.change(await screen.findByLabelText('清算日'), { target: { value: day } });
      const summary = await screen.findByLabelText('圈存日对账合计');
      await waitFor(() => expect(summary.textContent).toBe('共 3 笔（待处理 3） · 已付未圈 2 笔 80.00 元 · 圈存未付 0 笔 0.00 元 · 金额不符 1 笔（订单 50.00 元 / 卡中心 40.00 元）'));
      await rowOf('圈存日对账差异', 'RCCLIENT3');
      await user.click(screen.getByRole('button', { name: '导出对账差异' }));
      const task = await takeQueuedTask(db(), 'recharge.reconcile');
      expect(task).toEqual(expect.objectContaining({ title: `圈存日对账 ${day} 待处理`, districtScope: xuhui!.id, params: expect.objectContaining({ day, status: 0 }) }));
    } finally {
      await db().delete(rechargeReconcileItems).where(inArray(rechargeReconcileItems.id, items.map((i) => i.id)));
    }
  });

  it('the palette’s 导出圈存日对账 (`?action=reconcile-export`) queues the open items from the orders’ tab', async () => {
    await signIn(s, 'manager');
    visit(s, '/recharge/recharge?action=reconcile-export');
    renderWithUser(<App />);
    await table('NFC充值记录列表');
    const task = await takeQueuedTask(db(), 'recharge.reconcile');
    expect(task).toEqual(expect.objectContaining({ title: '圈存日对账 待处理', params: { status: 0 } }));
  });

  it('the 可疑 queue, oldest first: Enter shows the attempts beside the centre’s record, y settles it and the next opens, n settles that one', async () => {
    const first = await suspect(40, true);
    const second = await suspect(39, false);
    await signIn(s, 'manager');
    visit(s, '/recharge/recharge?writeState=4&sort=createdDate,asc');
    const { user } = renderWithUser(<App />);
    const row = await rowOf('可疑订单队列', first.orderNo);
    // Oldest first: these two lead the queue.
    const rows = within(await table('可疑订单队列')).getAllByRole('row');
    expect(rows.findIndex((r) => r.textContent?.includes(first.orderNo))).toBeLessThan(rows.findIndex((r) => r.textContent?.includes(second.orderNo)));
    row.focus();
    await user.keyboard('{Enter}');
    const drawer = await screen.findByRole('dialog', { name: new RegExp(`充值订单详情 · ${first.orderNo}`) });
    const centre = await within(drawer).findByRole('region', { name: '卡中心记录' }, { timeout: 5_000 });
    expect(centre.textContent).toContain('ABCD1234');
    expect(within(drawer).getByRole('region', { name: '写卡记录' }).textContent).toContain('开始写卡');
    await user.keyboard('y');
    const resolve = await screen.findByRole('dialog', { name: '核实已到账' });
    expect(resolve.textContent).toContain(first.orderNo);
    await waitFor(() => expect(document.activeElement).toBe(within(resolve).getByLabelText(/核实说明/)));
    await user.keyboard('{Enter}');
    await waitFor(async () => expect((await stored(first.id)).writeState).toBe(2), { timeout: 5_000 });
    expect((await stored(first.id)).resolvedBy).not.toBeNull();
    // The next 可疑 order opens by itself.
    const next = await screen.findByRole('dialog', { name: new RegExp(`充值订单详情 · ${second.orderNo}`) }, { timeout: 5_000 });
    expect(await within(next).findByText(/卡中心无此笔圈存记录/, undefined, { timeout: 5_000 })).toBeTruthy();
    await user.keyboard('n');
    const notLoaded = await screen.findByRole('dialog', { name: '核实未到账' });
    await waitFor(() => expect(document.activeElement).toBe(within(notLoaded).getByLabelText(/核实说明/)));
    await user.keyboard('{Enter}');
    await waitFor(async () => expect((await stored(second.id)).writeState).toBe(3), { timeout: 5_000 });
  });

  it('r on a failed order asks the reason and refunds the whole amount; the server stored it', async () => {
    const o = await createOrder(deps(), { cardNo: await xuhuiCard(), amount: 3_000 });
    await pay(deps(), o.id);
    await startWrite(deps(), o.id);
    await failWrite(deps(), o.id, '卡片离开感应区');
    await signIn(s, 'manager');
    visit(s, `/recharge/recharge?orderNo=${o.orderNo}`);
    const { user } = renderWithUser(<App />);
    const row = await rowOf('NFC充值记录列表', o.orderNo);
    expect(within(row).getByText('写卡失败')).toBeTruthy();
    row.focus();
    await user.keyboard('r');
    const dialog = await screen.findByRole('dialog', { name: `充值退款 · ${o.orderNo}` });
    expect(dialog.textContent).toContain('30.00 元');
    await user.type(within(dialog).getByLabelText(/退款原因/), '写卡失败，乘客申请退款');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText(`充值订单 ${o.orderNo} 已退款 30.00 元`, undefined, { timeout: 5_000 })).toBeTruthy();
    expect(await stored(o.id)).toMatchObject({ writeState: 5, payStatus: 2 });
  });

  it('the palette’s 充值退款 ‹订单号› lands on the screen with the order found and its refund dialog open', async () => {
    const failed = await createOrder(deps(), { cardNo: await xuhuiCard(), amount: 2_000 });
    await pay(deps(), failed.id);
    await startWrite(deps(), failed.id);
    await failWrite(deps(), failed.id, '卡片离开感应区');
    await signIn(s, 'manager');
    visit(s, `/recharge/recharge?action=refund&orderNo=${failed.orderNo}`);
    renderWithUser(<App />);
    expect(await screen.findByRole('dialog', { name: `充值退款 · ${failed.orderNo}` }, { timeout: 8_000 })).toBeTruthy();
  });

  it('核实可疑订单 ‹订单号› opens the 可疑 order’s detail with y / n', async () => {
    const o = await suspect(30, false);
    await signIn(s, 'manager');
    visit(s, `/recharge/recharge?action=resolve&orderNo=${o.orderNo}`);
    renderWithUser(<App />);
    const drawer = await screen.findByRole('dialog', { name: new RegExp(`充值订单详情 · ${o.orderNo}`) }, { timeout: 8_000 });
    expect(await within(drawer).findByRole('button', { name: /核实未到账/ })).toBeTruthy();
  });
});
