import { lazy } from 'react';
import { defineFeature } from '../../commands/feature';

/** 特殊码管理 (module `specialCode`): discount-card products, their orders, counts and refunds. */
export const discountFeature = defineFeature({
  screens: {
    ListSpecialCode: lazy(() => import('./pages/special-code-list-page').then((m) => ({ default: m.SpecialCodeListPage }))),
    SpecialCodeCount: lazy(() => import('./pages/special-code-count-page').then((m) => ({ default: m.SpecialCodeCountPage }))),
    RuleSetting: lazy(() => import('./pages/rule-setting-page').then((m) => ({ default: m.RuleSettingPage }))),
    RuleEdit: lazy(() => import('./pages/rule-edit-page').then((m) => ({ default: m.RuleEditPage }))),
    SpecialCodeAgreement: lazy(() => import('./pages/special-code-agreement-page').then((m) => ({ default: m.SpecialCodeAgreementPage }))),
  },
});
