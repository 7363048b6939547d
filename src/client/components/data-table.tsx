import { type KeyboardEvent as ReactKeyboardEvent, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import type { Page } from '../../shared/api';
import { useScreenLocation } from '../lib/screen-context';
import { ApiError } from '../lib/errors';
import { MAIN_ID } from '../lib/focus';
import { Button } from './button';
import { ColumnMenu, useHiddenColumns } from './column-menu';
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
}

const isPage = <T,>(d: Page<T> | readonly T[] | undefined): d is Page<T> => !!d && !Array.isArray(d);

const EDITABLE = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';

const nextSort = (current: string | undefined, field: string): string | undefined => {
  if (current === `${field},asc`) return `${field},desc`;
  if (current === `${field},desc`) return undefined;
  return `${field},asc`;
};

/**
 * Server-paged table, keyboard first: j/k or ↓/↑ move between rows (one tab stop, roving
 * tabindex), Enter opens the row, PgUp/PgDn turn pages, `/` jumps to the first filter and
 * ↓ or Esc in a filter returns to the rows.
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
  onRowActivate,
  activateHint,
  emptyText = '暂无数据',
  selection,
  onCurrentRow,
  cursorKey,
  onRowLetter,
}: DataTableProps<T, K>) {
  const { active } = useScreenLocation();
  const rootRef = useRef<HTMLDivElement>(null);
  const rowRefs = useRef<(HTMLTableRowElement | null)[]>([]);
  const [cursor, setCursor] = useState(0);
  const [hidden, toggleColumn] = useHiddenColumns(id, columns);

  const { data, isLoading, isValidating } = result;
  // An ended session is the session notice's to tell (one notice, spec §8): the table says nothing of it.
  const error = result.error instanceof ApiError && result.error.code === 401 ? undefined : result.error;
  const rows: readonly T[] = isPage(data) ? data.content : (data ?? []);
  const page = isPage(data) ? data : null;
  // Read by the document-level key listener without re-binding it on every render.
  const latest = useRef({ rows, onRowActivate });
  latest.current = { rows, onRowActivate };
  const visible = columns.filter((c) => c.fixed || !hidden.has(c.id));
  const offset = page ? page.number * page.size : 0;
  const current = Math.min(cursor, Math.max(0, rows.length - 1));
  const [picked, setPicked] = useState<ReadonlySet<string | number>>(new Set());
  const selectedRows = selection ? rows.filter((r) => picked.has(rowKey(r))) : [];
  const clearSelection = useCallback(() => setPicked(new Set()), []);
  const pick = (keys: (string | number)[], on: boolean) =>
    setPicked((prev) => {
      const next = new Set(prev);
      for (const k of keys) if (on) next.add(k); else next.delete(k);
      return next;
    });
  // Another page (or filter) is other rows: what was picked on the last one is not carried over.
  useEffect(clearSelection, [data, clearSelection]);

  const currentRow = rows[current] ?? null;
  const currentKey = currentRow === null ? null : rowKey(currentRow);
  const tellCurrent = useRef(onCurrentRow);
  tellCurrent.current = onCurrentRow;
  useEffect(() => tellCurrent.current?.(currentRow), [currentKey]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (cursorKey === undefined || cursorKey === null) return;
    const i = rows.findIndex((r) => rowKey(r) === cursorKey);
    if (i >= 0) {
      setCursor(i);
      rowRefs.current[i]?.scrollIntoView({ block: 'nearest' });
    }
  }, [cursorKey]); // eslint-disable-line react-hooks/exhaustive-deps

  // One tab stop per table: the current row and its own buttons; Tab leaves for the pagination.
  useEffect(() => {
    rowRefs.current.forEach((row, i) => {
      row?.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea').forEach((el) => {
        el.tabIndex = i === current ? 0 : -1;
      });
    });
  });

  const refocusAfterTurn = useRef(false);

  const focusRow = useCallback((i: number) => {
    const row = rowRefs.current[i];
    if (!row) return false;
    setCursor(i);
    row.focus();
    row.scrollIntoView({ block: 'nearest' });
    return true;
  }, []);

  const turnPage = (to: number) => {
    if (!state || !page || to < 0 || to >= page.totalPages) return;
    setCursor(0);
    // Turned from the rows by keyboard: keep the focus in the table once the new page arrives.
    if (rowRefs.current.some((r) => r === document.activeElement)) refocusAfterTurn.current = true;
    state.setPage(to);
  };

  useEffect(() => {
    if (refocusAfterTurn.current && rows.length) {
      refocusAfterTurn.current = false;
      focusRow(0);
    }
  }, [page?.number, rows.length, focusRow]);

  const onRowKey = (e: ReactKeyboardEvent<HTMLTableRowElement>, i: number, row: T) => {
    // Keys typed into a row's own buttons and links are theirs.
    if (e.target !== e.currentTarget || e.ctrlKey || e.metaKey || e.altKey) return;
    if (onRowLetter && e.key.length === 1 && !e.shiftKey && onRowLetter(e.key, row)) {
      e.preventDefault();
      return;
    }
    const moves: Record<string, number> = { j: i + 1, ArrowDown: i + 1, k: i - 1, ArrowUp: i - 1, Home: 0, End: rows.length - 1 };
    const to = moves[e.key.length === 1 ? e.key.toLowerCase() : e.key];
    if (selection && (e.key === ' ' || e.key === 'x')) {
      e.preventDefault();
      pick([rowKey(row)], !picked.has(rowKey(row)));
    } else if (selection && e.shiftKey && to !== undefined && ['j', 'k', 'ArrowDown', 'ArrowUp'].includes(e.key.length === 1 ? e.key.toLowerCase() : e.key)) {
      // Extending: the row left and the row reached both join the selection.
      e.preventDefault();
      const target = rows[Math.max(0, Math.min(rows.length - 1, to))];
      pick(target ? [rowKey(row), rowKey(target)] : [rowKey(row)], true);
      focusRow(Math.max(0, Math.min(rows.length - 1, to)));
    } else if (selection && e.key === 'Escape' && picked.size) {
      e.preventDefault();
      clearSelection();
    } else if (to !== undefined) {
      e.preventDefault();
      focusRow(Math.max(0, Math.min(rows.length - 1, to)));
    } else if (e.key === 'Enter' && onRowActivate) {
      e.preventDefault();
      onRowActivate(row);
    } else if (e.key === 'PageDown' || e.key === 'PageUp') {
      e.preventDefault();
      if (page) turnPage(page.number + (e.key === 'PageDown' ? 1 : -1));
    }
  };

  const onFilterKey = (e: ReactKeyboardEvent) => {
    const t = e.target as HTMLElement;
    const leave = e.key === 'Escape' || (e.key === 'ArrowDown' && t instanceof HTMLInputElement && t.type === 'search');
    if (leave && rows.length) {
      e.preventDefault();
      focusRow(current);
    }
  };

  // `/` from anywhere on the screen, and j/k when nothing has focus yet, as in a mail client.
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      const t = e.target instanceof HTMLElement ? e.target : null;
      if (t?.closest(EDITABLE) || t?.closest('[role="dialog"]')) return;
      const root = rootRef.current;
      // A cached screen behind another tab is display:none: it has no offset parent.
      if (!root || root.offsetParent === null) return;
      if (e.key === '/') {
        const first = root.querySelector<HTMLElement>('[data-filter]');
        if (first) {
          e.preventDefault();
          first.focus();
        }
      } else if (!t || t === document.body || t.id === MAIN_ID) {
        // Focus rests on the main region after every navigation: the keys work from there at once.
        if ((e.key === 'j' || e.key === 'k') && focusRow(current)) e.preventDefault();
        else if (e.key === 'Enter') {
          const row = latest.current.rows[current];
          const activate = latest.current.onRowActivate;
          if (row && activate && focusRow(current)) {
            e.preventDefault();
            activate(row);
          }
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [active, current, focusRow]);

  const colSpan = visible.length + (selection ? 1 : 0);
  let body: ReactNode;
  if (!data && isLoading) {
    body = (
      <tr>
        <td colSpan={colSpan} className="px-3 py-10 text-center text-gray-500" role="status">
          加载中…
        </td>
      </tr>
    );
  } else if (!data && error) {
    body = (
      <tr>
        <td colSpan={colSpan} className="px-3 py-10 text-center" role="alert">
          <p className="mb-3 text-red-600">加载失败：{error instanceof Error ? error.message : '请求出错'}</p>
          <Button onClick={() => void result.mutate()}>重试</Button>
        </td>
      </tr>
    );
  } else if (!rows.length) {
    body = (
      <tr>
        <td colSpan={colSpan} className="px-3 py-10 text-center text-gray-500">
          {emptyText}
        </td>
      </tr>
    );
  } else {
    body = rows.map((row, i) => (
      <tr
        key={rowKey(row)}
        ref={(el) => {
          rowRefs.current[i] = el;
        }}
        aria-rowindex={offset + i + 2}
        aria-selected={selection ? picked.has(rowKey(row)) : undefined}
        aria-description={typeof activateHint === 'function' ? activateHint(row) : activateHint}
        tabIndex={i === current ? 0 : -1}
        onFocus={(e) => {
          if (e.target === e.currentTarget) setCursor(i);
        }}
        onKeyDown={(e) => onRowKey(e, i, row)}
        onDoubleClick={onRowActivate ? () => onRowActivate(row) : undefined}
        className={`border-t border-gray-100 hover:bg-gray-50 focus-visible:bg-[#ecf5ff] focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-[var(--theme)] ${selection && picked.has(rowKey(row)) ? 'bg-[#ecf5ff]' : ''} ${cursorKey != null && rowKey(row) === cursorKey ? 'bg-amber-50' : ''}`}
      >
        {selection && (
          <td className="w-8 px-3 py-2">
            <input type="checkbox" aria-label={`选择第 ${offset + i + 1} 行`} checked={picked.has(rowKey(row))} onChange={(e) => pick([rowKey(row)], e.target.checked)} />
          </td>
        )}
        {visible.map((c) => (
          <td key={c.id} className={`px-3 py-2 [&_button]:py-0.5 ${c.align === 'right' ? 'text-right tabular-nums' : ''} ${c.className ?? ''}`}>
            {c.cell(row)}
          </td>
        ))}
      </tr>
    ));
  }

  return (
    <div ref={rootRef} className="flex min-w-0 flex-col gap-3 rounded bg-white p-3 shadow-sm sm:p-4">
      {filters && state && (
        <div onKeyDown={onFilterKey}>
          <FilterBar fields={filters} values={state.filters} onApply={state.setFilters} onReset={state.reset} />
        </div>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <div className="flex flex-1 flex-wrap items-center gap-2">{toolbar}</div>
        <Button className="h-8" onClick={() => void result.mutate()} disabled={isValidating} title="重新加载">
          {isValidating && data ? '刷新中…' : '刷新'}
        </Button>
        <ColumnMenu columns={columns} hidden={hidden} onToggle={toggleColumn} />
      </div>
      {selection && selectedRows.length > 0 && (
        <div role="region" aria-label="批量操作" className="flex flex-wrap items-center gap-2 rounded border border-[var(--theme)]/30 bg-[#ecf5ff] px-3 py-2 text-sm">
          <span aria-live="polite">已选 {selectedRows.length} 项</span>
          {selection.actions(selectedRows, clearSelection)}
          <Button className="h-7" onClick={clearSelection} hotkey="Esc">
            取消选择
          </Button>
        </div>
      )}
      {error && data ? (
        <p role="alert" className="flex items-center gap-3 rounded border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
          刷新失败：{error instanceof Error ? error.message : '请求出错'}
          <Button className="h-7" onClick={() => void result.mutate()}>
            重试
          </Button>
        </p>
      ) : null}
      <div className="min-w-0 overflow-x-auto">
        <table
          aria-label={label}
          aria-rowcount={page ? page.totalElements + 1 : rows.length + 1}
          aria-busy={isValidating || isLoading || undefined}
          className={`w-full whitespace-nowrap text-left text-sm text-gray-700 transition-opacity ${isValidating && data ? 'opacity-60' : ''}`}
        >
          <thead className="bg-gray-50 text-gray-500">
            <tr aria-rowindex={1}>
              {selection && (
                <th scope="col" className="w-8 px-3 py-2">
                  <input
                    type="checkbox"
                    aria-label="选择本页全部行"
                    checked={rows.length > 0 && selectedRows.length === rows.length}
                    onChange={(e) => pick(rows.map(rowKey), e.target.checked)}
                  />
                </th>
              )}
              {visible.map((c) => {
                const dir = c.sort && state?.sort?.startsWith(`${c.sort},`) ? (state.sort.endsWith(',asc') ? 'ascending' : 'descending') : undefined;
                return (
                  <th
                    key={c.id}
                    scope="col"
                    aria-sort={c.sort ? (dir ?? 'none') : undefined}
                    className={`px-3 py-2 font-medium ${c.align === 'right' ? 'text-right' : ''}`}
                  >
                    {c.sort && state ? (
                      <button
                        type="button"
                        onClick={() => state.setSort(nextSort(state.sort, c.sort ?? ''))}
                        title={`按${c.header}排序`}
                        className="inline-flex items-center gap-1 rounded hover:text-[var(--theme-strong)] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-[var(--theme)]"
                      >
                        {c.header}
                        <span aria-hidden="true" className={`text-[10px] ${dir ? 'text-[var(--theme-strong)]' : 'text-gray-300'}`}>
                          {dir === 'ascending' ? '▲' : dir === 'descending' ? '▼' : '▲▼'}
                        </span>
                      </button>
                    ) : (
                      c.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>{body}</tbody>
        </table>
      </div>
      {page && state && (
        <Pagination
          page={page.number}
          size={state.size}
          total={page.totalElements}
          totalPages={page.totalPages}
          onPage={turnPage}
          onSize={state.setSize}
        />
      )}
      {rows.length > 0 && (
        <p className="hidden text-xs text-gray-500 lg:block" aria-hidden="true">
          j/k 或 ↑/↓ 选择行{onRowActivate ? '，Enter 打开' : ''}
          {selection ? '，空格或 x 勾选，Shift+j/k 连选' : ''}
          {page ? '，PgUp/PgDn 翻页' : ''}
          {filters ? '，/ 搜索' : ''}
        </p>
      )}
    </div>
  );
}
