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

export const customBusModule = planned('customBus', '定制公交', 'custom-bus', 'c', [
  { key: 'custom-station', title: '定制站点', component: 'ListCustomStation' },
  { key: 'custom-line-path', title: '定制线路轨迹', component: 'CustomLinePath', hidden: true },
  { key: 'custom-line', title: '定制线路', component: 'ListCustomLine' },
  { key: 'custom-list', title: '定制列表', component: 'ListCustom' },
  { key: 'custom-record', title: '定制记录', component: 'ListCustomRecord' },
  { key: 'order-record', title: '订单记录', component: 'ListOrderRecord' },
  { key: 'order-detail', title: '订单详情', component: 'OrderDetail', hidden: true },
  { key: 'summary', title: '定制汇总', component: 'CustomSummary' },
  { key: 'car', title: '车辆管理', component: 'ListCar' },
  { key: 'add-car', title: '新增车辆', component: 'AddCar', hidden: true },
  { key: 'driver', title: '司机管理', component: 'ListDriver' },
  { key: 'add-driver', title: '新增司机', component: 'AddDriver', hidden: true },
  { key: 'add-custom-line', title: '新增定制线路', component: 'AddCustomLine', hidden: true },
  { key: 'add-classes', title: '新增班次', component: 'AddClasses', hidden: true },
  { key: 'classes', title: '班次管理', component: 'ListClasses' },
]);

export const customSettingModule = planned('customSetting', '定制公交设置', 'setting', 'x', [
  { key: 'custom-base', title: '基础设置', component: 'CustomBase' },
  { key: 'refund-setting', title: '退款设置', component: 'RefundSetting' },
  { key: 'agreement-setting', title: '协议设置', component: 'AgreementSetting' },
]);

export const activityModule = planned('acitivity', '活动管理', 'activity', 'a', [
  { key: 'activity', title: '活动列表', component: 'ListActivity' },
  { key: 'discount-limit', title: '优惠限制', component: 'DiscountLimit' },
  { key: 'operate-record', title: '操作记录', component: 'ListOperateRecord' },
]);

