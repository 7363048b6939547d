import * as pkg from '../../../shared/api/package-pay';
import { enqueueExport } from '../../lib/export-definition';
import type { ServerModule } from '../module';
import { packageOrders, packageUsages, packages } from './schema';
import { packageDemoSeed } from './seed';
import * as service from './service';
import { refundRetryJob } from '../../lib/refund-ledger';

/** 套餐购买: packages, their orders and refunds, the daily summary and 套餐体检; the expiry job. */
export const packagePayServer: ServerModule = {
  id: 'packagePay',
  // Orders belong to riders; the last month's usages point at ride records; sold under the area's agreement.
  seed: { dependsOn: ['user', 'busUser', 'order', 'settings'], demo: packageDemoSeed },
  tables: [packages, packageOrders, packageUsages],
  exportKinds: [service.ordersExport, service.summaryExport, service.packagesExport],
  routes(b, deps) {
    b.bind(pkg.packagePage, ({ auth, query }) => service.pagePackages(deps, auth, query));
    b.bind(pkg.packageTotal, ({ auth, query }) => service.packageTotals(deps, auth, query));
    b.bind(pkg.packageExport, ({ auth, query }) => enqueueExport(deps, auth, service.packagesExport, query, service.packageExportTitle(query)));
    b.bind(pkg.packageById, ({ auth, query }) => service.packageById(deps, auth, query.id));
    b.bind(pkg.packageSave, ({ auth, body }) => service.savePackage(deps, auth, body));
    b.bind(pkg.packageUpdateStatus, ({ auth, body }) => service.updatePackageStatus(deps, auth, body));
    b.bind(pkg.packageDelete, ({ auth, query }) => service.deletePackage(deps, auth, query.id));
    b.bind(pkg.packageOrderPage, ({ auth, query }) => service.pageOrders(deps, auth, query));
    b.bind(pkg.packageOrderPageByBody, ({ auth, body }) => service.pageOrders(deps, auth, body));
    b.bind(pkg.packageOrderTotal, ({ auth, query }) => service.orderTotals(deps, auth, query));
    b.bind(pkg.packageOrderTotalByBody, ({ auth, body }) => service.orderTotals(deps, auth, body));
    b.bind(pkg.packageOrderMsg, ({ auth, query }) => service.orderMsg(deps, auth, query.id));
    b.bind(pkg.packageOrderRefundPreview, ({ auth, query }) => service.refundPreview(deps, auth, query.id));
    b.bind(pkg.packageOrderRefund, ({ auth, body }) => service.refundOrder(deps, auth, body));
    b.bind(pkg.packageOrderExport, ({ auth, query }) => enqueueExport(deps, auth, service.ordersExport, query, service.orderExportTitle(query)));
    b.bind(pkg.packageSummaryPage, ({ auth, query }) => service.summaryPage(deps, auth, query));
    b.bind(pkg.packageSummaryTotal, ({ auth, query }) => service.summaryTotals(deps, auth, query));
    b.bind(pkg.packageSummaryHealth, ({ auth, query }) => service.packageHealth(deps, auth, query));
    b.bind(pkg.packageSummaryExport, ({ auth, query }) => enqueueExport(deps, auth, service.summaryExport, query, '套餐汇总'));
  },
  jobs: [
    { name: 'package.expire', everyMs: 60_000, run: (deps) => service.expireOrders(deps) },
    refundRetryJob('package', 'package.refundRetry', 5 * 60_000),
  ],
};
