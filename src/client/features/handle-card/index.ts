import { lazy } from 'react';
import { defineFeature } from '../../commands/feature';

/** 线上办卡 (module `handleCard`): for now the area's card list. */
export const handleCardFeature = defineFeature({
  screens: {
    ListCard: lazy(() => import('./pages/card-list-page').then((m) => ({ default: m.CardListPage }))),
  },
});
