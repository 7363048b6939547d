/**
 * The type-ahead buffer that index.html's inline script keeps while the console loads: Ctrl/⌘+K
 * and every key after it, so the palette opens with them when the shell mounts (a reload, or the
 * step from the login form to the console). Nothing else is buffered: letters typed without
 * Ctrl+K go where focus is, as usual.
 */
export interface TypeAhead {
  /** Ctrl+K was pressed and not cancelled with Esc. */
  open: boolean;
  /** What was typed after it. */
  text: string;
  /** Enter was pressed after the text: run the top row as soon as results are ready. */
  enter: boolean;
}

declare global {
  interface Window {
    __typeAhead?: TypeAhead & { armed: boolean; draw?(): void };
  }
}

/** While the login form is being filled in, keys are the form's; from submit on, they are buffered. */
export function armTypeAhead(armed: boolean) {
  const t = window.__typeAhead;
  if (!t) return;
  t.armed = armed;
  if (!armed) {
    Object.assign(t, { open: false, text: '', enter: false });
    t.draw?.();
  }
}

/** The stand-in index.html draws for a Ctrl+K typed before the palette's code arrived: gone once the palette (or nothing) answers it. */
export function dropEarlyPalette() {
  document.getElementById('palette-early')?.remove();
}

/** Taken once by the shell: from then on its own hotkeys and palette get the keys. */
export function claimTypeAhead(): TypeAhead | null {
  const t = window.__typeAhead;
  if (!t?.armed) return null;
  t.armed = false;
  const taken = { open: t.open, text: t.text, enter: t.enter };
  Object.assign(t, { open: false, text: '', enter: false });
  return taken.open ? taken : null;
}
