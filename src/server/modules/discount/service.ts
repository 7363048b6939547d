import { count, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { discount } from '../../../shared/api';
import { TICKET_TYPES } from '../../../shared/api/card';
import { ORDER_PAY_STATE, refundNeedsPassword } from '../../../shared/api/discount';
import { fenToYuan } from '../../../shared/domain/money';
import { maskPhone } from '../../../shared/domain/mask';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { audit } from '../../lib/audit';
import { fail, failOn, isUniqueViolation, notFound } from '../../lib/errors';
import { listService } from '../../lib/list';
import { moveStatus } from '../../lib/transition';
import { paged } from '../../lib/paging';
import { assertInScope } from '../../lib/scope';
import { iso } from '../../lib/sql';
import { computedRows, defineExport, listRows, sendExport } from '../../lib/export-definition';
import { shanghaiDateTime } from '../../../shared/domain/time';
import { verifyOwnPassword } from '../shell/credential-guard';

type Filters = z.output<typeof discount.discountOrderTotal.query>;
type PageQuery = z.output<typeof discount.discountOrderPage.query>;
type RefundBody = z.output<typeof discount.discountOrderRefund.body>;

const columns = { o: t.discountOrders, productName: t.discountProducts.name, ticketType: t.discountProducts.ticketType, cardNo: t.busCards.cardNo, phoneEnc: t.riders.phoneEnc };
type Row = { o: typeof t.discountOrders.$inferSelect; productName: string; ticketType: number; cardNo: string; phoneEnc: string | null };

const select = (db: Db) =>
  db
    .select(columns)
    .from(t.discountOrders)
    .innerJoin(t.discountProducts, eq(t.discountProducts.id, t.discountOrders.productId))
    .innerJoin(t.busCards, eq(t.busCards.id, t.discountOrders.cardId))
    .leftJoin(t.riders, eq(t.riders.id, t.discountOrders.riderId));

const dto = (deps: AppDeps, r: Row) => ({
  id: r.o.id,
  orderNo: r.o.orderNo,
  districtId: r.o.districtId,
  productId: r.o.productId,
  productName: r.productName,
  ticketType: r.ticketType,
  cardNo: r.cardNo,
  riderPhone: r.phoneEnc ? maskPhone(deps.pii.decrypt(r.phoneEnc)) : null,
  amount: r.o.amount,
  payStatus: ORDER_PAY_STATE.schema.parse(r.o.payStatus),
  createdDate: iso(r.o.createdAt),
  paidDate: r.o.paidAt ? iso(r.o.paidAt) : null,
  refundedDate: r.o.refundedAt ? iso(r.o.refundedAt) : null,
});

/** 特殊码列表: the area's orders by number, card, payment and when they were made; newest first. */
const orderList = listService({
  endpoint: discount.discountOrderPage,
  select,
  count: (db) => db.select({ n: count() }).from(t.discountOrders),
  scope: t.discountOrders.districtId,
  filters: {
    orderNo: (orderNo) => eq(t.discountOrders.orderNo, orderNo),
    cardNo: (cardNo) => sql`${t.discountOrders.cardId} = (select id from bus_cards where card_no = ${cardNo})`,
    payStatus: (payStatus) => eq(t.discountOrders.payStatus, payStatus),
    startTime: (from) => gte(t.discountOrders.createdAt, new Date(from)),
    endTime: (to) => lte(t.discountOrders.createdAt, new Date(to)),
  },
  sorts: { createdDate: t.discountOrders.createdAt, amount: t.discountOrders.amount },
  order: { column: t.discountOrders.createdAt, dir: 'desc' },
  key: { column: t.discountOrders.id, of: (r) => r.o.id },
  dto: (r, { deps }) => dto(deps, r),
});

/** The orders' filters, for the totals and the counts per product over the same rows. */
const where = (deps: AppDeps, a: Pick<AuthContext, 'districtScope'>, q: Filters) => orderList.where(deps, a, q);

export const pageOrders = (deps: AppDeps, a: AuthContext, q: PageQuery) => orderList.page(deps, a, q);

export async function orderTotals(deps: AppDeps, a: AuthContext, q: Filters) {
  const o = t.discountOrders;
  const [r] = await deps.db
    .select({
      orders: count(),
      paid: sql<number>`count(*) filter (where ${o.payStatus} = 1)::int`,
      paidAmount: sql<number>`coalesce(sum(${o.amount}) filter (where ${o.payStatus} = 1), 0)::int`,
      refunded: sql<number>`count(*) filter (where ${o.payStatus} = 2)::int`,
      refundedAmount: sql<number>`coalesce(sum(${o.amount}) filter (where ${o.payStatus} = 2), 0)::int`,
      unpaid: sql<number>`count(*) filter (where ${o.payStatus} = 0)::int`,
    })
    .from(o)
    .where(where(deps, a, q));
  return { orders: r?.orders ?? 0, paid: Number(r?.paid ?? 0), paidAmount: Number(r?.paidAmount ?? 0), refunded: Number(r?.refunded ?? 0), refundedAmount: Number(r?.refundedAmount ?? 0), unpaid: Number(r?.unpaid ?? 0) };
}

const refundDto = (r: typeof t.refunds.$inferSelect) => ({ id: r.id, amount: r.amount, reason: r.reason, createdDate: iso(r.createdAt) });

async function orderById(deps: AppDeps, db: Db, id: number) {
  const [r] = await select(db).where(eq(t.discountOrders.id, id));
  if (!r) throw notFound('订单不存在');
  return { row: r, order: dto(deps, r) };
}

export async function orderMsg(deps: AppDeps, a: AuthContext, id: number) {
  const { row, order } = await orderById(deps, deps.db, id);
  assertInScope(a, row.o.districtId);
  const [refund] = await deps.db.select().from(t.refunds).where(eq(t.refunds.orderId, id));
  return { ...order, refund: refund ? refundDto(refund) : null };
}

/** The answer a refund gave, for a retry of the same idempotency key. */
async function replay(deps: AppDeps, a: AuthContext, key: string, orderId: number) {
  const [done] = await deps.db.select().from(t.refunds).where(eq(t.refunds.idempotencyKey, key));
  if (!done) return null;
  if (done.orderId !== orderId) throw fail('该幂等键已用于另一笔订单的退款');
  const { row, order } = await orderById(deps, deps.db, orderId);
  assertInScope(a, row.o.districtId);
  return { order, refund: refundDto(done), replayed: true };
}

export const refundRule = (deps: AppDeps) => ({ passwordAbove: deps.config.refundPasswordAboveFen });

const askPassword = (deps: AppDeps, amount: number) => `退款金额 ${fenToYuan(amount)} 元超过 ${fenToYuan(deps.config.refundPasswordAboveFen)} 元，请输入您的登录密码`;

/**
 * Money safeguard by amount: a refund above the rule asks for the operator's own password, through
 * the unbind's guard (the same lockout counters, LOGIN_FAIL and LOCK rows). A missing password is
 * no guess, so it is not counted; it is refused under the field and logged as a refused refund.
 * Runs before anything is locked or changed; answers whether the password was checked.
 */
async function guardAmount(deps: AppDeps, a: AuthContext, ip: string, body: RefundBody): Promise<boolean> {
  const [o] = await deps.db.select().from(t.discountOrders).where(eq(t.discountOrders.id, body.id));
  if (!o) throw notFound('订单不存在');
  assertInScope(a, o.districtId);
  if (!refundNeedsPassword(o.amount, refundRule(deps))) return false;
  const what = `订单 ${o.orderNo} 退款 ${fenToYuan(o.amount)} 元`;
  if (!body.pwd) {
    await audit(deps.db, a.actor, { type: 'ORDER_REFUND', targetDistrictId: o.districtId, target: `discount-order/${o.id}`, summary: `${what}被拒：超过 ${fenToYuan(deps.config.refundPasswordAboveFen)} 元须输入登录密码`, result: 0 }, deps.clock.now());
    throw failOn('pwd', askPassword(deps, o.amount));
  }
  await verifyOwnPassword(deps, a, ip, body.pwd, { failure: `${what}：登录密码错误`, wrong: '登录密码错误', field: 'pwd' });
  return true;
}

/**
 * 订单退款, exactly once: a retry with the same key gets the first answer; otherwise the order goes
 * from paid to refunded only through its flow's guarded move (`where pay_status = 1`), with its
 * ledger row (unique per order and per key) and audit row in the same transaction. Racing requests
 * queue on the order's row; the losers find it refunded. Above the refund rule's amount the
 * operator's password comes first (guardAmount), also for a retry.
 */
export async function refundOrder(deps: AppDeps, a: AuthContext, ip: string, body: RefundBody) {
  const checked = await guardAmount(deps, a, ip, body);
  const earlier = await replay(deps, a, body.idempotencyKey, body.id);
  if (earlier) return earlier;
  const now = deps.clock.now();
  try {
    return await deps.db.transaction(async (tx) => {
      // Racing refunds queue on the order's row; each then sees the status the one before left.
      const [current] = await tx.select().from(t.discountOrders).where(eq(t.discountOrders.id, body.id)).for('update');
      if (!current) throw notFound('订单不存在');
      assertInScope(a, current.districtId);
      // The amount the guard read is the one refunded: an order's amount is never edited, but the check costs nothing.
      if (!checked && refundNeedsPassword(current.amount, refundRule(deps))) throw failOn('pwd', askPassword(deps, current.amount));
      const what = `订单 ${current.orderNo}`;
      if (current.payStatus === 2) throw fail(`${what} 已退款，不能重复退款`);
      if (current.payStatus !== 1) throw fail(`${what} 未支付，不能退款`);
      await moveStatus(tx, { flow: ORDER_PAY_STATE, table: t.discountOrders, key: t.discountOrders.id, id: current.id, status: t.discountOrders.payStatus, from: 1, to: 2, set: { payStatus: 2, refundedAt: now }, what });
      const [refund] = await tx.insert(t.refunds).values({ orderId: current.id, amount: current.amount, idempotencyKey: body.idempotencyKey, reason: body.reason, operatorId: a.actor.id, createdAt: now }).returning();
      const { order } = await orderById(deps, tx, current.id);
      await audit(tx, a.actor, { type: 'ORDER_REFUND', targetDistrictId: current.districtId, target: `discount-order/${current.id}`, summary: `订单 ${current.orderNo} 退款 ${fenToYuan(current.amount)} 元${checked ? '（已验证登录密码）' : ''}：${body.reason}`, before: { payStatus: 1 }, after: { payStatus: 2, refund: refund!.id } }, now);
      return { order, refund: refundDto(refund!), replayed: false };
    });
  } catch (err) {
    // The same key racing itself: the other request's refund committed first; answer as it did.
    if (isUniqueViolation(err)) {
      const again = await replay(deps, a, body.idempotencyKey, body.id);
      if (again) return again;
    }
    if (err instanceof Error && /已退款/.test(err.message)) {
      const again = await replay(deps, a, body.idempotencyKey, body.id);
      if (again) return again;
    }
    throw err;
  }
}

const perProduct = {
  productId: t.discountProducts.id,
  productName: t.discountProducts.name,
  ticketType: t.discountProducts.ticketType,
  orders: sql<number>`count(*)::int`,
  paid: sql<number>`count(*) filter (where ${t.discountOrders.payStatus} = 1)::int`,
  paidAmount: sql<number>`coalesce(sum(${t.discountOrders.amount}) filter (where ${t.discountOrders.payStatus} = 1), 0)::int`,
  refunded: sql<number>`count(*) filter (where ${t.discountOrders.payStatus} = 2)::int`,
  refundedAmount: sql<number>`coalesce(sum(${t.discountOrders.amount}) filter (where ${t.discountOrders.payStatus} = 2), 0)::int`,
};
const counted = (db: Db, cond: SQL | undefined) =>
  db.select(perProduct).from(t.discountOrders).innerJoin(t.discountProducts, eq(t.discountProducts.id, t.discountOrders.productId)).where(cond).groupBy(t.discountProducts.id, t.discountProducts.name, t.discountProducts.ticketType);
const numbers = <T extends Record<string, unknown>>(r: T) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v])) as T;

/** 统计: orders counted per product, most orders first. */
export async function countByProduct(deps: AppDeps, a: AuthContext, q: z.output<typeof discount.countPage.query>) {
  const cond = where(deps, a, q);
  const dir = q.sort === 'orders,asc' ? sql`asc` : sql`desc`;
  return paged(
    q,
    async (limit, offset) => (await counted(deps.db, cond).orderBy(sql`count(*) ${dir}`, t.discountProducts.id).limit(limit).offset(offset)).map(numbers),
    () => deps.db.select({ n: sql<number>`count(distinct ${t.discountOrders.productId})::int` }).from(t.discountOrders).where(cond),
  );
}

export async function countTotals(deps: AppDeps, a: AuthContext, q: Filters) {
  const rows = (await counted(deps.db, where(deps, a, q))).map(numbers);
  const sum = (k: 'orders' | 'paid' | 'paidAmount' | 'refunded' | 'refundedAmount') => rows.reduce((acc, r) => acc + Number(r[k]), 0);
  return { products: rows.length, orders: sum('orders'), paid: sum('paid'), paidAmount: sum('paidAmount'), refunded: sum('refunded'), refundedAmount: sum('refundedAmount') };
}

const yuan = (fen: number) => fen / 100;

type ProductCount = ReturnType<typeof numbers<Awaited<ReturnType<typeof counted>>[number]>>;

/** 导出 of 统计 (the spec's direct file): orders counted per product, most orders first. */
export const totalsExport = defineExport({
  id: 'discount.totals',
  permission: discount.downloadTotal.permission,
  sheet: '订单统计',
  file: '优惠卡订单统计',
  columns: [
    { header: '产品', width: 16, cell: (r: ProductCount) => r.productName },
    { header: '票种', width: 8, cell: (r) => TICKETS[r.ticketType] ?? r.ticketType },
    { header: '订单数', width: 10, cell: (r) => r.orders },
    { header: '已支付', width: 10, cell: (r) => r.paid },
    { header: '支付金额（元）', width: 14, cell: (r) => yuan(r.paidAmount) },
    { header: '已退款', width: 10, cell: (r) => r.refunded },
    { header: '退款金额（元）', width: 14, cell: (r) => yuan(r.refundedAmount) },
  ],
  // A row per product: the whole is small.
  rows: computedRows(async ({ deps, scope }, q: Filters) => (await counted(deps.db, where(deps, scope, q)).orderBy(sql`count(*) desc`)).map(numbers)),
  audit: { operation: 'ORDER_EXPORT', summary: () => '导出优惠卡订单统计' },
});

export const downloadTotals = (deps: AppDeps, a: AuthContext, q: Filters, reply: FastifyReply) => sendExport(deps, a, totalsExport, q, reply);

const TICKETS: Record<number, string> = TICKET_TYPES;

/** 导出 of 订单 (the spec's direct file): the list's rows of the filters in id order (its keyset batches), the phone masked. */
export const ordersExport = defineExport({
  id: 'discount.orders',
  permission: discount.downloadOrder.permission,
  sheet: '优惠卡订单',
  columns: [
    { header: '订单号', width: 22, cell: (o: ReturnType<typeof dto>) => o.orderNo },
    { header: '产品', width: 14, cell: (o) => o.productName },
    { header: '票种', width: 8, cell: (o) => TICKETS[o.ticketType] ?? o.ticketType },
    { header: '卡号', width: 20, cell: (o) => o.cardNo },
    { header: '手机号', width: 14, mask: 'phone', cell: (o) => o.riderPhone },
    { header: '金额（元）', width: 10, cell: (o) => yuan(o.amount) },
    { header: '状态', width: 8, cell: (o) => ORDER_PAY_STATE.label(o.payStatus) },
    { header: '下单时间', width: 20, cell: (o) => shanghaiDateTime(o.createdDate) },
    { header: '支付时间', width: 20, cell: (o) => (o.paidDate ? shanghaiDateTime(o.paidDate) : '') },
    { header: '退款时间', width: 20, cell: (o) => (o.refundedDate ? shanghaiDateTime(o.refundedDate) : '') },
  ],
  rows: listRows(orderList),
  audit: { operation: 'ORDER_EXPORT', summary: () => '导出优惠卡订单（手机号已脱敏）' },
});

export const downloadOrders = (deps: AppDeps, a: AuthContext, q: Filters, reply: FastifyReply) => sendExport(deps, a, ordersExport, q, reply);
