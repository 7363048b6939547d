import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { currentTitle, loginThroughPage, openConsole } from '../support/e2e-console';
import { type StartedServer, hasChromium } from '../support/e2e';
import { e2eSuite } from '../support/e2e-suite';

/**
 * The network, keyboard only, in Debian's Chromium against the real `npm start` (demo city): the
 * manager merges a planted near-duplicate stop into its twin from the palette.
 */

let server: StartedServer;
let browser: Browser | undefined;

e2eSuite('network', (started, launched) => {
  server = started;
  browser = launched;
});

const it_ = it.skipIf(!hasChromium);
const palette = (page: Page) => page.getByRole('dialog', { name: '命令面板' });
const selected = (page: Page) => palette(page).locator('[cmdk-item][aria-selected="true"]');
const selectedText = async (page: Page) => ((await selected(page).count()) ? (await selected(page).innerText()).trim() : '');

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

      await page.keyboard.press('Control+k');
      await page.keyboard.type('>合并站点');
      await expect.poll(() => selectedText(page), { timeout: 8_000 }).toContain('合并站点');
      await page.keyboard.press('Enter');
      await page.keyboard.type(twin);
      await expect.poll(() => selectedText(page), { timeout: 8_000 }).toBe(twin);
      await page.keyboard.press('Enter');
      await page.keyboard.type(dupName);
      await expect.poll(() => selectedText(page), { timeout: 8_000 }).toBe(dupName);
      await page.keyboard.press('Enter');

      const dialog = page.getByRole('dialog', { name: '合并站点' });
      await dialog.getByText(/没有线路经过被合并的站点|将改动开放版本中/).waitFor({ timeout: 10_000 });
      await dialog.getByText(/两站相距约 \d+ 米/).waitFor();
      await page.keyboard.press('Enter');
      await page.getByText(`已将「${dupName}」合并到「${twin}」`, { exact: false }).waitFor({ timeout: 10_000 });
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

describe('设置上线时间 from the palette', () => {
  it_('Ctrl+K 设置版本上线时间, the passed version, a date and time, Enter: the version is scheduled', async () => {
    const { context, page, errors } = await openConsole(browser!);
    try {
      await page.goto(`${server.url}/login`);
      await loginThroughPage(page, 'manager');
      await page.keyboard.press('Control+k');
      await page.keyboard.type('>设置版本上线时间');
      await expect.poll(() => selectedText(page), { timeout: 8_000 }).toContain('设置版本上线时间');
      await page.keyboard.press('Enter');
      await page.keyboard.type('dongji');
      await expect.poll(() => selectedText(page), { timeout: 8_000 }).toBe('2026 冬季加班线');
      await page.keyboard.press('Enter');
      await page.keyboard.type('2030-01-01 05:00');
      await page.keyboard.press('Enter');
      await page.getByText('版本「2026 冬季加班线」将于 2030-01-01 05:00 上线').waitFor({ timeout: 10_000 });
      await page.waitForURL((u) => u.pathname === '/version/version', { timeout: 10_000 });
      await page.getByText('计划 2030-01-01 05:00').waitFor({ timeout: 10_000 });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
