/**
 * `npx tsx tests/bench/custom-seats-run.ts`: 定制公交's seat race on a fresh PostgreSQL database
 * (BENCH_DATABASE_URL or DATABASE_URL): buys a second through the guarded stock update, and 200
 * buyers for the last 10 seats.
 */
import { benchSeats, seatsTable } from './custom-seats.bench';

async function main() {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url) throw new Error('set BENCH_DATABASE_URL or DATABASE_URL to a PostgreSQL server');
  const figures = await benchSeats(url, (msg) => process.stderr.write(`${msg}\n`));
  console.log(['', `Command: \`npx tsx tests/bench/custom-seats-run.ts\` — Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`, '', ...seatsTable(figures)].join('\n'));
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error('bench failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
