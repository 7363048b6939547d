import * as api from '../../../shared/api/custom-bus/demand';
import type { AppDeps } from '../../context';
import type { SeedGenerator } from '../../db/seed/context';
import { enqueueExport } from '../../lib/export-definition';
import type { AnyExportKind } from '../../lib/export-tasks';
import type { Binder } from '../../plugins/contract';
import type { ModuleJob } from '../module';
import * as demand from './demand-service';
import { demandSeedSteps } from './demand-seed';
import * as summary from './summary-service';

/** 定制汇总, 定制列表、定制记录, the heat map and 需求成线: binds this part's endpoints (api/custom-bus/demand.ts). */
export function bindDemand(b: Binder, deps: AppDeps): void {
  b.bind(api.customSummaryPage, ({ auth, query }) => summary.summaryPage(deps, auth, query));
  b.bind(api.customSummaryTotal, ({ auth, query }) => summary.summaryTotal(deps, auth, query));
  b.bind(api.customSummaryExport, ({ auth, query }) => enqueueExport(deps, auth, summary.summaryExport, query, summary.summaryExportTitle(query)));
  b.bind(api.customDemandPage, ({ auth, query }) => demand.pageDemands(deps, auth, query));
  b.bind(api.customDemandTotal, ({ auth, query }) => demand.demandTotals(deps, auth, query));
  b.bind(api.customDemandExport, ({ auth, query }) => enqueueExport(deps, auth, demand.demandsExport, query, demand.demandExportTitle(query)));
  b.bind(api.customDemandById, ({ auth, query }) => demand.demandById(deps, auth, query.id));
  b.bind(api.customDemandHandle, ({ auth, body }) => demand.handleDemand(deps, auth, body));
  b.bind(api.customDemandCandidateLines, ({ auth, query }) => demand.candidateLines(deps, auth, query.id));
  b.bind(api.customDemandRecordPage, ({ auth, query }) => demand.pageRecords(deps, auth, query));
  b.bind(api.customDemandRecordTotal, ({ auth, query }) => demand.recordTotals(deps, auth, query));
  b.bind(api.customDemandRecordExport, ({ auth, query }) => enqueueExport(deps, auth, demand.recordsExport, query, demand.recordExportTitle(query)));
  b.bind(api.customDemandHeat, ({ auth, query }) => demand.heat(deps, auth, query));
  b.bind(api.customDemandToLine, ({ auth, body }) => demand.toLine(deps, auth, body));
}

/** This part's demo seed, run in order after the parts before it (routes.ts). */
export const demandSeed: readonly SeedGenerator[] = demandSeedSteps;
export const demandJobs: readonly ModuleJob[] = [];
export const demandExports: readonly AnyExportKind[] = [summary.summaryExport, demand.demandsExport, demand.recordsExport];
