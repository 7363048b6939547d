import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loginThroughPage, openConsole, storedToken } from '../support/e2e-console';
import { type StartedServer, hasChromium } from '../support/e2e';
import { e2eSuite } from '../support/e2e-suite';
import { readXlsx } from '../support/xlsx-read';

/**
 * Issue 12's flow in Debian's Chromium against `npm start`, keyboard only: 导出每日客流 from the
 * palette for one line and last month, the task in 下载中心 until it is done (progress over the
 * server's event stream), then the file downloaded and opened back.
 */

let server: StartedServer;
let browser: Browser | undefined;
e2eSuite('export', (started, launched) => {
  server = started;
  browser = launched;
});
const it_ = it.skipIf(!hasChromium);

describe('an export from the palette to the file', () => {
  it_('Ctrl+K 导出每日客流, a line, 上个月: the centre shows it done and Enter downloads the sheet', async () => {
    const { context, page, errors } = await openConsole(browser!);
    try {
      await page.goto(`${server.url}/login`);
      await loginThroughPage(page, 'manager');
      await page.getByRole('navigation', { name: '主菜单' }).waitFor();
      const token = await storedToken(page);
      const api = async <T>(path: string) => ((await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json())) as { data: T }).data;
      const [line] = await api<{ lineCode: string; lineName: string }[]>('/buscodepc/fyapi/day-take-bus-total/pc/lineCode');
      expect(line).toBeTruthy();

      await page.keyboard.press('Control+k');
      const palette = page.getByRole('dialog', { name: '命令面板' });
      await palette.waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
      await page.keyboard.type('导出每日客流');
      await expect.poll(async () => await palette.locator('[cmdk-item][data-selected="true"]').innerText()).toMatch(/^导出每日客流/);
      await page.keyboard.press('Enter');
      // The line, by its code; then the range.
      await palette.getByText('选择线路').first().waitFor();
      await page.keyboard.type(line!.lineCode);
      await expect.poll(async () => await palette.locator('[cmdk-item][data-selected="true"]').innerText()).toContain(line!.lineName);
      await page.keyboard.press('Enter');
      await palette.getByText('选择日期范围').first().waitFor();
      await page.keyboard.type('上个月');
      await expect.poll(async () => await palette.locator('[cmdk-item][data-selected="true"]').innerText()).toContain('上个月');
      await page.keyboard.press('Enter');
      // Queued, or already done by the time the toast is looked for (a small export under load
      // finishes within the queued toast's first frames, which the done toast replaces).
      await page.getByText(/^(已加入下载中心|导出完成)：每日客流/).first().waitFor({ timeout: 30_000 });

      // 下载中心 with g d: the task's row, live until 已完成.
      await page.keyboard.press('g');
      await page.keyboard.press('d');
      const centre = page.getByRole('dialog', { name: '下载中心' });
      await centre.getByText(/^导出在后台生成/).waitFor();
      const row = centre.locator('li').filter({ hasText: `线路${line!.lineCode}` }).first();
      await row.getByText('已完成').waitFor({ timeout: 30_000 });
      const rowText = await row.innerText();
      expect(rowText).toMatch(/每日客流 \d{4}-\d{2}-01至\d{4}-\d{2}-\d{2}/);
      // Focus starts on the newest task's 下载: Enter saves the file (fetched with the token, no token in a URL).
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '')).toMatch(/^下载 每日客流/);
      const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
      expect(download.url()).toMatch(/^blob:/);
      const file = await download.path();
      const sheet = await readXlsx(fs.readFileSync(file));
      expect(sheet.sheetName).toBe('每日客流');
      expect(sheet.rows[0]!.slice(0, 5)).toEqual(['日期', '线路编号', '线路名称', '车辆', '客流（人次）']);
      // Row for row what 乘车统计 pages through for the same line and month.
      const [, start, end] = /(\d{4}-\d{2}-\d{2})至(\d{4}-\d{2}-\d{2})/.exec(rowText)!;
      const page1 = await api<{ totalElements: number }>(`/buscodepc/fyapi/day-take-bus-total/pc/page?startDate=${start}&endDate=${end}&lineCode=${encodeURIComponent(line!.lineCode)}&size=1`);
      expect(page1.totalElements).toBeGreaterThan(0);
      expect(sheet.rows.length - 1).toBe(page1.totalElements);
      expect(new Set(sheet.rows.slice(1).map((r) => r[1]))).toEqual(new Set([line!.lineCode]));
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
