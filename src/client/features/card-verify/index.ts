import { lazy } from 'react';
import { defineFeature } from '../../commands/feature';

/** 线上验卡 (module `cardVerify`): 验卡记录 with its review queue, and 验卡配置. */
export const cardVerifyFeature = defineFeature({
  screens: {
    ListCardVerify: lazy(() => import('./pages/card-verify-page').then((m) => ({ default: m.CardVerifyPage }))),
    CardVerifyConfig: lazy(() => import('./pages/card-verify-config-page').then((m) => ({ default: m.CardVerifyConfigPage }))),
  },
});
