import * as api from '../../../shared/api/handle-card';
import type { AppDeps } from '../../context';
import type { SeedGenerator } from '../../db/seed/context';
import { enqueueExport } from '../../lib/export-definition';
import type { AnyExportKind } from '../../lib/export-tasks';
import { refundRetryJob } from '../../lib/refund-ledger';
import type { Binder } from '../../plugins/contract';
import type { ModuleJob } from '../module';
import { handleCardSeed } from './apply-seed';
import * as service from './apply-service';
import { handleCardApplications, handleCardPool, handleCardSettings } from './schema';

/** 办卡申请, 办卡设置 and 办卡规则编辑: binds the applications' endpoints (api/handle-card.ts). */
export function bindApply(b: Binder, deps: AppDeps): void {
  const noStore = (reply: { header(k: string, v: string): unknown }) => () => void reply.header('cache-control', 'no-store');
  b.bind(api.applyPage, ({ auth, query }) => service.pageApplies(deps, auth, query));
  b.bind(api.applyPageByBody, ({ auth, body }) => service.pageApplies(deps, auth, body));
  b.bind(api.applyTotal, ({ auth, query }) => service.applyTotals(deps, auth, query));
  b.bind(api.applyTotalByBody, ({ auth, body }) => service.applyTotals(deps, auth, body));
  b.bind(api.applyMsg, ({ auth, query }) => service.applyMsg(deps, auth, query.id));
  b.bind(api.applyAudit, ({ auth, body }) => service.auditApply(deps, auth, body));
  b.bind(api.applyAuditBatch, ({ auth, body }) => service.auditBatch(deps, auth, body));
  b.bind(api.applyClaim, ({ auth, body }) => service.claimApply(deps, auth, body));
  b.bind(api.applyRelease, ({ auth, body }) => service.releaseApply(deps, auth, body.id));
  b.bind(api.applyShip, ({ auth, body }) => service.shipApply(deps, auth, body));
  b.bind(api.applyComplete, ({ auth, body }) => service.completeApply(deps, auth, body.id));
  b.bind(api.applyMaterial, ({ auth, body, reply }) => service.openMaterial(deps, auth, body, noStore(reply)));
  b.bind(api.applyFactoryExport, ({ auth, query }) => enqueueExport(deps, auth, service.factoryExportDef, query, `制卡文件 ${query.batchDate}`));
  b.bind(api.applyExport, ({ auth, query }) => enqueueExport(deps, auth, service.applyExportDef, query, service.exportTitle(query)));
  b.bind(api.settingList, ({ auth, query }) => service.listSettings(deps, auth, query));
  b.bind(api.settingById, ({ auth, query }) => service.settingById(deps, auth, query.id));
  b.bind(api.settingSave, ({ auth, body }) => service.saveSetting(deps, auth, body));
}

/** The applications' tables (the module's `tables`). */
export const applyTables = [handleCardSettings, handleCardApplications, handleCardPool];

/** This part's demo seed, run after the module's earlier parts (routes.ts). */
export const applySeed: readonly SeedGenerator[] = handleCardSeed;
export const applyJobs: readonly ModuleJob[] = [
  { name: 'handleCard.payTimeout', everyMs: 60_000, run: (deps) => service.cancelUnpaid(deps) },
  { name: 'handleCard.autoComplete', everyMs: 60 * 60_000, run: (deps) => service.completeDelivered(deps) },
  { name: 'handleCard.imagePurge', everyMs: 60 * 60_000, run: (deps) => service.purgeImages(deps) },
  refundRetryJob('handle', 'handleCard.refundRetry', 5 * 60_000),
];
export const applyExports: readonly AnyExportKind[] = [service.applyExportDef, service.factoryExportDef];
