import { lazy } from 'react';
import { defineFeature } from '../../commands/feature';

/** 公交线路 (module `bus`): lines of the open version, their stops, paths and sub-lines. */
export const busFeature = defineFeature({
  screens: {
    ListBusLine: lazy(() => import('./pages/line-list-page').then((m) => ({ default: m.LineListPage }))),
    BusLine: lazy(() => import('./pages/line-page').then((m) => ({ default: m.LinePage }))),
    AddBusLine: lazy(() => import('./pages/add-line-page').then((m) => ({ default: m.AddLinePage }))),
    LinePath: lazy(() => import('./pages/line-path-page').then((m) => ({ default: m.LinePathPage }))),
    ListSubLine: lazy(() => import('./pages/sub-line-list-page').then((m) => ({ default: m.SubLineListPage }))),
    AddSubLine: lazy(() => import('./pages/add-sub-line-page').then((m) => ({ default: m.AddSubLinePage }))),
    SubLineStation: lazy(() => import('./pages/sub-line-station-page').then((m) => ({ default: m.SubLineStationPage }))),
  },
});
