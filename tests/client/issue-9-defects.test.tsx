import { render, screen, waitFor, within } from '@testing-library/react';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { App } from '../../src/client/app/app';
import { saveToken } from '../../src/client/lib/session-store';
import * as t from '../../src/server/db/schema';
import { account } from '../../src/shared/api';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import { DEMO_PASSWORD, type TestServer } from '../support/test-server';

/** The smaller defects of issue 9, each against the real server, each as the user meets it. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const mainMenu = () => screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });

describe('the account list offers only what the server accepts', () => {
  it('a manager sees no 编辑/禁用 (nor an Enter hint) on a super user of the district', async () => {
    const admin = await s.login('admin');
    const groups = (await s.call(account.groupList, { token: admin })).body.data;
    const created = await s.call(account.userAdd, {
      token: admin,
      body: { login: 'xuhuiboss', firstName: '徐汇超管', password: 'Passw0rd2026', authority: 'ROLE_APP_ADMIN', groupId: groups[0]!.id, districtId: 2 },
    });
    expect(created.body.code).toBe(1);

    await signIn(s, 'manager');
    visit(s, '/user/user-list?keyword=xuhuiboss');
    renderWithUser(<App />);
    const row = (await screen.findByText('徐汇超管', {}, { timeout: 5_000 })).closest('tr')!;
    expect(within(row).queryByRole('button', { name: /编辑|禁用/ })).toBeNull();
    expect(row.getAttribute('aria-description')).toBeNull();
  });
});

describe('adding an agreement on 全部区域', () => {
  it('asks for the area in the form, keeps 保存 off until chosen, and stores the agreement there', async () => {
    await signIn(s, 'admin');
    visit(s, '/settings/agreements?action=add');
    const { user } = renderWithUser(<App />);
    const dialog = await screen.findByRole('dialog', { name: '新增协议' }, { timeout: 5_000 });
    const area = await within(dialog).findByLabelText(/区域/, {}, { timeout: 5_000 });
    const save = within(dialog).getByRole('button', { name: /保存/ });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(within(area).getByRole('option', { name: '徐汇区' })).toBeTruthy());
    await user.selectOptions(area, '徐汇区');
    await user.type(within(dialog).getByLabelText(/标题/), '夜班须知');
    await user.type(within(dialog).getByLabelText(/协议编码/), 'night-notice');
    await user.type(within(dialog).getByLabelText(/内容/), '末班车请提前候车。');
    expect((save as HTMLButtonElement).disabled).toBe(false);
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText('已新增协议「夜班须知」')).toBeTruthy();
    const [stored] = await s.database.db.select().from(t.agreements).where(eq(t.agreements.code, 'night-notice'));
    const [xuhui] = await s.database.db.select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
    expect(stored?.districtId).toBe(xuhui?.id);
  });
});

describe('typed text is not thrown away by Esc', () => {
  it('Esc asks first; 继续编辑 keeps the text; 放弃修改 closes; an untouched form closes at once', async () => {
    await signIn(s, 'manager');
    visit(s, '/settings/agreements?action=add');
    const { user } = renderWithUser(<App />);
    let dialog = await screen.findByRole('dialog', { name: '新增协议' }, { timeout: 5_000 });
    await user.type(within(dialog).getByLabelText(/标题/), '草稿');
    await user.keyboard('{Escape}');
    expect(await within(dialog).findByText('有未保存的修改，关闭将丢失。')).toBeTruthy();
    // Focus waits on 继续编辑: Enter there, or Esc again, keeps editing.
    expect(document.activeElement?.textContent).toContain('继续编辑');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(within(dialog).queryByText('有未保存的修改，关闭将丢失。')).toBeNull());
    expect((within(dialog).getByLabelText(/标题/) as HTMLInputElement).value).toBe('草稿');
    await user.keyboard('{Escape}');
    await user.click(await within(dialog).findByRole('button', { name: '放弃修改' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(within(screen.getByRole('main')).getByRole('button', { name: /新增/ }));
    dialog = await screen.findByRole('dialog', { name: '新增协议' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('a refused save is told in a toast as well as beside its field (spec §8)', () => {
  it('the duplicate code shows under 协议编码 and as a toast', async () => {
    await signIn(s, 'manager');
    visit(s, '/settings/agreements?action=add');
    const { user } = renderWithUser(<App />);
    const dialog = await screen.findByRole('dialog', { name: '新增协议' }, { timeout: 5_000 });
    await user.type(within(dialog).getByLabelText(/标题/), '重复');
    await user.type(within(dialog).getByLabelText(/协议编码/), 'privacy');
    await user.type(within(dialog).getByLabelText(/内容/), '内容');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(screen.getAllByText('该区域已存在相同编码的协议')).toHaveLength(2));
  });
});

describe('the password-changed notice survives the reload', () => {
  it('after 修改密码 the login page that follows says so', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    await signIn(s, 'viewer');
    visit(s, '/');
    const first = renderWithUser(<App />);
    await mainMenu();
    await first.user.click(screen.getByRole('button', { name: /只读观察员/ }));
    await first.user.click(await screen.findByRole('menuitem', { name: '修改密码' }));
    const dialog = await screen.findByRole('dialog', { name: '修改密码' });
    await first.user.type(within(dialog).getByLabelText(/原密码/), DEMO_PASSWORD);
    await first.user.type(within(dialog).getByLabelText(/新密码/), 'Renewed2026x');
    await first.user.type(within(dialog).getByLabelText(/确认密码/), 'Renewed2026x');
    await first.user.keyboard('{Enter}');
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/login'));

    // The reload: a new render of the console on /login, same tab storage.
    first.unmount();
    visit(s, '/login');
    render(<App />);
    expect(await screen.findByText('密码已修改，请使用新密码重新登录', {}, { timeout: 5_000 })).toBeTruthy();
    expect(await s.login('viewer', 'Renewed2026x')).toMatch(/^ey/);
  });
});

describe('a stored token the server no longer knows', () => {
  it('opens the login page with 登录已过期, and no dialog whose button would reload into the same state', async () => {
    saveToken('eyJhbGciOiJIUzI1NiJ9.eyJzaWQiOiJub3BlIn0.forged-signature', s.config.tokenTtlSeconds);
    visit(s, '/user/user-list');
    render(<App />);
    expect(await screen.findByLabelText('用户名', {}, { timeout: 5_000 })).toBeTruthy();
    expect(await screen.findByText('登录已过期，请重新登录')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(new URLSearchParams(window.location.search).get('redirect')).toBe('/user/user-list');
  });
});

describe('review follow-ups', () => {
  it('修改密码 reopened after 放弃修改 shows its own footer, not the question', async () => {
    await signIn(s, 'agent');
    visit(s, '/');
    const { user } = renderWithUser(<App />);
    await mainMenu();
    const openDialog = async () => {
      await user.click(screen.getByRole('button', { name: /客服小李/ }));
      await user.click(await screen.findByRole('menuitem', { name: '修改密码' }));
      return screen.findByRole('dialog', { name: '修改密码' });
    };
    let dialog = await openDialog();
    await user.type(within(dialog).getByLabelText(/原密码/), 'typed');
    await user.keyboard('{Escape}');
    await user.click(await within(dialog).findByRole('button', { name: '放弃修改' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    dialog = await openDialog();
    expect(within(dialog).queryByText('有未保存的修改，关闭将丢失。')).toBeNull();
    expect(within(dialog).getByRole('button', { name: /确定/ })).toBeTruthy();
  });

  it('继续编辑 puts focus back in the field being edited', async () => {
    await signIn(s, 'manager');
    visit(s, '/settings/agreements?action=add');
    const { user } = renderWithUser(<App />);
    const dialog = await screen.findByRole('dialog', { name: '新增协议' }, { timeout: 5_000 });
    const title = within(dialog).getByLabelText(/标题/);
    await user.type(title, '草稿');
    await user.keyboard('{Escape}');
    const keep = await within(dialog).findByRole('button', { name: /继续编辑/ });
    await user.click(keep);
    await waitFor(() => expect(document.activeElement).toBe(title));
  });

  it('paging keeps focus on 下一页 (only moving to another page sends it to the main region)', async () => {
    await signIn(s, 'admin');
    visit(s, '/user/sys-log?size=10');
    const { user } = renderWithUser(<App />);
    const next = await screen.findByRole('button', { name: /下一页/ }, { timeout: 5_000 });
    await waitFor(() => expect((next as HTMLButtonElement).disabled).toBe(false));
    next.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('page')).toBe('1'));
    await new Promise((r) => setTimeout(r, 50));
    expect(document.activeElement).toBe(next);
  });

  it('重置 clears a date that never parsed, with its warning', async () => {
    await signIn(s, 'admin');
    visit(s, '/user/sys-log');
    const { user } = renderWithUser(<App />);
    const start = await screen.findByLabelText('开始时间', {}, { timeout: 5_000 });
    await user.type(start, '2026-13-01');
    expect(await screen.findByText('格式如 2026-11-23 08:30')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '重置' }));
    await waitFor(() => expect((screen.getByLabelText('开始时间') as HTMLInputElement).value).toBe(''));
    expect(screen.queryByText('格式如 2026-11-23 08:30')).toBeNull();
  });
});
