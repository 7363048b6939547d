/**
 * Seeds a database for the demo or for benchmarks:
 *   npm run seed                                  migrate + base data + the demo city (when empty)
 *   npm run seed -- --profile large [--rides N] [--wallets N]
 *                                                 the same, then benchmark volumes of rides and wallets
 *
 * Works on what the server would open: PostgreSQL with DATABASE_URL (PII_KEY required, as for the
 * server), else PGlite in DATA_DIR. The demo city is seeded here whatever SEED_DEMO says: the large
 * profile rides its lines and cards. `--profile large` REPLACES every ride record and daily total
 * (README decision 96), so it refuses a database without the demo accounts: it is for demo and
 * benchmark databases, never a real one. Defaults: 10,000,000 rides on PostgreSQL, 1,000,000 on
 * PGlite, over 365 days ending today. It REPLACES every wallet, wallet order, ledger row and
 * adjustment too (issue 22): 1,000,000 wallets with 10,000,000 ledger rows on PostgreSQL, 100,000
 * with 1,000,000 on PGlite (`--wallets N`: N wallets, ten ledger rows each; `--wallets 0` skips them).
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { inArray, sql } from 'drizzle-orm';
import { openAndPrepare } from './boot';
import { loadConfig, systemClock } from './config';
import * as t from './db/schema';
import { largeDefaults, loadLargeRides } from './modules/ride/seed-large';
import { largeWalletDefaults, loadLargeWallets } from './modules/rechargeable/seed-large';

const USAGE = '用法: npm run seed -- [--profile demo|large] [--rides N] [--days N] [--wallets N]';
const DEMO_LOGINS = ['manager', 'agent', 'viewer', 'expired'];

const { values } = parseArgs({ options: { profile: { type: 'string', default: 'demo' }, rides: { type: 'string' }, days: { type: 'string' }, wallets: { type: 'string' }, help: { type: 'boolean' } } });
const count = (name: string, raw: string | undefined, zero = false) => {
  if (raw === undefined) return undefined;
  const n = Number(raw.replaceAll('_', ''));
  if (!Number.isInteger(n) || n < (zero ? 0 : 1)) {
    console.error(`--${name} 应为正整数\n${USAGE}`);
    process.exit(2);
  }
  return n;
};
if (values.help || !['demo', 'large'].includes(values.profile!)) {
  (values.help ? console.log : console.error)(USAGE);
  process.exit(values.help ? 0 : 2);
}
const rides = count('rides', values.rides);
const days = count('days', values.days);
const walletCount = count('wallets', values.wallets, true);

const started = performance.now();
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const config = loadConfig();
const log = (msg: string) => console.log(`[seed] ${msg}`);
console.log(`[seed] ${config.databaseUrl ? 'PostgreSQL' : `PGlite ${config.dataDir}`}: migrations, base data, the demo city when empty...`);
// The loads run for minutes: no per-query timeout for this command.
const { database, seededDemo } = await openAndPrepare({ ...config, seedDemo: true, databaseQueryTimeoutMs: 0 }, systemClock, (m, err) => console.error(`[seed] ${m}`, err ?? ''));
try {
  log(`${seededDemo ? 'demo city seeded' : 'migrated (the demo city was already there)'} in ${secs(performance.now() - started)}`);
  if (values.profile === 'large') {
    const db = database.db;
    const demo = await db.select({ login: t.users.login }).from(t.users).where(inArray(t.users.login, DEMO_LOGINS));
    if (demo.length < DEMO_LOGINS.length) {
      console.error('[seed] 拒绝：这不是演示数据库（没有演示账号）。--profile large 会替换全部乘车记录和储值钱包，只用于演示或基准测试库。');
      process.exitCode = 1;
    } else {
      const volume = { ...largeDefaults(database.kind, rides), ...(days ? { days } : {}) };
      if (database.kind === 'pglite' && !rides) log(`PGlite: ${volume.rides.toLocaleString('en')} rides (PostgreSQL loads ${largeDefaults('postgres').rides.toLocaleString('en')}; --rides N to choose)`);
      log('large profile: replaces every ride record and daily total');
      const result = await loadLargeRides(db, { ...volume, seed: config.seed, now: systemClock.now(), log });
      const counted = (await db.execute(
        sql`select (select count(*) from ride_records)::bigint as rides, (select count(*) from day_take_bus_totals)::bigint as totals, (select count(*) from only ride_records_default)::int as stray`,
      )) as unknown as { rows: { rides: string; totals: string; stray: number }[] };
      const n = counted.rows[0];
      log(
        `done: ${Number(n?.rides).toLocaleString('en')} ride records (${result.months} ${result.months === 1 ? 'month' : 'months'}, ${result.firstDay} – ${result.lastDay}, ${n?.stray ?? 0} outside them), ` +
          `${Number(n?.totals).toLocaleString('en')} daily totals, ${result.cards.toLocaleString('en')} cards, ${result.buses} buses; rides in ${secs(result.ms)}, all in ${secs(performance.now() - started)}`,
      );
      if (walletCount !== 0) {
        const wv = largeWalletDefaults(database.kind, walletCount);
        log(`large profile: replaces every wallet, wallet order and ledger row (${wv.wallets.toLocaleString('en')} wallets, ${wv.ledger.toLocaleString('en')} ledger rows)`);
        const w = await loadLargeWallets(db, { ...wv, seed: config.seed, now: systemClock.now(), log });
        log(`done: ${w.wallets.toLocaleString('en')} wallets, ${w.ledger.toLocaleString('en')} ledger rows, ${w.orders.toLocaleString('en')} orders in ${secs(w.ms)}, all in ${secs(performance.now() - started)}`);
      }
    }
  } else {
    log(`done in ${secs(performance.now() - started)}`);
  }
} finally {
  await database.close();
}
