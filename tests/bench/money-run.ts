/**
 * `npm run bench:money`: the money modules' part of `npm run bench` alone (issue 22). Their lists on
 * a PGlite demo city (BENCH_MONEY_PGLITE=0 skips it) and, with BENCH_DATABASE_URL or DATABASE_URL,
 * on a fresh PostgreSQL database: the lists on its demo city, then BENCH_WALLETS wallets (default
 * 1,000,000, ten ledger rows each) loaded, 钱包流水 and ★ 每日轧账 over them.
 */
import { MONEY_READS, moneySection } from './money.bench';
import { startBenchServer } from './server';

async function main() {
  const log = (msg: string) => process.stderr.write(`${msg}\n`);
  const withPglite = process.env.BENCH_MONEY_PGLITE !== '0';
  if (withPglite) log('bench: starting the server (PGlite, migrations, demo city)...');
  const pglite = withPglite ? await startBenchServer() : null;
  try {
    const lines = await moneySection(pglite, MONEY_READS, log);
    console.log(['', `Command: \`npm run bench:money\` — Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`, '', ...lines].join('\n'));
  } finally {
    await pglite?.close();
  }
}

main().catch((err: unknown) => {
  console.error('bench failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
