import { pagePath } from '../../../shared/modules';
import { addDays, shanghaiDate } from '../../../shared/domain/time';

/** 班次管理 with filters (今日班次: one day). */
export const classesPath = (query: { dateFrom?: string; dateTo?: string; lineId?: number; status?: number } = {}) => pagePath('customBus', 'classes', { query });

/** 新增班次 (the batch form), prefilled by the palette's 批量排班; `check=1` runs the dry run at once. */
export interface BatchPrefill {
  lineId?: number;
  dateFrom?: string;
  dateTo?: string;
  weekdays?: string;
  times?: string;
  publish?: number;
  check?: 1;
}
export const classesAddPath = (query: BatchPrefill = {}) => pagePath('customBus', 'add-classes', { query: query as Record<string, string | number> });

/** ISO weekday (1 周一 … 7 周日) of a Shanghai day. */
export const isoWeekday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() || 7;

/**
 * The batch form's and the palette's quick date ranges, from today (Shanghai): 下周一至五, the rest of
 * this week's workdays, the next two weeks' workdays, next month's workdays.
 */
export function quickRanges(now = new Date()) {
  const today = shanghaiDate(now);
  const wd = isoWeekday(today);
  const nextMonday = addDays(today, 8 - wd);
  const [y, m] = today.split('-').map(Number) as [number, number];
  const monthStart = (k: number) => new Date(Date.UTC(y, m - 1 + k, 1)).toISOString().slice(0, 10);
  const first = monthStart(1);
  const last = addDays(monthStart(2), -1);
  return [
    { key: 'next-week', label: '下周一至五', dateFrom: nextMonday, dateTo: addDays(nextMonday, 4), weekdays: [1, 2, 3, 4, 5] },
    { key: 'this-week', label: '本周剩余工作日', dateFrom: addDays(today, 1), dateTo: addDays(today, Math.max(1, 5 - wd)), weekdays: [1, 2, 3, 4, 5] },
    { key: 'two-weeks', label: '未来两周工作日', dateFrom: addDays(today, 1), dateTo: addDays(today, 14), weekdays: [1, 2, 3, 4, 5] },
    { key: 'next-month', label: '下月工作日', dateFrom: first, dateTo: last, weekdays: [1, 2, 3, 4, 5] },
  ] as const;
}

/** `07:30,08:00` / `7:30 8:00` / `07:30、08:00` → sorted `HH:mm` list, or the first malformed piece. */
export function parseTimes(text: string): { times: string[]; bad: string | null } {
  const parts = text.split(/[\s,，、;；]+/).filter(Boolean);
  const times: string[] = [];
  for (const p of parts) {
    const m = /^(\d{1,2})[:：](\d{2})$/.exec(p);
    if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return { times: [], bad: p };
    times.push(`${m[1]!.padStart(2, '0')}:${m[2]}`);
  }
  return { times: [...new Set(times)].sort(), bad: null };
}
