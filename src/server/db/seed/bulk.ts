import { sql } from 'drizzle-orm';
import type { Db } from '../connection';

type Literal = string | number | boolean | Date | null | undefined;

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

/**
 * Inserts many seed rows as literal multi-row VALUES, 5,000 at a time: an order of magnitude faster
 * on PGlite than bound parameters (one parse per statement instead of tens of thousands of
 * parameters), which keeps the demo's 250,000 riders and cards inside a quick first start.
 */
export async function bulkInsert(db: Db, table: string, columns: readonly string[], rows: readonly (readonly Literal[])[], batch = 5_000): Promise<void> {
  if (!/^[a-z_]+$/.test(table) || !columns.every((c) => /^[a-z_]+$/.test(c))) throw new Error('bad identifier');
  await skipForeignKeyTriggers(db);
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
