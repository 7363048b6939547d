import { screen, waitFor, within } from '@testing-library/react';
import { and, count, desc, eq, gte, inArray, lte } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { type Endpoint, menuCatalogue, menuItemIds, ridership } from '../../src/shared/api';
import { fenToYuan } from '../../src/shared/domain/money';
import { formatDateTime } from '../../src/shared/domain/time';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { type RequestLog, signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';
import { CONTRACT_MODULES } from '../../src/shared/api/contract';

/** 乘车记录管理 against the real server: ride records with their payment orders, daily ridership, the palette's commands. */
let s: TestServer;
let log: RequestLog;
clientSuite((server, requests) => {
  s = server;
  log = requests;
});
const db = () => s.database.db;

const DAY = 86_400_000;
const today = () => formatDateTime(new Date(), 'YYYY-MM-DD');
const daysBefore = (n: number) => formatDateTime(Date.now() - n * DAY, 'YYYY-MM-DD');
const rows = (main: HTMLElement) => [...main.querySelectorAll<HTMLTableRowElement>('tr[tabindex]')];

/** The agent's area (徐汇区 in the demo): the one whose rides the agent's screens show. */
async function agentDistrict() {
  const [u] = await db().select({ districtId: t.users.districtId }).from(t.users).where(eq(t.users.login, 'agent'));
  return u!.districtId!;
}

/** The screens' opening ranges, as the server reads them. */
const week = () => ({ startTime: `${daysBefore(6)}T00:00:00+08:00`, endTime: `${today()}T23:59:59+08:00` });
/** 乘车统计 opens on the last 30 whole days: today is under way (at 02:00 it has no rides yet). */
const month = () => ({ startDate: daysBefore(30), endDate: daysBefore(1) });

async function answer<E extends Endpoint>(endpoint: E, token: string, query: Record<string, string | number>): Promise<z.output<E['response']>> {
  const res = await s.call(endpoint, { token, query });
  expect(res.body.code).toBe(1);
  return res.body.data;
}

describe('乘车记录', () => {
  it('opens on the last 7 days: the area’s rides newest first, the summary the server counts, card numbers linking to 卡片详情', async () => {
    const district = await agentDistrict();
    const token = await signIn(s, 'agent');
    const summary = await answer(ridership.recordSummary, token, week());
    const [newest] = await db()
      .select()
      .from(t.rideRecords)
      .where(and(eq(t.rideRecords.districtId, district), gte(t.rideRecords.rideAt, new Date(week().startTime))))
      .orderBy(desc(t.rideRecords.rideAt), desc(t.rideRecords.id))
      .limit(1);
    expect(summary.rides).toBeGreaterThan(0);

    visit(s, '/order/order-list');
    renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const line = await within(main).findByText(/^共 \d+ 次乘车/, {}, { timeout: 5_000 });
    expect(line.textContent).toBe(
      `共 ${summary.rides} 次乘车，金额 ${fenToYuan(summary.amount)} 元；已支付 ${summary.paid} 次，未支付 ${summary.unpaid} 次，已退款 ${summary.refunded} 次`,
    );
    await waitFor(() => expect(rows(main)).toHaveLength(Math.min(20, summary.rides)));
    const first = rows(main)[0]!;
    expect(first.textContent).toContain(formatDateTime(newest!.rideAt));
    expect(first.textContent).toContain(newest!.lineName);
    expect(within(first).getByRole('link', { name: `卡片详情 ${newest!.cardNo}` }).getAttribute('href')).toBe(`/busUser/card?no=${newest!.cardNo}`);
    // The range it opened on is in the filter, where the agent can see and change it.
    expect((within(main).getByLabelText('乘车时间从') as HTMLInputElement).value).toBe(`${daysBefore(6)} 00:00`);
    expect((within(main).getByLabelText('至') as HTMLInputElement).value).toBe(`${today()} 23:59:59`);
  });

  it('Enter on a ride opens its payment order (order number, channel, payment time); Esc closes it', async () => {
    const district = await agentDistrict();
    await signIn(s, 'agent');
    const [newest] = await db()
      .select()
      .from(t.rideRecords)
      .where(and(eq(t.rideRecords.districtId, district), gte(t.rideRecords.rideAt, new Date(week().startTime))))
      .orderBy(desc(t.rideRecords.rideAt), desc(t.rideRecords.id))
      .limit(1);
    visit(s, '/order/order-list');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    await waitFor(() => expect(rows(main).length).toBeGreaterThan(1), { timeout: 5_000 });
    rows(main)[0]!.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: `支付订单 · ${newest!.orderNo}` }, { timeout: 5_000 });
    expect(within(dialog).getByText(newest!.payChannel)).toBeTruthy();
    expect(within(dialog).getByText(`${fenToYuan(newest!.amount)} 元`)).toBeTruthy();
    expect(within(dialog).getByText(newest!.paidAt ? formatDateTime(newest!.paidAt) : '—')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: `卡片详情 ${newest!.cardNo}` })).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a range over 31 days without a card is refused in Chinese and nothing is asked; with a card number the same range lists that card’s rides', async () => {
    const busy = await busiestCard();
    await signIn(s, 'agent');
    visit(s, '/order/order-list');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    await waitFor(() => expect(rows(main).length).toBeGreaterThan(1), { timeout: 5_000 });
    log.clear();
    const from = within(main).getByLabelText('乘车时间从');
    await user.clear(from);
    await user.type(from, `${daysBefore(40)}{Enter}`);
    const alert = await within(main).findByRole('alert');
    expect(alert.textContent).toContain('时间范围不能超过31天');
    expect(alert.textContent).toContain('输入卡号时可不限时间');
    expect(rows(main)).toHaveLength(0);
    expect(within(main).getByText('请修改查询条件')).toBeTruthy();
    expect(log.to('/query/record/list')).toHaveLength(0);
    expect(log.to('/query/record/summary')).toHaveLength(0);

    await user.type(within(main).getByLabelText('卡号'), `${busy!.cardNo}{Enter}`);
    await waitFor(() => expect(within(main).queryByRole('alert')).toBeNull());
    // 40 days hold all 30 days of the demo's records: the card's every ride.
    expect(await within(main).findByText(new RegExp(`^共 ${busy!.n} 次乘车`), {}, { timeout: 5_000 })).toBeTruthy();
    await waitFor(() => expect(rows(main)).toHaveLength(Math.min(20, busy!.n)));
    for (const r of rows(main)) expect(within(r).getByRole('link').textContent).toBe(busy!.cardNo);
  });

  it('the palette’s 导出 (?action=export) on a range the list refuses says so and queues nothing', async () => {
    const [agent] = await db().select({ id: t.users.id }).from(t.users).where(eq(t.users.login, 'agent'));
    const tasks = async () => (await db().select({ n: count() }).from(t.exportTasks).where(eq(t.exportTasks.userId, agent!.id)))[0]!.n;
    const before = await tasks();
    await signIn(s, 'agent');
    log.clear();
    const range = new URLSearchParams({ startTime: `${daysBefore(40)}T00:00:00+08:00`, endTime: `${today()}T23:59:59+08:00`, action: 'export' });
    visit(s, `/order/order-list?${range}`);
    renderWithUser(<App />);
    expect(await screen.findByText('无法导出：时间范围不能超过31天', {}, { timeout: 5_000 })).toBeTruthy();
    const main = await screen.findByRole('main');
    expect((await within(main).findByRole('alert')).textContent).toContain('时间范围不能超过31天');
    expect((within(main).getByRole('button', { name: '导出' }) as HTMLButtonElement).disabled).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(log.to('/record/export')).toHaveLength(0);
    expect(await tasks()).toBe(before);
  });

  it('sorts by amount from its header, the sort kept in the address', async () => {
    await signIn(s, 'agent');
    visit(s, '/order/order-list');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    await waitFor(() => expect(rows(main).length).toBeGreaterThan(1), { timeout: 5_000 });
    const sort = within(main).getByRole('button', { name: /^金额（元）/ });
    await user.click(sort);
    await user.click(sort);
    await waitFor(() => expect(window.location.search).toContain('sort=amount%2Cdesc'));
    const column = [...within(main).getByRole('table').querySelectorAll('th')].findIndex((th) => th.textContent?.startsWith('金额（元）'));
    const amounts = () => rows(main).map((r) => Number(r.cells[column]?.textContent));
    // Until the sorted answer arrives the last rows stay (dimmed): wait for the sorted ones, not a first 2.
    await waitFor(() => {
      expect(amounts()[0]).toBe(2);
      expect([...amounts()].sort((a, b) => b - a)).toEqual(amounts());
    });
  });
});

describe('乘车统计', () => {
  it('opens on the last 30 days: the totals the server counts, both charts with their text, the day × line × bus table', async () => {
    const token = await signIn(s, 'agent');
    const total = await answer(
      ridership.ridershipTotal,
      token,
      month(),
    );
    const page = await answer(
      ridership.ridershipPage,
      token,
      { ...month(), page: 0, size: 20 },
    );
    expect(total.rides).toBeGreaterThan(0);

    visit(s, '/order/order-total');
    renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const figures = await within(main).findByRole('region', { name: '客流合计' }, { timeout: 5_000 });
    await waitFor(() => expect(within(figures).getByText('乘车人次').nextElementSibling?.textContent).toBe(String(total.rides)), { timeout: 5_000 });
    expect(within(figures).getByText('金额（元）').nextElementSibling?.textContent).toBe(fenToYuan(total.amount));
    expect(within(figures).getByText('日均人次').nextElementSibling?.textContent).toBe(String(Math.round(total.rides / 30)));
    expect(figures.textContent).toContain(`${month().startDate} 至 ${month().endDate}，全部线路`);

    // The charts are images to a screen reader, named by what they show; the library loads with the screen.
    const trend = await within(main).findByRole('img', { name: /^每日乘车人次趋势图/ }, { timeout: 10_000 });
    expect(trend.getAttribute('aria-label')).toContain(`${month().startDate} 至 ${month().endDate} 共 30 天，合计 ${total.rides} 人次`);
    const peak = Math.max(...total.byDay.map((d) => d.rides));
    expect(trend.getAttribute('aria-label')).toContain(`${peak} 人次`);
    const tickets = within(main).getByRole('img', { name: /^按票种的乘车人次/ });
    const single = total.byTicketType.find((x) => x.ticketType === 1)!;
    expect(tickets.getAttribute('aria-label')).toContain(`单次票 ${single.rides} 人次`);

    const table = await within(main).findByRole('table', { name: '每日客流' }, { timeout: 10_000 });
    await waitFor(() => expect(rows(table)).toHaveLength(Math.min(20, page.totalElements)));
    const [top] = page.content;
    const cells = [...rows(table)[0]!.cells].map((c) => c.textContent);
    expect(cells).toEqual([top!.day, top!.lineName, top!.busName, String(top!.rides), String(top!.single), expect.any(String), expect.any(String), fenToYuan(top!.amount)]);
  });

  it('draws both charts in Chinese once their boxes have a size (SVG, no canvas needed)', async () => {
    // happy-dom lays nothing out: the boxes get the size a browser would give them.
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(640);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(280);
    await signIn(s, 'agent');
    visit(s, '/order/order-total');
    renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const trend = await within(main).findByRole('img', { name: /^每日乘车人次趋势图/ }, { timeout: 10_000 });
    await waitFor(() => expect(trend.querySelector('svg')).toBeTruthy(), { timeout: 5_000 });
    await waitFor(() => expect(trend.querySelector('svg')!.textContent).toContain('人次'));
    const tickets = within(main).getByRole('img', { name: /^按票种的乘车人次/ });
    await waitFor(() => expect(tickets.querySelector('svg')!.textContent).toContain('单次票'));
    expect(within(main).queryByText(/图表无法显示/)).toBeNull();
  });

  it('opened with ?lineCode= and days: that line only, named in the line picker; a range over 366 days is refused in Chinese', async () => {
    const district = await agentDistrict();
    const [line] = await db()
      .select({ lineCode: t.dayTakeBusTotals.lineCode, lineName: t.dayTakeBusTotals.lineName })
      .from(t.dayTakeBusTotals)
      .where(and(eq(t.dayTakeBusTotals.districtId, district), lte(t.dayTakeBusTotals.day, today())))
      .limit(1);
    const token = await signIn(s, 'agent');
    visit(s, `/order/order-total?lineCode=${line!.lineCode}&startDate=${daysBefore(59)}&endDate=${today()}`);
    const { unmount } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const table = await within(main).findByRole('table', { name: '每日客流' }, { timeout: 10_000 });
    await waitFor(() => expect(rows(table).length).toBeGreaterThan(1), { timeout: 5_000 });
    for (const r of rows(table)) expect(r.cells[1]?.textContent).toBe(line!.lineName);
    await waitFor(() => expect((within(main).getByLabelText('线路') as HTMLInputElement).value).toBe(line!.lineName));
    expect((within(main).getByLabelText('日期从') as HTMLInputElement).value).toBe(daysBefore(59));
    expect(within(main).getByRole('region', { name: '客流合计' }).textContent).toContain(`${daysBefore(59)} 至 ${today()}，${line!.lineName}`);
    // A range that runs to today averages its whole days only, and says so.
    const lineTotal = await answer(ridership.ridershipTotal, token, { lineCode: line!.lineCode, startDate: daysBefore(59), endDate: today() });
    const whole = lineTotal.byDay.filter((d) => d.day < today()).reduce((n, d) => n + d.rides, 0);
    await waitFor(() => expect(within(main).getByText('日均人次（不含今日）').nextElementSibling?.textContent).toBe(String(Math.round(whole / 59))));
    // The bus list holds that line's buses only.
    const buses = within(main).getByLabelText('车辆') as HTMLSelectElement;
    await waitFor(() => expect(buses.options.length).toBeGreaterThan(1));
    const names = new Set(rows(table).map((r) => r.cells[2]?.textContent));
    for (const o of [...buses.options].slice(1)) expect(o.textContent).toMatch(new RegExp(`^沪B-${line!.lineCode.padStart(3, '0')}\\d{2}$`));
    expect(names.size).toBeGreaterThan(0);
    unmount();

    log.clear();
    visit(s, `/order/order-total?startDate=${daysBefore(400)}&endDate=${today()}`);
    renderWithUser(<App />);
    const again = await screen.findByRole('main');
    expect((await within(again).findByRole('alert', {}, { timeout: 5_000 })).textContent).toBe('日期范围不能超过366天');
    expect(log.to('/day-take-bus-total/pc/total')).toHaveLength(0);
    expect(log.to('/day-take-bus-total/pc/page')).toHaveLength(0);
  });

  it('picks a line by typing in the line picker: the figures and the table follow, the address keeps the line', async () => {
    const district = await agentDistrict();
    const [line] = await db()
      .select({ lineCode: t.dayTakeBusTotals.lineCode, lineName: t.dayTakeBusTotals.lineName })
      .from(t.dayTakeBusTotals)
      .where(eq(t.dayTakeBusTotals.districtId, district))
      .orderBy(desc(t.dayTakeBusTotals.lineCode))
      .limit(1);
    await signIn(s, 'agent');
    visit(s, '/order/order-total');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const table = await within(main).findByRole('table', { name: '每日客流' }, { timeout: 10_000 });
    await waitFor(() => expect(rows(table).length).toBeGreaterThan(1), { timeout: 5_000 });
    const picker = within(main).getByLabelText('线路');
    await user.click(picker);
    await user.type(picker, line!.lineName);
    await user.click(await screen.findByRole('option', { name: line!.lineName }));
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('lineCode')).toBe(line!.lineCode));
    await waitFor(() => expect(rows(table).every((r) => r.cells[1]?.textContent === line!.lineName)).toBe(true), { timeout: 5_000 });
    await waitFor(() => expect(within(main).getByRole('region', { name: '客流合计' }).textContent).toContain(`，${line!.lineName}`));
  });
});

describe('the module’s palette commands', () => {
  async function palette(login: string) {
    await signIn(s, login);
    visit(s, '/');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    await user.keyboard('{Control>}k{/Control}');
    return { user, dialog: await screen.findByRole('dialog', { name: '命令面板' }) };
  }

  it('查看卡的乘车记录 takes a card number and opens 乘车记录 filtered to the card, every ride of it', async () => {
    const busy = await busiestCard();
    const { user, dialog } = await palette('agent');
    await user.keyboard('查看卡的乘车记录');
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain('查看卡的乘车记录'));
    await user.keyboard('{Enter}');
    // Printed with spaces, as on the card.
    await user.keyboard(`${busy!.cardNo.slice(0, 4)} ${busy!.cardNo.slice(4)}{Enter}`);
    await waitFor(() => expect(window.location.pathname + window.location.search).toBe(`/order/order-list?cardNo=${busy!.cardNo}`));
    const main = screen.getByRole('main');
    expect(await within(main).findByText(new RegExp(`^共 ${busy!.n} 次乘车`), {}, { timeout: 5_000 })).toBeTruthy();
    await waitFor(() => expect(rows(main)).toHaveLength(Math.min(20, busy!.n)));
    for (const r of rows(main)) expect(within(r).getByRole('link').textContent).toBe(busy!.cardNo);
    expect((within(main).getByLabelText('卡号') as HTMLInputElement).value).toBe(busy!.cardNo);
    // With a card the time may stay open: no range was put in.
    expect((within(main).getByLabelText('乘车时间从') as HTMLInputElement).value).toBe('');
  });

  it('查看线路客流 offers the area’s lines and opens 乘车统计 on the chosen one', async () => {
    const district = await agentDistrict();
    const [line] = await db()
      .select({ lineCode: t.dayTakeBusTotals.lineCode, lineName: t.dayTakeBusTotals.lineName })
      .from(t.dayTakeBusTotals)
      .where(eq(t.dayTakeBusTotals.districtId, district))
      .limit(1);
    const { user, dialog } = await palette('agent');
    await user.keyboard('查看线路客流');
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain('查看线路客流'));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(dialog).getAllByRole('option').length).toBeGreaterThan(1));
    await user.keyboard(line!.lineName);
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain(line!.lineName));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(window.location.pathname + window.location.search).toBe(`/order/order-total?lineCode=${line!.lineCode}`));
    const main = screen.getByRole('main');
    const table = await within(main).findByRole('table', { name: '每日客流' }, { timeout: 10_000 });
    await waitFor(() => expect(rows(table).length).toBeGreaterThan(1), { timeout: 5_000 });
    for (const r of rows(table)) expect(r.cells[1]?.textContent).toBe(line!.lineName);
  });

  it('an account without 乘车记录管理 is offered neither', async () => {
    // The viewer's group loses the menu for this test (the demo gives it to every account).
    const [viewer] = await db().select({ id: t.roleGroups.id }).from(t.roleGroups).where(eq(t.roleGroups.name, '只读组'));
    const items = menuItemIds(menuCatalogue(CONTRACT_MODULES), ['order']);
    const held = await db().select().from(t.roleGroupItems).where(and(eq(t.roleGroupItems.groupId, viewer!.id), inArray(t.roleGroupItems.itemId, items)));
    expect(held.length).toBeGreaterThan(0);
    await db().delete(t.roleGroupItems).where(and(eq(t.roleGroupItems.groupId, viewer!.id), inArray(t.roleGroupItems.itemId, items)));
    try {
      const { user, dialog } = await palette('viewer');
      // 线路 finds the viewer's own line pages and commands (the index is ready), and would find 查看线路客流 too.
      await user.keyboard('线路');
      await waitFor(() => expect(within(dialog).getAllByRole('option').some((o) => o.textContent?.includes('线路列表'))).toBe(true));
      expect(within(dialog).queryByRole('option', { name: /查看线路客流/ })).toBeNull();
      await user.clear(within(dialog).getByRole('combobox'));
      await user.keyboard('乘车记录');
      await waitFor(() => expect(within(dialog).queryAllByRole('option').some((o) => /乘车/.test(o.textContent ?? ''))).toBe(false));
    } finally {
      await db().insert(t.roleGroupItems).values(held);
    }
  });
});

/** The agent's area's card with the most rides (ties by number): rides to list and to count. */
async function busiestCard() {
  const [busy] = await db()
    .select({ cardNo: t.rideRecords.cardNo, n: count() })
    .from(t.rideRecords)
    .where(eq(t.rideRecords.districtId, await agentDistrict()))
    .groupBy(t.rideRecords.cardNo)
    .orderBy(desc(count()), t.rideRecords.cardNo)
    .limit(1);
  return busy;
}
