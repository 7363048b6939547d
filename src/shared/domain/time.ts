import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Every time the console shows is Shanghai time, whatever the browser's zone (spec §9). */
export const ZONE = 'Asia/Shanghai';
export const DATE_TIME = 'YYYY-MM-DD HH:mm:ss';

export function formatDateTime(value: string | number | Date | null | undefined, pattern = DATE_TIME): string {
  if (value === null || value === undefined || value === '') return '';
  const d = dayjs(value);
  return d.isValid() ? d.tz(ZONE).format(pattern) : '';
}

/**
 * Shanghai has kept UTC+8 without summer time since 1991, so a fixed offset is exact for every
 * moment this system holds, and cheap enough for a million export rows (dayjs's zone plugin asks
 * Intl for every value). The business's days and months are Shanghai's: between 16:00 and 24:00
 * UTC Shanghai is already on the next day, so never take a day from `toISOString()`.
 */
export const SHANGHAI_OFFSET_MS = 8 * 3600_000;
export const DAY_MS = 86_400_000;

const asMs = (at: Date | string | number) => (at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at));

/** `YYYY-MM-DD HH:mm:ss` in Shanghai of a moment (a Date, epoch ms or an ISO string). */
export function shanghaiDateTime(at: Date | string | number): string {
  return new Date(asMs(at) + SHANGHAI_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** The Shanghai calendar day of a moment, `YYYY-MM-DD`. */
export function shanghaiDate(at: Date | string | number = new Date()): string {
  return new Date(asMs(at) + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10);
}

/** The Shanghai month of a moment: year and month 1–12. */
export function shanghaiMonth(at: Date | string | number = new Date()): { y: number; m: number } {
  const local = new Date(asMs(at) + SHANGHAI_OFFSET_MS);
  return { y: local.getUTCFullYear(), m: local.getUTCMonth() + 1 };
}

/** The moment a Shanghai day (`YYYY-MM-DD`) begins. */
export function shanghaiMidnight(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) - SHANGHAI_OFFSET_MS);
}

/** The calendar day `n` days after `day` (before, when negative); pure calendar arithmetic. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** 刚刚 under 30 s, then minutes, hours, 1天前, and the full time from two days on (spec §9). */
export function formatRelative(value: string | number | Date, now: Date = new Date()): string {
  const then = dayjs(value);
  if (!then.isValid()) return '';
  const seconds = (now.getTime() - then.valueOf()) / 1000;
  if (seconds < 30) return '刚刚';
  if (seconds < 3600) return `${Math.ceil(seconds / 60)}分钟前`;
  if (seconds < 86_400) return `${Math.ceil(seconds / 3600)}小时前`;
  if (seconds < 2 * 86_400) return '1天前';
  return formatDateTime(value);
}

/** `HH:mm` or `HH:mm:ss` to seconds; any other shape gives 0 (spec §5). */
export function timeOfDayToSeconds(text: string): number {
  const parts = text.split(':');
  if (parts.length !== 2 && parts.length !== 3) return 0;
  const [h = 0, m = 0, s = 0] = parts.map(Number);
  if ([h, m, s].some((n) => !Number.isFinite(n))) return 0;
  return h * 3600 + m * 60 + s;
}

/** Days and whole hours of a duration in seconds, for the password-age banner. */
export function daysAndHours(seconds: number): { days: number; hours: number } {
  const total = Math.max(0, Math.floor(seconds));
  return { days: Math.floor(total / 86_400), hours: Math.floor((total % 86_400) / 3600) };
}

/**
 * A date and time as operators type it, read as Shanghai wall-clock time: `2026-11-23 08:30`,
 * `2026/11/23 8:30`, `20261123 0830`, `2026-11-23` (00:00, or 23:59:59 with `endOfDay`).
 * Returns ISO 8601 with +08:00, or null when it is not a real date and time.
 */
export function parseTypedDateTime(text: string, opts: { endOfDay?: boolean } = {}): string | null {
  const m = /^(\d{4})[-/.年]?(\d{1,2})[-/.月]?(\d{1,2})日?(?:[\sT]+(\d{1,2})[:：]?(\d{2})(?:[:：]?(\d{2}))?)?$/.exec(text.trim());
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const timeGiven = m[4] !== undefined;
  const [hour, minute, second] = timeGiven ? [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)] : opts.endOfDay ? [23, 59, 59] : [0, 0, 0];
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(year, 4)}-${p(month)}-${p(day)}T${p(hour)}:${p(minute)}:${p(second)}+08:00`;
}
