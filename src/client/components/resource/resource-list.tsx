import type { ReactNode } from 'react';
import type { SWRResponse } from 'swr';
import type { z } from 'zod';
import type { Endpoint } from '../../../shared/api';
import type { FilterKeyOf, ListInput, RowOf, SortFieldOf } from '../../../shared/frame/list';
import type { CallInput } from '../../lib/http';
import { useApi } from '../../lib/use-api';
import { type Column, DataTable } from '../data-table';
import { useTableState } from '../table-state';
import { type FilterSpec, filterDefs, listSchema } from './list-filters';
import type { RowActions } from './row-actions';

export interface ListDecl<E extends Endpoint> {
  endpoint: E;
  /** The filters shown, in order, by the endpoint's own names. */
  filters: FilterSpec<E>;
  /** Filters a link sets (`?versionId=`) with no field in the bar: read from and kept in the address. */
  linkFilters?: readonly FilterKeyOf<E>[];
  /** Personal data (a phone, a citizen id): kept in memory, never in the address (useTableState). */
  privateFilters?: readonly FilterKeyOf<E>[];
  keepOutOfAddress?(key: FilterKeyOf<E>, value: string): boolean;
  /** Input that is not the user's to change: a parent's id, a path parameter. */
  fixed?: Partial<ListInput<E>>;
  params?: CallInput['params'];
  /** False waits (a parent not chosen yet). */
  enabled?: boolean;
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

const PAGING = new Set(['page', 'size', 'sort']);

/** A list endpoint's columns: `sort` must be one of the fields the endpoint sorts on. */
export type ListColumn<E extends Endpoint> = Column<RowOf<E>, SortFieldOf<E>>;

/**
 * A list screen's data from its declaration: filters, sort and paging in the address, the call
 * (query, or the body of a body form), and the filter bar's fields.
 */
export function useResourceList<E extends Endpoint>(decl: ListDecl<E>) {
  const { endpoint } = decl;
  const table = useTableState<FilterKeyOf<E>>({
    filters: [...(Object.keys(decl.filters) as FilterKeyOf<E>[]), ...(decl.linkFilters ?? [])],
    schema: listSchema(endpoint),
    privateFilters: decl.privateFilters,
    keepOutOfAddress: decl.keepOutOfAddress,
  });
  const values = { ...table.query, ...decl.fixed };
  const input: CallInput = endpoint.bodyFormOf ? { body: values, params: decl.params } : { query: values, params: decl.params };
  // The whole answer, typed: a list's extras beside its rows (线路列表's version) are the screen's to show.
  const result = useApi(endpoint, decl.enabled === false ? null : input) as SWRResponse<z.output<E['response']>>;
  const data = result.data as { content?: RowOf<E>[] } | RowOf<E>[] | undefined;
  const rows: RowOf<E>[] = Array.isArray(data) ? data : (data?.content ?? []);
  const summary = useSummary(decl, values);
  return { endpoint, table, result, rows, summary, filters: filterDefs(endpoint, decl.filters) };
}

function useSummary<E extends Endpoint>(decl: ListDecl<E>, values: Record<string, unknown>) {
  const s = decl.summary;
  const filters = Object.fromEntries(Object.entries(values).filter(([k]) => !PAGING.has(k)));
  const input: CallInput | null = !s || decl.enabled === false ? null : s.endpoint.bodyFormOf ? { body: filters } : { query: filters };
  const answer = useApi(s?.endpoint ?? (decl.endpoint as Endpoint), input);
  if (!s || !answer.data) return null;
  return { label: s.label, content: s.render(answer.data), stale: !!answer.isValidating };
}

export type ResourceListState<E extends Endpoint> = ReturnType<typeof useResourceList<E>>;

type TableProps<R> = Parameters<typeof DataTable<R, string>>[0];

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
    actions?.any ? [...columns, { id: 'actions', header: '操作', fixed: true, cell: (row) => actions.buttons(row) }] : [...columns];
  const bulk = actions?.bulk;
  const { summary } = list;
  return (
    <>
      <DataTable<RowOf<E>, FilterKeyOf<E>>
        {...rest}
        columns={withActions}
        result={list.result as TableProps<RowOf<E>>['result']}
        state={list.table}
        filters={list.filters}
        onRowActivate={rest.onRowActivate ?? actions?.primary}
        activateHint={rest.activateHint ?? actions?.primaryHint}
        onRowLetter={actions ? (key, row) => actions.onRowKey(key, row) : undefined}
        selection={rest.selection ?? (bulk ? { actions: bulk } : undefined)}
        summary={rest.summary ?? summary}
      />
      {actions?.dialog}
      {children}
    </>
  );
}
