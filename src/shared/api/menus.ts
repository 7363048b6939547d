/** Top-level menu ids in their fixed order (spec §2); the server's menus are kept in this order. */
export const MENU_IDS = [
  'noticeReport',
  'order',
  'busUser',
  'recharge',
  'cardVerify',
  'user',
  'version',
  'station',
  'bus',
  'customBus',
  'customSetting',
  'packagePay',
  'acitivity',
  'rechargeable',
  'callingCard',
  'specialCode',
  'handleCard',
  'settings',
] as const;
export type MenuId = (typeof MENU_IDS)[number];

export const AUTH_ITEM_TYPES = ['menu', 'page', 'button'] as const;
export type AuthItemType = (typeof AUTH_ITEM_TYPES)[number];

/** The JSON carried in an auth item's `para` text. */
export interface AuthItemPara {
  html?: string;
  icon?: string;
  title: string;
  redirect?: string;
  roles?: string[];
  noCache?: boolean;
  component?: string;
}
