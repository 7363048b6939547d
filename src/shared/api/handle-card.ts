import type { Endpoint } from './endpoint';
import { grant, grantIn } from './permissions';

/**
 * 线上办卡's applications (second wave §10, prefix /buscodepc/fyapi/handleCard): 办卡申请 from payment
 * through review, card making and delivery; 办卡设置 and 办卡规则编辑 per card type and district. The
 * area's card list (卡片列表) is card.ts's.
 */

/** The module's button permissions (second wave §0), declared once with their labels. */
export const buttons = {
  HANDLE_CARD_AUDIT: '审核办卡申请',
  HANDLE_CARD_SHIP: '办卡寄送与领取',
  HANDLE_CARD_SETTING: '修改办卡设置',
  HANDLE_CARD_FACTORY_EXPORT: '导出制卡文件',
} as const;
const can = grantIn(buttons);

/** Reading is for those who see the menu (decision 81). */
export const HANDLE_CARD_READ = grant({ menus: ['handleCard'] });
export const HANDLE_CARD_AUDITOR = can({ buttons: ['HANDLE_CARD_AUDIT'] });
export const HANDLE_CARD_SHIPPER = can({ buttons: ['HANDLE_CARD_SHIP'] });
export const HANDLE_CARD_SETTER = can({ buttons: ['HANDLE_CARD_SETTING'] });
export const HANDLE_CARD_FACTORY_EXPORTER = can({ buttons: ['HANDLE_CARD_FACTORY_EXPORT'] });

/** Every endpoint of the applications, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [];
