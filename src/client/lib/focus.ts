/**
 * Where focus rests when nothing else claims it: the page's main region. Screens' keys (j/k, Enter,
 * `/`) work from there, so after a navigation or a closed tab the hands never start from <body>.
 */
export const MAIN_ID = 'main';

const EDITABLE = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';

const mainRegion = () => document.getElementById(MAIN_ID);

/** A field the keys type into (what hotkeys and type-to-search leave alone). */
export const isEditable = (el: EventTarget | null): boolean => el instanceof Element && el.matches(EDITABLE);

/** Focus the main region, unless a dialog holds focus or the screen put it in one of its own fields. */
export function focusMain(): void {
  const main = mainRegion();
  const now = document.activeElement;
  if (!main || now?.closest('[role="dialog"], [role="alertdialog"]')) return;
  if (now && now !== main && main.contains(now) && now.matches(EDITABLE)) return;
  main.focus({ preventScroll: true });
}

/**
 * Whenever the focused element leaves the document (a closed tab, a dismissed banner, a row that
 * was deleted), focus goes to the main region instead of falling to <body>, where Tab starts over
 * from the top of the page. Returns the cleanup.
 */
export function rescueLostFocus(): () => void {
  let last: Element | null = null;
  const onFocusIn = (e: FocusEvent) => {
    last = e.target instanceof Element ? e.target : null;
  };
  const observer = new MutationObserver(() => {
    if (!last || last.isConnected) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    last = null;
    // After the frame: a closing dialog restores focus itself, and that wins when it can.
    setTimeout(() => {
      if (!document.activeElement || document.activeElement === document.body) focusMain();
    }, 0);
  });
  document.addEventListener('focusin', onFocusIn);
  observer.observe(document.body, { childList: true, subtree: true });
  return () => {
    document.removeEventListener('focusin', onFocusIn);
    observer.disconnect();
  };
}

/**
 * Esc in a field of the page (a settings form, a filter) leaves the field for the main region, so
 * the console's keys (`j`, `g u`, `?`) work again instead of being typed. Fields that use Esc
 * themselves (a filter going back to its rows, a form asking before it is left, an open list box)
 * take it first and mark it handled; dialogs keep their own Esc. Returns the cleanup.
 */
export function leaveFieldOnEscape(): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || e.defaultPrevented || e.isComposing) return;
    const t = e.target instanceof HTMLElement ? e.target : null;
    const main = mainRegion();
    if (!t || !main || !main.contains(t) || !t.matches(EDITABLE)) return;
    if (t.closest('[role="dialog"], [role="alertdialog"]') || t.getAttribute('aria-expanded') === 'true') return;
    e.preventDefault();
    main.focus({ preventScroll: true });
  };
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}

/** A j or k pressed on the main region before its table could take it (its code or rows still coming). */
let early: { key: 'j' | 'k'; at: number; path: string } | null = null;
const EARLY_MS = 5_000;

/**
 * Keeps a `j` / `k` typed on the main region that nothing took (the screen's code or its rows were
 * still on the way), for the table to apply once its rows arrive. Any other key lets it go.
 * Returns the cleanup.
 */
export function keepEarlyTableKeys(): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return void (early = null);
    const t = e.target;
    const onMain = !t || t === document.body || (t instanceof HTMLElement && t.id === MAIN_ID);
    early = onMain && (e.key === 'j' || e.key === 'k') ? { key: e.key, at: Date.now(), path: window.location.pathname } : null;
  };
  document.addEventListener('keydown', onKey);
  return () => {
    document.removeEventListener('keydown', onKey);
    early = null;
  };
}

/** The kept key, once (null when none, too old, typed on another page, or focus has moved since). */
export function takeEarlyTableKey(): 'j' | 'k' | null {
  const kept = early;
  early = null;
  if (!kept || Date.now() - kept.at > EARLY_MS || kept.path !== window.location.pathname) return null;
  const now = document.activeElement;
  return !now || now === document.body || now.id === MAIN_ID ? kept.key : null;
}

export const dropEarlyTableKey = () => void (early = null);
