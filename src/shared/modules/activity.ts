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
      { key: 'activity', title: '活动列表', component: 'ListActivity', actions: ['export', 'edit', 'simulate', 'effect'] },
      { key: 'discount-limit', title: '优惠限制', component: 'DiscountLimit' },
      { key: 'operate-record', title: '操作记录', component: 'ListOperateRecord' },
    ],
  },
  operations: {
    ACTIVITY_SAVE: '保存活动',
    ACTIVITY_BUDGET: '追加预算',
    ACTIVITY_PAUSE: '暂停活动',
    ACTIVITY_RESUME: '恢复活动',
    ACTIVITY_END: '结束活动',
    ACTIVITY_COPY: '复制活动',
    ACTIVITY_LIMIT_SAVE: '保存优惠限制',
    ACTIVITY_EXPORT: '导出活动数据',
  },
});
