import { z } from 'zod';
import { BUSCODE, endpoint } from './endpoint';
import { id, isoDateTime, optionalText, timestamp } from './fields';
import { pageOf, pageQuery } from './paging';
import { SESSION, grant } from './permissions';

/**
 * Discount-card orders (spec §7, busDiscountCardOrder) and their refund, which happens exactly once
 * (README decision 75): a guarded update in one transaction with its ledger row and audit row,
 * keyed by the caller's idempotency key.
 */

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
  payStatus: z.number().int(),
  createdDate: timestamp,
  paidDate: timestamp.nullable(),
  refundedDate: timestamp.nullable(),
});
export type DiscountOrder = z.infer<typeof discountOrderRow>;

const orderFilters = z.object({
  orderNo: optionalText('订单号', 40).optional(),
  cardNo: optionalText('卡号', 16).optional(),
  payStatus: z.enum(['0', '1', '2'], { error: '支付状态应为 0、1 或 2' }).transform(Number).optional(),
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
  permission: SESSION,
  timeoutMs: 40_000,
});

export const discountOrderTotal = endpoint({
  id: 'discountOrder.total',
  title: '优惠卡订单合计',
  method: 'GET',
  path: `${BUSCODE}/busDiscountCardOrder/query/total`,
  query: orderFilters,
  response: z.object({ orders: z.number().int(), paid: z.number().int(), paidAmount: z.number().int(), refunded: z.number().int(), refundedAmount: z.number().int(), unpaid: z.number().int() }),
  permission: SESSION,
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
  permission: SESSION,
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
  }),
  response: z.object({ order: discountOrderRow, refund: refundRow, replayed: z.boolean() }),
  permission: grant({ buttons: ['REFUND_ORDER'] }),
});
