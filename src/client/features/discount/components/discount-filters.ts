import { PAY_STATUS, TICKET_TYPES } from '../../../../shared/api/card';
import { type FilterDef, withAll } from '../../../components/filter-bar';

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
    options: withAll(PAY_STATUS),
  },
  { key: 'startTime', label: '下单时间从', type: 'datetime' },
  { key: 'endTime', label: '至', type: 'datetime', endOfDay: true },
];
