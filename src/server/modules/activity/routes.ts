import * as api from '../../../shared/api/activity';
import { enqueueExport } from '../../lib/export-definition';
import type { ServerModule } from '../module';
import { activities, activityCounters, activityLimits, activityUsages } from './schema';
import { activityDemoSeed } from './seed';
import * as service from './service';

/** 活动管理 (second wave §8): fare activities, their budgets and limits, the settlement of rides against them and their record. */
export const activityServer: ServerModule = {
  id: 'acitivity',
  // Usages are derived from the last month's ride records (module order) of riders' cards (busUser); the operators are users.
  seed: { dependsOn: ['user', 'busUser', 'order'], demo: activityDemoSeed },
  tables: [activities, activityLimits, activityUsages, activityCounters],
  exportKinds: [service.activitiesExport, service.effectExport],
  routes(b, deps) {
    b.bind(api.activityPage, ({ auth, query }) => service.pageActivities(deps, auth, query));
    b.bind(api.activityById, ({ auth, query }) => service.activityById(deps, auth, query.id));
    b.bind(api.activitySave, ({ auth, body }) => service.saveActivity(deps, auth, body));
    b.bind(api.activityUpdateStatus, ({ auth, body }) => service.updateActivityStatus(deps, auth, body));
    b.bind(api.activityCopy, ({ auth, body }) => service.copyActivity(deps, auth, body.id));
    b.bind(api.activityTotal, ({ auth, query }) => service.activityTotals(deps, auth, query));
    b.bind(api.activityExport, ({ auth, query }) => enqueueExport(deps, auth, service.activitiesExport, query, service.activityExportTitle(query)));
    b.bind(api.activitySimulate, ({ auth, body }) => service.simulateActivity(deps, auth, body));
    b.bind(api.activityEffect, ({ auth, query }) => service.activityEffect(deps, auth, query));
    b.bind(api.activityEffectExport, async ({ auth, query }) => enqueueExport(deps, auth, service.effectExport, query, await service.effectExportTitle(deps, auth, query)));
    b.bind(api.discountLimitList, ({ auth }) => service.listLimits(deps, auth));
    b.bind(api.discountLimitSave, ({ auth, body }) => service.saveLimit(deps, auth, body));
    b.bind(api.operateRecordPage, ({ auth, query }) => service.pageRecords(deps, auth, query));
  },
};
