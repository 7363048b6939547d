import { type SQL, asc, desc } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type Page, parseSort, toPage } from '../../shared/api';

/**
 * What a list sorts by: a column, an expression, or several in turn (line codes as people read
 * them: by length, then by text), all in the one direction asked.
 */
export type SortKey = AnyPgColumn | SQL | readonly (AnyPgColumn | SQL)[];
const sortParts = (key: SortKey): (AnyPgColumn | SQL)[] => (Array.isArray(key) ? [...(key as readonly (AnyPgColumn | SQL)[])] : [key as AnyPgColumn | SQL]);

/**
 * Spring-style paging, written once: the ORDER BY from a `sort` query checked against the columns a
 * list allows (anything else falls back to its default order), and one page of rows with the total.
 */
export function orderBy<K extends string>(
  sort: string | undefined,
  columns: Readonly<Record<K, SortKey>>,
  fallback: { column: SortKey; dir: 'asc' | 'desc' },
  tiebreak: AnyPgColumn,
): SQL[] {
  const parsed = parseSort<K>(sort);
  const column = parsed && Object.hasOwn(columns, parsed.field) ? columns[parsed.field] : fallback.column;
  const dir = parsed && Object.hasOwn(columns, parsed.field) ? parsed.dir : fallback.dir;
  const by = dir === 'asc' ? asc : desc;
  // The tiebreak keeps pages stable when the sorted column has equal values.
  return [...sortParts(column).map((c) => by(c)), by(tiebreak)];
}

/** Runs the page's rows (with LIMIT/OFFSET) and its total together. */
export async function paged<T>(
  q: { page: number; size: number },
  rows: (limit: number, offset: number) => Promise<T[]>,
  total: () => Promise<{ n: number }[]>,
): Promise<Page<T>> {
  const [content, [count]] = await Promise.all([rows(q.size, q.page * q.size), total()]);
  return toPage(content, count?.n ?? 0, q.page, q.size);
}
