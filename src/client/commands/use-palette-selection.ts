import { type RefObject, useEffect, useRef, useState } from 'react';
import type { PaletteItem } from './types';

/** Keys that move the selection in cmdk: only these (and the pointer) make it the user's choice. */
const MOVE_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End']);

export const movesSelection = (e: React.KeyboardEvent) => MOVE_KEYS.has(e.key) || (e.ctrlKey && ['n', 'p', 'j', 'k'].includes(e.key));

/**
 * The highlighted row: it follows the top row until the user moves it (`userMoved`), then stays on
 * that row whatever arrives; it is always scrolled into view and named to screen readers.
 */
export function usePaletteSelection(open: boolean, items: readonly PaletteItem[], listRef: RefObject<HTMLDivElement | null>) {
  const [selected, setSelected] = useState('');
  const userMoved = useRef(false);
  useEffect(() => {
    if (!open) return;
    userMoved.current = false;
    setSelected('');
  }, [open]);

  // Results arriving never move a selection the user chose; an untouched one stays on the top row.
  useEffect(() => {
    const top = items[0]?.key ?? '';
    if (!items.some((i) => i.key === selected) || (!userMoved.current && selected !== top)) setSelected(top);
  }, [items, selected]);

  // The highlighted row is always in view: Enter never runs a row the user cannot see.
  useEffect(() => {
    const list = listRef.current;
    if (!list || !selected) return;
    // cmdk names the active row for screen readers only after its own keyboard moves (a controlled
    // value never updates it), so the input's aria-activedescendant is kept here.
    const row = [...list.querySelectorAll<HTMLElement>('[cmdk-item]')].find((el) => el.getAttribute('data-value') === selected);
    const input = list.closest('[cmdk-root]')?.querySelector('[cmdk-input]');
    if (row?.id) input?.setAttribute('aria-activedescendant', row.id);
    else input?.removeAttribute('aria-activedescendant');
    if (!userMoved.current && selected === items[0]?.key) list.scrollTop = 0;
    else list.querySelector('[cmdk-item][data-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [selected, items, listRef]);

  return { selected, setSelected, userMoved };
}
