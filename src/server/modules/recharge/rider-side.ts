import { randomInt } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { CARD_BALANCE_CAP_FEN, RECHARGE_MAX_FEN, RECHARGE_MIN_FEN, RETRY_WINDOW_MS } from '../../../shared/api/recharge';
import { shanghaiDate, shanghaiDateTime } from '../../../shared/domain/time';
import type { AppDeps } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { audit } from '../../lib/audit';
import { fail, notFound } from '../../lib/errors';
import { nextVersion } from '../../lib/row-version';
import { cardCentreLoads, rechargeAttempts, rechargeOrders as o } from './schema';
import { SYSTEM_ACTOR } from './service';
import { loadOfWithin } from './card-ledger';

/**
 * The rider's side of a top-up (second-wave §1: not console endpoints): order, pay, tap the card,
 * the card's answer. Called by the mini-program's server in production, here by the seed, the jobs'
 * tests and the race tests. Each is one guarded statement, so a retry or a race changes nothing twice.
 */
type Deps = Pick<AppDeps, 'db' | 'clock'>;

const stamp = (at: Date) => shanghaiDateTime(at).replace(/\D/g, '');

export const newOrderNo = (at: Date) => `NFC${stamp(at)}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
/** The card's inner (chip) number as the centre knows it: derived from the card here. */
export const innerNoOf = (cardId: number) => (0x31000000 + cardId).toString(16).toUpperCase().padStart(8, '0');

const attempt = (tx: Db, orderId: number, at: Date, step: string, result: 0 | 1, detail: string | null = null) => tx.insert(rechargeAttempts).values({ orderId, at, step, result, detail });

/** 下单: an unpaid order for a card in use, 10–999 元. */
export async function createOrder(deps: Deps, v: { cardNo: string; amount: number; payChannel?: number; deviceModel?: string }) {
  if (!Number.isInteger(v.amount) || v.amount < RECHARGE_MIN_FEN || v.amount > RECHARGE_MAX_FEN) throw fail('单笔充值金额应为10–999元');
  const [card] = await deps.db.select().from(t.busCards).where(eq(t.busCards.cardNo, v.cardNo));
  if (!card) throw notFound('卡片不存在');
  if (card.state !== 1) throw fail('卡片不是正常使用状态，不能充值');
  const now = deps.clock.now();
  const [row] = await deps.db
    .insert(o)
    .values({
      orderNo: newOrderNo(now),
      districtId: card.districtId,
      riderId: card.riderId,
      cardId: card.id,
      cardNo: card.cardNo,
      cardInnerNo: innerNoOf(card.id),
      cardCategory: card.category,
      amount: v.amount,
      payAmount: v.amount,
      payChannel: v.payChannel ?? 1,
      deviceModel: v.deviceModel ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

/** 支付回调: 未支付 → 已支付, once (a repeated notification changes nothing). */
export async function pay(deps: Deps, id: number): Promise<boolean> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [moved] = await tx.update(o).set({ payStatus: 1, paidAt: now, updatedAt: now, rowVersion: nextVersion(o.rowVersion) }).where(and(eq(o.id, id), eq(o.payStatus, 0), eq(o.writeState, 0))).returning({ id: o.id });
    if (moved) await attempt(tx, id, now, 'pay', 1);
    return !!moved;
  });
}

/**
 * 写卡开始 (the rider taps the card): 待写卡 or 写卡失败 (within 7 days of paying) → 写卡中, under the
 * same guard as the refund (`where write_state in (0, 3) and pay_status = 1`): of a refund and a
 * write-start exactly one moves the order. Refuses a load that would take the card over 1,000 元.
 */
export async function startWrite(deps: Deps, id: number, opts: { deviceModel?: string } = {}): Promise<boolean> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.select({ cardId: o.cardId, amount: o.amount, writeState: o.writeState, cardNo: o.cardNo, orderNo: o.orderNo, txnSeq: o.txnSeq }).from(o).where(eq(o.id, id)).for('update');
    if (!row) throw notFound('充值订单不存在');
    // A retry after 写卡失败 first asks the centre: a failure marked by a person (核实未到账 before the
    // centre synced) or a lost answer may hide a load the card did take, and a second write would
    // load the card twice for one payment. Asked under the order's row lock (as the refund asks), so
    // a load recorded meanwhile is seen; through this transaction, as PGlite has one connection.
    if (row.writeState === 3 && (await loadOfWithin(tx, { cardNo: row.cardNo, orderNo: row.orderNo, txnSeq: row.txnSeq }))) {
      throw fail('卡中心已有此笔圈存记录，金额已到卡，不能重复写卡');
    }
    const [card] = await tx.select({ balance: t.busCards.balance }).from(t.busCards).where(eq(t.busCards.id, row.cardId));
    const balance = card?.balance ?? 0;
    if (balance + row.amount > CARD_BALANCE_CAP_FEN) throw fail('充值后卡内余额将超过1000元，不能充值');
    const [moved] = await tx
      .update(o)
      .set({ writeState: 1, writeStartedAt: now, befBal: balance, failReason: null, ...(opts.deviceModel ? { deviceModel: opts.deviceModel } : {}), updatedAt: now, rowVersion: nextVersion(o.rowVersion) })
      .where(and(eq(o.id, id), inArray(o.writeState, [0, 3]), eq(o.payStatus, 1), sql`${o.paidAt} > ${new Date(now.getTime() - RETRY_WINDOW_MS)}`))
      .returning({ id: o.id });
    await attempt(tx, id, now, 'start', moved ? 1 : 0, moved ? null : '订单状态已变化，不能写卡');
    return !!moved;
  });
}

/**
 * The card took the load: the card centre's record of it (our card ledger) and the card's new
 * balance, once per order. What the centre knows whether or not the phone's confirmation reaches
 * us; a test or the seed calls it alone to make the 可疑 case (loaded, unconfirmed).
 */
export async function cardLoaded(deps: Deps, id: number, v: { txnSeq: string; tac: string }, tx?: Db) {
  const run = async (db: Db) => {
    // The order's row lock orders the load against a refund or a retry asking the centre about it.
    const [row] = await db.select().from(o).where(eq(o.id, id)).for('update');
    if (!row) throw notFound('充值订单不存在');
    const now = deps.clock.now();
    const [card] = await db.select({ balance: t.busCards.balance }).from(t.busCards).where(eq(t.busCards.id, row.cardId)).for('update');
    const befBal = card?.balance ?? 0;
    const [made] = await db
      .insert(cardCentreLoads)
      .values({ centreTxnNo: `KZX${stamp(now)}${String(row.id).padStart(8, '0')}`, cardNo: row.cardNo, orderNo: row.orderNo, txnSeq: v.txnSeq, tac: v.tac, amount: row.amount, befBal, aftBal: befBal + row.amount, loadedAt: now, settleDay: shanghaiDate(now) })
      .onConflictDoNothing()
      .returning();
    if (made) await db.update(t.busCards).set({ balance: made.aftBal, updatedAt: now }).where(eq(t.busCards.id, row.cardId));
    return made ?? (await db.select().from(cardCentreLoads).where(eq(cardCentreLoads.orderNo, row.orderNo)))[0]!;
  };
  return tx ? run(tx) : deps.db.transaction(run);
}

/**
 * 写卡成功 (the card returned its TAC): the load is recorded at the centre first, whatever the order's
 * state, because a TAC proves the card took the money. 写卡中, 可疑 and 写卡失败 (a failure marked
 * before the centre synced, or a lost answer) → 写卡成功: a late confirmation beats the suspect job and
 * a person's 核实未到账. On a closed order (refunded, or closed unpaid) the order stays closed and the
 * load shows in 圈存日对账 as 圈存未付, with a system audit row, for a person to recover. Nothing ever
 * leaves 2, so 4 never follows 2. Answers the order's state after.
 */
export async function confirmWrite(deps: Deps, id: number, v: { txnSeq: string; tac: string }): Promise<number> {
  if (!/^[0-9A-F]{8}$/i.test(v.tac)) throw fail('TAC应为8位十六进制');
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [before] = await tx.select().from(o).where(eq(o.id, id)).for('update');
    if (!before) throw notFound('充值订单不存在');
    if (before.writeState === 2) return 2;
    const load = await cardLoaded(deps, id, v, tx);
    if (before.writeState === 0 || before.writeState === 5) {
      await attempt(tx, id, now, 'confirm', 0, `TAC ${load.tac}：订单已${before.writeState === 5 ? '关闭' : '未开始写卡'}，记为圈存异常`);
      await audit(tx, SYSTEM_ACTOR, { type: 'RECHARGE_LATE_LOAD', targetDistrictId: before.districtId, target: `recharge/${id}`, summary: `充值订单 ${before.orderNo} 在${before.writeState === 5 ? '关闭后' : '写卡前'}收到写卡确认（TAC ${load.tac}），金额已到卡，待圈存日对账处理`, before: { writeState: before.writeState }, after: { writeState: before.writeState, centreTxnNo: load.centreTxnNo } }, now);
      return before.writeState;
    }
    await tx
      .update(o)
      .set({ writeState: 2, txnSeq: load.txnSeq, tac: load.tac, befBal: load.befBal, aftBal: load.aftBal, writtenAt: now, centreTxnNo: load.centreTxnNo, updatedAt: now, rowVersion: nextVersion(o.rowVersion) })
      .where(and(eq(o.id, id), inArray(o.writeState, [1, 3, 4])));
    await attempt(tx, id, now, 'confirm', 1, `TAC ${load.tac}`);
    if (before.writeState !== 1) {
      const was = before.writeState === 4 ? '可疑' : '写卡失败';
      await audit(tx, SYSTEM_ACTOR, { type: 'RECHARGE_AUTO_RESOLVE', targetDistrictId: before.districtId, target: `recharge/${id}`, summary: `充值订单 ${before.orderNo} 收到迟到的写卡确认（TAC ${load.tac}），${was} → 写卡成功`, before: { writeState: before.writeState }, after: { writeState: 2 } }, now);
    }
    return 2;
  });
}

/** 写卡失败 (the card refused, nothing debited): 写卡中 → 写卡失败; the rider may retry or ask a refund. */
export async function failWrite(deps: Deps, id: number, reason: string): Promise<boolean> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [moved] = await tx.update(o).set({ writeState: 3, failReason: reason, updatedAt: now, rowVersion: nextVersion(o.rowVersion) }).where(and(eq(o.id, id), eq(o.writeState, 1))).returning({ id: o.id });
    await attempt(tx, id, now, 'fail', 0, reason);
    return !!moved;
  });
}
