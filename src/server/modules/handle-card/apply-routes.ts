import type { AppDeps } from '../../context';
import type { SeedGenerator } from '../../db/seed/context';
import type { AnyExportKind } from '../../lib/export-tasks';
import type { Binder } from '../../plugins/contract';
import type { ModuleJob } from '../module';

/** 办卡申请, 办卡设置 and 办卡规则编辑: binds the applications' endpoints (api/handle-card.ts). */
export function bindApply(_b: Binder, _deps: AppDeps): void {}

/** This part's demo seed, run after the module's earlier parts (routes.ts). */
export const applySeed: readonly SeedGenerator[] = [];
export const applyJobs: readonly ModuleJob[] = [];
export const applyExports: readonly AnyExportKind[] = [];
