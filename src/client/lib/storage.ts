/**
 * Everything the console keeps in the browser, under one prefix (spec §9: the token, the user
 * item, back-navbar, the QR image url, the city centre; plus settings, tags and the area).
 */
const PREFIX = 'bus-console.';

export const KEYS = {
  token: `${PREFIX}token`,
  user: `${PREFIX}user`,
  activity: `${PREFIX}activity`,
  district: `${PREFIX}district`,
  /** Why the server ended the session, for the browser's other tabs: `{ msg, at }`. */
  sessionEnded: `${PREFIX}session-ended`,
  backNavbar: `${PREFIX}back-navbar`,
  qrCode: `${PREFIX}qr-code`,
  location: `${PREFIX}location`,
  settings: (login: string) => `${PREFIX}settings.${login}`,
  tags: (login: string) => `${PREFIX}tags.${login}`,
} as const;

export function readJson<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? null : (JSON.parse(raw) as T);
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private mode or a full quota: the console still works for this page's life.
  }
}

export function remove(...keys: string[]): void {
  for (const k of keys) localStorage.removeItem(k);
}

export function readCookie(name: string): string | null {
  const m = document.cookie.match(new RegExp(`(?:^|; )${name}=([^;]*)`));
  return m?.[1] ? decodeURIComponent(m[1]) : null;
}

export function writeCookie(name: string, value: string, days = 365): void {
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${days * 86_400}; samesite=lax`;
}
