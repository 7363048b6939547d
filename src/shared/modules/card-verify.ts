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
      { key: 'card-verify-list', title: '验卡记录', component: 'ListCardVerify', actions: ['next', 'batch', 'radar', 'export'] },
      { key: 'card-verify-config', title: '验卡配置', component: 'CardVerifyConfig' },
    ],
  },
  operations: {
    CARD_VERIFY_AUDIT: '审核验卡申请',
    CARD_VERIFY_REVOKE: '撤销验卡通过',
    CARD_VERIFY_TAKEOVER: '接管验卡审核',
    CARD_VERIFY_MATERIAL: '查看验卡材料',
    CARD_VERIFY_CONFIG: '修改验卡配置',
    CARD_VERIFY_REMIND: '发送验卡到期提醒',
    CARD_VERIFY_EXPORT: '导出验卡记录',
    CARD_VERIFY_WITHDRAW: '乘客撤销验卡申请',
    CARD_VERIFY_PURGE: '清除验卡人脸与证件图片',
    CARD_VERIFY_SUSPEND: '暂停逾期未验卡优惠',
  },
});
