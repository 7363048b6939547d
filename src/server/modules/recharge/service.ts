import { and, count, desc, eq, gte, inArray, lte, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import * as api from '../../../shared/api/recharge';
import { PAY_CHANNELS, RECHARGE_PAY_STATUS, RECHARGE_STATUS, REFUSAL, RESOLVE_NOT_LOADED_AFTER_MS, WRITE_STATE, type WriteState } from '../../../shared/api/recharge';
import { fenToYuan } from '../../../shared/domain/money';
import { maskInText, maskPhone } from '../../../shared/domain/mask';
import { shanghaiDateTime } from '../../../shared/domain/time';
import { defineExport, listRows, yuanCell } from '../../lib/export-definition';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { SYSTEM_ACTOR, audit } from '../../lib/audit';
import type { CardCentreLoad } from '../../lib/card-centre';
import { AppError, fail, isUniqueViolation, notFound } from '../../lib/errors';
import { listService } from '../../lib/list';
import { type MoneyRefund, recordRefund, refundByKey, refundsOf, settleRefund } from '../../lib/refund-ledger';
import { nextVersion } from '../../lib/row-version';
import { assertInScope } from '../../lib/scope';
import { iso } from '../../lib/sql';
import { cardCentreOf, loadOfWithin } from './card-ledger';
import { rechargeAttempts, rechargeOrders as o, rechargeReconcileItems } from './schema';

type PageQuery = z.output<typeof api.rechargePage.query>;
type Filters = z.output<typeof api.rechargeTotal.query>;
type ResolveBody = z.output<typeof api.rechargeResolve.body>;
type RefundBody = z.output<typeof api.rechargeRefund.body>;

export { SYSTEM_ACTOR };

const resolver = alias(t.users, 'recharge_resolver');

const columns = { o, districtName: t.districts.name, phoneEnc: t.riders.phoneEnc, resolvedByName: resolver.firstName };
type Row = { o: typeof o.$inferSelect; districtName: string | null; phoneEnc: string | null; resolvedByName: string | null };

const select = (db: Db) =>
  db
    .select(columns)
    .from(o)
    .leftJoin(t.districts, eq(t.districts.id, o.districtId))
    .leftJoin(t.riders, eq(t.riders.id, o.riderId))
    .leftJoin(resolver, eq(resolver.id, o.resolvedBy));

const ws = (n: number) => n as WriteState;

/** An order as every list, export and answer shows it: the rider's phone decrypted only to be masked. */
const dto = (deps: Pick<AppDeps, 'pii'>, r: Row): api.RechargeOrder => ({
  id: r.o.id,
  orderNo: r.o.orderNo,
  districtId: r.o.districtId,
  districtName: r.districtName,
  riderPhone: r.phoneEnc ? maskPhone(deps.pii.decrypt(r.phoneEnc)) : null,
  cardNo: r.o.cardNo,
  cardInnerNo: r.o.cardInnerNo,
  cardCategory: r.o.cardCategory,
  amount: r.o.amount,
  payAmount: r.o.payAmount,
  payChannel: r.o.payChannel,
  payStatus: r.o.payStatus as 0 | 1 | 2,
  rechargeStatus: r.o.writeState === 2 ? 1 : 0,
  writeState: ws(r.o.writeState),
  befBal: r.o.befBal,
  aftBal: r.o.aftBal,
  deviceModel: r.o.deviceModel,
  txnSeq: r.o.txnSeq,
  tac: r.o.tac,
  failReason: r.o.failReason,
  createdDate: iso(r.o.createdAt),
  paidDate: r.o.paidAt ? iso(r.o.paidAt) : null,
  writeStartedDate: r.o.writeStartedAt ? iso(r.o.writeStartedAt) : null,
  writtenDate: r.o.writtenAt ? iso(r.o.writtenAt) : null,
  refundedDate: r.o.refundedAt ? iso(r.o.refundedAt) : null,
  resolvedById: r.o.resolvedBy,
  resolvedByName: r.resolvedByName,
  resolvedDate: r.o.resolvedAt ? iso(r.o.resolvedAt) : null,
  centreTxnNo: r.o.centreTxnNo,
  resolutionNote: r.o.resolutionNote,
});

/** NFC充值记录: the area's top-ups by order, card, phone (blind index), states and time; newest first. */
export const rechargeList = listService({
  endpoint: api.rechargePage,
  select,
  count: (db) => db.select({ n: count() }).from(o),
  scope: o.districtId,
  filters: {
    orderNo: (orderNo) => eq(o.orderNo, orderNo),
    cardNo: (cardNo) => eq(o.cardNo, cardNo),
    // Exact phone only, through the riders' blind index: no phone is ever compared in clear.
    phone: (phone, _q, _a, deps) => sql`${o.riderId} in (select id from riders where phone_idx = ${deps.pii.index('phone', phone)})`,
    payStatus: (payStatus) => eq(o.payStatus, payStatus),
    rechargeStatus: (r) => (r === 1 ? eq(o.writeState, 2) : ne(o.writeState, 2)),
    writeState: (w) => eq(o.writeState, w),
    startTime: (from) => gte(o.createdAt, new Date(from)),
    endTime: (to) => lte(o.createdAt, new Date(to)),
  },
  sorts: { createdDate: o.createdAt, amount: o.amount },
  order: { column: o.createdAt, dir: 'desc' },
  key: { column: o.id, of: (r) => r.o.id },
  dto: (r, { deps }) => dto(deps, r),
});

export const pageOrders = (deps: AppDeps, a: AuthContext, q: PageQuery) => rechargeList.page(deps, a, q);

const num = (v: unknown) => Number(v ?? 0);

/** The summary line: count and amount per 圈存状态 and per payment, and the 可疑 orders by age. */
export async function totals(deps: AppDeps, a: AuthContext, q: Filters) {
  const cond = rechargeList.where(deps, a, { ...q, writeState: undefined, payStatus: undefined, rechargeStatus: undefined });
  const rows = await deps.db
    .select({ writeState: o.writeState, payStatus: o.payStatus, n: sql<number>`count(*)::int`, amount: sql<number>`coalesce(sum(${o.amount}), 0)::bigint` })
    .from(o)
    .where(cond)
    .groupBy(o.writeState, o.payStatus);
  const sum = (pick: (r: (typeof rows)[number]) => boolean) => rows.filter(pick).reduce((acc, r) => ({ count: acc.count + num(r.n), amount: acc.amount + num(r.amount) }), { count: 0, amount: 0 });
  const byWriteState = Object.fromEntries(WRITE_STATE.codes.map((c) => [String(c), sum((r) => r.writeState === c)]));
  const now = deps.clock.now().getTime();
  const [age] = await deps.db
    .select({
      underHour: sql<number>`count(*) filter (where ${o.writeStartedAt} > ${new Date(now - 3_600_000)})::int`,
      underDay: sql<number>`count(*) filter (where ${o.writeStartedAt} <= ${new Date(now - 3_600_000)} and ${o.writeStartedAt} > ${new Date(now - 86_400_000)})::int`,
      overDay: sql<number>`count(*) filter (where ${o.writeStartedAt} <= ${new Date(now - 86_400_000)})::int`,
      oldest: sql<Date | null>`min(${o.writeStartedAt})`,
    })
    .from(o)
    .where(and(cond, eq(o.writeState, 4)));
  const [open] = await deps.db
    .select({ n: count() })
    .from(rechargeReconcileItems)
    .where(and(eq(rechargeReconcileItems.status, 0), a.districtScope === null ? undefined : eq(rechargeReconcileItems.districtId, a.districtScope)));
  const oldest = age?.oldest ? new Date(age.oldest as unknown as string) : null;
  return {
    total: sum(() => true),
    byWriteState,
    paid: sum((r) => r.payStatus === 1),
    refunded: sum((r) => r.payStatus === 2),
    unpaid: sum((r) => r.payStatus === 0),
    suspectByAge: { underHour: num(age?.underHour), underDay: num(age?.underDay), overDay: num(age?.overDay), oldest: oldest ? iso(oldest) : null },
    reconcileOpen: open?.n ?? 0,
  };
}

async function loadRow(db: Db, id: number): Promise<Row> {
  const [r] = await select(db).where(eq(o.id, id));
  if (!r) throw notFound('充值订单不存在');
  return r;
}

const centreDto = (l: CardCentreLoad) => ({ ...l, loadedAt: iso(l.loadedAt) });

const refundDto = (r: MoneyRefund, operatorName: string | null = null) => ({
  id: r.id,
  amount: r.amount,
  reason: r.reason,
  state: r.state,
  failReason: r.failReason,
  operatorName,
  createdDate: iso(r.createdAt),
  settledDate: r.settledAt ? iso(r.settledAt) : null,
});

async function refundsWithNames(db: Db, orderId: number) {
  const rows = await refundsOf(db, 'nfc', orderId);
  const names = rows.length ? await db.select({ id: t.users.id, name: t.users.firstName }).from(t.users).where(inArray(t.users.id, rows.map((r) => r.operatorId ?? 0))) : [];
  return rows.map((r) => refundDto(r, names.find((n) => n.id === r.operatorId)?.name ?? null));
}

/** 详情 (the drawer): the order, its attempts, what the card centre recorded, its refunds. */
export async function orderMsg(deps: AppDeps, a: AuthContext, id: number) {
  const r = await loadRow(deps.db, id);
  assertInScope(a, r.o.districtId);
  const attempts = await deps.db.select().from(rechargeAttempts).where(eq(rechargeAttempts.orderId, id)).orderBy(rechargeAttempts.id);
  const centre = await cardCentreOf(deps.db).loadOf({ cardNo: r.o.cardNo, orderNo: r.o.orderNo, txnSeq: r.o.txnSeq });
  return {
    ...dto(deps, r),
    attempts: attempts.map((x) => ({ at: iso(x.at), step: x.step, result: x.result as 0 | 1, detail: x.detail })),
    centre: centre ? centreDto(centre) : null,
    refunds: await refundsWithNames(deps.db, id),
    notLoadedFrom: r.o.writeState === 4 && r.o.writeStartedAt ? iso(new Date(r.o.writeStartedAt.getTime() + RESOLVE_NOT_LOADED_AFTER_MS)) : null,
  };
}

const attempt = (tx: Db, orderId: number, at: Date, step: string, result: 0 | 1, detail: string | null = null) => tx.insert(rechargeAttempts).values({ orderId, at, step, result, detail });

/** What settles an order as loaded: the centre's record, copied onto it. */
const loadedSet = (l: CardCentreLoad, now: Date) => ({ writeState: 2, txnSeq: l.txnSeq, tac: l.tac, befBal: l.befBal, aftBal: l.aftBal, writtenAt: l.loadedAt, centreTxnNo: l.centreTxnNo, updatedAt: now, rowVersion: nextVersion(o.rowVersion) });

/**
 * Settles an order still 写卡中 or 可疑 as 写卡成功 from the centre's record, in the caller's
 * transaction: `where write_state in (1, 4)`, so of two instances (or the job and a person) one
 * moves it and the other finds it moved. Answers whether this call moved it.
 */
async function settleLoaded(tx: Db, id: number, l: CardCentreLoad, now: Date, extra: { resolvedBy?: number | null; note?: string } = {}): Promise<{ from: number } | null> {
  const [before] = await tx.select({ writeState: o.writeState }).from(o).where(eq(o.id, id)).for('update');
  if (!before || (before.writeState !== 1 && before.writeState !== 4)) return null;
  const [moved] = await tx
    .update(o)
    .set({ ...loadedSet(l, now), ...(before.writeState === 4 ? { resolvedBy: extra.resolvedBy ?? null, resolvedAt: now, resolutionNote: extra.note ?? null } : {}) })
    .where(and(eq(o.id, id), inArray(o.writeState, [1, 4])))
    .returning({ id: o.id });
  return moved ? { from: before.writeState } : null;
}

/**
 * 补查: asks the card centre about the order's load. An order still 写卡中 or 可疑 whose load the
 * centre shows is settled as 写卡成功 (one audit row, whichever instance got there first); otherwise
 * nothing changes and the answer says what the centre said.
 */
export async function requery(deps: AppDeps, a: AuthContext, id: number) {
  const r = await loadRow(deps.db, id);
  assertInScope(a, r.o.districtId);
  const centre = await cardCentreOf(deps.db).loadOf({ cardNo: r.o.cardNo, orderNo: r.o.orderNo, txnSeq: r.o.txnSeq });
  const now = deps.clock.now();
  let resolved = false;
  if (centre && (r.o.writeState === 1 || r.o.writeState === 4)) {
    resolved = await deps.db.transaction(async (tx) => {
      const moved = await settleLoaded(tx, id, centre, now, { resolvedBy: a.user.id, note: '补查：卡中心有此笔圈存记录' });
      if (!moved) return false;
      await attempt(tx, id, now, 'requery', 1, `卡中心流水 ${centre.centreTxnNo}，TAC ${centre.tac}`);
      await audit(
        tx,
        a.actor,
        { type: 'RECHARGE_REQUERY', targetDistrictId: r.o.districtId, target: `recharge/${id}`, summary: `补查充值订单 ${r.o.orderNo}：卡中心有圈存记录（流水 ${centre.centreTxnNo}），${WRITE_STATE.label(ws(moved.from))} → 写卡成功`, before: { writeState: moved.from }, after: { writeState: 2, centreTxnNo: centre.centreTxnNo, txnSeq: centre.txnSeq } },
        now,
      );
      return true;
    });
  }
  const order = dto(deps, await loadRow(deps.db, id));
  const message = resolved
    ? '卡中心有此笔圈存记录，订单已确认为写卡成功'
    : centre
      ? order.writeState === 2
        ? '卡中心有此笔圈存记录，订单已是写卡成功'
        : `卡中心有此笔圈存记录（订单为${WRITE_STATE.label(order.writeState)}）`
      : '卡中心暂无此笔圈存记录';
  return { order, centre: centre ? centreDto(centre) : null, resolved, message };
}

/**
 * 核实 a 可疑 order, against the card centre's record only: 已到账 (4 → 2) needs the centre's load;
 * 未到账 (4 → 3) needs the centre to show none, and 10 minutes since the write began (a real centre
 * syncs late). The one who marks it 未到账 is remembered: the refund is another person's.
 */
export async function resolve(deps: AppDeps, a: AuthContext, given: ResolveBody) {
  // A note may quote a caller's phone or id: stored and answered masked, as every list shows it.
  const body = { ...given, note: maskInText(given.note) };
  const r = await loadRow(deps.db, body.id);
  assertInScope(a, r.o.districtId);
  const what = `充值订单 ${r.o.orderNo}`;
  if (r.o.writeState !== 4) throw fail(`${what}已被他人处理，请刷新后查看`);
  const now = deps.clock.now();
  const centre = await cardCentreOf(deps.db).loadOf({ cardNo: r.o.cardNo, orderNo: r.o.orderNo, txnSeq: r.o.txnSeq });
  if (body.toState === 2) {
    if (!centre) throw fail(REFUSAL.noCentreRecord);
    if (body.centreTxnNo && body.centreTxnNo !== centre.centreTxnNo) throw fail(`卡中心流水号与卡中心记录（${centre.centreTxnNo}）不符`);
  } else {
    if (centre) throw fail(REFUSAL.centreHasLoad);
    const started = r.o.writeStartedAt?.getTime() ?? 0;
    if (now.getTime() - started < RESOLVE_NOT_LOADED_AFTER_MS) throw fail(REFUSAL.tooEarly);
  }
  return deps.db.transaction(async (tx) => {
    if (body.toState === 2) {
      const moved = await settleLoaded(tx, r.o.id, centre!, now, { resolvedBy: a.user.id, note: body.note });
      if (!moved || moved.from !== 4) throw fail(`${what}已被他人处理，请刷新后查看`);
    } else {
      const [moved] = await tx
        .update(o)
        .set({ writeState: 3, failReason: '核实未到账：卡中心无圈存记录', resolvedBy: a.user.id, resolvedAt: now, resolutionNote: body.note, updatedAt: now, rowVersion: nextVersion(o.rowVersion) })
        .where(and(eq(o.id, r.o.id), eq(o.writeState, 4)))
        .returning({ id: o.id });
      if (!moved) throw fail(`${what}已被他人处理，请刷新后查看`);
    }
    const label = body.toState === 2 ? '已到账' : '未到账';
    await attempt(tx, r.o.id, now, 'resolve', body.toState === 2 ? 1 : 0, `核实${label}：${body.note}`);
    const after = dto(deps, await loadRow(tx, r.o.id));
    await audit(
      tx,
      a.actor,
      { type: 'RECHARGE_RESOLVE', targetDistrictId: r.o.districtId, target: `recharge/${r.o.id}`, summary: `核实${what}${label}${centre ? `（卡中心流水 ${centre.centreTxnNo}）` : '（卡中心无记录）'}：${body.note}`, before: { writeState: 4 }, after: { writeState: body.toState, centreTxnNo: centre?.centreTxnNo ?? null } },
      now,
    );
    return after;
  });
}

/** Why a refund of this order is refused now, or null when it may go: §3's refusals, in this order. */
function refundRefusal(row: typeof o.$inferSelect, operatorId: number): string | null {
  if (row.payStatus === 2) return REFUSAL.refunded;
  if (row.payStatus === 0) return REFUSAL.unpaid;
  if (row.writeState === 4) return REFUSAL.suspect;
  if (row.writeState === 2) return REFUSAL.written;
  if (row.writeState === 1) return REFUSAL.writing;
  if (row.writeState === 5) return REFUSAL.closed;
  if (row.writeState === 3 && row.resolvedBy !== null && row.resolvedBy === operatorId) return REFUSAL.sameperson;
  return null;
}

async function replayRefund(deps: AppDeps, a: AuthContext, id: number, done: MoneyRefund) {
  const r = await loadRow(deps.db, id);
  assertInScope(a, r.o.districtId);
  const [named] = await refundsWithNames(deps.db, id).then((rows) => rows.filter((x) => x.id === done.id));
  return { order: dto(deps, r), refund: named ?? refundDto(done), replayed: true };
}

/**
 * 退款 of a top-up never written: the whole amount, once. The guarded update takes the order from
 * 待写卡/写卡失败 and 已支付 to 已关闭 and 已退款 in one statement (`where write_state in (0, 3) and
 * pay_status = 1`), the same guard the rider's write-start uses, so of a refund and a write exactly
 * one wins. The card centre is asked inside that transaction, under the order's row lock, so no load
 * slips between its answer and the move. Its money_refunds row (unique per order and key) and audit
 * row commit with it; the payment channel is asked after the commit. A key already used answers as
 * it did.
 */
export async function refund(deps: AppDeps, a: AuthContext, given: RefundBody) {
  // The reason is kept in the shared ledger and shown in the detail: masked like a note.
  const body = { ...given, reason: maskInText(given.reason) };
  const earlier = await refundByKey(deps.db, 'nfc', body.id, body.idempotencyKey);
  if (earlier) return replayRefund(deps, a, body.id, earlier);
  const r = await loadRow(deps.db, body.id);
  assertInScope(a, r.o.districtId);
  if (body.amount !== undefined && body.amount !== r.o.amount) throw fail(REFUSAL.partial);
  const refusal = refundRefusal(r.o, a.user.id);
  if (refusal === REFUSAL.refunded) {
    // The same key's first request committed between the two reads above: answer as it did.
    const again = await refundByKey(deps.db, 'nfc', body.id, body.idempotencyKey);
    if (again) return replayRefund(deps, a, body.id, again);
  }
  if (refusal) throw fail(refusal);
  const now = deps.clock.now();
  let made: MoneyRefund;
  try {
    made = await deps.db.transaction(async (tx) => {
      // Never blindly: a load the centre shows is on the card, whatever the order says. Asked under
      // the order's row lock, which the built-in centre's record of a load (cardLoaded) takes too: a
      // load recorded before the lock is seen here, one after it finds the order closed (圈存未付 in
      // 圈存日对账). Asked through this transaction: on PGlite's one connection the pool would wait
      // for it. A real centre is a network call under the lock, for one order, at a person's refund: bounded
      // by loadOfWithin, a centre that does not answer is a refusal.
      const [locked] = await tx.select().from(o).where(eq(o.id, r.o.id)).for('update');
      const refusedNow = refundRefusal(locked!, a.user.id);
      if (refusedNow) throw fail(refusedNow);
      const centre = await loadOfWithin(tx, { cardNo: locked!.cardNo, orderNo: locked!.orderNo, txnSeq: locked!.txnSeq });
      if (centre) throw fail(REFUSAL.centreHasLoad);
      const [moved] = await tx
        .update(o)
        .set({ writeState: 5, payStatus: 2, refundedAt: now, closedAt: now, updatedAt: now, rowVersion: nextVersion(o.rowVersion) })
        .where(and(eq(o.id, r.o.id), inArray(o.writeState, [0, 3]), eq(o.payStatus, 1), sql`(${o.resolvedBy} is null or ${o.resolvedBy} <> ${a.user.id} or ${o.writeState} <> 3)`))
        .returning({ writeState: o.writeState });
      if (!moved) {
        const [now2] = await tx.select().from(o).where(eq(o.id, r.o.id));
        throw fail(refundRefusal(now2!, a.user.id) ?? `充值订单 ${r.o.orderNo} 已被他人处理，请刷新后查看`);
      }
      const row = await recordRefund(tx, { kind: 'nfc', orderId: r.o.id, districtId: r.o.districtId, orderNo: r.o.orderNo, amount: r.o.amount, reason: body.reason, idempotencyKey: body.idempotencyKey, operatorId: a.user.id, now });
      await attempt(tx, r.o.id, now, 'refund', 1, `退款 ${fenToYuan(r.o.amount)} 元：${body.reason}`);
      await audit(
        tx,
        a.actor,
        { type: 'RECHARGE_REFUND', targetDistrictId: r.o.districtId, target: `recharge/${r.o.id}`, summary: `充值订单 ${r.o.orderNo} 退款 ${fenToYuan(r.o.amount)} 元：${body.reason}`, before: { writeState: r.o.writeState, payStatus: 1 }, after: { writeState: 5, payStatus: 2, refund: row.id } },
        now,
      );
      return row;
    });
  } catch (err) {
    // The same key racing itself: the other request's refund committed first; answer as it did.
    if (isUniqueViolation(err) || (err instanceof AppError && err.message === REFUSAL.refunded)) {
      const again = await refundByKey(deps.db, 'nfc', body.id, body.idempotencyKey);
      if (again) return replayRefund(deps, a, body.id, again);
      if (isUniqueViolation(err)) throw fail(REFUSAL.refunded);
    }
    throw err;
  }
  const settled = (await settleRefund(deps, made.id)) ?? made;
  const [named] = (await refundsWithNames(deps.db, r.o.id)).filter((x) => x.id === settled.id);
  return { order: dto(deps, await loadRow(deps.db, r.o.id)), refund: named ?? refundDto(settled), replayed: false };
}

/** The card view (卡片详情): a card's recent top-ups with their states, newest first. */
export async function rechargeOrdersOfCard(deps: Pick<AppDeps, 'db' | 'pii'>, cardNo: string, limit = 10): Promise<api.RechargeOrder[]> {
  const rows = await select(deps.db).where(eq(o.cardNo, cardNo)).orderBy(desc(o.createdAt), desc(o.id)).limit(Math.min(Math.max(limit, 1), 100));
  return rows.map((r) => dto(deps, r));
}


type ExportQuery = z.output<typeof api.rechargeExport.query>;

/**
 * 导出 NFC充值记录 as a task of the download centre: the list's rows for the filters in key order,
 * the rider's phone masked as the list shows it.
 */
export const ordersExport = defineExport({
  id: 'recharge.orders',
  permission: api.rechargeExport.permission,
  sheet: 'NFC充值记录',
  columns: [
    { header: '订单号', width: 26, cell: (r: api.RechargeOrder) => r.orderNo },
    { header: '区域', width: 10, cell: (r) => r.districtName },
    { header: '卡号', width: 20, cell: (r) => r.cardNo },
    { header: '卡内号', width: 12, cell: (r) => r.cardInnerNo },
    { header: '手机号', width: 14, mask: 'phone', cell: (r) => r.riderPhone },
    { header: '充值金额（元）', width: 12, cell: (r) => yuanCell(r.amount) },
    { header: '支付渠道', width: 10, cell: (r) => PAY_CHANNELS[r.payChannel] ?? String(r.payChannel) },
    { header: '支付状态', width: 10, cell: (r) => RECHARGE_PAY_STATUS.label(r.payStatus) },
    { header: '圈存状态', width: 10, cell: (r) => WRITE_STATE.label(r.writeState) },
    { header: '充值状态', width: 10, cell: (r) => RECHARGE_STATUS.label(r.rechargeStatus) },
    { header: '充值前余额（元）', width: 14, cell: (r) => yuanCell(r.befBal) },
    { header: '充值后余额（元）', width: 14, cell: (r) => yuanCell(r.aftBal) },
    { header: '交易序号', width: 10, cell: (r) => r.txnSeq },
    { header: 'TAC', width: 10, cell: (r) => r.tac },
    { header: '失败原因', width: 20, cell: (r) => r.failReason },
    { header: '下单时间', width: 20, cell: (r) => shanghaiDateTime(r.createdDate) },
    { header: '支付时间', width: 20, cell: (r) => (r.paidDate ? shanghaiDateTime(r.paidDate) : '') },
    { header: '写卡时间', width: 20, cell: (r) => (r.writtenDate ? shanghaiDateTime(r.writtenDate) : '') },
    { header: '退款时间', width: 20, cell: (r) => (r.refundedDate ? shanghaiDateTime(r.refundedDate) : '') },
  ],
  rows: listRows(rechargeList, (q: ExportQuery) => q),
  audit: { operation: 'RECHARGE_EXPORT' },
});

/** The task's title: NFC充值记录 and the state that narrowed it. */
export const exportTitle = (q: ExportQuery) =>
  ['NFC充值记录', q.writeState !== undefined ? WRITE_STATE.label(q.writeState) : '', q.payStatus !== undefined ? RECHARGE_PAY_STATUS.label(q.payStatus) : '', q.cardNo ?? ''].filter(Boolean).join(' ');
