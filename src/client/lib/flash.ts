/**
 * A message that must survive the full page load that follows a logout (the inactivity notice,
 * spec §8): kept in sessionStorage for this tab only, shown once after the load.
 */
const KEY = 'bus-console.flash';

export function setFlash(msg: string): void {
  try {
    sessionStorage.setItem(KEY, msg);
  } catch {
    // Without sessionStorage the message is lost with the reload; the logout still happens.
  }
}

export function takeFlash(): string | null {
  try {
    const msg = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return msg;
  } catch {
    return null;
  }
}
