import type { ArgOption } from '../../commands/types';
import { addDays, lastCompleteDays, shanghaiToday } from './components/ride-range';

/**
 * The ranges an export is usually asked for, in Shanghai days: 上个月 is the month-end report; 近N天
 * are whole days ending yesterday, as the statistics screen's; 本月 runs to today, said in its label.
 */
export function exportRanges(now = new Date()): ArgOption[] {
  const today = shanghaiToday(now);
  const monthStart = `${today.slice(0, 8)}01`;
  const lastMonthEnd = addDays(monthStart, -1);
  const lastMonthStart = `${lastMonthEnd.slice(0, 8)}01`;
  const range = (label: string, start: string, end: string, keywords: string[]): ArgOption => ({ value: `${start}~${end}`, label: `${label}（${start} 至 ${end}）`, keywords });
  const d7 = lastCompleteDays(7, now);
  const d30 = lastCompleteDays(30, now);
  const d90 = lastCompleteDays(90, now);
  return [
    range('上个月', lastMonthStart, lastMonthEnd, ['shangyue', 'last month']),
    range('本月至今', monthStart, today, ['benyue', 'this month']),
    range('近7天', d7.start, d7.end, ['7']),
    range('近30天', d30.start, d30.end, ['30']),
    range('近90天', d90.start, d90.end, ['90']),
  ];
}
