import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/db/seed';
import { loginThroughPage, openConsole } from '../support/e2e-console';
import { type StartedServer, hasChromium } from '../support/e2e';
import { e2eSuite } from '../support/e2e-suite';

/**
 * Stored XSS, in Debian's Chromium against the real `npm start`: markup that would run script is
 * written through the API into every text field the console shows (a staff name, a role group's name
 * and description, an agreement's title and content), then the pages and the palette that render
 * them are opened. Nothing may run, and the text must show as typed. Names drawn on the maps, where
 * a library writes strings as HTML, are hovered with a bait server counting what markup would fetch;
 * and the page's policy is checked to refuse what markup slipping through would load.
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

/** Rich text (公告, 帮助文档) is markup by design: what the server's allow-list lets through is all that is ever drawn. */
const RICH_PAYLOADS = [
  '<img src=x onerror="window.__xss=11">',
  '<script>window.__xss=12</script>',
  '<svg onload="window.__xss=13"><circle r="1"/></svg>',
  '<a href="javascript:window.__xss=14">链接</a>',
  '<iframe src="javascript:window.__xss=15"></iframe>',
  '<style>*{background:url(javascript:window.__xss=16)}</style>',
  '<p onclick="window.__xss=17" style="color:red">段落</p>',
];

describe('rich text of notices and help docs runs nothing where it is shown', () => {
  it_('a notice in its editor, a help doc in 帮助中心’s preview and in the page’s ? sheet', async () => {
    // Written through the API by the manager before the browser's own login (one session per account).
    const manager = (await api('/busline/api/authenticate', { method: 'POST', body: { username: 'manager', password: DEMO_PASSWORD } })) as { idToken: string };
    const content = `<p>正文可见</p>${RICH_PAYLOADS.join('')}`;
    const title = '<img src=x onerror="window.__xss=10">';
    await api('/busline/api/bus/notice/saveOrUpdate', { method: 'POST', token: manager.idToken, body: { title, type: 2, content } });
    const tree = (await api('/busline/api/bus/help/catalog/tree', { method: 'GET', token: manager.idToken })) as { id: number; audience: number }[];
    const doc = (await api('/busline/api/bus/help/doc/saveOrUpdate', {
      method: 'POST',
      token: manager.idToken,
      body: { catalogId: tree.find((c) => c.audience === 2)!.id, title: '<svg onload="window.__xss=18">帮助', content, pageKey: 'noticeReport/notice' },
    })) as { id: number };
    await api('/busline/api/bus/help/doc/update/status', { method: 'POST', token: manager.idToken, body: { id: doc.id, fromStatus: 0, toStatus: 1 } });

    const { context, page, errors } = await openConsole(browser!);
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const noMarkup = async () => expect(await page.locator('[role="dialog"] img, [role="dialog"] svg, [role="dialog"] iframe, [role="dialog"] script, [role="dialog"] [onerror], [role="dialog"] [onclick], main img[src="x"]').count()).toBe(0);
    try {
      await page.goto(`${server.url}/login`);
      await loginThroughPage(page, 'manager');
      // The notice's draft opened in its editor (e on the row): the text arrives through the allow-list.
      await page.goto(`${server.url}/noticeReport/notice?status=0&sort=createdDate,desc`);
      await page.getByText(title, { exact: false }).first().waitFor({ timeout: 10_000 });
      await page.evaluate(() => document.getElementById('main')?.focus());
      await page.keyboard.press('j');
      await page.keyboard.press('e');
      await page.getByRole('textbox', { name: '内容' }).getByText('正文可见').waitFor({ timeout: 10_000 });
      await noScriptRan(page);
      await noMarkup();
      await page.keyboard.press('Escape');
      // The page's own doc at the top of the ? sheet, then whole.
      await page.evaluate(() => document.getElementById('main')?.focus());
      await page.keyboard.press('?');
      await page.getByRole('region', { name: '本页帮助' }).waitFor({ timeout: 10_000 });
      await page.keyboard.press('Enter');
      await page.getByRole('article').getByText('正文可见').waitFor({ timeout: 10_000 });
      await noScriptRan(page);
      await noMarkup();
      await page.keyboard.press('Escape');
      // 帮助中心's preview of the same doc.
      await page.goto(`${server.url}/version/help-center?pageKey=noticeReport/notice&status=1`);
      // The doc's row itself (its title shown as text), not merely the page's name: j needs the rows.
      await page.getByRole('main').getByRole('row').filter({ hasText: 'window.__xss=18' }).first().waitFor({ timeout: 10_000 });
      await page.evaluate(() => document.getElementById('main')?.focus());
      await page.keyboard.press('j');
      await page.keyboard.press('Enter');
      await page.getByRole('dialog').getByText('正文可见').waitFor({ timeout: 10_000 });
      await noScriptRan(page);
      await noMarkup();
      expect(dialogs).toEqual([]);
      expect(errors.filter((e) => !e.includes('favicon'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** A server that counts every request made to it: what markup built from a name would fetch. */
async function startBait(): Promise<{ hits: string[]; origin: string; close: () => Promise<void> }> {
  const hits: string[] = [];
  const bait = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end('bait');
  });
  await new Promise<void>((resolve) => bait.listen(0, '127.0.0.1', resolve));
  return { hits, origin: `http://127.0.0.1:${(bait.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => bait.close(() => resolve())) };
}

/**
 * Markup in a station's or a line's name, drawn on the maps (站点, 线路轨迹): Leaflet writes a
 * string tooltip as HTML, so an image or a frame in a name would be fetched by everyone who hovers
 * its marker. The names point at a bait server that counts every request. The browser profile
 * bypasses the page's CSP: what is tested is that the console never builds markup from a name (the
 * CSP is a second layer, tested below and in headers.test.ts), so the bait sees any element that slipped.
 */
describe('markup in names drawn on the maps is shown as text and fetches nothing', () => {
  it_('stations and a line named as an image and frames: hovered on 站点 and 线路轨迹', async () => {
    const { hits, origin, close } = await startBait();
    const names = [`<img src=${origin}/b>`, '<iframe src=/login>', `<iframe src=${origin}/f>`];
    try {
      // The manager writes; the read-only viewer, who hovers the map, is the one a name would reach.
      const manager = (await api('/busline/api/authenticate', { method: 'POST', body: { username: 'manager', password: DEMO_PASSWORD } })) as { idToken: string };
      const lines = (await api('/busline/api/busLine/list', { method: 'GET', token: manager.idToken, query: { page: '0', size: '50' } })) as { content: { id: number; code: string; direction: number; isLoop: boolean; fare: number }[] };
      let line: (typeof lines.content)[number] | undefined;
      let stops: { stationId: number; lng: number; lat: number; state: number }[] = [];
      for (const l of lines.content) {
        const info = (await api('/busline/api/busLine/info', { method: 'GET', token: manager.idToken, query: { id: String(l.id) } })) as { stops: { up: typeof stops } };
        // Not a loop: its last stop would be drawn over its first.
        if (!l.isLoop && info.stops.up.length >= names.length) {
          line = l;
          stops = info.stops.up;
          break;
        }
      }
      expect(line, 'a line with enough stops upward').toBeDefined();
      for (const [i, name] of names.entries()) {
        const s = stops[i]!;
        await api('/busline/api/busStation/save', { method: 'POST', token: manager.idToken, body: { id: s.stationId, name, lng: s.lng, lat: s.lat, state: s.state } });
      }
      const lineName = `<img src=${origin}/l>`;
      await api('/busline/api/busLine/save', { method: 'POST', token: manager.idToken, body: { id: line!.id, code: line!.code, name: lineName, direction: line!.direction, isLoop: line!.isLoop, fare: line!.fare } });

      const { context, page, errors } = await openConsole(browser!, undefined, watchMarkup, { bypassCSP: true });
      try {
        await page.goto(`${server.url}/login`);
        await loginThroughPage(page, 'viewer');
        const pages = [
          [`/station/station?name=${encodeURIComponent('<')}`, names],
          [`/bus/line-path?id=${line!.id}&direction=0`, names.map((n, i) => `${i + 1}. ${n}`)],
        ] as const;
        // Each page's findings, asserted together: a failure shows every page that went wrong.
        const found: { path: string; baitRequests: string[]; created: string[]; notShown: string[] }[] = [];
        for (const [path, shown] of pages) {
          const before = hits.length;
          await page.goto(`${server.url}${path}`);
          const map = page.getByRole('application');
          const markers = map.locator('path.leaflet-interactive');
          // Drawn once the map has its size (until then a marker's path is empty).
          const drawn = () => markers.evaluateAll((els) => els.filter((el) => el.getBoundingClientRect().width > 0).length);
          await expect.poll(drawn, { timeout: 15_000 }).toBeGreaterThanOrEqual(names.length);
          const texts: string[] = [];
          for (const marker of await markers.all()) {
            await expect.poll(() => hover(page, marker), { timeout: 15_000 }).not.toBeNull();
            texts.push((await tooltipOf(marker))!);
          }
          found.push({ path, baitRequests: hits.slice(before), created: await createdFromNames(page), notShown: shown.filter((x) => !texts.includes(x)) });
        }
        expect(found).toEqual(pages.map(([path]) => ({ path, baitRequests: [], created: [], notShown: [] })));
        // The line's name is the page's title (text, as everywhere React writes it).
        await page.getByText(`线路轨迹 · ${lineName}`).first().waitFor({ timeout: 5_000 });
        expect(hits).toEqual([]);
        expect(errors.filter((e) => !e.includes('favicon'))).toEqual([]);
      } finally {
        await context.close();
      }
    } finally {
      await close();
    }
  });
});

/**
 * Puts the pointer on the marker, where it is now (the map may still be fitting its drawing), and
 * answers its tooltip's text once open.
 */
async function hover(page: Page, marker: Locator) {
  const box = await marker.boundingBox();
  // Off it first: a pointer already resting there makes no new mouseover (a map that drew its
  // markers again, as a live refetch does, leaves its tooltip closed until the pointer comes back).
  await page.mouse.move(0, 0);
  if (box) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  return tooltipOf(marker);
}

/** The text of a marker's open tooltip (Leaflet names it in the marker's aria-describedby), null while closed. */
function tooltipOf(marker: Locator) {
  return marker.evaluate((el) => {
    const tip = document.getElementById(el.getAttribute('aria-describedby') ?? '');
    return tip?.isConnected ? tip.textContent : null;
  });
}

/** Records every <img> and <iframe> the page ever adds, however briefly, with its address. */
async function watchMarkup(context: BrowserContext) {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __created: string[] }).__created = seen;
    new MutationObserver((records) => {
      for (const r of records)
        for (const n of r.addedNodes) {
          if (!(n instanceof Element)) continue;
          for (const el of [n, ...n.querySelectorAll('img, iframe')]) if (el.tagName === 'IMG' || el.tagName === 'IFRAME') seen.push(`${el.tagName} ${el.getAttribute('src') ?? ''}`);
        }
    }).observe(document, { childList: true, subtree: true });
  });
}

/** The elements of `watchMarkup` that came from a name: a frame of the login page, or the bait. */
function createdFromNames(page: Page) {
  return page.evaluate(() => (window as unknown as { __created: string[] }).__created.filter((x) => x.includes('/login') || x.includes('127.0.0.1')));
}

describe("the page's policy, under the escaping", () => {
  it_('refuses what markup that slipped through would load: an image from another site, any frame', async () => {
    const { hits, origin, close } = await startBait();
    const { context, page, errors } = await openConsole(browser!);
    try {
      await page.goto(`${server.url}/login`);
      await page.getByLabel('用户名').waitFor({ timeout: 15_000 });
      // As if a name had been written as HTML somewhere: the elements a tooltip would have made.
      await page.evaluate((o) => document.body.insertAdjacentHTML('beforeend', `<img src="${o}/i"><iframe src="/login"></iframe><iframe src="${o}/f"></iframe>`), origin);
      await expect.poll(() => errors.filter((e) => e.includes('CSP violation')).sort(), { timeout: 10_000 }).toEqual([
        // A refused frame of another site is reported by its origin only.
        `console: CSP violation: frame-src ${origin}`,
        `console: CSP violation: frame-src ${server.url}/login`,
        `console: CSP violation: img-src ${origin}/i`,
      ].sort());
      expect(hits).toEqual([]);
    } finally {
      await context.close();
      await close();
    }
  });
});
