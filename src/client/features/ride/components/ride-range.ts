import { DAY_MS, addDays, shanghaiDate } from '../../../../shared/domain/time';

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
