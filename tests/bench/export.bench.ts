/**
 * The 1,000,000-row export (issue 12): the server in its own process as `npm start` runs it, a
 * line with a million rides in 20 days, its records exported as a task while other accounts keep
 * reading ride lists. Measures the task's time, the server process's peak RSS (sampled from /proc
 * every 50 ms while the task runs), and the list calls' latency before and during.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { exportTask, ridership } from '../../src/shared/api';
import type { ExportTask } from '../../src/shared/api/export-task';
import { openDatabase } from '../../src/server/db/connection';
import { startServer } from './flood.bench';
import { createClient, expectOk, percentile } from './lib';
import { login } from './login.bench';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS || 1_000_000);
const PII_KEY = Buffer.alloc(32, 9).toString('base64');
const LINE = 'BENCH1';

export interface ExportFigures {
  database: string;
  rows: number;
  seconds: number;
  fileMb: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  listBefore: number[];
  listDuring: number[];
}

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
};

/** A million rides of one line over the last 20 days, written by the database itself. */
const FILL = (rows: number) => sql`
  insert into ride_records (ride_at, district_id, line_code, line_name, bus_name, direction, station_name, card_no, card_category, ticket_type, amount, pay_status, recharge_status, order_no, pay_channel, paid_at)
  select now() - (g * interval '1 second') * (20 * 86400.0 / ${rows}), (select min(id) from districts), ${LINE}, '压测线路', '沪B-BENCH' || (g % 8), g % 2, '压测站' || (g % 40),
         '3101' || lpad((g % 900000)::text, 12, '0'), 1 + g % 6, 1 + g % 3, case when g % 3 = 0 then 200 else 0 end, 1, 1, 'B' || g, '乘车码', now()
  from generate_series(1, ${rows}) g`;

async function fill(env: Record<string, string>, dataDir: string, progress: (m: string) => void) {
  progress(`bench: export: ${ROWS.toLocaleString()} rides of line ${LINE}...`);
  const database = await openDatabase(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir });
  try {
    const started = performance.now();
    await database.db.execute(FILL(ROWS));
    await database.db.execute(sql`analyze ride_records`);
    progress(`bench: export: filled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await database.close();
  }
}

async function run(database: string, env: Record<string, string>, progress: (m: string) => void): Promise<ExportFigures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bus-console-export-'));
  const base = { SEED_DEMO: '1', PII_KEY, NODE_ENV: 'production', ...env };
  try {
    // First start: migrations and the demo city; then the rides go in with the server stopped
    // (PGlite is one process's), and the server starts again as it would in production.
    progress(`bench: export (${database}): first start (demo city)...`);
    await (await startServer(base, { dataDir })).stop();
    await fill(env, dataDir, progress);
    const server = await startServer(base, { dataDir });
    const client = createClient(server.url, 4);
    try {
      const [admin, manager] = [await login(client, 'admin'), await login(client, 'manager')];
      const end = new Date();
      const start = new Date(end.getTime() - 31 * 86_400_000 + 60_000);
      const range = `startTime=${encodeURIComponent(start.toISOString())}&endTime=${encodeURIComponent(end.toISOString())}`;
      // What other desks keep doing meanwhile: the first page of a week of their area's rides.
      const weekRange = `startTime=${encodeURIComponent(new Date(end.getTime() - 7 * 86_400_000).toISOString())}&endTime=${encodeURIComponent(end.toISOString())}`;
      const listOnce = async () => {
        const t0 = performance.now();
        expectOk(await client.request('GET', `${ridership.recordList.path}?${weekRange}&size=20`, { token: manager }), 'record list');
        return performance.now() - t0;
      };
      const listBefore: number[] = [];
      for (let i = 0; i < 100; i++) listBefore.push(await listOnce());

      const rssBefore = rssMb(server.pid);
      let peak = rssBefore;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid))), 50);
      const t0 = performance.now();
      const task = expectOk(await client.request('GET', `${ridership.recordExport.path}?${range}&lineCode=${LINE}`, { token: admin }), 'export') as ExportTask;
      let done: ExportTask | undefined;
      let lastShown = 0;
      const listDuring: number[] = [];
      // Two readers keep asking while the export runs, each every 50 ms besides its own call (other
      // desks at work, not a flood: on PGlite they share the export's one connection); the task is
      // looked at every half second.
      const readers = [0, 1].map(async () => {
        while (!done) {
          listDuring.push(await listOnce());
          await new Promise((r) => setTimeout(r, 50));
        }
      });
      while (!done) {
        await new Promise((r) => setTimeout(r, 500));
        const list = expectOk(await client.request('GET', `${exportTask.taskList.path}?size=5`, { token: admin }), 'task list') as { content: ExportTask[] };
        const t = list.content.find((x) => x.id === task.id);
        if (t && t.phase !== 'queued' && t.phase !== 'running') done = t;
        else if (t && performance.now() - lastShown > 5_000) {
          lastShown = performance.now();
          progress(`bench: export (${database}): ${t.rowsDone.toLocaleString()} / ${t.rowsTotal?.toLocaleString() ?? '?'} rows, ${peak.toFixed(0)} MB peak`);
        }
      }
      const seconds = (performance.now() - t0) / 1000;
      clearInterval(sampler);
      await Promise.all(readers);
      if (done.phase !== 'done') throw new Error(`export ended ${done.phase}: ${done.error}`);
      if (done.rowsDone !== ROWS) throw new Error(`export wrote ${done.rowsDone} rows, expected ${ROWS}`);
      return { database, rows: done.rowsDone, seconds, fileMb: (done.fileSize ?? 0) / 1024 / 1024, rssBeforeMb: rssBefore, rssPeakMb: peak, listBefore: listBefore.sort((a, b) => a - b), listDuring: listDuring.sort((a, b) => a - b) };
    } finally {
      client.close();
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** PostgreSQL for the export a second time (a fresh database on it): BENCH_DATABASE_URL, else DATABASE_URL. */
const POSTGRES = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || undefined;

export async function exportSection(progress: (m: string) => void): Promise<string[]> {
  // BENCH_EXPORT_PGLITE=0 measures PostgreSQL alone (a quick run while working on the queue).
  const results = process.env.BENCH_EXPORT_PGLITE === '0' ? [] : [await run('PGlite', {}, progress)];
  if (POSTGRES) {
    const name = `bench_export_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: POSTGRES });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const url = new URL(POSTGRES);
    url.pathname = `/${name}`;
    try {
      results.push(await run('PostgreSQL', { DATABASE_URL: url.toString() }, progress));
    } finally {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  }
  const f = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
  return [
    `The ${ROWS.toLocaleString('en')}-row export (\`xls/async/record/export\` of one line, 14 columns; the server in its own process, NODE_ENV=production; RSS of that process sampled every 50 ms; two other clients each reading the first page of a week of rides every 50 ms meanwhile):`,
    '',
    '| database | rows | time (s) | file (MB) | server RSS before → peak (MB) | list p50 / p99 before (ms) | list p50 / p99 during (ms) |',
    '|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.database} | ${r.rows.toLocaleString('en')} | ${r.seconds.toFixed(1)} | ${r.fileMb.toFixed(1)} | ${r.rssBeforeMb.toFixed(0)} → ${r.rssPeakMb.toFixed(0)} | ${f(percentile(r.listBefore, 50))} / ${f(percentile(r.listBefore, 99))} | ${f(percentile(r.listDuring, 50))} / ${f(percentile(r.listDuring, 99))} (${r.listDuring.length} calls) |`,
    ),
    '',
  ];
}
