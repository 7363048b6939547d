import { lazy } from 'react';
import { defineFeature } from '../../commands/feature';

/** 套餐购买 (module `packagePay`): packages, their orders and refunds, the summary and 套餐体检, the agreement. */
export const packagePayFeature = defineFeature({
  screens: {
    PackageSummary: lazy(() => import('./pages/package-summary-page').then((m) => ({ default: m.PackageSummaryPage }))),
    ListPackage: lazy(() => import('./pages/package-list-page').then((m) => ({ default: m.PackageListPage }))),
    ListPackageOrder: lazy(() => import('./pages/package-order-page').then((m) => ({ default: m.PackageOrderPage }))),
    PackageAgreement: lazy(() => import('./pages/package-agreement-page').then((m) => ({ default: m.PackageAgreementPage }))),
    AddPackage: lazy(() => import('./pages/package-edit-page').then((m) => ({ default: m.PackageEditPage }))),
    PackageOrderDetail: lazy(() => import('./pages/package-order-detail-page').then((m) => ({ default: m.PackageOrderDetailPage }))),
  },
});
