import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { Page } from '../../../shared/api';
import type { TableState } from '../table-state';
import type { RowKey } from './use-selection';

interface CursorOptions<T> {
  rows: readonly T[];
  rowKey(row: T): RowKey;
  page: Page<T> | null;
  state: TableState<string> | undefined;
  onCurrentRow: ((row: T | null) => void) | undefined;
  cursorKey: RowKey | null | undefined;
}

export interface RowCursor {
  rowRefs: RefObject<(HTMLTableRowElement | null)[]>;
  /** The current row's index, kept inside the page shown. */
  current: number;
  setCursor(i: number): void;
  /** Moves the cursor and the focus to row i; false when there is no such row. */
  focusRow(i: number): boolean;
  turnPage(to: number): void;
}

/**
 * The current row: one tab stop per table (roving tabindex), told to `onCurrentRow`, moved by
 * `cursorKey`, and kept under the keyboard's focus when a page is turned from the rows.
 */
export function useRowCursor<T>({ rows, rowKey, page, state, onCurrentRow, cursorKey }: CursorOptions<T>): RowCursor {
  const rowRefs = useRef<(HTMLTableRowElement | null)[]>([]);
  const [cursor, setCursor] = useState(0);
  const current = Math.min(cursor, Math.max(0, rows.length - 1));

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

  return { rowRefs, current, setCursor, focusRow, turnPage };
}
