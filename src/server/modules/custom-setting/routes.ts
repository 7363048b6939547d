import * as api from '../../../shared/api/custom-setting';
import type { ServerModule } from '../module';
import { customBaseSettings, customRefundRules } from './schema';
import { customSettingDemoSeed } from './seed';
import * as service from './service';

/** 定制公交设置 (second wave §6): base settings per district, the versioned refund ladder and its activation job. */
export const customSettingServer: ServerModule = {
  id: 'customSetting',
  seed: { dependsOn: ['user', 'settings'], demo: customSettingDemoSeed },
  tables: [customBaseSettings, customRefundRules],
  routes(b, deps) {
    b.bind(api.baseQuery, ({ auth, query }) => service.queryBase(deps, auth, query));
    b.bind(api.baseSave, ({ auth, body }) => service.saveBase(deps, auth, body));
    b.bind(api.baseApplyTo, ({ auth, body }) => service.applyBase(deps, auth, body));
    b.bind(api.refundRuleList, ({ auth, query }) => service.listRules(deps, auth, query));
    b.bind(api.refundRuleSave, ({ auth, body }) => service.saveRule(deps, auth, body));
    b.bind(api.refundRulePublish, ({ auth, body }) => service.publishRule(deps, auth, body));
    b.bind(api.refundRuleWithdraw, ({ auth, body }) => service.withdrawRule(deps, auth, body));
    b.bind(api.refundRulePreview, ({ auth, query }) => service.previewRefund(deps, auth, query));
  },
  jobs: [{ name: 'refundRule.activate', everyMs: 60_000, run: (deps) => service.activateDue(deps) }],
};
