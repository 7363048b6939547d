import { lazy } from 'react';
import { defineFeature } from '../../lib/feature';
import { riderCommands, riderSources } from './commands';

/** 乘客用户管理 (module `busUser`): the call-centre desk's card view, card lookups in the palette. */
export const riderFeature = defineFeature({
  screens: {
    ListBusUser: lazy(() => import('./pages/rider-list-page').then((m) => ({ default: m.BusUserPage }))),
    ListYcUser: lazy(() => import('./pages/rider-list-page').then((m) => ({ default: m.AbnormalRiderPage }))),
    CardView: lazy(() => import('./pages/card-view-page').then((m) => ({ default: m.CardViewPage }))),
  },
  commands: riderCommands,
  sources: riderSources,
});
