import type { AppDeps } from '../../context';
import type { SeedGenerator } from '../../db/seed/context';
import type { Binder } from '../../plugins/contract';
import type { ModuleJob } from '../module';
import type { AnyExportKind } from '../../lib/export-tasks';

/** 车辆与司机: binds this part's endpoints (api/custom-bus/fleet.ts). */
export function bindFleet(_b: Binder, _deps: AppDeps): void {}

/** This part's demo seed, run in order after the parts before it (routes.ts). */
export const fleetSeed: readonly SeedGenerator[] = [];
export const fleetJobs: readonly ModuleJob[] = [];
export const fleetExports: readonly AnyExportKind[] = [];
