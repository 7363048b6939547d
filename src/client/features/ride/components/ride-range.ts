import { useMemo } from 'react';
import { z } from 'zod';
import { DAY_MS, addDays, shanghaiDate } from '../../../../shared/domain/time';
import type { TableState } from '../../../components/table-state';

/** Today in Shanghai, `YYYY-MM-DD`, whatever the browser's zone: the days the server counts in. */
export const shanghaiToday = (now = new Date()) => shanghaiDate(now);

export { addDays };

/** The last `days` days up to today, both ends included: raw records, where today's rides matter. */
export function lastDays(days: number, now = new Date()): { start: string; end: string } {
  const end = shanghaiToday(now);
  return { start: addDays(end, -(days - 1)), end };
}

/**
 * The last `days` whole days, ending yesterday: what the statistics open on. Today is still under
 * way (at 02:00 it has no rides at all), so a range ending today draws a false drop at its end and
 * understates 日均.
 */
export function lastCompleteDays(days: number, now = new Date()): { start: string; end: string } {
  const end = addDays(shanghaiToday(now), -1);
  return { start: addDays(end, -(days - 1)), end };
}

/** Whole days from `start` to `end`, both included (0 when either is not a day). */
export const daysBetween = (start: string, end: string) => {
  const n = (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS + 1;
  return Number.isFinite(n) && n > 0 ? n : 0;
};

/**
 * 日均 over the whole days of the range only: today is still under way and later days have no
 * rides yet, so counting them as days would understate the average (at 02:00 today has none).
 */
export function dailyAverage(start: string, end: string, byDay: readonly { day: string; rides: number }[] | undefined, now = new Date()): { text: string; partial: boolean } {
  const yesterday = addDays(shanghaiToday(now), -1);
  const last = end < yesterday ? end : yesterday;
  const whole = daysBetween(start, last);
  const rides = (byDay ?? []).reduce((n, d) => (d.day <= last ? n + d.rides : n), 0);
  return { text: whole ? String(Math.round(rides / whole)) : '–', partial: end > yesterday };
}

/**
 * The contract's query with its range rules set aside, for `useTableState`: a value of the wrong
 * shape in the address (a hand-edited link) is dropped, but a range that is too long, or a value
 * the user typed (`told`: a card number of 12 digits), must stay in the filters and be told to the
 * user (refusalOf), not silently vanish from the query while still showing in its field.
 */
export function shapeOnly(schema: z.ZodType, told: readonly string[] = []): z.ZodType {
  return z.unknown().superRefine((value, ctx) => {
    const checked = schema.safeParse(value);
    if (checked.success) return;
    for (const issue of checked.error.issues) {
      if (issue.code !== 'custom' && !told.includes(String(issue.path[0] ?? ''))) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
  });
}

/**
 * What the server would refuse in these filters, in the contract's own Chinese (时间范围不能超过31天):
 * said at once on the screen, and nothing is sent.
 */
export function refusalOf(schema: z.ZodType, query: Record<string, string>): string | null {
  const checked = schema.safeParse(query);
  return checked.success ? null : (checked.error.issues[0]?.message ?? '查询条件有误');
}

/**
 * The table state with the filters the screen actually uses (the address's, with the screen's
 * defaults filled in): the filter bar shows them, the query sends them, and applying the filters
 * writes them into the address, so what is shown is always what was asked.
 */
export function useEffectiveTable<K extends string>(table: TableState<K>, filters: Record<K, string>): TableState<K> {
  const key = JSON.stringify(filters);
  return useMemo(() => {
    const query: Record<string, string | number> = {};
    for (const [k, v] of Object.entries<string>(filters)) if (v) query[k] = v;
    query.page = table.page;
    query.size = table.size;
    if (table.sort) query.sort = table.sort;
    return { ...table, filters, query };
    // Keyed by content: the screen rebuilds the record on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [table, key]);
}
