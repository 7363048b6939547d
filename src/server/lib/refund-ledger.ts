import { and, eq, inArray, lte } from 'drizzle-orm';
import type { AppDeps } from '../context';
import type { Db } from '../db/connection';
import { moneyRefunds } from '../db/schema';
import { fail } from './errors';
import { outRefundNo } from './payment-channel';

/** The money modules whose refunds share `money_refunds` (second-wave §1). */
export type RefundKind = 'wallet' | 'nfc' | 'package' | 'custom' | 'handle';
export type MoneyRefund = typeof moneyRefunds.$inferSelect;

export const REFUND_STATE_LABEL: Record<number, string> = { 0: '退款中', 1: '退款成功', 2: '退款异常' };

/**
 * The refund an idempotency key already made, for a retry to answer as the first request did.
 * A key reused for another order (or another kind) is refused: it would otherwise look like success.
 */
export async function refundByKey(db: Db, kind: RefundKind, orderId: number, key: string): Promise<MoneyRefund | null> {
  const [done] = await db.select().from(moneyRefunds).where(eq(moneyRefunds.idempotencyKey, key));
  if (!done) return null;
  if (done.kind !== kind || done.orderId !== orderId) throw fail('该退款请求编号已用于另一笔退款，请重新发起');
  return done;
}

/**
 * Writes the ledger row of a refund, inside the caller's transaction (after its guarded move of
 * the order, before its audit row). The unique indexes are the last word: a second refund of the
 * same order or item, or a second use of the key, fails the insert and rolls the whole change back.
 */
export async function recordRefund(
  tx: Db,
  r: { kind: RefundKind; orderId: number; itemId?: number; districtId: number; orderNo: string; amount: number; reason: string; idempotencyKey: string; operatorId: number | null; now: Date },
): Promise<MoneyRefund> {
  const [row] = await tx
    .insert(moneyRefunds)
    .values({
      kind: r.kind,
      orderId: r.orderId,
      itemId: r.itemId ?? 0,
      districtId: r.districtId,
      orderNo: r.orderNo,
      amount: r.amount,
      reason: r.reason,
      idempotencyKey: r.idempotencyKey,
      outRefundNo: outRefundNo(r.idempotencyKey),
      operatorId: r.operatorId,
      createdAt: r.now,
    })
    .returning();
  return row!;
}

/**
 * Asks the payment channel to pay a committed refund back and stores its answer. Called after the
 * refund's transaction commits (never inside it: the channel is a network call). Only a row still
 * 退款中 or 退款异常 is asked about, and the answer is stored only over the state it was asked from,
 * so two instances settling one row store one answer. A channel that throws leaves the row as it
 * was, for the retry job or an operator's 重试.
 */
export async function settleRefund(deps: AppDeps, id: number): Promise<MoneyRefund | null> {
  const [row] = await deps.db.select().from(moneyRefunds).where(eq(moneyRefunds.id, id));
  if (!row || row.state === 1) return row ?? null;
  let answer;
  try {
    answer = await deps.payments.refund({ outRefundNo: row.outRefundNo, orderNo: row.orderNo, amountFen: row.amount });
  } catch {
    return row;
  }
  const [after] = await deps.db
    .update(moneyRefunds)
    .set({ state: answer.state, channelRefundNo: answer.channelRefundNo, failReason: answer.failReason, attempts: row.attempts + 1, settledAt: answer.state === 1 ? deps.clock.now() : null })
    .where(and(eq(moneyRefunds.id, row.id), eq(moneyRefunds.state, row.state), eq(moneyRefunds.attempts, row.attempts)))
    .returning();
  return after ?? (await deps.db.select().from(moneyRefunds).where(eq(moneyRefunds.id, id)))[0] ?? null;
}

/** A kind's refunds the channel has not confirmed, older than `olderThan`, oldest first. */
export async function unsettledRefunds(db: Db, kind: RefundKind, olderThan: Date, limit = 200): Promise<MoneyRefund[]> {
  return db
    .select()
    .from(moneyRefunds)
    .where(and(eq(moneyRefunds.kind, kind), inArray(moneyRefunds.state, [0, 2]), lte(moneyRefunds.createdAt, olderThan)))
    .orderBy(moneyRefunds.id)
    .limit(limit);
}

/**
 * A money module's retry job (`<module>.refundRetry`): its refunds still 退款中 (a lost answer) or
 * 退款异常 a minute after they were written are asked again under the same out_refund_no. Every
 * instance may run it: `settleRefund` stores one answer per attempt. Answers the ids now settled.
 */
export async function retryRefunds(deps: AppDeps, kind: RefundKind, graceMs = 60_000): Promise<number[]> {
  const due = await unsettledRefunds(deps.db, kind, new Date(deps.clock.now().getTime() - graceMs));
  const settled: number[] = [];
  for (const r of due) if ((await settleRefund(deps, r.id))?.state === 1) settled.push(r.id);
  return settled;
}

/** The retry as a module's timed job (a `ModuleJob`). */
export const refundRetryJob = (kind: RefundKind, name: string, everyMs: number) => ({ name, everyMs, run: (deps: AppDeps) => retryRefunds(deps, kind) });

/** The ledger rows of one order (its refunds, newest last), for an order's detail. */
export const refundsOf = (db: Db, kind: RefundKind, orderId: number) =>
  db.select().from(moneyRefunds).where(and(eq(moneyRefunds.kind, kind), eq(moneyRefunds.orderId, orderId))).orderBy(moneyRefunds.id);
