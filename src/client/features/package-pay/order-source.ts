import { PACKAGE_READ, PACKAGE_REFUNDER } from '../../../shared/api/package-pay';
import type { EntitySource } from '../../commands/entity-source';
import { defineResource, recordActions } from '../../components/resource/row-action';
import { pagePath } from '../../../shared/modules';
import { orderDetailByNoPath } from './paths';

/** A package order as the palette knows it from a typed or pasted number (`PK2026…`). */
interface PackageOrderRecord {
  orderNo: string;
}

/**
 * What may be done with a package order found by its number: its detail (the usages), or the refund
 * opened on it with the preview prefilled (Alt+T, as 订单退款 of the discount orders): the refund
 * during a call is the number, Alt+T, the reason, Ctrl+Enter.
 */
export const packageOrderActions = defineResource<PackageOrderRecord>()({
  name: (o) => `套餐订单 ${o.orderNo}`,
  id: (o) => o.orderNo,
  actions: [
    { id: 'view', label: '查看订单', hotkey: 'v', primary: true, permission: PACKAGE_READ, to: (o) => orderDetailByNoPath(o.orderNo) },
    { id: 'refund', label: '退款', hotkey: 't', permission: PACKAGE_REFUNDER, to: (o) => orderDetailByNoPath(o.orderNo, true) },
  ],
});

/** Only numbers of this module's shape: a discount order (`DC…`) is the discount source's. */
const isPackageOrderNo = (v: string) => /^PK\d{12,30}$/.test(v);

export const packageSources: EntitySource[] = [
  {
    id: 'package-orders',
    group: '套餐订单',
    permission: PACKAGE_READ,
    page: pagePath('packagePay', 'package-order-detail'),
    lookup: (s) =>
      s.kind === 'order' && isPackageOrderNo(s.value)
        ? { key: `package-order:${s.value}`, title: `套餐订单 ${s.value}`, path: orderDetailByNoPath(s.value), actions: recordActions(packageOrderActions, { orderNo: s.value }) }
        : null,
  },
];
