/**
 * `npm run bench`: latency and throughput of the reference server over loopback. A plain script,
 * not a test: it asserts nothing about time, it prints a table to paste into the README.
 *
 * The server runs in this process (buildApp on a fresh on-disk PGlite with the demo city), so the
 * client shares its event loop: the figures are for one Node process doing both.
 */
import os from 'node:os';
import { type Measurement, createClient, percentile } from './lib';
import { benchFlood, floodTable } from './flood.bench';
import { benchLogin, login } from './login.bench';
import { benchTiming, timingTable } from './timing.bench';
import { CURRENT_USER, STATION_PAGE, STATION_SEARCH, USER_PAGE, VERSION_PAGE, benchRead, checkUserPage } from './read.bench';
import { benchMerge, networkPaths } from './network.bench';
import { startBenchServer } from './server';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, hasChromium } from '../support/e2e';
import { deskSection } from './desk.bench';
import { RIDE_READS, ridesSection } from './rides.bench';
import { exportSection } from './export.bench';
import { MONEY_READS, moneySection } from './money.bench';
import { classesSection } from './classes.bench';
import { CUSTOM_READS, customSection } from './custom.bench';

const DIST = path.join(ROOT, 'dist');

const READS = { total: 2000, concurrency: 8, warmup: 200 };
const LOGINS = { total: 50, warmup: 3 };

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

function row(label: string, m: Measurement): string {
  const rps = (m.requests / m.wallMs) * 1000;
  return `| ${label} | ${m.requests} | ${m.concurrency} | ${ms(percentile(m.latencies, 50))} | ${ms(percentile(m.latencies, 95))} | ${ms(percentile(m.latencies, 99))} | ${rps.toFixed(0)} |`;
}

async function main() {
  // The browser row needs the built console, as `npm start` serves it.
  if (hasChromium && !fs.existsSync(path.join(DIST, 'index.html'))) {
    process.stderr.write('bench: building the console (vite build)...\n');
    execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  }
  process.stderr.write('bench: starting the server (migrations, demo city)...\n');
  const server = await startBenchServer({ staticDir: DIST });
  const client = createClient(server.url, READS.concurrency);
  try {
    const adminToken = await login(client, 'admin');
    const accounts = await checkUserPage(client, adminToken);

    process.stderr.write(`bench: ${CURRENT_USER} x${READS.total}...\n`);
    const me = await benchRead(client, adminToken, 'current user', CURRENT_USER, READS);
    process.stderr.write(`bench: ${USER_PAGE} x${READS.total}...\n`);
    const page = await benchRead(client, adminToken, 'user page', USER_PAGE, READS);
    const network = [];
    const lines = await networkPaths(server.db);
    for (const [name, path] of [
      ['station page', STATION_PAGE],
      ['station search', STATION_SEARCH],
      ['open version', VERSION_PAGE],
      ['line list', lines.lineList],
      [`line info (${lines.stops} stops)`, lines.lineInfo],
      ['version diff', lines.versionDiff],
    ] as const) {
      process.stderr.write(`bench: ${path} x${READS.total}...\n`);
      network.push({ path, m: await benchRead(client, adminToken, name, path, READS) });
    }
    process.stderr.write('bench: 5 merges of a station used by 30 lines...\n');
    const merge = await benchMerge(client, adminToken, server.db, 5);
    const deskLines = await deskSection(server, client, adminToken, READS, (msg) => process.stderr.write(`${msg}\n`));
    // The money modules' lists on this demo city (a client of their own), then their volume on PostgreSQL.
    const moneyLines = await moneySection(server, MONEY_READS, (msg) => process.stderr.write(`${msg}\n`));
    const classesLines = await classesSection(server, (msg) => process.stderr.write(`${msg}\n`));
    // 定制汇总 over a year of classes loaded into this demo city.
    const customLines = await customSection(server, CUSTOM_READS, (msg) => process.stderr.write(`${msg}\n`));
    process.stderr.write(`bench: ${LOGINS.total} logins...\n`);
    const logins = await benchLogin(client, 'manager', LOGINS);
    // Last of this server's reads: its demo rides are replaced by the benchmark volume, and the
    // admin logs in anew (ending adminToken's session).
    const rideLines = await ridesSection(server, RIDE_READS, (msg) => process.stderr.write(`${msg}\n`));

    // The flood runs its own servers in child processes; this one idles meanwhile. BENCH_READS_ONLY=1
    // stops after the table of reads (a quick run while working on a screen's queries).
    const readsOnly = process.env.BENCH_READS_ONLY === '1';
    const flood = readsOnly ? null : await benchFlood((msg) => process.stderr.write(`${msg}\n`));
    const timing = readsOnly ? null : await benchTiming((msg) => process.stderr.write(`${msg}\n`));
    // The 1M-row export also runs its servers in child processes (RSS is the server's alone).
    const exportLines = readsOnly ? [] : await exportSection((msg) => process.stderr.write(`${msg}\n`));

    const cpus = os.cpus();
    const out = [
      '',
      `Command: \`npm run bench\` — Node ${process.version}, ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${os.platform()} ${os.arch()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB.`,
      `Server and client in one process over loopback; PGlite on disk, demo city (${accounts} accounts); response checks ${server.checkResponses ? 'on (as `npm start` without NODE_ENV=production)' : 'off (NODE_ENV=production)'}.`,
      '',
      '| request | n | concurrency | p50 ms | p95 ms | p99 ms | req/s |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      row('`GET /busline/api/user/query/msg`', me),
      row('`GET /busline/api/user/query/page?page=0&size=20`', page),
      ...network.map((n) => row(`\`GET ${decodeURIComponent(n.path)}\``, n.m)),
      row('`POST /busline/api/authenticate` (scrypt)', logins),
      '',
      ...deskLines,
      `合并站点 of a station used by ${merge.lines} lines (each of 21 stops), ${merge.ms.length} runs: median ${ms(merge.ms[Math.floor(merge.ms.length / 2)]!)} ms, max ${ms(merge.ms.at(-1)!)} ms (one transaction: re-point, renumber, delete, audit).`,
      '',
      ...rideLines,
      ...moneyLines,
      ...classesLines,
      ...customLines,
      ...(flood && timing
        ? [
            'Other calls (`GET /busline/api/user/query/msg`, 2 at a time) while 64 clients flood the login with wrong passwords; the server in its own process, NODE_ENV=production:',
            '',
            ...floodTable(flood),
            '',
            ...timingTable(timing),
            '',
          ]
        : []),
      ...exportLines,
    ];
    console.log(out.join('\n'));
  } finally {
    client.close();
    await server.close();
  }
}

main().catch((err: unknown) => {
  console.error('bench failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
