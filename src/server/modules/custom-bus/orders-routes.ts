import type { AppDeps } from '../../context';
import type { SeedGenerator } from '../../db/seed/context';
import type { Binder } from '../../plugins/contract';
import type { ModuleJob } from '../module';
import type { AnyExportKind } from '../../lib/export-tasks';

/** 订单记录、订单详情 (refund, check) and 定制汇总: binds this part's endpoints (api/custom-bus/orders.ts). */
export function bindOrders(_b: Binder, _deps: AppDeps): void {}

/** This part's demo seed, run in order after the parts before it (routes.ts). */
export const ordersSeed: readonly SeedGenerator[] = [];
export const ordersJobs: readonly ModuleJob[] = [];
export const ordersExports: readonly AnyExportKind[] = [];
