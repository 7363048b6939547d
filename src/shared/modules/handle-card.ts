import { defineModule } from './define';

/**
 * 线上办卡 (second wave §10): applications from payment through review, card making and delivery,
 * their settings and rules per card type, and the area's card list (every card number in it opens 卡片详情).
 */
export const handleCardModule = defineModule({
  id: 'handleCard',
  menu: {
    id: 'handleCard',
    title: '线上办卡',
    icon: 'card',
    jumpKey: 'h',
    pages: [
      { key: 'handle-card-list', title: '办卡申请', component: 'ListHandleCard' },
      { key: 'handle-card-setting', title: '办卡设置', component: 'HandleCardSetting' },
      { key: 'handle-card-rule-edit', title: '办卡规则编辑', component: 'HandleCardRuleEdit', hidden: true },
      { key: 'card-list', title: '卡片列表', component: 'ListCard' },
    ],
  },
  operations: {},
});
