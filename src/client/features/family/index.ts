import { lazy } from 'react';
import { defineFeature } from '../../commands/feature';

/** 亲情卡 (module `callingCard`): family-card bindings, renewals and the card-centre check. */
export const familyFeature = defineFeature({
  screens: {
    ListFamilyBind: lazy(() => import('./pages/family-bind-page').then((m) => ({ default: m.FamilyBindPage }))),
    ListRenewLog: lazy(() => import('./pages/renew-log-page').then((m) => ({ default: m.RenewLogPage }))),
    CardSubscription: lazy(() => import('./pages/card-subscription-page').then((m) => ({ default: m.CardSubscriptionPage }))),
  },
});
