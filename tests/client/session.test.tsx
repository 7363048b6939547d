import { render, screen, waitFor, within } from '@testing-library/react';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { App } from '../../src/client/app/app';
import { SessionProvider, useSession } from '../../src/client/app/session';
import { api } from '../../src/client/lib/api-client';
import { Allowed } from '../../src/client/lib/permission';
import { resetSessionEnded } from '../../src/client/lib/session-ended';
import { readToken } from '../../src/client/lib/session-store';
import { account, auth } from '../../src/shared/api';
import * as schema from '../../src/server/db/schema';
import { type ExpectedPage, expectedHome } from '../support/expected-home';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { type RequestLog, signIn } from '../support/request-log';
import { DEMO_PASSWORD, type TestServer } from '../support/test-server';

/** The session and the route guard (spec §2, §4, §5, §6) with the real App against the real server. */

let s: TestServer;
let log: RequestLog;
clientSuite((server, l) => {
  s = server;
  log = l;
});

const mainMenu = () => screen.findByRole('navigation', { name: '主菜单' });
const breadcrumb = () => screen.getByRole('navigation', { name: '面包屑' }).textContent;
/** The page shown, as the breadcrumb names it (screens come and go; the layout stays). */
const currentTitle = async () => within(await screen.findByRole('navigation', { name: '面包屑' })).findByRole('listitem', { current: 'page' });

async function homeFor(token: string, roles: string[]): Promise<ExpectedPage> {
  const res = await s.call(auth.authItems, { token });
  return expectedHome(res.body.data, roles);
}

async function loginThroughPage(user: ReturnType<typeof renderWithUser>['user'], login: string, password = DEMO_PASSWORD) {
  await user.type(await screen.findByLabelText('用户名'), login);
  await user.type(screen.getByLabelText('密码'), password);
  await user.keyboard('{Enter}');
}

describe('route guard', () => {
  it('a signed-in user opening /login lands on / and from there on the first page', async () => {
    const token = await signIn(s, 'manager');
    const home = await homeFor(token, ['ROLE_ADMIN']);
    visit(s, '/login');
    renderWithUser(<App />);
    await mainMenu();
    await waitFor(() => expect(window.location.pathname).toBe(home.path));
    expect(screen.queryByLabelText('用户名')).toBeNull();
  });

  it.each([
    ['manager', ['ROLE_ADMIN']],
    ['viewer', ['ROLE_USER']],
  ])('/ goes to the first child of the first permitted menu (%s)', async (login, roles) => {
    const token = await signIn(s, login);
    const home = await homeFor(token, roles);
    visit(s, '/');
    renderWithUser(<App />);
    const nav = await mainMenu();
    await waitFor(() => expect(window.location.pathname).toBe(home.path));
    // The user sees where they are: breadcrumb, the current sidebar link and the screen's title.
    expect(breadcrumb()).toBe(`${home.menuTitle}/${home.title}`);
    const current = within(nav).getByRole('link', { current: 'page' });
    expect(current.textContent).toBe(home.title);
    expect(current.getAttribute('href')).toBe(home.path);
    expect((await currentTitle()).textContent).toBe(home.title);
  });

  it('the viewer’s sidebar holds only its own menus, in the fixed order', async () => {
    await signIn(s, 'viewer');
    visit(s, '/');
    renderWithUser(<App />);
    const nav = await mainMenu();
    const menus = within(nav)
      .getAllByRole('button')
      .map((b) => b.textContent?.replace('›', '').slice(1));
    // viewer's group: order, station, bus, version (seed), shown in the order of spec §2.
    expect(menus).toEqual(['乘车记录管理', '版本管理', '站点管理', '公交线路']);
  });

  it('an unknown path goes to /404', async () => {
    await signIn(s, 'manager');
    visit(s, '/no/such/page?x=1');
    renderWithUser(<App />);
    await screen.findByText('页面不存在，请检查地址是否正确。');
    expect(window.location.pathname).toBe('/404');
  });

  it('a page the account’s roles do not permit is unknown to it: /404', async () => {
    // settings/districts is for ROLE_APP_ADMIN only.
    await signIn(s, 'manager');
    visit(s, '/settings/districts');
    renderWithUser(<App />);
    await screen.findByText('页面不存在，请检查地址是否正确。');
    expect(window.location.pathname).toBe('/404');
  });

  it('a hidden page (type page) is routable though not in the menu', async () => {
    await signIn(s, 'manager');
    visit(s, '/bus/bus-line?id=3');
    renderWithUser(<App />);
    const nav = await mainMenu();
    expect((await currentTitle()).textContent).toBe('线路详情');
    expect(window.location.pathname).toBe('/bus/bus-line');
    expect(window.location.search).toBe('?id=3');
    expect(within(nav).queryByRole('link', { name: '线路详情' })).toBeNull();
  });
});

describe('an account with no authority entries', () => {
  let login: string;
  beforeAll(async () => {
    // The server never creates such an account itself (add and update take one role); one whose
    // roles were stripped in the database (a migration, a DBA) is what spec §5 guards against.
    const admin = await s.login('admin');
    const groups = await s.call(account.groupList, { token: admin });
    const readOnly = groups.body.data.find((g) => g.name === '只读组');
    const adminInfo = await s.call(auth.currentUser, { token: admin });
    login = 'noroles';
    const added = await s.call(account.userAdd, {
      token: admin,
      body: { login, firstName: '无权限用户', password: DEMO_PASSWORD, authority: 'ROLE_USER', groupId: readOnly?.id, districtId: adminInfo.body.data.districtId },
    });
    expect(added.body.code, added.body.msg).toBe(1);
    await s.database.db.update(schema.users).set({ authorities: [] }).where(eq(schema.users.login, login));
    const token = await s.login(login);
    const me = await s.call(auth.currentUser, { token });
    expect(me.body.data.authority).toEqual([]);
  });

  it('is refused at login with 未设置权限，登陆失败 and keeps no token', async () => {
    const replace = vi.spyOn(window.location, 'replace').mockImplementation(() => undefined);
    visit(s, '/login');
    const { user } = renderWithUser(<App />);
    await loginThroughPage(user, login);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('未设置权限，登陆失败'));
    expect(replace).not.toHaveBeenCalled();
    expect(readToken()).toBeNull();
    expect(window.location.pathname).toBe('/login');
    expect(screen.queryByRole('navigation', { name: '主菜单' })).toBeNull();
  });

  it('with a token already stored, is told the same on start and sent to /login', async () => {
    await signIn(s, login);
    visit(s, '/order/order-list');
    renderWithUser(<App />);
    expect(await screen.findByText('未设置权限，登陆失败')).toBeTruthy();
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(readToken()).toBeNull();
  });
});

describe('the expired-password banner', () => {
  it('says for how many days and hours the password was not changed; closing it keeps it closed', async () => {
    vi.spyOn(window.location, 'replace').mockImplementation(() => undefined);
    visit(s, '/login');
    const first = renderWithUser(<App />);
    await loginThroughPage(first.user, 'expired');
    await mainMenu();

    // The seed changed the password 90 + 30 days and 5 hours before now (the server's clock stands still).
    const banner = await screen.findByText(/未修改/);
    expect(banner.textContent).toContain('您的密码已经 120 天 5 小时未修改');
    expect(within(banner).getByRole('button', { name: '立即修改密码' })).toBeTruthy();

    // Closed from the keyboard: focus does not fall to <body> with the button, it goes to the page.
    screen.getByRole('button', { name: '关闭密码过期提示' }).focus();
    await first.user.keyboard('{Enter}');
    expect(screen.queryByText(/未修改/)).toBeNull();
    await waitFor(() => expect(document.activeElement?.id).toBe('main'));

    // A reload of the console (same storage, new render): still closed.
    first.unmount();
    render(<App />);
    await mainMenu();
    await currentTitle();
    expect(screen.queryByText(/未修改/)).toBeNull();
    expect(screen.queryByRole('button', { name: '关闭密码过期提示' })).toBeNull();
  });

  it('is not shown to an account whose password is fresh', async () => {
    vi.spyOn(window.location, 'replace').mockImplementation(() => undefined);
    visit(s, '/login');
    const { user } = renderWithUser(<App />);
    await loginThroughPage(user, 'viewer');
    await mainMenu();
    await currentTitle();
    expect(screen.queryByText(/未修改/)).toBeNull();
  });
});

describe('the change-password dialog', () => {
  it('shows the four messages of spec §5 and sends nothing while they show', async () => {
    await signIn(s, 'agent');
    visit(s, '/');
    const { user } = renderWithUser(<App />);
    await mainMenu();
    await user.click(screen.getByRole('button', { name: /客服小李/ }));
    await user.click(await screen.findByRole('menuitem', { name: '修改密码' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: '修改密码' })).toBeTruthy();
    log.clear();

    const submit = within(dialog).getByRole('button', { name: /^确定/ });
    await user.click(submit);
    expect(within(dialog).getByText('原密码不能为空')).toBeTruthy();
    expect(within(dialog).getByText('新密码不能为空')).toBeTruthy();
    expect(within(dialog).getByText('确认密码不能为空')).toBeTruthy();
    expect(within(dialog).getByLabelText(/原密码/).getAttribute('aria-invalid')).toBe('true');

    await user.type(within(dialog).getByLabelText(/原密码/), 'whatever1');
    await user.type(within(dialog).getByLabelText(/新密码/), 'NewPass123');
    await user.type(within(dialog).getByLabelText(/确认密码/), 'NewPass124');
    // Enter in a field submits as well.
    await user.keyboard('{Enter}');
    expect(within(dialog).getByText('确认密码与新密码不一致')).toBeTruthy();
    expect(within(dialog).queryByText('原密码不能为空')).toBeNull();
    expect(within(dialog).queryByText('新密码不能为空')).toBeNull();

    expect(log.to('/busline/api/user/update/password')).toEqual([]);

    // Once the form is right it is sent (a wrong old password here, so the account keeps its own).
    await user.clear(within(dialog).getByLabelText(/确认密码/));
    await user.type(within(dialog).getByLabelText(/确认密码/), 'NewPass123');
    await user.click(submit);
    expect(await within(dialog).findByText('原密码错误')).toBeTruthy();
    const sent = log.to('/busline/api/user/update/password', 'POST');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});

describe('permission-guarded elements (spec §6)', () => {
  function Probe() {
    const session = useSession();
    return <p data-testid="session">{`${session.status}:${session.user?.login ?? ''}`}</p>;
  }
  const tree = () => (
    <SessionProvider>
      <Probe />
      <Allowed permission={account.userAdd.permission}>
        <button type="button">新增账号</button>
      </Allowed>
    </SessionProvider>
  );

  it.each([
    ['viewer', false],
    ['agent', false],
    ['manager', true],
    ['admin', true],
  ])('USER_ADD element for %s: shown = %s, and the server agrees', async (login, shown) => {
    const token = await signIn(s, login);
    render(tree());
    await waitFor(() => expect(screen.getByTestId('session').textContent).toBe(`ready:${login}`));
    expect(screen.queryByRole('button', { name: '新增账号' }) !== null).toBe(shown);

    // Hiding is a courtesy, refusing is the rule: the server says the same for this account.
    const res = await s.call(account.userAdd, { token, body: { login: '' } });
    if (shown) expect([res.status, res.body.code]).toEqual([400, 400]);
    else expect([res.status, res.body.code, res.body.msg]).toEqual([403, 403, '当前用户没有权限操作']);
  });

  it('shows nothing guarded while nobody is signed in', async () => {
    render(tree());
    await waitFor(() => expect(screen.getByTestId('session').textContent).toBe('anonymous:'));
    expect(screen.queryByRole('button', { name: '新增账号' })).toBeNull();
  });
});

describe('a session the server ended (spec §8)', () => {
  const EXPIRED = '登录已过期，请重新登录';
  /** Where the browser is sent next: the console loads /login with location.assign. */
  function watchLoads(): string[] {
    const loads: string[] = [];
    vi.spyOn(window.location, 'assign').mockImplementation((url) => loads.push(String(url)));
    return loads;
  }

  it('another tab told that the session ended: this tab follows to /login with its page as the way back, and its login page says why too', async () => {
    const loads = watchLoads();
    await signIn(s, 'viewer');
    visit(s, '/station/station?from=other-tab');
    const first = render(<App />);
    await mainMenu();
    // What the told tab leaves in the shared storage, and the event the browser fires in the others.
    localStorage.setItem('bus-console.session-ended', JSON.stringify({ msg: '账号已在其他地方登录，请重新登录', at: Date.now() }));
    localStorage.removeItem('bus-console.token');
    window.dispatchEvent(new StorageEvent('storage', { key: 'bus-console.token', oldValue: 'x', newValue: null }));
    await waitFor(() => expect(loads).toHaveLength(1));
    const next = new URL(loads[0] ?? '', window.location.origin);
    expect(next.pathname).toBe('/login');
    expect(next.searchParams.get('redirect')).toBe('/station/station?from=other-tab');
    first.unmount();
    visit(s, next.pathname + next.search);
    render(<App />);
    expect((await screen.findByText('账号已在其他地方登录，请重新登录', {}, { timeout: 5_000 })).getAttribute('role')).toBe('alert');
  });

  it('a deliberate 退出登录 in another tab leaves no reason to say (an old note is not news)', async () => {
    const loads = watchLoads();
    await signIn(s, 'viewer');
    visit(s, '/station/station');
    const first = render(<App />);
    await mainMenu();
    localStorage.setItem('bus-console.session-ended', JSON.stringify({ msg: '账号已在其他地方登录，请重新登录', at: Date.now() - 60_000 }));
    localStorage.removeItem('bus-console.token');
    window.dispatchEvent(new StorageEvent('storage', { key: 'bus-console.token', oldValue: 'x', newValue: null }));
    await waitFor(() => expect(loads).toHaveLength(1));
    first.unmount();
    visit(s, '/login');
    render(<App />);
    await screen.findByRole('button', { name: /登录/ }, { timeout: 5_000 });
    expect(screen.queryByText('账号已在其他地方登录，请重新登录')).toBeNull();
  });

  it('logged out by another request: one navigation says 登录已过期, the token is gone at once and /login loads within a second, with no key pressed; the login page then says why, once', async () => {
    const loads = watchLoads();
    const token = await signIn(s, 'viewer');
    visit(s, '/station/station');
    const first = renderWithUser(<App />);
    const nav = await mainMenu();
    await currentTitle();
    // The session ends on the server, through a request of its own (another tab's 退出登录).
    expect((await s.call(auth.logout, { token })).body.code).toBe(1);

    const other = within(nav)
      .getAllByRole('link')
      .find((a) => a.getAttribute('href') !== '/station/station');
    expect(other).toBeDefined();
    await first.user.click(other!);
    await screen.findByRole('heading', { name: '登录已过期' }, { timeout: 5_000 });
    expect(screen.getByRole('dialog').textContent).toContain(EXPIRED);
    expect(localStorage.getItem('bus-console.token')).toBeNull();
    expect(localStorage.getItem('bus-console.user')).toBeNull();

    // Nobody answers the notice: the console goes to /login by itself.
    await waitFor(() => expect(loads).toHaveLength(1), { timeout: 2_000 });
    const next = new URL(loads[0] ?? '', window.location.origin);
    expect(next.pathname).toBe('/login');
    expect(next.searchParams.get('redirect')).toMatch(/^\/(station|order|user|bus|version|settings|busUser|handleCard)\//);

    // The load of /login: a new render of the console in the same tab, its scripts' memory afresh
    // (the notice was in memory), its storage kept.
    first.unmount();
    resetSessionEnded();
    visit(s, next.pathname + next.search);
    const reloaded = render(<App />);
    expect((await screen.findByText(EXPIRED, {}, { timeout: 5_000 })).getAttribute('role')).toBe('alert');
    expect(screen.queryByRole('dialog')).toBeNull();

    // Said once: the next load of the login page says nothing more.
    reloaded.unmount();
    render(<App />);
    await screen.findByLabelText('用户名');
    expect(screen.queryByText(EXPIRED)).toBeNull();
  });

  it('Esc on the notice leaves focus on its button, never on <body>, and goes to /login at once', async () => {
    const loads = watchLoads();
    const token = await signIn(s, 'viewer');
    visit(s, '/station/station');
    const { user } = renderWithUser(<App />);
    await mainMenu();
    expect((await s.call(auth.logout, { token })).body.code).toBe(1);
    // The next call meets the 401.
    await api.call(auth.currentUser).catch(() => undefined);
    await screen.findByRole('heading', { name: '登录已过期' }, { timeout: 5_000 });
    const button = screen.getByRole('button', { name: /重新登录/ });
    await waitFor(() => expect(document.activeElement).toBe(button));

    await user.keyboard('{Escape}');
    await waitFor(() => expect(document.activeElement).toBe(button));
    expect(loads).toHaveLength(1);
    expect(new URL(loads[0] ?? '', window.location.origin).pathname).toBe('/login');
    expect(screen.getByRole('dialog', { name: '登录已过期' })).toBeTruthy();
  });
});
