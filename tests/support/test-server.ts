import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { type Endpoint, Msg, SUCCESS, auth, buildPath } from '../../src/shared/api';
import { type BuildOptions, buildApp } from '../../src/server/app';
import { type Config, loadConfig } from '../../src/server/config';
import type { Database } from '../../src/server/db/connection';
import { DEMO_PASSWORD, PROFILES } from '../../src/server/db/seed';
import { runSeed } from '../../src/server/seed-runner';
import { type TestClock, testClock } from './clock';
import { freshDatabase } from './test-db';
import { createPii } from '../../src/server/lib/pii';

export { DEMO_PASSWORD };

/** A fixed personal-data key for the tests (the app and the seed must share one). */
export const TEST_PII_KEY = Buffer.alloc(32, 7);

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: { code: number; msg: string; data: T };
  /** The bytes of a file endpoint's answer (its body then reads as a success envelope without data). */
  file?: Buffer;
}

export interface CallOptions {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  token?: string;
  district?: string | number;
  /** Extra headers, e.g. X-Forwarded-For on a server started with trustProxy. */
  headers?: Record<string, string>;
}

export interface TestServer {
  url: string;
  app: FastifyInstance;
  database: Database;
  clock: TestClock;
  config: Config;
  /**
   * Calls a contract endpoint over HTTP, as the console does. The answer is typed from the
   * endpoint's response schema; the input stays loose, since tests send malformed input on purpose.
   */
  call<E extends Endpoint>(endpoint: E, opts?: CallOptions): Promise<ApiResponse<z.output<E['response']>>>;
  /** A raw request, for what the console would never send. */
  raw(method: string, path: string, init?: { headers?: Record<string, string>; body?: string }): Promise<{ status: number; headers: Headers; text: string }>;
  /** Logs in and returns the token; throws when refused. */
  login(username: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

/** An event stream never ends by itself: its first chunk stands for the answer. */
async function firstChunk(res: Response): Promise<string> {
  const reader = res.body!.getReader();
  const first = await reader.read();
  await reader.cancel();
  return new TextDecoder().decode(first.value ?? new Uint8Array());
}

export async function startTestServer(
  overrides: Partial<Config> = {},
  opts: Parameters<typeof freshDatabase>[0] & {
    jobs?: boolean;
    /** the server's pino options as main.ts passes them (a `stream` to read the lines back) */
    logger?: BuildOptions['logger'];
    /** the server's (and the seed's) clock starts here instead of now */
    now?: Date;
  } = {},
): Promise<TestServer> {
  const clock = testClock(opts.now);
  const database = await freshDatabase(opts);
  const defaults = loadConfig({});
  const config: Config = {
    ...defaults,
    staticDir: '/nonexistent',
    // The per-minute attempt limits count in wall-clock time, which the test clock cannot move, and
    // every test file logs in from 127.0.0.1: they are on only where a test asks for them
    // (tests/server/login-protection.test.ts). The source and account lockouts stay on.
    login: { ...defaults.login, perIpPerMinute: 0, perAccountPerMinute: 0 },
    piiKey: TEST_PII_KEY,
    ...overrides,
  };
  await database.migrate(() =>
    runSeed({ db: database.db, now: clock.now(), seed: config.seed, demo: true, profile: PROFILES.small, passwordMaxAgeDays: config.passwordMaxAgeDays, pii: createPii(config.piiKey!) }).then(() => undefined),
  );
  const app = await buildApp({ db: database.db, database, config, clock, jobs: opts.jobs, logger: opts.logger });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });

  const raw: TestServer['raw'] = async (method, path, init = {}) => {
    const res = await fetch(address + path, { method, headers: init.headers, body: init.body });
    if (res.headers.get('content-type')?.includes('text/event-stream')) return { status: res.status, headers: res.headers, text: await firstChunk(res) };
    return { status: res.status, headers: res.headers, text: await res.text() };
  };

  const call: TestServer['call'] = async (endpoint, opts = {}) => {
    const qs = new URLSearchParams({ _t: String(Date.now()) });
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) qs.set(k, String(v));
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.district !== undefined) headers.districtid = String(opts.district);
    let body: string | undefined;
    if (opts.body !== undefined) {
      if (endpoint.bodyType === 'form') {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(opts.body as Record<string, string>).toString();
      } else {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(opts.body);
      }
    }
    const res = await fetch(`${address}${buildPath(endpoint.path, opts.params)}?${qs}`, { method: endpoint.method, headers, body });
    if (endpoint.file && res.ok && res.headers.get('content-type')?.includes('text/event-stream')) {
      return { status: res.status, headers: res.headers, body: { code: SUCCESS, msg: Msg.ok, data: null as never }, file: Buffer.from(await firstChunk(res)) };
    }
    if (endpoint.file && res.ok && !res.headers.get('content-type')?.includes('json')) {
      return { status: res.status, headers: res.headers, body: { code: SUCCESS, msg: Msg.ok, data: null as never }, file: Buffer.from(await res.arrayBuffer()) };
    }
    const text = await res.text();
    let parsed: ApiResponse['body'];
    try {
      parsed = JSON.parse(text) as ApiResponse['body'];
    } catch {
      throw new Error(`${endpoint.id} answered ${res.status} with a non-JSON body: ${text.slice(0, 200)}`);
    }
    return { status: res.status, headers: res.headers, body: parsed as ApiResponse<never>['body'] };
  };

  const { authenticate } = auth;
  const login: TestServer['login'] = async (username, password = DEMO_PASSWORD) => {
    const res = await call(authenticate, { body: { username, password } });
    if (res.body.code !== 1) throw new Error(`login ${username} refused: ${res.body.msg}`);
    return res.body.data.idToken;
  };

  return {
    url: address,
    app,
    database,
    clock,
    config,
    call,
    raw,
    login,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
