/**
 * `npm run bench:custom`: 定制汇总 over a year of classes alone (a PGlite demo city, or a fresh
 * PostgreSQL database with BENCH_DATABASE_URL).
 */
import { CUSTOM_READS, customSection } from './custom.bench';
import { startBenchServer } from './server';

async function main() {
  const log = (msg: string) => process.stderr.write(`${msg}\n`);
  log('bench: starting the server (demo city)...');
  const server = await startBenchServer({ postgresUrl: process.env.BENCH_DATABASE_URL });
  try {
    const lines = await customSection(server, CUSTOM_READS, log);
    console.log(['', `Command: \`npm run bench:custom\` — Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`, '', ...lines].join('\n'));
  } finally {
    await server.close();
  }
}

main().catch((err: unknown) => {
  console.error('bench failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
