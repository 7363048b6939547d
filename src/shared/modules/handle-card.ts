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
      { key: 'handle-card-list', title: '办卡申请', component: 'ListHandleCard', actions: ['export', 'factory-export', 'factory', 'batch-approve', 'ship', 'find', 'next'] },
      { key: 'handle-card-setting', title: '办卡设置', component: 'HandleCardSetting' },
      { key: 'handle-card-rule-edit', title: '办卡规则编辑', component: 'HandleCardRuleEdit', hidden: true },
      { key: 'card-list', title: '卡片列表', component: 'ListCard' },
    ],
  },
  operations: {
    HANDLE_CARD_APPROVE: '办卡申请通过',
    HANDLE_CARD_REJECT: '办卡申请驳回',
    HANDLE_CARD_FAIL: '制卡失败',
    HANDLE_CARD_SHIP: '办卡寄出/待领取',
    HANDLE_CARD_COMPLETE: '办卡完成',
    HANDLE_CARD_MATERIAL: '查看办卡材料',
    HANDLE_CARD_TAKEOVER: '接管办卡审核',
    HANDLE_CARD_SETTING: '修改办卡设置',
    HANDLE_CARD_EXPORT: '导出办卡申请',
    HANDLE_CARD_FACTORY_EXPORT: '导出制卡文件',
    HANDLE_CARD_PAY_TIMEOUT: '办卡申请超时取消',
    HANDLE_CARD_CANCEL: '办卡申请取消',
    HANDLE_CARD_IMAGE_PURGE: '办卡材料到期清除',
  },
});
