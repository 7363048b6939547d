import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/db/seed';
import { loginThroughPage, openConsole } from '../support/e2e-console';
import { type StartedServer, hasChromium } from '../support/e2e';
import { e2eSuite } from '../support/e2e-suite';

/**
 * Stored XSS, in Debian's Chromium against the real `npm start`: markup that would run script is
 * written through the API into every text field the console shows (a staff name, a role group's name
 * and description, an agreement's title and content), then the pages and the palette that render
 * them are opened. Nothing may run, and the text must show as typed.
 */

let server: StartedServer;
let browser: Browser | undefined;

e2eSuite('stored-xss', (started, launched) => {
  server = started;
  browser = launched;
});

const it_ = it.skipIf(!hasChromium);

const PAYLOADS = ['<img src=x onerror="window.__xss=1">', '<script>window.__xss=2</script>', '"><svg onload="window.__xss=3">', 'javascript:window.__xss=4'];

async function api(path: string, init: { method: string; token?: string; body?: unknown; query?: Record<string, string>; district?: string }) {
  const url = new URL(path, server.url);
  for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v);
  const res = await fetch(url, {
    method: init.method,
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.district ? { districtid: init.district } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const env = (await res.json()) as { code: number; msg: string; data: unknown };
  if (env.code !== 1) throw new Error(`${path}: ${res.status} ${env.msg}`);
  return env.data;
}

async function noScriptRan(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
}

describe('markup stored in text fields is shown as text and never runs', () => {
  it_('staff name, role group name and description, agreement title and content', async () => {
    // A second browser session of admin would end this one: the writes use the manager's and a
    // separate admin login made before the browser's.
    const admin = (await api('/busline/api/authenticate', { method: 'POST', body: { username: 'admin', password: DEMO_PASSWORD } })) as { idToken: string };
    const [img, script, svg, js] = PAYLOADS as [string, string, string, string];
    await api('/busline/api/user/update', { method: 'PUT', token: admin.idToken, body: { id: 3, firstName: img.slice(0, 32) } });
    const groups = (await api('/busline/api/group/get/list', { method: 'GET', token: admin.idToken })) as { id: number; name: string }[];
    const group = groups.find((g) => g.name === '只读组')!;
    await api('/busline/api/group/update', { method: 'POST', token: admin.idToken, query: { id: String(group.id), name: svg.slice(0, 32), description: script } });
    const districts = (await api('/busline/api/bus/district/page', { method: 'GET', token: admin.idToken, query: { page: '0', size: '5' } })) as { content: { id: number }[] };
    await api('/busline/api/bus/agreement/saveOrUpdate', { method: 'POST', token: admin.idToken, district: String(districts.content[0]!.id), body: { code: 'xss-probe', title: script, content: `${img}${js}` } });

    const { context, page, errors } = await openConsole(browser!);
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    try {
      await page.goto(`${server.url}/login`);
      await loginThroughPage(page, 'admin');
      for (const [path, shown] of [
        ['/user/user-list', img.slice(0, 32)],
        ['/user/role-group', svg.slice(0, 32)],
        ['/settings/agreements', script],
      ] as const) {
        await page.goto(`${server.url}${path}`);
        await page.getByText(shown, { exact: false }).first().waitFor({ timeout: 10_000 });
        await noScriptRan(page);
        expect(await page.locator('main img[src="x"], main svg[onload], main script').count()).toBe(0);
      }
      // Row dialogs render the same values in inputs and previews.
      await page.evaluate(() => document.getElementById('main')?.focus());
      await page.keyboard.press('j');
      await page.keyboard.press('Enter');
      await page.locator('[role="dialog"]').first().waitFor({ state: 'attached' });
      await noScriptRan(page);
      await page.keyboard.press('Escape');

      // The palette lists records by title: the agreement's title is markup.
      await page.keyboard.press('Control+k');
      await page.keyboard.type('script');
      await page.getByRole('option', { name: /<script>/ }).first().waitFor({ timeout: 10_000 });
      await noScriptRan(page);
      expect(dialogs).toEqual([]);
      expect(errors.filter((e) => !e.includes('favicon'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
