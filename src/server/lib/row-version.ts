import { type SQL, and, eq, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { Msg } from '../../shared/api';
import type { StaleRefusal } from '../../shared/api/fields';
import type { Db } from '../db/connection';
import { fail, notFound } from './errors';

/**
 * Edits never overwrite another's (issue 21). Every editable table has `row_version` (db/schema.ts
 * `rowVersion()`), answered with the record; a save or status change sends back the version it was
 * made from, and one made from an older version is refused with the record as it is now, so the
 * console can show the other's values beside the user's typed text. A call without a version (a
 * client of the spec) is served as before.
 */

/** A table the frame versions: it has the `row_version` column. */
export type Versioned = PgTable & { rowVersion: AnyPgColumn };

/** The refusal of a stale save: `data.current` is the record now, as the save would have answered it. */
export const staleEdit = <R>(current: R) => fail(Msg.staleEdit, { stale: true, current } satisfies StaleRefusal<R>);

/** `row_version + 1`: what every update of a versioned row sets. */
export const nextVersion = (column: AnyPgColumn): SQL => sql`${column} + 1`;

/**
 * Refuses when the operator sent a version and the row (read `for update`, so no other writer
 * moves it before this transaction ends) has another. `current` reads the record as answered.
 */
export async function checkVersion<R>(row: { rowVersion: number }, sent: number | undefined, current: () => R | Promise<R>): Promise<void> {
  if (sent !== undefined && row.rowVersion !== sent) throw staleEdit(await current());
}

export interface VersionedUpdate<T extends Versioned> {
  table: T;
  key: AnyPgColumn;
  id: number;
  /** The version the operator saw; undefined updates whatever version the row has. */
  version: number | undefined;
  set: PgUpdateSetSource<T>;
  /** Further conditions of the row (its district). */
  where?: SQL;
  /** The record as the save answers it, for the refusal. */
  current(): unknown;
}

/**
 * One guarded update: `… set row_version = row_version + 1 where id = :id and row_version = :v`.
 * Of concurrent saves from one version exactly one matches (PostgreSQL re-reads the row the first
 * one committed, whose version no longer matches); the others are refused and write nothing. Run it
 * in the transaction that writes the audit row. Returns the row's new version.
 */
export async function updateVersioned<T extends Versioned>(tx: Db, u: VersionedUpdate<T>): Promise<number> {
  const guard = u.version === undefined ? undefined : eq(u.table.rowVersion, u.version);
  const set = { ...u.set, rowVersion: nextVersion(u.table.rowVersion) } as PgUpdateSetSource<T>;
  const rows = (await tx
    .update(u.table)
    .set(set)
    .where(and(eq(u.key, u.id), u.where, guard))
    .returning({ v: u.table.rowVersion })) as { v: number }[];
  if (rows[0]) return rows[0].v;
  const [exists] = await tx
    .select({ v: u.table.rowVersion })
    .from(u.table as PgTable)
    .where(and(eq(u.key, u.id), u.where));
  if (!exists) throw notFound();
  throw staleEdit(await u.current());
}
