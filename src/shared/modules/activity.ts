import { defineModule } from './define';

/** 活动管理 (second wave §8; the spec spells the menu id `acitivity`): fare activities, their limits and their record. */
export const activityModule = defineModule({
  id: 'acitivity',
  menu: {
    id: 'acitivity',
    title: '活动管理',
    icon: 'activity',
    jumpKey: 'a',
    pages: [
      { key: 'activity', title: '活动列表', component: 'ListActivity' },
      { key: 'discount-limit', title: '优惠限制', component: 'DiscountLimit' },
      { key: 'operate-record', title: '操作记录', component: 'ListOperateRecord' },
    ],
  },
  operations: {},
});
