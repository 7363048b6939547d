import { BUTTON_KEYS, BUTTON_LABELS, type ButtonKey, MENU_IDS, type MenuId } from '../../../shared/api';
import type { AuthItemPara } from '../../../shared/api';

/**
 * The menu catalogue: all 18 top-level menus of spec §2 with their screens, and one button item per
 * permission key of spec §6. It is reference data, upserted at every start, so a new version of the
 * server brings its new screens to existing databases.
 *
 * `hidden` pages are routes reached from another screen (type `page`, hidden from the menu).
 * Components whose name starts with `List` are cached views (spec §9).
 */
interface PageDef {
  key: string;
  title: string;
  component: string;
  hidden?: boolean;
  /** Routes the console filters by role (spec §6); the server enforces the same on the calls. */
  roles?: string[];
}
interface MenuDef {
  id: MenuId;
  title: string;
  icon: string;
  roles?: string[];
  pages: PageDef[];
}

const ADMINS = ['ROLE_APP_ADMIN', 'ROLE_ADMIN'];

const MENUS: MenuDef[] = [
  { id: 'noticeReport', title: '公告与反馈', icon: 'notice', pages: [
    { key: 'notice', title: '公告管理', component: 'ListNotice' },
    { key: 'feedback', title: '意见反馈', component: 'ListFeedback' },
  ] },
  { id: 'order', title: '乘车记录管理', icon: 'order', pages: [
    { key: 'order-list', title: '乘车记录', component: 'ListOrder' },
    { key: 'order-total', title: '乘车统计', component: 'OrderTotal' },
  ] },
  { id: 'busUser', title: '乘客用户管理', icon: 'peoples', pages: [
    { key: 'bus-user', title: '乘客用户', component: 'ListBusUser' },
    { key: 'yc-user', title: '异常用户', component: 'ListYcUser' },
  ] },
  { id: 'recharge', title: 'NFC充值', icon: 'money', pages: [
    { key: 'recharge', title: 'NFC充值记录', component: 'ListRecharge' },
  ] },
  { id: 'cardVerify', title: '线上验卡', icon: 'verify', pages: [
    { key: 'card-verify-list', title: '验卡记录', component: 'ListCardVerify' },
    { key: 'card-verify-config', title: '验卡配置', component: 'CardVerifyConfig' },
  ] },
  { id: 'user', title: '账号管理', icon: 'user', roles: ADMINS, pages: [
    { key: 'user-list', title: '账号列表', component: 'ListUser' },
    { key: 'role-group', title: '角色组', component: 'ListRoleGroup' },
    { key: 'sys-log', title: '系统日志', component: 'ListSysLog' },
  ] },
  { id: 'version', title: '版本管理', icon: 'version', pages: [
    { key: 'version', title: '线网版本', component: 'ListVersion' },
    { key: 'help-center', title: '帮助中心', component: 'HelpCenter' },
    { key: 'about', title: '关于', component: 'About' },
  ] },
  { id: 'station', title: '站点管理', icon: 'station', pages: [
    { key: 'station', title: '站点', component: 'ListStation' },
    { key: 'gps-sort', title: 'GPS排序', component: 'GpsSort', hidden: true },
    { key: 'station-qr-code', title: '站点二维码', component: 'ListStationQrCode' },
  ] },
  { id: 'bus', title: '公交线路', icon: 'bus', pages: [
    { key: 'list', title: '线路列表', component: 'ListBusLine' },
    { key: 'bus-line', title: '线路详情', component: 'BusLine', hidden: true },
    { key: 'add-bus-line', title: '新增线路', component: 'AddBusLine', hidden: true },
    { key: 'line-path', title: '线路轨迹', component: 'LinePath', hidden: true },
    { key: 'sub-list', title: '子线路列表', component: 'ListSubLine' },
    { key: 'add-sub-line', title: '新增子线路', component: 'AddSubLine', hidden: true },
    { key: 'sub-line-station', title: '子线路站点', component: 'SubLineStation', hidden: true },
  ] },
  { id: 'customBus', title: '定制公交', icon: 'custom-bus', pages: [
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
  ] },
  { id: 'customSetting', title: '定制公交设置', icon: 'setting', pages: [
    { key: 'custom-base', title: '基础设置', component: 'CustomBase' },
    { key: 'refund-setting', title: '退款设置', component: 'RefundSetting' },
    { key: 'agreement-setting', title: '协议设置', component: 'AgreementSetting' },
  ] },
  { id: 'packagePay', title: '套餐购买', icon: 'package', pages: [
    { key: 'package-summary', title: '套餐汇总', component: 'PackageSummary' },
    { key: 'package-manage', title: '套餐管理', component: 'ListPackage' },
    { key: 'package-order', title: '套餐订单', component: 'ListPackageOrder' },
    { key: 'package-agreement', title: '套餐协议', component: 'PackageAgreement' },
    { key: 'add-package', title: '新增套餐', component: 'AddPackage', hidden: true },
    { key: 'package-order-detail', title: '套餐订单详情', component: 'PackageOrderDetail', hidden: true },
  ] },
  { id: 'acitivity', title: '活动管理', icon: 'activity', pages: [
    { key: 'activity', title: '活动列表', component: 'ListActivity' },
    { key: 'discount-limit', title: '优惠限制', component: 'DiscountLimit' },
    { key: 'operate-record', title: '操作记录', component: 'ListOperateRecord' },
  ] },
  { id: 'rechargeable', title: '储值管理', icon: 'wallet', pages: [
    { key: 'add-recharge', title: '新增储值', component: 'AddRecharge', hidden: true },
    { key: 'recharge-manage', title: '储值管理', component: 'ListRechargeManage' },
    { key: 'recharge-order', title: '储值订单', component: 'ListRechargeOrder' },
    { key: 'recharge-setting', title: '储值设置', component: 'RechargeSetting' },
    { key: 'recharge-agreement', title: '储值协议', component: 'RechargeAgreement' },
  ] },
  { id: 'callingCard', title: '亲情卡', icon: 'family', pages: [
    { key: 'family-bind', title: '绑定关系', component: 'ListFamilyBind' },
    { key: 'renew-log', title: '续费记录', component: 'ListRenewLog' },
    { key: 'card-subscription', title: '卡片订阅', component: 'CardSubscription', hidden: true },
  ] },
  { id: 'specialCode', title: '特殊码管理', icon: 'discount', pages: [
    { key: 'special-code-list', title: '特殊码列表', component: 'ListSpecialCode' },
    { key: 'rule-setting', title: '规则设置', component: 'RuleSetting' },
    { key: 'rule-edit', title: '规则编辑', component: 'RuleEdit', hidden: true },
    { key: 'special-code-agreement', title: '特殊码协议', component: 'SpecialCodeAgreement' },
  ] },
  { id: 'handleCard', title: '线上办卡', icon: 'card', pages: [
    { key: 'handle-card-list', title: '办卡申请', component: 'ListHandleCard' },
    { key: 'handle-card-setting', title: '办卡设置', component: 'HandleCardSetting' },
    { key: 'handle-card-rule-edit', title: '办卡规则编辑', component: 'HandleCardRuleEdit', hidden: true },
    { key: 'card-list', title: '卡片列表', component: 'ListCard' },
  ] },
  { id: 'settings', title: '小程序设置', icon: 'setting', pages: [
    { key: 'base-setting', title: '基础设置', component: 'BaseSetting' },
    { key: 'agreements', title: '协议管理', component: 'ListAgreement' },
    { key: 'districts', title: '区域管理', component: 'ListDistrict', roles: ['ROLE_APP_ADMIN'] },
  ] },
];

const BUTTON_MENU: Record<ButtonKey, MenuId> = {
  BUS_LINE_DEL: 'bus',
  BUS_LINE_DETAIL_DEL: 'bus',
  BUS_LINE_VERSION_ADD: 'version',
  BUS_LINE_VERSION_SET_ONLINE_TIME: 'version',
  BUS_LINE_VERSION_UPDATE_DEL: 'version',
  BUS_LINE_VERSION_UPDATE_STATUS: 'version',
  USER_ADD: 'user',
  USER_UPDATE_STATUS: 'user',
  REFUND_ORDER: 'order',
  ycOrder: 'busUser',
};

export interface AuthItemRow {
  id: string;
  parentId: string | null;
  name: string;
  path: string;
  para: string;
  type: 'menu' | 'page' | 'button';
  sort: number;
}

const para = (p: AuthItemPara) => JSON.stringify(p);

export function authItemCatalogue(): AuthItemRow[] {
  const rows: AuthItemRow[] = [];
  MENU_IDS.forEach((menuId, i) => {
    const menu = MENUS.find((m) => m.id === menuId);
    if (!menu) throw new Error(`menu ${menuId} missing from the catalogue`);
    const first = menu.pages.find((p) => !p.hidden);
    rows.push({
      id: menu.id,
      parentId: null,
      name: menu.title,
      path: `/${menu.id}`,
      para: para({ title: menu.title, icon: menu.icon, component: 'Layout', redirect: first ? `/${menu.id}/${first.key}` : undefined, roles: menu.roles }),
      type: 'menu',
      sort: (i + 1) * 100,
    });
    menu.pages.forEach((page, j) => {
      rows.push({
        id: `${menu.id}.${page.key}`,
        parentId: menu.id,
        name: page.title,
        path: page.key,
        para: para({ title: page.title, component: page.component, noCache: !page.component.startsWith('List'), roles: page.roles ?? menu.roles }),
        type: page.hidden ? 'page' : 'menu',
        sort: (i + 1) * 100 + j + 1,
      });
    });
  });
  BUTTON_KEYS.forEach((key, i) => {
    rows.push({
      id: key,
      parentId: BUTTON_MENU[key],
      name: BUTTON_LABELS[key],
      path: key,
      para: para({ title: BUTTON_LABELS[key] }),
      type: 'button',
      sort: 10_000 + i,
    });
  });
  return rows;
}

/** Item ids of the given menus with all their pages. */
export function menuItemIds(menuIds: readonly MenuId[]): string[] {
  return authItemCatalogue()
    .filter((r) => r.type !== 'button' && menuIds.includes((r.parentId ?? r.id) as MenuId))
    .map((r) => r.id);
}
