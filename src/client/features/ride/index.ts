import { lazy } from 'react';
import { defineFeature } from '../../commands/feature';

/**
 * 乘车记录管理 (module `order`): ride records with their payment orders, and daily ridership with its
 * charts. The charts' library comes with 乘车统计's own code only.
 */
export const rideFeature = defineFeature({
  screens: {
    ListOrder: lazy(() => import('./pages/order-list-page').then((m) => ({ default: m.OrderListPage }))),
    OrderTotal: lazy(() => import('./pages/order-total-page').then((m) => ({ default: m.OrderTotalPage }))),
  },
});
