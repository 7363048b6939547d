import { act, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import { updateSettings } from '../../src/client/app/settings';
import { api } from '../../src/client/lib/api-client';
import { auth, system } from '../../src/shared/api';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { type RequestLog, signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/** The layout around the screens (spec §2): tags view and area selector, with the real App. */

let s: TestServer;
let log: RequestLog;
clientSuite((server, l) => {
  s = server;
  log = l;
});

const mainMenu = () => screen.findByRole('navigation', { name: '主菜单' });
const currentTitle = async () => within(await screen.findByRole('navigation', { name: '面包屑' })).findByRole('listitem', { current: 'page' });
const tabTitles = () => within(screen.getByRole('tablist', { name: '已打开的页面' })).getAllByRole('tab').map((t) => t.textContent);
const activeTab = () => within(screen.getByRole('tablist', { name: '已打开的页面' })).getByRole('tab', { selected: true }).textContent;

describe('tags view', () => {
  it('is off by default', async () => {
    await signIn(s, 'manager');
    visit(s, '/');
    render(<App />);
    await mainMenu();
    await currentTitle();
    expect(screen.queryByRole('tablist')).toBeNull();
  });

  it('opens a tab per page visited, closes one, the others and all, keeps home affixed, and survives a reload', async () => {
    await signIn(s, 'manager');
    visit(s, '/');
    const first = renderWithUser(<App />);
    const { user } = first;
    const nav = await mainMenu();
    await waitFor(() => expect(window.location.pathname).toBe('/noticeReport/notice'));
    act(() => updateSettings({ tagsView: true }));

    await screen.findByRole('tablist', { name: '已打开的页面' });
    expect(tabTitles()).toEqual(['公告管理']);
    // The home tab is affixed: it has no close mark.
    expect(screen.queryByTitle('关闭 乘车记录 (Delete)')).toBeNull();

    // Home is 公告管理: its menu is open already.
    await user.click(within(nav).getByRole('link', { name: '意见反馈' }));
    await user.click(within(nav).getByRole('button', { name: /乘客用户管理/ }));
    await user.click(within(nav).getByRole('link', { name: '乘客用户' }));
    await user.click(within(nav).getByRole('link', { name: '异常用户' }));
    expect(window.location.pathname).toBe('/busUser/yc-user');
    expect(tabTitles()).toEqual(['公告管理', '意见反馈', '乘客用户', '异常用户']);
    expect(activeTab()).toBe('异常用户');
    // Visiting an open page again does not add a tab.
    await user.click(within(nav).getByRole('link', { name: '乘客用户' }));
    expect(tabTitles()).toEqual(['公告管理', '意见反馈', '乘客用户', '异常用户']);
    await user.click(within(nav).getByRole('link', { name: '异常用户' }));

    const menu = async (label: string) => {
      await user.click(screen.getByRole('button', { name: '标签操作' }));
      await user.click(await screen.findByRole('menuitem', { name: label }));
    };

    // Close: the active tab goes, its neighbour opens.
    await menu('关闭');
    expect(tabTitles()).toEqual(['公告管理', '意见反馈', '乘客用户']);
    await waitFor(() => expect(window.location.pathname).toBe('/busUser/bus-user'));
    expect(activeTab()).toBe('乘客用户');

    // A tab's own × closes it without leaving the current page.
    await user.click(screen.getByTitle('关闭 意见反馈 (Delete)'));
    expect(tabTitles()).toEqual(['公告管理', '乘客用户']);
    expect(window.location.pathname).toBe('/busUser/bus-user');

    // From the keyboard: Delete on a tab closes it and focus moves to the tab that takes its place.
    await user.click(within(nav).getByRole('link', { name: '意见反馈' }));
    await user.click(within(nav).getByRole('link', { name: '乘客用户' }));
    screen.getByRole('tab', { name: '意见反馈' }).focus();
    await user.keyboard('{Delete}');
    expect(tabTitles()).toEqual(['公告管理', '乘客用户']);
    await waitFor(() => expect(document.activeElement?.textContent).toBe('乘客用户'));
    expect(document.activeElement?.getAttribute('role')).toBe('tab');

    await user.click(within(nav).getByRole('link', { name: '意见反馈' }));
    await user.click(within(nav).getByRole('link', { name: '异常用户' }));
    await user.click(within(nav).getByRole('link', { name: '乘客用户' }));
    expect(tabTitles()).toEqual(['公告管理', '乘客用户', '意见反馈', '异常用户']);

    // Close Others: the home tab and the active one stay.
    await menu('关闭其他');
    expect(tabTitles()).toEqual(['公告管理', '乘客用户']);
    expect(window.location.pathname).toBe('/busUser/bus-user');

    // A reload (same storage, new render) brings the same tabs back.
    const stored = JSON.parse(localStorage.getItem('bus-console.tags.manager') ?? '[]') as { path: string }[];
    expect(stored.map((t) => t.path)).toEqual(['/noticeReport/notice', '/busUser/bus-user']);
    first.unmount();
    const again = renderWithUser(<App />);
    await mainMenu();
    await screen.findByRole('tablist', { name: '已打开的页面' });
    expect(tabTitles()).toEqual(['公告管理', '乘客用户']);
    expect(activeTab()).toBe('乘客用户');

    // Close All: only the affixed home tab is left, and it opens.
    await again.user.click(screen.getByRole('button', { name: '标签操作' }));
    await again.user.click(await screen.findByRole('menuitem', { name: '关闭所有' }));
    expect(tabTitles()).toEqual(['公告管理']);
    await waitFor(() => expect(window.location.pathname).toBe('/noticeReport/notice'));

    // The home tab cannot be closed, not even from the menu.
    await again.user.click(screen.getByRole('button', { name: '标签操作' }));
    const close = await screen.findByRole('menuitem', { name: '关闭' });
    expect(close.getAttribute('aria-disabled')).toBe('true');
    await again.user.keyboard('{Escape}');
    expect(tabTitles()).toEqual(['公告管理']);
  });
});

describe('area selector', () => {
  it('is not shown to an account without openDistrict', async () => {
    await signIn(s, 'manager');
    visit(s, '/');
    render(<App />);
    await mainMenu();
    await currentTitle();
    expect(screen.queryByRole('combobox', { name: '切换区域' })).toBeNull();
  });

  it('is shown to the admin with the server’s areas; choosing one makes the next calls carry it', async () => {
    const token = await signIn(s, 'admin');
    const districts = (await s.call(system.districtPage, { token, query: { page: 0, size: 1000 } })).body.data.content;
    expect(districts.length).toBeGreaterThan(1);
    // A page whose own calls are all answered first (意见反馈 on its queue, with its summary): every
    // call seen after the switch is the reload's.
    visit(s, '/noticeReport/feedback?status=0&sort=dueAt,asc');
    const { user } = renderWithUser(<App />);
    await mainMenu();
    const queue = await screen.findByRole('table', { name: '待处理反馈队列' }, { timeout: 8_000 });
    await waitFor(() => expect(within(queue).getAllByText('未处理').length).toBeGreaterThan(0), { timeout: 8_000 });
    await screen.findByLabelText('意见反馈统计', undefined, { timeout: 8_000 });
    const select = await screen.findByRole('combobox', { name: '切换区域' });
    await waitFor(() => expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['全部区域', ...districts.map((d) => d.name)]));
    expect((select as HTMLSelectElement).value).toBe('');

    const chosen = districts[1];
    log.clear();
    await user.selectOptions(select, chosen?.name ?? '');
    expect(localStorage.getItem('bus-console.district')).toBe(JSON.stringify(String(chosen?.id)));
    // The view reloads: what it asks again already carries the area.
    await waitFor(() => expect(log.seen.some((r) => r.path.startsWith('/busline/') || r.path.startsWith('/buscodepc/'))).toBe(true));
    for (const r of log.seen) expect(r.headers.districtid, r.path).toBe(String(chosen?.id));

    log.clear();
    await api.call(auth.currentUser);
    expect(log.to('/busline/api/user/query/msg')[0]?.headers.districtid).toBe(String(chosen?.id));

    // Back to every area: the header is gone.
    await user.selectOptions(screen.getByRole('combobox', { name: '切换区域' }), '全部区域');
    expect(localStorage.getItem('bus-console.district')).toBeNull();
    log.clear();
    await api.call(auth.currentUser);
    expect(log.to('/busline/api/user/query/msg')[0]?.headers.districtid).toBeUndefined();
  });
});
