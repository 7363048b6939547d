import type { AppDeps } from '../../context';
import type { SeedGenerator } from '../../db/seed/context';
import type { Binder } from '../../plugins/contract';
import type { ModuleJob } from '../module';
import type { AnyExportKind } from '../../lib/export-tasks';

/** 定制站点、定制线路与轨迹: binds this part's endpoints (api/custom-bus/network.ts). */
export function bindNetwork(_b: Binder, _deps: AppDeps): void {}

/** This part's demo seed, run in order after the parts before it (routes.ts). */
export const networkSeed: readonly SeedGenerator[] = [];
export const networkJobs: readonly ModuleJob[] = [];
export const networkExports: readonly AnyExportKind[] = [];
