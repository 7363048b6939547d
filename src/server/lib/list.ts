import { type SQL, and, asc, gt } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Endpoint, Page } from '../../shared/api';
import type { FilterKeyOf, ListArgs, SortFieldOf } from '../../shared/frame/list';
import type { AppDeps, AuthContext } from '../context';
import type { Db } from '../db/connection';
import { type SortKey, orderBy, paged } from './paging';
import { inScope } from './scope';

/** What drizzle's `select().from()…` is to a list: filtered, ordered, one page at a time. */
interface Selecting<S> {
  where(cond: SQL | undefined): { orderBy(...order: SQL[]): { limit(n: number): PromiseLike<S[]> & { offset(n: number): PromiseLike<S[]> } } };
}
interface Counting {
  where(cond: SQL | undefined): PromiseLike<{ n: number }[]>;
}

type Args<E extends Endpoint> = ListArgs<E>;
/** A list's filters without paging and sort: what its summary and its export take. */
export type FilterArgs<E extends Endpoint> = Omit<Args<E>, 'page' | 'size' | 'sort'>;
type Scope = Pick<AuthContext, 'districtScope'>;

/** What a filter or a row's DTO may read besides the row: the request, and a memo for one page. */
export interface ListContext<A extends Scope = Scope> {
  deps: AppDeps;
  a: A;
  /** Lives for one page (or one export batch): a check shared by many rows is made once. */
  memo: Map<unknown, unknown>;
}
type FilterValue<E extends Endpoint, K extends FilterKeyOf<E>> = NonNullable<Args<E>[K & keyof Args<E>]>;

export interface ListSpec<E extends Endpoint, S, D, A extends Scope = Scope> {
  /** The contract's list endpoint: filters and sorts are checked against its schema at compile time. */
  endpoint: E;
  /** The rows with their joins, without a where. */
  select(db: Db): Selecting<S>;
  /** `count()` over the same joins the filters need. */
  count(db: Db): Counting;
  /**
   * The district column, when rows belong to a district: the request's scope keeps to it. A function
   * when the rule is not one column's (city-wide rows, district null, that every district also reads).
   */
  scope?: AnyPgColumn | ((a: A) => SQL | undefined);
  /**
   * One condition per filter of the endpoint, every one of them: a filter the contract takes and the
   * service forgets is a compile error, not a list that silently ignores it.
   */
  filters: { [K in FilterKeyOf<E>]: ((value: FilterValue<E, K>, args: FilterArgs<E>, a: A, deps: AppDeps) => SQL | undefined) | null };
  /**
   * What every row of the list meets whatever the filters (a soft-deleted row is in none), or what
   * a filter's absence means (线路列表 without a version: the area's current ones).
   */
  base?: SQL | ((args: FilterArgs<E>, a: A) => SQL | undefined);
  /** The columns (or expressions) behind each sort field the endpoint offers. */
  sorts: { [K in SortFieldOf<E>]: SortKey };
  /** Order without a sort, and the unique column that breaks ties and pages exports. */
  order: { column: SortKey; dir: 'asc' | 'desc' };
  key: { column: AnyPgColumn; of(row: S): number };
  /** From a selected row to what the contract answers (a page's rows at once, in order). */
  dto(row: S, ctx: ListContext<A>): D | Promise<D>;
}

export interface ListService<E extends Endpoint, D, A extends Scope = Scope> {
  /** The scope, the base and every filter given (a blind index needs `deps.pii`): a summary over the same rows filters with it. */
  where(deps: AppDeps, a: A, args: FilterArgs<E>): SQL | undefined;
  /** ORDER BY for a `sort` (a field the endpoint offers, else the default order), ties broken by the key. */
  order(sort: string | undefined): SQL[];
  /** How many rows the filters select. */
  count(deps: AppDeps, a: A, args: FilterArgs<E>): Promise<number>;
  page(deps: AppDeps, a: A, args: Args<E> & { page: number; size: number; sort?: string }): Promise<Page<D>>;
  /**
   * The filtered rows in key order, a batch at a time: each batch is one short keyset query (never
   * OFFSET), so an export of a million rows holds one batch in memory.
   */
  batches(deps: AppDeps, a: A, args: FilterArgs<E>, size: number): AsyncGenerator<D[]>;
}

/**
 * A server list declared once: scope, the endpoint's filters and sorts, the DTO; the page with its
 * total and the keyset batches of its export both come from it.
 */
export function listService<E extends Endpoint, S, D, A extends Scope = Scope>(spec: ListSpec<E, S, D, A>): ListService<E, D, A> {
  const dtos = (rows: S[], deps: AppDeps, a: A) => {
    const ctx: ListContext<A> = { deps, a, memo: new Map() };
    return Promise.all(rows.map((r) => spec.dto(r, ctx)));
  };
  const where = (deps: AppDeps, a: A, args: FilterArgs<E>) => {
    const base = typeof spec.base === 'function' ? spec.base(args, a) : spec.base;
    const scope = typeof spec.scope === 'function' ? spec.scope(a) : spec.scope ? inScope(a, spec.scope) : undefined;
    const conds: (SQL | undefined)[] = [scope, base];
    for (const [key, toSql] of Object.entries(spec.filters) as [string, ((v: unknown, q: FilterArgs<E>, a: A, deps: AppDeps) => SQL | undefined) | null][]) {
      const value = (args as Record<string, unknown>)[key];
      if (toSql && value !== undefined && value !== null && value !== '') conds.push(toSql(value, args, a, deps));
    }
    return and(...conds);
  };
  const order = (sort: string | undefined) => orderBy(sort, spec.sorts as Record<string, SortKey>, spec.order, spec.key.column);
  return {
    where,
    order,
    async count(deps, a, args) {
      const [n] = await spec.count(deps.db).where(where(deps, a, args));
      return Number(n?.n ?? 0);
    },
    page(deps, a, args) {
      const { db } = deps;
      const cond = where(deps, a, args);
      return paged(
        args,
        async (limit, offset) => dtos(await spec.select(db).where(cond).orderBy(...order(args.sort)).limit(limit).offset(offset), deps, a),
        async () => spec.count(db).where(cond),
      );
    },
    async *batches(deps, a, args, size) {
      const { db } = deps;
      const cond = where(deps, a, args);
      let after: number | null = null;
      for (;;) {
        const rows: S[] = await spec.select(db).where(after === null ? cond : and(cond, gt(spec.key.column, after))).orderBy(asc(spec.key.column)).limit(size);
        if (rows.length) yield await dtos(rows, deps, a);
        if (rows.length < size) return;
        after = spec.key.of(rows[rows.length - 1]!);
      }
    },
  };
}
