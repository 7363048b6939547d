import type { KeyboardEvent } from 'react';

/** Ctrl+S (⌘S) saves the editor it is pressed in, instead of the browser saving the page. */
export const saveKey = (save: () => void) => (e: KeyboardEvent) => {
  if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
    e.preventDefault();
    save();
  }
};
