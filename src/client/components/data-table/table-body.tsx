import type { KeyboardEvent as ReactKeyboardEvent, ReactNode } from 'react';
import { Button } from '../button';
import type { Column } from '../data-table';
import { PIN_END } from './pin-end';
import type { RowCursor } from './use-row-cursor';
import type { RowKey, Selection } from './use-selection';

interface TableBodyProps<T> {
  /** Loading, failed or empty before any row came: one full-width cell says so. */
  status: 'loading' | 'failed' | 'empty' | 'rows';
  error: unknown;
  retry(): void;
  emptyText: string;
  colSpan: number;
  rows: readonly T[];
  rowKey(row: T): RowKey;
  visible: readonly Column<T>[];
  /** Index of the page's first row among all the list's rows. */
  offset: number;
  cursor: RowCursor;
  selection: Selection<T>;
  cursorKey: RowKey | null | undefined;
  /** Rows others changed a moment ago (the live console), by key as a string. */
  changed: ReadonlyMap<string, unknown> | undefined;
  activateHint: string | ((row: T) => string | undefined) | undefined;
  onRowActivate: ((row: T) => void) | undefined;
  onRowKey(e: ReactKeyboardEvent<HTMLTableRowElement>, i: number, row: T): void;
}

export function TableBody<T>(p: TableBodyProps<T>) {
  const { status, colSpan } = p;
  if (status === 'loading') return <StateRow colSpan={colSpan} className="text-gray-500" role="status">加载中…</StateRow>;
  if (status === 'failed')
    return (
      <StateRow colSpan={colSpan} role="alert">
        <p className="mb-3 text-red-600">加载失败：{p.error instanceof Error ? p.error.message : '请求出错'}</p>
        <Button onClick={p.retry}>重试</Button>
      </StateRow>
    );
  if (status === 'empty') return <StateRow colSpan={colSpan} className="text-gray-500">{p.emptyText}</StateRow>;
  return (
    <tbody>
      {p.rows.map((row, i) => (
        <BodyRow key={p.rowKey(row)} {...p} row={row} i={i} />
      ))}
    </tbody>
  );
}

function StateRow({ colSpan, className = '', role, children }: { colSpan: number; className?: string; role?: 'status' | 'alert'; children: ReactNode }) {
  return (
    <tbody>
      <tr>
        <td colSpan={colSpan} className={`px-3 py-10 text-center ${className}`.trimEnd()} role={role}>
          {children}
        </td>
      </tr>
    </tbody>
  );
}

function BodyRow<T>({ row, i, rowKey, offset, visible, cursor, selection, cursorKey, changed, activateHint, onRowActivate, onRowKey }: TableBodyProps<T> & { row: T; i: number }) {
  const key = rowKey(row);
  const picked = selection.isPicked(key);
  const isChanged = !!changed?.has(String(key));
  const stateBg = cursorKey != null && key === cursorKey ? 'bg-amber-50' : picked ? 'bg-[#ecf5ff]' : isChanged ? 'bg-yellow-100' : '';
  return (
    <tr
      ref={(el) => {
        cursor.rowRefs.current[i] = el;
      }}
      aria-rowindex={offset + i + 2}
      aria-selected={selection.enabled ? picked : undefined}
      aria-description={typeof activateHint === 'function' ? activateHint(row) : activateHint}
      tabIndex={i === cursor.current ? 0 : -1}
      onFocus={(e) => {
        if (e.target === e.currentTarget) cursor.setCursor(i);
      }}
      onKeyDown={(e) => onRowKey(e, i, row)}
      onDoubleClick={onRowActivate ? () => onRowActivate(row) : undefined}
      data-changed={isChanged || undefined}
      className={`group border-t border-gray-100 transition-colors duration-700 hover:bg-gray-50 ${stateBg} focus-visible:bg-[#ecf5ff] focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-[var(--theme)]`}
    >
      {selection.enabled && (
        <td className="w-8 px-3 py-2">
          <input type="checkbox" aria-label={`选择第 ${offset + i + 1} 行`} checked={picked} onChange={(e) => selection.pick([key], e.target.checked)} />
        </td>
      )}
      {visible.map((c) => (
        <td key={c.id} className={`px-3 py-2 [&_button]:py-0.5 ${c.align === 'right' ? 'text-right tabular-nums' : ''} ${c.pinEnd ? `${PIN_END} ${stateBg || 'bg-white'} group-hover:bg-gray-50 group-focus-visible:bg-[#ecf5ff]` : ''} ${c.className ?? ''}`}>
          {c.cell(row)}
        </td>
      ))}
    </tr>
  );
}
