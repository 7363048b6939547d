import { grant, grantIn } from '../permissions';

/** 定制公交's button permissions (second wave §0) and who may read and move what. */
export const buttons = {
  CUSTOM_LINE_EDIT: '编辑定制线路与站点',
  CUSTOM_LINE_STATUS: '上架/下架定制线路',
  CUSTOM_CLASSES_EDIT: '编辑班次',
  CUSTOM_CLASSES_CANCEL: '取消班次',
  CUSTOM_DISPATCH: '排班（车辆与司机）',
  CUSTOM_FLEET_EDIT: '编辑车辆与司机',
  CUSTOM_ORDER_REFUND: '定制订单退票',
  CUSTOM_TICKET_CHECK: '验票',
  CUSTOM_DEMAND_HANDLE: '处理定制需求',
} as const;
const can = grantIn(buttons);

/** Reading is for those who see the menu (decision 81). */
export const CUSTOM_READ = grant({ menus: ['customBus'] });
export const CUSTOM_LINE_EDITOR = can({ buttons: ['CUSTOM_LINE_EDIT'] });
export const CUSTOM_LINE_STATUS_MOVER = can({ buttons: ['CUSTOM_LINE_STATUS'] });
export const CUSTOM_CLASSES_EDITOR = can({ buttons: ['CUSTOM_CLASSES_EDIT'] });
export const CUSTOM_CLASSES_CANCELLER = can({ buttons: ['CUSTOM_CLASSES_CANCEL'] });
export const CUSTOM_DISPATCHER = can({ buttons: ['CUSTOM_DISPATCH'] });
export const CUSTOM_FLEET_EDITOR = can({ buttons: ['CUSTOM_FLEET_EDIT'] });
export const CUSTOM_REFUNDER = can({ buttons: ['CUSTOM_ORDER_REFUND'] });
export const CUSTOM_CHECKER = can({ buttons: ['CUSTOM_TICKET_CHECK'] });
export const CUSTOM_DEMAND_HANDLER = can({ buttons: ['CUSTOM_DEMAND_HANDLE'] });

/** The agreement riders accept before buying (bus/agreement, as 套餐's 'package'). */
export const CUSTOM_AGREEMENT = 'custom-bus';
