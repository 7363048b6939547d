/**
 * A message that must survive the full page load that follows a logout (the inactivity notice,
 * spec §8; "password changed"): kept in sessionStorage for this tab only, shown once after the load.
 */
const KEY = 'bus-console.flash';

export interface Flash {
  msg: string;
  /** `session`: why the session ended, said on the login page itself rather than in a passing toast. */
  kind: 'error' | 'success' | 'session';
}

export function setFlash(msg: string, kind: Flash['kind'] = 'error'): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ msg, kind }));
  } catch {
    // Without sessionStorage the message is lost with the reload; the logout still happens.
  }
}

export function takeFlash(): Flash | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Flash>;
    const kind = parsed.kind === 'success' || parsed.kind === 'session' ? parsed.kind : 'error';
    return typeof parsed.msg === 'string' ? { msg: parsed.msg, kind } : null;
  } catch {
    return null;
  }
}
