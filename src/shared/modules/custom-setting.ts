import { defineModule } from './define';

/** 定制公交设置 (second wave §6): the district's base settings, the versioned refund ladder, the agreement. */
export const customSettingModule = defineModule({
  id: 'customSetting',
  menu: {
    id: 'customSetting',
    title: '定制公交设置',
    icon: 'setting',
    jumpKey: 'x',
    pages: [
      { key: 'custom-base', title: '基础设置', component: 'CustomBase', actions: ['notice', 'sync'] },
      { key: 'refund-setting', title: '退款设置', component: 'RefundSetting', actions: ['preview'] },
      { key: 'agreement-setting', title: '协议设置', component: 'AgreementSetting' },
    ],
  },
  operations: {
    CUSTOM_BASE_SAVE: '保存定制公交基础设置',
    CUSTOM_BASE_APPLY: '同步定制公交设置到区域',
    REFUND_RULE_SAVE: '保存退款规则草稿',
    REFUND_RULE_PUBLISH: '发布退款规则',
    REFUND_RULE_WITHDRAW: '撤回退款规则',
    REFUND_RULE_ACTIVATE: '退款规则生效',
  },
});
