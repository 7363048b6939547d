/**
 * `npx tsx tests/bench/classes-run.ts`: 批量排班's part of `npm run bench` alone, on a PGlite demo
 * city (or, with BENCH_DATABASE_URL, a fresh PostgreSQL database).
 */
import { classesSection } from './classes.bench';
import { startBenchServer } from './server';

async function main() {
  const log = (msg: string) => process.stderr.write(`${msg}\n`);
  log('bench: starting the server (migrations, demo city)...');
  const server = await startBenchServer({ postgresUrl: process.env.BENCH_DATABASE_URL || undefined });
  try {
    const lines = await classesSection(server, log);
    console.log(['', `Command: \`npx tsx tests/bench/classes-run.ts\` — Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`, '', ...lines].join('\n'));
  } finally {
    await server.close();
  }
}

main().catch((err: unknown) => {
  console.error('bench failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
