import { lazy } from 'react';
import { defineFeature } from '../../commands/feature';
import { cardViewScreen } from './card-view-chunk';

/** 乘客用户管理 (module `busUser`): the call-centre desk's card view, card lookups in the palette. */
export const riderFeature = defineFeature({
  screens: {
    ListBusUser: lazy(() => import('./pages/rider-list-page').then((m) => ({ default: m.BusUserPage }))),
    ListYcUser: lazy(() => import('./pages/rider-list-page').then((m) => ({ default: m.AbnormalRiderPage }))),
    CardView: cardViewScreen.Screen,
  },
});
