import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/db/seed';
import type { AuthItem } from '../../src/shared/api';
import { breadcrumb, currentTitle, DESKTOP, horizontalOverflow, loginThroughPage, mainMenu, openConsole, PHONE, settled, storedToken, type Viewport } from '../support/e2e-console';
import { type StartedServer, hasChromium } from '../support/e2e';
import { e2eSuite } from '../support/e2e-suite';
import { expectedHome } from '../support/expected-home';

/**
 * The console shell in Debian's Chromium against the real `npm start` (one server for the file):
 * login and the route guard, a session taken over elsewhere, inactivity logout, hiding and
 * refusing, keyboard focus, and screenshots at desktop and phone sizes.
 */

const SHOTS = fileURLToPath(new URL('./__screenshots__/', import.meta.url));
const LOGIN_TITLE = '公交运营管理控制台';

let server: StartedServer;
let browser: Browser | undefined;

e2eSuite('shell', (started, launched) => {
  server = started;
  browser = launched;
  fs.mkdirSync(SHOTS, { recursive: true });
});

/** Calls the API from Node (not from a page), e.g. to read what the server stored. */
async function apiFromNode<T>(path: string, init: { method?: string; token?: string; json?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${server.url}${path}${path.includes('?') ? '&' : '?'}_t=${Date.now()}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  return { status: res.status, body: (await res.json()) as { code: number; msg: string; data: T } };
}

const pathAndQuery = (page: Page) => {
  const u = new URL(page.url());
  return u.pathname + u.search;
};

const it_ = it.skipIf(!hasChromium);

describe('login and the route guard', () => {
  it_('login lands on the first page of the first permitted menu, as the server’s items say', async () => {
    const { context, page, errors } = await openConsole(browser!);
    try {
      await page.goto(`${server.url}/login`);
      await loginThroughPage(page, 'manager');
      const token = await storedToken(page);
      const items = await apiFromNode<AuthItem[]>('/busline/api/group/item/query', { token });
      const home = expectedHome(items.body.data, ['ROLE_ADMIN']);
      await page.waitForURL((u) => u.pathname === home.path, { timeout: 10_000 });
      expect(await currentTitle(page).innerText()).toBe(home.title);
      expect(await breadcrumb(page).innerText()).toContain(home.menuTitle);
      expect(await mainMenu(page).getByRole('link', { name: home.title }).getAttribute('aria-current')).toBe('page');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it_('a deep link opened while logged out goes through login and back to that exact path and query', async () => {
    const { context, page } = await openConsole(browser!);
    try {
      const deep = '/user/sys-log?page=2&size=20';
      await page.goto(`${server.url}${deep}`);
      await page.getByRole('heading', { name: LOGIN_TITLE }).waitFor({ timeout: 15_000 });
      const atLogin = new URL(page.url());
      expect(atLogin.pathname).toBe('/login');
      expect(atLogin.searchParams.get('redirect')).toBe(deep);

      await loginThroughPage(page, 'manager');
      await page.waitForURL((u) => u.pathname === '/user/sys-log', { timeout: 10_000 });
      expect(pathAndQuery(page)).toBe(deep);
      expect(await breadcrumb(page).innerText()).toMatch(/账号管理\s*\/\s*系统日志/);
    } finally {
      await context.close();
    }
  });
});

describe('a session ended by the server', () => {
  it_('a second login of the same account elsewhere turns the first browser’s next action into the "elsewhere" dialog; Enter leads to /login', async () => {
    const first = await openConsole(browser!);
    const second = await openConsole(browser!);
    try {
      const where = '/user/user-list?keyword=abc';
      await first.page.goto(`${server.url}/login?redirect=${encodeURIComponent(where)}`);
      await loginThroughPage(first.page, 'admin');
      await first.page.waitForURL((u) => u.pathname === '/user/user-list');

      // Someone else signs in with the same account in another browser.
      await second.page.goto(`${server.url}/login`);
      await loginThroughPage(second.page, 'admin');

      // The first browser's next action: choosing an area (it reloads the view from the server).
      const area = first.page.getByRole('combobox', { name: '切换区域' });
      const names = await area.locator('option').allInnerTexts();
      expect(names.length).toBeGreaterThan(2);
      await area.selectOption({ label: names[1] ?? '' });

      const dialog = first.page.getByRole('dialog');
      await dialog.getByRole('heading').waitFor({ timeout: 10_000 });
      expect(await dialog.getByRole('heading').innerText()).toBe('账号已在其他地方登录');
      expect(await dialog.innerText()).toContain('您的账号已在其他地方登录，请重新登录');
      expect(await first.page.getByRole('dialog').count()).toBe(1);

      await first.page.keyboard.press('Enter');
      await first.page.getByRole('heading', { name: LOGIN_TITLE }).waitFor({ timeout: 10_000 });
      expect(new URL(first.page.url()).pathname).toBe('/login');
      expect(await first.page.evaluate(() => localStorage.getItem('bus-console.token'))).toBeNull();
      expect(await first.page.getByRole('dialog').count()).toBe(0);

      // The second browser carries on.
      await second.page.reload();
      await currentTitle(second.page).waitFor({ timeout: 10_000 });
      expect(await second.page.getByRole('dialog').count()).toBe(0);

      // The way back is the page the first browser was on.
      expect(new URL(first.page.url()).searchParams.get('redirect')).toBe(where);
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });

  it_('logged out by another request: the next navigation says 登录已过期, and with no key pressed the console is on /login within 2 s, the token gone, the login page saying why', async () => {
    const { context, page, errors } = await openConsole(browser!);
    try {
      await page.goto(`${server.url}/login`);
      // The console's own late call (下载中心's look at its tasks, 2 s after the layout): over before
      // the session ends, so the navigation is what meets the 401.
      const settled = page.waitForResponse((r) => r.url().includes('/xls/task-list'), { timeout: 15_000 });
      await loginThroughPage(page, 'agent');
      await settled;
      // The session ends on the server through a request of its own (another tab's 退出登录).
      const out = await apiFromNode<null>('/busline/api/login-out', { method: 'POST', token: await storedToken(page), json: {} });
      expect(out.body.code).toBe(1);

      // One navigation: 乘车统计 from the sidebar (its group opened first: the agent lands in 公告与反馈,
      // and opening a group asks the server nothing).
      const link = mainMenu(page).getByRole('link', { name: '乘车统计' });
      if (!(await link.isVisible())) await mainMenu(page).getByText('乘车记录管理', { exact: true }).click();
      await link.click();
      const heading = page.getByRole('dialog').getByRole('heading', { name: '登录已过期' });
      await heading.waitFor({ timeout: 10_000 });
      const shownAt = Date.now();
      await page.waitForURL((u) => u.pathname === '/login', { timeout: 2_000 });
      expect(Date.now() - shownAt).toBeLessThan(2_000);
      await page.getByRole('heading', { name: LOGIN_TITLE }).waitFor({ timeout: 10_000 });
      expect(await page.evaluate(() => localStorage.getItem('bus-console.token'))).toBeNull();
      expect(await page.getByRole('alert').filter({ hasText: '登录已过期，请重新登录' }).count()).toBe(1);
      expect(await page.getByRole('dialog').count()).toBe(0);
      // Said once: another reload of the login page says nothing more.
      await page.reload();
      await page.getByLabel('用户名').waitFor({ timeout: 10_000 });
      expect(await page.getByText('登录已过期，请重新登录').count()).toBe(0);
      expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it_('Esc on the notice never drops focus to <body> before /login loads', async () => {
    const { context, page } = await openConsole(browser!);
    try {
      await page.goto(`${server.url}/login`);
      const settled = page.waitForResponse((r) => r.url().includes('/xls/task-list'), { timeout: 15_000 });
      await loginThroughPage(page, 'viewer');
      await settled;
      // While the notice shows: where focus is after every focus change and every frame (F in the
      // dialog, B on <body>, O elsewhere; E for the Esc), kept in the tab's sessionStorage, which
      // outlives the load of /login.
      await page.evaluate(() => {
        const showing = () => [...document.querySelectorAll('[role="dialog"] h2')].some((h) => h.textContent === '登录已过期');
        const note = (mark?: string) => {
          if (!showing()) return;
          const el = document.activeElement;
          const where = mark ?? (!el || el === document.body ? 'B' : el.closest('[role="dialog"]') ? 'F' : 'O');
          sessionStorage.setItem('focus-log', (sessionStorage.getItem('focus-log') ?? '') + where);
        };
        document.addEventListener('keydown', (e) => e.key === 'Escape' && note('E'), true);
        document.addEventListener('focusout', () => queueMicrotask(() => note()), true);
        const frame = () => {
          note();
          requestAnimationFrame(frame);
        };
        frame();
      });
      await apiFromNode<null>('/busline/api/login-out', { method: 'POST', token: await storedToken(page), json: {} });
      await mainMenu(page).getByRole('link', { name: '乘车统计' }).click();
      await page.getByRole('dialog').getByRole('heading', { name: '登录已过期' }).waitFor({ timeout: 10_000 });
      await page.keyboard.press('Escape');
      await page.waitForURL((u) => u.pathname === '/login', { timeout: 5_000 });
      await page.getByRole('heading', { name: LOGIN_TITLE }).waitFor({ timeout: 10_000 });
      // The Esc reached the notice (not pressed after it had gone), and focus stayed in it.
      expect(await page.evaluate(() => sessionStorage.getItem('focus-log'))).toMatch(/^F*EF*$/);
    } finally {
      await context.close();
    }
  });

  it_('a console reloaded after its account logged in elsewhere says 账号已在其他地方登录 on the login page, once', async () => {
    const { context, page } = await openConsole(browser!);
    try {
      await page.goto(`${server.url}/login`);
      await loginThroughPage(page, 'viewer');
      const where = new URL(page.url()).pathname;
      // Someone signs in with the same account elsewhere; this console is reloaded (F5).
      const other = await apiFromNode<{ idToken: string }>('/busline/api/authenticate', { method: 'POST', json: { username: 'viewer', password: DEMO_PASSWORD } });
      expect(other.body.code).toBe(1);
      await page.reload();
      await page.getByRole('heading', { name: LOGIN_TITLE }).waitFor({ timeout: 10_000 });
      await page.getByRole('alert').filter({ hasText: '您的账号已在其他地方登录，请重新登录' }).waitFor({ timeout: 5_000 });
      expect(await page.getByText('登录已过期').count()).toBe(0);
      expect(new URL(page.url()).searchParams.get('redirect')).toBe(where);
      await page.reload();
      await page.getByLabel('用户名').waitFor({ timeout: 10_000 });
      expect(await page.getByText('您的账号已在其他地方登录').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it_('after the inactivity limit the console says 登录已过期，请重新登录 and lands on /login', async () => {
    const { context, page } = await openConsole(browser!, DESKTOP, (c) => c.clock.install());
    try {
      await page.goto(`${server.url}/login`);
      await loginThroughPage(page, 'agent');
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('bus-console.token') ?? '{}') as { idleMs: number; expiresAt: number });
      expect(stored.idleMs).toBe(30 * 60_000);

      // Half the limit without input: still signed in. (fastForward fires the due 5-second check once.)
      await page.clock.fastForward('15:00');
      await page.waitForTimeout(300);
      expect(new URL(page.url()).pathname).not.toBe('/login');
      expect(await page.getByText('登录已过期，请重新登录').count()).toBe(0);

      // Past the limit: the check logs out. No further jump, so a 5-second toast is not skipped over.
      await page.clock.fastForward('15:30');
      await page.waitForURL((u) => u.pathname === '/login', { timeout: 10_000 });
      await page.getByRole('heading', { name: LOGIN_TITLE }).waitFor();
      expect(await page.evaluate(() => localStorage.getItem('bus-console.token'))).toBeNull();
      // The reason is on screen where the user now is.
      await page.getByText('登录已过期，请重新登录').waitFor({ timeout: 3_000 });
    } finally {
      await context.close();
    }
  });
});

describe('hiding and refusing (spec §6)', () => {
  it_('the viewer sees no add/edit/delete buttons on any of its pages, and the server refuses its direct call with 403', async () => {
    const { context, page } = await openConsole(browser!);
    try {
      await page.goto(`${server.url}/login`);
      await loginThroughPage(page, 'viewer');
      const nav = mainMenu(page);
      const menuButtons = nav.getByRole('button');
      const visited: string[] = [];
      for (let i = 0; i < (await menuButtons.count()); i++) {
        const menu = menuButtons.nth(i);
        if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
        const links = nav.getByRole('listitem').nth(i).getByRole('link');
        for (let j = 0; j < (await links.count()); j++) {
          const link = links.nth(j);
          const title = await link.innerText();
          await link.click();
          await currentTitle(page).filter({ hasText: title }).waitFor();
          await settled(page);
          visited.push(new URL(page.url()).pathname);
          // A button's name starts with its verb; a row's name follows it (「对比 2027 春季线网（编辑中）」 is no edit).
          const mutating = page.locator('main').getByRole('button', { name: /^(＋\s*)?(新增|添加|新建|删除|编辑|修改|导入|退款)/ });
          expect(await mutating.count(), `${title}: ${await mutating.allInnerTexts()}`).toBe(0);
        }
      }
      expect(visited.length).toBeGreaterThanOrEqual(4);

      const token = await storedToken(page);
      const answer = await page.evaluate(async (t) => {
        const res = await fetch(`/busline/api/user/add?_t=${Date.now()}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' },
          body: JSON.stringify({ login: 'intruder01', firstName: '越权者', password: 'Bus@2026x', authority: 'ROLE_USER', groupId: 1 }),
        });
        return { status: res.status, body: (await res.json()) as { code: number; msg: string } };
      }, token);
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe(403);
      expect(answer.body.msg).toBe('当前用户没有权限操作');

      // And nothing was stored.
      const admin = await apiFromNode<{ idToken: string }>('/busline/api/authenticate', { method: 'POST', json: { username: 'admin', password: 'Bus@2026' } });
      const found = await apiFromNode<{ totalElements: number }>('/busline/api/user/query/page?keyword=intruder01', { token: admin.body.data.idToken });
      expect(found.body.data.totalElements).toBe(0);
    } finally {
      await context.close();
    }
  });

  it_('the same look finds the add button for an account that holds USER_ADD (the check above can fail)', async () => {
    const { context, page } = await openConsole(browser!);
    try {
      await page.goto(`${server.url}/login?redirect=${encodeURIComponent('/user/user-list')}`);
      await loginThroughPage(page, 'manager');
      await currentTitle(page).filter({ hasText: '账号列表' }).waitFor();
      const add = page.locator('main').getByRole('button', { name: /新增/ });
      await add.first().waitFor({ timeout: 10_000 });
      expect(await add.count()).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });
});

describe('keyboard', () => {
  it_('Tab reaches the sidebar links with a visible focus ring, and Enter follows them', async () => {
    const { context, page } = await openConsole(browser!);
    try {
      await page.goto(`${server.url}/login`);
      await loginThroughPage(page, 'manager');
      await mainMenu(page).waitFor();
      const start = new URL(page.url()).pathname;

      type Focused = { tag: string; inMenu: boolean; text: string; href: string | null; outlineStyle: string; outlineWidth: string };
      const focused = () =>
        page.evaluate((): Focused => {
          const el = document.activeElement as HTMLElement | null;
          const css = el ? getComputedStyle(el) : null;
          return {
            tag: el?.tagName ?? '',
            inMenu: !!el?.closest('nav[aria-label="主菜单"]'),
            text: el?.innerText ?? '',
            href: el?.getAttribute('href') ?? null,
            outlineStyle: css?.outlineStyle ?? '',
            outlineWidth: css?.outlineWidth ?? '',
          };
        });

      const links: Focused[] = [];
      for (let i = 0; i < 30 && links.length < 2; i++) {
        await page.keyboard.press('Tab');
        const f = await focused();
        if (f.tag === 'A' && f.inMenu) links.push(f);
      }
      expect(links.length, 'Tab never reached a sidebar link').toBe(2);
      for (const l of links) {
        expect(l.outlineStyle, `focus ring of ${l.text}`).not.toBe('none');
        expect(Number.parseFloat(l.outlineWidth), `focus ring width of ${l.text}`).toBeGreaterThan(0);
      }
      // The second link is another page: Enter opens it.
      const target = links[1]!;
      expect(target.href).not.toBe(start);
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.pathname === target.href, { timeout: 5_000 });
      expect(await currentTitle(page).innerText()).toBe(target.text);
    } finally {
      await context.close();
    }
  });
});

describe('screenshots', () => {
  const problems: string[] = [];
  const shoot = async (page: Page, name: string, viewport: Viewport) => {
    await page.screenshot({ path: `${SHOTS}shell-${name}-${viewport.width}x${viewport.height}.png` });
    const o = await horizontalOverflow(page);
    if (o.scrollWidth > o.innerWidth) problems.push(`${name} at ${viewport.width}px: page is ${o.scrollWidth}px wide`);
  };

  it_.each([DESKTOP, PHONE])('login, home, menu, change-password errors and the expired banner at %o', async (viewport) => {
    const manager = await openConsole(browser!, viewport);
    try {
      const { page } = manager;
      await page.goto(`${server.url}/login`);
      await page.getByRole('heading', { name: LOGIN_TITLE }).waitFor({ timeout: 15_000 });
      await shoot(page, 'login', viewport);

      await loginThroughPage(page, 'manager');
      await settled(page);
      await shoot(page, 'home', viewport);

      const mobile = viewport.width < 992;
      const hamburger = page.getByRole('button', { name: mobile ? '展开菜单' : '收起菜单' });
      if (mobile) {
        // Phone layout: the sidebar starts closed and opens as a drawer over the page.
        expect(await mainMenu(page).count()).toBe(0);
        await hamburger.click();
        await mainMenu(page).waitFor();
        const box = await mainMenu(page).boundingBox();
        expect(box?.width).toBe(210);
        await shoot(page, 'drawer', viewport);
        // The drawer covers the hamburger; a tap on the dimmed page beside it closes it.
        await page.mouse.click(viewport.width - 20, viewport.height / 2);
        await mainMenu(page).waitFor({ state: 'detached' });
      } else {
        expect((await mainMenu(page).boundingBox())?.width).toBe(210);
      }

      await page.getByRole('button', { name: /徐汇区管理员/ }).click();
      await page.getByRole('menuitem', { name: '修改密码' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('heading', { name: '修改密码' }).waitFor();
      await dialog.getByRole('button', { name: /^确定/ }).click();
      await dialog.getByText('确认密码不能为空').waitFor();
      for (const msg of ['原密码不能为空', '新密码不能为空']) expect(await dialog.getByText(msg).count()).toBe(1);
      await shoot(page, 'password-dialog', viewport);
      // The dialog fits the screen: its buttons are reachable without scrolling sideways.
      const panel = await dialog.locator('[id^="headlessui-dialog-panel"]').boundingBox();
      expect(panel && panel.x >= 0 && panel.x + panel.width <= viewport.width).toBe(true);
    } finally {
      await manager.context.close();
    }

    const expired = await openConsole(browser!, viewport);
    try {
      const { page } = expired;
      await page.goto(`${server.url}/login`);
      await loginThroughPage(page, 'expired');
      const banner = page.getByRole('alert').filter({ hasText: '未修改' });
      await banner.waitFor();
      expect(await banner.innerText()).toMatch(/您的密码已经 \d+ 天 \d+ 小时未修改/);
      await shoot(page, 'expired-banner', viewport);
    } finally {
      await expired.context.close();
    }

    expect(problems).toEqual([]);
  });
});
