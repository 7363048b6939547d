import { defineModule } from './define';

/**
 * 线上办卡: online card applications are still to be designed; the area's card list is built here
 * because the call-centre desk needs it (every card number in it opens 卡片详情).
 */
export const handleCardModule = defineModule({
  id: 'handleCard',
  menu: {
    id: 'handleCard',
    title: '线上办卡',
    icon: 'card',
    jumpKey: 'h',
    pages: [
      { key: 'handle-card-list', title: '办卡申请', component: 'ListHandleCard', planned: true },
      { key: 'handle-card-setting', title: '办卡设置', component: 'HandleCardSetting', planned: true },
      { key: 'handle-card-rule-edit', title: '办卡规则编辑', component: 'HandleCardRuleEdit', hidden: true, planned: true },
      { key: 'card-list', title: '卡片列表', component: 'ListCard' },
    ],
  },
  operations: {},
});
