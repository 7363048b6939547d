import { type KeyboardEvent as ReactKeyboardEvent, type RefObject, useEffect, useRef } from 'react';
import type { Page } from '../../../shared/api';
import { MAIN_ID, dropEarlyTableKey, takeEarlyTableKey } from '../../lib/focus';
import type { RowCursor } from './use-row-cursor';
import type { RowKey, Selection } from './use-selection';

const EDITABLE = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';

interface KeyOptions<T> {
  /** The screen is the one shown: its document-level keys listen only then. */
  active: boolean;
  rootRef: RefObject<HTMLDivElement | null>;
  rows: readonly T[];
  rowKey(row: T): RowKey;
  page: Page<T> | null;
  cursor: RowCursor;
  selection: Selection<T>;
  onRowActivate: ((row: T) => void) | undefined;
  onRowLetter: ((key: string, row: T) => boolean) | undefined;
}

/**
 * The table's keyboard: j/k or ↓/↑ and Home/End between rows, Enter opens, PgUp/PgDn turn pages,
 * Space/x, Shift+j/k and Esc for the selection, a row action's letter; `/` jumps to the first
 * filter and ↓ or Esc in a filter returns to the rows.
 */
export function useTableKeys<T>({ active, rootRef, rows, rowKey, page, cursor, selection, onRowActivate, onRowLetter }: KeyOptions<T>) {
  const { current, focusRow, turnPage } = cursor;
  const clamp = (i: number) => Math.max(0, Math.min(rows.length - 1, i));

  const onRowKey = (e: ReactKeyboardEvent<HTMLTableRowElement>, i: number, row: T) => {
    // Keys typed into a row's own buttons and links are theirs.
    if (e.target !== e.currentTarget || e.ctrlKey || e.metaKey || e.altKey) return;
    if (onRowLetter && e.key.length === 1 && !e.shiftKey && onRowLetter(e.key, row)) {
      e.preventDefault();
      return;
    }
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const moves: Record<string, number> = { j: i + 1, ArrowDown: i + 1, k: i - 1, ArrowUp: i - 1, Home: 0, End: rows.length - 1 };
    const to = moves[key];
    if (selection.enabled && (e.key === ' ' || e.key === 'x')) {
      e.preventDefault();
      selection.pick([rowKey(row)], !selection.isPicked(rowKey(row)));
    } else if (selection.enabled && e.shiftKey && to !== undefined && ['j', 'k', 'ArrowDown', 'ArrowUp'].includes(key)) {
      // Extending: the row left and the row reached both join the selection.
      e.preventDefault();
      const target = rows[clamp(to)];
      selection.pick(target ? [rowKey(row), rowKey(target)] : [rowKey(row)], true);
      focusRow(clamp(to));
    } else if (selection.enabled && e.key === 'Escape' && selection.count) {
      e.preventDefault();
      selection.clear();
    } else if (to !== undefined) {
      e.preventDefault();
      focusRow(clamp(to));
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

  useScreenKeys({ active, rootRef, rows, current, focusRow, onRowActivate });
  return { onRowKey, onFilterKey };
}

interface ScreenKeyOptions<T> {
  active: boolean;
  rootRef: RefObject<HTMLDivElement | null>;
  rows: readonly T[];
  current: number;
  focusRow(i: number): boolean;
  onRowActivate: ((row: T) => void) | undefined;
}

/** `/` from anywhere on the screen, and j/k (and Enter) when nothing has focus yet, as in a mail client. */
function useScreenKeys<T>({ active, rootRef, rows, current, focusRow, onRowActivate }: ScreenKeyOptions<T>) {
  // Read by the document-level key listener without re-binding it on every render.
  const latest = useRef({ rows, onRowActivate });
  latest.current = { rows, onRowActivate };
  // A j or k typed on the main region before this table could take it (its code or its rows were
  // still coming) is applied once the rows are here.
  useEffect(() => {
    if (active && rows.length && takeEarlyTableKey()) focusRow(current);
  }, [active, rows.length, current, focusRow]);
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
        if ((e.key === 'j' || e.key === 'k') && focusRow(current)) {
          e.preventDefault();
          dropEarlyTableKey();
        } else if (e.key === 'Enter') {
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
  }, [active, current, focusRow, rootRef]);
}
