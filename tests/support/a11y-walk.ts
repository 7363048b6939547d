import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/db/seed';
import { menuCatalogue } from '../../src/shared/api';
import { type AxeFinding, axeViolations } from './axe';
import { apiAs, currentTitle, loginThroughPage, openConsole, PHONE, settled, storedToken, type Viewport } from './e2e-console';
import { type StartedServer, hasChromium } from './e2e';
import { e2eSuite } from './e2e-suite';
import { CONTRACT_MODULES } from '../../src/shared/api/contract';

/**
 * axe-core over the whole console in Debian's Chromium against the real `npm start`: every page the
 * menu catalogue names, the login and error pages, and every dialog a command
 * opens, at one width, as the super user who sees all of them. 0 critical, 0 serious. Each width is a
 * file of its own (tests/e2e/a11y-*.test.ts): one file walking both was the run's longest tail.
 */

const it_ = it.skipIf(!hasChromium);

const PAGES = (() => {
  const rows = menuCatalogue(CONTRACT_MODULES);
  return rows
    .filter((r) => r.parentId !== null && r.type !== 'button')
    .map((r) => ({ path: `/${r.parentId}/${r.path}`, title: (JSON.parse(r.para) as { title: string }).title }));
})();

/**
 * A page opened without its record names itself for what it does there (decision 142): 规则编辑
 * without an id is 新增规则. Its catalogue title shows until its code has said so, so waiting
 * for the catalogue's raced it.
 */
const SCREEN_TITLE: Record<string, string> = { '/specialCode/rule-edit': '新增规则' };

/** Commands that open the palette again in a step of theirs, with a text the step shows. */
const PALETTE_STEPS = new Map([['合并重复站点', '疑似重复的站点（前者并入后者后删除）']]);

/** Commands that do not open a dialog of their own, or end the session the sweep runs in. */
const NOT_DIALOGS = new Set(['退出登录', '打开命令面板', '展开/收起菜单', '开启/关闭标签页']);

const report = (where: string, found: AxeFinding[]) => found.map((f) => `${where}: [${f.impact}] ${f.id} ${f.help} → ${f.targets.join(' | ')}`);

/** In the page, as the console's own links do: no reload between pages. */
async function goInPage(page: Page, path: string) {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** Lets data arrive and the screen draw before axe looks. */
async function settle(page: Page) {
  await settled(page, { timeoutMs: 5_000 });
  await page.waitForTimeout(150);
}

async function signedIn(browser: Browser, server: StartedServer, viewport: Viewport) {
  const c = await openConsole(browser, viewport, async (ctx) => {
    // The tags view on: its tab list is part of what operators see.
    await ctx.addInitScript(() => localStorage.setItem('bus-console.settings.admin', JSON.stringify({ theme: '#1890ff', size: 'medium', tagsView: true, fixedHeader: false, sidebarLogo: true })));
  }, { bypassCSP: true });
  await c.page.goto(`${server.url}/login`);
  await settle(c.page);
  const problems = report(`/login @${viewport.width}`, await axeViolations(c.page));
  await loginThroughPage(c.page, 'admin');
  await settle(c.page);
  return { ...c, problems };
}

/** The walk at one width, as a suite of its own (its own `npm start` and Chromium). */
/** A module walk's steps: axe on what is shown (named), a dialog closed by Esc, a list's first row and its key. */
function walker(page: Page, width: number, problems: string[]) {
  const dialog = page.locator('[role="dialog"]');
  const seen: string[] = [];
  return {
    dialog,
    seen,
    async look(what: string) {
      await settle(page);
      seen.push(what);
      problems.push(...report(`${what} @${width}`, await axeViolations(page)));
    },
    async closeDialog() {
      await page.keyboard.press('Escape');
      await dialog.first().waitFor({ state: 'detached', timeout: 5_000 });
    },
    /** The list's first row focused (j from the main region), then its key. */
    async onFirstRow(path: string, key: string) {
      await goInPage(page, path);
      await page.locator('main tr[tabindex]:visible').first().waitFor({ timeout: 15_000 });
      await settle(page);
      await page.evaluate(() => document.getElementById('main')?.focus());
      await page.keyboard.press('j');
      await page.keyboard.press(key);
    },
    opened: (name: string | RegExp) => page.getByRole('dialog', { name }).waitFor({ state: 'attached', timeout: 10_000 }),
  };
}

export function a11yWalk(viewport: Viewport): void {
  let server: StartedServer;
  let browser: Browser | undefined;

  e2eSuite(`a11y ${viewport.width}`, (started, launched) => {
    server = started;
    browser = launched;
  });

  describe(`axe-core at ${viewport.width} px`, () => {
  it_('every page of the catalogue, the login page and the 404 page: 0 critical, 0 serious', async () => {
    const { context, page, problems } = await signedIn(browser!, server, viewport);
    try {
      for (const p of PAGES) {
        await goInPage(page, p.path);
        await currentTitle(page).filter({ hasText: SCREEN_TITLE[p.path] ?? p.title }).waitFor({ timeout: 10_000 });
        await settle(page);
        problems.push(...report(`${p.path} @${viewport.width}`, await axeViolations(page)));
      }
      await goInPage(page, '/no-such-page');
      await page.getByText('404').first().waitFor({ timeout: 10_000 });
      problems.push(...report(`/404 @${viewport.width}`, await axeViolations(page)));
      expect(problems).toEqual([]);
      console.log(`[e2e a11y] ${PAGES.length + 2} pages at ${viewport.width} px: 0 critical/serious`);
    } finally {
      await context.close();
    }
  }, 420_000);

  it_('every dialog a command opens, the palette, the menu drawer and the session-ended notice: 0 critical, 0 serious', async () => {
    const { context, page, problems } = await signedIn(browser!, server, viewport);
    try {
      const palette = page.getByRole('dialog', { name: '命令面板' });
      await page.keyboard.press('Control+k');
      await palette.waitFor();
      await page.keyboard.type('>');
      await settle(page);
      problems.push(...report(`palette @${viewport.width}`, await axeViolations(page)));
      // Empty: no match, then `@` with too little typed (issue 21: an empty listbox held the message, an axe critical).
      for (const typed of ['qqqzzzxxx', '@12']) {
        await page.keyboard.press('Control+a');
        await page.keyboard.type(typed);
        await settle(page);
        expect(await palette.locator('[cmdk-item]').count(), typed).toBe(0);
        problems.push(...report(`palette empty (${typed}) @${viewport.width}`, await axeViolations(page)));
      }
      await page.keyboard.press('Control+a');
      await page.keyboard.type('>');
      await settle(page);
      const titles = await palette.locator('[cmdk-item]').evaluateAll((rows) =>
        rows.filter((r) => !(r.textContent ?? '').includes('需要输入')).map((r) => r.firstElementChild?.firstChild?.textContent?.trim() ?? ''),
      );
      await page.keyboard.press('Escape');
      await palette.waitFor({ state: 'detached' });

      console.log('[e2e a11y] commands:', titles.join('、'));
      const opened: string[] = [];
      for (const title of titles.filter((t) => t && !NOT_DIALOGS.has(t))) {
        await page.keyboard.press('Control+k');
        await palette.waitFor();
        await page.keyboard.type(`>${title}`);
        await expect.poll(() => palette.locator('[cmdk-item][aria-selected="true"]').innerText(), { timeout: 5_000 }).toContain(title);
        await page.keyboard.press('Enter');
        if (PALETTE_STEPS.has(title)) {
          // The palette closes and opens again at once in the command's step: axe looks at the step.
          await palette.getByRole('group', { name: PALETTE_STEPS.get(title)! }).waitFor({ timeout: 10_000 });
          await settle(page);
          opened.push(title);
          problems.push(...report(`${title} (palette step) @${viewport.width}`, await axeViolations(page)));
          await page.keyboard.press('Escape');
          await palette.waitFor({ state: 'detached' });
          continue;
        }
        await palette.waitFor({ state: 'detached' });
        // Headless UI's dialog element has no box of its own (its panel is fixed): attached is the test.
        const dialog = page.locator('[role="dialog"]');
        const attached = (timeout: number) => dialog.first().waitFor({ state: 'attached', timeout }).then(() => true, () => false);
        // A loaded machine may still be fetching the page the dialog lives on: look again once the
        // requests are quiet, or the late dialog meets the next command's Ctrl+K.
        if ((await attached(2_000)) || (await settle(page).then(() => attached(500)))) {
          await settle(page);
          opened.push(title);
          problems.push(...report(`${title} @${viewport.width}`, await axeViolations(page)));
          await page.keyboard.press('Escape');
          // Named on failure: which command's dialog Esc left open, and what it shows.
          await dialog.first().waitFor({ state: 'detached', timeout: 5_000 }).catch(async (e: unknown) => {
            throw new Error(`${title}: Esc left a dialog open: ${(await dialog.first().innerText().catch(() => '')).slice(0, 200)}`, { cause: e });
          });
        }
      }
      expect(opened.length).toBeGreaterThanOrEqual(4);

      if (viewport === PHONE) {
        await page.getByRole('button', { name: '展开菜单' }).click();
        await page.locator('[role="dialog"]').waitFor({ state: 'attached' });
        await settle(page);
        problems.push(...report(`menu drawer @${viewport.width}`, await axeViolations(page)));
        await page.keyboard.press('Escape');
        await page.locator('[role="dialog"]').waitFor({ state: 'detached' });
      }

      // The session ends elsewhere: the next call meets the 401 and the notice shows. It loads /login
      // a second later (spec §8); answered 204 here, that load leaves the notice on screen for axe.
      await page.route((u) => u.pathname === '/login', (route) => route.fulfill({ status: 204 }));
      await fetch(`${server.url}/busline/api/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }) });
      await goInPage(page, '/user/sys-log');
      await page.getByRole('heading', { name: '账号已在其他地方登录' }).waitFor({ timeout: 10_000 });
      problems.push(...report(`session-ended notice @${viewport.width}`, await axeViolations(page)));

      expect(problems).toEqual([]);
      console.log(`[e2e a11y] ${opened.length} command dialogs (${opened.join('、')}), the palette${viewport === PHONE ? ', the drawer' : ''} and the notice at ${viewport.width} px: 0 critical/serious`);
    } finally {
      await context.close();
    }
  }, 420_000);

  it_('the dialogs screens open from a row (Enter on the first row of each list, the disable confirmation): 0 critical, 0 serious', async () => {
    const { context, page, problems } = await signedIn(browser!, server, viewport);
    try {
      const dialog = page.locator('[role="dialog"]');
      const seen: string[] = [];
      // The money modules' lists (issue 22): an NFC order's detail (and the 可疑 queue's), a wallet's
      // detail with its ledger, 复核通过 of a pending adjustment, a 储值 order's detail.
      const moneyLists = ['/recharge/recharge', '/recharge/recharge?writeState=4&sort=createdDate,asc', '/rechargeable/recharge-manage?tab=wallet', '/rechargeable/recharge-manage?tab=adjust&status=0', '/rechargeable/recharge-order'];
      for (const path of ['/user/user-list', '/user/role-group', '/user/sys-log', '/settings/agreements', '/settings/districts', ...moneyLists]) {
        await goInPage(page, path);
        await page.locator('main tr[tabindex]:visible').first().waitFor({ timeout: 10_000 });
        await settle(page);
        // From the main region, as after any navigation: j to the first row, Enter to open it.
        await page.evaluate(() => document.getElementById('main')?.focus());
        await page.keyboard.press('j');
        await page.keyboard.press('Enter');
        if (await dialog.first().waitFor({ state: 'attached', timeout: 2_000 }).then(() => true, () => false)) {
          await settle(page);
          seen.push(path);
          problems.push(...report(`${path} row dialog @${viewport.width}`, await axeViolations(page)));
          await page.keyboard.press('Escape');
          await dialog.first().waitFor({ state: 'detached', timeout: 5_000 });
        }
      }
      // The dialogs a money screen opens by its own keys: 核实已到账 from a 可疑 order's detail (y), and
      // 套餐退款 on an order's detail page (r; the list's Enter opens the page, not a dialog).
      await goInPage(page, '/recharge/recharge?writeState=4&sort=createdDate,asc');
      await page.locator('main tr[tabindex]:visible').first().waitFor({ timeout: 10_000 });
      await settle(page);
      await page.evaluate(() => document.getElementById('main')?.focus());
      await page.keyboard.press('j');
      await page.keyboard.press('Enter');
      await page.getByRole('region', { name: '卡中心记录' }).waitFor({ timeout: 10_000 });
      await page.keyboard.press('y');
      await page.getByRole('dialog', { name: '核实已到账' }).waitFor({ state: 'attached', timeout: 5_000 });
      await settle(page);
      seen.push('核实已到账');
      problems.push(...report(`核实已到账 @${viewport.width}`, await axeViolations(page)));
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: '核实已到账' }).waitFor({ state: 'detached', timeout: 5_000 });
      await page.keyboard.press('Escape');
      await dialog.first().waitFor({ state: 'detached', timeout: 5_000 });
      await goInPage(page, '/packagePay/package-order?status=1');
      await page.locator('main tr[tabindex]:visible').first().waitFor({ timeout: 10_000 });
      await settle(page);
      await page.evaluate(() => document.getElementById('main')?.focus());
      await page.keyboard.press('j');
      await page.keyboard.press('Enter');
      await page.getByRole('region', { name: '使用记录' }).waitFor({ timeout: 10_000 });
      await settle(page);
      problems.push(...report(`套餐订单详情 @${viewport.width}`, await axeViolations(page)));
      await page.keyboard.press('r');
      await page.getByRole('dialog', { name: /^套餐退款/ }).waitFor({ state: 'attached', timeout: 5_000 });
      await settle(page);
      seen.push('套餐退款');
      problems.push(...report(`套餐退款 @${viewport.width}`, await axeViolations(page)));
      await page.keyboard.press('Escape');
      await dialog.first().waitFor({ state: 'detached', timeout: 5_000 });

      await goInPage(page, '/user/user-list');
      await page.getByRole('button', { name: '禁用 manager' }).click();
      await dialog.first().waitFor({ state: 'attached' });
      problems.push(...report(`禁用 confirmation @${viewport.width}`, await axeViolations(page)));
      expect(seen.length).toBeGreaterThanOrEqual(8);
      expect(problems).toEqual([]);
      console.log(`[e2e a11y] row dialogs of ${seen.join('、')} and the disable confirmation at ${viewport.width} px: 0 critical/serious`);
    } finally {
      await context.close();
    }
  }, 240_000);

  it_('定制公交 and 定制公交设置 in an area: 班次 详情 and 排班, 新增班次 with its conflicts, 退票, 查看号码, 处理, 生成线路, the ladder editor, 发布, 跨区同步: 0 critical, 0 serious', async () => {
    const { context, page, problems } = await signedIn(browser!, server, viewport);
    try {
      // The settings are per area, and 跨区同步 starts from one: 徐汇区, where the demo's 定制公交 runs.
      const districts = await apiAs(server.url, await storedToken(page))<{ content: { id: number; name: string }[] }>('/busline/api/bus/district/page?page=0&size=100').catch(() => null);
      const xuhui = districts?.content.find((d) => d.name === '徐汇区')?.id ?? 2;
      await page.evaluate((id) => localStorage.setItem('bus-console.district', JSON.stringify(String(id))), xuhui);
      await page.reload();
      await currentTitle(page).waitFor({ timeout: 15_000 });
      await settle(page);
      const { dialog, seen, look, closeDialog, onFirstRow, opened } = walker(page, viewport.width, problems);

      // 班次管理: a class on sale, its 详情 (passengers masked, checks) and 排班 (car and driver).
      await onFirstRow('/customBus/classes?status=1', 'Enter');
      await opened('班次详情');
      await look('班次详情');
      await closeDialog();
      await page.keyboard.press('a');
      await opened(/^排班 · /);
      await look('排班');
      await closeDialog();

      // 新增班次 with a dry run that lists conflicts: next week's classes of a line at a time it already runs.
      const api = apiAs(server.url, await storedToken(page));
      const { lines } = await api<{ lines: { id: number; direction: number; status: number }[] }>('/buscodepc/fyapi/customClasses/options');
      const shanghai = new Date(Date.now() + 8 * 3600_000);
      const monday = new Date(shanghai.getTime() + (8 - (shanghai.getUTCDay() || 7)) * 86_400_000).toISOString().slice(0, 10);
      const friday = new Date(Date.parse(monday) + 4 * 86_400_000).toISOString().slice(0, 10);
      let busy: { lineId: number; time: string } | null = null;
      for (const l of lines.filter((x) => x.direction !== -1 && x.status === 1)) {
        const c = (await api<{ content: { time: string }[] }>(`/buscodepc/fyapi/customClasses/page?page=0&size=5&lineId=${l.id}&dateFrom=${monday}&dateTo=${friday}`)).content[0];
        if (c) {
          busy = { lineId: l.id, time: c.time };
          break;
        }
      }
      expect(busy, 'a line with classes next week').not.toBeNull();
      await goInPage(page, `/customBus/add-classes?lineId=${busy!.lineId}&dateFrom=${monday}&dateTo=${friday}&weekdays=1,2,3,4,5&times=${busy!.time}&publish=45&check=1`);
      await page.getByRole('region', { name: '检查结果' }).getByRole('alert').waitFor({ timeout: 15_000 });
      await look('新增班次 dry run with conflicts');

      // 订单记录: r on a paid order opens its detail with 退票 open.
      await onFirstRow('/customBus/order-record?status=1', 'r');
      await opened(/^定制退票 · /);
      await look('定制退票');
      await closeDialog();

      // 司机管理: 查看号码 asks for a reason (the reveal).
      await onFirstRow('/customBus/driver', 'v');
      await opened(/^查看司机信息 · /);
      await look('查看身份证号与手机号');
      await closeDialog();

      // 定制列表: a demand not yet opened: 处理 and 生成线路 (★ 需求成线).
      await onFirstRow('/customBus/custom-list?state=0', 'h');
      await dialog.first().waitFor({ state: 'attached', timeout: 10_000 });
      await look('需求处理');
      await closeDialog();
      await page.keyboard.press('g');
      await dialog.first().waitFor({ state: 'attached', timeout: 10_000 });
      await look('生成线路');
      await closeDialog();

      // 退款设置 in an area: the versions, the calculator and the ladder grid; 发布 of a draft.
      await goInPage(page, '/customSetting/refund-setting');
      await page.getByRole('table', { name: '退款规则版本' }).waitFor({ timeout: 15_000 });
      await look('退款设置 (ladder editor)');
      const publish = page.getByRole('button', { name: /^发布 #/ }).first();
      if (await publish.count()) {
        await publish.click();
        await opened(/^发布退款规则/);
        await look('发布退款规则');
        await closeDialog();
      }

      // 基础设置 in an area and ★ 跨区同步 (the super user's).
      await goInPage(page, '/customSetting/custom-base');
      await page.getByRole('form', { name: '定制公交基础设置' }).waitFor({ timeout: 15_000 });
      await look('基础设置');
      await page.getByRole('button', { name: '同步到其他区域' }).click();
      await dialog.first().waitFor({ state: 'attached', timeout: 10_000 });
      await look('跨区同步');
      await closeDialog();

      expect(seen.length).toBeGreaterThanOrEqual(11);
      expect(problems).toEqual([]);
      console.log(`[e2e a11y] 定制公交: ${seen.join('、')} at ${viewport.width} px: 0 critical/serious`);
    } finally {
      await context.close();
    }
  }, 240_000);

  it_('the review queues and what riders read: 验卡 and 办卡 queues (an item, 驳回), 到期雷达, 意见反馈, 活动 预演 and 效果, the notice and help editors: 0 critical, 0 serious', async () => {
    const { context, page, problems } = await signedIn(browser!, server, viewport);
    try {
      const { dialog, seen, look, closeDialog, onFirstRow } = walker(page, viewport.width, problems);

      // The two review queues: the next pending taken (materials, checks), then 驳回 with its reasons.
      for (const [path, name] of [['/cardVerify/card-verify-list?action=next', '验卡审核'], ['/handleCard/handle-card-list?action=next', '办卡审核']] as const) {
        await goInPage(page, path);
        await page.getByRole('dialog').getByRole('button', { name: /领取下一条/ }).waitFor({ timeout: 15_000 });
        await page.keyboard.press('Enter');
        await page.getByRole('dialog').getByRole('region', { name: '申请信息' }).waitFor({ timeout: 15_000 });
        await look(`${name} (an item)`);
        await page.keyboard.press('r');
        await page.getByRole('dialog').getByRole('list', { name: '常用驳回原因' }).waitFor({ timeout: 5_000 });
        await look(`${name} (驳回)`);
        await page.keyboard.press('Escape');
        await closeDialog();
      }

      // ★ 到期雷达.
      await goInPage(page, '/cardVerify/card-verify-list');
      await page.getByRole('tab', { name: /到期雷达/ }).click();
      // Out of the way: a hovered button is drawn lighter, which is not what is measured here.
      await page.mouse.move(0, 0);
      await settle(page);
      await look('到期雷达');

      // 意见反馈: the item due first with its rides and cluster.
      await onFirstRow('/noticeReport/feedback?status=0&sort=dueAt,asc', 'Enter');
      await dialog.first().waitFor({ state: 'attached', timeout: 10_000 });
      await look('意见反馈 (an item)');
      await closeDialog();

      // 活动列表: 预演 and 效果 of the first activity; its editor.
      for (const [key, what] of [['s', '活动预演'], ['v', '活动效果'], ['e', '编辑活动']] as const) {
        await onFirstRow('/acitivity/activity', key);
        await dialog.first().waitFor({ state: 'attached', timeout: 10_000 });
        await look(what);
        await closeDialog();
      }

      // The rich-text editors: a new notice, a new help doc.
      await goInPage(page, '/noticeReport/notice?action=add');
      await dialog.first().waitFor({ state: 'attached', timeout: 10_000 });
      await look('新建公告 (rich text)');
      await closeDialog();
      await goInPage(page, '/version/help-center?action=add');
      await dialog.first().waitFor({ state: 'attached', timeout: 10_000 });
      await look('新增帮助文档 (rich text)');
      await closeDialog();

      expect(seen.length).toBeGreaterThanOrEqual(11);
      expect(problems).toEqual([]);
      console.log(`[e2e a11y] issue 24: ${seen.join('、')} at ${viewport.width} px: 0 critical/serious`);
    } finally {
      await context.close();
    }
  }, 240_000);
  });
}
