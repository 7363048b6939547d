/**
 * `npm run bench:rides`: the rides' part of `npm run bench` alone. PGlite with BENCH_RIDES_PGLITE
 * records (default 1,000,000; 0 skips it) and, with BENCH_DATABASE_URL or DATABASE_URL, a fresh
 * PostgreSQL database with BENCH_RIDES records (default 10,000,000).
 */
import { RIDE_READS, RIDE_VOLUMES, ridesSection } from './rides.bench';
import { startBenchServer } from './server';

async function main() {
  const log = (msg: string) => process.stderr.write(`${msg}\n`);
  if (RIDE_VOLUMES.pglite > 0) log('bench: starting the server (PGlite, migrations, demo city)...');
  const pglite = RIDE_VOLUMES.pglite > 0 ? await startBenchServer() : null;
  try {
    const lines = await ridesSection(pglite, RIDE_READS, log);
    console.log(['', `Command: \`npm run bench:rides\` — Node ${process.version}.`, '', ...lines].join('\n'));
  } finally {
    await pglite?.close();
  }
}

main().catch((err: unknown) => {
  console.error('bench failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
