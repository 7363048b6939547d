import type { AppDeps } from '../../context';
import type { SeedGenerator } from '../../db/seed/context';
import type { AnyExportKind } from '../../lib/export-tasks';
import type { Binder } from '../../plugins/contract';
import type { ModuleJob } from '../module';

/** 意见反馈: binds its endpoints (api/feedback.ts). */
export function bindFeedback(_b: Binder, _deps: AppDeps): void {}

/** This part's demo seed, run after the module's earlier parts (routes.ts). */
export const feedbackSeed: readonly SeedGenerator[] = [];
export const feedbackJobs: readonly ModuleJob[] = [];
export const feedbackExports: readonly AnyExportKind[] = [];
