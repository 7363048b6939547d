import { is, sql } from 'drizzle-orm';
import { PgliteSession } from 'drizzle-orm/pglite';
import type { Db } from '../connection';

type Literal = string | number | boolean | Date | null | undefined;

const COPY_BATCH = 100_000;

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

/** A field of PostgreSQL's COPY text format: `\N` for null, backslash escapes for the separators. */
function copyField(v: Literal): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`not a finite number: ${v}`);
    return String(v);
  }
  if (typeof v === 'boolean') return v ? 't' : 'f';
  const s = v instanceof Date ? v.toISOString() : v;
  if (s.includes('\u0000')) throw new Error('NUL in seed data');
  return s.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** PGlite's own client under a drizzle database or transaction: it takes COPY input as a blob. */
function pgliteClient(db: Db): { query(q: string, params: unknown[], opts: { blob: Blob }): Promise<unknown> } | null {
  const session = (db as unknown as { session?: unknown }).session;
  return is(session, PgliteSession) ? (session as unknown as { client: ReturnType<typeof pgliteClient> & object }).client : null;
}

/**
 * Inserts many seed rows. On PGlite as COPY text, 100,000 rows a statement: nothing for the
 * parser but the data, about twice as fast as multi-row VALUES, which in turn were an order of
 * magnitude faster than bound parameters. On PostgreSQL (fast either way; COPY FROM STDIN would
 * need another driver) as literal multi-row VALUES, 5,000 at a time.
 */
export async function bulkInsert(db: Db, table: string, columns: readonly string[], rows: readonly (readonly Literal[])[], batch = 5_000): Promise<void> {
  if (!/^[a-z_]+$/.test(table) || !columns.every((c) => /^[a-z_]+$/.test(c))) throw new Error('bad identifier');
  await skipForeignKeyTriggers(db);
  const client = pgliteClient(db);
  if (client) {
    for (let i = 0; i < rows.length; i += COPY_BATCH) {
      const text = rows
        .slice(i, i + COPY_BATCH)
        .map((r) => `${r.map(copyField).join('\t')}\n`)
        .join('');
      await client.query(`copy ${table} (${columns.join(',')}) from '/dev/blob'`, [], { blob: new Blob([text]) });
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
 * The seed's rows reference what the seed itself just wrote, so the per-row foreign-key triggers
 * only cost time (most of it, for 200,000 cards). Inside the seed's transaction a superuser (PGlite's
 * user, or the tests' PostgreSQL) can skip them for that transaction alone; anyone else keeps them.
 */
async function skipForeignKeyTriggers(db: Db): Promise<void> {
  const res = (await db.execute(sql`select current_setting('is_superuser') as su`)) as unknown as { rows: { su: string }[] };
  if (res.rows[0]?.su === 'on') await db.execute(sql`set local session_replication_role = replica`);
}
