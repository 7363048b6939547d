import { useEffect, useRef } from 'react';
import { isEditable } from '../../lib/focus';

/** Longer pastes are not a number or a name: a note, a list, something meant for a field. */
const PASTE_MAX = 64;

/**
 * Record-first (issue 21): a digit typed, or a text pasted, where no field takes it (a page, a
 * table's row) opens the palette with it, so a card or order number needs no Ctrl+K first. Letters
 * stay the hotkeys' (j, k, g…).
 */
export function useTypeToSearch(enabled: boolean, openWith: (text: string) => void): void {
  const open = useRef(openWith);
  open.current = openWith;
  useEffect(() => {
    if (!enabled) return;
    const free = (target: EventTarget | null) => !isEditable(target) && !(target instanceof Element && target.closest('[role="dialog"], [role="alertdialog"]'));
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing || e.ctrlKey || e.metaKey || e.altKey || !/^[0-9]$/.test(e.key) || !free(e.target)) return;
      e.preventDefault();
      open.current(e.key);
    };
    const onPaste = (e: ClipboardEvent) => {
      const text = e.clipboardData?.getData('text/plain').trim() ?? '';
      if (e.defaultPrevented || !text || text.length > PASTE_MAX || /[\r\n]/.test(text) || !free(e.target)) return;
      e.preventDefault();
      open.current(text);
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('paste', onPaste);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('paste', onPaste);
    };
  }, [enabled]);
}
