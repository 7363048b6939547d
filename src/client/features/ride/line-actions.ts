import { ridership } from '../../../shared/api';
import { defineResource } from '../../components/resource/row-action';
import { addDays, shanghaiToday } from './components/ride-range';
import { lineRidershipPath } from './paths';

/** A line as 乘车统计 knows it: its code in the ridership, and its name. */
export interface RidershipLine {
  lineCode: string;
  lineName: string;
}

/** A month's days, `2026-10` → 10-01 … 10-31; this month runs to today (the days there are). */
export function monthDays(month: string, now = new Date()): { startDate: string; endDate: string } {
  const startDate = `${month}-01`;
  const [y, m] = month.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  const last = addDays(next, -1);
  const today = shanghaiToday(now);
  return { startDate, endDate: last > today && startDate <= today ? today : last };
}

const lastMonth = (now = new Date()) => shanghaiToday(now).slice(0, 7).replace(/^(\d{4})-(\d{2})$/, (_, y: string, m: string) => (m === '01' ? `${Number(y) - 1}-12` : `${y}-${String(Number(m) - 1).padStart(2, '0')}`));

// Fetched with the run, as the other export commands' client is: the shell's bundle carries none of it.
const exportMonth = async (l: RidershipLine, month: string) =>
  (await import('../../components/resource/export-action')).exportAndDownload(ridership.ridershipExport, { ...monthDays(month), lineCode: l.lineCode });

/**
 * What a line offers in the palette as a ridership record: its 乘车统计, and its month as a file
 * (上个月 with Alt+E; another month typed beside it, `2026-10 10路`). The export is a task of
 * 下载中心 that downloads itself when done: the person asked for the file, now.
 */
export const ridershipLineActions = defineResource<RidershipLine>()({
  name: (l) => l.lineName,
  id: (l) => l.lineCode,
  actions: [
    { id: 'view', label: '查看客流', hotkey: 'v', primary: true, permission: ridership.ridershipTotal.permission, to: (l) => lineRidershipPath(l.lineCode) },
    {
      id: 'export',
      label: () => `导出上月客流（${lastMonth()}）`,
      hotkey: 'e',
      permission: ridership.ridershipExport.permission,
      endpoint: ridership.ridershipExport,
      run: (l: RidershipLine) => exportMonth(l, lastMonth()),
      // The task's own toasts say it: queued, then downloaded.
      done: () => '',
      inline: {
        kind: 'month',
        title: (l: RidershipLine, month: string) => `导出并下载：${l.lineName} ${month} 每日客流`,
        endpoint: ridership.ridershipExport,
        run: (l: RidershipLine, month: string) => exportMonth(l, month),
      },
    },
  ],
});
