import { CUSTOM_READ, CUSTOM_REFUNDER } from '../../../shared/api/custom-bus/buttons';
import { pagePath } from '../../../shared/modules';
import type { EntitySource } from '../../commands/entity-source';
import { defineResource, recordActions } from '../../components/resource/row-action';
import { customOrderDetailByNoPath } from './order-paths';

/** A 定制公交 order as the palette knows it from a typed or pasted number (`CB2612…`). */
interface CustomOrderRecord {
  orderNo: string;
}

/**
 * What may be done with a 定制公交 order found by its number: its detail (the tickets and what each
 * refunds now), or that detail with 退票 open (Alt+T, as 订单退款 and 套餐退款): the refund during a
 * call is the number, Alt+T, the amount retyped, the reason, Enter.
 */
export const customOrderActions = defineResource<CustomOrderRecord>()({
  name: (o) => `定制订单 ${o.orderNo}`,
  id: (o) => o.orderNo,
  actions: [
    { id: 'view', label: '查看订单', hotkey: 'v', primary: true, permission: CUSTOM_READ, to: (o) => customOrderDetailByNoPath(o.orderNo) },
    { id: 'refund', label: '退票', hotkey: 't', permission: CUSTOM_REFUNDER, to: (o) => customOrderDetailByNoPath(o.orderNo, true) },
  ],
});

/** Only numbers of this module's shape: `CB` then the date, time and serial (orders-seed, rider-side). */
export const isCustomOrderNo = (v: string) => /^CB\d{12,30}$/.test(v);

export const customBusSources: EntitySource[] = [
  {
    id: 'custom-orders',
    group: '定制订单',
    permission: CUSTOM_READ,
    page: pagePath('customBus', 'order-detail'),
    lookup: (s) =>
      s.kind === 'order' && isCustomOrderNo(s.value)
        ? { key: `custom-order:${s.value}`, title: `定制订单 ${s.value}`, path: customOrderDetailByNoPath(s.value), actions: recordActions(customOrderActions, { orderNo: s.value }) }
        : null,
  },
];
