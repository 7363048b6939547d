import * as api from '../../../shared/api/custom-bus/orders';
import type { AppDeps } from '../../context';
import type { SeedGenerator } from '../../db/seed/context';
import { enqueueExport } from '../../lib/export-definition';
import type { AnyExportKind } from '../../lib/export-tasks';
import { refundRetryJob } from '../../lib/refund-ledger';
import type { Binder } from '../../plugins/contract';
import type { ModuleJob } from '../module';
import { expireHolds } from './rider-side';
import { seedOrders } from './orders-seed';
import * as service from './orders-service';

/** 订单记录、订单详情 (refund, check) and 取消班次: binds this part's endpoints (api/custom-bus/orders.ts). */
export function bindOrders(b: Binder, deps: AppDeps): void {
  b.bind(api.customOrderPage, ({ auth, query }) => service.pageOrders(deps, auth, query));
  b.bind(api.customOrderPageByBody, ({ auth, body }) => service.pageOrders(deps, auth, body));
  b.bind(api.customOrderTotal, ({ auth, query }) => service.orderTotals(deps, auth, query));
  b.bind(api.customOrderTotalByBody, ({ auth, body }) => service.orderTotals(deps, auth, body));
  b.bind(api.customOrderMsg, ({ auth, query }) => service.orderMsg(deps, auth, query.id));
  b.bind(api.customOrderRefund, ({ auth, body }) => service.refundOrder(deps, auth, body));
  b.bind(api.customTicketCheck, ({ auth, body }) => service.checkTicket(deps, auth, body));
  b.bind(api.customOrderExport, ({ auth, query }) => enqueueExport(deps, auth, service.ordersExport, query, service.orderExportTitle(query)));
  b.bind(api.customClassesCancel, ({ auth, body }) => service.cancelClasses(deps, auth, body));
}

/** This part's demo seed, run in order after the parts before it (routes.ts): orders on the classes seeded before. */
export const ordersSeed: readonly SeedGenerator[] = [{ name: 'customBus/orders', run: seedOrders }];
export const ordersJobs: readonly ModuleJob[] = [
  { name: 'ticket.holdExpire', everyMs: 30_000, run: (deps) => expireHolds(deps) },
  refundRetryJob('custom', 'custom.refundRetry', 5 * 60_000),
];
export const ordersExports: readonly AnyExportKind[] = [service.ordersExport];
