import pg from 'pg';
import { type Database, openDatabase } from '../../src/server/db/connection';
import { pgliteTemplate } from './pglite-template';

/** Set by the `server-pg` vitest project (from DATABASE_URL): the suite runs on PostgreSQL. */
export const postgresUrl = process.env.TEST_DATABASE_URL || undefined;
export const onPostgres = postgresUrl !== undefined;

let counter = 0;

/**
 * A fresh database for one test file: in-memory PGlite (a copy of the run's migrated cluster), or a new database on the
 * PostgreSQL server (dropped again on close).
 */
export async function freshDatabase(opts: { route?: (url: URL) => URL; queryTimeoutMs?: number; unmigrated?: boolean } = {}): Promise<Database> {
  // PGlite starts from the run's migrated cluster unless the test runs the migrations itself.
  if (!postgresUrl) return openDatabase({ dataDir: 'memory://', template: opts.unmigrated ? undefined : await pgliteTemplate() });
  const name = `t_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  // `route` lets a test put something (a proxy it can cut) between the app and PostgreSQL.
  const database = await openDatabase({ databaseUrl: (opts.route?.(url) ?? url).toString(), queryTimeoutMs: opts.queryTimeoutMs });
  return {
    ...database,
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: postgresUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists "${name}" with (force)`);
      await dropper.end();
    },
  };
}

/**
 * For suites that only mean something on PostgreSQL (races, lost connections). In the PGlite
 * project they are skipped because the same files run again in `server-pg`; when the whole run has
 * no PostgreSQL (no DATABASE_URL), the skip is said loudly instead of passing in silence.
 */
export function skipWithoutPostgres(what: string): boolean {
  if (onPostgres) return false;
  if (!process.env.DATABASE_URL) {
    console.warn(`\n[SKIPPED] ${what}: needs PostgreSQL. Set DATABASE_URL (as .ci/run does) to run it.\n`);
  }
  return true;
}
