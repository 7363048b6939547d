import type { FastifyReply } from 'fastify';
import dayjs from 'dayjs';
import type { Endpoint, Permission } from '../../shared/api';
import { maskCitizenId, maskName, maskPhone } from '../../shared/domain/mask';
import type { AppDeps, AuthContext } from '../context';
import { type OperationType, audit } from './audit';
import type { FilterArgs, ListService } from './list';
import { type Cell, sendXlsx } from './xlsx';

/**
 * One export, declared once: its columns (header, cell, which personal data a cell holds), where its
 * rows come from and what the log says. Both deliveries read the same declaration: a task of the
 * download centre (the worker) and the spec's direct file (a route answering with the xlsx).
 */

/** Whose rows an export reads: the district it was asked under (null: every district). */
export type ExportScope = Pick<AuthContext, 'districtScope'>;

/** Who reads a list: a request (roles known) or an export task (the area alone; nothing is manageable in a file). */
export type ListReader = ExportScope & Partial<Pick<AuthContext, 'roles'>>;

/**
 * What a row source reads with: the request's deps for a direct file; for a task, the same deps with
 * the worker's own connection as `db`.
 */
export interface ExportReader {
  deps: AppDeps;
  scope: ExportScope;
}

export type PersonalField = 'phone' | 'citizenId' | 'name';
const MASKS: Record<PersonalField, (s: string) => string> = { phone: maskPhone, citizenId: maskCitizenId, name: maskName };

export interface ExportColumn<R> {
  header: string;
  width?: number;
  /**
   * The personal data the cell holds: masked again as it is written. The rows are the lists' DTOs,
   * masked already (the masks leave a masked value as it is); a source that forgot cannot leak.
   */
  mask?: PersonalField;
  cell(row: R): Cell;
}

/** The rows, a batch at a time in a stable order; `count` (at most `limit + 1`) for a task's progress and bound. */
export interface RowSource<P, R> {
  count?(reader: ExportReader, params: P, limit: number): Promise<number>;
  batches(reader: ExportReader, params: P): AsyncIterable<readonly R[]>;
}

/** A source that counts: what a task needs. */
export type CountedRows<P, R> = RowSource<P, R> & { count: NonNullable<RowSource<P, R>['count']> };

export interface ExportSpec<P, R> {
  /** Stable name: the task kind (`rider.riders`) when it is delivered as a task. */
  id: string;
  /** The permission of the call that asks for it; a task's download needs it still. */
  permission: Permission;
  sheet: string;
  /** A direct file's name before its time stamp (`亲情卡绑定` → `亲情卡绑定-20260131-0930.xlsx`). */
  file?: string;
  columns: readonly ExportColumn<R>[];
  rows: RowSource<P, R>;
  audit: {
    operation: OperationType;
    /** A direct file's log line; a task's is `导出任务：${title}` with its params. */
    summary?(params: P): string;
    /** What the log keeps of the filters (a citizen id named, not written). */
    after?(params: P): unknown;
  };
}

/** A declared export: what both deliveries read. */
export interface ExportDefinition<P = never> {
  id: string;
  permission: Permission;
  operation: OperationType;
  sheet: string;
  columns: readonly { title: string; width?: number }[];
  count?(reader: ExportReader, params: P, limit: number): Promise<number>;
  /** The rows as cells, masked: what the sheet holds. */
  cells(reader: ExportReader, params: P): AsyncIterable<readonly (readonly Cell[])[]>;
  spec: Pick<ExportSpec<P, unknown>, 'file' | 'audit'>;
}

/** An export the download centre can run: it knows how many rows it will write. */
export type TaskExport<P = never> = ExportDefinition<P> & { count: NonNullable<ExportDefinition<P>['count']> };

/**
 * Exports are declared with their own params type; the queue holds them as this (methods are
 * bivariant in their parameters, so every TaskExport<P> is one).
 */
export type AnyTaskExport = TaskExport<never>;

const masked = <R>(c: ExportColumn<R>, row: R): Cell => {
  const v = c.cell(row);
  return c.mask && typeof v === 'string' && v ? MASKS[c.mask](v) : v;
};

export function defineExport<P, R>(spec: ExportSpec<P, R> & { rows: CountedRows<P, R> }): TaskExport<P>;
export function defineExport<P, R>(spec: ExportSpec<P, R>): ExportDefinition<P>;
export function defineExport<P, R>(spec: ExportSpec<P, R>): ExportDefinition<P> {
  const { rows } = spec;
  return {
    id: spec.id,
    permission: spec.permission,
    operation: spec.audit.operation,
    sheet: spec.sheet,
    columns: spec.columns.map((c) => ({ title: c.header, width: c.width })),
    count: rows.count ? (reader, params, limit) => rows.count!(reader, params, limit) : undefined,
    async *cells(reader, params) {
      for await (const batch of rows.batches(reader, params)) yield batch.map((row) => spec.columns.map((c) => masked(c, row)));
    },
    spec: { file: spec.file, audit: spec.audit as ExportSpec<P, unknown>['audit'] },
  };
}

export const EXPORT_BATCH = 1_000;

/** The rows of a list service: the list's own filters, scope and DTO (masked as the list shows it), in key order. */
export function listRows<E extends Endpoint, D, P extends FilterArgs<E>>(list: ListService<E, D, ExportScope>, toArgs: (params: P) => FilterArgs<E> = (p) => p): CountedRows<P, D> {
  return {
    count: (r, params) => list.count(r.deps, r.scope, toArgs(params)),
    batches: (r, params) => list.batches(r.deps, r.scope, toArgs(params), EXPORT_BATCH),
  };
}

/**
 * A keyset query of the export's own (an order the list does not keep, a grouping): `read` gives
 * the rows after the cursor, `cursor` names the last one. Never OFFSET: each batch is one short query.
 */
interface Keyset<P, S, C> {
  count?(reader: ExportReader, params: P, limit: number): Promise<number>;
  read(reader: ExportReader, params: P, after: C | null, limit: number): PromiseLike<S[]>;
  cursor(row: S): C;
}
export function keysetRows<P, S, C>(q: Keyset<P, S, C> & { count: CountedRows<P, S>['count'] }): CountedRows<P, S>;
export function keysetRows<P, S, C>(q: Keyset<P, S, C>): RowSource<P, S>;
export function keysetRows<P, S, C>(q: Keyset<P, S, C>): RowSource<P, S> {
  return {
    count: q.count,
    async *batches(reader, params) {
      for (let after: C | null = null; ; ) {
        const rows = await q.read(reader, params, after, EXPORT_BATCH);
        if (rows.length) yield rows;
        if (rows.length < EXPORT_BATCH) return;
        after = q.cursor(rows[rows.length - 1]!);
      }
    },
  };
}

/** Rows the export computes whole (a few per product): one batch. */
export function computedRows<P, R>(read: (reader: ExportReader, params: P) => Promise<readonly R[]>): CountedRows<P, R> {
  return {
    async count(reader, params) {
      return (await read(reader, params)).length;
    },
    async *batches(reader, params) {
      yield await read(reader, params);
    },
  };
}

async function* flat<T>(batches: AsyncIterable<readonly T[]>): AsyncGenerator<T> {
  for await (const b of batches) yield* b;
}

/** The spec's direct file: the log line, then the sheet streamed as it is read. */
export async function sendExport<P>(deps: AppDeps, a: AuthContext, def: ExportDefinition<P>, params: P, reply: FastifyReply) {
  const now = deps.clock.now();
  const { audit: log, file } = def.spec;
  await audit(deps.db, a.actor, { type: def.operation, targetDistrictId: a.districtScope, target: null, summary: log.summary?.(params) ?? `导出${def.sheet}`, after: log.after ? log.after(params) : { filters: params } }, now);
  return sendXlsx(reply, `${file ?? def.sheet}-${dayjs(now).format('YYYYMMDD-HHmm')}.xlsx`, { sheet: def.sheet, columns: def.columns, rows: flat(def.cells({ deps, scope: a }, params)) });
}

/** A file name from a task's title: spaces to dashes, nothing a file system would refuse. */
/** A money cell in yuan, as a number the sheet can sum; empty where there is no amount. */
export const yuanCell = (fen: number | null) => (fen === null ? '' : fen / 100);

export const fileNameOf = (title: string) => `${title.replace(/[\\/:*?"<>|]/g, '_').replace(/\s+/g, '-')}.xlsx`;

/** The download centre's task of a declared export, under the title its filters give it. */
export const enqueueExport = <P>(deps: AppDeps, a: AuthContext, def: TaskExport<P>, params: P, title: string) => deps.exports.enqueue(deps, a, def.id, params, title, fileNameOf(title));
