import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { fenToYuan } from '../../../shared/domain/money';
import { addDays, shanghaiDateTime, shanghaiMidnight } from '../../../shared/domain/time';
import type { AppDeps } from '../../context';
import type { Db } from '../../db/connection';
import { audit } from '../../lib/audit';
import { fail, isUniqueViolation, notFound } from '../../lib/errors';
import { recordRefund } from '../../lib/refund-ledger';
import { customBaseOf, ladderInForce, ladderOf } from '../custom-setting/read';
import { customClasses, customLines, customOrders, customTickets } from './schema';
import { SYSTEM_ACTOR, agreementVersionOf, lockClasses, refundTickets, refundsByKey, rowsOf, settleAll } from './ticket-refunds';

/**
 * 定制公交's rider side (second wave §1: service functions, not console calls): buying single seats
 * and month tickets, the pay callback, the hold expiry job and the rider's own 退票. Seats never
 * oversell because every take is the guarded `stock = stock − n where stock >= n` and the table's
 * check keeps publish = stock + held + sold with stock ≥ 0 whatever a caller does.
 */

type Deps = Pick<AppDeps, 'db' | 'clock'> & Partial<Pick<AppDeps, 'payments'>>;

/** The advisory lock space of one rider's purchases (the per-class limit is counted under it); no other lock uses it. */
export const BUY_LOCK = 7_422;

const orderNoOf = (now: Date, id: number) => `CB${shanghaiDateTime(now).replace(/\D/g, '').slice(2)}${String(id).padStart(7, '0')}`;

async function nextOrderId(tx: Db) {
  const [seq] = rowsOf<{ n: string }>(await tx.execute(sql`select nextval(pg_get_serial_sequence('custom_orders', 'id')) as n`));
  return Number(seq?.n);
}

/** The rider's seats already held or bought on these classes (unpaid, paid, checked), by class. */
async function seatsOfRider(tx: Db, riderId: number, classIds: number[]) {
  const rows = await tx
    .select({ classesId: customTickets.classesId, n: sql<number>`count(*)`.mapWith(Number) })
    .from(customTickets)
    .innerJoin(customOrders, eq(customOrders.id, customTickets.orderId))
    .where(and(eq(customOrders.riderId, riderId), inArray(customTickets.classesId, classIds), inArray(customTickets.state, [0, 1, 2])))
    .groupBy(customTickets.classesId);
  return new Map(rows.map((r) => [r.classesId, r.n]));
}

/**
 * 单次票: `seats` seats on one class on sale. The seats are held (stock → held) until the order is
 * paid or its hold (payTimeoutMin) ends; refused with 余票不足，剩余{n}座 when fewer are free and
 * 每位乘客每个班次最多购买{max}张票 past the district's limit.
 */
export async function buySingle(deps: Deps, input: { riderId: number; classesId: number; seats: number }) {
  const now = deps.clock.now();
  if (!Number.isInteger(input.seats) || input.seats < 1) throw fail('购票数量至少1张');
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${BUY_LOCK}, ${input.riderId})`);
    const [c] = await tx.select().from(customClasses).where(eq(customClasses.id, input.classesId));
    if (!c) throw notFound('班次不存在');
    if (c.status !== 1) throw fail(c.status === 4 ? '班次已取消' : c.status === 3 ? '班次已发车' : '班次未在售票中');
    const [line] = await tx.select({ status: customLines.status, ticketTypes: customLines.ticketTypes }).from(customLines).where(eq(customLines.id, c.lineId));
    if (!line || line.status !== 1) throw fail('线路未上架，不能购票');
    if (!line.ticketTypes.includes(1)) throw fail('该线路不售单次票');
    if (now.getTime() >= c.saleCloseAt.getTime() || now.getTime() < c.saleOpenAt.getTime()) throw fail('不在班次售票时间内');
    const base = await customBaseOf(tx, c.districtId);
    const mine = (await seatsOfRider(tx, input.riderId, [c.id])).get(c.id) ?? 0;
    if (mine + input.seats > base.maxSeatsPerUserPerClass) throw fail(`每位乘客每个班次最多购买${base.maxSeatsPerUserPerClass}张票`);
    // A sold-out class is refused from what was read, without queueing on its row; everything else is
    // read before the guarded update, so the class's row is locked only for the update and the inserts.
    if (c.stock < input.seats) throw fail(`余票不足，剩余${c.stock}座`);
    const ladder = await ladderInForce(tx, c.districtId);
    const agreementVersion = await agreementVersionOf(tx, c.districtId);
    const id = await nextOrderId(tx);
    const taken = await tx
      .update(customClasses)
      .set({ stock: sql`${customClasses.stock} - ${input.seats}`, held: sql`${customClasses.held} + ${input.seats}`, updatedAt: now })
      .where(and(eq(customClasses.id, c.id), sql`${customClasses.stock} >= ${input.seats}`, eq(customClasses.status, 1)))
      .returning({ stock: customClasses.stock });
    if (!taken.length) {
      const [left] = await tx.select({ stock: customClasses.stock }).from(customClasses).where(eq(customClasses.id, c.id));
      throw fail(`余票不足，剩余${left?.stock ?? 0}座`);
    }
    const orderNo = orderNoOf(now, id);
    const [order] = await tx
      .insert(customOrders)
      .values({
        id,
        orderNo,
        districtId: c.districtId,
        riderId: input.riderId,
        lineId: c.lineId,
        direction: c.direction,
        classesId: c.id,
        ticketType: 1,
        seats: input.seats,
        amount: c.price * input.seats,
        ruleVersionId: ladder?.id ?? null,
        agreementVersion,
        holdUntil: new Date(now.getTime() + base.payTimeoutMin * 60_000),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const tickets = await tx
      .insert(customTickets)
      .values(Array.from({ length: input.seats }, (_, i) => ({ orderId: id, classesId: c.id, ticketNo: `${orderNo}${i + 1}`, state: 0, amount: c.price, createdAt: now, updatedAt: now })))
      .returning();
    return { order: order!, tickets };
  });
}

/** `amount` shared over `weights` to the fen: proportional, the remainders to the largest fractions. */
export function splitFen(amount: number, weights: number[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0);
  if (!total) return weights.map(() => 0);
  const raw = weights.map((w) => (amount * w) / total);
  const out = raw.map(Math.floor);
  let rest = amount - out.reduce((s, x) => s + x, 0);
  const order = raw.map((x, i) => ({ i, f: x - Math.floor(x) })).sort((a, b) => b.f - a.f || a.i - b.i);
  for (let k = 0; rest > 0; k = (k + 1) % order.length, rest--) out[order[k]!.i]! += 1;
  return out;
}

const isWeekday = (day: string) => {
  const d = new Date(`${day}T00:00:00Z`).getUTCDay();
  return d !== 0 && d !== 6;
};

/**
 * 定制公交设置's 月票截止销售日: a month's ticket is sold until the end of that day (Shanghai) of the month
 * before, so a month ticket always starts before its first class and the dispatcher knows by then
 * how many seats the month holds. The current month's ticket is past its day too.
 */
export function monthSaleCloses(month: string, untilDay: number): { at: Date; label: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const prevY = m === 1 ? y - 1 : y;
  const prevM = m === 1 ? 12 : m - 1;
  const lastDay = `${prevY}-${String(prevM).padStart(2, '0')}-${String(untilDay).padStart(2, '0')}`;
  return { at: shanghaiMidnight(addDays(lastDay, 1)), label: `${y}年${m}月的月票已于${prevY}年${prevM}月${untilDay}日截止销售` };
}

/**
 * 月票: a seat on every class of the line's direction in `month` ('YYYY-MM') in one transaction. The
 * classes are locked in id order (so two month tickets and the single buys of the same classes
 * never deadlock) and every seat is taken by the guarded update; the first class without a free
 * seat rolls all of it back with {date}班次余票不足，月票需包含当月全部工作日班次. The amount (Σ the
 * classes' prices unless given) is shared over the tickets to the fen.
 */
export async function buyMonth(deps: Deps, input: { riderId: number; lineId: number; direction: number; month: string; amount?: number }) {
  const now = deps.clock.now();
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(input.month)) throw fail('月份应为 YYYY-MM');
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${BUY_LOCK}, ${input.riderId})`);
    const [line] = await tx.select().from(customLines).where(eq(customLines.id, input.lineId));
    if (!line) throw notFound('线路不存在');
    if (line.status !== 1) throw fail('线路未上架，不能购票');
    if (!line.ticketTypes.includes(2)) throw fail('该线路不售月票');
    const base = await customBaseOf(tx, line.districtId);
    if (!base.monthTicketEnabled) throw fail('本区域暂未开通月票');
    const closes = monthSaleCloses(input.month, base.monthSaleUntilDay);
    if (now.getTime() >= closes.at.getTime()) throw fail(closes.label);
    const ids = (
      await tx
        .select({ id: customClasses.id, departDate: customClasses.departDate })
        .from(customClasses)
        .where(and(eq(customClasses.lineId, line.id), eq(customClasses.direction, input.direction), sql`to_char(${customClasses.departDate}, 'YYYY-MM') = ${input.month}`, sql`${customClasses.status} <> 4`))
    )
      .filter((c) => isWeekday(c.departDate))
      .map((c) => c.id);
    if (!ids.length) throw fail(`该线路${input.month}尚无班次`);
    const classes = [...(await lockClasses(tx, ids)).values()];
    const departed = classes.find((c) => c.status === 3 || c.departAt.getTime() <= now.getTime());
    if (departed) throw fail(`${departed.departDate}班次已发车，月票需包含当月全部工作日班次`);
    const mine = await seatsOfRider(tx, input.riderId, ids);
    if (classes.some((c) => (mine.get(c.id) ?? 0) + 1 > base.maxSeatsPerUserPerClass)) throw fail(`每位乘客每个班次最多购买${base.maxSeatsPerUserPerClass}张票`);
    for (const c of classes) {
      const taken = await tx
        .update(customClasses)
        .set({ stock: sql`${customClasses.stock} - 1`, held: sql`${customClasses.held} + 1`, updatedAt: now })
        .where(and(eq(customClasses.id, c.id), sql`${customClasses.stock} >= 1`, inArray(customClasses.status, [0, 1, 2])))
        .returning({ id: customClasses.id });
      if (!taken.length) throw fail(`${c.departDate}班次余票不足，月票需包含当月全部工作日班次`);
    }
    const amount = input.amount ?? classes.reduce((s, c) => s + c.price, 0);
    const shares = splitFen(amount, classes.map((c) => c.price));
    const ladder = await ladderInForce(tx, line.districtId);
    const id = await nextOrderId(tx);
    const orderNo = orderNoOf(now, id);
    const [order] = await tx
      .insert(customOrders)
      .values({
        id,
        orderNo,
        districtId: line.districtId,
        riderId: input.riderId,
        lineId: line.id,
        direction: input.direction,
        classesId: null,
        month: input.month,
        ticketType: 2,
        seats: 1,
        amount,
        ruleVersionId: ladder?.id ?? null,
        agreementVersion: await agreementVersionOf(tx, line.districtId),
        holdUntil: new Date(now.getTime() + base.payTimeoutMin * 60_000),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const tickets = await tx
      .insert(customTickets)
      .values(classes.map((c, i) => ({ orderId: id, classesId: c.id, ticketNo: `${orderNo}${String(i + 1).padStart(2, '0')}`, state: 0, amount: shares[i]!, createdAt: now, updatedAt: now })))
      .returning();
    return { order: order!, tickets };
  });
}

/** The classes of an order's tickets, read without a lock: what to lock first. */
const classIdsOf = async (db: Db, orderId: number) => (await db.select({ c: customTickets.classesId }).from(customTickets).where(eq(customTickets.orderId, orderId))).map((r) => r.c);

/**
 * The channel's pay callback, idempotent: 待支付 → 已支付 once (held → sold, tickets 0 → 1); a repeated
 * notice finds it paid and changes nothing. A payment after the hold expired (已关闭) is money that
 * arrived all the same: the seats are taken again when every one is still free, otherwise the order is
 * refunded in full at once ("支付成功但座位已释放"), never refused.
 */
export async function payOrder(deps: Deps, orderNo: string) {
  const now = deps.clock.now();
  const [found] = await deps.db.select({ id: customOrders.id }).from(customOrders).where(eq(customOrders.orderNo, orderNo));
  if (!found) throw notFound('订单不存在');
  let lateRefund: number | null = null;
  const closedRefunds: number[] = [];
  const order = await deps.db.transaction(async (tx) => {
    const classes = await lockClasses(tx, await classIdsOf(tx, found.id));
    const [o] = await tx.select().from(customOrders).where(eq(customOrders.id, found.id)).for('update');
    if (!o || o.payStatus !== 0) return o!;
    const tickets = await tx.select().from(customTickets).where(eq(customTickets.orderId, o.id)).orderBy(asc(customTickets.id)).for('update');
    if (o.status === 0) {
      // Only the held tickets become seats: a month ticket's class cancelled while the order was unpaid
      // closed its ticket (0 → 4) and gave its seat back; that ticket's share is refunded below.
      const held = tickets.filter((x) => x.state === 0);
      const closed = tickets.filter((x) => x.state === 4);
      for (const [classesId, n] of perClass(held)) {
        await tx
          .update(customClasses)
          .set({ held: sql`${customClasses.held} - ${n}`, sold: sql`${customClasses.sold} + ${n}`, updatedAt: now })
          .where(eq(customClasses.id, classesId));
      }
      await tx.update(customTickets).set({ state: 1, updatedAt: now }).where(and(eq(customTickets.orderId, o.id), eq(customTickets.state, 0)));
      const back = closed.reduce((s, x) => s + x.amount, 0);
      const whole = held.length === 0;
      const [paid] = await tx
        .update(customOrders)
        .set({ status: back > 0 || whole ? (whole ? 4 : 3) : 1, payStatus: whole ? 2 : 1, paidAt: now, refundedAmount: sql`${customOrders.refundedAmount} + ${back}`, updatedAt: now })
        .where(and(eq(customOrders.id, o.id), eq(customOrders.status, 0)))
        .returning();
      if (closed.length) {
        // The whole amount arrived; the closed tickets' shares go back at once, one ledger row per ticket
        // (kind 'custom', item = the ticket), keyed by the order so a repeated notice writes none again.
        for (const x of closed) {
          if (x.amount <= 0) continue;
          await tx.update(customTickets).set({ refundedAmount: x.amount, refundedAt: now, updatedAt: now }).where(eq(customTickets.id, x.id));
          const row = await recordRefund(tx, { kind: 'custom', orderId: o.id, itemId: x.id, districtId: o.districtId, orderNo: o.orderNo, amount: x.amount, reason: '班次已取消，退还该班次票款', idempotencyKey: `closed-share-${o.orderNo}.${x.id}`, operatorId: null, now });
          closedRefunds.push(row.id);
        }
        await audit(
          tx,
          SYSTEM_ACTOR,
          {
            type: 'TICKET_REFUND',
            targetDistrictId: o.districtId,
            target: `custom-order/${o.id}`,
            summary: `定制订单 ${o.orderNo} 支付时 ${closed.length} 个班次已取消，退还其票款 ${fenToYuan(back)} 元`,
            before: { status: 0, payStatus: 0 },
            after: { status: paid!.status, payStatus: paid!.payStatus, refundedAmount: back, tickets: closed.map((x) => x.ticketNo) },
          },
          now,
        );
      }
      return paid!;
    }
    // 已关闭 by the hold expiry: its seats went back; take them again only if every class still has them.
    const free = [...perClass(tickets)].every(([classesId, n]) => {
      const c = classes.get(classesId);
      return !!c && c.stock >= n && (c.status === 1 || (o.ticketType === 2 && c.status <= 2)) && c.departAt.getTime() > now.getTime();
    });
    if (free) {
      for (const [classesId, n] of perClass(tickets)) {
        await tx
          .update(customClasses)
          .set({ stock: sql`${customClasses.stock} - ${n}`, sold: sql`${customClasses.sold} + ${n}`, updatedAt: now })
          .where(and(eq(customClasses.id, classesId), sql`${customClasses.stock} >= ${n}`));
      }
      // The late payment's system move: the closed tickets are the paid ones again (not a person's 4 → 1).
      await tx.update(customTickets).set({ state: 1, updatedAt: now }).where(and(eq(customTickets.orderId, o.id), eq(customTickets.state, 4)));
      const [paid] = await tx.update(customOrders).set({ status: 1, payStatus: 1, paidAt: now, closedAt: null, updatedAt: now }).where(eq(customOrders.id, o.id)).returning();
      await audit(tx, SYSTEM_ACTOR, { type: 'CUSTOM_ORDER_LATE_PAY', targetDistrictId: o.districtId, target: `custom-order/${o.id}`, summary: `定制订单 ${o.orderNo} 超时关闭后收到支付，座位仍有余，重新出票`, before: { status: 2, payStatus: 0 }, after: { status: 1, payStatus: 1 } }, now);
      return paid!;
    }
    const [refunded] = await tx
      .update(customOrders)
      .set({ status: 4, payStatus: 2, paidAt: now, refundedAmount: o.amount, updatedAt: now })
      .where(eq(customOrders.id, o.id))
      .returning();
    // The whole order's refund (itemId 0: no ticket was ever paid), once per order by the ledger's index.
    if (o.amount <= 0) return refunded!;
    const row = await recordRefund(tx, { kind: 'custom', orderId: o.id, itemId: 0, districtId: o.districtId, orderNo: o.orderNo, amount: o.amount, reason: '支付成功但座位已释放', idempotencyKey: `late-pay-${o.orderNo}`, operatorId: null, now });
    lateRefund = row.id;
    await audit(tx, SYSTEM_ACTOR, { type: 'CUSTOM_ORDER_LATE_PAY', targetDistrictId: o.districtId, target: `custom-order/${o.id}`, summary: `定制订单 ${o.orderNo} 支付成功但座位已释放，全额退款 ${fenToYuan(o.amount)} 元`, before: { status: 2, payStatus: 0 }, after: { status: 4, payStatus: 2, refund: row.id } }, now);
    return refunded!;
  });
  if (lateRefund !== null) await settleAll(deps, [lateRefund]);
  if (closedRefunds.length) await settleAll(deps, closedRefunds);
  return order;
}

function perClass(tickets: { classesId: number }[]) {
  const m = new Map<number, number>();
  for (const x of tickets) m.set(x.classesId, (m.get(x.classesId) ?? 0) + 1);
  return [...m].sort((a, b) => a[0] - b[0]);
}

/**
 * The job ticket.holdExpire: unpaid orders past their hold → 已关闭, tickets 0 → 4, seats back to stock.
 * Each order in its own transaction with the classes locked first (the order every seat writer keeps)
 * and the order by `skip locked`, so instances share the work and a pay callback holding the order
 * wins: it is then paid, and skipped here.
 */
export async function expireHolds(deps: Deps, batch = 200): Promise<number[]> {
  const now = deps.clock.now();
  const due = await deps.db
    .select({ id: customOrders.id })
    .from(customOrders)
    .where(and(eq(customOrders.status, 0), lte(customOrders.holdUntil, now)))
    .orderBy(customOrders.id)
    .limit(batch);
  const closed: number[] = [];
  for (const { id } of due) {
    const done = await deps.db.transaction(async (tx) => {
      await lockClasses(tx, await classIdsOf(tx, id));
      const [o] = await tx
        .select()
        .from(customOrders)
        .where(and(eq(customOrders.id, id), eq(customOrders.status, 0), lte(customOrders.holdUntil, now)))
        .for('update', { skipLocked: true });
      if (!o) return false;
      const tickets = await tx.update(customTickets).set({ state: 4, updatedAt: now }).where(and(eq(customTickets.orderId, o.id), eq(customTickets.state, 0))).returning({ classesId: customTickets.classesId });
      for (const [classesId, n] of perClass(tickets)) {
        await tx
          .update(customClasses)
          .set({ held: sql`${customClasses.held} - ${n}`, stock: sql`${customClasses.stock} + ${n}`, updatedAt: now })
          .where(eq(customClasses.id, classesId));
      }
      await tx.update(customOrders).set({ status: 2, closedAt: now, updatedAt: now }).where(eq(customOrders.id, o.id));
      await audit(tx, SYSTEM_ACTOR, { type: 'TICKET_HOLD_EXPIRE', targetDistrictId: o.districtId, target: `custom-order/${o.id}`, summary: `定制订单 ${o.orderNo} 超时未支付，已关闭，释放 ${tickets.length} 个座位`, before: { status: 0 }, after: { status: 2 } }, now);
      return true;
    });
    if (done) closed.push(id);
  }
  return closed;
}

/**
 * The rider's own 退票 of some of their tickets, by the ladder the order was sold under (never the
 * one in force now): 距发车不足20分钟，不可退票 comes from that ladder's band. Locks as every refund does.
 */
export async function riderRefund(deps: Deps, input: { riderId: number; orderNo: string; ticketNos: string[]; idempotencyKey: string; reason?: string }) {
  const now = deps.clock.now();
  const [found] = await deps.db.select().from(customOrders).where(eq(customOrders.orderNo, input.orderNo));
  if (!found || found.riderId !== input.riderId) throw notFound('订单不存在');
  // The mini-program's retry with the same key (a lost answer): the first refund, not a second.
  const replay = async () => {
    const rows = await refundsByKey(deps.db, input.idempotencyKey);
    if (!rows.length) return null;
    if (rows.some((r) => r.kind !== 'custom' || r.orderId !== found.id)) throw fail('该退款请求编号已用于另一笔退款，请重新发起');
    return { rows, amount: rows.reduce((a, r) => a + r.amount, 0), fee: 0, replayed: true };
  };
  const earlier = await replay();
  if (earlier) return earlier;
  const result = await deps.db.transaction(async (tx) => {
    const wanted = await tx.select().from(customTickets).where(and(eq(customTickets.orderId, found.id), inArray(customTickets.ticketNo, input.ticketNos)));
    if (wanted.length !== new Set(input.ticketNos).size) throw fail('车票不属于该订单');
    const classes = await lockClasses(tx, wanted.map((x) => x.classesId));
    const [o] = await tx.select().from(customOrders).where(eq(customOrders.id, found.id)).for('update');
    const tickets = await tx.select().from(customTickets).where(inArray(customTickets.id, wanted.map((x) => x.id))).orderBy(asc(customTickets.id)).for('update');
    const ladder = await ladderOf(tx, o!.ruleVersionId);
    return refundTickets(tx, { order: o!, tickets, classes, ladder, mode: 'rider', reason: input.reason ?? '乘客申请退票', idempotencyKey: input.idempotencyKey, actor: { ...SYSTEM_ACTOR, login: 'rider' }, now });
  }).catch(async (err: unknown) => {
    const again = isUniqueViolation(err) || (err instanceof Error && /已退票/.test(err.message)) ? await replay() : null;
    if (again) return again;
    throw err;
  });
  await settleAll(deps, result.rows.map((r) => r.id));
  return { ...result, replayed: 'replayed' in result };
}
