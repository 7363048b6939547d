import type { Endpoint } from './endpoint';
import { grant, grantIn } from './permissions';

/**
 * 活动管理 (second wave §8, prefix /buscodepc/fyapi): fare activities (activity/), the limits on
 * them (discountLimit/) and their operate record (operateRecord/, a view over the system log).
 */

/** The module's button permissions (second wave §0), declared once with their labels. */
export const buttons = {
  ACTIVITY_EDIT: '编辑活动',
  ACTIVITY_UPDATE_STATUS: '暂停/恢复/结束活动',
  ACTIVITY_BUDGET: '活动预算',
} as const;
const can = grantIn(buttons);

/** Reading is for those who see the menu (decision 81). */
export const ACTIVITY_READ = grant({ menus: ['acitivity'] });
export const ACTIVITY_EDITOR = can({ buttons: ['ACTIVITY_EDIT'] });
export const ACTIVITY_STATUS_MOVER = can({ buttons: ['ACTIVITY_UPDATE_STATUS'] });
export const ACTIVITY_BUDGETER = can({ buttons: ['ACTIVITY_BUDGET'] });

/** Every endpoint of the module, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [];
