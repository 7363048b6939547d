import { discount } from '../../../shared/api';
import { pagePath } from '../../../shared/modules';
import { defineResource } from '../../components/resource/row-action';

/** An order as the palette knows it from a typed or pasted number. */
export interface OrderRecord {
  orderNo: string;
}

export const orderListPath = (orderNo: string) => pagePath('specialCode', 'special-code-list', { query: { orderNo } });

/**
 * What may be done with an order found by its number: 特殊码列表 finds it and opens the refund (the
 * amount, the masked rider, the password above the set amount), or its detail when it cannot be refunded.
 */
export const orderActions = defineResource<OrderRecord>()({
  name: (o) => `订单 ${o.orderNo}`,
  id: (o) => o.orderNo,
  actions: [
    { id: 'view', label: '查看订单', hotkey: 'v', primary: true, permission: discount.discountOrderPage.permission, to: (o) => orderListPath(o.orderNo) },
    {
      id: 'refund',
      label: '退款',
      hotkey: 't',
      permission: discount.discountOrderRefund.permission,
      to: (o) => pagePath('specialCode', 'special-code-list', { action: 'refund', query: { orderNo: o.orderNo } }),
    },
  ],
});
