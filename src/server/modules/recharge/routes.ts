import * as api from '../../../shared/api/recharge';
import * as t from '../../db/schema';
import { enqueueExport } from '../../lib/export-definition';
import type { ServerModule } from '../module';
import * as jobs from './jobs';
import { cardCentreLoads, rechargeAttempts, rechargeOrders, rechargeReconcileItems, rechargeSettlementDays } from './schema';
import { rechargeDemoSeed } from './seed';
import * as service from './service';
import { refundRetryJob } from '../../lib/refund-ledger';

/**
 * NFC充值: top-up orders and their write attempts, the built-in card centre's ledger, 圈存日对账; the
 * jobs that mark unconfirmed writes 可疑 and match the centre's daily settlement.
 */
export const rechargeServer: ServerModule = {
  id: 'recharge',
  // Orders are on the riders' cards; resolvers are staff accounts.
  seed: { dependsOn: ['busUser', 'user'], demo: rechargeDemoSeed },
  tables: [rechargeOrders, rechargeAttempts, cardCentreLoads, rechargeSettlementDays, rechargeReconcileItems],
  // A load raises the card's balance; a refund writes the shared refund ledger.
  writes: [t.busCards, t.moneyRefunds],
  exportKinds: [service.ordersExport, jobs.reconcileExport],
  routes(b, deps) {
    b.bind(api.rechargePage, ({ auth, query }) => service.pageOrders(deps, auth, query));
    b.bind(api.rechargeTotal, ({ auth, query }) => service.totals(deps, auth, query));
    b.bind(api.rechargePageByBody, ({ auth, body }) => service.pageOrders(deps, auth, body));
    b.bind(api.rechargeTotalByBody, ({ auth, body }) => service.totals(deps, auth, body));
    b.bind(api.rechargeMsg, ({ auth, query }) => service.orderMsg(deps, auth, query.id));
    b.bind(api.rechargeRequery, ({ auth, body }) => service.requery(deps, auth, body.id));
    b.bind(api.rechargeResolve, ({ auth, body }) => service.resolve(deps, auth, body));
    b.bind(api.rechargeRefund, ({ auth, body }) => service.refund(deps, auth, body));
    b.bind(api.rechargeExport, ({ auth, query }) => enqueueExport(deps, auth, service.ordersExport, query, service.exportTitle(query)));
    b.bind(api.rechargeReconcilePage, ({ auth, query }) => jobs.reconcilePage(deps, auth, query));
    b.bind(api.rechargeReconcileTotal, ({ auth, query }) => jobs.reconcileTotals(deps, auth, query));
    b.bind(api.rechargeReconcileExport, ({ auth, query }) => enqueueExport(deps, auth, jobs.reconcileExport, query, jobs.reconcileExportTitle(query)));
  },
  jobs: [
    { name: 'recharge.suspect', everyMs: 60_000, run: (deps) => jobs.markSuspects(deps) },
    { name: 'recharge.reconcile', everyMs: 600_000, atStart: true, run: (deps) => jobs.reconcile(deps) },
    refundRetryJob('nfc', 'recharge.refundRetry', 5 * 60_000),
  ],
};
