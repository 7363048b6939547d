import { screen, waitFor, within } from '@testing-library/react';
import { and, asc, eq, ne } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { account } from '../../src/shared/api';
import { formatDateTime } from '../../src/shared/domain/time';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { type RequestLog, signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/**
 * The resource frame's row actions on real screens against the real server: a hotkey on the
 * focused row, a confirmation naming the record, 撤销 and Ctrl+Z, revalidation by resource tags
 * (the page lists no endpoint to refresh), and the permission that hides an action.
 */
let s: TestServer;
let log: RequestLog;
clientSuite((server, requests) => {
  s = server;
  log = requests;
});

const firstRow = async (name: RegExp | string) => {
  const main = await screen.findByRole('main');
  const table = await within(main).findByRole('table', { name }, { timeout: 5_000 });
  // The first body row holds cells once the rows are in (not the 加载中 status).
  await waitFor(() => expect(within(within(table).getAllByRole('row')[1]!).queryAllByRole('cell').length).toBeGreaterThan(1), { timeout: 5_000 });
  return { table, row: within(table).getAllByRole('row')[1]! };
};

/** The station's name: the first cell with text (a manager's rows start with a selection box). */
const nameOf = (row: HTMLElement) => within(row).getAllByRole('cell').find((c) => c.textContent)!.textContent!;

describe('row actions declared once', () => {
  it('账号列表: d on the focused row asks, naming the account; Ctrl+Enter disables it (focus starts on 取消), the server stored it and the list shows 禁用 without a page refresh', async () => {
    // An account of the manager's own district made for this test (the demo logins stay usable).
    const token = await s.login('admin');
    const [manager] = await s.database.db.select().from(t.users).where(eq(t.users.login, 'manager'));
    // The agent's group: one the manager may manage.
    const [agent] = await s.database.db.select().from(t.users).where(eq(t.users.login, 'agent'));
    const made = await s.call(account.userAdd, {
      token,
      body: { login: 'frame01', firstName: '框架测试', password: 'Frame@2026x', authority: 'ROLE_USER', groupId: agent!.groupId!, districtId: manager!.districtId },
    });
    expect(made.body.code).toBe(1);
    await signIn(s, 'manager');
    visit(s, '/user/user-list?keyword=frame01');
    const { user } = renderWithUser(<App />);
    const { table } = await firstRow('账号列表');
    // A manageable, active account other than the manager's own.
    const target = await waitFor(() => {
      const r = within(table)
        .getAllByRole('row')
        .slice(1)
        .find((tr) => within(tr).queryByRole('button', { name: /^禁用 / }));
      expect(r).toBeTruthy();
      return r!;
    });
    const login = within(target).getByRole('button', { name: /^禁用 / }).getAttribute('aria-label')!.replace('禁用 ', '');
    expect(within(target).getByRole('button', { name: `禁用 ${login}` }).getAttribute('aria-keyshortcuts')).toBe('d');
    target.focus();
    await user.keyboard('d');
    const dialog = await screen.findByRole('dialog', { name: '禁用账号' });
    expect(dialog.textContent).toContain(login);
    // 禁用 is dangerous: the dialog starts on 取消; Ctrl+Enter confirms.
    expect(document.activeElement?.textContent).toMatch(/^取消/);
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText(`已禁用账号 ${login}`)).toBeTruthy();
    const [stored] = await s.database.db.select({ activated: t.users.activated }).from(t.users).where(eq(t.users.login, login));
    expect(stored?.activated).toBe(false);
    await waitFor(() => expect(within(table).getByRole('button', { name: `启用 ${login}` })).toBeTruthy(), { timeout: 5_000 });
  });

  it('站点: s takes the focused stop out of service at once; 撤销 by Ctrl+Z puts it back, both stored', async () => {
    await signIn(s, 'manager');
    visit(s, '/station/station?state=1&sort=name,asc');
    const { user } = renderWithUser(<App />);
    const { row } = await firstRow('站点列表');
    const name = nameOf(row);
    const [before] = await s.database.db.select().from(t.stations).where(eq(t.stations.name, name));
    expect(before?.state).toBe(1);
    row.focus();
    await user.keyboard('s');
    expect(await screen.findByText(`已停用站点「${name}」`)).toBeTruthy();
    expect(screen.getByRole('button', { name: '撤销 (Ctrl+Z)' })).toBeTruthy();
    await waitFor(async () => {
      const [now] = await s.database.db.select().from(t.stations).where(eq(t.stations.id, before!.id));
      expect(now?.state).toBe(0);
    });
    await user.keyboard('{Control>}z{/Control}');
    expect(await screen.findByText(`已撤销：站点「${name}」恢复为启用`)).toBeTruthy();
    await waitFor(async () => {
      const [now] = await s.database.db.select().from(t.stations).where(eq(t.stations.id, before!.id));
      expect(now?.state).toBe(1);
    });
    // A second Ctrl+Z has nothing left to take back.
    await user.keyboard('{Control>}z{/Control}');
    const [after] = await s.database.db.select().from(t.stations).where(eq(t.stations.id, before!.id));
    expect(after?.state).toBe(1);
  });

  it('站点: 停用, then a rename in the edit dialog, then Ctrl+Z: the stop is back in service under its new name', async () => {
    const [xuhui] = await s.database.db.select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
    const now = new Date();
    const [stop] = await s.database.db.insert(t.stations).values({ districtId: xuhui!.id, name: '撤销改名测试站', lng: 121.4401, lat: 31.1802, createdAt: now, updatedAt: now }).returning();
    await signIn(s, 'manager');
    visit(s, `/station/station?name=${encodeURIComponent('撤销改名测试')}`);
    const { user } = renderWithUser(<App />);
    const { row } = await firstRow('站点列表');
    expect(nameOf(row)).toBe('撤销改名测试站');
    row.focus();
    await user.keyboard('s');
    expect(await screen.findByText('已停用站点「撤销改名测试站」')).toBeTruthy();
    await waitFor(async () => expect((await s.database.db.select().from(t.stations).where(eq(t.stations.id, stop!.id)))[0]?.state).toBe(0));

    // Renamed within the 10 s of 撤销: the edit dialog saves the whole row.
    const { row: again } = await firstRow('站点列表');
    again.focus();
    await user.keyboard('e');
    const dialog = await screen.findByRole('dialog', { name: '编辑站点 · 撤销改名测试站' });
    const name = within(dialog).getByLabelText(/站点名称/);
    await user.clear(name);
    await user.type(name, '撤销改名测试站新名');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText('已保存站点「撤销改名测试站新名」')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    (document.activeElement as HTMLElement | null)?.blur();

    await user.keyboard('{Control>}z{/Control}');
    expect(await screen.findByText('已撤销：站点「撤销改名测试站」恢复为启用')).toBeTruthy();
    await waitFor(async () => {
      const [now] = await s.database.db.select().from(t.stations).where(eq(t.stations.id, stop!.id));
      expect(now).toMatchObject({ name: '撤销改名测试站新名', state: 1 });
    });
  });

  it('站点 for the viewer: no 停用 button and s on a row changes nothing', async () => {
    await signIn(s, 'viewer');
    visit(s, '/station/station?state=1&sort=name,asc');
    const { user } = renderWithUser(<App />);
    const { row } = await firstRow('站点列表');
    const name = nameOf(row);
    expect(within(row).queryByRole('button', { name: /^停用/ })).toBeNull();
    // A toast of the test before may still show: count, do not look for absence.
    const toasts = () => screen.queryAllByText(`已停用站点「${name}」`).length;
    const shown = toasts();
    row.focus();
    await user.keyboard('s');
    await new Promise((r) => setTimeout(r, 300));
    expect(toasts()).toBe(shown);
    const [now] = await s.database.db.select().from(t.stations).where(eq(t.stations.name, name));
    expect(now?.state).toBe(1);
  });

  it('系统日志: 详情 is spoken as the entry it opens, Enter on the focused row opens it; 操作类型 offers the server’s types and filters by one', async () => {
    await signIn(s, 'admin');
    visit(s, '/user/sys-log');
    const { user } = renderWithUser(<App />);
    const { row } = await firstRow('系统日志');
    const [time, , operation] = within(row).getAllByRole('cell').map((c) => c.textContent!);
    expect(within(row).getByRole('button', { name: `查看 ${time} ${operation} 的详情` }).textContent).toBe('详情');
    row.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getAllByText(/详情/).length).toBeGreaterThan(0);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const select = screen.getByLabelText('操作类型') as HTMLSelectElement;
    await waitFor(() => expect([...select.options].map((o) => o.text)).toContain(operation));
    const chosen = [...select.options].find((o) => o.text === operation)!;
    await user.selectOptions(select, chosen.value);
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('operationType')).toBe(chosen.value));
    const main = screen.getByRole('main');
    await waitFor(() => expect(log.to('/sysLog/page').at(-1)?.query.get('operationType')).toBe(chosen.value));
    await waitFor(() => expect(bodyRows(main).map((r) => within(r).getAllByRole('cell')[2]!.textContent)).toEqual(bodyRows(main).map(() => operation)));
    const stored = await s.database.db.select().from(t.sysLog).where(eq(t.sysLog.operationType, chosen.value));
    expect(bodyRows(main).length).toBe(Math.min(20, stored.length));
  });
});

const DAY = 86_400_000;
const daysBefore = (n: number) => formatDateTime(Date.now() - n * DAY, 'YYYY-MM-DD');
/** The body rows of the main region's table (the loading and empty rows take no focus). */
const bodyRows = (main: HTMLElement) => [...main.querySelectorAll<HTMLTableRowElement>('tr[tabindex]')];

/** A line of the agent's area with rides, one of its buses, and another line of the area. */
async function twoLines() {
  const [agent] = await s.database.db.select({ districtId: t.users.districtId }).from(t.users).where(eq(t.users.login, 'agent'));
  const d = t.dayTakeBusTotals;
  const [one] = await s.database.db.select({ lineCode: d.lineCode, busName: d.busName }).from(d).where(eq(d.districtId, agent!.districtId!)).orderBy(asc(d.lineCode)).limit(1);
  const [other] = await s.database.db
    .select({ lineCode: d.lineCode, lineName: d.lineName })
    .from(d)
    .where(and(eq(d.districtId, agent!.districtId!), ne(d.lineCode, one!.lineCode)))
    .limit(1);
  return { district: agent!.districtId!, line: one!.lineCode, bus: one!.busName, other: other! };
}

/**
 * What a list declares beyond its filters (乘车记录 on the frame): the filters it sends when the user
 * set none, the refusal it says instead of asking, a change of one filter adjusting another, and a
 * select fed by another call; asserted on the screen and on the requests the server received.
 */
describe('list declarations', () => {
  it('effective filters: 乘车记录 without filters asks for the last 7 days and shows them in the bar, the address left as it was; a card number asks for every ride of it', async () => {
    await signIn(s, 'agent');
    visit(s, '/order/order-list');
    const { unmount } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    await waitFor(() => expect(bodyRows(main).length).toBeGreaterThan(0), { timeout: 5_000 });
    const [asked] = log.to('/query/record/list');
    expect(asked?.query.get('startTime')).toBe(`${daysBefore(6)}T00:00:00+08:00`);
    expect(asked?.query.get('endTime')).toBe(`${formatDateTime(new Date(), 'YYYY-MM-DD')}T23:59:59+08:00`);
    expect(asked?.query.get('page')).toBe('0');
    // The summary is asked over the same filters, without paging.
    const [summed] = log.to('/query/record/summary');
    expect(summed?.query.get('startTime')).toBe(asked?.query.get('startTime'));
    expect(summed?.query.has('page')).toBe(false);
    expect((within(main).getByLabelText('乘车时间从') as HTMLInputElement).value).toBe(`${daysBefore(6)} 00:00`);
    expect(window.location.search).toBe('');
    unmount();

    const [ride] = await s.database.db.select({ cardNo: t.rideRecords.cardNo }).from(t.rideRecords).limit(1);
    log.clear();
    visit(s, `/order/order-list?cardNo=${ride!.cardNo}`);
    renderWithUser(<App />);
    const again = await screen.findByRole('main');
    await waitFor(() => expect(log.to('/query/record/list')).toHaveLength(1), { timeout: 5_000 });
    const [byCard] = log.to('/query/record/list');
    expect(byCard?.query.get('cardNo')).toBe(ride!.cardNo);
    expect(byCard?.query.has('startTime')).toBe(false);
    expect((within(again).getByLabelText('乘车时间从') as HTMLInputElement).value).toBe('');
  });

  it('a refusal guard: a range over 31 days from the address, or 12 digits of a card, stays in the bar and is told as an alert; nothing is asked and the exports wait', async () => {
    await signIn(s, 'agent');
    visit(s, `/order/order-list?startTime=${daysBefore(40)}T00:00:00%2B08:00&endTime=${daysBefore(0)}T23:59:59%2B08:00`);
    const { user, unmount } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const alert = await within(main).findByRole('alert', {}, { timeout: 5_000 });
    expect(alert.textContent).toBe('时间范围不能超过31天（输入卡号时可不限时间，查询该卡的全部记录）');
    expect(within(main).getByText('请修改查询条件')).toBeTruthy();
    expect((within(main).getByLabelText('乘车时间从') as HTMLInputElement).value).toBe(`${daysBefore(40)} 00:00`);
    expect((within(main).getByRole('button', { name: '导出' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(main).getByRole('button', { name: '导出员工记录' }) as HTMLButtonElement).disabled).toBe(true);
    // Enter on the time field applies the same range again: still refused, still nothing asked.
    within(main).getByLabelText('乘车时间从').focus();
    await user.keyboard('{Enter}');
    await new Promise((r) => setTimeout(r, 200));
    expect(log.to('/query/record/list')).toHaveLength(0);
    expect(log.to('/query/record/summary')).toHaveLength(0);
    unmount();

    visit(s, '/order/order-list?cardNo=123456789012');
    renderWithUser(<App />);
    const again = await screen.findByRole('main');
    // The card's own rule, without the hint: a card number was given.
    expect((await within(again).findByRole('alert', {}, { timeout: 5_000 })).textContent).toBe('卡号应为16位数字');
    expect((within(again).getByLabelText('卡号') as HTMLInputElement).value).toBe('123456789012');
    expect(log.to('/query/record/list')).toHaveLength(0);
  });

  it('a filter patch and fed options: the 车辆 select lists the chosen line’s buses; choosing another line lets go of the bus in the address and in the call', async () => {
    const { district, line, bus, other } = await twoLines();
    await signIn(s, 'agent');
    visit(s, `/order/order-list?lineCode=${line}&busName=${encodeURIComponent(bus)}`);
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const buses = (await within(main).findByLabelText('车辆', {}, { timeout: 5_000 })) as HTMLSelectElement;
    expect(buses.value).toBe(bus);
    await waitFor(() => expect(buses.options.length).toBeGreaterThan(2), { timeout: 5_000 });
    expect(log.to('/day-take-bus-total/pc/busNames').some((r) => r.query.get('lineCode') === line)).toBe(true);
    await waitFor(() => expect(log.to('/query/record/list').some((r) => r.query.get('busName') === bus)).toBe(true));

    log.clear();
    const lines = within(main).getByLabelText('线路') as HTMLSelectElement;
    await waitFor(() => expect([...lines.options].some((o) => o.value === other.lineCode)).toBe(true), { timeout: 5_000 });
    await user.selectOptions(lines, other.lineCode);
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('lineCode')).toBe(other.lineCode));
    expect(new URLSearchParams(window.location.search).has('busName')).toBe(false);
    await waitFor(() => expect(log.to('/query/record/list').length).toBeGreaterThan(0), { timeout: 5_000 });
    for (const r of log.to('/query/record/list')) {
      expect(r.query.get('lineCode')).toBe(other.lineCode);
      expect(r.query.has('busName')).toBe(false);
    }
    expect(buses.value).toBe('');
    await waitFor(() => expect(log.to('/day-take-bus-total/pc/busNames').some((r) => r.query.get('lineCode') === other.lineCode)).toBe(true));
    const theirs = await s.database.db.selectDistinct({ busName: t.dayTakeBusTotals.busName }).from(t.dayTakeBusTotals)
      .where(and(eq(t.dayTakeBusTotals.districtId, district), eq(t.dayTakeBusTotals.lineCode, other.lineCode)));
    await waitFor(() => expect([...buses.options].slice(1).map((o) => o.value).sort()).toEqual(theirs.map((b) => b.busName).sort()), { timeout: 5_000 });
    expect([...buses.options].map((o) => o.value)).not.toContain(bus);
  });

  it('a list that does not page: 角色组 asks without page or size, and lists every group', async () => {
    await signIn(s, 'admin');
    visit(s, '/user/role-group');
    renderWithUser(<App />);
    const { table } = await firstRow('角色组');
    const groups = await s.database.db.select().from(t.roleGroups);
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(groups.length + 1));
    const [asked] = log.to('/group/get/list');
    expect(asked?.query.has('page')).toBe(false);
    expect(asked?.query.has('size')).toBe(false);
  });
});
