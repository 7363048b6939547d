import { is, sql } from 'drizzle-orm';
import { PgliteSession } from 'drizzle-orm/pglite';
import type { Db } from '../connection';
import { type CopyText, type Literal, type Rows, isCopyText, toCopyText } from './copy-text';

export type { CopyText, Rows } from './copy-text';

const COPY_BATCH = 100_000;
/** From this many rows a load drops the table's secondary indexes and builds them once after. */
const DEFER_INDEXES_FROM = 20_000;

/** A SQL literal of seed data (the seed's own values, never a user's): quotes doubled, NUL refused. */
function literal(v: Literal): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`not a finite number: ${v}`);
    return String(v);
  }
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  const s = v instanceof Date ? v.toISOString() : v;
  if (s.includes('\u0000')) throw new Error('NUL in seed data');
  return `'${s.replace(/'/g, "''")}'`;
}

/** PGlite's own client under a drizzle database or transaction: it takes COPY input as a blob. */
function pgliteClient(db: Db): { query(q: string, params: unknown[], opts: { blob: Blob }): Promise<unknown> } | null {
  const session = (db as unknown as { session?: unknown }).session;
  return is(session, PgliteSession) ? (session as unknown as { client: ReturnType<typeof pgliteClient> & object }).client : null;
}

/**
 * Inserts many seed rows. On PGlite as COPY text, 100,000 rows a statement (text the seed's worker
 * made, db/seed/ahead.ts, in one statement whatever its size): nothing for the parser but the data, about twice as fast as multi-row VALUES, which in turn were an order of
 * magnitude faster than bound parameters. On PostgreSQL (fast either way; COPY FROM STDIN would
 * need another driver) as literal multi-row VALUES, 5,000 at a time.
 */
export async function bulkInsert(db: Db, table: string, columns: readonly string[], rows: Rows | CopyText, batch = 5_000): Promise<void> {
  if (!/^[a-z_]+$/.test(table) || !columns.every((c) => /^[a-z_]+$/.test(c))) throw new Error('bad identifier');
  await skipForeignKeyTriggers(db);
  const big = (isCopyText(rows) ? rows.count : rows.length) >= DEFER_INDEXES_FROM;
  if (big && pgliteClient(db)) await truncateIfEmpty(db, table);
  const rebuild = big ? await dropSecondaryIndexes(db, table) : [];
  await load(db, table, columns, rows, batch);
  for (const def of rebuild) await db.execute(sql.raw(def));
}

async function load(db: Db, table: string, columns: readonly string[], rows: Rows | CopyText, batch: number): Promise<void> {
  const client = pgliteClient(db);
  if (isCopyText(rows)) {
    // Made for PGlite by the seed's worker, which runs only for a new PGlite folder.
    if (!client) throw new Error('COPY text loads into PGlite only');
    await client.query(`copy ${table} (${columns.join(',')}) from '/dev/blob'`, [], { blob: new Blob([rows.copy]) });
    return;
  }
  if (client) {
    for (let i = 0; i < rows.length; i += COPY_BATCH) {
      const { copy } = toCopyText(rows.slice(i, i + COPY_BATCH));
      await client.query(`copy ${table} (${columns.join(',')}) from '/dev/blob'`, [], { blob: new Blob([copy]) });
    }
    return;
  }
  for (let i = 0; i < rows.length; i += batch) {
    const values = rows
      .slice(i, i + batch)
      .map((r) => `(${r.map(literal).join(',')})`)
      .join(',');
    await db.execute(sql.raw(`insert into ${table} (${columns.join(',')}) values ${values}`));
  }
}

/**
 * After rows were loaded with the ids the seed gave them (plans made before the database existed
 * hand out ids: districts 1…n, riders 1…n), the table's id sequence goes on after the largest.
 */
export async function continueIds(db: Db, table: string): Promise<void> {
  if (!/^[a-z_]+$/.test(table)) throw new Error('bad identifier');
  await db.execute(sql.raw(`select setval(pg_get_serial_sequence('${table}', 'id'), coalesce(max(id), 0) + 1, false) from ${table}`));
}

/**
 * With minimal WAL (PGlite's start parameters), rows put into a table emptied by TRUNCATE in the same
 * transaction are written without WAL: 72 MB less for 200,000 cards, a third less CPU. TRUNCATE
 * must take every table whose foreign keys reach this one, so it runs only when all of them are
 * empty (they are, in a demo seed on an empty database); otherwise the rows are simply logged.
 */
async function truncateIfEmpty(db: Db, table: string): Promise<void> {
  const res = (await db.execute(sql`
    with recursive reaching(rel) as (
      select ${table}::regclass::oid
      union
      select c.conrelid from pg_constraint c join reaching r on c.confrelid = r.rel where c.contype = 'f'
    )
    select format('%I.%I', n.nspname, k.relname) as name
    from reaching r join pg_class k on k.oid = r.rel join pg_namespace n on n.oid = k.relnamespace`)) as unknown as { rows: { name: string }[] };
  const names = res.rows.map((r) => r.name);
  for (const name of names) {
    const any = (await db.execute(sql.raw(`select exists (select 1 from ${name}) as any`))) as unknown as { rows: { any: boolean }[] };
    if (any.rows[0]?.any) return;
  }
  await db.execute(sql.raw(`truncate ${names.join(', ')}`));
}

/**
 * A B-tree kept up row by row while 200,000 rows arrive costs more than the rows (the riders' blind
 * indexes are random strings: every insert lands on another page); one sorted build after the load
 * costs a fraction. Indexes behind a constraint (the primary key, a UNIQUE constraint other tables
 * may reference) stay. Returns the statements that recreate what was dropped. Runs inside the seed's
 * transaction, before anyone else can read the table.
 */
async function dropSecondaryIndexes(db: Db, table: string): Promise<string[]> {
  const res = (await db.execute(sql`
    select i.relname as name, pg_get_indexdef(x.indexrelid) as def
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_class r on r.oid = x.indrelid
    join pg_namespace n on n.oid = r.relnamespace
    where r.relname = ${table} and n.nspname = current_schema()
      -- An ordinary table only: a partitioned table's index definition reads ON ONLY, which would
      -- come back as an invalid shell with no index on any partition.
      and r.relkind = 'r'
      and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)
    order by i.relname`)) as unknown as { rows: { name: string; def: string }[] };
  for (const { name } of res.rows) await db.execute(sql.raw(`drop index "${name.replace(/"/g, '""')}"`));
  return res.rows.map((r) => r.def);
}

/**
 * The seed's rows reference what the seed itself just wrote, so the per-row foreign-key triggers
 * only cost time (most of it, for 200,000 cards). Inside the seed's transaction a superuser (PGlite's
 * user, or the tests' PostgreSQL) can skip them for that transaction alone; anyone else keeps them.
 */
async function skipForeignKeyTriggers(db: Db): Promise<void> {
  const res = (await db.execute(sql`select current_setting('is_superuser') as su`)) as unknown as { rows: { su: string }[] };
  if (res.rows[0]?.su === 'on') await db.execute(sql`set local session_replication_role = replica`);
}
