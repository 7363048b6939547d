import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { DEMO_PASSWORD } from '../../src/server/db/seed';

/** Helpers to drive the console in Chromium as a person would: keyboard and visible text. */

export const DESKTOP = { width: 1440, height: 900 } as const;
export const PHONE = { width: 375, height: 812 } as const;
export type Viewport = { width: number; height: number };

export interface ConsolePage {
  context: BrowserContext;
  page: Page;
  /** Errors the page threw or printed as errors, for the test to check when it wants. */
  errors: string[];
}

/**
 * Content-Security-Policy refusals do not always reach the console on their own (a caught eval
 * probe does not): every page reports them as console errors, which the tests collect.
 */
export async function reportCspViolations(target: BrowserContext | Page): Promise<void> {
  await target.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`)),
  );
}

/** A fresh browser profile (its own local storage), like another person's browser. */
export async function openConsole(
  browser: Browser,
  viewport: Viewport = DESKTOP,
  setup?: (c: BrowserContext) => Promise<void>,
  /** axe-core is injected as a script: its profile lets the page's CSP allow that one script. */
  opts: { bypassCSP?: boolean } = {},
): Promise<ConsolePage> {
  const context = await browser.newContext({ viewport, locale: 'zh-CN', timezoneId: 'Asia/Shanghai', bypassCSP: opts.bypassCSP ?? false });
  if (setup) await setup(context);
  await reportCspViolations(context);
  const page = await context.newPage();
  trackRequests(page);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return { context, page, errors };
}

export const mainMenu = (page: Page) => page.getByRole('navigation', { name: '主菜单' });
/** The breadcrumb of the layout: on every console page, phone or desktop. */
export const breadcrumb = (page: Page) => page.getByRole('navigation', { name: '面包屑' });
/** The title of the page shown, as the breadcrumb says it. */
export const currentTitle = (page: Page) => breadcrumb(page).locator('[aria-current="page"]');

/** Types the credentials on the login page and presses Enter; resolves once the console's layout shows. */
export async function loginThroughPage(page: Page, login: string, password = DEMO_PASSWORD): Promise<void> {
  const name = page.getByLabel('用户名');
  await name.waitFor({ timeout: 15_000 });
  await name.fill(login);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.keyboard.press('Enter');
  await currentTitle(page).waitFor({ timeout: 15_000 });
}

/** The token the console stored for this page's profile. */
export async function storedToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('bus-console.token') ?? 'null') as { token?: string } | null)?.token ?? null);
  if (!token) throw new Error('no token stored');
  return token;
}

/** Widest element box against the viewport: anything sticking out makes the page scroll sideways. */
export function horizontalOverflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
}

/**
 * Arms the page to time, on its own clock, the next Enter keydown to the first animation frame after
 * `text` appears in the document.
 */
export function watchPaint(page: Page, text: string) {
  // A string, not a function: tsx (the bench's runner) wraps named functions in a `__name` helper the
  // page does not have.
  const armed = page.evaluate(`(() => {
    const t = ${JSON.stringify(text)};
    window.__paint = new Promise((resolve) => {
      let enter = 0;
      document.addEventListener('keydown', (e) => { if (e.key === 'Enter' && !enter) enter = performance.now(); }, { capture: true });
      const observer = new MutationObserver(() => {
        if (!enter || !document.body.innerText.includes(t)) return;
        observer.disconnect();
        requestAnimationFrame(() => resolve(performance.now() - enter));
      });
      observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    });
  })()`);
  return { armed, result: () => page.evaluate('window.__paint') as Promise<number> };
}

/** The console's event stream stays open while it is signed in (the live console): never "busy". */
const LONG_LIVED = /\/xls\/task\/events(\?|$)/;
const inFlight = new WeakMap<Page, Set<Request>>();

/** Counts a page's requests from now on, the event stream left out (settled below). */
export function trackRequests(page: Page): Set<Request> {
  let open = inFlight.get(page);
  if (open) return open;
  const set = new Set<Request>();
  open = set;
  inFlight.set(page, set);
  page.on('request', (r) => {
    if (!LONG_LIVED.test(new URL(r.url()).pathname)) set.add(r);
  });
  const done = (r: Request) => set.delete(r);
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return open;
}

/**
 * Waits until the page has had no request in flight for `quietMs` (the data of what it shows has
 * arrived), within `timeoutMs`, then goes on either way. Playwright's `networkidle` never comes
 * while the console holds its event stream, which every signed-in console does (decision 144).
 */
export async function settled(page: Page, { quietMs = 500, timeoutMs = 10_000 } = {}): Promise<void> {
  const open = trackRequests(page);
  const end = Date.now() + timeoutMs;
  let quietSince = open.size ? 0 : Date.now();
  while (Date.now() < end) {
    if (open.size) quietSince = 0;
    else if (!quietSince) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The demo city's values read with a page's own session from outside the browser (not recorded as
 * the page's requests): `path` is the server path with its query, a body makes it a POST.
 */
export function apiAs(baseUrl: string, token: string) {
  return async <T>(path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { code: number; msg: string; data: T };
    if (json.code !== 1) throw new Error(`${path}: ${json.msg}`);
    return json.data;
  };
}
