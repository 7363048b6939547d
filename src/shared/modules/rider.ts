import { defineModule } from './define';

/** 乘客用户管理: the mini-program's riders, their cards and the card lookup behind the palette. */
export const riderModule = defineModule({
  id: 'busUser',
  menu: {
    id: 'busUser',
    title: '乘客用户管理',
    icon: 'peoples',
    jumpKey: 'p',
    pages: [
      { key: 'bus-user', title: '乘客用户', component: 'ListBusUser', actions: ['add', 'export'] },
      { key: 'yc-user', title: '异常用户', component: 'ListYcUser', actions: ['add', 'export'] },
      { key: 'card', title: '卡片详情', component: 'CardView', hidden: true, actions: ['reveal', 'unbind', 'walletRefund', 'packageRefund', 'requery'] },
    ],
  },
  operations: { RIDER_REVEAL: '查看实名信息', RIDER_ADD: '新增乘客', RIDER_EXPORT: '导出乘客用户', RIDER_RESOLVE: '处理异常用户' },
});
