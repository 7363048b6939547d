import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAMP_FILE } from '../../src/server/console-build';
import { DEMO_PASSWORD } from '../../src/server/db/seed';
import { LOGIN_ELSEWHERE, LOGIN_RESULT_HEADER } from '../../src/shared/api';
import { type StartedServer, hasChromium, killLeftovers, launchChromium, startServer } from '../support/e2e';
import { reportCspViolations } from '../support/e2e-console';

/**
 * `npm start` as a user runs it on a fresh clone: the console built (into an empty folder, as a
 * fresh clone has no build) while the server migrates and seeds a fresh PGlite folder, driven from
 * Debian's Chromium. The server is started twice on the same folder (the second time after a
 * graceful shutdown) to check that data persists, the demo city is not seeded again and the
 * unchanged console is not built again.
 */

const TITLE = '公交运营管理控制台';
const SEEDED_NOTE = '已生成演示城市';
const DEMO_ACCOUNTS = ['admin', 'manager', 'agent', 'viewer', 'expired'];
const SHOTS = fileURLToPath(new URL('./__screenshots__/', import.meta.url));

/**
 * Issue 20's budgets: a fresh clone ready in 15 s (build included), a restart in 3 s, on an idle
 * two-core machine. Both are printed every run and warn when over: this file shares the machine
 * with the other test projects running at once, and there the same start takes 4× as long (62.8 s
 * and 11.3 s measured at a load of 12). What fails is structural and load-proof instead (the
 * restart builds nothing and seeds nothing); the wall-clock ceilings only catch a start that hangs
 * or goes back to minutes.
 */
const BUDGET = { firstStartMs: 15_000, restartMs: 3_000 };
const CEILING = { firstStartMs: 120_000, restartMs: 30_000 };
function checkBudget(what: string, ms: number, budgetMs: number, ceilingMs: number) {
  console.log(`[e2e] ${what}: ${(ms / 1000).toFixed(1)} s (budget ${budgetMs / 1000} s)`);
  if (ms > budgetMs) console.warn(`[e2e] ${what} over its budget: ${(ms / 1000).toFixed(1)} s > ${budgetMs / 1000} s (a busy machine, or a regression)`);
  expect(ms, `${what} under ${ceilingMs / 1000} s`).toBeLessThanOrEqual(ceilingMs);
}

let server: StartedServer;
let browser: Browser | undefined;
let page: Page | undefined;
/** Errors the page printed or threw, checked once it has rendered. */
const pageErrors: string[] = [];

let firstStartMs = 0;
/**
 * The console of this file's servers, built into a folder of its own as on a fresh clone (which
 * has no build at all): the shared ./dist serves the other browser tests running at the same time.
 */
const STATIC_DIR = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bus-console-start-')), 'dist');
// As a user starts it: the console built at the lowest priority beside the seed.
const ownConsole = { STATIC_DIR, BUILD_NICE: '19' };

beforeAll(async () => {
  // Chromium is launched after, so that the first start is timed alone.
  server = await startServer({ env: ownConsole });
  firstStartMs = server.readyMs;
  browser = hasChromium ? await launchChromium() : undefined;
  if (browser) {
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await reportCspViolations(page);
    page.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`);
    });
    page.on('response', (r) => {
      if (r.status() >= 400 && !r.url().includes('/busline/')) pageErrors.push(`${r.status()} ${r.url()}`);
    });
  }
});

afterAll(async () => {
  await browser?.close();
  if (server) await server.stop({ target: 'group' }).catch(() => undefined);
  killLeftovers();
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
  fs.rmSync(path.dirname(STATIC_DIR), { recursive: true, force: true });
});

interface Answer {
  status: number;
  loginResult: string | null;
  body: { code: number; msg: string; data: unknown };
}

/** A request made from inside the page (same origin, as the console makes it), or from Node without Chromium. */
async function api(path: string, init: { method?: string; token?: string; json?: unknown } = {}): Promise<Answer> {
  const args = { path, method: init.method ?? 'GET', token: init.token ?? null, json: init.json === undefined ? null : JSON.stringify(init.json), header: LOGIN_RESULT_HEADER };
  const call = async (a: typeof args): Promise<Answer> => {
    const headers: Record<string, string> = {};
    if (a.token) headers.authorization = `Bearer ${a.token}`;
    if (a.json !== null) headers['content-type'] = 'application/json';
    const res = await fetch(a.path, { method: a.method, headers, body: a.json ?? undefined });
    return { status: res.status, loginResult: res.headers.get(a.header), body: (await res.json()) as Answer['body'] };
  };
  if (page) return page.evaluate(call, args);
  return call({ ...args, path: server.url + path });
}

async function login(username: string): Promise<string> {
  const res = await api('/busline/api/authenticate', { method: 'POST', json: { username, password: DEMO_PASSWORD } });
  expect(res.status).toBe(200);
  expect(res.body.code, res.body.msg).toBe(1);
  const token = (res.body.data as { idToken?: unknown }).idToken;
  expect(typeof token).toBe('string');
  return token as string;
}

const me = (token: string) => api('/busline/api/user/query/msg', { token });

describe('npm start', () => {
  it('is ready on a fresh clone within its budget (vite build alongside migrate + seed, then listen)', () => {
    checkBudget('first start to ready (fresh clone)', firstStartMs, BUDGET.firstStartMs, CEILING.firstStartMs);
    expect(fs.readFileSync(path.join(STATIC_DIR, STAMP_FILE), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
  });

  it('prints the address and every demo account, then READY', () => {
    const out = server.stdout();
    expect(out).toContain(TITLE);
    expect(out).toContain(`地址:     ${server.url}/`);
    expect(out).toContain(`PGlite ${server.dataDir}`);
    expect(out).toContain(SEEDED_NOTE);
    expect(out).toContain(DEMO_PASSWORD);
    for (const name of DEMO_ACCOUNTS) expect(out).toMatch(new RegExp(`^\\s+${name}\\s`, 'm'));
    expect(out).toMatch(/^READY http:\/\/127\.0\.0\.1:\d+$/m);
    expect(server.stderr()).not.toMatch(/\[server\]|Error:/);
  });

  it.skipIf(!hasChromium)('renders the Chinese console page at / and at any unknown path, on desktop and phone', async () => {
    const p = page!;
    fs.mkdirSync(SHOTS, { recursive: true });
    const heading = p.getByRole('heading', { name: TITLE });

    await p.goto(`${server.url}/`);
    await heading.waitFor({ timeout: 15_000 });
    expect(await p.title()).toBe(TITLE);
    await p.screenshot({ path: `${SHOTS}home-1440x900.png` });

    await p.setViewportSize({ width: 375, height: 812 });
    await p.reload();
    await heading.waitFor({ timeout: 15_000 });
    await p.screenshot({ path: `${SHOTS}home-375x812.png`, fullPage: true });
    // Nothing wider than the phone's screen.
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // The console routes in the browser: a deep link reloaded must get the page, not a 404.
    await p.setViewportSize({ width: 1440, height: 900 });
    const res = await p.goto(`${server.url}/some/route`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-type']).toContain('text/html');
    await heading.waitFor({ timeout: 15_000 });
    await p.screenshot({ path: `${SHOTS}some-route-1440x900.png` });

    expect(pageErrors).toEqual([]);
  });

  it('sends the login page and shell in at most 170 kB of brotli (194 kB gzip for old clients), prebuilt brotli first', async () => {
    const dist = STATIC_DIR;
    const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    // What the browser fetches before anything lazy: the entry script and its modulepreloads.
    const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1] ?? '');
    expect(initial.length).toBeGreaterThan(0);
    const sizeOf = (file: string, ext: string) => {
      const p = path.join(dist, `${file}${ext}`);
      // Files below the compression threshold are sent as they are.
      return fs.existsSync(p) ? fs.statSync(p).size : fs.statSync(path.join(dist, file)).size;
    };
    const total = (ext: string) => initial.reduce((sum, f) => sum + sizeOf(f, ext), 0);
    const raw = total('');
    const br = total('.br');
    const gz = total('.gz');
    console.log(`[e2e] initial JS (${initial.length} files): ${(raw / 1024).toFixed(0)} kB raw, ${(gz / 1024).toFixed(0)} kB gzip, ${(br / 1024).toFixed(0)} kB brotli`);
    // What browsers receive is the brotli (README decision 78); gzip is the fallback of old clients.
    // 180/204 until the money modules' contract joined the shell (184/210), 190/216 for a day; the
    // shell without the contract (decision 162) is 162/184, and this keeps it there with some room.
    expect(br).toBeLessThanOrEqual(170 * 1024);
    expect(gz).toBeLessThanOrEqual(194 * 1024);
    const entry = initial[0] ?? '';
    const res = await fetch(`${server.url}/${entry}`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(Number(res.headers.get('content-length'))).toBe(sizeOf(entry, '.br'));
  });

  it('logs the admin in and reads the current user', async () => {
    const token = await login('admin');
    const res = await me(token);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(1);
    expect((res.body.data as { login: string }).login).toBe('admin');
  });

  it('a second login of the same account ends the first session with 401 and loginresult -2', async () => {
    const first = await login('admin');
    expect((await me(first)).body.code).toBe(1);
    const second = await login('admin');
    const old = await me(first);
    expect(old.status).toBe(401);
    expect(old.loginResult).toBe(LOGIN_ELSEWHERE);
    expect((await me(second)).body.code).toBe(1);
  });

  it('shuts down on SIGTERM with code 0, and a restart on the same folder keeps the data without seeding again', async () => {
    const dataDir = server.dataDir;
    // A request under way when the signal comes: its head is in, its body still arriving.
    const body = JSON.stringify({ username: 'nobody', password: 'not-the-password' });
    const inFlight = net.connect(server.port, '127.0.0.1');
    let inFlightAnswer = '';
    inFlight.setEncoding('utf8').on('data', (d: string) => (inFlightAnswer += d));
    const answered = new Promise<void>((resolve) => inFlight.on('close', () => resolve()));
    inFlight.write(
      `POST /busline/api/authenticate HTTP/1.1\r\nHost: console\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((r) => setTimeout(r, 300));

    const stopping = server.stop({ target: 'server', timeoutMs: 10_000 });
    await new Promise((r) => setTimeout(r, 300));
    // A late request on a new connection is answered, in the envelope, not refused or reset.
    const late = await fetch(`${server.url}/busline/api/account`);
    expect(late.status).toBe(503);
    expect(await late.json()).toEqual({ code: 503, msg: '服务器维护中', data: null });
    expect(late.headers.get('connection')).toBe('close');
    // The request under way still gets its real answer.
    inFlight.write(body.slice(10));
    await answered;
    expect(inFlightAnswer).toMatch(/^HTTP\/1\.1 200/);
    expect(inFlightAnswer).toContain('"code":0');

    const stopped = await stopping;
    expect(stopped.killed).toBe(false);
    expect(stopped.code).toBe(0);
    expect(stopped.ms).toBeLessThan(10_000);
    expect(server.stdout()).toContain('SIGTERM: draining connections');
    console.log(`[e2e] SIGTERM to exit: ${Math.round(stopped.ms)} ms`);

    const built = fs.statSync(path.join(STATIC_DIR, 'index.html')).mtimeMs;
    server = await startServer({ dataDir, env: ownConsole });
    checkBudget('restart on the same folder to ready', server.readyMs, BUDGET.restartMs, CEILING.restartMs);
    // The sources did not change: the restart served the same build instead of making another.
    expect(fs.statSync(path.join(STATIC_DIR, 'index.html')).mtimeMs).toBe(built);
    const out = server.stdout();
    expect(out).toContain(`PGlite ${dataDir}`);
    expect(out).not.toContain(SEEDED_NOTE);
    if (page) await page.goto(`${server.url}/`);
    const token = await login('admin');
    expect((await me(token)).body.code).toBe(1);

    // Ctrl-C or a supervisor signals the whole group: nothing may be left behind.
    const all = await server.stop({ target: 'group', timeoutMs: 10_000 });
    expect(all.killed).toBe(false);
  }, 170_000);
});
