import { defineModule } from './define';

/**
 * 乘车记录管理: ride records and the daily ridership kept from them. The screens (order list, order
 * total) are still to come; the calls and the data are here.
 */
export const rideModule = defineModule({
  id: 'order',
  menu: {
    id: 'order',
    title: '乘车记录管理',
    icon: 'order',
    jumpKey: 'o',
    pages: [
      { key: 'order-list', title: '乘车记录', component: 'ListOrder', actions: ['export', 'export-staff'] },
      { key: 'order-total', title: '乘车统计', component: 'OrderTotal', actions: ['export'] },
    ],
  },
  operations: { RIDE_EXPORT: '导出乘车记录', RIDERSHIP_EXPORT: '导出每日客流' },
});
