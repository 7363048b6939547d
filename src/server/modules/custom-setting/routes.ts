import type { ServerModule } from '../module';
import { customBaseSettings, customRefundRules } from './schema';

/** 定制公交设置 (second wave §6): base settings per district, the versioned refund ladder and its activation job. */
export const customSettingServer: ServerModule = {
  id: 'customSetting',
  seed: { dependsOn: ['user', 'settings'], demo: [] },
  tables: [customBaseSettings, customRefundRules],
  routes() {},
};
