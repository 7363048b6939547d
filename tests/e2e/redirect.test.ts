import http from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/db/seed';
import { currentTitle, loginThroughPage, openConsole, settled } from '../support/e2e-console';
import { type StartedServer, freePort, hasChromium } from '../support/e2e';
import { e2eSuite } from '../support/e2e-suite';

/**
 * The open redirect after login, in Debian's Chromium against the real `npm start`: whatever a link
 * puts into `/login?redirect=` or `/redirect/{path}`, a real login must leave the browser on the
 * console's origin. The hostile targets point at a second HTTP server on another loopback address,
 * so an escape is not a DNS error but a page that loads and a request that server records.
 */

let server: StartedServer;
let browser: Browser | undefined;

e2eSuite('redirect', (started, launched) => {
  server = started;
  browser = launched;
});

/** The "other host": answers every request with a page, and remembers that it was asked. */
let evil: http.Server;
let EVIL = '';
const evilHits: string[] = [];

beforeAll(async () => {
  const port = await freePort('127.0.0.2');
  evil = http.createServer((req, res) => {
    evilHits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>elsewhere</title><h1>elsewhere</h1>');
  });
  await new Promise<void>((resolve) => evil.listen(port, '127.0.0.2', resolve));
  EVIL = `127.0.0.2:${port}`;
});
afterAll(() => new Promise<void>((resolve) => (evil ? evil.close(() => resolve()) : resolve())));

const it_ = it.skipIf(!hasChromium);

/** Every URL the tab's main frame showed, to prove it never left, not only where it ended. */
function trackNavigations(page: Page): string[] {
  const seen: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) seen.push(frame.url());
  });
  return seen;
}

/**
 * Types the credentials and presses Enter, then waits until the console leaves /login (in the page,
 * no reload), wherever it goes, and for the network to calm down.
 */
async function loginAndSettle(page: Page, login = 'manager'): Promise<void> {
  const name = page.getByLabel('用户名');
  await name.waitFor({ timeout: 15_000 });
  await name.fill(login);
  await page.getByLabel('密码', { exact: true }).fill(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForURL((u) => u.pathname !== '/login', { timeout: 15_000 });
  await settled(page, { timeoutMs: 10_000 });
}

const originOf = (url: string) => new URL(url).origin;

/** Query values exactly as they sit in the address bar (`%XX` as typed, `{EVIL}` the other host). */
const hostile: Array<[string, string]> = [
  ['the reported %2F%5C (/\\host)', '%2F%5C{EVIL}%2Fx'],
  ['%255C, decoded twice on the way (decodeURI, then URLSearchParams)', '%2F%255C{EVIL}%2Fx'],
  ['/%09/ (the parser drops the tab)', '%2F%09%2F{EVIL}%2Fx'],
  ['/%0A/ (the parser drops the newline)', '%2F%0A%2F{EVIL}%2Fx'],
  ['/\\/ encoded', '%2F%5C%2F{EVIL}%2Fx'],
  ['/\\ typed raw in the query', '/\\{EVIL}/x'],
  ['\\/ encoded', '%5C%2F{EVIL}%2Fx'],
  ['// (protocol-relative)', '%2F%2F{EVIL}%2Fx'],
  ['an absolute http URL', 'http%3A%2F%2F{EVIL}%2Fx'],
  ['a leading space before //', '%20%2F%2F{EVIL}%2Fx'],
  ['/.// (dot segments that collapse into //)', '%2F.%2F%2F{EVIL}%2Fx'],
];

describe('login with a hostile ?redirect= stays on the console', () => {
  it_.each(hostile)('%s', async (_name, raw) => {
    const { context, page } = await openConsole(browser!);
    try {
      const hitsBefore = evilHits.length;
      const seen = trackNavigations(page);
      await page.goto(`${server.url}/login?redirect=${raw.replaceAll('{EVIL}', EVIL)}`);
      await loginAndSettle(page);

      expect(originOf(page.url())).toBe(server.url);
      expect(seen.filter((u) => u !== 'about:blank' && originOf(u) !== server.url)).toEqual([]);
      expect(evilHits.length - hitsBefore).toBe(0);
      // Refused targets go home: the console, signed in.
      await currentTitle(page).waitFor({ timeout: 15_000 });
    } finally {
      await context.close();
    }
  });

  it_('a same-origin redirect with query and hash still lands exactly there (the checks above can pass for the right reason)', async () => {
    const { context, page, errors } = await openConsole(browser!);
    try {
      const where = '/user/sys-log?page=2&size=20#x';
      await page.goto(`${server.url}/login?redirect=${encodeURIComponent(where)}`);
      await loginAndSettle(page);
      await currentTitle(page).filter({ hasText: '系统日志' }).waitFor({ timeout: 15_000 });
      const at = new URL(page.url());
      expect(at.origin).toBe(server.url);
      expect(at.pathname + at.search + at.hash).toBe(where);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('redirects keep the whole address', () => {
  it_('a signed-in visit to /login?redirect= goes to the target, and the guard keeps the #hash through login', async () => {
    const { context, page, errors } = await openConsole(browser!);
    try {
      // Signed out: the guard sends the deep link to /login, hash included.
      await page.goto(`${server.url}/user/sys-log?page=1#row-3`);
      await page.waitForURL((u) => u.pathname === '/login', { timeout: 10_000 });
      expect(new URL(page.url()).searchParams.get('redirect')).toBe('/user/sys-log?page=1#row-3');
      await loginAndSettle(page);
      let at = new URL(page.url());
      expect(at.pathname + at.search + at.hash).toBe('/user/sys-log?page=1#row-3');

      // Signed in: /login with a redirect is not a dead end at home.
      await page.goto(`${server.url}/login?redirect=${encodeURIComponent('/settings/districts?name=x')}`);
      await page.waitForURL((u) => u.pathname === '/settings/districts', { timeout: 10_000 });
      at = new URL(page.url());
      expect(at.pathname + at.search).toBe('/settings/districts?name=x');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** `/redirect/{path}` as it sits in the address bar: the tags view's refresh goes through it. */
const hostilePassThrough: Array<[string, string]> = [
  ['%5C (decoded to \\ by the router)', '/redirect/%5C{EVIL}/x'],
  ['an empty first segment (//host)', '/redirect//{EVIL}/x'],
  ['%09 then / (tab dropped by the parser)', '/redirect/%09/{EVIL}/x'],
];

describe('/redirect/{path} never leaves the console', () => {
  it_.each(hostilePassThrough)('%s', async (_name, raw) => {
    const { context, page, errors } = await openConsole(browser!);
    try {
      await page.goto(`${server.url}/login`);
      await loginThroughPage(page, 'manager');
      const hitsBefore = evilHits.length;
      const seen = trackNavigations(page);
      await page.goto(`${server.url}${raw.replaceAll('{EVIL}', EVIL)}`);
      await page.waitForURL((u) => !u.pathname.startsWith('/redirect/'), { timeout: 10_000 }).catch(() => undefined);
      await settled(page, { timeoutMs: 10_000 });

      expect(originOf(page.url())).toBe(server.url);
      expect(new URL(page.url()).pathname.startsWith('/redirect/')).toBe(false);
      expect(seen.filter((u) => u !== 'about:blank' && originOf(u) !== server.url)).toEqual([]);
      expect(evilHits.length - hitsBefore).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it_('a same-origin path with its query comes back as it was (the refresh still works)', async () => {
    const { context, page, errors } = await openConsole(browser!);
    try {
      await page.goto(`${server.url}/login`);
      await loginThroughPage(page, 'manager');
      await page.goto(`${server.url}/redirect/user/sys-log?page=2&size=20`);
      await page.waitForURL((u) => u.pathname === '/user/sys-log', { timeout: 10_000 });
      await currentTitle(page).filter({ hasText: '系统日志' }).waitFor({ timeout: 15_000 });
      const at = new URL(page.url());
      expect(at.pathname + at.search).toBe('/user/sys-log?page=2&size=20');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
