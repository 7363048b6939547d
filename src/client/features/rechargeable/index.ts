import { lazy } from 'react';
import { defineFeature } from '../../commands/feature';

/** 储值管理 (module `rechargeable`): plans, wallets and their ledger, adjustments, orders and refunds, the setting. */
export const rechargeableFeature = defineFeature({
  screens: {
    ListRechargeManage: lazy(() => import('./pages/recharge-manage-page').then((m) => ({ default: m.RechargeManagePage }))),
    AddRecharge: lazy(() => import('./pages/add-recharge-page').then((m) => ({ default: m.AddRechargePage }))),
    ListRechargeOrder: lazy(() => import('./pages/recharge-order-page').then((m) => ({ default: m.RechargeOrderPage }))),
    RechargeSetting: lazy(() => import('./pages/recharge-setting-page').then((m) => ({ default: m.RechargeSettingPage }))),
    RechargeAgreement: lazy(() => import('./pages/recharge-agreement-page').then((m) => ({ default: m.RechargeAgreementPage }))),
  },
});
