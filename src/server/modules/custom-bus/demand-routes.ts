import type { AppDeps } from '../../context';
import type { SeedGenerator } from '../../db/seed/context';
import type { Binder } from '../../plugins/contract';
import type { ModuleJob } from '../module';
import type { AnyExportKind } from '../../lib/export-tasks';

/** 定制列表、定制记录, the heat map and 需求成线: binds this part's endpoints (api/custom-bus/demand.ts). */
export function bindDemand(_b: Binder, _deps: AppDeps): void {}

/** This part's demo seed, run in order after the parts before it (routes.ts). */
export const demandSeed: readonly SeedGenerator[] = [];
export const demandJobs: readonly ModuleJob[] = [];
export const demandExports: readonly AnyExportKind[] = [];
