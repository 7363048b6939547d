import { defineModule } from './define';

/** 亲情卡: citizens' bindings of relatives' cards, their renewals, and the card centre check. */
export const familyModule = defineModule({
  id: 'callingCard',
  menu: {
    id: 'callingCard',
    title: '亲情卡',
    icon: 'family',
    jumpKey: 'f',
    pages: [
      { key: 'family-bind', title: '绑定关系', component: 'ListFamilyBind', actions: ['unbind', 'export'] },
      { key: 'renew-log', title: '续费记录', component: 'ListRenewLog', actions: ['export'] },
      { key: 'card-subscription', title: '卡片订阅', component: 'CardSubscription', hidden: true },
    ],
  },
  operations: { FAMILY_UNBIND: '解绑亲情卡', FAMILY_UPDATE: '修改亲情卡绑定', FAMILY_EXPORT: '导出亲情卡数据' },
});
