import { sql } from 'drizzle-orm';
import { ridership } from '../../src/shared/api';
import { loadConfig } from '../../src/server/config';
import { type LargeRidesResult, largeDefaults, loadLargeRides } from '../../src/server/modules/ride/seed-large';
import { type Client, type Measurement, createClient, expectOk, measure, percentile } from './lib';
import { login } from './login.bench';
import { CURRENT_USER } from './read.bench';
import { type BenchServer, startBenchServer } from './server';

/**
 * Rides at benchmark volume (issue 12): the large profile's records (`npm run seed -- --profile
 * large`, loaded by the same module into the bench server's database), then the calls the 乘车记录
 * and 每日客流 screens make, as the super user over all districts: a card's last 50 rides (the
 * desk's question, no time range), a line's 31 days (first page and summary), and the daily
 * ridership of a line and of all lines over 30 days. Windows move back a day per call over the
 * last two months, so the calls do not all read the same pages.
 */

export interface RidesFigures {
  kind: string;
  load: LargeRidesResult;
  /** Rides in a year of the cards asked for (min, max). */
  cardRides: [number, number];
  rows: Measurement[];
}

type Opts = { total: number; concurrency: number; warmup: number };
/** A few hundred calls per row, four at a time. */
export const RIDE_READS: Opts = { total: 400, concurrency: 4, warmup: 40 };

const DAY_MS = 86_400_000;
const SHANGHAI_MS = 8 * 3600_000;
const shanghaiDay = (at: number) => new Date(at + SHANGHAI_MS).toISOString().slice(0, 10);
const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const query = (q: Record<string, string | number | undefined>) =>
  new URLSearchParams(Object.entries(q).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))).toString();

/** Loads `rides` records into the bench server's database, replacing its demo rides. */
export function loadRides(server: BenchServer, rides: number, log: (msg: string) => void): Promise<LargeRidesResult> {
  const kind = server.kind === 'PostgreSQL' ? 'postgres' : 'pglite';
  return loadLargeRides(server.db, { ...largeDefaults(kind, rides), seed: loadConfig({}).seed, now: new Date(), log });
}

export async function benchRides(client: Client, token: string, server: BenchServer, load: LargeRidesResult, opts: Opts): Promise<RidesFigures> {
  const now = Date.now();
  // The busiest cards of the last month: the ones with the most rides to page through.
  const cards = rowsOf<{ card_no: string }>(
    await server.db.execute(sql`select card_no from ride_records where ride_at > ${new Date(now - 30 * DAY_MS).toISOString()} group by 1 order by count(*) desc, 1 limit 200`),
  ).map((r) => r.card_no);
  const lines = rowsOf<{ line_code: string }>(await server.db.execute(sql`select distinct line_code from day_take_bus_totals order by 1`)).map((r) => r.line_code);
  if (!cards.length || !lines.length) throw new Error('rides bench: no rides loaded');
  const pick = <T>(xs: T[], i: number) => xs[i % xs.length]!;
  let i = 0;
  const cardRides: number[] = [];
  const get = async (path: string, q: Record<string, string | number | undefined>, what: string) => expectOk(await client.request('GET', `${path}?${query(q)}`, { token }), what);
  // A 31-day window (the longest allowed), ending up to 59 days back; a 30-day one for daily ridership.
  const window = (n: number) => {
    const end = now - (n % 60) * DAY_MS;
    return { startTime: new Date(end - 31 * DAY_MS).toISOString(), endTime: new Date(end).toISOString() };
  };
  const days = (n: number) => {
    const end = now - (n % 60) * DAY_MS;
    return { startDate: shanghaiDay(end - 29 * DAY_MS), endDate: shanghaiDay(end) };
  };
  const nonEmpty = (data: unknown, what: string) => {
    const d = data as { content?: unknown[]; rides?: number };
    if (!(d.content?.length ?? d.rides)) throw new Error(`${what}: nothing found`);
    return d;
  };

  const rows = [
    // The same run's floor: an answer without rides (the session check, the envelope, loopback).
    await measure('GET /busline/api/user/query/msg (baseline)', opts, async () => {
      expectOk(await client.request('GET', CURRENT_USER, { token }), 'baseline');
    }),
    await measure("record.list: a card's last 50 rides", opts, async () => {
      const d = nonEmpty(await get(ridership.recordList.path, { cardNo: pick(cards, i++), page: 0, size: 50, sort: 'rideDate,desc' }, 'card rides'), 'card rides') as { totalElements: number };
      cardRides.push(d.totalElements);
    }),
    await measure("record.list: a line's 31 days, first page", opts, async () => {
      const n = i++;
      nonEmpty(await get(ridership.recordList.path, { lineCode: pick(lines, n), ...window(n), page: 0, size: 20 }, 'line records'), 'line records');
    }),
    await measure("record.summary: a line's 31 days", opts, async () => {
      const n = i++;
      nonEmpty(await get(ridership.recordSummary.path, { lineCode: pick(lines, n), ...window(n) }, 'line summary'), 'line summary');
    }),
    await measure("ridership.page: a line's 30 days", opts, async () => {
      const n = i++;
      nonEmpty(await get(ridership.ridershipPage.path, { lineCode: pick(lines, n), ...days(n), page: 0, size: 20 }, 'line ridership page'), 'line ridership page');
    }),
    await measure("ridership.total: a line's 30 days", opts, async () => {
      const n = i++;
      nonEmpty(await get(ridership.ridershipTotal.path, { lineCode: pick(lines, n), ...days(n) }, 'line ridership total'), 'line ridership total');
    }),
    await measure('ridership.page: all lines, 30 days', opts, async () => {
      nonEmpty(await get(ridership.ridershipPage.path, { ...days(i++), page: 0, size: 20 }, 'all ridership page'), 'all ridership page');
    }),
    await measure('ridership.total: all lines, 30 days', opts, async () => {
      nonEmpty(await get(ridership.ridershipTotal.path, days(i++), 'all ridership total'), 'all ridership total');
    }),
  ];
  return { kind: server.kind, load, cardRides: [Math.min(...cardRides), Math.max(...cardRides)], rows };
}

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
const fmt = (n: number) => n.toLocaleString('en');

export function ridesTable(figures: RidesFigures[]): string[] {
  return [
    '| database | call | n | concurrency | p50 ms | p99 ms |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
    ...figures.flatMap((f) => f.rows.map((m) => `| ${f.kind} (${fmt(f.load.rides)} rides) | \`${m.name}\` | ${m.requests} | ${m.concurrency} | ${ms(percentile(m.latencies, 50))} | ${ms(percentile(m.latencies, 99))} |`)),
  ];
}

const loadLine = (f: RidesFigures) =>
  `${f.kind}: ${fmt(f.load.rides)} ride records over ${f.load.months} month partitions (${f.load.firstDay} – ${f.load.lastDay}), ${fmt(f.load.totals)} daily totals, ${fmt(f.load.cards)} cards, ${f.load.buses} buses, loaded in ${(f.load.ms / 1000).toFixed(1)} s; the cards asked for hold ${f.cardRides[0]}–${f.cardRides[1]} rides.`;

/** PostgreSQL for the rides at full volume (a fresh database on it): BENCH_DATABASE_URL, else DATABASE_URL. */
const POSTGRES = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || undefined;
const volume = (name: string, fallback: number) => {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number of rides`);
  return n;
};
/** Records on PGlite (BENCH_RIDES_PGLITE, 0 skips it) and on PostgreSQL (BENCH_RIDES). */
export const RIDE_VOLUMES = { pglite: volume('BENCH_RIDES_PGLITE', 1_000_000), postgres: volume('BENCH_RIDES', 10_000_000) };

/** Loads the rides into a bench server, then measures them through a client of their own, logged in after the load. */
async function loadAndBench(server: BenchServer, rides: number, opts: Opts, log: (msg: string) => void): Promise<RidesFigures> {
  log(`bench: loading ${fmt(rides)} rides into ${server.kind}...`);
  const load = await loadRides(server, rides, log);
  // A socket left idle through the load (which blocks this process on PGlite) may be closed under
  // the first request: a fresh client. Its login ends the admin's earlier session.
  const client = createClient(server.url, opts.concurrency);
  try {
    log(`bench: the ride calls (${server.kind})...`);
    return await benchRides(client, await login(client, 'admin'), server, load, opts);
  } finally {
    client.close();
  }
}

/**
 * The rides' part of the bench, as README lines: on the given PGlite server (its demo rides replaced
 * by RIDE_VOLUMES.pglite records; the admin logged in anew) when there is one, then on a fresh
 * PostgreSQL database with RIDE_VOLUMES.postgres records when one is given.
 */
export async function ridesSection(pglite: BenchServer | null, opts: Opts, log: (msg: string) => void): Promise<string[]> {
  const figures: RidesFigures[] = [];
  if (pglite && RIDE_VOLUMES.pglite > 0) figures.push(await loadAndBench(pglite, RIDE_VOLUMES.pglite, opts, log));
  if (POSTGRES && RIDE_VOLUMES.postgres > 0) {
    log('bench: a fresh PostgreSQL database with the demo city...');
    const pgServer = await startBenchServer({ postgresUrl: POSTGRES });
    try {
      figures.push(await loadAndBench(pgServer, RIDE_VOLUMES.postgres, opts, log));
    } finally {
      await pgServer.close();
    }
  }
  return [
    'Rides (issue 12) at benchmark volume, as the super user over all districts; windows move back a day per call over the last two months.' +
      (POSTGRES ? ' PostgreSQL on the same machine, a fresh database.' : ' No PostgreSQL given (BENCH_DATABASE_URL or DATABASE_URL).'),
    '',
    ...figures.map(loadLine),
    '',
    ...ridesTable(figures),
    '',
  ];
}
