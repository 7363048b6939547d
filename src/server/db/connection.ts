import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
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
}

// Built from strings: in a browser-like test environment the global URL is not Node's.
const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const MIGRATION_LOCK = 4_207_311;

export interface OpenOptions {
  /** PGlite folder; `memory://` for a throwaway database. */
  dataDir?: string;
  databaseUrl?: string;
  log?: (msg: string, err?: unknown) => void;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.log);
  return openPglite(opts.dataDir ?? 'memory://');
}

async function openPglite(dataDir: string): Promise<Database> {
  if (!dataDir.startsWith('memory://')) fs.mkdirSync(path.resolve(dataDir), { recursive: true });
  const client = await PGlite.create(dataDir);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    async migrate(afterMigrate) {
      await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
      await afterMigrate?.();
    },
    close: () => client.close(),
  };
}

async function openPostgres(url: string, log?: OpenOptions['log']): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000, keepAlive: true });
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
  };
}

/**
 * drizzle's node-postgres transaction sends `begin` before its try/finally, so when the connection
 * dies right then the client is never released: each such fault leaks one of the pool's slots until
 * every request waits for a connection that never comes. So a checkout whose first query fails
 * releases itself, marked broken so the pool drops it; a later release() of the same checkout
 * (by drizzle or anyone) is a no-op instead of pg's "already released" error.
 */
function guardCheckouts(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as (cb?: unknown) => Promise<pg.PoolClient>;
  const guarded = async () => {
    const client = await connect();
    const query = client.query;
    const release = client.release;
    let released = false;
    let first = true;
    client.release = (err?: Error | boolean) => {
      if (released) return;
      released = true;
      client.query = query;
      release.call(client, err);
    };
    client.query = function firstQueryGuard(this: pg.PoolClient, ...args: unknown[]) {
      const result = (query as (...a: unknown[]) => unknown).apply(client, args);
      if (!first) return result;
      first = false;
      client.query = query;
      if (result instanceof Promise) {
        return result.catch((err: unknown) => {
          client.release(err instanceof Error ? err : true);
          throw err;
        });
      }
      return result;
    } as typeof client.query;
    return client;
  };
  // pg calls connect(callback) internally for pool.query(); only the promise form is guarded.
  pool.connect = ((cb?: unknown) => (cb ? connect(cb) : guarded())) as typeof pool.connect;
}
