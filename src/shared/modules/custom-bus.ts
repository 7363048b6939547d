import { defineModule } from './define';

/**
 * 定制公交 (second wave §5): stations, lines and their paths, dated classes with seat stock, the fleet
 * (cars and drivers), orders and tickets with their checks and refunds, the summary, and rider demand
 * that becomes lines (需求成线).
 */
export const customBusModule = defineModule({
  id: 'customBus',
  menu: {
    id: 'customBus',
    title: '定制公交',
    icon: 'custom-bus',
    jumpKey: 'c',
    pages: [
      { key: 'custom-station', title: '定制站点', component: 'ListCustomStation', actions: ['export', 'add'] },
      { key: 'custom-line-path', title: '定制线路轨迹', component: 'CustomLinePath', hidden: true },
      { key: 'custom-line', title: '定制线路', component: 'ListCustomLine', actions: ['export'] },
      { key: 'custom-list', title: '定制列表', component: 'ListCustom', actions: ['export'] },
      { key: 'custom-record', title: '定制记录', component: 'ListCustomRecord', actions: ['export'] },
      { key: 'order-record', title: '订单记录', component: 'ListOrderRecord', actions: ['export'] },
      { key: 'order-detail', title: '订单详情', component: 'OrderDetail', hidden: true, actions: ['refund'] },
      { key: 'summary', title: '定制汇总', component: 'CustomSummary', actions: ['export'] },
      { key: 'car', title: '车辆管理', component: 'ListCar', actions: ['export'] },
      { key: 'add-car', title: '新增车辆', component: 'AddCar', hidden: true },
      { key: 'driver', title: '司机管理', component: 'ListDriver', actions: ['export'] },
      { key: 'add-driver', title: '新增司机', component: 'AddDriver', hidden: true },
      { key: 'add-custom-line', title: '新增定制线路', component: 'AddCustomLine', hidden: true },
      { key: 'add-classes', title: '新增班次', component: 'AddClasses', hidden: true },
      { key: 'classes', title: '班次管理', component: 'ListClasses', actions: ['export'] },
    ],
  },
  operations: {
    CUSTOM_STATION_SAVE: '保存定制站点',
    CUSTOM_STATION_STATUS: '启用/停用定制站点',
    CUSTOM_STATION_DELETE: '删除定制站点',
    CUSTOM_LINE_SAVE: '保存定制线路',
    CUSTOM_LINE_STATUS: '上架/下架定制线路',
    CUSTOM_LINE_DELETE: '删除定制线路',
    CUSTOM_LINE_PATH_SAVE: '保存定制线路轨迹',
    CUSTOM_CLASSES_SAVE: '保存班次',
    CUSTOM_CLASSES_BATCH: '批量排班',
    CUSTOM_CLASSES_STATUS: '班次开售/停售',
    CUSTOM_CLASSES_CANCEL: '取消班次',
    CUSTOM_CLASSES_ASSIGN: '班次排车排司机',
    CUSTOM_CLASSES_DEPART: '班次发车',
    TICKET_REFUND: '定制退票',
    TICKET_CHECK: '验票',
    TICKET_HOLD_EXPIRE: '定制订单超时关闭',
    CUSTOM_ORDER_LATE_PAY: '定制订单关闭后收到支付',
    CUSTOM_CAR_SAVE: '保存车辆',
    CUSTOM_CAR_STATUS: '车辆状态变更',
    CUSTOM_DRIVER_SAVE: '保存司机',
    CUSTOM_DRIVER_STATUS: '司机状态变更',
    CUSTOM_DRIVER_REVEAL: '查看司机身份证号',
    CUSTOM_DEMAND_HANDLE: '处理定制需求',
    CUSTOM_DEMAND_TO_LINE: '需求成线',
    CUSTOM_EXPORT: '导出定制公交数据',
  },
});
