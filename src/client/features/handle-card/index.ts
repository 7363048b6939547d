import { lazy } from 'react';
import { defineFeature } from '../../commands/feature';

/** 线上办卡 (module `handleCard`): 办卡申请, 办卡设置, 办卡规则编辑 and the area's card list. */
export const handleCardFeature = defineFeature({
  screens: {
    ListHandleCard: lazy(() => import('./pages/handle-card-page').then((m) => ({ default: m.HandleCardPage }))),
    HandleCardSetting: lazy(() => import('./pages/handle-card-setting-page').then((m) => ({ default: m.HandleCardSettingPage }))),
    HandleCardRuleEdit: lazy(() => import('./pages/handle-card-rule-edit-page').then((m) => ({ default: m.HandleCardRuleEditPage }))),
    ListCard: lazy(() => import('./pages/card-list-page').then((m) => ({ default: m.CardListPage }))),
  },
});
