import { type ReactNode, useMemo } from 'react';
import type { SWRResponse } from 'swr';
import type { z } from 'zod';
import type { Endpoint } from '../../../shared/api';
import type { FilterKeyOf, ListInput, RowOf, SortFieldOf } from '../../../shared/frame/list';
import type { CallInput } from '../../lib/http';
import { useChangedRows, useLiveChanges } from '../../lib/live-changes';
import { useApi } from '../../lib/use-api';
import { type Column, DataTable, type TableResult } from '../data-table';
import { type TableState, useFilterQuery, useTableState } from '../table-state';
import { type FilterSpec, type FilterValues, filterDefs, listSchema, refusalOf, shapeOf } from './list-filters';
import type { RowActions } from './row-actions';

export type { FilterValues } from './list-filters';

export interface ListDecl<E extends Endpoint> {
  endpoint: E;
  /** The filters shown, in order, by the endpoint's own names. */
  filters: FilterSpec<E>;
  /**
   * Filters kept in the address with no field in the bar: set by a link (`?versionId=`), or by a
   * form of the page's own (乘车统计's days, line and bus).
   */
  linkFilters?: readonly FilterKeyOf<E>[];
  /** Personal data (a phone, a citizen id): kept in memory, never in the address (useTableState). */
  privateFilters?: readonly FilterKeyOf<E>[];
  keepOutOfAddress?(key: FilterKeyOf<E>, value: string): boolean;
  /**
   * What the address's filters are checked against (a value it refuses is dropped), when the
   * endpoint's own schema would drop what the user should be told instead: `shapeOnly(…)`.
   */
  schema?: z.ZodType;
  /**
   * The filters shown and sent, from the address's: the page's defaults while the user set none
   * (乘车记录 opens on the last 7 days unless a card or a time is given). Applying the bar writes
   * them into the address, so what is shown is always what was asked.
   */
  effective?(filters: FilterValues<E>): FilterValues<E>;
  /**
   * Filters the server would refuse are not sent. They are checked against a contract schema of
   * the filters alone (乘车记录: its summary's, 31 days at most without a card); when it refuses,
   * the list, its summary and the page's exports wait, and the table says the refusal as an alert,
   * then `hint`, with 请修改查询条件 where the rows would be.
   */
  guard?: { schema: z.ZodType; hint?(filters: FilterValues<E>): string | undefined };
  /** A change of filters, adjusted before it is applied: choosing another line lets go of the bus. */
  patchFilters?(patch: Partial<FilterValues<E>>, current: FilterValues<E>): Partial<FilterValues<E>>;
  /** Input that is not the user's to change: a parent's id, a path parameter. */
  fixed?: Partial<ListInput<E>>;
  params?: CallInput['params'];
  /** False waits (a parent not chosen yet). */
  enabled?: boolean;
  /**
   * The kind of record a row is, as the server's audit names it (`station` for `station/12`): rows
   * others change are marked for a moment (the live console). Unset: the list still refetches when
   * its resource changes, nothing is marked.
   */
  record?: string;
  /**
   * The summary line over the same filters (no paging, no sort): its endpoint and what it says. The
   * table shows it above the rows, dimmed while new filters load.
   */
  summary?: ListSummary;
}

export interface ListSummary<S extends Endpoint = Endpoint> {
  endpoint: S;
  /** What the line is, said to screen readers (公告统计). */
  label: string;
  render(data: z.output<S['response']>): ReactNode;
}

/** A summary declared with its endpoint, so `render` reads that endpoint's answer. */
export const listSummary = <S extends Endpoint>(endpoint: S, label: string, render: (data: z.output<S['response']>) => ReactNode): ListSummary =>
  ({ endpoint, label, render }) as ListSummary;

/** Why a list asked nothing: the contract's refusal of its filters, and what to do instead. */
export interface ListRefusal {
  message: string;
  hint?: string;
}

const PAGING = new Set(['page', 'size', 'sort']);

/** A list endpoint's columns: `sort` must be one of the fields the endpoint sorts on. */
export type ListColumn<E extends Endpoint> = Column<RowOf<E>, SortFieldOf<E>>;

/**
 * The table state with the filters the list uses (the address's, through `effective`) and a
 * `setFilters` that adjusts a change (`patchFilters`) before writing it.
 */
function useListTable<E extends Endpoint>(decl: ListDecl<E>, fromAddress: TableState<FilterKeyOf<E>>): TableState<FilterKeyOf<E>> {
  const { effective, patchFilters } = decl;
  const key = JSON.stringify(fromAddress.filters);
  // Keyed by the address's filters: defaults (a range ending today) are taken when those change,
  // not at every render; the declaration's functions are new at every render of the page.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const filters = useMemo(() => (effective ? effective(fromAddress.filters) : fromAddress.filters), [key]);
  const adjusts = !!patchFilters;
  return useMemo(() => {
    if (!effective && !adjusts) return fromAddress;
    const query: Record<string, string | number> = {};
    for (const [k, v] of Object.entries<string>(filters)) if (v) query[k] = v;
    query.page = fromAddress.page;
    query.size = fromAddress.size;
    if (fromAddress.sort) query.sort = fromAddress.sort;
    const setFilters = patchFilters ? (patch: Partial<FilterValues<E>>) => fromAddress.setFilters(patchFilters(patch, filters)) : fromAddress.setFilters;
    return { ...fromAddress, filters, query, setFilters };
    // Whether there are functions is the declaration's, fixed; their identity changes every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fromAddress, filters, adjusts]);
}

/**
 * A list screen's data from its declaration: filters, sort and paging in the address, the call
 * (query, or the body of a body form), and the filter bar's fields. Paging and sort travel only to
 * an endpoint that takes them.
 */
export function useResourceList<E extends Endpoint>(decl: ListDecl<E>) {
  const { endpoint } = decl;
  const fromAddress = useTableState<FilterKeyOf<E>>({
    filters: [...(Object.keys(decl.filters) as FilterKeyOf<E>[]), ...(decl.linkFilters ?? [])],
    schema: decl.schema ?? listSchema(endpoint),
    privateFilters: decl.privateFilters,
    keepOutOfAddress: decl.keepOutOfAddress,
  });
  const table = useListTable(decl, fromAddress);
  // The filters alone: what the summary, the guard and the page's exports read.
  const filterQuery = useFilterQuery(table.filters);
  const refused = decl.guard ? refusalOf(decl.guard.schema, filterQuery) : null;
  const refusal: ListRefusal | null = refused ? { message: refused, hint: decl.guard?.hint?.(table.filters) } : null;
  const paged = 'page' in shapeOf(listSchema(endpoint));
  const values = { ...(paged ? table.query : filterQuery), ...decl.fixed };
  const input: CallInput = endpoint.bodyFormOf ? { body: values, params: decl.params } : { query: values, params: decl.params };
  const asking = decl.enabled !== false && !refusal;
  // The whole answer, typed: a list's extras beside its rows (线路列表's version) are the screen's to show.
  const result = useApi(endpoint, asking ? input : null) as SWRResponse<z.output<E['response']>>;
  // A refused list shows no rows, not the last answer SWR keeps.
  const data = refusal ? undefined : (result.data as { content?: RowOf<E>[] } | RowOf<E>[] | undefined);
  const rows: RowOf<E>[] = Array.isArray(data) ? data : (data?.content ?? []);
  const summary = useSummary(decl.summary ?? null, endpoint, asking ? { ...filterQuery, ...decl.fixed } : null);
  // Open, the list follows changes of its resource (refetched within 2 s, lib/live-changes.ts).
  useLiveChanges();
  return { endpoint, table, result, rows, summary, refusal, filterQuery, filters: filterDefs(endpoint, decl.filters), record: decl.record };
}

function useSummary(s: ListSummary | null, list: Endpoint, values: Record<string, unknown> | null) {
  const filters = values && Object.fromEntries(Object.entries(values).filter(([k]) => !PAGING.has(k)));
  const input: CallInput | null = !s || !filters ? null : s.endpoint.bodyFormOf ? { body: filters } : { query: filters };
  // Without a summary the hook still runs (hooks run in a fixed order), asking nothing.
  const answer = useApi(s?.endpoint ?? list, input);
  if (!s || !input || !answer.data) return null;
  return { label: s.label, content: s.render(answer.data), stale: !!answer.isValidating };
}

export type ResourceListState<E extends Endpoint> = ReturnType<typeof useResourceList<E>>;

type TableProps<R> = Parameters<typeof DataTable<R, string>>[0];

/** What a refused list shows: nothing asked, nothing loading. */
const NOTHING: TableResult<never> = { data: undefined, error: undefined, isLoading: false, mutate: () => undefined };

interface ResourceTableProps<E extends Endpoint> extends Omit<TableProps<RowOf<E>>, 'columns' | 'result' | 'state' | 'filters'> {
  list: ResourceListState<E>;
  columns: readonly ListColumn<E>[];
  /** Row actions: the 操作 column, hotkeys, Enter, the bulk bar and the confirmation. */
  actions?: RowActions<RowOf<E>>;
  /** Rendered after the table: the page's own dialogs. */
  children?: ReactNode;
}

/** DataTable over a declared list, with its row actions wired everywhere they appear. */
export function ResourceTable<E extends Endpoint>({ list, columns, actions, children, ...rest }: ResourceTableProps<E>) {
  const withActions: Column<RowOf<E>>[] =
    actions?.any ? [...columns, { id: 'actions', header: '操作', fixed: true, pinEnd: true, cell: (row) => actions.buttons(row) }] : [...columns];
  const bulk = actions?.bulk;
  const { summary, refusal } = list;
  const changed = useChangedRows(list.record);
  return (
    <>
      <DataTable<RowOf<E>, FilterKeyOf<E>>
        {...rest}
        changed={changed}
        columns={withActions}
        result={refusal ? NOTHING : (list.result as TableProps<RowOf<E>>['result'])}
        state={list.table}
        // A list whose filters are the page's own form (乘车统计) has no bar here.
        filters={list.filters.length ? list.filters : undefined}
        onRowActivate={rest.onRowActivate ?? actions?.primary}
        activateHint={rest.activateHint ?? actions?.primaryHint}
        onRowLetter={actions ? (key, row) => actions.onRowKey(key, row) : undefined}
        selection={rest.selection ?? (bulk ? { actions: bulk } : undefined)}
        summary={rest.summary ?? summary}
        refusal={
          refusal && (
            <>
              {refusal.message}
              {refusal.hint && <span className="text-orange-900">{refusal.hint}</span>}
            </>
          )
        }
        emptyText={refusal ? '请修改查询条件' : rest.emptyText}
      />
      {actions?.dialog}
      {children}
    </>
  );
}
