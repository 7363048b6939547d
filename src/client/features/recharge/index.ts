import { lazy } from 'react';
import { defineFeature } from '../../commands/feature';

/** NFC充值 (module `recharge`): NFC充值记录, the 可疑 queue and ★ 圈存日对账. */
export const rechargeFeature = defineFeature({
  screens: {
    ListRecharge: lazy(() => import('./pages/recharge-page').then((m) => ({ default: m.RechargePage }))),
  },
});
