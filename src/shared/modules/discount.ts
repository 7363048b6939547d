import { defineModule } from './define';

/** 特殊码管理: discount cards (special codes), their orders and refunds. */
export const discountModule = defineModule({
  id: 'specialCode',
  menu: {
    id: 'specialCode',
    title: '特殊码管理',
    icon: 'discount',
    jumpKey: 't',
    pages: [
      { key: 'special-code-list', title: '特殊码列表', component: 'ListSpecialCode', actions: ['refund', 'export'] },
      { key: 'special-code-count', title: '订单统计', component: 'SpecialCodeCount', actions: ['export'] },
      { key: 'rule-setting', title: '规则设置', component: 'RuleSetting', actions: ['add'] },
      { key: 'rule-edit', title: '规则编辑', component: 'RuleEdit', hidden: true },
      { key: 'special-code-agreement', title: '特殊码协议', component: 'SpecialCodeAgreement' },
    ],
  },
  operations: { ORDER_REFUND: '订单退款', DISCOUNT_CARD_SAVE: '保存优惠卡', DISCOUNT_CARD_STATUS: '上架/下架优惠卡', DISCOUNT_CARD_DELETE: '删除优惠卡', ORDER_EXPORT: '导出优惠卡订单' },
});
