import { type ReactNode, useRef } from 'react';
import type { Page } from '../../shared/api';
import { useScreenLocation } from '../lib/screen-context';
import { ApiError } from '../lib/errors';
import type { ChangeMark } from '../lib/live-changes';
import { useHiddenColumns } from './column-menu';
import { BulkBar, KeyHints, RefreshFailed, TableToolbar } from './data-table/table-bars';
import { TableBody } from './data-table/table-body';
import { TableHead } from './data-table/table-head';
import { useRowCursor } from './data-table/use-row-cursor';
import { useSelection } from './data-table/use-selection';
import { useTableKeys } from './data-table/use-table-keys';
import { type FilterDef, FilterBar } from './filter-bar';
import { Pagination } from './pagination';
import type { TableState } from './table-state';

export interface Column<T, S extends string = string> {
  id: string;
  header: string;
  cell(row: T): ReactNode;
  /** The server's sort field (typed from the list endpoint's schema on resource lists); the header becomes a sort button. */
  sort?: S;
  /** Always shown: the column menu cannot hide it. */
  fixed?: boolean;
  hiddenByDefault?: boolean;
  /** Extra classes for the cells, e.g. a maximum width with truncation. */
  className?: string;
  align?: 'left' | 'right';
  /** Stays in view at the table's right edge while a wide table scrolls (the row actions). */
  pinEnd?: boolean;
}

/** What an SWR hook returns, narrowed to what the table reads. */
export interface TableResult<T> {
  data?: Page<T> | readonly T[];
  error?: unknown;
  isLoading: boolean;
  isValidating?: boolean;
  mutate(): unknown;
}

interface DataTableProps<T, K extends string> {
  /** Names the stored column choice; unique per table. */
  id: string;
  label: string;
  columns: readonly Column<T>[];
  rowKey(row: T): string | number;
  result: TableResult<T>;
  /** Filters, sort and paging in the URL; without it the table only lists. */
  state?: TableState<K>;
  filters?: readonly FilterDef<K>[];
  /** Buttons left of the column menu (新增 …). */
  toolbar?: ReactNode;
  /** A line over the rows saying what the filters select (counts, sums); dimmed while it reloads. */
  summary?: { label: string; content: ReactNode; stale: boolean } | null;
  /** Why no rows were asked for (filters the server would refuse): an alert in the summary's place. */
  refusal?: ReactNode;
  /** Enter (and a double click) on a row. */
  onRowActivate?(row: T): void;
  /** Said to screen readers on each row, e.g. "按 Enter 编辑"; per row when only some open. */
  activateHint?: string | ((row: T) => string | undefined);
  emptyText?: string;
  /**
   * Rows can be selected for bulk actions (merging stations, …): Space or x toggles the current
   * row, Shift+j/k (Shift+↓/↑) extends the selection, Esc clears it; a bar shows the count and the
   * actions. The selection belongs to the page shown and clears when it changes.
   */
  selection?: { actions(selected: readonly T[], clear: () => void): ReactNode };
  /** Told the current row whenever it changes (a map beside the table follows it). */
  onCurrentRow?(row: T | null): void;
  /** Moves the current row to the row with this key when it changes (picked on that map). */
  cursorKey?: string | number | null;
  /** A letter pressed on the focused row (a row action's hotkey): true when it was taken. */
  onRowLetter?(key: string, row: T): boolean;
  /** Rows others changed a moment ago, by key (as a string): marked, and said politely once. */
  changed?: ReadonlyMap<string, ChangeMark>;
}

/**
 * Said once to screen readers, politely, while rows others changed are marked: which row and who,
 * or how many; nothing when the marks fade (an empty region says nothing).
 */
function ChangedNote<T>({ rows, rowKey, changed, offset }: { rows: readonly T[]; rowKey(row: T): string | number; changed?: ReadonlyMap<string, ChangeMark>; offset: number }) {
  const hits = changed?.size ? rows.flatMap((r, i) => { const m = changed.get(String(rowKey(r))); return m ? [{ i, m }] : []; }) : [];
  const first = hits[0];
  const note = !first ? '' : hits.length === 1 ? `第 ${offset + first.i + 1} 行刚被${first.m.by ? ` ${first.m.by} ` : '他人'}修改` : `${hits.length} 行刚被他人修改`;
  return (
    <div aria-live="polite" className="sr-only">
      {note}
    </div>
  );
}

const isPage = <T,>(d: Page<T> | readonly T[] | undefined): d is Page<T> => !!d && !Array.isArray(d);

/**
 * Server-paged table, keyboard first: j/k or ↓/↑ move between rows (one tab stop, roving
 * tabindex), Enter opens the row, PgUp/PgDn turn pages, `/` jumps to the first filter and
 * ↓ or Esc in a filter returns to the rows. Its parts: the cursor (`useRowCursor`), the keys
 * (`useTableKeys`), the selection (`useSelection`), the head, the body and the bars.
 */
export function DataTable<T, K extends string = string>({
  id,
  label,
  columns,
  rowKey,
  result,
  state,
  filters,
  toolbar,
  summary,
  refusal,
  onRowActivate,
  activateHint,
  emptyText = '暂无数据',
  selection,
  onCurrentRow,
  cursorKey,
  onRowLetter,
  changed,
}: DataTableProps<T, K>) {
  const { active } = useScreenLocation();
  const rootRef = useRef<HTMLDivElement>(null);
  const [hidden, toggleColumn] = useHiddenColumns(id, columns);

  const { data, isLoading, isValidating } = result;
  // An ended session is the session notice's to tell (one notice, spec §8): the table says nothing of it.
  const error = result.error instanceof ApiError && result.error.code === 401 ? undefined : result.error;
  const rows: readonly T[] = isPage(data) ? data.content : (data ?? []);
  const page = isPage(data) ? data : null;
  const visible = columns.filter((c) => c.fixed || !hidden.has(c.id));
  const retry = () => void result.mutate();

  const picked = useSelection(!!selection, rows, rowKey, data);
  const cursor = useRowCursor({ rows, rowKey, page, state, onCurrentRow, cursorKey });
  const keys = useTableKeys({ active, rootRef, rows, rowKey, page, cursor, selection: picked, onRowActivate, onRowLetter });

  const status = !data && isLoading ? 'loading' : !data && error ? 'failed' : !rows.length ? 'empty' : 'rows';
  return (
    <div ref={rootRef} className="flex min-w-0 flex-col gap-3 rounded bg-white p-3 shadow-sm sm:p-4">
      {filters && state && (
        <div onKeyDown={keys.onFilterKey}>
          <FilterBar fields={filters} values={state.filters} onApply={state.setFilters} onReset={state.reset} />
        </div>
      )}
      {refusal ? (
        <p role="alert" className="rounded border border-orange-200 bg-orange-50 px-3 py-2 text-sm text-orange-800">
          {refusal}
        </p>
      ) : summary && (
        <p role="status" aria-label={summary.label} className={`text-sm text-gray-700 transition-opacity ${summary.stale ? 'opacity-60' : ''}`}>
          {summary.content}
        </p>
      )}
      <TableToolbar toolbar={toolbar} refreshing={!!isValidating} hasData={!!data} refresh={retry} columns={columns} hidden={hidden} onToggleColumn={toggleColumn} />
      {selection && picked.selectedRows.length > 0 && (
        <BulkBar count={picked.selectedRows.length} actions={selection.actions(picked.selectedRows, picked.clear)} clear={picked.clear} />
      )}
      {error && data ? <RefreshFailed error={error} retry={retry} /> : null}
      <div className="min-w-0 overflow-x-auto">
        <table
          aria-label={label}
          aria-rowcount={page ? page.totalElements + 1 : rows.length + 1}
          aria-busy={isValidating || isLoading || undefined}
          className={`w-full whitespace-nowrap text-left text-sm text-gray-700 transition-opacity ${isValidating && data ? 'opacity-60' : ''}`}
        >
          <TableHead visible={visible} state={state} rows={rows} rowKey={rowKey} selection={picked} />
          <TableBody
            status={status}
            error={error}
            retry={retry}
            emptyText={emptyText}
            colSpan={visible.length + (selection ? 1 : 0)}
            rows={rows}
            rowKey={rowKey}
            visible={visible}
            offset={page ? page.number * page.size : 0}
            cursor={cursor}
            selection={picked}
            cursorKey={cursorKey}
            changed={changed}
            activateHint={activateHint}
            onRowActivate={onRowActivate}
            onRowKey={keys.onRowKey}
          />
        </table>
      </div>
      {page && state && (
        <Pagination page={page.number} size={state.size} total={page.totalElements} totalPages={page.totalPages} onPage={cursor.turnPage} onSize={state.setSize} />
      )}
      <ChangedNote rows={rows} rowKey={rowKey} changed={changed} offset={page ? page.number * page.size : 0} />
      {rows.length > 0 && <KeyHints activate={!!onRowActivate} select={!!selection} paged={!!page} filtered={!!filters} />}
    </div>
  );
}
