import { defineModule } from './define';

/** 储值管理 (second wave §9): plans, orders and refunds, wallets with their ledger, adjustments, the setting. */
export const rechargeableModule = defineModule({
  id: 'rechargeable',
  menu: {
    id: 'rechargeable',
    title: '储值管理',
    icon: 'wallet',
    jumpKey: 'w',
    pages: [
      { key: 'add-recharge', title: '新增储值', component: 'AddRecharge', hidden: true },
      { key: 'recharge-manage', title: '储值管理', component: 'ListRechargeManage', actions: ['wallet', 'freeze', 'adjust', 'check', 'export'] },
      { key: 'recharge-order', title: '储值订单', component: 'ListRechargeOrder', actions: ['refund', 'export'] },
      { key: 'recharge-setting', title: '储值设置', component: 'RechargeSetting' },
      { key: 'recharge-agreement', title: '储值协议', component: 'RechargeAgreement' },
    ],
  },
  operations: {
    RECHARGE_PLAN_SAVE: '保存储值档位',
    RECHARGE_PLAN_STATUS: '启用/停用储值档位',
    RECHARGE_PLAN_DELETE: '删除储值档位',
    WALLET_ORDER_PAY: '储值到账',
    WALLET_ORDER_CLOSE: '储值订单超时关闭',
    WALLET_ORDER_REFUND: '储值退款',
    WALLET_ORDER_EXPORT: '导出储值订单',
    RECHARGE_PLAN_EXPORT: '导出储值档位',
    WALLET_EXPORT: '导出用户钱包',
    WALLET_LEDGER_EXPORT: '导出钱包流水',
    WALLET_ADJUST_EXPORT: '导出人工调账',
    WALLET_FREEZE: '冻结钱包',
    WALLET_UNFREEZE: '解冻钱包',
    WALLET_CLOSE: '注销钱包',
    WALLET_ADJUST: '发起人工调账',
    WALLET_ADJUST_CHECK: '复核通过人工调账',
    WALLET_ADJUST_REJECT: '驳回人工调账',
    WALLET_ADJUST_WITHDRAW: '撤回人工调账',
    WALLET_RECONCILE: '每日轧账',
    RECHARGE_SETTING_SAVE: '保存储值设置',
  },
});
