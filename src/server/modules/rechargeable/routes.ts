import * as wallet from '../../../shared/api/wallet';
import { enqueueExport } from '../../lib/export-definition';
import type { ServerModule } from '../module';
import { closeUnpaidOrders } from './money';
import { nightlyReconcile, reconcileNow } from './reconcile';
import { rechargePlans, rechargeSettings, walletAdjustments, walletLedger, walletOrders, walletReconcileRuns, wallets } from './schema';
import { rechargeableDemoSeed } from './seed';
import * as service from './service';
import { refundRetryJob } from '../../lib/refund-ledger';

/** 储值管理: plans, orders and their refunds, wallets and their ledger, adjustments, the setting, 每日轧账. */
export const rechargeableServer: ServerModule = {
  id: 'rechargeable',
  // Wallets belong to riders; adjustments name staff.
  seed: { dependsOn: ['user', 'busUser'], demo: rechargeableDemoSeed },
  tables: [rechargePlans, wallets, walletOrders, walletLedger, walletAdjustments, rechargeSettings, walletReconcileRuns],
  exportKinds: [service.ordersExport, service.plansExport, service.walletsExport, service.ledgerExport, service.adjustmentsExport],
  routes(b, deps) {
    b.bind(wallet.planPage, ({ auth, query }) => service.pagePlans(deps, auth, query));
    b.bind(wallet.planTotal, ({ auth, query }) => service.planTotals(deps, auth, query));
    b.bind(wallet.planExport, ({ auth, query }) => enqueueExport(deps, auth, service.plansExport, query, service.planExportTitle(query)));
    b.bind(wallet.planById, ({ auth, query }) => service.planById(deps, auth, query.id));
    b.bind(wallet.planSave, ({ auth, body }) => service.savePlan(deps, auth, body));
    b.bind(wallet.planStatus, ({ auth, body }) => service.planStatus(deps, auth, body));
    b.bind(wallet.planDelete, ({ auth, query }) => service.deletePlan(deps, auth, query.id));
    b.bind(wallet.orderPage, ({ auth, query }) => service.pageOrders(deps, auth, query));
    b.bind(wallet.orderMsg, ({ auth, query }) => service.orderMsg(deps, auth, query.id));
    b.bind(wallet.orderTotal, ({ auth, query }) => service.orderTotals(deps, auth, query));
    b.bind(wallet.orderRefund, ({ auth, body }) => service.refundOrder(deps, auth, body));
    b.bind(wallet.orderExport, ({ auth, query }) => enqueueExport(deps, auth, service.ordersExport, query, service.orderExportTitle(query)));
    b.bind(wallet.walletPage, ({ auth, query }) => service.pageWallets(deps, auth, query));
    b.bind(wallet.walletPageByBody, ({ auth, body }) => service.pageWallets(deps, auth, body));
    b.bind(wallet.walletTotal, ({ auth, query }) => service.walletTotals(deps, auth, query));
    b.bind(wallet.walletTotalByBody, ({ auth, body }) => service.walletTotals(deps, auth, body));
    b.bind(wallet.walletExport, ({ auth, query }) => enqueueExport(deps, auth, service.walletsExport, query, service.walletExportTitle(query)));
    b.bind(wallet.walletMsg, ({ auth, query }) => service.walletMsg(deps, auth, query.id));
    b.bind(wallet.ledgerPage, ({ auth, query }) => service.pageLedger(deps, auth, query));
    b.bind(wallet.ledgerExport, async ({ auth, query }) => enqueueExport(deps, auth, service.ledgerExport, query, await service.ledgerExportTitle(deps, auth, query)));
    b.bind(wallet.walletStatus, ({ auth, body }) => service.walletStatus(deps, auth, body));
    b.bind(wallet.adjust, ({ auth, body }) => service.makeAdjustment(deps, auth, body));
    b.bind(wallet.adjustPage, ({ auth, query }) => service.pageAdjustments(deps, auth, query));
    b.bind(wallet.adjustTotal, ({ auth, query }) => service.adjustTotals(deps, auth, query));
    b.bind(wallet.adjustExport, ({ auth, query }) => enqueueExport(deps, auth, service.adjustmentsExport, query, service.adjustExportTitle(query)));
    b.bind(wallet.adjustCheck, ({ auth, body }) => service.checkAdjustment(deps, auth, body));
    b.bind(wallet.reconcile, ({ auth, query }) => reconcileNow(deps, auth, query));
    b.bind(wallet.settingQuery, () => service.querySetting(deps));
    b.bind(wallet.settingSave, ({ auth, body }) => service.saveSetting(deps, auth, body));
  },
  jobs: [
    { name: 'wallet.payTimeout', everyMs: 60_000, run: (deps) => closeUnpaidOrders(deps) },
    refundRetryJob('wallet', 'wallet.refundRetry', 5 * 60_000),
    { name: 'wallet.reconcile', everyMs: 10 * 60_000, run: (deps) => nightlyReconcile(deps) },
  ],
};
