import { defineModule } from './define';

/** 线上验卡 (second wave §4): concession-card checks (学生卡, 老年卡) reviewed in a queue, and their configuration. */
export const cardVerifyModule = defineModule({
  id: 'cardVerify',
  menu: {
    id: 'cardVerify',
    title: '线上验卡',
    icon: 'verify',
    jumpKey: 'v',
    pages: [
      { key: 'card-verify-list', title: '验卡记录', component: 'ListCardVerify' },
      { key: 'card-verify-config', title: '验卡配置', component: 'CardVerifyConfig' },
    ],
  },
  operations: {},
});
