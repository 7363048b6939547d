import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { type Config, loadConfig, systemClock } from '../../src/server/config';
import { type Db, openDatabase } from '../../src/server/db/connection';
import { PROFILES } from '../../src/server/db/seed';
import { runSeed } from '../../src/server/seed-runner';
import { type Pii, createPii } from '../../src/server/lib/pii';
import pgLib from 'pg';

export interface BenchServer {
  url: string;
  app: FastifyInstance;
  dataDir: string;
  checkResponses: boolean;
  db: Db;
  /** `pglite` or `postgres`: the figures say which. */
  kind: string;
  /** PostgreSQL: the fresh database's address (a loader may open its own connection, without the pool's query timeout). */
  databaseUrl?: string;
  /** The seed's PII key: a benchmark may read riders' phones to look them up, as a caller gives them. */
  pii: Pii;
  close(): Promise<void>;
}

export interface BenchServerOptions {
  /** A PostgreSQL server: the bench makes a fresh database on it and drops it on close. */
  postgresUrl?: string | undefined;
  /** Serve the built console (dist/) too, for the browser benchmarks. */
  staticDir?: string;
}

/**
 * The server as `npm start` builds it, in this process: a fresh on-disk PGlite folder, the full
 * demo city, the wall clock and, as main.ts does, contract checks of every answer unless
 * NODE_ENV=production. (tests/support/test-server.ts seeds the small city in memory on a
 * hand-moved clock: right for tests, not for a figure quoted for the product.)
 */
export async function startBenchServer(opts: BenchServerOptions = {}): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bus-console-bench-'));
  const defaults = loadConfig({});
  // The login row measures what one login costs (scrypt + session), 50 in a row: the per-minute
  // attempt limits would answer 429 instead. The flood benchmark measures them.
  const config: Config = { ...defaults, piiKey: randomBytes(32), dataDir, staticDir: opts.staticDir ?? '/nonexistent', login: { ...defaults.login, perIpPerMinute: 0, perAccountPerMinute: 0 } };
  const pg = opts.postgresUrl ? await freshPostgres(opts.postgresUrl) : null;
  const database = await openDatabase(pg ? { databaseUrl: pg.url } : { dataDir });
  const pii = createPii(config.piiKey!);
  await database.migrate(() =>
    runSeed({
      db: database.db,
      now: systemClock.now(),
      seed: config.seed,
      demo: true,
      profile: PROFILES.demo,
      passwordMaxAgeDays: config.passwordMaxAgeDays,
      pii,
    }).then(() => undefined),
  );
  const checkResponses = process.env.NODE_ENV !== 'production';
  const app = await buildApp({ db: database.db, database, config, clock: systemClock, checkResponses });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    app,
    dataDir,
    checkResponses,
    db: database.db,
    kind: pg ? 'PostgreSQL' : 'PGlite',
    ...(pg ? { databaseUrl: pg.url } : {}),
    pii,
    async close() {
      await app.close();
      await database.close();
      await pg?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A new database on the PostgreSQL server, dropped again when the bench ends. */
async function freshPostgres(serverUrl: string) {
  const name = `bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pgLib.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pgLib.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}
