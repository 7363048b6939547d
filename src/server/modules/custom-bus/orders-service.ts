import { and, asc, count, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import * as api from '../../../shared/api/custom-bus/orders';
import { CLASSES_STATUS, ORDER_STATUS, TICKET_STATE, TICKET_TYPE } from '../../../shared/api/custom-bus/states';
import type { LadderRow } from '../../../shared/custom/refund-ladder';
import { fenToYuan } from '../../../shared/domain/money';
import { maskInText, maskPhone } from '../../../shared/domain/mask';
import { shanghaiDateTime } from '../../../shared/domain/time';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { audit } from '../../lib/audit';
import { fail, isUniqueViolation, notFound } from '../../lib/errors';
import { type ExportScope, defineExport, listRows, yuanCell } from '../../lib/export-definition';
import { type ListContext, listService } from '../../lib/list';
import { type MoneyRefund, refundsOf } from '../../lib/refund-ledger';
import { assertInScope } from '../../lib/scope';
import { iso } from '../../lib/sql';
import { customBaseOf, ladderOf } from '../custom-setting/read';
import { customCars, customClasses, customLines, customOrders, customTickets } from './schema';
import { type OrderRow, lockClasses, refundTickets, refundsByKey, settleAll, ticketQuote } from './ticket-refunds';

/** 订单记录 and 订单详情: the list, its totals and export, the detail, 退票, 验票 and 取消班次. */

type Filters = z.output<typeof api.customOrderTotal.query>;
type RefundBody = z.output<typeof api.customOrderRefund.body>;
type CheckBody = z.output<typeof api.customTicketCheck.body>;
type CancelBody = z.output<typeof api.customClassesCancel.body>;

const orderColumns = {
  o: customOrders,
  lineNo: customLines.lineNo,
  lineName: customLines.name,
  departDate: customClasses.departDate,
  departAt: customClasses.departAt,
  phoneEnc: t.riders.phoneEnc,
};
type OrderSelected = { o: OrderRow; lineNo: string; lineName: string; departDate: string | null; departAt: Date | null; phoneEnc: string | null };

const selectOrders = (db: Db) =>
  db
    .select(orderColumns)
    .from(customOrders)
    .innerJoin(customLines, eq(customLines.id, customOrders.lineId))
    .leftJoin(customClasses, eq(customClasses.id, customOrders.classesId))
    .leftJoin(t.riders, eq(t.riders.id, customOrders.riderId));

const orderDto = (deps: Pick<AppDeps, 'pii'>, r: OrderSelected) => ({
  id: r.o.id,
  orderNo: r.o.orderNo,
  districtId: r.o.districtId,
  riderId: r.o.riderId,
  riderPhone: r.phoneEnc ? maskPhone(deps.pii.decrypt(r.phoneEnc)) : null,
  lineId: r.o.lineId,
  lineNo: r.lineNo,
  lineName: r.lineName,
  direction: r.o.direction,
  classesId: r.o.classesId,
  departDate: r.departDate,
  departDateTime: r.departAt ? iso(r.departAt) : null,
  month: r.o.month,
  ticketType: (r.o.ticketType === 2 ? 2 : 1) as 1 | 2,
  seats: r.o.seats,
  amount: r.o.amount,
  refundedAmount: r.o.refundedAmount,
  payStatus: r.o.payStatus,
  status: ORDER_STATUS.schema.parse(r.o.status),
  ruleVersionId: r.o.ruleVersionId,
  agreementVersion: r.o.agreementVersion,
  createdDate: iso(r.o.createdAt),
  paidDate: r.o.paidAt ? iso(r.o.paidAt) : null,
  closedDate: r.o.closedAt ? iso(r.o.closedAt) : null,
});
export type CustomOrderDto = ReturnType<typeof orderDto>;

const digits = (s: string) => s.replace(/[\s-]/g, '');

/** The class's day (单次票) or the month (月票) within the range. */
const dateRange = (from: string | undefined, to: string | undefined) => {
  const conds = [];
  if (from) conds.push(or(and(isNotNull(customOrders.classesId), sql`${customClasses.departDate} >= ${from}`), and(isNull(customOrders.classesId), sql`${customOrders.month} >= ${from.slice(0, 7)}`)));
  if (to) conds.push(or(and(isNotNull(customOrders.classesId), sql`${customClasses.departDate} <= ${to}`), and(isNull(customOrders.classesId), sql`${customOrders.month} <= ${to.slice(0, 7)}`)));
  return and(...conds);
};

/** 订单记录: the area's orders by number, rider phone (blind index), line, day, status and ticket type; newest first. */
const orderList = listService({
  endpoint: api.customOrderPage,
  select: selectOrders,
  count: (db) => db.select({ n: count() }).from(customOrders).leftJoin(customClasses, eq(customClasses.id, customOrders.classesId)),
  scope: customOrders.districtId,
  filters: {
    orderNo: (orderNo) => eq(customOrders.orderNo, orderNo.trim()),
    phone: (phone, _q, _a, deps) => sql`${customOrders.riderId} in (select id from riders where phone_idx = ${deps.pii.index('phone', digits(phone))})`,
    lineId: (lineId) => eq(customOrders.lineId, lineId),
    startDate: (from, q) => (q.endDate ? undefined : dateRange(from, undefined)),
    endDate: (to, q) => dateRange(q.startDate, to),
    status: (status) => eq(customOrders.status, status),
    ticketType: (ticketType) => eq(customOrders.ticketType, ticketType),
  },
  sorts: { createdDate: customOrders.createdAt, amount: customOrders.amount },
  order: { column: customOrders.createdAt, dir: 'desc' },
  key: { column: customOrders.id, of: (r) => r.o.id },
  dto: (r, { deps }: ListContext<ExportScope>) => orderDto(deps, r),
});

export const pageOrders = (deps: AppDeps, a: AuthContext, q: z.output<typeof api.customOrderPage.query>) => orderList.page(deps, a, q);

export async function orderTotals(deps: AppDeps, a: AuthContext, q: Filters) {
  const o = customOrders;
  const [r] = await deps.db
    .select({
      orders: count(),
      tickets: sql<number>`coalesce(sum((select count(*) from custom_tickets x where x.order_id = ${o.id} and x.state in (1, 2, 3))), 0)`.mapWith(Number),
      checked: sql<number>`coalesce(sum((select count(*) from custom_tickets x where x.order_id = ${o.id} and x.state = 2)), 0)`.mapWith(Number),
      refundedTickets: sql<number>`coalesce(sum((select count(*) from custom_tickets x where x.order_id = ${o.id} and x.state = 3)), 0)`.mapWith(Number),
      paidAmount: sql<number>`coalesce(sum(${o.amount}) filter (where ${o.payStatus} in (1, 2)), 0)`.mapWith(Number),
      refundedAmount: sql<number>`coalesce(sum(${o.refundedAmount}), 0)`.mapWith(Number),
    })
    .from(o)
    .leftJoin(customClasses, eq(customClasses.id, o.classesId))
    .where(orderList.where(deps, a, q));
  return { orders: r?.orders ?? 0, tickets: r?.tickets ?? 0, paidAmount: r?.paidAmount ?? 0, refundedAmount: r?.refundedAmount ?? 0, checked: r?.checked ?? 0, refundedTickets: r?.refundedTickets ?? 0 };
}

async function loadOrder(deps: Pick<AppDeps, 'pii'>, db: Db, id: number) {
  const [r] = await selectOrders(db).where(eq(customOrders.id, id));
  if (!r) throw notFound('订单不存在');
  return { row: r.o, order: orderDto(deps, r) };
}

const refundDto = (r: MoneyRefund) => ({ id: r.id, ticketId: r.itemId, amount: r.amount, reason: maskInText(r.reason), state: r.state, failReason: r.failReason, createdDate: iso(r.createdAt), settledDate: r.settledAt ? iso(r.settledAt) : null });

async function ticketsOf(db: Db, orderId: number, ladder: readonly LadderRow[], now: Date) {
  const rows = await db
    .select({ x: customTickets, departDate: customClasses.departDate, departAt: customClasses.departAt, cStatus: customClasses.status })
    .from(customTickets)
    .innerJoin(customClasses, eq(customClasses.id, customTickets.classesId))
    .where(eq(customTickets.orderId, orderId))
    .orderBy(asc(customClasses.departAt), asc(customTickets.id));
  return rows.map((r) => ticketDto(r.x, r.departDate, r.departAt, r.cStatus, ladder, now));
}

function ticketDto(x: typeof customTickets.$inferSelect, departDate: string, departAt: Date, cStatus: number, ladder: readonly LadderRow[], now: Date) {
  return {
    id: x.id,
    ticketNo: x.ticketNo,
    classesId: x.classesId,
    departDate,
    departDateTime: iso(departAt),
    classesStatus: CLASSES_STATUS.schema.parse(cStatus),
    state: TICKET_STATE.schema.parse(x.state),
    amount: x.amount,
    refundedAmount: x.refundedAmount,
    refundedDate: x.refundedAt ? iso(x.refundedAt) : null,
    checkedDate: x.checkedAt ? iso(x.checkedAt) : null,
    checkPlateNo: x.checkPlateNo,
    checkMethod: x.checkMethod,
    quote: ticketQuote(x, departAt, cStatus, ladder, 'operator', now),
  };
}

/** 订单详情: the order, its tickets with what each would refund now by the order's own ladder, the refunds. */
export async function orderMsg(deps: AppDeps, a: AuthContext, id: number) {
  const { row, order } = await loadOrder(deps, deps.db, id);
  assertInScope(a, row.districtId);
  const ladder = await ladderOf(deps.db, row.ruleVersionId);
  const tickets = await ticketsOf(deps.db, id, ladder, deps.clock.now());
  const refunds = await refundsOf(deps.db, 'custom', id);
  return { ...order, tickets, refunds: refunds.map(refundDto), ladder: [...ladder] };
}

const REUSED_KEY = '该退款请求编号已用于另一笔退款，请重新发起';

/**
 * A retry with a key that already refunded: the first answer. Refused when the key belongs to another
 * order or another set of tickets (a new request that reused the key is not the first one's retry).
 */
async function replayRefund(deps: AppDeps, a: AuthContext, orderId: number, key: string, ticketNos: readonly string[]) {
  const rows = await refundsByKey(deps.db, key);
  if (!rows.length) return null;
  if (rows.some((r) => r.kind !== 'custom' || r.orderId !== orderId)) throw fail(REUSED_KEY);
  const { row, order } = await loadOrder(deps, deps.db, orderId);
  assertInScope(a, row.districtId);
  const asked = new Set(ticketNos);
  const wanted = asked.size ? await deps.db.select().from(customTickets).where(and(eq(customTickets.orderId, orderId), inArray(customTickets.ticketNo, [...asked]))) : [];
  const done = new Set(rows.map((r) => r.itemId));
  const ids = new Set(wanted.map((x) => x.id));
  // Every row the key wrote is one of the tickets asked for, and every ticket asked for without a row
  // is one refunded with nothing to give back (no 0-fen ledger row is written).
  const same = wanted.length === asked.size && [...done].every((id) => ids.has(id)) && wanted.every((x) => done.has(x.id) || (x.state === 3 && x.refundedAmount === 0));
  if (!same) throw fail(REUSED_KEY);
  const amount = rows.reduce((s, r) => s + r.amount, 0);
  const tickets = await deps.db.select({ amount: customTickets.amount }).from(customTickets).where(inArray(customTickets.id, rows.map((r) => r.itemId)));
  return { order, refund: { amount, fee: tickets.reduce((s, x) => s + x.amount, 0) - amount, rows: rows.map(refundDto) }, replayed: true };
}

/**
 * 退票 by the operator: the chosen tickets of an order, until departure, by the order's ladder unless
 * the fee is waived; a retry with the same key answers the first result (decision 75).
 */
export async function refundOrder(deps: AppDeps, a: AuthContext, body: RefundBody) {
  const earlier = await replayRefund(deps, a, body.id, body.idempotencyKey, body.ticketNos);
  if (earlier) return earlier;
  const now = deps.clock.now();
  let result;
  try {
    result = await deps.db.transaction(async (tx) => {
      const [head] = await tx.select().from(customOrders).where(eq(customOrders.id, body.id));
      if (!head) throw notFound('订单不存在');
      assertInScope(a, head.districtId);
      const wanted = await tx.select().from(customTickets).where(and(eq(customTickets.orderId, head.id), inArray(customTickets.ticketNo, body.ticketNos)));
      if (wanted.length !== new Set(body.ticketNos).size) throw fail('所选车票不属于该订单');
      const classes = await lockClasses(tx, wanted.map((x) => x.classesId));
      const [order] = await tx.select().from(customOrders).where(eq(customOrders.id, head.id)).for('update');
      const tickets = await tx.select().from(customTickets).where(inArray(customTickets.id, wanted.map((x) => x.id))).orderBy(asc(customTickets.id)).for('update');
      const ladder = await ladderOf(tx, order!.ruleVersionId);
      return refundTickets(tx, { order: order!, tickets, classes, ladder, mode: body.waiveFee ? 'operatorWaived' : 'operator', reason: body.reason, idempotencyKey: body.idempotencyKey, actor: a.actor, now, expected: body.amount });
    });
  } catch (err) {
    // The same key racing itself: the other request committed first; answer as it did.
    if (isUniqueViolation(err) || (err instanceof Error && /已退票/.test(err.message))) {
      const again = await replayRefund(deps, a, body.id, body.idempotencyKey, body.ticketNos);
      if (again) return again;
    }
    throw err;
  }
  const settled = await settleAll(deps, result.rows.map((r) => r.id));
  const rows = result.rows.map((r) => settled.find((s) => s.id === r.id) ?? r);
  const { order } = await loadOrder(deps, deps.db, body.id);
  return { order, refund: { amount: result.amount, fee: result.fee, rows: rows.map(refundDto) }, replayed: false };
}

/**
 * 验票: a paid ticket 1 → 2 once, only inside its class's check window (from checkOpenMinBefore before
 * departure until arrival), by `update … where state = 1` so two scans of one ticket check it once.
 */
export async function checkTicket(deps: AppDeps, a: AuthContext, body: CheckBody) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [r] = await tx
      .select({ x: customTickets, c: customClasses, orderNo: customOrders.orderNo, districtId: customOrders.districtId, ruleVersionId: customOrders.ruleVersionId })
      .from(customTickets)
      .innerJoin(customClasses, eq(customClasses.id, customTickets.classesId))
      .innerJoin(customOrders, eq(customOrders.id, customTickets.orderId))
      .where(eq(customTickets.ticketNo, body.ticketNo));
    if (!r) throw notFound('车票不存在');
    assertInScope(a, r.districtId);
    const base = await customBaseOf(tx, r.districtId);
    if (r.x.state === 2) throw fail('车票已核销');
    if (r.x.state === 3) throw fail('车票已退票，不能验票');
    if (r.x.state !== 1) throw fail('车票未支付，不能验票');
    if (r.c.status === 4) throw fail('班次已取消，不能验票');
    const opens = r.c.departAt.getTime() - base.checkOpenMinBefore * 60_000;
    if (now.getTime() < opens) throw fail(`未到验票时间（发车前${base.checkOpenMinBefore}分钟开始验票）`);
    if (now.getTime() > r.c.arriveAt.getTime()) throw fail('班次已结束，不能验票');
    const plate = body.plateNo ?? (r.c.carId ? ((await tx.select({ p: customCars.plateNo }).from(customCars).where(eq(customCars.id, r.c.carId)))[0]?.p ?? null) : null);
    const [after] = await tx
      .update(customTickets)
      .set({ state: 2, checkedAt: now, checkMethod: 2, checkedBy: a.actor.id, checkPlateNo: plate, updatedAt: now })
      .where(and(eq(customTickets.id, r.x.id), eq(customTickets.state, 1)))
      .returning();
    if (!after) throw fail('车票已核销');
    await audit(tx, a.actor, { type: 'TICKET_CHECK', targetDistrictId: r.districtId, target: `custom-order/${r.x.orderId}`, summary: `人工验票：车票 ${r.x.ticketNo}（订单 ${r.orderNo}，${r.c.departDate}班次）`, before: { state: 1 }, after: { state: 2 } }, now);
    const ladder = await ladderOf(tx, r.ruleVersionId);
    return { ticket: ticketDto(after, r.c.departDate, r.c.departAt, r.c.status, ladder, now), orderId: r.x.orderId, orderNo: r.orderNo };
  });
}

/**
 * 取消班次: 0/1/2 → 4 with every paid ticket refunded in full and every unpaid hold closed, in one
 * transaction under the class's lock (the first lock every seat writer takes), so a second cancel, on
 * this instance or another, waits and then finds it cancelled: one refund per ticket, whatever the keys.
 */
export async function cancelClasses(deps: AppDeps, a: AuthContext, body: CancelBody) {
  const now = deps.clock.now();
  const done = await deps.db.transaction(async (tx) => {
    const [head] = await tx.select({ districtId: customClasses.districtId }).from(customClasses).where(eq(customClasses.id, body.id));
    if (!head) throw notFound('班次不存在');
    assertInScope(a, head.districtId);
    const classes = await lockClasses(tx, [body.id]);
    const c = classes.get(body.id)!;
    if (c.status === 4) return { replayed: true, rows: [] as MoneyRefund[], amount: 0, tickets: 0 };
    if (c.status === 3 || c.departAt.getTime() <= now.getTime()) throw fail('班次已发车，不能取消');
    const orderIds = [...new Set((await tx.select({ o: customTickets.orderId }).from(customTickets).where(and(eq(customTickets.classesId, c.id), inArray(customTickets.state, [0, 1, 2])))).map((r) => r.o))].sort((x, y) => x - y);
    const rows: MoneyRefund[] = [];
    let amount = 0;
    let tickets = 0;
    for (const orderId of orderIds) {
      const [order] = await tx.select().from(customOrders).where(eq(customOrders.id, orderId)).for('update');
      const mine = await tx
        .select()
        .from(customTickets)
        .where(and(eq(customTickets.orderId, orderId), eq(customTickets.classesId, c.id)))
        .orderBy(asc(customTickets.id))
        .for('update');
      // 已核销 tickets too: a cancelled class refunds every paid ticket in full, checked or not.
      const paid = mine.filter((x) => x.state === 1 || x.state === 2);
      const held = mine.filter((x) => x.state === 0);
      if (held.length) {
        await tx.update(customTickets).set({ state: 4, updatedAt: now }).where(inArray(customTickets.id, held.map((x) => x.id)));
        await tx.update(customClasses).set({ held: sql`${customClasses.held} - ${held.length}`, stock: sql`${customClasses.stock} + ${held.length}` }).where(eq(customClasses.id, c.id));
        const [open] = await tx.select({ n: count() }).from(customTickets).where(and(eq(customTickets.orderId, orderId), eq(customTickets.state, 0)));
        if (!open?.n) await tx.update(customOrders).set({ status: 2, closedAt: now, updatedAt: now }).where(and(eq(customOrders.id, orderId), eq(customOrders.status, 0)));
      }
      if (paid.length) {
        const r = await refundTickets(tx, { order: order!, tickets: paid, classes, ladder: [], mode: 'cancel', reason: `班次取消：${body.reason}`, idempotencyKey: body.idempotencyKey, actor: a.actor, now });
        rows.push(...r.rows);
        amount += r.amount;
        tickets += paid.length;
      }
    }
    await tx.update(customClasses).set({ status: 4, cancelReason: body.reason, cancelledAt: now, updatedAt: now }).where(and(eq(customClasses.id, c.id), inArray(customClasses.status, [0, 1, 2])));
    await audit(
      tx,
      a.actor,
      {
        type: 'CUSTOM_CLASSES_CANCEL',
        targetDistrictId: c.districtId,
        target: `custom-classes/${c.id}`,
        summary: `取消班次 ${c.departDate} ${shanghaiDateTime(c.departAt).slice(11, 16)}：退票 ${tickets} 张，全额退款 ${fenToYuan(amount)} 元：${body.reason}`,
        before: { status: c.status, sold: c.sold, held: c.held },
        after: { status: 4, refunds: rows.length },
      },
      now,
    );
    return { replayed: false, rows, amount, tickets };
  });
  await settleAll(deps, done.rows.map((r) => r.id));
  if (done.replayed) {
    const [n] = await deps.db
      .select({ tickets: count(), amount: sql<number>`coalesce(sum(${customTickets.refundedAmount}), 0)`.mapWith(Number) })
      .from(customTickets)
      .where(and(eq(customTickets.classesId, body.id), eq(customTickets.state, 3)));
    return { id: body.id, status: 4 as const, refundedTickets: n?.tickets ?? 0, refundedAmount: n?.amount ?? 0, replayed: true };
  }
  return { id: body.id, status: 4 as const, refundedTickets: done.tickets, refundedAmount: done.amount, replayed: false };
}

export const orderExportTitle = (q: z.output<typeof api.customOrderExport.query>) => ['定制订单', q.status !== undefined ? ORDER_STATUS.label(q.status) : ''].filter(Boolean).join(' ');

export const ordersExport = defineExport({
  id: 'customBus.orders',
  permission: api.customOrderExport.permission,
  sheet: '定制订单',
  columns: [
    { header: '订单号', width: 22, cell: (o: CustomOrderDto) => o.orderNo },
    { header: '手机号', width: 14, mask: 'phone', cell: (o) => o.riderPhone },
    { header: '线路', width: 16, cell: (o) => `${o.lineNo} ${o.lineName}` },
    { header: '票种', width: 8, cell: (o) => TICKET_TYPE[o.ticketType] },
    { header: '乘车日期', width: 12, cell: (o) => o.departDate ?? o.month ?? '' },
    { header: '座位数', width: 8, cell: (o) => o.seats },
    { header: '金额（元）', width: 10, cell: (o) => yuanCell(o.amount) },
    { header: '已退（元）', width: 10, cell: (o) => yuanCell(o.refundedAmount) },
    { header: '状态', width: 8, cell: (o) => ORDER_STATUS.label(o.status) },
    { header: '下单时间', width: 20, cell: (o) => shanghaiDateTime(o.createdDate) },
    { header: '支付时间', width: 20, cell: (o) => (o.paidDate ? shanghaiDateTime(o.paidDate) : '') },
  ],
  rows: listRows(orderList),
  audit: { operation: 'CUSTOM_EXPORT' },
});
