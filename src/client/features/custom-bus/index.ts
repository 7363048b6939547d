import { lazy } from 'react';
import { defineFeature } from '../../commands/feature';

/** 定制公交 (module `customBus`): stations, lines and paths, classes, orders, the summary, the fleet, demand. */
export const customBusFeature = defineFeature({
  screens: {
    ListCustomStation: lazy(() => import('./pages/custom-station-page').then((m) => ({ default: m.CustomStationPage }))),
    ListCustomLine: lazy(() => import('./pages/custom-line-page').then((m) => ({ default: m.CustomLinePage }))),
    AddCustomLine: lazy(() => import('./pages/custom-line-edit-page').then((m) => ({ default: m.CustomLineEditPage }))),
    CustomLinePath: lazy(() => import('./pages/custom-line-path-page').then((m) => ({ default: m.CustomLinePathPage }))),
    ListClasses: lazy(() => import('./pages/classes-page').then((m) => ({ default: m.ClassesPage }))),
    AddClasses: lazy(() => import('./pages/classes-add-page').then((m) => ({ default: m.ClassesAddPage }))),
    ListOrderRecord: lazy(() => import('./pages/custom-order-page').then((m) => ({ default: m.CustomOrderPage }))),
    OrderDetail: lazy(() => import('./pages/custom-order-detail-page').then((m) => ({ default: m.CustomOrderDetailPage }))),
    CustomSummary: lazy(() => import('./pages/custom-summary-page').then((m) => ({ default: m.CustomSummaryPage }))),
    ListCar: lazy(() => import('./pages/car-page').then((m) => ({ default: m.CarPage }))),
    AddCar: lazy(() => import('./pages/car-edit-page').then((m) => ({ default: m.CarEditPage }))),
    ListDriver: lazy(() => import('./pages/driver-page').then((m) => ({ default: m.DriverPage }))),
    AddDriver: lazy(() => import('./pages/driver-edit-page').then((m) => ({ default: m.DriverEditPage }))),
    ListCustom: lazy(() => import('./pages/demand-page').then((m) => ({ default: m.DemandPage }))),
    ListCustomRecord: lazy(() => import('./pages/demand-record-page').then((m) => ({ default: m.DemandRecordPage }))),
  },
});
