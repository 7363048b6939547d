import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { isDatabaseUnavailable } from '../lib/errors';
import { CLUSTER_MARK, premadeClusterTar, unpackCluster } from './pglite-cluster';
import * as schema from './schema';

export type Schema = typeof schema;
/** A database or a transaction: services take either, so callers decide the transaction. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs migrations (serialised across instances on PostgreSQL), then `afterMigrate` under the same lock. */
  migrate(afterMigrate?: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: the data directory as an uncompressed tar, for `OpenOptions.template`. */
  dump?(): Promise<Blob>;
  /** PostgreSQL only: the pool's connections in all, idle, and requests waiting for one. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /**
   * PostgreSQL only: a connection of its own with its own query timeout, for work that must never
   * hold the requests' pool (exports). PGlite has one connection, shared by everything.
   */
  dedicated?(queryTimeoutMs: number): Promise<{ db: Db; close(): Promise<void> }>;
  /**
   * PostgreSQL only: NOTIFY and a LISTEN that reconnects by itself (`onReconnect` after a gap, when
   * notifications may have been missed). Instances of one database tell each other through it.
   */
  /**
   * PGlite only: LISTEN on the one connection; a NOTIFY in a transaction is heard when it commits.
   * (PostgreSQL's is `channel(name).listen`.)
   */
  listenHere?(name: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  channel?(name: string): {
    notify(payload: string): Promise<void>;
    listen(onMessage: (payload: string) => void, onReconnect: () => void): Promise<() => Promise<void>>;
  };
}

// Built from strings: in a browser-like test environment the global URL is not Node's.
const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const MIGRATION_LOCK = 4_207_311;

export interface OpenOptions {
  /** PGlite folder; `memory://` for a throwaway database. */
  dataDir?: string;
  databaseUrl?: string;
  log?: (msg: string, err?: unknown) => void;
  /** PostgreSQL: how long to wait for a query's answer before the connection counts as lost. */
  queryTimeoutMs?: number;
  /**
   * PGlite only: start from this dump of a data directory (`Database.dump`) instead of creating a
   * cluster; the tests' databases start from one migrated cluster instead of running initdb each.
   */
  template?: Blob;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.log, opts.queryTimeoutMs);
  return openPglite(opts.dataDir ?? 'memory://', opts.template);
}

/**
 * PGlite's PostgreSQL with 32 MB of shared buffers instead of 128: the buffers are set up in the
 * WebAssembly heap at every open, which took 1.4–1.9 s of a restart against 0.6–0.8 s (the demo
 * city's hot tables fit; a page it lacks is one read from the OS's cache). Minimal WAL: an embedded
 * database has no replica or archive to feed, and a table filled in the transaction that emptied it
 * writes no WAL at all (the demo seed's big loads, db/seed/bulk.ts); crash recovery is unchanged.
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB', '-c', 'wal_level=minimal', '-c', 'max_wal_senders=0'];

async function openPglite(dataDir: string, template?: Blob): Promise<Database> {
  // A new database starts from the given template, else from the pre-made empty cluster
  // (db/pglite-cluster.ts; PGlite runs initdb when there is none for its version); an existing
  // folder is opened as it is.
  let start = template;
  if (dataDir.startsWith('memory://')) start ??= premadeClusterTar() ?? undefined;
  else {
    const dir = path.resolve(dataDir);
    fs.mkdirSync(dir, { recursive: true });
    if (!fs.existsSync(path.join(dir, CLUSTER_MARK)) && !start) unpackCluster(dir);
  }
  // btree_gist: 班次's exclusion constraints (one car, one driver, never two overlapping classes; migration 0022).
  const client = await PGlite.create(dataDir, { startParams: PGLITE_START_PARAMS, extensions: { btree_gist }, ...(start ? { loadDataDir: start } : {}) });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    async migrate(afterMigrate) {
      await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
      await afterMigrate?.();
    },
    dump: () => client.dumpDataDir('none'),
    listenHere: (name, onMessage) => client.listen(name, onMessage),
    close: () => client.close(),
  };
}

async function openPostgres(url: string, log?: OpenOptions['log'], queryTimeoutMs = 30_000): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5_000,
    // A network that drops packets instead of resetting would otherwise hang requests for as long
    // as the kernel takes to give up (minutes): give up on an answer, probe idle sockets early, and
    // let the server end a transaction its client abandoned.
    query_timeout: queryTimeoutMs || undefined,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    idle_in_transaction_session_timeout: 60_000,
  });
  // pg-pool listens for errors only while a client is idle; a client checked out for a transaction
  // that loses its server (restart, pg_terminate_backend) emits 'error' with no listener and the
  // process dies. One listener per client for its whole life prevents that; the failed query
  // itself rejects (answered 503 by the error handler) and the pool drops the broken client.
  const onLost = (err: Error) => log?.('postgres connection lost', err);
  pool.on('connect', (client) => client.on('error', onLost));
  pool.on('error', onLost);
  guardCheckouts(pool);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    async migrate(afterMigrate) {
      const lock = await pool.connect();
      try {
        await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migratePg(drizzlePg(pool, { schema }), { migrationsFolder });
        await afterMigrate?.();
      } finally {
        await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
        lock.release();
      }
    },
    close: () => pool.end(),
    async dedicated(timeoutMs) {
      const own = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 5_000, query_timeout: timeoutMs || undefined, statement_timeout: timeoutMs || undefined, keepAlive: true, idle_in_transaction_session_timeout: 60_000 });
      own.on('connect', (client) => client.on('error', onLost));
      own.on('error', onLost);
      guardCheckouts(own);
      return { db: drizzlePg(own, { schema }) as unknown as Db, close: () => own.end() };
    },
    channel: (name) => ({
      notify: async (payload) => {
        await pool.query('select pg_notify($1, $2)', [name, payload]);
      },
      listen: (onMessage, onReconnect) => listenWithRetry(url, name, onMessage, onReconnect, log),
    }),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/**
 * Two holes in how drizzle's transactions use a pool client, closed per checkout:
 * - drizzle sends `begin` before its try/finally, so when the connection dies right then the client
 *   is never released: each such fault leaked one of the pool's slots until every request waited
 *   for a connection that never came. A checkout whose first query fails releases itself.
 * - drizzle releases without passing the error, so a client whose connection broke or whose query
 *   timed out (its answer may still arrive and be read as the next query's) would go back to the
 *   pool. A checkout that saw such an error is released as broken, and the pool drops it.
 * A second release() of one checkout (drizzle's, after ours) is a no-op instead of pg's "already
 * released" error.
 */
function guardCheckouts(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as (cb?: unknown) => Promise<pg.PoolClient>;
  const guarded = async () => {
    const client = await connect();
    const query = client.query;
    const release = client.release;
    let released = false;
    let first = true;
    let broken: Error | null = null;
    client.release = (err?: Error | boolean) => {
      if (released) return;
      released = true;
      client.query = query;
      release.call(client, err || broken || undefined);
    };
    client.query = function guardedQuery(this: pg.PoolClient, ...args: unknown[]) {
      // Once broken, fail at once: a rollback queued behind a stalled query would wait out its own timeout.
      if (broken && typeof args[args.length - 1] !== 'function') return Promise.reject(broken);
      const result = (query as (...a: unknown[]) => unknown).apply(client, args);
      const isFirst = first;
      first = false;
      if (!(result instanceof Promise)) return result;
      return result.catch((err: unknown) => {
        if (isDatabaseUnavailable(err)) broken = err instanceof Error ? err : new Error(String(err));
        if (isFirst) client.release(err instanceof Error ? err : true);
        throw err;
      });
    } as typeof client.query;
    return client;
  };
  // pg calls connect(callback) internally for pool.query(), and releases those clients with the
  // error itself; only the promise form (drizzle's transactions, migrations) is guarded.
  pool.connect = ((cb?: unknown) => (cb ? connect(cb) : guarded())) as typeof pool.connect;
}

/**
 * LISTEN on a client of its own, connected again (after 1 s, then up to 30 s apart) whenever it is
 * lost; `onReconnect` runs after each reconnection since notifications of the gap are gone.
 */
async function listenWithRetry(url: string, channel: string, onMessage: (payload: string) => void, onReconnect: () => void, log?: OpenOptions['log']): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let delay = 1_000;
  let timer: NodeJS.Timeout | null = null;
  const connect = async (again: boolean): Promise<void> => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: url, keepAlive: true });
    c.on('notification', (n) => n.channel === channel && n.payload !== undefined && onMessage(n.payload));
    c.on('error', (err) => {
      log?.('listen connection lost', err);
      void c.end().catch(() => undefined);
      if (client === c) schedule();
    });
    try {
      await c.connect();
      await c.query(`listen "${channel.replace(/"/g, '')}"`);
      // Stopped while connecting: this client is nobody's to end later.
      if (stopped) {
        await c.end().catch(() => undefined);
        return;
      }
      client = c;
      delay = 1_000;
      if (again) onReconnect();
    } catch (err) {
      log?.('listen connection failed', err);
      void c.end().catch(() => undefined);
      schedule();
    }
  };
  const schedule = () => {
    client = null;
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void connect(true);
    }, delay);
    timer.unref();
    delay = Math.min(delay * 2, 30_000);
  };
  await connect(false);
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await client?.end().catch(() => undefined);
  };
}
