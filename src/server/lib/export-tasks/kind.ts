import type { Permission } from '../../../shared/api';
import type { OperationType } from '../audit';
import type { Db } from '../../db/connection';
import type { Cell } from '../xlsx';
import type { Pii } from '../pii';

/** Whose rows a task may read: the district scope it was asked under (null: every district). */
export interface ExportScope {
  districtScope: number | null;
}

/**
 * Something a module can export as a task (declared in its ServerModule's `exportKinds`): the
 * worker knows nothing of rides or riders, only how to count, page and write what a kind yields.
 * Rows come in batches in a stable order, each read on its own (no long transaction), so a batch
 * is a short query however big the file.
 */
export interface ExportKind<P = never> {
  kind: string;
  /** The permission of the call that creates it; a download needs it still. */
  permission: Permission;
  /** The audit row's type when a task of this kind is asked for. */
  operation: OperationType;
  sheet: string;
  columns: readonly { title: string; width?: number }[];
  /** How many rows there will be, counting at most `limit + 1` (the task refuses beyond `limit`). */
  count(db: Db, scope: ExportScope, params: P, limit: number): Promise<number>;
  /** The rows, a batch at a time; personal data masked, as in the lists (`pii` opens it to mask it). */
  batches(db: Db, scope: ExportScope, params: P, pii: Pii): AsyncIterable<readonly (readonly Cell[])[]>;
}

/**
 * Kinds are declared with their own params type; the queue holds them as this (methods are
 * bivariant in their parameters, so every ExportKind<P> is one).
 */
export type AnyExportKind = ExportKind<never>;

export const defineExportKind = <P>(k: ExportKind<P>): ExportKind<P> => k;
