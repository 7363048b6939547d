import * as family from '../api/family';
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
  endpoints: [
    family.bindPage,
    family.bindSummary,
    family.renewLogPage,
    family.renewLogSummary,
    family.unBind,
    family.updateBind,
    family.cardTypeDict,
    family.checkCard,
    family.bindExport,
    family.renewLogExport,
    // The body forms of the calls whose query may hold a citizen id or the password: what the console sends.
    family.bindPageByBody,
    family.bindSummaryByBody,
    family.bindExportByBody,
    family.unBindByBody,
    family.updateBindByBody,
  ],
  buttons: family.buttons,
  operations: { FAMILY_UNBIND: '解绑亲情卡', FAMILY_UPDATE: '修改亲情卡绑定', FAMILY_EXPORT: '导出亲情卡数据' },
});
