import { setFlash } from './flash';
import { safeRedirect } from './safe-redirect';
import { clearSession } from './session-store';
import { KEYS, readJson, writeJson } from './storage';
import { createStore, useStore } from './store';

/** The one "login expired / logged in elsewhere" notice; only one shows at a time (spec §8). */
export interface SessionEnded {
  reason: 'elsewhere' | 'expired';
  msg: string;
}

/** Spec §8: the notice shows, the session is cleared, and /login is loaded a second later. */
export const RELOAD_AFTER_MS = 1_000;

const notice = createStore<SessionEnded | null>(null);
let timer: ReturnType<typeof setTimeout> | null = null;
let target = '/login';
let left = false;

/** Where the login sends the user back: the page they were on when the session ended. */
export function loginAddress(): string {
  const here = window.location.pathname + window.location.search + window.location.hash;
  // Already on /login (the guard got there first): keep the redirect it carries.
  const carried = window.location.pathname === '/login' ? new URLSearchParams(window.location.search).get('redirect') : here;
  // Checked here too, not only at login: the notice must not pass a hostile target along.
  return `/login?redirect=${encodeURIComponent(safeRedirect(carried))}`;
}

/**
 * The server ended the session: the notice shows, and the session ends at once as spec §8 says,
 * whether or not anyone answers the notice (an unattended console must not keep the token). The
 * reason is kept for the login page, so it is still said after the reload.
 */
export function announceSessionEnded(next: SessionEnded): void {
  if (notice.get()) return;
  // Taken before anything re-routes: the login brings the user back to this exact page.
  target = loginAddress();
  left = false;
  // Written before the token goes: the other tabs, which follow its removal to /login, say why too.
  writeJson(KEYS.sessionEnded, { msg: next.msg, at: Date.now() });
  clearSession();
  setFlash(next.msg, 'session');
  notice.set(next);
  timer = setTimeout(leaveNow, RELOAD_AFTER_MS);
}

/** Loads /login now (the notice's button, Enter or Esc), or when the second is up; once. */
export function leaveNow(): void {
  if (!notice.get() || left) return;
  left = true;
  if (timer) clearTimeout(timer);
  timer = null;
  window.location.assign(target);
}

export const useSessionEnded = (): SessionEnded | null => useStore(notice);

/** While the notice shows, nothing else may end the session its own way (the idle check). */
export const sessionEndedShowing = () => notice.get() !== null;

/** Tests start each case with no notice showing and nothing scheduled. */
export const resetSessionEnded = (): void => {
  if (timer) clearTimeout(timer);
  timer = null;
  left = false;
  notice.set(null);
};

/** How long another tab's note of why the session ended is news: the tabs follow within moments. */
const NOTE_FRESH_MS = 10_000;

/**
 * Why the session ended, when another tab of this browser was told by the server a moment ago;
 * null after a deliberate 退出登录 (which leaves no note) or an old note.
 */
export function endedInAnotherTab(now = Date.now()): string | null {
  const note = readJson<{ msg?: unknown; at?: unknown }>(KEYS.sessionEnded);
  return note && typeof note.msg === 'string' && typeof note.at === 'number' && now - note.at < NOTE_FRESH_MS && note.at <= now ? note.msg : null;
}
