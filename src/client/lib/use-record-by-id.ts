import type { z } from 'zod';
import type { Endpoint } from '../../shared/api/endpoint';
import { useScreenLocation } from './screen-context';
import { useApi } from './use-api';

/** A read of one record by its id (`?id=` in the query) whose answer names the same id. */
type ById = Endpoint & { response: z.ZodType<{ id: number }> };

export interface RecordById<T> {
  /** `?id=` as written in the address; null when absent. */
  raw: string | null;
  /** The id when `raw` is a positive whole number, else null (no id: a new record). */
  id: number | null;
  /** The loaded record, only once it is the one the address names (SWR keeps the previous one meanwhile). */
  record: T | undefined;
  error: unknown;
  /** An `?id=` that names no record at all: told as such rather than opening a new one. */
  badId: boolean;
}

/** `?id=` of an address's query: as written, and as a record's id when it is a positive whole number. */
export function idOf(search: string) {
  const raw = new URLSearchParams(search).get('id');
  return { raw, id: raw && /^\d+$/.test(raw) ? Number(raw) : null };
}

/**
 * The record an edit or detail page names by `?id=`, read from the screen's own location (a cached
 * view keeps the address it was opened with).
 */
export function useRecordById<E extends ById>(endpoint: E): RecordById<z.output<E['response']>> {
  const { raw, id } = idOf(useScreenLocation().search);
  // The loose Endpoint: each caller's own endpoint is checked by the constraint above, not by useApi.
  const loaded = useApi(endpoint as Endpoint, id ? { query: { id } } : null);
  const data = loaded.data as z.output<E['response']> | undefined;
  return { raw, id, record: data?.id === id ? data : undefined, error: loaded.error, badId: !!raw && !id };
}
