import type { Endpoint } from './endpoint';
import { grant, grantIn } from './permissions';

/**
 * 线上验卡 (second wave §4, prefix /buscodepc/fyapi/cardVerify): concession-card check applications,
 * their review queue and the configuration per card type and district.
 */

/** The module's button permissions (second wave §0), declared once with their labels. */
export const buttons = {
  CARD_VERIFY_AUDIT: '审核验卡申请',
  CARD_VERIFY_REVOKE: '撤销验卡通过',
  CARD_VERIFY_CONFIG: '修改验卡配置',
} as const;
const can = grantIn(buttons);

/** Reading is for those who see the menu (decision 81). */
export const CARD_VERIFY_READ = grant({ menus: ['cardVerify'] });
export const CARD_VERIFY_AUDITOR = can({ buttons: ['CARD_VERIFY_AUDIT'] });
export const CARD_VERIFY_REVOKER = can({ buttons: ['CARD_VERIFY_REVOKE'] });
export const CARD_VERIFY_CONFIGURER = can({ buttons: ['CARD_VERIFY_CONFIG'] });

/** Every endpoint of the module, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [];
