import { readJson, writeJson } from '../lib/storage';

// How often this account took each kind of record's actions from the palette: a record's actions
// are listed most used first (issue 21: ranked by what the account does most). Kept per login in
// local storage, beside the recents; a count, not a history.

const keyFor = (login: string) => `bus-console.action-use.${login}`;
/** The kind of record a palette row is (`station:12` → station) with the action's id. */
export const countKey = (recordKey: string, actionId: string) => `${recordKey.replace(/^sniff:/, '').split(':')[0]}:${actionId}`;

export function readActionUse(login: string): Record<string, number> {
  const counts = readJson<Record<string, number>>(keyFor(login));
  return counts && typeof counts === 'object' ? counts : {};
}

export function recordActionUse(login: string, recordKey: string, actionId: string): void {
  const counts = readActionUse(login);
  const key = countKey(recordKey, actionId);
  writeJson(keyFor(login), { ...counts, [key]: (counts[key] ?? 0) + 1 });
}

/**
 * Most used first; the declared order among equals (the resource's own order is its default). The
 * primary action keeps its place at the top: what Enter does on a record's actions never changes
 * with habit (a 停用 that runs at once must not become the default by being used).
 */
export function byUse<A extends { id: string; primary?: boolean }>(actions: readonly A[], recordKey: string, counts: Record<string, number>): A[] {
  const used = (a: A) => (a.primary ? Number.POSITIVE_INFINITY : (counts[countKey(recordKey, a.id)] ?? 0));
  return actions
    .map((a, i) => ({ a, i }))
    .sort((x, y) => used(y.a) - used(x.a) || x.i - y.i)
    .map((x) => x.a);
}
