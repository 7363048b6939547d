import { useEffect, useRef } from 'react';
import { isEditable } from '../../lib/focus';

/** Longer pastes are not a number or a name: a note, a list, something meant for a field. */
const PASTE_MAX = 64;

/**
 * What starts a typed record where no field takes it: a digit (a card, a phone, a date) or a capital
 * letter (an order number, DC2026…, typed as it is printed). Lower-case letters stay the hotkeys'
 * (j, k, g…); Shift+J and Shift+K are the tables' range selection. index.html's early listener uses
 * the same rule before this code has arrived.
 */
export const STARTS_RECORD = /^(?:[0-9]|[A-IL-Z])$/;

/** Caps Lock on makes every hotkey letter a capital: those stay the hotkeys' (`g u`, `j`). */
const capsLocked = (e: KeyboardEvent) => /^[A-Z]$/.test(e.key) && !!e.getModifierState?.('CapsLock');

/**
 * Record-first (issue 21): a digit or a capital typed, or a text pasted, where no field takes it (a
 * page, a table's row) opens the palette with it, so a card or order number needs no Ctrl+K first.
 */
export function useTypeToSearch(enabled: boolean, openWith: (text: string) => void): void {
  const open = useRef(openWith);
  open.current = openWith;
  useEffect(() => {
    if (!enabled) return;
    const free = (target: EventTarget | null) => !isEditable(target) && !(target instanceof Element && target.closest('[role="dialog"], [role="alertdialog"]'));
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing || e.ctrlKey || e.metaKey || e.altKey || !STARTS_RECORD.test(e.key) || capsLocked(e) || !free(e.target)) return;
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
