/**
 * `npm run bench:desk`: the desk's part of `npm run bench` alone (card lookups on PGlite and, with
 * BENCH_DATABASE_URL or DATABASE_URL, PostgreSQL; Ctrl+K → 卡片详情 in Chromium), for a quick run
 * while working on the desk. Builds the console first when dist/ is missing.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, hasChromium } from '../support/e2e';
import { deskSection } from './desk.bench';
import { createClient } from './lib';
import { login } from './login.bench';
import { startBenchServer } from './server';

const DIST = path.join(ROOT, 'dist');
const READS = { total: 2000, concurrency: 8, warmup: 200 };

async function main() {
  if (hasChromium && !fs.existsSync(path.join(DIST, 'index.html'))) execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  process.stderr.write('bench: starting the server (migrations, demo city)...\n');
  const server = await startBenchServer({ staticDir: DIST });
  const client = createClient(server.url, READS.concurrency);
  try {
    const lines = await deskSection(server, client, await login(client, 'admin'), READS, (msg) => process.stderr.write(`${msg}\n`));
    console.log(['', `Command: \`npm run bench:desk\` — Node ${process.version}.`, '', ...lines].join('\n'));
  } finally {
    client.close();
    await server.close();
  }
}

main().catch((err: unknown) => {
  console.error('bench failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
