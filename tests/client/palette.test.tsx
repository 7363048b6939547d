import { sql } from 'drizzle-orm';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { App } from '../../src/client/app/app';
import { COMMANDS } from '../../src/client/app/feature-commands';
import { Palette } from '../../src/client/commands/palette';
import { ROWS } from '../../src/client/commands/palette-rows';
import type { EntitySource } from '../../src/client/commands/entity-source';
import type { CommandContext } from '../../src/client/commands/types';
import { Msg, SESSION, account, auth, system } from '../../src/shared/api';
import { installChineseZodMessages } from '../../src/shared/api/zod-locale';
import { renderWithUser, resetBrowserState, startClientServer, visit } from '../support/render';
import { recordRequests, signIn } from '../support/request-log';
import { DEMO_PASSWORD, type TestServer } from '../support/test-server';

/**
 * The command palette (DESIGN §5) in the real App against the real server: Ctrl+K, pinyin
 * initials, modes, arguments, recents, input sniffing, server-backed records, permissions.
 */

let s: TestServer;
beforeAll(async () => {
  installChineseZodMessages();
  s = await startClientServer();
});
afterAll(async () => {
  await s.close();
});
afterEach(() => {
  resetBrowserState();
  vi.restoreAllMocks();
});

type User = ReturnType<typeof renderWithUser>['user'];

const currentTitle = async () => (await within(await screen.findByRole('navigation', { name: '面包屑' }, { timeout: 5_000 })).findByRole('listitem', { current: 'page' })).textContent;

/** Signs in (as the layout tests do), opens the console at `path` and waits for its page. */
async function start(login: string, path = '/') {
  const token = await signIn(s, login);
  visit(s, path);
  const { user } = renderWithUser(<App />);
  await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
  await currentTitle();
  return { user, token };
}

async function openPalette(user: User) {
  await user.keyboard('{Control>}k{/Control}');
  const dialog = await screen.findByRole('dialog', { name: '命令面板' }, { timeout: 5_000 });
  const input = within(dialog).getByRole('combobox');
  await waitFor(() => expect(document.activeElement).toBe(input));
  return { dialog, input };
}

const rows = (dialog: HTMLElement) => within(dialog).queryAllByRole('option');
const rowTexts = (dialog: HTMLElement) => rows(dialog).map((r) => r.textContent ?? '');
const selectedText = (dialog: HTMLElement) => within(dialog).queryByRole('option', { selected: true })?.textContent ?? null;
/** The visible group headings, in order (cmdk labels each group by its heading). */
const groupNames = (dialog: HTMLElement) =>
  within(dialog)
    .queryAllByRole('group')
    .map((g) => document.getElementById(g.getAttribute('aria-labelledby') ?? '')?.textContent ?? '');
const liveRegion = (dialog: HTMLElement) => {
  const region = dialog.querySelector('[aria-live="polite"]');
  if (!region) throw new Error('no polite live region in the palette');
  return region;
};

/** Waits until every record list, the pinyin dictionary and any server search have answered. */
const listSettled = (dialog: HTMLElement) =>
  waitFor(() => expect(within(dialog).getByRole('listbox', { name: '搜索结果' }).getAttribute('aria-busy')).toBe('false'), { timeout: 5_000 });

/** Waits until the selected (Enter-able) row starts with `title`. */
async function expectSelected(dialog: HTMLElement, title: string | RegExp) {
  await waitFor(
    () => {
      const text = selectedText(dialog) ?? '';
      if (typeof title === 'string') expect(text.startsWith(title), `selected row: ${text}`).toBe(true);
      else expect(text).toMatch(title);
    },
    { timeout: 3_000 },
  );
}

describe('opening and jumping', () => {
  it('Enter typed with the query, before the records and the dictionary arrive, runs the best row once they are in', async () => {
    const { user } = await start('admin');
    await openPalette(user);
    await user.keyboard('xh{Enter}');
    await waitFor(() => expect(window.location.pathname + decodeURIComponent(window.location.search)).toBe('/settings/districts?name=徐汇区'), { timeout: 5_000 });
    // Focus rests on the new page's main region, not on <body> or the palette's old opener.
    await waitFor(() => expect(document.activeElement?.id).toBe('main'));
  });

  it('Ctrl+K opens it; pinyin initials zhlb + Enter land on 账号列表, jsz + Enter on 角色组', async () => {
    const { user } = await start('admin');
    expect(window.location.pathname).toBe('/noticeReport/notice');

    const first = await openPalette(user);
    await user.keyboard('zhlb');
    await expectSelected(first.dialog, '账号列表');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull());
    expect(window.location.pathname).toBe('/user/user-list');
    await waitFor(async () => expect(await currentTitle()).toBe('账号列表'));

    const second = await openPalette(user);
    // The palette starts empty on every opening.
    expect((second.input as HTMLInputElement).value).toBe('');
    await user.keyboard('jsz');
    await expectSelected(second.dialog, '角色组');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(window.location.pathname).toBe('/user/role-group'));
    await waitFor(async () => expect(await currentTitle()).toBe('角色组'));
    expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull();
  });

  it('> lists only commands and / only pages', async () => {
    const { user } = await start('admin');
    const { dialog, input } = await openPalette(user);

    await user.keyboard('>');
    await waitFor(() => expect(rows(dialog).length).toBeGreaterThan(3));
    expect(groupNames(dialog)).toEqual(['命令']);
    expect(rowTexts(dialog).some((t) => t.startsWith('新增账号'))).toBe(true);
    expect(rowTexts(dialog).some((t) => t.startsWith('账号列表'))).toBe(false);
    // Every command the super user may run, none cut off: the ones registered last (the money
    // menus') were past the first 50 rows once, and out of reach of browsing.
    const everyCommand = COMMANDS.map((c) => c.title);
    expect(everyCommand.length).toBeGreaterThan(ROWS);
    await waitFor(() => expect(rows(dialog)).toHaveLength(everyCommand.length));
    expect(rowTexts(dialog).some((t) => t.startsWith(everyCommand.at(-1)!))).toBe(true);

    await user.keyboard('zhlb');
    await waitFor(() => expect(rowTexts(dialog).some((t) => t.startsWith('账号列表'))).toBe(false));
    for (const name of groupNames(dialog)) expect(name).toBe('命令');

    await user.clear(input);
    await user.keyboard('/zhlb');
    await expectSelected(dialog, '账号列表');
    expect(groupNames(dialog)).toEqual(['页面']);

    await user.clear(input);
    await user.keyboard('/xzzh');
    await waitFor(() => expect(rowTexts(dialog).some((t) => t.startsWith('新增账号'))).toBe(false));
    for (const name of groupNames(dialog)) expect(name).toBe('页面');

    // The same text without a prefix finds the command: the modes narrow, they do not break search.
    await user.clear(input);
    await user.keyboard('xzzh');
    await expectSelected(dialog, '新增账号');
  });

  it('announces the number of results in the polite live region', async () => {
    const { user } = await start('admin');
    const { dialog, input } = await openPalette(user);
    const region = liveRegion(dialog);
    expect(region.getAttribute('aria-live')).toBe('polite');

    await user.keyboard('zhlb');
    await expectSelected(dialog, '账号列表');
    await waitFor(() => expect(region.textContent).toBe(`${rows(dialog).length} 个结果`));
    expect(rows(dialog).length).toBeGreaterThan(0);

    await user.clear(input);
    await user.keyboard('>');
    await waitFor(() => expect(region.textContent).toBe(`${rows(dialog).length} 个结果`));
    const commands = rows(dialog).length;

    await user.keyboard('qqqzzzxxx');
    await waitFor(() => expect(rows(dialog)).toHaveLength(0));
    expect(region.textContent).toBe('没有结果');
    expect(within(dialog).getByText('没有匹配的结果')).toBeTruthy();
    expect(commands).toBeGreaterThan(1);
  });

  it('@ with fewer than 4 characters says what to type, not that nothing matched', async () => {
    const { user } = await start('agent');
    const { dialog } = await openPalette(user);
    await user.keyboard('@12');
    expect(await within(dialog).findByText('输入至少 4 位卡号、手机号、身份证号或姓名查询乘客与卡片')).toBeTruthy();
    expect(within(dialog).queryByText('没有匹配的结果')).toBeNull();
    expect(rows(dialog)).toHaveLength(0);
  });

  it('Esc closes it and gives focus back to the element that had it', async () => {
    const { user } = await start('admin', '/user/user-list');
    const field = await screen.findByLabelText('关键字');
    await user.click(field);
    expect(document.activeElement).toBe(field);

    // Ctrl+K works while typing in a field.
    const { dialog } = await openPalette(user);
    expect(dialog.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(field));
    // Nothing was typed into the field by the palette's keys.
    expect((field as HTMLInputElement).value).toBe('');
  });
});

describe('permissions', () => {
  it('the viewer is not offered 新增账号 while the admin is, and the server refuses the viewer’s direct call', async () => {
    const viewer = await start('viewer');
    const v = await openPalette(viewer.user);
    // Without a query the palette lists the account's commands: logout yes, add-account no.
    await waitFor(() => expect(rowTexts(v.dialog).some((t) => t.startsWith('退出登录'))).toBe(true));
    expect(rowTexts(v.dialog).some((t) => t.includes('新增账号'))).toBe(false);
    await viewer.user.keyboard('xzzh');
    expect((v.input as HTMLInputElement).value).toBe('xzzh');
    await waitFor(() => expect(liveRegion(v.dialog).textContent).toBe(rows(v.dialog).length ? `${rows(v.dialog).length} 个结果` : '没有结果'));
    expect(rowTexts(v.dialog).some((t) => t.includes('新增账号'))).toBe(false);
    await viewer.user.keyboard('{Escape}');

    // Hiding is a courtesy, refusing is the rule.
    const refused = await s.call(account.userAdd, {
      token: viewer.token,
      body: { login: 'palette01', firstName: '越权者', password: `${DEMO_PASSWORD}x`, authority: 'ROLE_USER', groupId: 1 },
    });
    expect([refused.status, refused.body.code]).toEqual([403, 403]);
    resetBrowserState();

    const admin = await start('admin');
    const stored = await s.call(account.userPage, { token: admin.token, query: { keyword: 'palette01' } });
    expect(stored.body.data.totalElements).toBe(0);

    const a = await openPalette(admin.user);
    await admin.user.keyboard('xzzh');
    await expectSelected(a.dialog, '新增账号');
    await admin.user.keyboard('{Enter}');
    await waitFor(() => expect(window.location.pathname).toBe('/user/user-list'));
    // ?action=add opens the add dialog on the account list.
    await screen.findByRole('dialog', {}, { timeout: 5_000 });
  });

  /** Types `typed` into the emptied input and waits for every answer to it. */
  async function search(user: User, input: HTMLElement, dialog: HTMLElement, typed: string) {
    await user.clear(input);
    await user.type(input, typed);
    await listSettled(dialog);
  }

  it('the admin is offered 徐汇区 for xuhui and 徐汇区隐私政策 for yinsi', async () => {
    const { user } = await start('admin');
    const { dialog, input } = await openPalette(user);
    await search(user, input, dialog, 'xuhui');
    expect(groupNames(dialog)).toContain('区域');
    expect(rowTexts(dialog).some((t) => t.startsWith('徐汇区'))).toBe(true);
    await search(user, input, dialog, 'yinsi');
    expect(groupNames(dialog)).toContain('协议');
    expect(rowTexts(dialog).some((t) => t.startsWith('徐汇区隐私政策'))).toBe(true);
  });

  it.each(['agent', 'viewer'])('%s, whose menus hold neither 区域管理 nor 协议管理, is offered neither row (no Enter to /404)', async (login) => {
    const { user } = await start(login);
    const { dialog, input } = await openPalette(user);
    for (const typed of ['xuhui', 'yinsi']) {
      await search(user, input, dialog, typed);
      expect(groupNames(dialog), typed).not.toContain('区域');
      expect(groupNames(dialog), typed).not.toContain('协议');
      expect(rowTexts(dialog).filter((t) => t.startsWith('徐汇区')), typed).toEqual([]);
    }
  });

  it('drops a record row whose own path leads to a page the account cannot open, whatever its source declared', async () => {
    const source: EntitySource = {
      id: 'test-mixed',
      group: '测试记录',
      permission: SESSION,
      page: '/user/user-list',
      load: () =>
        Promise.resolve([
          { key: 'test:open', title: '测试记录甲', path: '/user/user-list?keyword=a' },
          { key: 'test:closed', title: '测试记录乙', path: '/settings/districts?name=b' },
        ]),
    };
    const ctx: CommandContext = { navigate: () => undefined, setDistrict: () => undefined, shell: () => undefined, changed: () => undefined };
    const { user } = renderWithUser(
      <Palette open onClose={() => undefined} login="test" commands={[]} pages={[]} sources={[source]} canOpen={(path) => path.startsWith('/user/')} ctx={ctx} />,
    );
    const dialog = await screen.findByRole('dialog', { name: '命令面板' });
    await search(user, within(dialog).getByRole('combobox'), dialog, '测试记录');
    expect(rowTexts(dialog).map((t) => t.slice(0, 5))).toEqual(['测试记录甲']);
  });
});

describe('arguments', () => {
  it('查询账号 asks for a keyword inline; Enter runs it and the list shows the match', async () => {
    const { user } = await start('admin');
    const { dialog, input } = await openPalette(user);
    await user.keyboard('查询账号');
    await expectSelected(dialog, '查询账号');
    await user.keyboard('{Enter}');

    // Now the step: the input asks for the argument and is empty.
    await waitFor(() => expect(input.getAttribute('placeholder')).toContain('登录名、姓名或手机号'));
    expect((input as HTMLInputElement).value).toBe('');
    expect(within(dialog).getByText(/查询账号 · 1\/1/)).toBeTruthy();

    await user.keyboard('agent');
    await expectSelected(dialog, '确定：agent');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(window.location.pathname + window.location.search).toBe('/user/user-list?keyword=agent'));
    const main = screen.getByRole('main');
    expect(await within(main).findByText('客服小李', {}, { timeout: 5_000 })).toBeTruthy();
    expect(within(main).queryByText('系统管理员')).toBeNull();
  });

  it('查询账号 with a phone hands it to the list in memory: neither the address nor any request URL holds it', async () => {
    const { user, token } = await start('admin');
    const staff = (await s.call(account.userPage, { token, query: { size: 100 } })).body.data.content;
    const agentRow = staff.find((u) => u.login === 'agent');
    expect(agentRow?.phone).toMatch(/^1\d{2}\*{4}\d{4}$|^1\d{10}$/);
    // The list masks phones; the stored number is what an operator would type.
    const phone = (await s.database.db.execute(sql`select phone from users where login = 'agent'`) as unknown as { rows: { phone: string }[] }).rows[0]!.phone;
    const log = recordRequests(s);
    const { dialog } = await openPalette(user);
    await user.keyboard('查询账号');
    await expectSelected(dialog, '查询账号');
    await user.keyboard('{Enter}');
    await user.keyboard(phone);
    await expectSelected(dialog, `确定：${phone}`);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(window.location.pathname).toBe('/user/user-list'));
    const main = screen.getByRole('main');
    expect(await within(main).findByText('客服小李', {}, { timeout: 5_000 })).toBeTruthy();
    expect(window.location.search).not.toContain(phone.slice(3, 7));
    const leaked = log.seen.filter((r) => [...r.query.values()].some((v) => v.replace(/\D/g, '').includes(phone)));
    expect(leaked.map((r) => r.path)).toEqual([]);
  });

  it('Backspace on an empty argument goes back to the list', async () => {
    const { user } = await start('admin');
    const { dialog, input } = await openPalette(user);
    await user.keyboard('cxzh');
    await expectSelected(dialog, '查询账号');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(input.getAttribute('placeholder')).toContain('登录名、姓名或手机号'));

    // Typed text is erased first; only then does Backspace leave the step.
    await user.keyboard('ab{Backspace}{Backspace}');
    expect(within(dialog).queryByText(/查询账号 · 1\/1/)).toBeTruthy();
    await user.keyboard('{Backspace}');
    await waitFor(() => expect(within(dialog).queryByText(/查询账号 · 1\/1/)).toBeNull());
    expect(input.getAttribute('placeholder')).toContain('搜索页面、命令和记录');
    await waitFor(() => expect(rowTexts(dialog).some((t) => t.startsWith('退出登录'))).toBe(true));
    expect(window.location.pathname).toBe('/noticeReport/notice');
  });

  it('切换区域 for the admin: choosing 徐汇 stores the 徐汇区 id and the area selector shows it', async () => {
    const { user, token } = await start('admin');
    const districts = (await s.call(system.districtPage, { token, query: { page: 0, size: 1000 } })).body.data.content;
    const xuhui = districts.find((d) => d.name === '徐汇区');
    expect(xuhui).toBeDefined();
    expect(localStorage.getItem('bus-console.district')).toBeNull();

    const { dialog } = await openPalette(user);
    await user.keyboard('切换区域');
    await expectSelected(dialog, '切换区域');
    await user.keyboard('{Enter}');
    // The options come from the server: every area plus 全部区域.
    await waitFor(() => expect(rows(dialog)).toHaveLength(districts.length + 1));
    await user.keyboard('徐汇');
    await expectSelected(dialog, '徐汇区');
    await user.keyboard('{Enter}');

    await waitFor(() => expect(localStorage.getItem('bus-console.district')).toBe(JSON.stringify(String(xuhui?.id))));
    expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull();
    const select = screen.getByRole('combobox', { name: '切换区域' }) as HTMLSelectElement;
    await waitFor(() => expect(select.selectedOptions[0]?.textContent).toBe('徐汇区'));
  });

  it('切换区域 is not offered to an account without openDistrict', async () => {
    const { user } = await start('manager');
    const { dialog } = await openPalette(user);
    await user.keyboard('>qhqy');
    await waitFor(() => expect(liveRegion(dialog).textContent).toBe(rows(dialog).length ? `${rows(dialog).length} 个结果` : '没有结果'));
    expect(rowTexts(dialog).some((t) => t.startsWith('切换区域'))).toBe(false);
  });
});

describe('recents', () => {
  const stored = () => (JSON.parse(localStorage.getItem('bus-console.recents.admin') ?? '[]') as { key: string }[]).map((r) => r.key);

  /** Runs 账号列表 from the palette, then opens it again with an empty query. */
  async function runThenReopen(user: User) {
    const first = await openPalette(user);
    expect(groupNames(first.dialog)).not.toContain('最近使用');
    await user.keyboard('zhlb');
    await expectSelected(first.dialog, '账号列表');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(window.location.pathname).toBe('/user/user-list'));
    expect(stored()).toEqual(['page:/user/user-list']);
    const { dialog } = await openPalette(user);
    await waitFor(() => expect(groupNames(dialog)[0]).toBe('最近使用'));
    const recentGroup = within(dialog).getAllByRole('group')[0] as HTMLElement;
    expect(within(recentGroup).getAllByRole('option').map((o) => o.textContent?.slice(0, 4))).toEqual(['账号列表']);
    return dialog;
  }

  it('a command run shows first under 最近使用 on an empty query, selected, so Enter runs it again', async () => {
    const { user } = await start('admin');
    const dialog = await runThenReopen(user);
    // The top row is the one Enter runs.
    await expectSelected(dialog, '账号列表');
    expect(rowTexts(dialog)[0]).toBe(selectedText(dialog));
  });

  it('Shift+Delete removes the selected recent', async () => {
    const { user } = await start('admin');
    let dialog = await runThenReopen(user);
    await user.keyboard('{Home}');
    await expectSelected(dialog, '账号列表');

    await user.keyboard('{Shift>}{Delete}{/Shift}');
    await waitFor(() => expect(groupNames(dialog)).not.toContain('最近使用'));
    expect(stored()).toEqual([]);
    // Removing is not running: still open, still here.
    expect(screen.getByRole('dialog', { name: '命令面板' })).toBeTruthy();
    expect(window.location.pathname).toBe('/user/user-list');

    await user.keyboard('{Escape}');
    ({ dialog } = await openPalette(user));
    await waitFor(() => expect(rows(dialog).length).toBeGreaterThan(0));
    expect(groupNames(dialog)).not.toContain('最近使用');
  });
});

describe('records from the server', () => {
  it('the selection stays on the row the user chose while the server’s answer arrives', async () => {
    // Two failed logins: the palette's 登录失败 rows for staff001 and staff002.
    for (const login of ['staff001', 'staff002']) {
      const res = await s.call(auth.authenticate, { body: { username: login, password: 'wrong-password-1' } });
      expect(res.body).toEqual({ code: 0, msg: Msg.loginFailed, data: null });
    }
    const { user, token } = await start('admin');
    const staff = (await s.call(account.userPage, { token, query: { keyword: 'staff', size: 8 } })).body.data.content;
    expect(staff.length).toBeGreaterThan(2);

    const { dialog } = await openPalette(user);
    await user.keyboard('staff');
    const staffRow = (t: string) => /（staff00\d）/.test(t);
    await waitFor(() => expect(rowTexts(dialog).filter((t) => t.startsWith('登录失败：staff00'))).toHaveLength(2));
    await waitFor(() => expect(rowTexts(dialog).filter(staffRow).length).toBeGreaterThan(2));
    await user.keyboard('{ArrowDown}{ArrowDown}');
    const before = selectedText(dialog);
    expect(before).not.toBe(rowTexts(dialog)[0]);
    // The server-backed account search has answered (its rows merge by key).
    await listSettled(dialog);
    expect(selectedText(dialog)).toBe(before);
    expect(rowTexts(dialog).some((t) => t.startsWith(`${staff[0]?.firstName}（${staff[0]?.login}）`))).toBe(true);
    await waitFor(() => expect(liveRegion(dialog).textContent).toBe(`${rows(dialog).length} 个结果`));
  });

  it('11 digits offer 按手机号查询 (masked), which lands on the account list filtered by the number, the number in no address or request URL', async () => {
    const { user } = await start('admin');
    const log = recordRequests(s);
    try {
      const { dialog } = await openPalette(user);
      await user.keyboard('13800138001');
      await expectSelected(dialog, '按手机号查询员工：138****8001');
      expect(groupNames(dialog)[0]).toBe('识别到的号码');
      await user.keyboard('{Enter}');
      await waitFor(() => expect(window.location.pathname).toBe('/user/user-list'));
      const main = screen.getByRole('main');
      expect(await within(main).findByText('客服小李', {}, { timeout: 5_000 })).toBeTruthy();
      expect(within(main).getByText('13800138001')).toBeTruthy();
      expect(within(main).queryByText('系统管理员')).toBeNull();
      // The filter shows the number; the address, the recents and every request URL do not.
      expect((within(main).getByRole('search').querySelector('input[data-filter]') as HTMLInputElement).value).toBe('13800138001');
      expect(window.location.href).not.toContain('13800138001');
      expect(JSON.stringify({ ...localStorage })).not.toContain('13800138001');
      expect(log.to('/user/query/page', 'POST').length).toBeGreaterThan(0);
      expect(log.seen.filter((r) => r.query.toString().includes('13800138001')).map((r) => `${r.method} ${r.path}?${r.query}`)).toEqual([]);
    } finally {
      log.stop();
    }
  });

  it('reads a phone written with spaces, and offers the lookup only to accounts that may open the list', async () => {
    const { user } = await start('admin');
    const { dialog } = await openPalette(user);
    await user.keyboard('138 0013 8001');
    await expectSelected(dialog, '按手机号查询员工：138****8001');
  });

  it('a typed phone, citizen id or card number goes to the card lookup in its body and never to the name searches (stations, accounts); names still do', async () => {
    const { user } = await start('admin');
    const log = recordRequests(s);
    try {
      const typedNumbers = ['13800138001', '11010519491231002X', '3101000020000012'];
      for (const typed of typedNumbers) {
        const lookups = log.to('/card/lookup', 'POST').length;
        const { dialog } = await openPalette(user);
        await user.keyboard(typed);
        // The record sources are asked together after the debounce: the card lookup is one of them.
        await waitFor(() => expect(log.to('/card/lookup', 'POST').length).toBeGreaterThan(lookups), { timeout: 3_000 });
        await user.keyboard('{Escape}');
        await waitFor(() => expect(dialog.isConnected).toBe(false));
      }
      const carrying = log.seen.filter((r) => typedNumbers.some((n) => r.query.toString().includes(n)));
      expect(carrying.map((r) => `${r.method} ${r.path}?${r.query}`)).toEqual([]);
      // A name is still searched on the server by both sources (staff by body: a keyword may be a phone).
      const staffSearches = log.to('/user/query/page', 'POST').length;
      const { dialog } = await openPalette(user);
      await user.keyboard('客服');
      await waitFor(() => expect(log.to('/busStation/list').some((r) => r.query.get('name') === '客服')).toBe(true), { timeout: 3_000 });
      await waitFor(() => expect(log.to('/user/query/page', 'POST').length).toBeGreaterThan(staffSearches), { timeout: 3_000 });
      expect(log.to('/user/query/page', 'GET').filter((r) => r.query.has('keyword'))).toEqual([]);
      await user.keyboard('{Escape}');
      await waitFor(() => expect(dialog.isConnected).toBe(false));
    } finally {
      log.stop();
    }
  });

  it('the agent, who may not open 账号列表, is offered the rider lookup (masked) and not the account one', async () => {
    const { user } = await start('agent');
    const { dialog } = await openPalette(user);
    await user.keyboard('13800138001');
    await expectSelected(dialog, '按手机号查询 138****8001');
    expect(rowTexts(dialog).some((t) => t.includes('按手机号查询员工'))).toBe(false);
  });

  it('a citizen id is offered as a masked lookup that opens the card view without the number in the address; a wrong check character is flagged, not taken for a card', async () => {
    const { user } = await start('admin');
    let { dialog } = await openPalette(user);
    await user.keyboard('11010519491231002X');
    await expectSelected(dialog, '按身份证号查询 110***********002X');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(window.location.pathname).toBe('/busUser/card'));
    expect(window.location.href).not.toContain('11010519491231002X');
    expect(await within(screen.getByRole('main')).findByText('没有找到对应的卡片或乘客。', {}, { timeout: 5_000 })).toBeTruthy();

    ({ dialog } = await openPalette(user));
    await user.keyboard('110105194912310021');
    const row = await within(dialog).findByRole('option', { name: /身份证号：110105194912310021/ });
    expect(row.getAttribute('aria-disabled')).toBe('true');
    expect(row.textContent).toContain('校验位不正确');
    expect(rowTexts(dialog).some((t) => t.includes('卡号'))).toBe(false);
  });
});
