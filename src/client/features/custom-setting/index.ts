import { lazy } from 'react';
import { defineFeature } from '../../commands/feature';

/** 定制公交设置 (module `customSetting`): base settings per district, the refund ladder, the agreement. */
export const customSettingFeature = defineFeature({
  screens: {
    CustomBase: lazy(() => import('./pages/custom-base-page').then((m) => ({ default: m.CustomBasePage }))),
    RefundSetting: lazy(() => import('./pages/refund-setting-page').then((m) => ({ default: m.RefundSettingPage }))),
    AgreementSetting: lazy(() => import('./pages/agreement-setting-page').then((m) => ({ default: m.AgreementSettingPage }))),
  },
});
