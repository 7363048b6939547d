import { useState } from 'react';
import type { StaleRefusal } from '../../shared/api/fields';
import { ApiError } from './errors';

/**
 * Edits never overwrite another's (issue 21), on the form's side. The form is opened from a record's
 * version and sends it with the save; when someone else saved meanwhile the server refuses with the
 * record as it is now. Then the user's typed text stays, every field whose saved value changed shows
 * what the other person saved (`theirs`), and the version moves to the new one, so the next save,
 * with whichever values the user keeps or takes, is made against what the other person saved.
 */
export interface StaleSaveOptions<V, R> {
  /** The version the form was opened from (the record's `rowVersion`); undefined for a new record. */
  version: number | undefined;
  /** The form's values as the record now saved would fill them. */
  valuesOf(record: R): V;
}

/** The refusal of a stale save, or null for any other failure. */
export function staleRefusal<R>(err: unknown): StaleRefusal<R> | null {
  if (!(err instanceof ApiError) || err.code !== 0) return null;
  const data = err.data as Partial<StaleRefusal<R>> | null;
  return data && data.stale === true && data.current && typeof data.current === 'object' ? (data as StaleRefusal<R>) : null;
}

export function useStaleSave<V extends Record<string, unknown>, R>(opts: StaleSaveOptions<V, R> | undefined, initial: V) {
  const [version, setVersion] = useState(opts?.version);
  // What the form last knew as saved: the other's values are told against it.
  const [saved, setSaved] = useState<V>(initial);
  const [theirs, setTheirs] = useState<Partial<V>>({});

  /**
   * Takes a refusal in; null when it was not a stale one. Of the fields the other person changed,
   * those the user has not touched take the other's value at once (returned, for the form to set):
   * saving again must not put back an old value nobody meant to keep. Only where both changed a
   * field does it show a note and wait for the user's choice.
   */
  const refused = (err: unknown, mine?: V): Partial<V> | null => {
    const stale = opts ? staleRefusal<R & { rowVersion?: number }>(err) : null;
    if (!opts || !stale) return null;
    const now = opts.valuesOf(stale.current);
    const changed = Object.keys(now).filter((k) => !sameValue(now[k], saved[k]));
    const untouched = (k: string) => !!mine && sameValue(mine[k], saved[k]);
    const take = Object.fromEntries(changed.filter(untouched).map((k) => [k, now[k]])) as Partial<V>;
    const ask = Object.fromEntries(changed.filter((k) => !untouched(k)).map((k) => [k, now[k]])) as Partial<V>;
    setTheirs((prev) => ({ ...prev, ...ask }));
    setSaved(now);
    if (typeof stale.current.rowVersion === 'number') setVersion(stale.current.rowVersion);
    return take;
  };

  /** After a save: nothing of the other's is left to show. */
  const settled = (answer: unknown) => {
    setTheirs({});
    const v = (answer as { rowVersion?: unknown } | null)?.rowVersion;
    if (typeof v === 'number') setVersion(v);
  };

  /** The note of one field goes: the user took the other's value, or kept their own. */
  const dismiss = (field: keyof V & string) => setTheirs((prev) => Object.fromEntries(Object.entries(prev).filter(([k]) => k !== field)) as Partial<V>);

  return { version, theirs, saved, refused, settled, dismiss };
}

/** Adds the version to the call's input where the endpoint takes its fields: the body, else the query. */
export function withVersion<I extends { body?: unknown; query?: unknown }>(input: I, version: number | undefined): I {
  if (version === undefined) return input;
  if (input.body !== undefined) return { ...input, body: { ...(input.body as object), rowVersion: version } };
  if (input.query !== undefined) return { ...input, query: { ...(input.query as object), rowVersion: version } };
  return input;
}

/** Form values are strings, booleans, arrays and Sets (a permission tree's picks): compared by content. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof Set && b instanceof Set) return a.size === b.size && [...a].every((x) => b.has(x));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  return false;
}
