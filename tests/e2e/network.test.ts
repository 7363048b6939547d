import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { currentTitle, loginThroughPage, openConsole } from '../support/e2e-console';
import { type StartedServer, hasChromium } from '../support/e2e';
import { e2eSuite } from '../support/e2e-suite';
import { shanghaiDateTime } from '../../src/shared/domain/time';

/**
 * The network, keyboard only, in Debian's Chromium against the real `npm start` (demo city): the
 * manager merges a planted near-duplicate stop into its twin from the palette, keeps focus in a
 * refused merge, schedules a version, and carries an edit of a line from the open version to online.
 */

let server: StartedServer;
let browser: Browser | undefined;

// The go-live check every second instead of every 30 s: the last test waits for it.
e2eSuite(
  'network',
  (started, launched) => {
    server = started;
    browser = launched;
  },
  { env: { JOB_INTERVAL_MS: '1000' } },
);

const it_ = it.skipIf(!hasChromium);
const palette = (page: Page) => page.getByRole('dialog', { name: '命令面板' });
const selected = (page: Page) => palette(page).locator('[cmdk-item][aria-selected="true"]');
/** The selected row's title, without what tells it apart (district, place, status) after it. */
const selectedText = async (page: Page) =>
  (await selected(page).count()) ? ((await selected(page).locator('span').first().evaluate((el) => el.firstChild?.textContent ?? '')) ?? '').trim() : '';
/**
 * Ctrl+K, then wait for the palette's input to have focus: keys typed earlier are kept (the
 * type-ahead), but Chinese text arrives as text input (an IME's, or Playwright's insertText), which
 * has nowhere to go until an input is focused. Under a loaded machine the palette can take longer.
 */
/** The focused element's text, as a person reading the focus ring would. */
const focusedName = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText.replace(/\s+/g, ' ').trim() ?? '');

async function openPalette(page: Page) {
  await page.keyboard.press('Control+k');
  const input = palette(page).locator('input');
  await input.waitFor({ timeout: 8_000 });
  await expect.poll(() => input.evaluate((el) => el === document.activeElement), { timeout: 8_000 }).toBe(true);
}

describe('合并站点 from the palette', () => {
  it_('Ctrl+K 合并站点, the kept stop, the duplicate, Enter: the duplicate is gone', async () => {
    const { context, page, errors } = await openConsole(browser!);
    try {
      await page.goto(`${server.url}/login`);
      await loginThroughPage(page, 'manager');
      const token = await page.evaluate(() => JSON.parse(localStorage.getItem('bus-console.token') ?? '{}').token as string);
      const names = async () =>
        (
          await fetch(`${server.url}/busline/api/busStation/list?size=1000`, { headers: { authorization: `Bearer ${token}` } }).then(
            (r) => r.json() as Promise<{ data: { content: { name: string }[] } }>,
          )
        ).data.content.map((x) => x.name);
      // A planted near-duplicate: "<name>站" 10–20 m from "<name>".
      const all = await names();
      const dupName = all.find((n) => n.endsWith('站') && all.includes(n.slice(0, -1)))!;
      const twin = dupName.slice(0, -1);
      await page.goto(`${server.url}/station/station`);
      await currentTitle(page).filter({ hasText: '站点' }).waitFor();

      await openPalette(page);
      await page.keyboard.type('>合并站点');
      await expect.poll(() => selectedText(page), { timeout: 8_000 }).toContain('合并站点');
      await page.keyboard.press('Enter');
      await page.keyboard.type(twin);
      await expect.poll(() => selectedText(page), { timeout: 8_000 }).toBe(twin);
      await page.keyboard.press('Enter');
      await page.keyboard.type(dupName);
      await expect.poll(() => selectedText(page), { timeout: 8_000 }).toBe(dupName);
      await page.keyboard.press('Enter');

      const dialog = page.getByRole('dialog', { name: '合并站点（徐汇区）' });
      await dialog.getByText(/没有线路经过被合并的站点|将改动开放版本中/).waitFor({ timeout: 10_000 });
      await dialog.getByText(/两站相距约 \d+ 米/).waitFor();
      // A merge cannot be undone: the dialog starts on 取消; Tab to 确认合并, then Enter.
      expect(await focusedName(page)).toMatch(/^取消/);
      await page.keyboard.press('Tab');
      expect(await focusedName(page)).toMatch(/^确认合并/);
      await page.keyboard.press('Enter');
      await page.getByText(`已合并站点：保留「${twin}」（徐汇区，`, { exact: false }).waitFor({ timeout: 10_000 });
      expect(await currentTitle(page).innerText()).toBe('站点');

      const after = await names();
      expect(after).not.toContain(dupName);
      expect(after).toContain(twin);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** Signs the manager in through the page; reads the API as that session (the data a test picks). */
async function managerSignedIn(page: Page): Promise<{ token: string; get: <T>(path: string) => Promise<T> }> {
  await page.goto(`${server.url}/login`);
  await loginThroughPage(page, 'manager');
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('bus-console.token') ?? '{}').token as string);
  const get = async <T,>(path: string) => ((await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json())) as { data: T }).data;
  return { token, get };
}

describe('合并站点 refused', () => {
  it_('a pair a past version blocks: focus stays in the dialog (Tab included), the keyboard picks the other to keep, Esc merges nothing', async () => {
    const { context, page, errors } = await openConsole(browser!);
    try {
      const { token, get } = await managerSignedIn(page);
      const online = (await get<{ content: { id: number }[] }>('/busline/api/bus/line/version/query/version/page?status=3')).content[0]!;
      const line = (await get<{ content: { id: number }[] }>(`/busline/api/busLine/list?versionId=${online.id}&size=1`)).content[0]!;
      const used = (await get<{ stops: { up: { stationId: number; name: string; lng: number; lat: number }[] } }>(`/busline/api/busLine/info?id=${line.id}`)).stops.up[0]!;
      // A new stop beside it, where no line stops.
      const saved = await fetch(`${server.url}/busline/api/busStation/save`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `${used.name}临时`, lng: used.lng + 0.0002, lat: used.lat }),
      }).then((r) => r.json() as Promise<{ code: number; data: { id: number; name: string } }>);
      expect(saved.code).toBe(1);
      const spare = saved.data;

      await page.goto(`${server.url}/station/station?action=merge&keep=${spare.id}&merge=${used.stationId}`);
      const dialog = page.getByRole('dialog', { name: '合并站点（徐汇区）' });
      await dialog.getByText(/被不可编辑的版本使用，不能合并/).waitFor({ timeout: 10_000 });
      const confirm = dialog.getByRole('button', { name: '确认合并' });
      expect(await confirm.isDisabled()).toBe(true);
      const inDialog = () => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]') && !(document.activeElement as HTMLButtonElement).disabled);
      expect(await inDialog()).toBe(true);
      for (let i = 0; i < 6; i++) {
        await page.keyboard.press('Tab');
        expect(await inDialog()).toBe(true);
      }
      // Shift+Tab to the choice of which stays, → for the other one: now allowed.
      for (let i = 0; i < 8 && (await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)) !== 'radio'; i++) await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => confirm.isDisabled(), { timeout: 10_000 }).toBe(false);
      await dialog.getByText(`将把 徐汇区「${spare.name}」并入「${used.name}」`, { exact: false }).waitFor();
      expect(await inDialog()).toBe(true);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
      expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);
      expect((await get<{ content: { id: number }[] }>('/busline/api/busStation/list?size=1000')).content.some((x) => x.id === spare.id)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('设置上线时间 from the palette', () => {
  it_('Ctrl+K 设置版本上线时间, the passed version, a date and time, Enter: the version is scheduled', async () => {
    const { context, page, errors } = await openConsole(browser!);
    try {
      await page.goto(`${server.url}/login`);
      await loginThroughPage(page, 'manager');
      await openPalette(page);
      await page.keyboard.type('>设置版本上线时间');
      await expect.poll(() => selectedText(page), { timeout: 8_000 }).toContain('设置版本上线时间');
      await page.keyboard.press('Enter');
      await page.keyboard.type('dongji');
      await expect.poll(() => selectedText(page), { timeout: 8_000 }).toBe('2026 冬季加班线');
      await page.keyboard.press('Enter');
      await page.keyboard.type('2030-01-01 05:00');
      await page.keyboard.press('Enter');
      await page.getByText('版本「2026 冬季加班线」（徐汇区）将于 2030-01-01 05:00 上线').waitFor({ timeout: 10_000 });
      await page.waitForURL((u) => u.pathname === '/version/version', { timeout: 10_000 });
      await page.getByText('计划 2030-01-01 05:00').waitFor({ timeout: 10_000 });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** Shanghai wall time `seconds` from now, as typed into the palette (YYYY-MM-DD HH:mm:ss). */
const shanghaiIn = (seconds: number) => shanghaiDateTime(Date.now() + seconds * 1000);

describe('a line edit from open to online, keyboard only', () => {
  it_('# the line, Alt+↓ and Ctrl+S, its path on the map, then submit, pass and schedule from the palette: the job takes it online', async () => {
    const { context, page, errors } = await openConsole(browser!);
    try {
      const { get } = await managerSignedIn(page);
      const list = await get<{ content: { id: number; name: string; isLoop: boolean }[]; version: { id: number; name: string } }>('/busline/api/busLine/list?size=20');
      // Not a loop: moving a loop's first stop would (rightly) block the submit.
      const line = list.content.find((l) => !l.isLoop)!;
      const version = list.version;
      const upBefore = (await get<{ stops: { up: { stationId: number }[] } }>(`/busline/api/busLine/info?id=${line.id}`)).stops.up.map((x) => x.stationId);

      // The line from the palette's # mode.
      await openPalette(page);
      await page.keyboard.type(`#${line.name}`);
      await expect.poll(() => selectedText(page), { timeout: 8_000 }).toContain(line.name);
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.pathname === '/bus/bus-line', { timeout: 10_000 });
      // Tab to the up direction's stops, move the first one down, save.
      const list0 = page.getByRole('listbox', { name: `${line.name}上行站点` });
      await list0.waitFor({ timeout: 10_000 });
      for (let i = 0; i < 40 && !(await list0.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
      await page.keyboard.press('Alt+ArrowDown');
      await page.keyboard.press('Control+s');
      await page.getByText(new RegExp(`已保存${line.name}上行站点`)).waitFor({ timeout: 10_000 });
      const upAfter = (await get<{ stops: { up: { stationId: number }[] } }>(`/busline/api/busLine/info?id=${line.id}`)).stops.up.map((x) => x.stationId);
      expect(upAfter).toEqual([upBefore[1], upBefore[0], ...upBefore.slice(2)]);

      // Its path on the map: Tab to 线路轨迹, Enter; the map draws the stops and the path.
      const pathButton = page.getByRole('button', { name: '线路轨迹' });
      for (let i = 0; i < 60 && !(await pathButton.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.pathname === '/bus/line-path', { timeout: 10_000 });
      const map = page.getByRole('application', { name: /上行轨迹/ });
      await map.waitFor({ timeout: 10_000 });
      await expect.poll(() => map.locator('path.leaflet-interactive').count(), { timeout: 10_000 }).toBeGreaterThan(upAfter.length);

      const run = async (command: string, choice: string, extra?: string) => {
        await openPalette(page);
        await page.keyboard.type(`>${command}`);
        await expect.poll(() => selectedText(page), { timeout: 8_000 }).toContain(command);
        await page.keyboard.press('Enter');
        await page.keyboard.type(choice);
        await expect.poll(() => selectedText(page), { timeout: 8_000 }).toBe(choice);
        await page.keyboard.press('Enter');
        if (extra) {
          await page.keyboard.type(extra);
          await page.keyboard.press('Enter');
        }
      };
      await run('提交版本审核', version.name);
      await page.getByText(`版本「${version.name}」（徐汇区）已提交审核`).waitFor({ timeout: 10_000 });
      // Passing cannot be undone: 线网版本 asks, 取消 focused; Tab to 审核通过, Enter.
      await run('审核通过版本', version.name);
      const asked = page.getByRole('dialog', { name: `审核通过版本「${version.name}」（徐汇区）` });
      // The dialog's root box is empty (its panel is fixed): wait for what it shows.
      await asked.getByText('确定审核通过', { exact: false }).waitFor({ timeout: 10_000 });
      await expect.poll(() => focusedName(page), { timeout: 5_000 }).toMatch(/^取消/);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.getByText(`版本「${version.name}」（徐汇区）已审核通过`).waitFor({ timeout: 10_000 });
      const at = shanghaiIn(4);
      await run('设置版本上线时间', version.name, at);
      await page.getByText(`版本「${version.name}」（徐汇区）将于 ${at} 上线`).waitFor({ timeout: 10_000 });

      // The job takes it online (and the old one offline); the list shows it after a refresh.
      await expect.poll(async () => (await get<{ content: { id: number; status: number }[] }>('/busline/api/bus/line/version/query/version/page?size=50')).content.find((v) => v.id === version.id)?.status, { timeout: 20_000, interval: 500 }).toBe(3);
      await page.goto(`${server.url}/version/version?status=3`);
      await page.getByRole('row', { name: new RegExp(`${version.name}.*已上线`) }).waitFor({ timeout: 10_000 });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
