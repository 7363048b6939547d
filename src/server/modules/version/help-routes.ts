import type { AppDeps } from '../../context';
import type { SeedGenerator } from '../../db/seed/context';
import type { AnyExportKind } from '../../lib/export-tasks';
import type { Binder } from '../../plugins/contract';
import type { ModuleJob } from '../module';

/** 帮助中心: binds its endpoints (api/help.ts). */
export function bindHelp(_b: Binder, _deps: AppDeps): void {}

/** This part's demo seed, run after the module's earlier parts (routes.ts). */
export const helpSeed: readonly SeedGenerator[] = [];
export const helpJobs: readonly ModuleJob[] = [];
export const helpExports: readonly AnyExportKind[] = [];
