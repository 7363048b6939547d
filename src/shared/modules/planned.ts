import type { MenuId } from '../api/menus';
import { type PageDef, defineModule } from './define';

/**
 * The menus of spec §2 whose modules are not built yet: their pages open the honest "尚未上线" page
 * and their buttons already exist as permissions. When a module is built, its menu moves out of
 * this file into a manifest of its own (see user.ts) and its pages lose `planned`.
 */
const planned = <const Id extends MenuId>(
  id: Id,
  title: string,
  icon: string,
  jumpKey: string,
  pages: readonly Omit<PageDef, 'planned'>[],
) =>
  defineModule({
    id,
    menu: { id, title, icon, jumpKey, pages: pages.map((p) => ({ ...p, planned: true as const })) },
    operations: {},
  });

export const cardVerifyModule = planned('cardVerify', '线上验卡', 'verify', 'v', [
  { key: 'card-verify-list', title: '验卡记录', component: 'ListCardVerify' },
  { key: 'card-verify-config', title: '验卡配置', component: 'CardVerifyConfig' },
]);

export const activityModule = planned('acitivity', '活动管理', 'activity', 'a', [
  { key: 'activity', title: '活动列表', component: 'ListActivity' },
  { key: 'discount-limit', title: '优惠限制', component: 'DiscountLimit' },
  { key: 'operate-record', title: '操作记录', component: 'ListOperateRecord' },
]);

