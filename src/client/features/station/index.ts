import { lazy } from 'react';
import { defineFeature } from '../../commands/feature';

/** 站点管理 (module `station`): stations and, to come, their QR codes and GPS ordering. */
export const stationFeature = defineFeature({
  screens: {
    ListStation: lazy(() => import('./pages/station-page').then((m) => ({ default: m.StationPage }))),
    GpsSort: lazy(() => import('./pages/gps-sort-page').then((m) => ({ default: m.GpsSortPage }))),
    ListStationQrCode: lazy(() => import('./pages/station-qr-page').then((m) => ({ default: m.StationQrPage }))),
  },
});
