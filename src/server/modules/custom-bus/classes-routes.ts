import * as api from '../../../shared/api/custom-bus/classes';
import type { AppDeps } from '../../context';
import type { SeedGenerator } from '../../db/seed/context';
import { enqueueExport } from '../../lib/export-definition';
import type { AnyExportKind } from '../../lib/export-tasks';
import type { Binder } from '../../plugins/contract';
import type { ModuleJob } from '../module';
import { seedClasses } from './classes-seed';
import * as service from './classes-service';

/** 班次: scheduling, dispatch, sale moves, cancellation; the rider side (buy, pay, hold expiry): binds this part's endpoints (api/custom-bus/classes.ts). */
export function bindClasses(b: Binder, deps: AppDeps): void {
  b.bind(api.classesPage, ({ auth, query }) => service.pageClasses(deps, auth, query));
  b.bind(api.classesTotal, ({ auth, query }) => service.classesTotals(deps, auth, query));
  b.bind(api.classesExport, ({ auth, query }) => {
    const bounded = service.boundedWindow(query, deps.clock.now());
    return enqueueExport(deps, auth, service.classesExportKind, bounded, service.classesExportTitle(bounded));
  });
  b.bind(api.classesById, ({ auth, query }) => service.classesById(deps, auth, query.id));
  b.bind(api.classesSave, ({ auth, body }) => service.saveClass(deps, auth, body));
  b.bind(api.classesBatchSave, ({ auth, body }) => service.batchSave(deps, auth, body));
  b.bind(api.classesUpdateStatus, ({ auth, body }) => service.updateClassStatus(deps, auth, body));
  b.bind(api.classesOptions, ({ auth }) => service.classesOptions(deps, auth));
  b.bind(api.classesAssign, ({ auth, body }) => service.assignClass(deps, auth, body));
}

/** This part's demo seed, run in order after the parts before it (routes.ts). */
/**
 * The small profile (every test's server) keeps a week behind and eight days ahead (one class not yet
 * on sale): the demo's 60 days sold 45,000 tickets, 3 s of every test file's start.
 */
const SMALL_WINDOW = { pastDays: 7, aheadDays: 8 };
export const classesSeed: readonly SeedGenerator[] = [
  { name: 'custom classes', run: async (ctx) => void (await seedClasses(ctx.db, ctx.now, ctx.rng, ctx.profile.name === 'small' ? SMALL_WINDOW : {})) },
];
export const classesJobs: readonly ModuleJob[] = [{ name: 'classes.sale', everyMs: 60_000, run: (deps) => service.runSaleJob(deps) }];
export const classesExports: readonly AnyExportKind[] = [service.classesExportKind];
