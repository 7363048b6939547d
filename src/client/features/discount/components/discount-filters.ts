import type { discount } from '../../../../shared/api';
import { TICKET_TYPES } from '../../../../shared/api/card';
import { ORDER_PAY_STATE } from '../../../../shared/api/discount';
import { type FilterSpec, flowFilter, textFilter, timeFilter } from '../../../components/resource/list-filters';

export const TICKET_OPTIONS = (Object.entries(TICKET_TYPES) as [string, string][]).map(([value, label]) => ({ value, label }));

/** The filters 特殊码列表 and 订单统计 share (the contract gives both endpoints the same ones). */
export const ORDER_FILTERS = {
  orderNo: textFilter('订单号', { placeholder: '完整订单号' }),
  cardNo: textFilter('卡号', { placeholder: '16 位卡号' }),
  payStatus: flowFilter(ORDER_PAY_STATE),
  startTime: timeFilter('下单时间从'),
  endTime: timeFilter('至', { endOfDay: true }),
} satisfies FilterSpec<typeof discount.discountOrderPage> & FilterSpec<typeof discount.countPage>;
