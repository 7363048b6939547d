import { useCallback, useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import type { z } from 'zod';
import { useScreenLocation } from '../lib/screen-context';

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;

export interface TableState<K extends string = string> {
  page: number;
  size: number;
  /** `field,asc|desc`, as the server reads it. */
  sort: string | undefined;
  filters: Record<K, string>;
  /** Page, size, sort and the non-empty filters: the query to send. */
  query: Record<string, string | number>;
  setPage(page: number): void;
  setSize(size: number): void;
  setSort(sort: string | undefined): void;
  /** Filters replace the page with the first one: the old page number means nothing under new filters. */
  setFilters(patch: Partial<Record<K, string>>): void;
  reset(): void;
}

interface Options<K extends string> {
  filters: readonly K[];
  defaultSize?: number;
  /**
   * The endpoint's query schema. A value the contract would refuse (a hand-edited URL, an old
   * bookmark) is dropped here instead of turning the whole screen into a 400.
   */
  schema?: z.ZodType;
  /**
   * Filters holding personal data (a phone, a citizen id): kept in memory, never in the address,
   * where history, the tags view's local storage and server logs would keep them. A reload forgets them.
   */
  privateFilters?: readonly K[];
  /**
   * A value of an ordinary filter that is personal data all the same (a phone typed into 账号列表's
   * keyword, which also takes logins and names): held in memory like a private filter, that once.
   * A stable function (module level).
   */
  keepOutOfAddress?(key: K, value: string): boolean;
}

interface Snapshot<K extends string> {
  page: number;
  size: number;
  sort: string | undefined;
  filters: Record<K, string>;
}

const SORT = /^[A-Za-z][A-Za-z0-9_]*,(asc|desc)$/;

function parse<K extends string>(search: string, keys: readonly K[], defaultSize: number): Snapshot<K> {
  const q = new URLSearchParams(search);
  const page = Number(q.get('page'));
  const size = Number(q.get('size'));
  const sort = q.get('sort') ?? '';
  const filters = Object.fromEntries(keys.map((k) => [k, q.get(k) ?? ''])) as Record<K, string>;
  return {
    page: Number.isInteger(page) && page > 0 ? page : 0,
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : defaultSize,
    sort: SORT.test(sort) ? sort : undefined,
    filters,
  };
}

function toQuery<K extends string>(s: Snapshot<K>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(s.filters) as [K, string][]) if (v) out[k] = v;
  out.page = s.page;
  out.size = s.size;
  if (s.sort) out.sort = s.sort;
  return out;
}

/**
 * Filters, page, size and sort of a table, kept in the URL query so a tab, a reload or a shared
 * link shows the same rows. Reads the screen's own location (cached views stay mounted while
 * hidden) and writes only while the screen is the active one.
 */
export function useTableState<K extends string>({ filters: keys, defaultSize = DEFAULT_PAGE_SIZE, schema, privateFilters = [], keepOutOfAddress }: Options<K>): TableState<K> {
  const { path, search, active } = useScreenLocation();
  // Only the setter: the live location belongs to whichever screen is showing.
  const [, navigate] = useLocation();
  const keyList = keys.join(',');
  const privateList = privateFilters.join(',');
  const [held, setHeld] = useState<Record<string, string>>({});

  const snapshot = useMemo(() => {
    const hidden = new Set(privateList ? privateList.split(',') : []);
    const fromUrl = parse(search, keyList ? (keyList.split(',') as K[]) : [], defaultSize);
    // An ordinary filter's value held back from the address shows until the address names another.
    const s = { ...fromUrl, filters: Object.fromEntries(Object.entries<string>(fromUrl.filters).map(([k, v]) => [k, hidden.has(k) ? (held[k] ?? '') : v || (held[k] ?? '')])) as Record<K, string> };
    if (!schema) return s;
    const checked = schema.safeParse(toQuery(s));
    if (checked.success) return s;
    const bad = new Set(checked.error.issues.map((i) => String(i.path[0] ?? '')));
    const filters = Object.fromEntries(Object.entries(s.filters).map(([k, v]) => [k, bad.has(k) ? '' : v])) as Record<K, string>;
    return { ...s, filters, sort: bad.has('sort') ? undefined : s.sort, page: bad.has('page') ? 0 : s.page };
  }, [search, keyList, privateList, held, defaultSize, schema]);

  const write = useCallback(
    (next: Snapshot<K>) => {
      if (!active) return;
      const hidden = new Set<string>(privateList ? privateList.split(',') : []);
      for (const [k, v] of Object.entries(next.filters) as [K, string][]) if (v && keepOutOfAddress?.(k, v)) hidden.add(k);
      setHeld(Object.fromEntries(Object.entries<string>(next.filters).filter(([k]) => hidden.has(k))));
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(next.filters) as [K, string][]) if (v && !hidden.has(k)) q.set(k, v);
      if (next.page) q.set('page', String(next.page));
      if (next.size !== defaultSize) q.set('size', String(next.size));
      if (next.sort) q.set('sort', next.sort);
      const qs = q.toString();
      navigate(qs ? `${path}?${qs}` : path, { replace: true });
    },
    [active, defaultSize, navigate, path, privateList, keepOutOfAddress],
  );

  return useMemo(
    () => ({
      ...snapshot,
      query: toQuery(snapshot),
      setPage: (page) => write({ ...snapshot, page: Math.max(0, page) }),
      setSize: (size) => write({ ...snapshot, size, page: 0 }),
      setSort: (sort) => write({ ...snapshot, sort, page: 0 }),
      setFilters: (patch) => write({ ...snapshot, filters: { ...snapshot.filters, ...patch }, page: 0 }),
      reset: () => write({ page: 0, size: snapshot.size, sort: undefined, filters: Object.fromEntries(Object.keys(snapshot.filters).map((k) => [k, ''])) as Record<K, string> }),
    }),
    [snapshot, write],
  );
}

/**
 * The filters alone (no page, size or sort), for the totals and the exports: they must count and
 * export exactly the rows the table is filtered to, not only the page shown.
 */
export function useFilterQuery<K extends string>(filters: Record<K, string>): Record<string, string> {
  const key = JSON.stringify(filters);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by content: the record is rebuilt each render.
  return useMemo(() => Object.fromEntries(Object.entries<string>(filters).filter(([, v]) => v !== '')), [key]);
}
