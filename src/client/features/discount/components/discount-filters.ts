import { useMemo, useState } from 'react';
import dayjs from 'dayjs';
import type { Endpoint } from '../../../../shared/api';
import { PAY_STATUS, TICKET_TYPES } from '../../../../shared/api/card';
import type { FilterDef } from '../../../components/filter-bar';
import { toast } from '../../../components/toast';
import { api } from '../../../lib/api-client';
import { saveFile } from '../../../lib/save-file';
import { useScreenAction } from '../../../lib/screen-action';

export const ticketLabel = (n: number): string => TICKET_TYPES[n as keyof typeof TICKET_TYPES] ?? `票种${n}`;
export const payLabel = (n: number): string => PAY_STATUS[n as keyof typeof PAY_STATUS] ?? `状态${n}`;

/** Paid is the normal state; refunded and unpaid stand out in a long list. */
export const PAY_TONE: Record<number, string> = { 0: 'bg-gray-100 text-gray-700', 1: 'bg-green-50 text-green-800', 2: 'bg-orange-50 text-orange-800' };

export const TICKET_OPTIONS = (Object.entries(TICKET_TYPES) as [string, string][]).map(([value, label]) => ({ value, label }));

/** The filters 特殊码列表 and 订单统计 share (the contract gives both endpoints the same ones). */
export const ORDER_FILTER_KEYS = ['orderNo', 'cardNo', 'payStatus', 'startTime', 'endTime'] as const;
export type OrderFilterKey = (typeof ORDER_FILTER_KEYS)[number];

export const ORDER_FILTERS: readonly FilterDef<OrderFilterKey>[] = [
  { key: 'orderNo', label: '订单号', type: 'text', placeholder: '完整订单号', maxLength: 40 },
  { key: 'cardNo', label: '卡号', type: 'text', placeholder: '16 位卡号', maxLength: 16 },
  {
    key: 'payStatus',
    label: '支付状态',
    type: 'select',
    options: [{ value: '', label: '全部' }, ...(Object.entries(PAY_STATUS) as [string, string][]).map(([value, label]) => ({ value, label }))],
  },
  { key: 'startTime', label: '下单时间从', type: 'datetime' },
  { key: 'endTime', label: '至', type: 'datetime', endOfDay: true },
];

/**
 * The filters alone (no page, size or sort), for the totals and the exports: they must count and
 * export exactly the rows the table is filtered to, not only the page shown.
 */
export function useFilterQuery<K extends string>(filters: Record<K, string>): Record<string, string> {
  const key = JSON.stringify(filters);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by content: the record is rebuilt each render.
  return useMemo(() => Object.fromEntries(Object.entries<string>(filters).filter(([, v]) => v !== '')), [key]);
}

/**
 * 导出 Excel of a file endpoint with the screen's filters; also what the palette's `?action=export`
 * runs. The server names the file too, but the console saves the blob under its own name.
 */
export function useExport(endpoint: Endpoint, query: Record<string, string>, name: string, done: string) {
  const [exporting, setExporting] = useState(false);
  const run = async () => {
    if (exporting) return;
    setExporting(true);
    try {
      const file = (await api.call(endpoint, { query })) as Blob;
      saveFile(file, `${name}-${dayjs().format('YYYYMMDD-HHmm')}.xlsx`);
      toast.success(done);
    } catch {
      // The refusal is in the toast.
    } finally {
      setExporting(false);
    }
  };
  useScreenAction('export', () => void run());
  return { exporting, run };
}
