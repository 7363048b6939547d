import { screen, waitFor, within } from '@testing-library/react';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/** The smaller defects of issue 21, each against the real server, each as the user meets it. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const active = () => document.activeElement;
const mainRegion = () => document.getElementById('main');

/** Holds back the answers whose URL contains `part` by `ms` (a slow network, not a fake server). */
function slowDown(part: string, ms: number) {
  const real = globalThis.fetch;
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.includes(part)) await new Promise((r) => setTimeout(r, ms));
    return real(input, init);
  });
}

describe('a table key pressed before the rows arrive', () => {
  it('j is kept and applied once the rows are there: the first row takes focus', async () => {
    await signIn(s, 'admin');
    const slow = slowDown('/user/query/page', 600);
    try {
      visit(s, '/user/user-list');
      const { user } = renderWithUser(<App />);
      await waitFor(() => expect(active()?.id).toBe('main'), { timeout: 5_000 });
      expect(document.querySelectorAll('main tr[tabindex]').length).toBe(0);
      await user.keyboard('j');
      await waitFor(() => expect(active()?.tagName).toBe('TR'), { timeout: 5_000 });
      expect(active()?.textContent).toMatch(/\S/);
    } finally {
      slow.mockRestore();
    }
  });
});

describe('基础设置', () => {
  it('arrival focuses the main region, not the first field; Esc in a field leaves it, and g u works again', async () => {
    await signIn(s, 'admin');
    visit(s, '/settings/base-setting');
    const { user } = renderWithUser(<App />);
    const field = await screen.findByLabelText(/侧边栏二维码/, {}, { timeout: 5_000 });
    await waitFor(() => expect(active()).toBe(mainRegion()));
    // Give a late autofocus its chance: focus stays on the main region.
    await new Promise((r) => setTimeout(r, 300));
    expect(active()).toBe(mainRegion());

    await user.click(field);
    expect(active()).toBe(field);
    await user.keyboard('{Escape}');
    expect(active()).toBe(mainRegion());
    await user.keyboard('gu');
    await waitFor(() => expect(window.location.pathname).toBe('/user/user-list'));
    expect((field as HTMLInputElement).value).not.toContain('gu');
  });
});

/** The breadcrumb's last part: the page's title as the top bar shows it. */
const shownTitle = async () => {
  const crumb = await screen.findByRole('navigation', { name: '面包屑' }, { timeout: 5_000 });
  return crumb.querySelector('[aria-current="page"]')?.textContent ?? '';
};

describe('page titles', () => {
  it('新增规则 says so in the breadcrumb, its <h1> and its main region', async () => {
    await signIn(s, 'manager');
    visit(s, '/specialCode/rule-edit');
    renderWithUser(<App />);
    await screen.findByLabelText(/名称/, {}, { timeout: 5_000 });
    await waitFor(async () => expect(await shownTitle()).toBe('新增规则'));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('新增规则');
    expect(screen.getByRole('main').getAttribute('aria-label')).toBe('新增规则');
  });

  it('every page has one <h1>, its title as the breadcrumb shows it', async () => {
    await signIn(s, 'admin');
    for (const [path, title] of [
      ['/user/user-list', '账号列表'],
      ['/settings/base-setting', '基础设置'],
      ['/station/station', '站点'],
    ] as const) {
      visit(s, path);
      const { unmount } = renderWithUser(<App />);
      await waitFor(async () => expect(await shownTitle()).toBe(title));
      const h1 = screen.getAllByRole('heading', { level: 1 });
      expect(h1.map((h) => h.textContent)).toEqual([title]);
      unmount();
    }
  });
});

describe('g then a letter', () => {
  it('g h opens 线上办卡’s first page (办卡申请), built like every page', async () => {
    await signIn(s, 'admin');
    visit(s, '/user/user-list');
    const { user } = renderWithUser(<App />);
    await waitFor(() => expect(active()?.id).toBe('main'), { timeout: 5_000 });
    await user.keyboard('gh');
    await waitFor(() => expect(window.location.pathname).toBe('/handleCard/handle-card-list'));
    await waitFor(async () => expect(await shownTitle()).toBe('办卡申请'));
  });
});

describe('卡片详情', () => {
  it('names each of its regions once: a section and the table inside it are told apart', async () => {
    const db = s.database.db;
    const [hit] = await db
      .select({ cardNo: t.busCards.cardNo })
      .from(t.busCards)
      .innerJoin(t.districts, eq(t.districts.id, t.busCards.districtId))
      .where(and(eq(t.districts.name, '徐汇区'), sql`exists (select 1 from family_bindings b where b.card_id = ${t.busCards.id})`))
      .limit(1);
    expect(hit).toBeTruthy();
    await signIn(s, 'agent');
    visit(s, `/busUser/card?no=${hit!.cardNo}`);
    renderWithUser(<App />);
    const main = await screen.findByRole('main');
    await within(main).findByText(`卡片详情 · ${hit!.cardNo}`, {}, { timeout: 5_000 });
    await within(main).findByRole('table', { name: /亲情卡绑定/ }, { timeout: 5_000 });
    const nameOf = (el: Element) => el.getAttribute('aria-label') ?? document.getElementById(el.getAttribute('aria-labelledby') ?? '')?.textContent ?? '';
    const names = within(main).getAllByRole('region').map(nameOf);
    expect(names.length).toBeGreaterThanOrEqual(4);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });
});

describe('新增账号’s role', () => {
  it('lists the least privilege first, so ArrowDown on the empty choice picks 用户, not 超级管理员', async () => {
    await signIn(s, 'admin');
    visit(s, '/user/user-list?action=add');
    renderWithUser(<App />);
    const dialog = await screen.findByRole('dialog', { name: '新增账号' }, { timeout: 5_000 });
    const role = within(dialog)
      .getAllByLabelText(/角色/)
      .find((el): el is HTMLSelectElement => el instanceof HTMLSelectElement && [...el.options].some((o) => o.value === 'ROLE_USER'))!;
    expect(role.value).toBe('');
    // The option after the empty one is what ArrowDown selects first.
    expect([...role.options].map((o) => o.textContent)).toEqual(['请选择角色', '用户', '管理员', '超级管理员']);
  });
});

describe('a refused save', () => {
  it('新增账号 with a taken name: the message under 用户名 and, as spec §8 asks, in a toast too; nothing stored', async () => {
    await signIn(s, 'admin');
    visit(s, '/user/user-list?action=add');
    const { user } = renderWithUser(<App />);
    const dialog = await screen.findByRole('dialog', { name: '新增账号' }, { timeout: 5_000 });
    await user.type(within(dialog).getByLabelText(/用户名/), 'manager');
    await user.type(within(dialog).getByLabelText(/姓名/), '重名测试');
    await user.type(within(dialog).getByLabelText(/^\W*密码/), 'Passw0rd2026');
    const role = within(dialog)
      .getAllByLabelText(/角色/)
      .find((el): el is HTMLSelectElement => el instanceof HTMLSelectElement && [...el.options].some((o) => o.value === 'ROLE_USER'))!;
    await user.selectOptions(role, 'ROLE_USER');
    const group = within(dialog)
      .getAllByLabelText(/角色组/)
      .find((el): el is HTMLSelectElement => el instanceof HTMLSelectElement)!;
    await waitFor(() => expect(group.options.length).toBeGreaterThan(1));
    await user.selectOptions(group, group.options[1]!.value);
    const area = within(dialog).queryAllByLabelText(/区域/).find((el): el is HTMLSelectElement => el instanceof HTMLSelectElement);
    if (area) {
      await waitFor(() => expect(area.options.length).toBeGreaterThan(2));
      await user.selectOptions(area, '徐汇区');
    }
    await user.keyboard('{Control>}{Enter}{/Control}');
    const toast = await screen.findByRole('alert', {}, { timeout: 5_000 });
    expect(toast.textContent).toContain('用户名已存在');
    expect(within(dialog).getByText('用户名已存在')).toBeTruthy();
    const stored = await s.database.db.select().from(t.users).where(eq(t.users.firstName, '重名测试'));
    expect(stored).toEqual([]);
  });
});
