import { type SQL, and, eq } from 'drizzle-orm';
import type { AnyPgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Code, StatusFlow } from '../../shared/frame/status-flow';
import type { Db } from '../db/connection';
import { fail, notFound } from './errors';
import { nextVersion, staleEdit } from './row-version';

export interface Move<T extends PgTable, C extends Code> {
  flow: StatusFlow<C>;
  table: T;
  /** The row: its key column and value. */
  key: AnyPgColumn;
  id: number;
  status: AnyPgColumn;
  /** The status the operator saw (the contract's `fromStatus`); omitted, any source the flow allows. */
  from?: C;
  to: C;
  /** What else the move writes (the status itself included). */
  set: PgUpdateSetSource<T>;
  /** Further conditions of the row (its district). */
  where?: SQL;
  /** How the refusal names the record: `公告「…」`. */
  what: string;
  /** When the row moved under the operator (0 rows updated although the move is allowed). */
  stale?: string;
  /**
   * A versioned record (lib/row-version.ts): the move adds one to its version and, when the operator
   * sent the one they saw, refuses a row saved or moved since (`current`: the record as answered).
   */
  version?: { column: AnyPgColumn; sent: number | undefined; current(): unknown };
}

/**
 * A status move, guarded: the row is locked, its status checked against the one the operator saw
 * (`fromStatus`) and the flow, then updated `where status = :current`. Of two operators moving the
 * same row at once exactly one succeeds; the other reads the new status and gets `stale` (or the
 * flow's refusal). Run it in the transaction that writes the audit row.
 */
export async function moveStatus<T extends PgTable, C extends Code>(tx: Db, m: Move<T, C>): Promise<{ from: C }> {
  const [row] = await tx
    .select({ status: m.status, ...(m.version ? { rowVersion: m.version.column } : {}) })
    .from(m.table as PgTable)
    .where(and(eq(m.key, m.id), m.where))
    .for('update');
  if (!row) throw notFound();
  const current = row.status as C;
  if (m.version && m.version.sent !== undefined && (row as { rowVersion?: number }).rowVersion !== m.version.sent) throw staleEdit(await m.version.current());
  if (m.from !== undefined && current !== m.from) throw fail(m.stale ?? `${m.what}已被他人处理，请刷新后查看`);
  if (!m.flow.can(current, m.to)) throw fail(m.flow.refusal(m.what, current, m.to));
  await tx
    .update(m.table)
    .set(m.version ? ({ ...m.set, [columnKey(m.table, m.version.column)]: nextVersion(m.version.column) } as PgUpdateSetSource<T>) : m.set)
    .where(and(eq(m.key, m.id), eq(m.status, current as unknown as string | number | boolean)));
  return { from: current };
}

/** The table's property name of a column (drizzle's set takes properties, not column names). */
function columnKey(table: PgTable, column: AnyPgColumn): string {
  const found = Object.entries(table).find(([, c]) => c === column);
  if (!found) throw new Error(`column ${column.name} is not of this table`);
  return found[0];
}
