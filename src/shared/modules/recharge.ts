import { defineModule } from './define';

/** NFC充值: riders' card top-ups, the 可疑 queue settled against the card centre, refunds, 圈存日对账. */
export const rechargeModule = defineModule({
  id: 'recharge',
  menu: {
    id: 'recharge',
    title: 'NFC充值',
    icon: 'money',
    jumpKey: 'r',
    pages: [{ key: 'recharge', title: 'NFC充值记录', component: 'ListRecharge', actions: ['suspect', 'reconcile', 'resolve', 'refund', 'export', 'reconcile-export'] }],
  },
  operations: {
    RECHARGE_REQUERY: '补查充值结果',
    RECHARGE_RESOLVE: '核实可疑充值',
    RECHARGE_AUTO_RESOLVE: '卡中心记录确认充值到账',
    RECHARGE_LATE_LOAD: '关闭订单收到写卡确认',
    RECHARGE_SUSPECT: '充值写卡超时转可疑',
    RECHARGE_REFUND: '充值订单退款',
    RECHARGE_RECONCILE: '圈存日对账',
    RECHARGE_EXPORT: '导出NFC充值记录',
    RECHARGE_RECONCILE_EXPORT: '导出圈存日对账',
  },
});
