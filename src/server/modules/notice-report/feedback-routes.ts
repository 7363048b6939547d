import * as fb from '../../../shared/api/feedback';
import type { AppDeps } from '../../context';
import type { SeedGenerator } from '../../db/seed/context';
import { enqueueExport } from '../../lib/export-definition';
import type { AnyExportKind } from '../../lib/export-tasks';
import type { Binder } from '../../plugins/contract';
import type { ModuleJob } from '../module';
import { feedbackDemoSeed } from './feedback-seed';
import * as service from './feedback-service';

/** 意见反馈: binds its endpoints (api/feedback.ts). */
export function bindFeedback(b: Binder, deps: AppDeps): void {
  const noStore = (reply: { header(k: string, v: string): unknown }) => () => void reply.header('cache-control', 'no-store');
  b.bind(fb.feedbackPage, ({ auth, query }) => service.pageFeedback(deps, auth, query));
  b.bind(fb.feedbackById, ({ auth, query }) => service.feedbackById(deps, auth, query.id));
  b.bind(fb.feedbackAssign, ({ auth, body }) => service.assignFeedback(deps, auth, body));
  b.bind(fb.feedbackReply, ({ auth, body }) => service.replyFeedback(deps, auth, body));
  b.bind(fb.feedbackUpdateStatus, ({ auth, body }) => service.updateFeedbackStatus(deps, auth, body));
  b.bind(fb.feedbackSummary, ({ auth, query }) => service.feedbackSummary(deps, auth, query));
  b.bind(fb.feedbackExport, ({ auth, query }) => enqueueExport(deps, auth, service.feedbackExport, query, service.feedbackExportTitle(query)));
  b.bind(fb.feedbackMaterial, ({ auth, body, reply }) => service.feedbackMaterial(deps, auth, body, noStore(reply)));
}

/** This part's demo seed, run after the module's earlier parts (routes.ts). */
export const feedbackSeed: readonly SeedGenerator[] = feedbackDemoSeed;
export const feedbackJobs: readonly ModuleJob[] = [];
export const feedbackExports: readonly AnyExportKind[] = [service.feedbackExport];
