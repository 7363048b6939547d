import { and, eq, inArray, sql } from 'drizzle-orm';
import { CUSTOM_AGREEMENT } from '../../../shared/api/custom-bus/buttons';
import { type LadderRow, refundQuote } from '../../../shared/custom/refund-ladder';
import { fenToYuan } from '../../../shared/domain/money';
import { maskInText } from '../../../shared/domain/mask';
import type { AppDeps } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { type Actor, SYSTEM_ACTOR, audit } from '../../lib/audit';
import { fail } from '../../lib/errors';
import { type MoneyRefund, recordRefund, settleRefund } from '../../lib/refund-ledger';
import { customClasses, customOrders, customTickets } from './schema';

/**
 * The one refund path of 定制公交's tickets: the operator's 退票, the rider's 退票 and 取消班次 all end
 * in `refundTickets`, inside the caller's transaction, after the caller has taken its locks in the
 * one order every writer of seats and tickets keeps: the classes (by id), then the order, then its
 * tickets. A ticket moves 1 → 3 only by `update … where state = 1`, its ledger row is unique per
 * ticket (money_refunds kind 'custom', itemId = the ticket's id), so whichever way two refunds of a
 * ticket race, one refund is written and the other is refused or finds it done.
 */

export type OrderRow = typeof customOrders.$inferSelect;
export type TicketRow = typeof customTickets.$inferSelect;
export type ClassesRow = typeof customClasses.$inferSelect;

export { SYSTEM_ACTOR };
export const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

/** The ledger key of one ticket's refund, made from the request's key (the ledger's key is unique per row). */
export const ticketKey = (key: string, ticketId: number) => `${key}.${ticketId}`;

/** The rows a request's key already wrote (a retry answers with them). */
export async function refundsByKey(db: Db, key: string): Promise<MoneyRefund[]> {
  return db
    .select()
    .from(t.moneyRefunds)
    .where(sql`starts_with(${t.moneyRefunds.idempotencyKey}, ${`${key}.`})`)
    .orderBy(t.moneyRefunds.id);
}

/** Whole minutes from `now` to the departure (negative once it has left). */
export const minutesBefore = (departAt: Date, now: Date) => Math.floor((departAt.getTime() - now.getTime()) / 60_000);

/** The band under 20 minutes (or whatever the ladder says) in words: 距发车不足20分钟，不可退票. */
export function ladderRefusal(row: LadderRow | null): string {
  if (!row) return '班次已发车，不能退票';
  return `距发车不足${row.toMin ?? row.fromMin}分钟，不可退票`;
}

/** Who is refunding decides the rule: the rider by the ladder; the operator by it unless the fee is waived; a cancelled class in full. */
export type RefundMode = 'rider' | 'operator' | 'operatorWaived' | 'cancel';

/**
 * What refunding `ticket` now gives back, or why it may not be refunded. The operator refunds until
 * departure (a reason is on the request): inside a band the ladder does not refund, only with the fee
 * waived; the rider is held to the ladder.
 */
export function ticketQuote(ticket: Pick<TicketRow, 'state' | 'amount' | 'refundedAmount'>, departAt: Date, classesStatus: number, ladder: readonly LadderRow[], mode: RefundMode, now: Date) {
  const left = ticket.amount - ticket.refundedAmount;
  const mins = minutesBefore(departAt, now);
  // A cancelled class refunds a checked ticket too: the rider paid for a trip that will not run.
  const refusal =
    ticket.state === 2 && mode !== 'cancel'
      ? '车票已核销，不能退票'
      : ticket.state === 3
        ? '车票已退票'
        : ticket.state !== 1 && ticket.state !== 2
          ? '车票未支付，不能退票'
          : mode === 'cancel'
            ? null
            : classesStatus === 4
              ? '班次已取消，车票已全额退款'
              : now.getTime() >= departAt.getTime() || classesStatus === 3
                ? '班次已发车，不能退票'
                : null;
  if (refusal) return { minutesBefore: mins, fee: 0, refund: 0, refusal };
  if (mode === 'cancel' || mode === 'operatorWaived') return { minutesBefore: mins, fee: 0, refund: left, refusal: null };
  const q = refundQuote(ladder, left, mins);
  if (!q.refundable) {
    const words = ladderRefusal(q.row);
    return { minutesBefore: mins, fee: 0, refund: 0, refusal: mode === 'operator' ? `${words}（按退款规则不退款，如需退票请选择免手续费）` : words };
  }
  return { minutesBefore: mins, fee: q.fee, refund: q.refund, refusal: null };
}

export interface RefundInput {
  order: OrderRow;
  /** Locked by the caller, in id order. */
  tickets: TicketRow[];
  /** The tickets' classes, locked by the caller. */
  classes: Map<number, ClassesRow>;
  ladder: readonly LadderRow[];
  mode: RefundMode;
  reason: string;
  idempotencyKey: string;
  actor: Actor;
  now: Date;
  /** The operator's retyped total (fen): the refund must equal it. */
  expected?: number;
}

/**
 * Refunds `tickets` of one order inside the caller's transaction: each 1 → 3 by a guarded update,
 * its seat back to the class's stock when the class has not left, one ledger row per ticket, the
 * order's refunded amount and status (3 部分退款, 4 已退款 when no paid ticket is left), one audit row.
 * Throws (and so rolls back everything) on the first ticket that may not be refunded.
 */
export async function refundTickets(tx: Db, r: RefundInput): Promise<{ rows: MoneyRefund[]; amount: number; fee: number }> {
  const quotes = r.tickets.map((ticket) => {
    const c = r.classes.get(ticket.classesId)!;
    return { ticket, c, q: ticketQuote(ticket, c.departAt, c.status, r.ladder, r.mode, r.now) };
  });
  const refused = quotes.find((x) => x.q.refusal);
  if (refused) throw fail(quotes.length > 1 ? `${refused.ticket.ticketNo}：${refused.q.refusal}` : refused.q.refusal!);
  const amount = quotes.reduce((s, x) => s + x.q.refund, 0);
  const fee = quotes.reduce((s, x) => s + x.q.fee, 0);
  if (r.expected !== undefined && r.expected !== amount) {
    throw fail(r.expected > amount ? `退款金额不能超过可退金额（${fenToYuan(amount)}元）` : `退款金额与应退金额（${fenToYuan(amount)}元）不一致`);
  }
  const rows: MoneyRefund[] = [];
  const back = new Map<number, number>();
  for (const { ticket, c, q } of quotes) {
    const moved = await tx
      .update(customTickets)
      // A checked ticket refunded by a cancel leaves 已核销: the table ties checkedAt to state 2, so the
      // time goes (the plate and method stay on the row, the audit row keeps the state it had).
      .set({ state: 3, refundedAmount: sql`${customTickets.refundedAmount} + ${q.refund}`, refundedAt: r.now, checkedAt: null, updatedAt: r.now })
      .where(and(eq(customTickets.id, ticket.id), inArray(customTickets.state, r.mode === 'cancel' ? [1, 2] : [1])))
      .returning({ id: customTickets.id });
    if (!moved.length) throw fail('车票已退票');
    if (r.now.getTime() < c.departAt.getTime()) back.set(c.id, (back.get(c.id) ?? 0) + 1);
    // Nothing to give back (a fee as large as the fare, a 0-fen share): the ticket is refunded, but no
    // 0-fen ledger row is written and so the channel is never asked to move nothing.
    if (q.refund <= 0) continue;
    rows.push(
      await recordRefund(tx, {
        kind: 'custom',
        orderId: r.order.id,
        itemId: ticket.id,
        districtId: r.order.districtId,
        orderNo: r.order.orderNo,
        amount: q.refund,
        reason: maskInText(r.reason),
        idempotencyKey: ticketKey(r.idempotencyKey, ticket.id),
        operatorId: r.actor.id,
        now: r.now,
      }),
    );
  }
  // A seat refunded before departure is for sale again.
  for (const [classesId, n] of back) {
    await tx
      .update(customClasses)
      .set({ sold: sql`${customClasses.sold} - ${n}`, stock: sql`${customClasses.stock} + ${n}`, updatedAt: r.now })
      .where(eq(customClasses.id, classesId));
  }
  const [left] = await tx
    .select({ paid: sql<number>`count(*) filter (where ${customTickets.state} in (1, 2))`.mapWith(Number) })
    .from(customTickets)
    .where(eq(customTickets.orderId, r.order.id));
  const whole = (left?.paid ?? 0) === 0;
  await tx
    .update(customOrders)
    .set({ refundedAmount: sql`${customOrders.refundedAmount} + ${amount}`, status: whole ? 4 : 3, payStatus: whole ? 2 : 1, updatedAt: r.now })
    .where(eq(customOrders.id, r.order.id));
  const who = r.mode === 'cancel' ? '班次取消' : r.mode === 'rider' ? '乘客' : '后台';
  await audit(
    tx,
    r.actor,
    {
      type: 'TICKET_REFUND',
      targetDistrictId: r.order.districtId,
      target: `custom-order/${r.order.id}`,
      summary: `${who}退票：订单 ${r.order.orderNo} 车票 ${r.tickets.map((x) => x.ticketNo).join('、')}，退 ${fenToYuan(amount)} 元${fee ? `（手续费 ${fenToYuan(fee)} 元）` : r.mode === 'operatorWaived' ? '（免手续费）' : ''}：${r.reason}`,
      before: { status: r.order.status, refundedAmount: r.order.refundedAmount, tickets: r.tickets.map((x) => ({ ticketNo: x.ticketNo, state: x.state })) },
      after: { status: whole ? 4 : 3, refundedAmount: r.order.refundedAmount + amount, refunds: rows.map((x) => x.id) },
    },
    r.now,
  );
  return { rows, amount, fee };
}

/** Locks classes by id (the first lock every seat writer takes) and answers them by id. */
export async function lockClasses(tx: Db, ids: number[]): Promise<Map<number, ClassesRow>> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  const map = new Map<number, ClassesRow>();
  if (!unique.length) return map;
  const rows = await tx.select().from(customClasses).where(inArray(customClasses.id, unique)).orderBy(customClasses.id).for('update');
  for (const c of rows) map.set(c.id, c);
  return map;
}

/** Asks the channel about committed refunds (after the commit, never inside it). */
export async function settleAll(deps: Partial<Pick<AppDeps, 'payments'>> & Pick<AppDeps, 'db' | 'clock'>, ids: number[]): Promise<MoneyRefund[]> {
  const out: MoneyRefund[] = [];
  if (!deps.payments) return out;
  for (const id of ids) {
    const r = await settleRefund(deps as AppDeps, id);
    if (r) out.push(r);
  }
  return out;
}

/** The district's 定制公交协议 version, stamped on an order as 套餐 does; null while it has none. */
export async function agreementVersionOf(db: Db, districtId: number): Promise<number | null> {
  const [row] = await db
    .select({ v: t.agreements.rowVersion })
    .from(t.agreements)
    .where(and(eq(t.agreements.districtId, districtId), eq(t.agreements.code, CUSTOM_AGREEMENT)));
  return row?.v ?? null;
}
