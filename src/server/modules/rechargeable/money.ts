import { and, eq, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { DEFAULT_SETTING, type RechargeSetting } from '../../../shared/api/wallet';
import { shanghaiDate, shanghaiMidnight } from '../../../shared/domain/time';
import type { AppDeps } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { SYSTEM_ACTOR, audit } from '../../lib/audit';
import { fail, isUniqueViolation, notFound } from '../../lib/errors';
import { recordRefund, settleRefund } from '../../lib/refund-ledger';
import { iso } from '../../lib/sql';
import { rechargePlans, rechargeSettings, walletLedger, walletOrders, wallets } from './schema';

/**
 * The wallet's money moves (second wave §9), shared by the console's services and the rider side
 * (pay notice, ride deduction, the jobs). Every move locks the wallet row, changes it with a guarded
 * update, appends its ledger row(s) with the after-values, in one transaction.
 */

export { SYSTEM_ACTOR };

/** Yuan as the refusals say it: 1000 → "10", 150 → "1.5". */
export const yuan = (fen: number) => String(fen / 100);

export const INSUFFICIENT = '余额不足，操作后余额不能为负';
export const FROZEN = '钱包已冻结，不能消费或退款';

export type Setting = Omit<RechargeSetting, 'updatedDate' | 'rowVersion'> & { updatedAt: Date | null; rowVersion: number };

/** The city-wide setting row, or the defaults of §9 until someone saves it. */
export async function settingOf(db: Db): Promise<Setting> {
  const [row] = await db.select().from(rechargeSettings).where(eq(rechargeSettings.id, 1));
  if (!row) return { ...DEFAULT_SETTING, updatedAt: null, rowVersion: 1 };
  return {
    minFen: row.minFen,
    maxFen: row.maxFen,
    balanceCapFen: row.balanceCapFen,
    dailyTimes: row.dailyTimes,
    dailyFen: row.dailyFen,
    consumeOrder: row.consumeOrder === 2 ? 2 : 1,
    giftRefundable: row.giftRefundable,
    adjustSingleMaxFen: row.adjustSingleMaxFen,
    unpaidTimeoutMinutes: row.unpaidTimeoutMinutes,
    updatedAt: row.updatedAt,
    rowVersion: row.rowVersion,
  };
}

export type WalletRow = typeof wallets.$inferSelect;

export async function lockWallet(tx: Db, walletId: number): Promise<WalletRow> {
  const [w] = await tx.select().from(wallets).where(eq(wallets.id, walletId)).for('update');
  if (!w) throw notFound('钱包不存在');
  return w;
}

/** The rider's wallet, made on first use (one per rider, the unique index decides a race). */
export async function walletOfRider(tx: Db, riderId: number, now: Date): Promise<WalletRow> {
  const [rider] = await tx.select({ id: t.riders.id, districtId: t.riders.districtId }).from(t.riders).where(eq(t.riders.id, riderId));
  if (!rider) throw notFound('乘客不存在');
  await tx.insert(wallets).values({ riderId, districtId: rider.districtId, createdAt: now, updatedAt: now }).onConflictDoNothing();
  const [w] = await tx.select().from(wallets).where(eq(wallets.riderId, riderId));
  return w!;
}

export interface LedgerEntry {
  type: 1 | 2 | 3 | 4 | 5 | 6;
  principalDelta: number;
  giftDelta: number;
  refKind: 'order' | 'ride' | 'adjust';
  refId: string | number;
  by?: number | null;
}

/**
 * Applies entries to a locked wallet: one guarded update (`where principal + Δ >= 0 …`, and the
 * table's check behind it) and one ledger row per entry, each with the balance after it. Refuses
 * with 余额不足 when the wallet would go negative; changes nothing then.
 */
export async function post(tx: Db, w: WalletRow, entries: readonly LedgerEntry[], now: Date): Promise<WalletRow> {
  const dp = entries.reduce((s, e) => s + e.principalDelta, 0);
  const dg = entries.reduce((s, e) => s + e.giftDelta, 0);
  if (w.principal + dp < 0 || w.gift + dg < 0) throw fail(INSUFFICIENT);
  const [after] = await tx
    .update(wallets)
    .set({ principal: sql`${wallets.principal} + ${dp}`, gift: sql`${wallets.gift} + ${dg}`, version: sql`${wallets.version} + ${entries.length}`, updatedAt: now })
    .where(and(eq(wallets.id, w.id), sql`${wallets.principal} + ${dp} >= 0`, sql`${wallets.gift} + ${dg} >= 0`))
    .returning();
  if (!after) throw fail(INSUFFICIENT);
  // The after-values chain from the balance the lock read: the rows replay the wallet exactly.
  let p = w.principal;
  let g = w.gift;
  await tx.insert(walletLedger).values(
    entries.map((e) => {
      p += e.principalDelta;
      g += e.giftDelta;
      return { walletId: w.id, districtId: w.districtId, type: e.type, principalDelta: e.principalDelta, giftDelta: e.giftDelta, principalAfter: p, giftAfter: g, refKind: e.refKind, refId: String(e.refId), createdAt: now, createdBy: e.by ?? null };
    }),
  );
  return after;
}

/** An order number: W, the Shanghai time to the second, 6 random digits. */
export function newOrderNo(now: Date): string {
  const s = new Date(now.getTime() + 8 * 3_600_000).toISOString().replace(/\D/g, '').slice(0, 14);
  return `W${s}${String(randomBytes(4).readUInt32BE() % 1_000_000).padStart(6, '0')}`;
}

/**
 * A rider's top-up order (the mini-program's 立即充值): a plan or an amount, within the setting's
 * bounds, the balance cap and the daily limits. Status 0 待支付 until the pay notice.
 */
export async function createOrder(deps: AppDeps, r: { riderId: number; planId?: number; amount?: number; orderNo?: string }) {
  const now = deps.clock.now();
  const s = await settingOf(deps.db);
  return deps.db.transaction(async (tx) => {
    const w = await walletOfRider(tx, r.riderId, now);
    const locked = await lockWallet(tx, w.id);
    if (locked.status === 2) throw fail('钱包已冻结，不能充值');
    if (locked.status === 0) throw fail('钱包已注销，不能充值');
    let amount = r.amount ?? 0;
    let gift = 0;
    let name = '自定义金额';
    if (r.planId !== undefined) {
      const [p] = await tx.select().from(rechargePlans).where(eq(rechargePlans.id, r.planId));
      if (!p || p.status !== 1) throw fail('该储值档位已停用');
      if ((p.saleStart && p.saleStart > now) || (p.saleEnd && p.saleEnd <= now)) throw fail('该储值档位不在售卖时间内');
      if (p.districtId !== null && p.districtId !== locked.districtId) throw fail('该储值档位不适用于您所在的区域');
      amount = p.amount;
      gift = p.giftAmount;
      name = p.name;
    }
    if (amount < s.minFen || amount > s.maxFen) throw fail(`充值金额应在${yuan(s.minFen)}–${yuan(s.maxFen)}元之间`);
    if (locked.principal + locked.gift + amount + gift > s.balanceCapFen) throw fail(`充值后余额将超过上限${yuan(s.balanceCapFen)}元`);
    const dayStart = shanghaiMidnight(shanghaiDate(now));
    const [today] = await tx
      .select({ n: sql<number>`count(*)::int`, fen: sql<number>`coalesce(sum(${walletOrders.payAmount}), 0)::int` })
      .from(walletOrders)
      .where(
        and(
          eq(walletOrders.walletId, w.id),
          sql`${walletOrders.createdAt} >= ${iso(dayStart)}`,
          sql`${walletOrders.status} in (0, 1, 2)`,
          // An order refunded the moment its money arrived (over the cap, a closed wallet) never topped
          // anything up: the rider got the money back, so it takes none of the day's allowance.
          sql`not (${walletOrders.status} = 2 and ${walletOrders.principalAfter} is null)`,
        ),
      );
    if ((today?.n ?? 0) >= s.dailyTimes) throw fail(`每日最多充值${s.dailyTimes}次`);
    if ((today?.fen ?? 0) + amount > s.dailyFen) throw fail(`每日充值金额不能超过${yuan(s.dailyFen)}元`);
    const [order] = await tx
      .insert(walletOrders)
      .values({ orderNo: r.orderNo ?? newOrderNo(now), districtId: locked.districtId, riderId: r.riderId, walletId: w.id, planId: r.planId ?? null, snapshot: { name, amount, giftAmount: gift }, payAmount: amount, giftAmount: gift, createdAt: now })
      .returning();
    return order!;
  });
}

/**
 * A notice whose money may not enter the wallet: one closed (注销) since the order was made (a late
 * one, after the timeout closed the order), whose check forbids a balance, or one the balance cap
 * (储值设置) would be exceeded by, as two orders made under the cap can be when both are paid. The
 * money goes back in full, at once: the order is paid and refunded in one move with its refund row
 * and audit row; no ledger row and no gift, as nothing entered the wallet (`principal_after` stays
 * null: the reconcile's paid − refunded nets it out, and its gift and refund proofs leave it out).
 */
async function refundAtArrival(tx: Db, o: typeof walletOrders.$inferSelect, now: Date, why: { reason: string; key: string }): Promise<number> {
  await tx
    .update(walletOrders)
    .set({ status: 2, payStatus: 2, paidAt: now, refundAmount: o.payAmount, refundedAt: now })
    .where(and(eq(walletOrders.id, o.id), sql`${walletOrders.status} in (0, 3)`));
  const refund = await recordRefund(tx, { kind: 'wallet', orderId: o.id, districtId: o.districtId, orderNo: o.orderNo, amount: o.payAmount, reason: `${why.reason}，到账金额全额退回`, idempotencyKey: `${why.key}-${o.orderNo}`, operatorId: null, now });
  await audit(tx, SYSTEM_ACTOR, { type: 'WALLET_ORDER_PAY', targetDistrictId: o.districtId, target: `wallet-order/${o.id}`, summary: `储值订单 ${o.orderNo} 到账时${why.reason}，${yuan(o.payAmount)} 元全额退回`, before: { status: o.status }, after: { status: 2, refund: refund.id } }, now);
  return refund.id;
}

/**
 * The pay notice (支付回调): credits principal and gift with their ledger rows (types 1 and 2) and
 * moves the order to 1 已到账, once. A notice delivered again finds the order credited and answers
 * `credited: false`; two at once queue on the order's row, and the ledger's unique (ref, type) is
 * the last word. A notice for an order the timeout job closed still credits: the money arrived.
 * A notice for a closed wallet, or one that would take the wallet over the balance cap, is refunded
 * in full at once (`refundAtArrival`), never credited.
 */
export async function payNotify(deps: AppDeps, orderNo: string): Promise<{ credited: boolean; orderId: number; refundId?: number }> {
  const now = deps.clock.now();
  try {
    const done = await deps.db.transaction(async (tx) => {
      const [o] = await tx.select().from(walletOrders).where(eq(walletOrders.orderNo, orderNo)).for('update');
      if (!o) throw notFound('订单不存在');
      if (o.status === 1 || o.status === 2) return { credited: false, orderId: o.id };
      const w = await lockWallet(tx, o.walletId);
      if (w.status === 0) return { credited: false, orderId: o.id, refundId: await refundAtArrival(tx, o, now, { reason: '钱包已注销', key: 'closed-wallet' }) as number | undefined };
      // The cap as it stands when the money arrives, against the balance under the wallet's lock.
      const cap = (await settingOf(tx)).balanceCapFen;
      if (w.principal + w.gift + o.payAmount + o.giftAmount > cap) return { credited: false, orderId: o.id, refundId: await refundAtArrival(tx, o, now, { reason: `余额将超过上限${yuan(cap)}元`, key: 'over-cap' }) };
      const entries: LedgerEntry[] = [{ type: 1, principalDelta: o.payAmount, giftDelta: 0, refKind: 'order', refId: o.id }];
      if (o.giftAmount > 0) entries.push({ type: 2, principalDelta: 0, giftDelta: o.giftAmount, refKind: 'order', refId: o.id });
      const after = await post(tx, w, entries, now);
      await tx
        .update(walletOrders)
        .set({ status: 1, payStatus: 1, paidAt: now, principalAfter: after.principal })
        .where(and(eq(walletOrders.id, o.id), sql`${walletOrders.status} in (0, 3)`));
      await audit(tx, SYSTEM_ACTOR, { type: 'WALLET_ORDER_PAY', targetDistrictId: o.districtId, target: `wallet-order/${o.id}`, summary: `储值订单 ${o.orderNo} 到账：本金 ${yuan(o.payAmount)} 元，赠送 ${yuan(o.giftAmount)} 元`, before: { status: o.status }, after: { status: 1, principal: after.principal, gift: after.gift } }, now);
      return { credited: true, orderId: o.id };
    });
    if (done.refundId !== undefined && deps.payments) await settleRefund(deps, done.refundId);
    return done;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const [o] = await deps.db.select({ id: walletOrders.id }).from(walletOrders).where(eq(walletOrders.orderNo, orderNo));
    return { credited: false, orderId: o!.id };
  }
}

/**
 * A ride paid from the wallet (乘车扣费): `fen` taken from principal and gift in the setting's order
 * (先本金 / 先赠送), one type-3 ledger row keyed by the ride. The same ride again is answered as the
 * first time (`charged: false`). Frozen or closed wallets refuse.
 */
export async function consume(deps: AppDeps, walletId: number, fen: number, rideRef: string, s?: Setting): Promise<{ charged: boolean; principal: number; gift: number }> {
  if (!Number.isInteger(fen) || fen <= 0) throw fail('扣费金额应为正整数（分）');
  const now = deps.clock.now();
  const setting = s ?? (await settingOf(deps.db));
  try {
    return await deps.db.transaction(async (tx) => {
      const w = await lockWallet(tx, walletId);
      if (w.status === 2) throw fail(FROZEN);
      if (w.status === 0) throw fail('钱包已注销，不能消费');
      const [done] = await tx.select({ id: walletLedger.id }).from(walletLedger).where(and(eq(walletLedger.refKind, 'ride'), eq(walletLedger.refId, rideRef), eq(walletLedger.type, 3)));
      if (done) return { charged: false, principal: w.principal, gift: w.gift };
      if (w.principal + w.gift < fen) throw fail(INSUFFICIENT);
      const first = setting.consumeOrder === 2 ? Math.min(fen, w.gift) : Math.min(fen, w.principal);
      const [fromP, fromG] = setting.consumeOrder === 2 ? [fen - first, first] : [first, fen - first];
      const after = await post(tx, w, [{ type: 3, principalDelta: -fromP, giftDelta: -fromG, refKind: 'ride', refId: rideRef }], now);
      return { charged: true, principal: after.principal, gift: after.gift };
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const [w] = await deps.db.select().from(wallets).where(eq(wallets.id, walletId));
    return { charged: false, principal: w!.principal, gift: w!.gift };
  }
}

/**
 * The job wallet.payTimeout: orders unpaid past the setting's minutes close (0 → 3), a batch at a
 * time; `for update skip locked` hands each to one instance, and `where status = 0` leaves alone an
 * order a pay notice took meanwhile. One audit row per order, in its batch's transaction.
 */
export async function closeUnpaidOrders(deps: AppDeps): Promise<number[]> {
  const s = await settingOf(deps.db);
  const closed: number[] = [];
  for (;;) {
    const now = deps.clock.now();
    const before = new Date(now.getTime() - s.unpaidTimeoutMinutes * 60_000);
    const batch = await deps.db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: walletOrders.id, orderNo: walletOrders.orderNo, districtId: walletOrders.districtId })
        .from(walletOrders)
        .where(and(eq(walletOrders.status, 0), sql`${walletOrders.createdAt} < ${iso(before)}`))
        .orderBy(walletOrders.id)
        .limit(200)
        .for('update', { skipLocked: true });
      for (const o of rows) {
        await tx.update(walletOrders).set({ status: 3, closedAt: now }).where(and(eq(walletOrders.id, o.id), eq(walletOrders.status, 0)));
        await audit(tx, SYSTEM_ACTOR, { type: 'WALLET_ORDER_CLOSE', targetDistrictId: o.districtId, target: `wallet-order/${o.id}`, summary: `储值订单 ${o.orderNo} 超过${s.unpaidTimeoutMinutes}分钟未支付，自动关闭`, before: { status: 0 }, after: { status: 3 } }, now);
      }
      return rows.map((r) => r.id);
    });
    closed.push(...batch);
    if (batch.length < 200) return closed;
  }
}

/**
 * For the card view (卡片详情, integrated by the lead): the stored-value wallet of the card's holder,
 * or null when the card has no rider or the rider no wallet. Not scoped: the caller has checked the
 * card is in the operator's area.
 */
export async function walletOfCard(deps: Pick<AppDeps, 'db'>, cardId: number): Promise<{ walletId: number; principal: number; gift: number; status: 0 | 1 | 2 } | null> {
  const [row] = await deps.db
    .select({ walletId: wallets.id, principal: wallets.principal, gift: wallets.gift, status: wallets.status })
    .from(t.busCards)
    .innerJoin(wallets, eq(wallets.riderId, t.busCards.riderId))
    .where(eq(t.busCards.id, cardId));
  return row ? { ...row, status: row.status as 0 | 1 | 2 } : null;
}

/**
 * For the card view: a wallet's orders a refund may still take (已到账), newest first, in the given
 * district when the caller works in one (a rider's orders follow the district they topped up in).
 */
export async function refundableOrdersOfWallet(deps: Pick<AppDeps, 'db'>, walletId: number, districtId: number | null, limit = 5) {
  const rows = await deps.db
    .select({ id: walletOrders.id, orderNo: walletOrders.orderNo, payAmount: walletOrders.payAmount, giftAmount: walletOrders.giftAmount, paidAt: walletOrders.paidAt })
    .from(walletOrders)
    .where(and(eq(walletOrders.walletId, walletId), eq(walletOrders.status, 1), districtId === null ? undefined : eq(walletOrders.districtId, districtId)))
    .orderBy(sql`${walletOrders.createdAt} desc`, sql`${walletOrders.id} desc`)
    .limit(limit);
  return rows.map((r) => ({ id: r.id, orderNo: r.orderNo, payAmount: r.payAmount, giftAmount: r.giftAmount, paidDate: r.paidAt ? iso(r.paidAt) : null }));
}
