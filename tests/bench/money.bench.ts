import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import * as packagePay from '../../src/shared/api/package-pay';
import * as recharge from '../../src/shared/api/recharge';
import * as wallet from '../../src/shared/api/wallet';
import { loadConfig, systemClock } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/connection';
import { type LargeWalletsResult, largeWalletDefaults, loadLargeWallets } from '../../src/server/modules/rechargeable/seed-large';
import { nightlyReconcile, reconcileWallets } from '../../src/server/modules/rechargeable/reconcile';
import { type Client, type Measurement, createClient, expectOk, measure, percentile } from './lib';
import { login } from './login.bench';
import { CURRENT_USER } from './read.bench';
import { type BenchServer, startBenchServer } from './server';

/**
 * The money modules of issue 22 at the desk's levels and at benchmark volume:
 * - the lists of 储值管理, NFC充值 and 套餐购买 on the demo city (15,000 wallets, their orders; the
 *   NFC orders with their 可疑 queue; the package orders and daily summary), as the super user;
 * - on PostgreSQL, after the large profile's wallets (`npm run seed -- --profile large`: 1,000,000
 *   wallets, 10,000,000 ledger rows, loaded by the same module): a wallet's 钱包流水 page (bound: p99
 *   ≤ 50 ms), the wallet lists again, and ★ 每日轧账 over every wallet (bound: ≤ 60 s, within the
 *   server's 200 MB of RSS), the job as it runs at night, then `GET wallet/reconcile`, then three
 *   wallets broken on purpose, which it must find (what tests/server/rechargeable-reconcile-bench
 *   measured, moved here: a timed check is no unit test).
 */

type Opts = { total: number; concurrency: number; warmup: number };
/** A few hundred calls per row, four at a time (as the rides). */
export const MONEY_READS: Opts = { total: 400, concurrency: 4, warmup: 40 };

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const query = (q: Record<string, string | number | undefined>) =>
  new URLSearchParams(Object.entries(q).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))).toString();
const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
const fmt = (n: number) => n.toLocaleString('en');
const MB = 2 ** 20;

export interface MoneyFigures {
  kind: string;
  /** What the rows ran on: "demo city", "1,000,000 wallets". */
  volume: string;
  rows: Measurement[];
}

function caller(client: Client, token: string) {
  const get = async (path: string, q: Record<string, string | number | undefined>, what: string) => expectOk(await client.request('GET', `${path}?${query(q)}`, { token }), what);
  const post = async (path: string, body: unknown, what: string) => expectOk(await client.request('POST', path, { token, json: body }), what);
  return { get, post };
}

const nonEmpty = (data: unknown, what: string) => {
  const d = data as { content?: unknown[] };
  if (!d.content?.length) throw new Error(`${what}: nothing found`);
  return d;
};

/** Riders with a wallet whose phone is a real one (not the large profile's synthetic riders): phones to look up. */
async function walletPhones(server: BenchServer, n: number) {
  const rows = rowsOf<{ phone_enc: string }>(
    await server.db.execute(sql`select r.phone_enc from wallets w join riders r on r.id = w.rider_id where r.phone_idx not like 'large-%' and w.id % 37 = 0 order by w.id limit ${n}`),
  );
  return rows.map((r) => server.pii.decrypt(r.phone_enc));
}

/** The lists of the three modules, as their screens first open them (page 0, 20 rows) and with the filters named in the issue. */
export async function benchMoneyLists(client: Client, token: string, server: BenchServer, volume: string, opts: Opts, only: 'all' | 'wallet' = 'all'): Promise<MoneyFigures> {
  const { get, post } = caller(client, token);
  const phones = await walletPhones(server, 500);
  const wallets = rowsOf<{ id: number }>(await server.db.execute(sql`select id from wallets where version > 0 and id % 13 = 0 order by id limit 2000`)).map((r) => r.id);
  if (!phones.length || !wallets.length) throw new Error('money bench: no wallets');
  const pick = <T>(xs: T[], i: number) => xs[i % xs.length]!;
  let i = 0;
  const page = { page: 0, size: 20 };
  const rows = [
    await measure('walletOrder.page (储值订单)', opts, async () => void nonEmpty(await get(wallet.orderPage.path, page, '储值订单'), '储值订单')),
    await measure('walletOrder.total', opts, async () => void (await get(wallet.orderTotal.path, {}, '储值订单合计'))),
    await measure('wallet.page (用户钱包)', opts, async () => void nonEmpty(await get(wallet.walletPage.path, page, '用户钱包'), '用户钱包')),
    await measure('wallet.page by phone (blind index, POST body)', opts, async () => {
      const d = nonEmpty(await post(wallet.walletPageByBody.path, { ...page, phone: pick(phones, i++) }, '用户钱包 by phone'), '用户钱包 by phone');
      if (d.content!.length !== 1) throw new Error('用户钱包 by phone: not one wallet');
    }),
    await measure("wallet.ledgerPage (a wallet's 钱包流水)", opts, async () => void nonEmpty(await get(wallet.ledgerPage.path, { ...page, walletId: pick(wallets, i++) }, '钱包流水'), '钱包流水')),
  ];
  if (only === 'all') {
    rows.push(
      await measure('recharge.page (NFC充值记录)', opts, async () => void nonEmpty(await get(recharge.rechargePage.path, page, 'NFC充值记录'), 'NFC充值记录')),
      await measure('recharge.page 可疑 (writeState=4)', opts, async () => void nonEmpty(await get(recharge.rechargePage.path, { ...page, writeState: 4 }, '可疑'), '可疑')),
      await measure('recharge.total', opts, async () => void (await get(recharge.rechargeTotal.path, {}, 'NFC充值统计'))),
      await measure('packageOrder.page (套餐订单)', opts, async () => void nonEmpty(await get(packagePay.packageOrderPage.path, page, '套餐订单'), '套餐订单')),
      await measure('packageOrder.total', opts, async () => void (await get(packagePay.packageOrderTotal.path, {}, '套餐订单合计'))),
      await measure('packageSummary.page (套餐汇总, 30 days)', opts, async () => void nonEmpty(await get(packagePay.packageSummaryPage.path, page, '套餐汇总'), '套餐汇总')),
      await measure('packageSummary.health (体检)', opts, async () => void (await get(packagePay.packageSummaryHealth.path, {}, '体检'))),
    );
  }
  return { kind: server.kind, volume, rows };
}

/** 钱包流水 at volume: the heavy riders' wallets (thousands of rows each) and wallets drawn over the whole table. */
export async function benchLedger(client: Client, token: string, server: BenchServer, load: LargeWalletsResult, opts: Opts): Promise<MoneyFigures> {
  const { get } = caller(client, token);
  const heavy = rowsOf<{ id: number }>(await server.db.execute(sql`select id from wallets where version >= 1000 order by id`)).map((r) => r.id);
  const any = rowsOf<{ id: number }>(await server.db.execute(sql`select id from wallets where id % 997 = 1 order by id`)).map((r) => r.id);
  if (!heavy.length || !any.length) throw new Error('ledger bench: no wallets');
  const pick = <T>(xs: T[], i: number) => xs[i % xs.length]!;
  let i = 0;
  const ledger = (ids: number[], q: Record<string, number>, what: string) => async () => void nonEmpty(await get(wallet.ledgerPage.path, { page: 0, size: 20, ...q, walletId: pick(ids, i++) }, what), what);
  const rows = [
    // The same run's floor: an answer without the ledger (the session check, the envelope, loopback).
    await measure('GET /busline/api/user/query/msg (baseline)', opts, async () => void expectOk(await client.request('GET', CURRENT_USER, { token }), 'baseline')),
    await measure(`wallet.ledgerPage: any wallet, first page`, opts, ledger(any, {}, 'ledger any')),
    await measure(`wallet.ledgerPage: a heavy wallet (~${fmt(load.heavyRows)} rows), first page`, opts, ledger(heavy, {}, 'ledger heavy')),
    await measure('wallet.ledgerPage: a heavy wallet, page 50', opts, ledger(heavy, { page: 50 }, 'ledger heavy deep')),
    await measure('wallet.ledgerPage: a heavy wallet, 消费 only (type=3)', opts, ledger(heavy, { type: 3 }, 'ledger heavy rides')),
  ];
  return { kind: server.kind, volume: `${fmt(load.wallets)} wallets, ${fmt(load.ledger)} ledger rows`, rows };
}

export interface ReconcileFigures {
  kind: string;
  wallets: number;
  ledger: number;
  /** The nightly job (wallet.reconcile), once: ms, broken found, RSS before and peak (MB). */
  nightly: { ms: number; broken: number; rssBefore: number; rssPeak: number };
  /** GET wallet/reconcile (the proofs and the 30-day liability board) as the super user. */
  http: number[];
  httpRssPeak: number;
  /** Three wallets broken on purpose: found, and the two forged rows pointed at. */
  broken: { ms: number; found: number; pointed: boolean };
}

/** Samples this process's RSS every 20 ms while `fn` runs: its peak, in MB. */
async function peakRss<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; before: number; peak: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  const t0 = performance.now();
  try {
    const value = await fn();
    const ms = performance.now() - t0;
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, ms, before: before / MB, peak: peak / MB };
  } finally {
    clearInterval(timer);
  }
}

export async function benchReconcile(client: Client, token: string, server: BenchServer, load: LargeWalletsResult, log: (msg: string) => void): Promise<ReconcileFigures> {
  const db = server.db;
  const { get } = caller(client, token);
  // The job claims its day once; the server's own timer may have run it on the demo city already.
  await db.execute(sql`delete from wallet_reconcile_runs`);
  log('bench: ★ 每日轧账, the nightly job over every wallet...');
  const nightly = await peakRss(() => nightlyReconcile({ db, pii: server.pii, clock: systemClock }));
  if (!nightly.value) throw new Error('nightly reconcile: the day was claimed already');
  if (nightly.value.broken !== 0) throw new Error(`nightly reconcile: ${nightly.value.broken} wallets broken on a consistent load`);
  log(`bench: ★ 每日轧账 ${ms(nightly.ms)} ms; GET wallet/reconcile x3...`);
  const http: number[] = [];
  let httpRssPeak = 0;
  for (let n = 0; n < 3; n++) {
    const r = await peakRss(() => get(wallet.reconcile.path, { days: 30 }, 'wallet/reconcile'));
    const d = r.value as { wallets: number; broken: unknown[] };
    if (d.wallets < load.wallets || d.broken.length) throw new Error(`wallet/reconcile: ${d.wallets} wallets, ${d.broken.length} broken`);
    http.push(r.ms);
    httpRssPeak = Math.max(httpRssPeak, r.peak);
  }
  // Two forged rows (their after-values do not follow the sums) and one wallet changed past its ledger.
  const ids = rowsOf<{ id: number }>(await db.execute(sql`select id from wallets order by id desc limit 3`)).map((r) => r.id);
  await db.execute(sql`insert into wallet_ledger (wallet_id, district_id, type, principal_delta, gift_delta, principal_after, gift_after, ref_kind, ref_id, created_at)
    select id, district_id, 5, 100, 0, 1, 1, 'adjust', 'forged-' || id, now() from wallets where id in (${ids[0]}, ${ids[1]})`);
  await db.execute(sql`update wallets set principal = principal + 1 where id = ${ids[2]}`);
  log('bench: ★ 每日轧账 with three wallets broken on purpose...');
  const t0 = performance.now();
  const r = await reconcileWallets({ db, pii: server.pii }, null);
  const brokenMs = performance.now() - t0;
  const pointed = r.broken.filter((b) => b.firstBadLedgerId !== null).map((b) => b.walletId).sort().join() === [ids[0], ids[1]].sort().join();
  if (r.brokenCount !== 3 || !pointed) throw new Error(`reconcile: ${r.brokenCount} broken found, forged rows pointed at: ${pointed}`);
  return {
    kind: server.kind,
    wallets: load.wallets,
    ledger: load.ledger,
    nightly: { ms: nightly.ms, broken: nightly.value.broken, rssBefore: nightly.before, rssPeak: nightly.peak },
    http,
    httpRssPeak,
    broken: { ms: brokenMs, found: r.brokenCount, pointed },
  };
}

export function moneyTable(figures: MoneyFigures[]): string[] {
  return [
    '| database | volume | call | n | concurrency | p50 ms | p99 ms |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: |',
    ...figures.flatMap((f) => f.rows.map((m) => `| ${f.kind} | ${f.volume} | \`${m.name}\` | ${m.requests} | ${m.concurrency} | ${ms(percentile(m.latencies, 50))} | ${ms(percentile(m.latencies, 99))} |`)),
  ];
}

export function reconcileTable(figures: ReconcileFigures[]): string[] {
  const s = (v: number) => (v / 1000).toFixed(1);
  return [
    '| database | wallets | ledger rows | run | time (s) | RSS before → peak (MB) |',
    '| --- | ---: | ---: | --- | ---: | ---: |',
    ...figures.flatMap((f) => [
      `| ${f.kind} | ${fmt(f.wallets)} | ${fmt(f.ledger)} | nightly job \`wallet.reconcile\` (${f.nightly.broken} broken) | ${s(f.nightly.ms)} | ${f.nightly.rssBefore.toFixed(0)} → ${f.nightly.rssPeak.toFixed(0)} |`,
      `| ${f.kind} | ${fmt(f.wallets)} | ${fmt(f.ledger)} | \`GET wallet/reconcile\` + 30-day board, ${f.http.length} runs | ${f.http.map(s).join(' / ')} | peak ${f.httpRssPeak.toFixed(0)} |`,
      `| ${f.kind} | ${fmt(f.wallets)} | ${fmt(f.ledger)} | 3 wallets broken on purpose: ${f.broken.found} found, forged rows pointed at: ${f.broken.pointed ? 'yes' : 'no'} | ${s(f.broken.ms)} | |`,
    ]),
  ];
}

/** PostgreSQL for the large volume (a fresh database on it): BENCH_DATABASE_URL, else DATABASE_URL. */
const POSTGRES = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || undefined;
const volume = (name: string, fallback: number) => {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number of wallets`);
  return n;
};
/** Wallets on PostgreSQL (BENCH_WALLETS, ten ledger rows each; 0 skips the large part). */
export const WALLET_VOLUMES = { postgres: volume('BENCH_WALLETS', 1_000_000) };

/**
 * The money modules' part of the bench, as README lines: their lists on the given (PGlite, demo)
 * server when there is one; on a fresh PostgreSQL database when one is given, the same lists on its
 * demo city, then the large wallets loaded and the ledger, the wallet lists and ★ 每日轧账 on them.
 */
export async function moneySection(pglite: BenchServer | null, opts: Opts, log: (msg: string) => void): Promise<string[]> {
  const figures: MoneyFigures[] = [];
  const reconciles: ReconcileFigures[] = [];
  let load: LargeWalletsResult | null = null;
  if (pglite) {
    log('bench: the money lists (PGlite, demo city)...');
    const client = createClient(pglite.url, opts.concurrency);
    try {
      figures.push(await benchMoneyLists(client, await login(client, 'admin'), pglite, 'demo city', opts));
    } finally {
      client.close();
    }
  }
  if (POSTGRES) {
    log('bench: a fresh PostgreSQL database with the demo city...');
    const pg = await startBenchServer({ postgresUrl: POSTGRES });
    try {
      let client = createClient(pg.url, opts.concurrency);
      log('bench: the money lists (PostgreSQL, demo city)...');
      figures.push(await benchMoneyLists(client, await login(client, 'admin'), pg, 'demo city', opts));
      client.close();
      if (WALLET_VOLUMES.postgres > 0) {
        const v = largeWalletDefaults('postgres', WALLET_VOLUMES.postgres);
        log(`bench: loading ${fmt(v.wallets)} wallets, ${fmt(v.ledger)} ledger rows into PostgreSQL...`);
        // On a connection of its own: the server pool's 30 s query timeout would stop the ledger's insert.
        const loader = await openDatabase({ databaseUrl: pg.databaseUrl!, queryTimeoutMs: 0 });
        try {
          load = await loadLargeWallets(loader.db, { ...v, seed: loadConfig({}).seed, now: new Date(), log });
        } finally {
          await loader.close();
        }
        // A socket idle through the load may be closed under the first request: a fresh client.
        client = createClient(pg.url, opts.concurrency);
        const token = await login(client, 'admin');
        try {
          log('bench: 钱包流水 at volume...');
          figures.push(await benchLedger(client, token, pg, load, opts));
          log('bench: the wallet lists at volume...');
          figures.push(await benchMoneyLists(client, token, pg, `${fmt(load.wallets)} wallets, ${fmt(load.ledger)} ledger rows`, opts, 'wallet'));
          reconciles.push(await benchReconcile(client, token, pg, load, log));
        } finally {
          client.close();
        }
      }
    } finally {
      await pg.close();
    }
  }
  return [
    'Money (issue 22): 储值管理, NFC充值 and 套餐购买 as the super user over all districts; lists as their screens open them (page 0, 20 rows).' +
      (POSTGRES ? ' PostgreSQL on the same machine, a fresh database.' : ' No PostgreSQL given (BENCH_DATABASE_URL or DATABASE_URL).'),
    '',
    ...(load
      ? [
          `PostgreSQL large volume: ${fmt(load.wallets)} wallets (${fmt(load.ridersAdded)} synthetic riders added), ${fmt(load.ledger)} ledger rows, ${fmt(load.orders)} paid orders, the busiest wallets ~${fmt(load.heavyRows)} rows each; loaded in ${(load.ms / 1000).toFixed(1)} s.`,
          '',
        ]
      : []),
    ...moneyTable(figures),
    '',
    ...(reconciles.length ? ['★ 每日轧账 (bound: ≤ 60 s over 1,000,000 wallets; RSS of this process, server and client together, sampled every 20 ms):', '', ...reconcileTable(reconciles), ''] : []),
  ];
}
