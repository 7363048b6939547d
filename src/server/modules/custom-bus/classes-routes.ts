import type { AppDeps } from '../../context';
import type { SeedGenerator } from '../../db/seed/context';
import type { Binder } from '../../plugins/contract';
import type { ModuleJob } from '../module';
import type { AnyExportKind } from '../../lib/export-tasks';

/** 班次: scheduling, dispatch, sale moves, cancellation; the rider side (buy, pay, hold expiry): binds this part's endpoints (api/custom-bus/classes.ts). */
export function bindClasses(_b: Binder, _deps: AppDeps): void {}

/** This part's demo seed, run in order after the parts before it (routes.ts). */
export const classesSeed: readonly SeedGenerator[] = [];
export const classesJobs: readonly ModuleJob[] = [];
export const classesExports: readonly AnyExportKind[] = [];
