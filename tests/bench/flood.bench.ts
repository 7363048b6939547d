import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Measurement, createClient, percentile } from './lib';
import { login } from './login.bench';
import { CURRENT_USER, benchRead } from './read.bench';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Other calls' latency while 64 clients hammer the login endpoint. The server runs in its own
 * process (as `npm start` does, on a fresh PGlite folder), so the flood's clients and the
 * measuring client do not share its event loop. Three set-ups:
 * - `off`: the login protection switched off by configuration (no attempt limits, four hashes at
 *   once as libuv's pool allows, no queue bound): what the server did before it existed;
 * - `on`: the defaults;
 * - `on, distributed`: the defaults, but every attempt from another address (X-Forwarded-For on a
 *   proxy-trusting server), so no per-address limit applies and only the hashing queue is left.
 */
export interface FloodRow {
  setup: string;
  idle: Measurement;
  flooded: Measurement;
  attempts: number;
  statuses: Map<number, number>;
  seconds: number;
}

const FLOOD = { clients: 64, reads: { total: 600, concurrency: 2, warmup: 30 } };

const SETUPS: { setup: string; env: Record<string, string>; distributed: boolean }[] = [
  {
    setup: 'protection off',
    env: { LOGIN_RATE_PER_IP: '0', LOGIN_RATE_PER_ACCOUNT: '0', PASSWORD_HASH_CONCURRENCY: '4', PASSWORD_HASH_QUEUE: '1000000', LOGIN_FAILURE_FLOOR_MS: '0' },
    distributed: false,
  },
  { setup: 'protection on (defaults), one address', env: {}, distributed: false },
  { setup: 'protection on (defaults), every attempt from a new address', env: { TRUST_PROXY: 'true' }, distributed: true },
];

/** `npm start`'s server in a child process; a given `dataDir` is the caller's to keep or remove. */
export async function startServer(env: Record<string, string>, opts: { dataDir?: string } = {}): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bus-console-flood-'));
  // The V8 heap flags of `npm start` (package.json, README decision 95).
  const child: ChildProcess = spawn(process.execPath, ['--max-old-space-size=256', '--max-semi-space-size=4', '--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', STATIC_DIR: '/nonexistent', NODE_ENV: 'production', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^READY (\S+)$/m.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.stderr?.on('data', () => undefined);
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before READY:\n${out}`)));
  });
  return {
    url,
    pid: child.pid!,
    async stop() {
      const exited = new Promise((r) => child.on('exit', r));
      child.kill('SIGTERM');
      await exited;
      if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function runSetup(s: (typeof SETUPS)[number]): Promise<FloodRow> {
  const server = await startServer(s.env);
  const reader = createClient(server.url, FLOOD.reads.concurrency);
  const flooder = createClient(server.url, FLOOD.clients);
  try {
    const token = await login(reader, 'admin');
    const idle = await benchRead(reader, token, 'idle', CURRENT_USER, FLOOD.reads);

    let flooding = true;
    let attempts = 0;
    const statuses = new Map<number, number>();
    const floodClient = async (c: number) => {
      for (let i = 0; flooding; i++) {
        const from = `10.${c}.${(i >> 8) & 255}.${i & 255}`;
        const res = await flooder.request('POST', '/busline/api/authenticate', {
          json: { username: `flood-${c}-${i}`, password: 'not-the-password' },
          headers: s.distributed ? { 'x-forwarded-for': from } : {},
        });
        attempts++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    };
    const started = performance.now();
    const flood = Promise.all(Array.from({ length: FLOOD.clients }, (_, c) => floodClient(c)));
    await new Promise((r) => setTimeout(r, 1_000));
    const flooded = await benchRead(reader, token, 'flooded', CURRENT_USER, { ...FLOOD.reads, warmup: 0 });
    flooding = false;
    await flood;
    return { setup: s.setup, idle, flooded, attempts, statuses, seconds: (performance.now() - started) / 1000 };
  } finally {
    reader.close();
    flooder.close();
    await server.stop();
  }
}

export async function benchFlood(progress: (msg: string) => void): Promise<FloodRow[]> {
  const rows: FloodRow[] = [];
  for (const s of SETUPS) {
    progress(`bench: login flood, ${s.setup}...`);
    rows.push(await runSetup(s));
  }
  return rows;
}

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

export function floodTable(rows: FloodRow[]): string[] {
  return [
    '| login flood (64 clients) | other calls idle p50 / p95 ms | during the flood p50 / p95 ms | login answers during the flood |',
    '| --- | ---: | ---: | --- |',
    ...rows.map((r) => {
      const answers = [...r.statuses].sort(([a], [b]) => a - b).map(([k, v]) => `${k}×${v}`).join(' ');
      return `| ${r.setup} | ${ms(percentile(r.idle.latencies, 50))} / ${ms(percentile(r.idle.latencies, 95))} | ${ms(percentile(r.flooded.latencies, 50))} / ${ms(percentile(r.flooded.latencies, 95))} | ${answers} in ${r.seconds.toFixed(1)} s |`;
    }),
  ];
}
