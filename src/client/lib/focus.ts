/**
 * Where focus rests when nothing else claims it: the page's main region. Screens' keys (j/k, Enter,
 * `/`) work from there, so after a navigation or a closed tab the hands never start from <body>.
 */
export const MAIN_ID = 'main';

const EDITABLE = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';

const mainRegion = () => document.getElementById(MAIN_ID);

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
