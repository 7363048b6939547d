import { z } from 'zod';
import { BUSCODE, endpoint } from './endpoint';
import { fromVersion, id, isoDateTime, optionalText, rowVersion, timestamp } from './fields';
import { pageOf, pageQuery } from './paging';
import { grant, grantIn } from './permissions';
import { buttons as rideButtons } from './ridership';
import { PAY_STATUS } from './card';
import { onOffFlow, statusFlow } from '../frame/status-flow';

/** Reading this module's records is for the accounts that have its screens (the specialCode menu). */
export const SPECIAL_CODE_READ = grant({ menus: ['specialCode'] });

/**
 * Discount-card orders (spec §7, busDiscountCardOrder) and their refund, which happens exactly once
 * (README decision 75): a guarded update in one transaction with its ledger row and audit row,
 * keyed by the caller's idempotency key.
 */

/**
 * An order's payment (spec §3 payment status): paid is the normal state; refunded and unpaid stand
 * out in a long list. A paid order is refunded once (the refund's guarded move); nothing else moves.
 */
export const ORDER_PAY_STATE = statusFlow({
  name: '支付状态',
  states: [
    { code: 0, label: PAY_STATUS[0], tone: 'gray' },
    { code: 1, label: PAY_STATUS[1], tone: 'green' },
    { code: 2, label: PAY_STATUS[2], tone: 'amber' },
  ],
  transitions: { 1: [2] },
});

/** A product on sale (在售) is bought in the mini-program; one taken off sale (已下架) is not. */
export const PRODUCT_STATE = onOffFlow('状态', { code: 1, label: '在售' }, { code: 0, label: '已下架' });

export const discountOrderRow = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  districtId: z.number().int(),
  productId: z.number().int(),
  productName: z.string(),
  ticketType: z.number().int(),
  cardNo: z.string(),
  /** Masked: 138****5678, or null for an order without a rider. */
  riderPhone: z.string().nullable(),
  amount: z.number().int(),
  payStatus: ORDER_PAY_STATE.schema,
  createdDate: timestamp,
  paidDate: timestamp.nullable(),
  refundedDate: timestamp.nullable(),
});
export type DiscountOrder = z.infer<typeof discountOrderRow>;

const orderFilters = z.object({
  orderNo: optionalText('订单号', 40).optional(),
  cardNo: optionalText('卡号', 16).optional(),
  payStatus: ORDER_PAY_STATE.filter.optional(),
  startTime: isoDateTime('开始时间').optional(),
  endTime: isoDateTime('结束时间').optional(),
});

export const discountOrderPage = endpoint({
  id: 'discountOrder.page',
  title: '优惠卡订单列表',
  method: 'GET',
  path: `${BUSCODE}/busDiscountCardOrder/query/page`,
  query: pageQuery(['createdDate', 'amount'] as const).extend(orderFilters.shape),
  response: pageOf(discountOrderRow),
  permission: SPECIAL_CODE_READ,
  timeoutMs: 40_000,
});

export const discountOrderTotal = endpoint({
  id: 'discountOrder.total',
  title: '优惠卡订单合计',
  method: 'GET',
  path: `${BUSCODE}/busDiscountCardOrder/query/total`,
  query: orderFilters,
  response: z.object({ orders: z.number().int(), paid: z.number().int(), paidAmount: z.number().int(), refunded: z.number().int(), refundedAmount: z.number().int(), unpaid: z.number().int() }),
  permission: SPECIAL_CODE_READ,
  timeoutMs: 40_000,
});

export const refundRow = z.object({ id: z.number().int(), amount: z.number().int(), reason: z.string(), createdDate: timestamp });

export const discountOrderMsg = endpoint({
  id: 'discountOrder.msg',
  title: '优惠卡订单详情',
  method: 'GET',
  path: `${BUSCODE}/busDiscountCardOrder/query/msg`,
  query: z.object({ id: id('订单ID') }),
  response: discountOrderRow.extend({ refund: refundRow.nullable() }),
  permission: SPECIAL_CODE_READ,
});

export const discountOrderRefund = endpoint({
  id: 'discountOrder.refund',
  title: '订单退款',
  method: 'POST',
  path: `${BUSCODE}/busDiscountCardOrder/refund`,
  body: z.object({
    id: id('订单ID'),
    reason: z.string({ error: '请填写退款原因' }).trim().min(2, { error: '退款原因至少2个字' }).max(100, { error: '退款原因不能超过100个字' }),
    /** One per refund the agent means (the console makes it when the dialog opens): a retry gets the same answer. */
    idempotencyKey: z.string({ error: '缺少幂等键' }).regex(/^[A-Za-z0-9_-]{8,64}$/, { error: '幂等键应为8–64位字母、数字、_ 或 -' }),
    /**
     * The operator's own password, required when the amount is above the refund rule's
     * `passwordAbove` (checked, counted and locked out as the family card's unbind is).
     */
    pwd: z.string({ error: '密码必须是文本' }).max(128, { error: '密码过长' }).optional(),
  }),
  response: z.object({ order: discountOrderRow, refund: refundRow, replayed: z.boolean() }),
  permission: grantIn(rideButtons)({ buttons: ['REFUND_ORDER'] }),
  // The order shows here and on its card's view (卡片详情, module busUser).
  writes: ['specialCode', 'busUser'],
});

/**
 * What a refund asks of the operator: above `passwordAbove` fen (exclusive; the server's
 * REFUND_PASSWORD_ABOVE), the operator's own password. The console asks for it before the server
 * would refuse.
 */
export const discountOrderRefundRule = endpoint({
  id: 'discountOrder.refundRule',
  title: '退款规则',
  method: 'GET',
  path: `${BUSCODE}/busDiscountCardOrder/refundRule`,
  response: z.object({ passwordAbove: z.number().int() }),
  permission: discountOrderRefund.permission,
});

/** Whether a refund of this many fen asks for the operator's password under that rule. */
export const refundNeedsPassword = (amount: number, rule: { passwordAbove: number }) => amount > rule.passwordAbove;

/** 优惠卡 products (spec busDiscountCard): ticket type 1 single, 2 monthly, 3 yearly; price in fen; 1 on sale. */
export const productRow = z.object({
  id: z.number().int(),
  districtId: z.number().int(),
  districtName: z.string().nullable(),
  name: z.string(),
  ticketType: z.number().int(),
  price: z.number().int(),
  status: PRODUCT_STATE.schema,
  validDays: z.number().int(),
  description: z.string().nullable(),
  orders: z.number().int(),
  updatedDate: timestamp,
  rowVersion,
});
export type DiscountProduct = z.infer<typeof productRow>;

/** Who manages the products: district managers and the super user. */
const PRODUCT_EDITORS = grant({ roles: ['ROLE_ADMIN'] });

const productFilters = z.object({
  name: optionalText('名称', 40).optional(),
  ticketType: z.enum(['1', '2', '3'], { error: '票种应为 1、2 或 3' }).transform(Number).optional(),
  status: PRODUCT_STATE.filter.optional(),
});

export const productPage = endpoint({
  id: 'discountCard.page',
  title: '优惠卡列表',
  method: 'GET',
  path: `${BUSCODE}/busDiscountCard/page`,
  query: pageQuery(['updatedDate', 'price'] as const).extend(productFilters.shape),
  response: pageOf(productRow),
  permission: SPECIAL_CODE_READ,
});

export const productById = endpoint({
  id: 'discountCard.byId',
  title: '优惠卡详情',
  method: 'GET',
  path: `${BUSCODE}/busDiscountCard/queryById`,
  query: z.object({ id: id('优惠卡ID') }),
  response: productRow,
  permission: SPECIAL_CODE_READ,
});

export const productTotal = endpoint({
  id: 'discountCard.total',
  title: '优惠卡统计',
  method: 'GET',
  path: `${BUSCODE}/busDiscountCard/total`,
  query: productFilters,
  response: z.object({ total: z.number().int(), onSale: z.number().int(), offSale: z.number().int() }),
  permission: SPECIAL_CODE_READ,
});

/** The spec's own shape: a GET that changes the status (query id and status). */
export const productStatus = endpoint({
  id: 'discountCard.updateStatus',
  title: '上架/下架优惠卡',
  method: 'GET',
  path: `${BUSCODE}/busDiscountCard/update/status`,
  query: z.object({ id: id('优惠卡ID'), status: PRODUCT_STATE.filter, rowVersion: fromVersion }),
  response: productRow,
  permission: PRODUCT_EDITORS,
  mutates: true,
});

export const productSave = endpoint({
  id: 'discountCard.saveOrUpdate',
  title: '保存优惠卡',
  method: 'POST',
  path: `${BUSCODE}/busDiscountCard/saveOrUpdate`,
  body: z.object({
    id: id('优惠卡ID').optional(),
    name: z.string({ error: '名称不能为空' }).trim().min(1, { error: '名称不能为空' }).max(40, { error: '名称不能超过40个字符' }),
    ticketType: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: '票种应为 1（单次票）、2（月票）或 3（年票）' }),
    price: z.number({ error: '价格应为数字（分）' }).int({ error: '价格应为整数（分）' }).min(0, { error: '价格不能小于0' }).max(10_000_000, { error: '价格过大' }),
    validDays: z.number({ error: '有效天数应为数字' }).int({ error: '有效天数应为整数' }).min(1, { error: '有效天数至少1天' }).max(3660, { error: '有效天数不能超过3660天' }),
    description: optionalText('说明', 200).optional(),
    rowVersion: fromVersion,
  }),
  response: productRow,
  permission: PRODUCT_EDITORS,
});

/** Spec: DELETE with the id in the query. A product with orders is kept (taken off sale instead). */
export const productDelete = endpoint({
  id: 'discountCard.delete',
  title: '删除优惠卡',
  method: 'DELETE',
  path: `${BUSCODE}/busDiscountCard/delete`,
  query: z.object({ id: id('优惠卡ID') }),
  response: z.object({ id: z.number().int() }),
  permission: PRODUCT_EDITORS,
});

/** Orders counted per product (统计): how many, paid and refunded, and the amounts. */
export const productCountRow = z.object({
  productId: z.number().int(),
  productName: z.string(),
  ticketType: z.number().int(),
  orders: z.number().int(),
  paid: z.number().int(),
  paidAmount: z.number().int(),
  refunded: z.number().int(),
  refundedAmount: z.number().int(),
});

export const countPage = endpoint({
  id: 'discountOrder.countPage',
  title: '优惠卡订单统计',
  method: 'GET',
  path: `${BUSCODE}/busDiscountCardOrder/count/page`,
  query: pageQuery(['orders'] as const).extend(orderFilters.shape),
  response: pageOf(productCountRow),
  permission: SPECIAL_CODE_READ,
  timeoutMs: 40_000,
});

export const countTotal = endpoint({
  id: 'discountOrder.countTotal',
  title: '优惠卡订单统计合计',
  method: 'GET',
  path: `${BUSCODE}/busDiscountCardOrder/count/total`,
  query: orderFilters,
  response: productCountRow.omit({ productId: true, productName: true, ticketType: true }).extend({ products: z.number().int() }),
  permission: SPECIAL_CODE_READ,
  timeoutMs: 40_000,
});

export const downloadTotal = endpoint({
  id: 'discountOrder.downloadTotal',
  title: '导出优惠卡订单统计',
  method: 'GET',
  path: `${BUSCODE}/busDiscountCardOrder/download/total`,
  query: orderFilters,
  response: z.instanceof(Blob),
  permission: SPECIAL_CODE_READ,
  file: true,
  timeoutMs: 40_000,
});

export const downloadOrder = endpoint({
  id: 'discountOrder.downloadOrder',
  title: '导出优惠卡订单',
  method: 'GET',
  path: `${BUSCODE}/busDiscountCardOrder/download/order`,
  query: orderFilters,
  response: z.instanceof(Blob),
  permission: SPECIAL_CODE_READ,
  file: true,
  timeoutMs: 40_000,
});
