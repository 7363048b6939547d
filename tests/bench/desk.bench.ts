import { asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import * as t from '../../src/server/db/schema';
import { DEMO_PASSWORD } from '../../src/server/db/seed/context';
import { type Client, type Measurement, expectOk, measure, percentile } from './lib';
import type { BenchServer } from './server';
import { settled, trackRequests, watchPaint } from '../support/e2e-console';
import { hasChromium, launchChromium } from '../support/e2e';
import { createClient } from './lib';
import { login } from './login.bench';
import { startBenchServer } from './server';

/**
 * The call-centre desk's lookups (issue 11) against the demo city's 200,000 cards and 50,000 riders:
 * the palette's `card/lookup` by card number and by phone (blind index), and `card/view`, the one
 * answer the card view paints from. Numbers are drawn over the whole city, so the super user asks.
 */

const LOOKUP = '/buscodepc/fyapi/card/lookup';
const VIEW = '/buscodepc/fyapi/card/view';

export interface DeskFigures {
  kind: string;
  cards: number;
  rows: Measurement[];
}

export async function benchDesk(client: Client, token: string, server: BenchServer, opts: { total: number; concurrency: number; warmup: number }): Promise<DeskFigures> {
  const [{ n: cards }] = (await server.db.select({ n: sql<number>`count(*)::int` }).from(t.busCards)) as [{ n: number }];
  // Every 97th card and every 23rd rider: spread over districts, categories and the index.
  const numbers = (await server.db.select({ no: t.busCards.cardNo }).from(t.busCards).where(sql`${t.busCards.id} % 97 = 0`).orderBy(asc(t.busCards.id))).map((r) => r.no);
  const phones = (await server.db.select({ enc: t.riders.phoneEnc }).from(t.riders).where(sql`${t.riders.id} % 23 = 0`).orderBy(asc(t.riders.id))).map((r) => server.pii.decrypt(r.enc));
  const held = (await server.db.select({ no: t.busCards.cardNo }).from(t.busCards).where(isNotNull(t.busCards.riderId)).orderBy(asc(t.busCards.id)).limit(2_000)).map((r) => r.no);
  const pick = <T>(xs: T[], i: number) => xs[i % xs.length]!;
  let i = 0;
  const post = (path: string, body: unknown, what: string) => async () => {
    const data = expectOk(await client.request('POST', path, { token, json: body }), what) as { cards?: unknown[]; riders?: unknown[]; card?: unknown };
    // A lookup finds the card, or the rider (who may hold no card); the view shows its card.
    const found = data.card ?? (data.cards?.length || data.riders?.length);
    if (!found) throw new Error(`${what}: found nothing`);
  };
  const rows = [
    await measure('card/lookup by card number', opts, () => post(LOOKUP, { q: pick(numbers, i++) }, 'lookup by number')()),
    await measure('card/lookup by phone (blind index)', opts, () => post(LOOKUP, { q: pick(phones, i++) }, 'lookup by phone')()),
    await measure('card/view (card, holder, bindings, orders)', opts, () => post(VIEW, { cardNo: pick(held, i++) }, 'card view')()),
  ];
  return { kind: server.kind, cards, rows };
}

export function deskTable(figures: DeskFigures[]): string[] {
  const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
  return [
    '| database | call | n | concurrency | p50 ms | p99 ms |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
    ...figures.flatMap((f) => f.rows.map((m) => `| ${f.kind} (${f.cards.toLocaleString('en')} cards) | \`${m.name}\` | ${m.requests} | ${m.concurrency} | ${ms(percentile(m.latencies, 50))} | ${ms(percentile(m.latencies, 99))} |`)),
  ];
}

/**
 * End to end in Chromium, as the agent does it: Ctrl+K on the console, a card number typed, Enter,
 * until 卡片详情 with that number is painted. The first run opens a cold palette (its chunk and
 * lists not loaded); the rest are warm. Timed in the page from the Enter's keydown to the first frame
 * showing the card (the part the agent waits for), and from Ctrl+K (typing 16 characters through the
 * DevTools protocol included).
 */
export async function benchDeskBrowser(browser: Browser, server: BenchServer, runs: number) {
  const [xuhui] = await server.db.select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
  const numbers = (await server.db.select({ no: t.busCards.cardNo }).from(t.busCards).where(eq(t.busCards.districtId, xuhui!.id)).orderBy(asc(t.busCards.id)).limit(runs)).map((r) => r.no);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  const page = await context.newPage();
  trackRequests(page);
  try {
    await page.goto(`${server.url}/login`);
    await page.getByLabel('用户名').fill('agent');
    await page.getByLabel('密码', { exact: true }).fill(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: '主菜单' }).waitFor({ timeout: 30_000 });
    await settled(page);
    const afterEnter: number[] = [];
    const fromCtrlK: number[] = [];
    for (const [n, no] of numbers.entries()) {
      const t0 = performance.now();
      await page.keyboard.press('Control+k');
      await page.getByRole('dialog', { name: '命令面板' }).waitFor({ timeout: 10_000 });
      await page.keyboard.type(no);
      // On the page's own clock: Playwright's polling would add up to half a second.
      const paint = watchPaint(page, `卡片详情 · ${no}`);
      await paint.armed;
      const t1 = performance.now();
      await page.keyboard.press('Enter');
      await page.getByText(`卡片详情 · ${no}`).waitFor({ timeout: 10_000 });
      const enter = await paint.result();
      const ctrlK = t1 - t0 + enter;
      if (n > 0) afterEnter.push(enter), fromCtrlK.push(ctrlK);
      else afterEnter.unshift(enter), fromCtrlK.unshift(ctrlK);
    }
    const cold = { enter: afterEnter[0]!, ctrlK: fromCtrlK[0]! };
    const warmEnter = afterEnter.slice(1).sort((a, b) => a - b);
    const warmCtrlK = fromCtrlK.slice(1).sort((a, b) => a - b);
    return { runs: numbers.length, cold, warm: { enterP50: percentile(warmEnter, 50), enterP99: percentile(warmEnter, 99), ctrlKP50: percentile(warmCtrlK, 50), ctrlKP99: percentile(warmCtrlK, 99) } };
  } finally {
    await context.close();
  }
}

/** PostgreSQL for the desk's lookups a second time (a fresh database is made on it): BENCH_DATABASE_URL, else DATABASE_URL. */
const POSTGRES = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || undefined;

/**
 * The desk's part of the bench, as README lines: lookups on the given (PGlite) server, the browser
 * flow against it when Chromium is there, and the lookups again on PostgreSQL when one is given.
 */
export async function deskSection(server: BenchServer, client: Client, adminToken: string, opts: { total: number; concurrency: number; warmup: number }, log: (msg: string) => void): Promise<string[]> {
  const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
  log("bench: the desk's lookups (PGlite)...");
  const desk = [await benchDesk(client, adminToken, server, opts)];
  let browserRuns: Awaited<ReturnType<typeof benchDeskBrowser>> | null = null;
  if (hasChromium) {
    log('bench: Ctrl+K → 卡片详情 in Chromium, 21 runs...');
    const browser = await launchChromium();
    try {
      browserRuns = await benchDeskBrowser(browser, server, 21);
    } finally {
      await browser.close();
    }
  }
  if (POSTGRES) {
    log("bench: the desk's lookups on PostgreSQL (a fresh database, the demo city seeded)...");
    const pgServer = await startBenchServer({ postgresUrl: POSTGRES });
    const pgClient = createClient(pgServer.url, opts.concurrency);
    try {
      desk.push(await benchDesk(pgClient, await login(pgClient, 'admin'), pgServer, opts));
    } finally {
      pgClient.close();
      await pgServer.close();
    }
  }
  return [
    'The desk (issue 11): lookups over the whole city as the super user;' + (POSTGRES ? ' PostgreSQL on the same machine, a fresh database with the same demo city.' : ' no PostgreSQL given (BENCH_DATABASE_URL or DATABASE_URL).'),
    '',
    ...deskTable(desk),
    '',
    ...(browserRuns
      ? [
          `Ctrl+K → card number → Enter → 卡片详情 painted, in headless Chromium as the agent (${browserRuns.runs} runs, timed in the page): cold palette ${ms(browserRuns.cold.enter)} ms after Enter (${ms(browserRuns.cold.ctrlK)} ms from Ctrl+K); warm p50 ${ms(browserRuns.warm.enterP50)} / p99 ${ms(browserRuns.warm.enterP99)} ms after Enter, p50 ${ms(browserRuns.warm.ctrlKP50)} / p99 ${ms(browserRuns.warm.ctrlKP99)} ms from Ctrl+K (typing 16 digits through the DevTools protocol included).`,
          '',
        ]
      : []),
  ];
}
