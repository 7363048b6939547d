import { KEYS, readJson, remove, writeJson } from './storage';

/** Token and inactivity deadline, kept together so a reload knows whether the session is still on. */
export interface StoredToken {
  token: string;
  /** Milliseconds without input before the console logs out (spec §9, default 30 min). */
  idleMs: number;
  /** When the session ends if nothing happens before. */
  expiresAt: number;
  /** The server's token lifetime (tokenExpiredSecond): the idle limit never exceeds it. */
  ttlMs?: number;
}

export const DEFAULT_IDLE_MS = 1_800_000;

export function readToken(now = Date.now()): StoredToken | null {
  const t = readJson<StoredToken>(KEYS.token);
  if (!t || typeof t.token !== 'string' || typeof t.expiresAt !== 'number') return null;
  return t.expiresAt > now ? t : null;
}

/** Stored expiry even when past, to tell "expired" from "never logged in" on start. */
export function readExpiredToken(now = Date.now()): StoredToken | null {
  const t = readJson<StoredToken>(KEYS.token);
  return t && typeof t.expiresAt === 'number' && t.expiresAt <= now ? t : null;
}

export function saveToken(token: string, tokenExpiredSecond: number, now = Date.now()): StoredToken {
  const configured = readJson<number>(KEYS.activity);
  const ttlMs = tokenExpiredSecond * 1000 || DEFAULT_IDLE_MS;
  // Whichever comes first: the configured inactivity limit or the token's own lifetime.
  const idleMs = typeof configured === 'number' && configured > 0 ? Math.min(configured, ttlMs) : ttlMs;
  const stored = { token, idleMs, ttlMs, expiresAt: now + idleMs };
  writeJson(KEYS.token, stored);
  return stored;
}

/** Called on user input: pushes the inactivity deadline forward. */
export function touchToken(now = Date.now()): void {
  const t = readToken(now);
  if (t) writeJson(KEYS.token, { ...t, expiresAt: now + t.idleMs });
}

/** The inactivity limit is configurable (spec §9) and kept in local storage. */
export function setIdleMs(ms: number): void {
  writeJson(KEYS.activity, ms);
  const t = readToken();
  if (t) {
    const idleMs = Math.min(ms, t.ttlMs ?? ms);
    writeJson(KEYS.token, { ...t, idleMs, expiresAt: Date.now() + idleMs });
  }
}

export function clearSession(): void {
  remove(KEYS.token, KEYS.user, KEYS.district);
}

export function readDistrict(): string | null {
  const v = readJson<string>(KEYS.district);
  return typeof v === 'string' && v ? v : null;
}

export function saveDistrict(id: string | null): void {
  if (id) writeJson(KEYS.district, id);
  else remove(KEYS.district);
}
