import { lazy } from 'react';
import { defineFeature } from '../../commands/feature';

/** 小程序设置 (module `settings`): base settings, agreements and districts. */
export const settingsFeature = defineFeature({
  screens: {
    BaseSetting: lazy(() => import('./pages/base-setting-page').then((m) => ({ default: m.BaseSettingPage }))),
    ListDistrict: lazy(() => import('./pages/district-page').then((m) => ({ default: m.DistrictPage }))),
    ListAgreement: lazy(() => import('./pages/agreement-page').then((m) => ({ default: m.AgreementPage }))),
  },
});
