import { statusFlow } from '../../frame/status-flow';

/**
 * The states of 定制公交 (second wave §5), declared once: the contract's fields, the filters, the
 * console's badges and row actions and the server's guarded moves all read these. Moves made only by
 * the rider side or the jobs are listed too (the guarded update checks them), with who makes them in
 * the comment.
 */

/** 1 启用 ⇄ 0 停用. */
export const STATION_STATUS = statusFlow({
  name: '站点状态',
  states: [
    { code: 1, label: '启用', tone: 'green' },
    { code: 0, label: '停用', tone: 'gray' },
  ],
  transitions: { '1': [0], '0': [1] },
});

/** 0 草稿 → 1 已上架 ⇄ 2 已下架 (CUSTOM_LINE_STATUS). */
export const LINE_STATUS = statusFlow({
  name: '线路状态',
  states: [
    { code: 0, label: '草稿', tone: 'gray' },
    { code: 1, label: '已上架', tone: 'green' },
    { code: 2, label: '已下架', tone: 'red' },
  ],
  transitions: { '0': [1], '1': [2], '2': [1] },
});

/** −1 往返, 0 上行 (早), 1 下行 (晚): spec codes. */
export const LINE_DIRECTION = { '-1': '往返', '0': '上行', '1': '下行' } as const;
/** 1 无折扣, 2 折扣 (‰), 3 折后金额. */
export const DISCOUNT_TYPE = { 1: '无折扣', 2: '折扣', 3: '折后金额' } as const;
/** 1 单次票, 2 月票 (spec codes). */
export const TICKET_TYPE = { 1: '单次票', 2: '月票' } as const;
/** A stop of a path: 0 上下客, 1 仅上车, 2 仅下车. */
export const STOP_MODE = { 0: '上下客', 1: '仅上车', 2: '仅下车' } as const;

/**
 * 0 待售 → 1 售票中 (saleOpenAt by the job, or 开售); 1 ⇄ 2 停售 (saleCloseAt by the job, or 停售 /
 * 恢复); 1/2 → 3 已发车 (the job at departure); 0/1/2 → 4 已取消 (取消, every paid ticket refunded).
 */
export const CLASSES_STATUS = statusFlow({
  name: '班次状态',
  states: [
    { code: 0, label: '待售', tone: 'gray' },
    { code: 1, label: '售票中', tone: 'green' },
    { code: 2, label: '停售', tone: 'amber' },
    { code: 3, label: '已发车', tone: 'blue' },
    { code: 4, label: '已取消', tone: 'red' },
  ],
  transitions: { '0': [1, 4], '1': [2, 3, 4], '2': [1, 3, 4] },
});

/**
 * 0 待支付 → 1 已支付 (pay callback) / 4 已关闭 (hold expired, seat returned); 1 → 2 已核销 (验票)
 * / 3 已退票 (rider by the ladder, operator, or the class cancelled).
 */
export const TICKET_STATE = statusFlow({
  name: '车票状态',
  states: [
    { code: 0, label: '待支付', tone: 'gray' },
    { code: 1, label: '已支付', tone: 'green' },
    { code: 2, label: '已核销', tone: 'blue' },
    { code: 3, label: '已退票', tone: 'red' },
    { code: 4, label: '已关闭', tone: 'gray' },
  ],
  transitions: { '0': [1, 4], '1': [2, 3] },
});

/** An order follows its tickets: 0 待支付 → 1 已支付 / 2 已关闭; 1 → 3 部分退款 → 4 已退款 (every ticket). */
export const ORDER_STATUS = statusFlow({
  name: '订单状态',
  states: [
    { code: 0, label: '待支付', tone: 'gray' },
    { code: 1, label: '已支付', tone: 'green' },
    { code: 2, label: '已关闭', tone: 'gray' },
    { code: 3, label: '部分退款', tone: 'amber' },
    { code: 4, label: '已退款', tone: 'red' },
  ],
  transitions: { '0': [1, 2], '1': [3, 4], '3': [4] },
});

/** 1 可用 ⇄ 2 维修, either ⇄ 0 停用. */
export const CAR_STATUS = statusFlow({
  name: '车辆状态',
  states: [
    { code: 1, label: '可用', tone: 'green' },
    { code: 2, label: '维修', tone: 'amber' },
    { code: 0, label: '停用', tone: 'gray' },
  ],
  transitions: { '1': [2, 0], '2': [1, 0], '0': [1] },
});

/** 1 在岗 ⇄ 2 请假, either ⇄ 0 停用. */
export const DRIVER_STATUS = statusFlow({
  name: '司机状态',
  states: [
    { code: 1, label: '在岗', tone: 'green' },
    { code: 2, label: '请假', tone: 'amber' },
    { code: 0, label: '停用', tone: 'gray' },
  ],
  transitions: { '1': [2, 0], '2': [1, 0], '0': [1] },
});

/** 0 未开通 → 1 已开通 (a line linked) / 2 暂不开通 (a reply); 2 → 0 reopens. */
export const DEMAND_STATE = statusFlow({
  name: '开通状态',
  states: [
    { code: 0, label: '未开通', tone: 'gray' },
    { code: 1, label: '已开通', tone: 'green' },
    { code: 2, label: '暂不开通', tone: 'amber' },
  ],
  transitions: { '0': [1, 2], '2': [0] },
});

/** A submission: 0 待匹配, 1 已匹配 (to a demand), 2 已通知 (its line opened). */
export const DEMAND_RECORD_STATUS = statusFlow({
  name: '匹配状态',
  states: [
    { code: 0, label: '待匹配', tone: 'gray' },
    { code: 1, label: '已匹配', tone: 'blue' },
    { code: 2, label: '已通知', tone: 'green' },
  ],
  transitions: { '0': [1], '1': [2] },
});
