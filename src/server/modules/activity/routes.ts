import type { ServerModule } from '../module';

/** 活动管理 (second wave §8): fare activities, their budgets and limits, the settlement of rides against them and their record. */
export const activityServer: ServerModule = {
  id: 'acitivity',
  tables: [],
  routes() {},
};
