import { z } from 'zod';
import { BUSCODE, type Endpoint, endpoint, readByBody } from '../endpoint';
import { exportTaskEndpoint } from '../export-task';
import { id, optionalText, timestamp } from '../fields';
import { pageOf, pageQuery } from '../paging';
import { CUSTOM_CHECKER, CUSTOM_CLASSES_CANCELLER, CUSTOM_READ, CUSTOM_REFUNDER } from './buttons';
import { CLASSES_STATUS, ORDER_STATUS, TICKET_STATE, TICKET_TYPE } from './states';

/**
 * 订单记录、订单详情 (second wave §5): customOrder/ — the list with its totals and export, an order's
 * detail (tickets, checks, refunds, the ladder it was sold under), 退票 by ticket, 验票 — and
 * customClasses/cancel, which refunds every paid ticket of a class through the same refund path, so
 * it lives with the refunds. Buying and paying are the rider side's (service functions).
 */

const O = `${BUSCODE}/customOrder`;

const day = (label: string) => z.string({ error: `${label}必须是日期` }).regex(/^\d{4}-\d{2}-\d{2}$/, { error: `${label}应为 YYYY-MM-DD` });
const reasonText = (label: string) => z.string({ error: `请填写${label}` }).trim().min(2, { error: `${label}至少2个字` }).max(100, { error: `${label}不能超过100个字` });
const idempotencyKey = z.string({ error: '缺少幂等键' }).regex(/^[A-Za-z0-9_-]{8,64}$/, { error: '幂等键应为8–64位字母、数字、_ 或 -' });
const ticketNo = z.string({ error: '票号必须是文本' }).trim().min(1, { error: '请填写票号' }).max(40, { error: '票号不能超过40个字符' });

export const ticketTypeSchema = z.union([z.literal(1), z.literal(2)]);

export const customOrderRow = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  districtId: z.number().int(),
  riderId: z.number().int(),
  /** Masked: 138****5678. */
  riderPhone: z.string().nullable(),
  lineId: z.number().int(),
  lineNo: z.string(),
  lineName: z.string(),
  direction: z.number().int(),
  /** 单次票: its class; 月票: null (the month says which). */
  classesId: z.number().int().nullable(),
  /** The class's Shanghai day and departure instant (单次票). */
  departDate: z.string().nullable(),
  departDateTime: timestamp.nullable(),
  month: z.string().nullable(),
  ticketType: ticketTypeSchema,
  seats: z.number().int(),
  amount: z.number().int(),
  refundedAmount: z.number().int(),
  payStatus: z.number().int(),
  status: ORDER_STATUS.schema,
  ruleVersionId: z.number().int().nullable(),
  agreementVersion: z.number().int().nullable(),
  createdDate: timestamp,
  paidDate: timestamp.nullable(),
  closedDate: timestamp.nullable(),
});
export type CustomOrder = z.infer<typeof customOrderRow>;

const orderFilters = z.object({
  orderNo: optionalText('订单号', 40).optional(),
  /** Exact mobile number through the blind index: only in the body form (decision 82). */
  phone: optionalText('手机号', 20).optional(),
  lineId: id('线路').optional(),
  /** The class's Shanghai day (单次票) or any day of the month (月票), inclusive. */
  startDate: day('开始日期').optional(),
  endDate: day('结束日期').optional(),
  status: ORDER_STATUS.filter.optional(),
  ticketType: z.preprocess((v) => (v === '1' ? 1 : v === '2' ? 2 : v), z.union([z.literal(1), z.literal(2)], { error: '票种应为 1 单次票 或 2 月票' })).optional(),
});
const orderUrlFilters = orderFilters.omit({ phone: true });

export const customOrderPage = endpoint({
  id: 'customOrder.page',
  title: '定制订单列表',
  method: 'GET',
  path: `${O}/page`,
  query: pageQuery(['createdDate', 'amount'] as const).extend(orderFilters.shape),
  response: pageOf(customOrderRow),
  permission: CUSTOM_READ,
  timeoutMs: 40_000,
});

/** The list with its filters (a phone) in a POST body: what the console sends. */
export const customOrderPageByBody = readByBody(customOrderPage, { id: 'customOrder.pageByBody', title: '定制订单列表（条件在请求体）' });

export const customOrderTotal = endpoint({
  id: 'customOrder.total',
  title: '定制订单合计',
  method: 'GET',
  path: `${O}/total`,
  query: orderFilters,
  response: z.object({
    orders: z.number().int(),
    tickets: z.number().int(),
    paidAmount: z.number().int(),
    refundedAmount: z.number().int(),
    checked: z.number().int(),
    refundedTickets: z.number().int(),
  }),
  permission: CUSTOM_READ,
  timeoutMs: 40_000,
});
export const customOrderTotalByBody = readByBody(customOrderTotal, { id: 'customOrder.totalByBody', title: '定制订单合计（条件在请求体）' });

export const ladderRowSchema = z.object({ fromMin: z.number().int(), toMin: z.number().int().nullable(), refundable: z.union([z.literal(0), z.literal(1)]), feeRate: z.number().int(), minFee: z.number().int() });

export const customTicketRow = z.object({
  id: z.number().int(),
  ticketNo: z.string(),
  classesId: z.number().int(),
  departDate: z.string(),
  departDateTime: timestamp,
  classesStatus: CLASSES_STATUS.schema,
  state: TICKET_STATE.schema,
  amount: z.number().int(),
  refundedAmount: z.number().int(),
  refundedDate: timestamp.nullable(),
  checkedDate: timestamp.nullable(),
  checkPlateNo: z.string().nullable(),
  checkMethod: z.number().int().nullable(),
  /** What a refund now would pay by the order's ladder (null: not refundable now, and why). */
  quote: z.object({ minutesBefore: z.number().int(), fee: z.number().int(), refund: z.number().int(), refusal: z.string().nullable() }),
});

export const customRefundRow = z.object({
  id: z.number().int(),
  ticketId: z.number().int(),
  amount: z.number().int(),
  reason: z.string(),
  /** 0 退款中, 1 退款成功, 2 退款异常. */
  state: z.number().int(),
  failReason: z.string().nullable(),
  createdDate: timestamp,
  settledDate: timestamp.nullable(),
});

export const customOrderMsg = endpoint({
  id: 'customOrder.msg',
  title: '定制订单详情',
  method: 'GET',
  path: `${O}/query/msg`,
  query: z.object({ id: id('订单ID') }),
  response: customOrderRow.extend({
    tickets: z.array(customTicketRow),
    refunds: z.array(customRefundRow),
    /** The ladder the order was sold under (a later ladder never changes it). */
    ladder: z.array(ladderRowSchema),
  }),
  permission: CUSTOM_READ,
});

export const customOrderRefund = endpoint({
  id: 'customOrder.refund',
  title: '定制订单退票',
  method: 'POST',
  path: `${O}/refund`,
  body: z.object({
    id: id('订单ID'),
    ticketNos: z.array(ticketNo, { error: '请选择要退的车票' }).min(1, { error: '请选择要退的车票' }).max(40, { error: '一次最多退40张票' }),
    /** Refund in full, without the ladder's fee (the operator's call, with a reason). */
    waiveFee: z.boolean({ error: '免手续费应为是或否' }).default(false),
    /** Fen the operator retyped (the dialog's confirmation); when sent, it must equal what is refunded. */
    amount: z.number({ error: '退款金额必须是数字' }).int({ error: '退款金额必须是整数（分）' }).min(0).max(10_000_000).optional(),
    reason: reasonText('退票原因'),
    idempotencyKey,
  }),
  response: z.object({
    order: customOrderRow,
    /** The refund this request made (or made before, `replayed`): its ledger rows, one per ticket. */
    refund: z.object({ amount: z.number().int(), fee: z.number().int(), rows: z.array(customRefundRow) }),
    replayed: z.boolean(),
  }),
  permission: CUSTOM_REFUNDER,
  writes: ['customBus'],
});

export const customTicketCheck = endpoint({
  id: 'customOrder.check',
  title: '验票',
  method: 'POST',
  path: `${O}/check`,
  body: z.object({ ticketNo, plateNo: optionalText('车牌号', 12).optional() }),
  response: z.object({ ticket: customTicketRow, orderId: z.number().int(), orderNo: z.string() }),
  permission: CUSTOM_CHECKER,
});

export const customOrderExport = exportTaskEndpoint({
  id: 'customOrder.export',
  title: '导出定制订单',
  path: `${O}/export`,
  query: orderUrlFilters,
  permission: CUSTOM_READ,
});

/** 取消班次: every paid ticket refunded in full; 0/1/2 → 4. Twice, or on two instances: one refund per ticket. */
export const customClassesCancel = endpoint({
  id: 'customClasses.cancel',
  title: '取消班次',
  method: 'POST',
  path: `${BUSCODE}/customClasses/cancel`,
  body: z.object({ id: id('班次ID'), reason: reasonText('取消原因'), idempotencyKey }),
  response: z.object({
    id: z.number().int(),
    status: CLASSES_STATUS.schema,
    refundedTickets: z.number().int(),
    refundedAmount: z.number().int(),
    replayed: z.boolean(),
  }),
  permission: CUSTOM_CLASSES_CANCELLER,
  writes: ['customBus'],
});

export const TICKET_TYPE_LABEL = TICKET_TYPE;

/** Every endpoint of this part, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [
  customOrderPage,
  customOrderPageByBody,
  customOrderMsg,
  customOrderTotal,
  customOrderTotalByBody,
  customOrderRefund,
  customTicketCheck,
  customOrderExport,
  customClassesCancel,
];
