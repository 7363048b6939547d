import { readJson, writeJson } from '../lib/storage';

/** The last used commands and records per user, shown on an empty query and used to rank. */
export interface Recent {
  key: string;
  title: string;
  group: string;
  count: number;
  lastUsed: number;
}

const MAX = 20;
const keyFor = (login: string) => `bus-console.recents.${login}`;

export function readRecents(login: string): Recent[] {
  const list = readJson<Recent[]>(keyFor(login));
  return Array.isArray(list) ? list : [];
}

export function recordRecent(login: string, item: { key: string; title: string; group: string }, now = Date.now()): void {
  const list = readRecents(login);
  const found = list.find((r) => r.key === item.key);
  const next = found
    ? [{ ...found, title: item.title, count: found.count + 1, lastUsed: now }, ...list.filter((r) => r !== found)]
    : [{ ...item, count: 1, lastUsed: now }, ...list];
  writeJson(keyFor(login), next.slice(0, MAX));
}

export function removeRecent(login: string, key: string): void {
  writeJson(
    keyFor(login),
    readRecents(login).filter((r) => r.key !== key),
  );
}

/** Frecency in 0–1: used often and lately ranks first within its tier. */
export function boostsOf(recents: readonly Recent[], now = Date.now()): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of recents) {
    const ageDays = (now - r.lastUsed) / 86_400_000;
    const score = Math.min(1, Math.log2(1 + r.count) / 4) * (1 / (1 + ageDays));
    out.set(r.key, Math.max(0.01, Math.min(0.99, score)));
  }
  return out;
}
