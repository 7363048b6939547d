import { lazy } from 'react';
import { defineFeature } from '../../commands/feature';

/** 活动管理 (module `acitivity`): 活动列表, 优惠限制 and 操作记录. */
export const activityFeature = defineFeature({
  screens: {
    ListActivity: lazy(() => import('./pages/activity-page').then((m) => ({ default: m.ActivityPage }))),
    DiscountLimit: lazy(() => import('./pages/discount-limit-page').then((m) => ({ default: m.DiscountLimitPage }))),
    ListOperateRecord: lazy(() => import('./pages/operate-record-page').then((m) => ({ default: m.OperateRecordPage }))),
  },
});
