import { and, count, eq, gte, isNull, lte, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { isAllowed } from '../../../shared/api';
import * as api from '../../../shared/api/wallet';
import { ADJUST_BUCKET, ADJUST_STATUS, ORDER_STATUS, PLAN_STATUS, WALLET_STATUS, type OrderStatus, type WalletStatus } from '../../../shared/api/wallet';
import { maskInText, maskPhone } from '../../../shared/domain/mask';
import { shanghaiDateTime } from '../../../shared/domain/time';
import { type AppDeps, type AuthContext, isSuperUser } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { type OperationType, audit } from '../../lib/audit';
import { fail, failOn, forbidden, isUniqueViolation, notFound } from '../../lib/errors';
import { type ExportScope, defineExport, listRows } from '../../lib/export-definition';
import { type ListContext, listService } from '../../lib/list';
import { refundByKey, recordRefund, settleRefund, type MoneyRefund } from '../../lib/refund-ledger';
import { checkVersion, nextVersion } from '../../lib/row-version';
import { assertInScope } from '../../lib/scope';
import { contains, iso } from '../../lib/sql';
import { moveStatus } from '../../lib/transition';
import { FROZEN, type LedgerEntry, type Setting, lockWallet, post, settingOf, yuan } from './money';
import { rechargePlans, rechargeSettings, walletAdjustments, walletLedger, walletOrders, wallets } from './schema';

type Scope = Pick<AuthContext, 'districtScope' | 'roles'>;

const phoneOf = (deps: AppDeps, enc: string) => maskPhone(deps.pii.decrypt(enc));
const digits = (s: string) => s.replace(/[\s-]/g, '');

// ================================================================ plans

const planColumns = {
  p: rechargePlans,
  districtName: t.districts.name,
  orders: sql<number>`(select count(*)::int from wallet_orders o where o.plan_id = ${rechargePlans.id})`.mapWith(Number),
};
const selectPlans = (db: Db) => db.select(planColumns).from(rechargePlans).leftJoin(t.districts, eq(t.districts.id, rechargePlans.districtId));
type PlanSel = { p: typeof rechargePlans.$inferSelect; districtName: string | null; orders: number };

/** A district's people read its plans and the city-wide ones; 全部区域 reads all. */
const plansVisibleTo = (a: Pick<AuthContext, 'districtScope'>) => (a.districtScope === null ? undefined : or(eq(rechargePlans.districtId, a.districtScope), isNull(rechargePlans.districtId)));
const planManageable = (a: Scope, districtId: number | null) => (districtId === null ? isSuperUser(a) : a.districtScope === null || a.districtScope === districtId);
function assertPlanManageable(a: Scope, districtId: number | null) {
  if (districtId === null && !isSuperUser(a)) throw forbidden('全市储值档位只有超级管理员可以修改');
  assertInScope(a, districtId);
}

const planDto = (r: PlanSel, manageable: boolean) => ({
  id: r.p.id,
  districtId: r.p.districtId,
  districtName: r.districtName,
  name: r.p.name,
  amount: r.p.amount,
  giftAmount: r.p.giftAmount,
  sort: r.p.sort,
  status: PLAN_STATUS.schema.parse(r.p.status),
  saleStart: r.p.saleStart ? iso(r.p.saleStart) : null,
  saleEnd: r.p.saleEnd ? iso(r.p.saleEnd) : null,
  orders: r.orders,
  updatedDate: iso(r.p.updatedAt),
  rowVersion: r.p.rowVersion,
  manageable,
});
const planDtoFor = (r: PlanSel, a: Scope) => planDto(r, planManageable(a, r.p.districtId));

const planList = listService({
  endpoint: api.planPage,
  select: selectPlans,
  count: (db) => db.select({ n: count() }).from(rechargePlans),
  scope: (a: ExportScope) => plansVisibleTo(a),
  filters: {
    name: (name) => contains(rechargePlans.name, name),
    status: (status) => eq(rechargePlans.status, status),
  },
  sorts: { sort: rechargePlans.sort, amount: rechargePlans.amount, updatedDate: rechargePlans.updatedAt },
  order: { column: rechargePlans.sort, dir: 'asc' },
  key: { column: rechargePlans.id, of: (r) => r.p.id },
  // The list reads under an export's scope too (no roles): the page says what the caller may manage.
  dto: (r) => planDto(r, false),
});

export async function pagePlans(deps: AppDeps, a: AuthContext, q: z.output<typeof api.planPage.query>) {
  const page = await planList.page(deps, a, q);
  return { ...page, content: page.content.map((p) => ({ ...p, manageable: planManageable(a, p.districtId) })) };
}

/** 储值档位's summary line: the plans the other filters keep, by status, and the orders made on them. */
export async function planTotals(deps: AppDeps, a: AuthContext, q: api.PlanFilters) {
  const [r] = await deps.db
    .select({
      plans: sql<number>`count(*)::int`,
      enabled: sql<number>`count(*) filter (where ${rechargePlans.status} = 1)::int`,
      disabled: sql<number>`count(*) filter (where ${rechargePlans.status} = 0)::int`,
      orders: sql<number>`coalesce(sum((select count(*) from wallet_orders o where o.plan_id = ${rechargePlans.id})), 0)::bigint`,
    })
    .from(rechargePlans)
    .where(planList.where(deps, a, { ...q, status: undefined }));
  const n = (v: unknown) => Number(v ?? 0);
  return { plans: n(r?.plans), enabled: n(r?.enabled), disabled: n(r?.disabled), orders: n(r?.orders) };
}

export const plansExport = defineExport({
  id: 'wallet.plans',
  permission: api.planExport.permission,
  sheet: '储值档位',
  columns: [
    { header: '档位ID', width: 8, cell: (p: ReturnType<typeof planDto>) => p.id },
    { header: '档位名称', width: 16, cell: (p) => p.name },
    { header: '区域', width: 10, cell: (p) => p.districtName ?? '全市' },
    { header: '充值金额（元）', width: 12, cell: (p) => p.amount / 100 },
    { header: '赠送金额（元）', width: 12, cell: (p) => p.giftAmount / 100 },
    { header: '状态', width: 8, cell: (p) => PLAN_STATUS.label(p.status) },
    { header: '开售时间', width: 20, cell: (p) => (p.saleStart ? shanghaiDateTime(p.saleStart) : '') },
    { header: '停售时间', width: 20, cell: (p) => (p.saleEnd ? shanghaiDateTime(p.saleEnd) : '') },
    { header: '订单数', width: 8, cell: (p) => p.orders },
    { header: '排序', width: 6, cell: (p) => p.sort },
    { header: '更新时间', width: 20, cell: (p) => shanghaiDateTime(p.updatedDate) },
  ],
  rows: listRows(planList, (q: api.PlanFilters) => q),
  audit: { operation: 'RECHARGE_PLAN_EXPORT' },
});

export const planExportTitle = (q: api.PlanFilters) => ['储值档位', q.status !== undefined ? PLAN_STATUS.label(q.status as 0 | 1) : ''].filter(Boolean).join(' ');

async function loadPlan(db: Db, a: Scope & Pick<AuthContext, 'districtScope'>, id: number) {
  const [row] = await selectPlans(db).where(and(eq(rechargePlans.id, id), plansVisibleTo(a)));
  if (!row) throw notFound('储值档位不存在');
  return row;
}

export const planById = async (deps: AppDeps, a: AuthContext, id: number) => planDtoFor(await loadPlan(deps.db, a, id), a);

/** The plan's amounts against the setting: within min/max, the gift at most half the amount. */
function checkPlanAmounts(s: Setting, amount: number, gift: number) {
  if (amount < s.minFen || amount > s.maxFen) throw failOn('amount', `充值金额应在${yuan(s.minFen)}–${yuan(s.maxFen)}元之间`);
  if (gift * 2 > amount) throw failOn('giftAmount', '赠送金额不能超过充值金额的50%');
}

export async function savePlan(deps: AppDeps, a: AuthContext, body: z.output<typeof api.planSave.body>) {
  const now = deps.clock.now();
  const s = await settingOf(deps.db);
  checkPlanAmounts(s, body.amount, body.giftAmount);
  const saleStart = body.saleStart ? new Date(body.saleStart) : null;
  const saleEnd = body.saleEnd ? new Date(body.saleEnd) : null;
  if (saleStart && saleEnd && saleEnd <= saleStart) throw failOn('saleEnd', '停售时间必须晚于开售时间');
  const values = { name: body.name, amount: body.amount, giftAmount: body.giftAmount, sort: body.sort, saleStart, saleEnd, updatedAt: now };
  return deps.db.transaction(async (tx) => {
    if (body.id === undefined) {
      const districtId = a.districtScope;
      assertPlanManageable(a, districtId);
      const [row] = await tx.insert(rechargePlans).values({ ...values, districtId, status: 1, createdAt: now }).returning();
      const after = planDtoFor(await loadPlan(tx, a, row!.id), a);
      await audit(tx, a.actor, { type: 'RECHARGE_PLAN_SAVE', targetDistrictId: districtId, target: `recharge-plan/${row!.id}`, summary: `新增储值档位「${body.name}」：充${yuan(body.amount)}元送${yuan(body.giftAmount)}元`, after }, now);
      return after;
    }
    const [cur] = await tx.select().from(rechargePlans).where(eq(rechargePlans.id, body.id)).for('update');
    if (!cur) throw notFound('储值档位不存在');
    assertPlanManageable(a, cur.districtId);
    const before = planDtoFor(await loadPlan(tx, a, cur.id), a);
    await checkVersion(cur, body.rowVersion, () => before);
    await tx.update(rechargePlans).set({ ...values, rowVersion: nextVersion(rechargePlans.rowVersion) }).where(eq(rechargePlans.id, cur.id));
    const after = planDtoFor(await loadPlan(tx, a, cur.id), a);
    await audit(tx, a.actor, { type: 'RECHARGE_PLAN_SAVE', targetDistrictId: cur.districtId, target: `recharge-plan/${cur.id}`, summary: `修改储值档位「${body.name}」：充${yuan(body.amount)}元送${yuan(body.giftAmount)}元`, before, after }, now);
    return after;
  });
}

export async function planStatus(deps: AppDeps, a: AuthContext, body: z.output<typeof api.planStatus.body>) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [cur] = await tx.select().from(rechargePlans).where(eq(rechargePlans.id, body.id)).for('update');
    if (!cur) throw notFound('储值档位不存在');
    assertPlanManageable(a, cur.districtId);
    const what = `储值档位「${cur.name}」`;
    const { from } = await moveStatus(tx, {
      flow: PLAN_STATUS,
      table: rechargePlans,
      key: rechargePlans.id,
      id: cur.id,
      status: rechargePlans.status,
      from: body.fromStatus,
      to: body.toStatus,
      set: { status: body.toStatus, updatedAt: now },
      what,
      version: { column: rechargePlans.rowVersion, sent: body.rowVersion, current: async () => planDtoFor(await loadPlan(tx, a, cur.id), a) },
    });
    const after = planDtoFor(await loadPlan(tx, a, cur.id), a);
    await audit(tx, a.actor, { type: 'RECHARGE_PLAN_STATUS', targetDistrictId: cur.districtId, target: `recharge-plan/${cur.id}`, summary: `${what}：${PLAN_STATUS.label(from)} → ${PLAN_STATUS.label(body.toStatus)}`, before: { status: from }, after: { status: body.toStatus } }, now);
    return after;
  });
}

export async function deletePlan(deps: AppDeps, a: AuthContext, id: number) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [cur] = await tx.select().from(rechargePlans).where(eq(rechargePlans.id, id)).for('update');
    if (!cur) throw notFound('储值档位不存在');
    assertPlanManageable(a, cur.districtId);
    const [used] = await tx.select({ n: count() }).from(walletOrders).where(eq(walletOrders.planId, id));
    if ((used?.n ?? 0) > 0) throw fail('该档位已有订单，不能删除，请停用');
    const before = planDtoFor(await loadPlan(tx, a, id), a);
    await tx.delete(rechargePlans).where(eq(rechargePlans.id, id));
    await audit(tx, a.actor, { type: 'RECHARGE_PLAN_DELETE', targetDistrictId: cur.districtId, target: `recharge-plan/${id}`, summary: `删除储值档位「${cur.name}」`, before }, now);
    return { id };
  });
}

// ================================================================ orders

const orderColumns = { o: walletOrders, phoneEnc: t.riders.phoneEnc };
type OrderSel = { o: typeof walletOrders.$inferSelect; phoneEnc: string };
const selectOrders = (db: Db) => db.select(orderColumns).from(walletOrders).innerJoin(t.riders, eq(t.riders.id, walletOrders.riderId));

const orderDto = (deps: AppDeps, r: OrderSel) => ({
  id: r.o.id,
  orderNo: r.o.orderNo,
  districtId: r.o.districtId,
  riderId: r.o.riderId,
  riderPhone: phoneOf(deps, r.phoneEnc),
  walletId: r.o.walletId,
  planId: r.o.planId,
  planName: String((r.o.snapshot as { name?: string } | null)?.name ?? ''),
  payAmount: r.o.payAmount,
  giftAmount: r.o.giftAmount,
  payStatus: api.ORDER_PAY_STATUS.schema.parse(r.o.payStatus),
  status: ORDER_STATUS.schema.parse(r.o.status),
  principalAfter: r.o.principalAfter,
  refundAmount: r.o.refundAmount,
  giftClawback: r.o.giftClawback,
  createdDate: iso(r.o.createdAt),
  paidDate: r.o.paidAt ? iso(r.o.paidAt) : null,
  refundedDate: r.o.refundedAt ? iso(r.o.refundedAt) : null,
  closedDate: r.o.closedAt ? iso(r.o.closedAt) : null,
});

export const orderList = listService({
  endpoint: api.orderPage,
  select: selectOrders,
  count: (db) => db.select({ n: count() }).from(walletOrders),
  scope: walletOrders.districtId,
  filters: {
    orderNo: (orderNo) => eq(walletOrders.orderNo, orderNo),
    walletId: (walletId) => eq(walletOrders.walletId, walletId),
    status: (status) => eq(walletOrders.status, status),
    startTime: (from) => gte(walletOrders.createdAt, new Date(from)),
    endTime: (to) => lte(walletOrders.createdAt, new Date(to)),
  },
  sorts: { createdDate: walletOrders.createdAt, payAmount: walletOrders.payAmount },
  order: { column: walletOrders.createdAt, dir: 'desc' },
  key: { column: walletOrders.id, of: (r) => r.o.id },
  dto: (r, { deps }: ListContext<ExportScope>) => orderDto(deps, r),
});

export const pageOrders = (deps: AppDeps, a: AuthContext, q: z.output<typeof api.orderPage.query>) => orderList.page(deps, a, q);

export async function orderTotals(deps: AppDeps, a: AuthContext, q: api.WalletOrderFilters) {
  const o = walletOrders;
  const [r] = await deps.db
    .select({
      orders: sql<number>`count(*)::int`,
      paid: sql<number>`count(*) filter (where ${o.status} in (1, 2))::int`,
      paidAmount: sql<number>`coalesce(sum(${o.payAmount}) filter (where ${o.status} in (1, 2)), 0)::bigint`,
      giftAmount: sql<number>`coalesce(sum(${o.giftAmount}) filter (where ${o.status} in (1, 2)), 0)::bigint`,
      refunded: sql<number>`count(*) filter (where ${o.status} = 2)::int`,
      refundAmount: sql<number>`coalesce(sum(${o.refundAmount}), 0)::bigint`,
      unpaid: sql<number>`count(*) filter (where ${o.status} = 0)::int`,
      closed: sql<number>`count(*) filter (where ${o.status} = 3)::int`,
    })
    .from(o)
    .where(orderList.where(deps, a, { ...q, status: undefined }));
  const n = (v: unknown) => Number(v ?? 0);
  return { orders: n(r?.orders), paid: n(r?.paid), paidAmount: n(r?.paidAmount), giftAmount: n(r?.giftAmount), refunded: n(r?.refunded), refundAmount: n(r?.refundAmount), unpaid: n(r?.unpaid), closed: n(r?.closed) };
}

const refundDto = (r: MoneyRefund) => ({ id: r.id, amount: r.amount, reason: maskInText(r.reason), state: r.state, createdDate: iso(r.createdAt) });

async function loadOrder(deps: AppDeps, db: Db, id: number) {
  const [r] = await selectOrders(db).where(eq(walletOrders.id, id));
  if (!r) throw notFound('储值订单不存在');
  return r;
}

/** What a refund of this order may pay back now, and the gift it takes back (§9). */
function refundable(o: typeof walletOrders.$inferSelect, w: typeof wallets.$inferSelect, s: Setting) {
  const principal = o.status === 1 ? Math.max(0, Math.min(o.payAmount - o.refundAmount, w.principal)) : 0;
  const gift = o.status === 1 ? Math.max(0, Math.min(o.giftAmount - o.giftClawback, w.gift)) : 0;
  return { principal, gift, max: principal + (s.giftRefundable ? gift : 0) };
}

export async function orderMsg(deps: AppDeps, a: AuthContext, id: number) {
  const r = await loadOrder(deps, deps.db, id);
  assertInScope(a, r.o.districtId);
  const [w] = await deps.db.select().from(wallets).where(eq(wallets.id, r.o.walletId));
  const [refund] = await deps.db.select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'wallet'), eq(t.moneyRefunds.orderId, id)));
  const can = refundable(r.o, w!, await settingOf(deps.db));
  return { ...orderDto(deps, r), refund: refund ? refundDto(refund) : null, refundable: can.max, clawback: can.gift, walletStatus: WALLET_STATUS.schema.parse(w!.status) };
}

type RefundBody = z.output<typeof api.orderRefund.body>;

async function replayRefund(deps: AppDeps, a: AuthContext, body: RefundBody) {
  const done = await refundByKey(deps.db, 'wallet', body.id, body.idempotencyKey);
  if (!done) return null;
  const r = await loadOrder(deps, deps.db, body.id);
  assertInScope(a, r.o.districtId);
  return { order: orderDto(deps, r), refund: refundDto(done), replayed: true };
}

/**
 * 储值退款, once (decision 75): min(paid − refunded, principal) goes back to the rider (the gift too
 * only when the setting makes it refundable); the order's remaining gift is clawed back as a type-6
 * row. Order move, wallet debit, ledger rows, the refund ledger row and the audit row commit
 * together; the channel is asked after the commit (settleRefund). Racing refunds queue on the
 * order's row; the same key answers as the first, another key finds the order refunded.
 */
export async function refundOrder(deps: AppDeps, a: AuthContext, body: RefundBody) {
  const earlier = await replayRefund(deps, a, body);
  if (earlier) return earlier;
  const now = deps.clock.now();
  const s = await settingOf(deps.db);
  let refund: MoneyRefund;
  try {
    refund = await deps.db.transaction(async (tx) => {
      const [o] = await tx.select().from(walletOrders).where(eq(walletOrders.id, body.id)).for('update');
      if (!o) throw notFound('储值订单不存在');
      assertInScope(a, o.districtId);
      const what = `储值订单 ${o.orderNo}`;
      if (o.status === 2) throw fail(`${what} 已退款，不能重复退款`);
      if (o.status !== 1) throw fail(`${what} 未到账，不能退款`);
      const w = await lockWallet(tx, o.walletId);
      if (w.status === 2) throw fail(FROZEN);
      if (w.status === 0) throw fail('钱包已注销，不能退款');
      const can = refundable(o, w, s);
      const amount = body.amount ?? can.max;
      if (amount <= 0 || amount > can.max) {
        if (!s.giftRefundable && amount > can.principal && amount <= can.principal + can.gift) throw failOn('amount', '赠送金额不可退');
        throw failOn('amount', `退款金额不能超过可退金额（${yuan(can.max)}元）`);
      }
      const fromPrincipal = Math.min(amount, can.principal);
      const fromGift = amount - fromPrincipal;
      const clawback = can.gift - fromGift;
      const entries: LedgerEntry[] = [{ type: 4, principalDelta: -fromPrincipal, giftDelta: -fromGift, refKind: 'order', refId: o.id, by: a.actor.id }];
      if (clawback > 0) entries.push({ type: 6, principalDelta: 0, giftDelta: -clawback, refKind: 'order', refId: o.id, by: a.actor.id });
      const after = await post(tx, w, entries, now);
      await moveStatus(tx, {
        flow: ORDER_STATUS,
        table: walletOrders,
        key: walletOrders.id,
        id: o.id,
        status: walletOrders.status,
        from: 1,
        to: 2,
        set: { status: 2, payStatus: 2, refundedAt: now, refundAmount: o.refundAmount + fromPrincipal, giftClawback: o.giftClawback + fromGift + clawback },
        what,
      });
      const row = await recordRefund(tx, { kind: 'wallet', orderId: o.id, districtId: o.districtId, orderNo: o.orderNo, amount, reason: maskInText(body.reason), idempotencyKey: body.idempotencyKey, operatorId: a.actor.id, now });
      await audit(
        tx,
        a.actor,
        {
          type: 'WALLET_ORDER_REFUND',
          targetDistrictId: o.districtId,
          target: `wallet-order/${o.id}`,
          summary: `${what} 退款 ${yuan(amount)} 元${clawback > 0 ? `，收回赠送 ${yuan(clawback)} 元` : ''}：${body.reason}`,
          before: { status: 1, principal: w.principal, gift: w.gift },
          after: { status: 2, principal: after.principal, gift: after.gift, refund: row.id },
        },
        now,
      );
      return row;
    });
  } catch (err) {
    // The same key racing itself: the other request committed first; answer as it did.
    if (isUniqueViolation(err) || (err instanceof Error && /已退款/.test(err.message))) {
      const again = await replayRefund(deps, a, body);
      if (again) return again;
    }
    throw err;
  }
  const settled = (await settleRefund(deps, refund.id)) ?? refund;
  return { order: orderDto(deps, await loadOrder(deps, deps.db, body.id)), refund: refundDto(settled), replayed: false };
}

export const ordersExport = defineExport({
  id: 'wallet.orders',
  permission: api.orderExport.permission,
  sheet: '储值订单',
  columns: [
    { header: '订单号', width: 24, cell: (o: ReturnType<typeof orderDto>) => o.orderNo },
    { header: '手机号', width: 14, mask: 'phone', cell: (o) => o.riderPhone },
    { header: '档位', width: 14, cell: (o) => o.planName },
    { header: '充值金额（元）', width: 12, cell: (o) => o.payAmount / 100 },
    { header: '赠送金额（元）', width: 12, cell: (o) => o.giftAmount / 100 },
    { header: '状态', width: 8, cell: (o) => ORDER_STATUS.label(o.status) },
    { header: '退款金额（元）', width: 12, cell: (o) => o.refundAmount / 100 },
    { header: '收回赠送（元）', width: 12, cell: (o) => o.giftClawback / 100 },
    { header: '下单时间', width: 20, cell: (o) => shanghaiDateTime(o.createdDate) },
    { header: '到账时间', width: 20, cell: (o) => (o.paidDate ? shanghaiDateTime(o.paidDate) : '') },
    { header: '退款时间', width: 20, cell: (o) => (o.refundedDate ? shanghaiDateTime(o.refundedDate) : '') },
  ],
  rows: listRows(orderList, (q: api.WalletOrderFilters) => q),
  audit: { operation: 'WALLET_ORDER_EXPORT' },
});

export const orderExportTitle = (q: api.WalletOrderFilters) => ['储值订单', q.status !== undefined ? ORDER_STATUS.label(q.status as OrderStatus) : ''].filter(Boolean).join(' ');

// ================================================================ wallets

const walletColumns = { w: wallets, phoneEnc: t.riders.phoneEnc, districtName: t.districts.name };
type WalletSel = { w: typeof wallets.$inferSelect; phoneEnc: string; districtName: string | null };
const selectWallets = (db: Db) => db.select(walletColumns).from(wallets).innerJoin(t.riders, eq(t.riders.id, wallets.riderId)).leftJoin(t.districts, eq(t.districts.id, wallets.districtId));

const walletDto = (deps: AppDeps, r: WalletSel) => ({
  id: r.w.id,
  districtId: r.w.districtId,
  districtName: r.districtName,
  riderId: r.w.riderId,
  riderPhone: phoneOf(deps, r.phoneEnc),
  principal: r.w.principal,
  gift: r.w.gift,
  status: WALLET_STATUS.schema.parse(r.w.status),
  statusReason: r.w.statusReason === null ? null : maskInText(r.w.statusReason),
  createdDate: iso(r.w.createdAt),
  updatedDate: iso(r.w.updatedAt),
  version: r.w.version,
});

/** 用户钱包: by the rider's phone (blind index) or card, exact; newest change first. */
const walletList = listService({
  endpoint: api.walletPage,
  select: selectWallets,
  // The count needs no rider (every wallet has one): joining them made the summary of 1,000,000
  // wallets a 1.5 s hash join (issue 22's bench); the phone filter is a subquery for that reason.
  count: (db) => db.select({ n: count() }).from(wallets),
  scope: wallets.districtId,
  filters: {
    phone: (phone, _q, _a, deps) => sql`${wallets.riderId} = (select id from riders where phone_idx = ${deps.pii.index('phone', digits(phone))})`,
    cardNo: (cardNo) => sql`${wallets.riderId} = (select rider_id from bus_cards where card_no = ${cardNo})`,
    status: (status) => eq(wallets.status, status),
  },
  sorts: { updatedDate: wallets.updatedAt, principal: wallets.principal, gift: wallets.gift },
  order: { column: wallets.id, dir: 'desc' },
  key: { column: wallets.id, of: (r) => r.w.id },
  dto: (r, { deps }) => walletDto(deps, r),
});

export const pageWallets = (deps: AppDeps, a: AuthContext, q: z.output<typeof api.walletPage.query>) => walletList.page(deps, a, q);

/** 用户钱包's summary line: the wallets the other filters keep by status, and what they hold (the stored-value liability). */
export async function walletTotals(deps: AppDeps, a: AuthContext, q: z.output<typeof api.walletTotal.query>) {
  const [r] = await deps.db
    .select({
      wallets: sql<number>`count(*)::int`,
      principal: sql<number>`coalesce(sum(${wallets.principal}), 0)::bigint`,
      gift: sql<number>`coalesce(sum(${wallets.gift}), 0)::bigint`,
      normal: sql<number>`count(*) filter (where ${wallets.status} = 1)::int`,
      frozen: sql<number>`count(*) filter (where ${wallets.status} = 2)::int`,
      frozenBalance: sql<number>`coalesce(sum(${wallets.principal} + ${wallets.gift}) filter (where ${wallets.status} = 2), 0)::bigint`,
      closed: sql<number>`count(*) filter (where ${wallets.status} = 0)::int`,
    })
    .from(wallets)
    .where(walletList.where(deps, a, { ...q, status: undefined }));
  const n = (v: unknown) => Number(v ?? 0);
  return { wallets: n(r?.wallets), principal: n(r?.principal), gift: n(r?.gift), normal: n(r?.normal), frozen: n(r?.frozen), frozenBalance: n(r?.frozenBalance), closed: n(r?.closed) };
}

type WalletExportFilters = z.output<typeof api.walletExport.query>;

export const walletsExport = defineExport({
  id: 'wallet.wallets',
  permission: api.walletExport.permission,
  sheet: '用户钱包',
  columns: [
    { header: '钱包ID', width: 8, cell: (w: ReturnType<typeof walletDto>) => w.id },
    { header: '手机号', width: 14, mask: 'phone', cell: (w) => w.riderPhone },
    { header: '区域', width: 10, cell: (w) => w.districtName },
    { header: '本金（元）', width: 12, cell: (w) => w.principal / 100 },
    { header: '赠送（元）', width: 12, cell: (w) => w.gift / 100 },
    { header: '余额合计（元）', width: 12, cell: (w) => (w.principal + w.gift) / 100 },
    { header: '状态', width: 8, cell: (w) => WALLET_STATUS.label(w.status) },
    { header: '状态原因', width: 20, cell: (w) => w.statusReason },
    { header: '开通时间', width: 20, cell: (w) => shanghaiDateTime(w.createdDate) },
    { header: '最近变动', width: 20, cell: (w) => shanghaiDateTime(w.updatedDate) },
  ],
  rows: listRows(walletList, (q: WalletExportFilters) => q),
  audit: { operation: 'WALLET_EXPORT' },
});

export const walletExportTitle = (q: WalletExportFilters) => ['用户钱包', q.status !== undefined ? WALLET_STATUS.label(q.status as WalletStatus) : ''].filter(Boolean).join(' ');

async function loadWallet(deps: AppDeps, db: Db, a: Pick<AuthContext, 'districtScope'>, id: number) {
  const [r] = await selectWallets(db).where(eq(wallets.id, id));
  if (!r) throw notFound('钱包不存在');
  assertInScope(a, r.w.districtId);
  return r;
}

export async function walletMsg(deps: AppDeps, a: AuthContext, id: number) {
  const r = await loadWallet(deps, deps.db, a, id);
  const [o] = await deps.db
    .select({ paid: sql<number>`coalesce(sum(${walletOrders.payAmount}), 0)::bigint`, refunded: sql<number>`coalesce(sum(${walletOrders.refundAmount}), 0)::bigint` })
    .from(walletOrders)
    .where(and(eq(walletOrders.walletId, id), sql`${walletOrders.status} in (1, 2)`));
  const [l] = await deps.db.select({ consumed: sql<number>`coalesce(-sum(${walletLedger.principalDelta}), 0)::bigint` }).from(walletLedger).where(and(eq(walletLedger.walletId, id), eq(walletLedger.type, 3)));
  const [p] = await deps.db.select({ n: count() }).from(walletAdjustments).where(and(eq(walletAdjustments.walletId, id), eq(walletAdjustments.status, 0)));
  return { ...walletDto(deps, r), paid: Number(o?.paid ?? 0), refunded: Number(o?.refunded ?? 0), consumed: Number(l?.consumed ?? 0), pendingAdjustments: p?.n ?? 0 };
}

const ledgerBy = alias(t.users, 'ledger_by');
const ledgerList = listService({
  endpoint: api.ledgerPage,
  select: (db) => db.select({ l: walletLedger, byName: ledgerBy.firstName }).from(walletLedger).leftJoin(ledgerBy, eq(ledgerBy.id, walletLedger.createdBy)),
  count: (db) => db.select({ n: count() }).from(walletLedger),
  scope: walletLedger.districtId,
  filters: {
    walletId: (walletId) => eq(walletLedger.walletId, walletId),
    type: (type) => eq(walletLedger.type, type),
  },
  sorts: { createdDate: walletLedger.id },
  order: { column: walletLedger.id, dir: 'desc' },
  key: { column: walletLedger.id, of: (r) => r.l.id },
  dto: (r) => ({
    id: r.l.id,
    walletId: r.l.walletId,
    type: api.LEDGER_TYPE.schema.parse(r.l.type),
    principalDelta: r.l.principalDelta,
    giftDelta: r.l.giftDelta,
    principalAfter: r.l.principalAfter,
    giftAfter: r.l.giftAfter,
    refKind: r.l.refKind,
    refId: r.l.refId,
    createdDate: iso(r.l.createdAt),
    byName: r.byName,
  }),
});

export async function pageLedger(deps: AppDeps, a: AuthContext, q: z.output<typeof api.ledgerPage.query>) {
  await loadWallet(deps, deps.db, a, q.walletId);
  return ledgerList.page(deps, a, q);
}

type LedgerDto = Awaited<ReturnType<typeof ledgerList.page>>['content'][number];

export const ledgerExport = defineExport({
  id: 'wallet.ledger',
  permission: api.ledgerExport.permission,
  sheet: '钱包流水',
  columns: [
    { header: '流水ID', width: 10, cell: (l: LedgerDto) => l.id },
    { header: '钱包ID', width: 8, cell: (l) => l.walletId },
    { header: '时间', width: 20, cell: (l) => shanghaiDateTime(l.createdDate) },
    { header: '类型', width: 10, cell: (l) => api.LEDGER_TYPE.label(l.type) },
    { header: '本金变动（元）', width: 12, cell: (l) => l.principalDelta / 100 },
    { header: '赠送变动（元）', width: 12, cell: (l) => l.giftDelta / 100 },
    { header: '变动后本金（元）', width: 14, cell: (l) => l.principalAfter / 100 },
    { header: '变动后赠送（元）', width: 14, cell: (l) => l.giftAfter / 100 },
    { header: '关联', width: 16, cell: (l) => `${l.refKind}/${l.refId}` },
    { header: '操作人', width: 10, cell: (l) => l.byName },
  ],
  rows: listRows(ledgerList, (q: api.LedgerFilters) => q),
  audit: { operation: 'WALLET_LEDGER_EXPORT' },
});

/** A wallet's ledger as a task: the wallet must be the caller's area's (refused as its page is), the title names it by id. */
export async function ledgerExportTitle(deps: AppDeps, a: AuthContext, q: api.LedgerFilters) {
  await loadWallet(deps, deps.db, a, q.walletId);
  return [`钱包流水 ${q.walletId}`, q.type !== undefined ? api.LEDGER_TYPE.label(q.type as 1) : ''].filter(Boolean).join(' ');
}

const walletMoveType = (to: WalletStatus): OperationType => (to === 2 ? 'WALLET_FREEZE' : to === 1 ? 'WALLET_UNFREEZE' : 'WALLET_CLOSE');

/** 冻结 / 解冻 with a reason; 注销 only at balance 0 (the table's check says so too). */
export async function walletStatus(deps: AppDeps, a: AuthContext, body: z.output<typeof api.walletStatus.body>) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const w = await lockWallet(tx, body.id);
    assertInScope(a, w.districtId);
    if (body.toStatus === 0 && (w.principal > 0 || w.gift > 0)) throw fail('钱包余额不为0，不能注销');
    // Under the wallet's lock, which a new order takes too: no order can start paying into it after this.
    if (body.toStatus === 0 && (await tx.select({ id: walletOrders.id }).from(walletOrders).where(and(eq(walletOrders.walletId, w.id), eq(walletOrders.status, 0))).limit(1)).length) {
      throw fail('钱包有待支付的充值订单，不能注销，请在订单关闭后再试');
    }
    const what = `钱包 ${w.id}`;
    const { from } = await moveStatus(tx, {
      flow: WALLET_STATUS,
      table: wallets,
      key: wallets.id,
      id: w.id,
      status: wallets.status,
      from: body.fromStatus,
      to: body.toStatus,
      set: { status: body.toStatus, statusReason: maskInText(body.reason), updatedAt: now },
      what,
      stale: `${what}的状态已被他人修改，请刷新后查看`,
    });
    const after = walletDto(deps, await loadWallet(deps, tx, a, w.id));
    await audit(tx, a.actor, { type: walletMoveType(body.toStatus), targetDistrictId: w.districtId, target: `wallet/${w.id}`, summary: `${what}：${WALLET_STATUS.label(from)} → ${WALLET_STATUS.label(body.toStatus)}，原因：${body.reason}`, before: { status: from }, after: { status: body.toStatus, reason: body.reason } }, now);
    return after;
  });
}

// ================================================================ adjustments

const maker = alias(t.users, 'adjust_maker');
const checker = alias(t.users, 'adjust_checker');
const adjustColumns = { j: walletAdjustments, phoneEnc: t.riders.phoneEnc, makerName: maker.firstName, checkerName: checker.firstName };
type AdjustSel = { j: typeof walletAdjustments.$inferSelect; phoneEnc: string; makerName: string | null; checkerName: string | null };
const selectAdjustments = (db: Db) =>
  db
    .select(adjustColumns)
    .from(walletAdjustments)
    .innerJoin(wallets, eq(wallets.id, walletAdjustments.walletId))
    .innerJoin(t.riders, eq(t.riders.id, wallets.riderId))
    .leftJoin(maker, eq(maker.id, walletAdjustments.makerId))
    .leftJoin(checker, eq(checker.id, walletAdjustments.checkerId));

const adjustDto = (deps: AppDeps, r: AdjustSel, s: Setting) => ({
  id: r.j.id,
  walletId: r.j.walletId,
  districtId: r.j.districtId,
  riderPhone: phoneOf(deps, r.phoneEnc),
  bucket: ADJUST_BUCKET.schema.parse(r.j.bucket),
  delta: r.j.delta,
  reason: maskInText(r.j.reason),
  status: ADJUST_STATUS.schema.parse(r.j.status),
  makerId: r.j.makerId,
  makerName: r.makerName,
  checkerId: r.j.checkerId,
  checkerName: r.checkerName,
  checkReason: r.j.checkReason === null ? null : maskInText(r.j.checkReason),
  createdDate: iso(r.j.createdAt),
  checkedDate: r.j.checkedAt ? iso(r.j.checkedAt) : null,
  needsSuper: Math.abs(r.j.delta) > s.adjustSingleMaxFen,
});

const adjustList = listService({
  endpoint: api.adjustPage,
  select: selectAdjustments,
  count: (db) => db.select({ n: count() }).from(walletAdjustments),
  scope: walletAdjustments.districtId,
  filters: {
    walletId: (walletId) => eq(walletAdjustments.walletId, walletId),
    status: (status) => eq(walletAdjustments.status, status),
  },
  sorts: { createdDate: walletAdjustments.createdAt },
  order: { column: walletAdjustments.id, dir: 'desc' },
  key: { column: walletAdjustments.id, of: (r) => r.j.id },
  async dto(r, { deps, memo }) {
    // One setting read per page.
    let s = memo.get('setting') as Promise<Setting> | undefined;
    if (!s) memo.set('setting', (s = settingOf(deps.db)));
    return adjustDto(deps, r, await s);
  },
});

export const pageAdjustments = (deps: AppDeps, a: AuthContext, q: z.output<typeof api.adjustPage.query>) => adjustList.page(deps, a, q);

/** 人工调账's summary line: by status, how many and their net amounts on principal and gift (fen, signed). */
export async function adjustTotals(deps: AppDeps, a: AuthContext, q: api.AdjustFilters) {
  const j = walletAdjustments;
  const s = await settingOf(deps.db);
  const rows = await deps.db
    .select({
      status: j.status,
      count: sql<number>`count(*)::int`,
      principal: sql<number>`coalesce(sum(${j.delta}) filter (where ${j.bucket} = 1), 0)::bigint`,
      gift: sql<number>`coalesce(sum(${j.delta}) filter (where ${j.bucket} = 2), 0)::bigint`,
      needsSuper: sql<number>`count(*) filter (where ${j.status} = 0 and abs(${j.delta}) > ${s.adjustSingleMaxFen})::int`,
    })
    .from(j)
    .where(adjustList.where(deps, a, { ...q, status: undefined }))
    .groupBy(j.status);
  const byStatus: Record<string, { count: number; principal: number; gift: number }> = {};
  for (const code of ADJUST_STATUS.codes) {
    const r = rows.find((x) => x.status === code);
    byStatus[String(code)] = { count: Number(r?.count ?? 0), principal: Number(r?.principal ?? 0), gift: Number(r?.gift ?? 0) };
  }
  return { total: rows.reduce((n, r) => n + Number(r.count), 0), byStatus, pendingNeedsSuper: rows.reduce((n, r) => n + Number(r.needsSuper), 0) };
}

export const adjustmentsExport = defineExport({
  id: 'wallet.adjustments',
  permission: api.adjustExport.permission,
  sheet: '人工调账',
  columns: [
    { header: '调账ID', width: 8, cell: (j: ReturnType<typeof adjustDto>) => j.id },
    { header: '钱包ID', width: 8, cell: (j) => j.walletId },
    { header: '手机号', width: 14, mask: 'phone', cell: (j) => j.riderPhone },
    { header: '账户', width: 6, cell: (j) => ADJUST_BUCKET.label(j.bucket) },
    { header: '调整金额（元）', width: 12, cell: (j) => j.delta / 100 },
    { header: '原因', width: 30, cell: (j) => j.reason },
    { header: '状态', width: 8, cell: (j) => ADJUST_STATUS.label(j.status) },
    { header: '申请人', width: 10, cell: (j) => j.makerName },
    { header: '申请时间', width: 20, cell: (j) => shanghaiDateTime(j.createdDate) },
    { header: '复核人', width: 10, cell: (j) => j.checkerName },
    { header: '复核意见', width: 20, cell: (j) => j.checkReason },
    { header: '复核时间', width: 20, cell: (j) => (j.checkedDate ? shanghaiDateTime(j.checkedDate) : '') },
  ],
  rows: listRows(adjustList, (q: api.AdjustFilters) => q),
  audit: { operation: 'WALLET_ADJUST_EXPORT' },
});

export const adjustExportTitle = (q: api.AdjustFilters) => ['人工调账', q.status !== undefined ? ADJUST_STATUS.label(q.status as 0) : '', q.walletId !== undefined ? `钱包 ${q.walletId}` : ''].filter(Boolean).join(' ');

async function loadAdjustment(deps: AppDeps, db: Db, id: number) {
  const [r] = await selectAdjustments(db).where(eq(walletAdjustments.id, id));
  if (!r) throw notFound('调账记录不存在');
  return adjustDto(deps, r, await settingOf(db));
}

type AdjustBody = z.output<typeof api.adjust.body>;

async function replayAdjust(deps: AppDeps, a: AuthContext, body: AdjustBody) {
  const [done] = await deps.db.select().from(walletAdjustments).where(eq(walletAdjustments.idempotencyKey, body.idempotencyKey));
  if (!done) return null;
  if (done.walletId !== body.walletId || done.makerId !== a.user.id || done.delta !== body.delta || done.bucket !== body.bucket) throw fail('该调账请求编号已用于另一笔调账，请重新发起');
  return { adjustment: await loadAdjustment(deps, deps.db, done.id), replayed: true };
}

/** 发起人工调账: a request only (0 待复核); nothing moves until a second person approves it. */
export async function makeAdjustment(deps: AppDeps, a: AuthContext, body: AdjustBody) {
  const earlier = await replayAdjust(deps, a, body);
  if (earlier) return earlier;
  const now = deps.clock.now();
  try {
    return await deps.db.transaction(async (tx) => {
      const w = await lockWallet(tx, body.walletId);
      assertInScope(a, w.districtId);
      if (w.status === 0) throw fail('钱包已注销，不能调账');
      const balance = body.bucket === 1 ? w.principal : w.gift;
      if (balance + body.delta < 0) throw failOn('delta', '余额不足，操作后余额不能为负');
      const [row] = await tx
        .insert(walletAdjustments)
        .values({ walletId: w.id, districtId: w.districtId, bucket: body.bucket, delta: body.delta, reason: maskInText(body.reason), makerId: a.user.id, idempotencyKey: body.idempotencyKey, createdAt: now })
        .returning();
      const what = `钱包 ${w.id} ${ADJUST_BUCKET.label(body.bucket)}${body.delta > 0 ? '+' : '−'}${yuan(Math.abs(body.delta))}元`;
      await audit(tx, a.actor, { type: 'WALLET_ADJUST', targetDistrictId: w.districtId, target: `wallet-adjust/${row!.id}`, summary: `发起人工调账：${what}，原因：${body.reason}`, after: { walletId: w.id, bucket: body.bucket, delta: body.delta, status: 0 } }, now);
      return { adjustment: await loadAdjustment(deps, tx, row!.id), replayed: false };
    });
  } catch (err) {
    if (isUniqueViolation(err)) {
      const again = await replayAdjust(deps, a, body);
      if (again) return again;
    }
    throw err;
  }
}

type CheckBody = z.output<typeof api.adjustCheck.body>;

/**
 * 复核通过 / 驳回 / 撤回. Approval is `update … where status = 0 and maker_id <> :me`: the maker is
 * refused by the database whatever session asks, and of two checkers one row moves. The wallet's
 * change and its type-5 ledger row follow in the same transaction; 余额不足 rolls all of it back.
 */
export async function checkAdjustment(deps: AppDeps, a: AuthContext, body: CheckBody) {
  const now = deps.clock.now();
  const to = body.toStatus;
  if (to === 3 ? !isAllowed(api.ADJUST_MAKER, a) : !isAllowed(api.ADJUST_CHECKER, a)) throw forbidden();
  const current = await loadAdjustment(deps, deps.db, body.id);
  assertInScope(a, current.districtId);
  if (to === 2 && (body.reason ?? '').length < 2) throw failOn('reason', '驳回请填写原因（至少2个字）');
  if (to === 1) {
    if (body.confirmDelta === undefined) throw failOn('confirmDelta', '复核通过请再次输入调账金额');
    if (body.confirmDelta !== current.delta) throw failOn('confirmDelta', '确认金额与调账金额不一致，请核对后重新输入');
    const s = await settingOf(deps.db);
    if (Math.abs(current.delta) > s.adjustSingleMaxFen && !isSuperUser(a)) throw fail(`单笔调整超过${yuan(s.adjustSingleMaxFen)}元需超级管理员复核`);
  }
  const me = a.user.id;
  return deps.db.transaction(async (tx) => {
    const who = to === 3 ? sql`${walletAdjustments.makerId} = ${me}` : sql`${walletAdjustments.makerId} <> ${me}`;
    const [moved] = await tx
      .update(walletAdjustments)
      .set(to === 3 ? { status: 3, checkedAt: now } : { status: to, checkerId: me, checkedAt: now, checkReason: body.reason ? maskInText(body.reason) : null })
      .where(and(eq(walletAdjustments.id, body.id), eq(walletAdjustments.status, 0), who))
      .returning();
    if (!moved) {
      const [row] = await tx.select({ status: walletAdjustments.status, makerId: walletAdjustments.makerId }).from(walletAdjustments).where(eq(walletAdjustments.id, body.id));
      if (row?.status === 0 && to !== 3 && row.makerId === me) throw fail('复核人不能与申请人为同一人');
      if (row?.status === 0 && to === 3) throw fail('只有申请人可以撤回调账');
      throw fail('该调账已被处理，请刷新后查看');
    }
    const what = `钱包 ${moved.walletId} ${ADJUST_BUCKET.label(moved.bucket as 1 | 2)}${moved.delta > 0 ? '+' : '−'}${yuan(Math.abs(moved.delta))}元`;
    let balances: { principal: number; gift: number } | undefined;
    if (to === 1) {
      const w = await lockWallet(tx, moved.walletId);
      if (w.status === 0) throw fail('钱包已注销，不能调账');
      const after = await post(tx, w, [{ type: 5, principalDelta: moved.bucket === 1 ? moved.delta : 0, giftDelta: moved.bucket === 2 ? moved.delta : 0, refKind: 'adjust', refId: moved.id, by: me }], now);
      balances = { principal: after.principal, gift: after.gift };
    }
    const type: OperationType = to === 1 ? 'WALLET_ADJUST_CHECK' : to === 2 ? 'WALLET_ADJUST_REJECT' : 'WALLET_ADJUST_WITHDRAW';
    const verb = to === 1 ? '复核通过' : to === 2 ? '驳回' : '撤回';
    await audit(tx, a.actor, { type, targetDistrictId: moved.districtId, target: `wallet-adjust/${moved.id}`, summary: `${verb}人工调账：${what}${body.reason ? `，意见：${body.reason}` : ''}`, before: { status: 0 }, after: { status: to, ...balances } }, now);
    return loadAdjustment(deps, tx, moved.id);
  });
}

// ================================================================ setting

const settingDto = (s: Setting) => ({
  minFen: s.minFen,
  maxFen: s.maxFen,
  balanceCapFen: s.balanceCapFen,
  dailyTimes: s.dailyTimes,
  dailyFen: s.dailyFen,
  consumeOrder: s.consumeOrder,
  giftRefundable: s.giftRefundable,
  adjustSingleMaxFen: s.adjustSingleMaxFen,
  unpaidTimeoutMinutes: s.unpaidTimeoutMinutes,
  updatedDate: s.updatedAt ? iso(s.updatedAt) : null,
  rowVersion: s.rowVersion,
});

export const querySetting = async (deps: AppDeps) => settingDto(await settingOf(deps.db));

/** 储值设置: city-wide, so the super user's alone; the row is made on the first save. */
export async function saveSetting(deps: AppDeps, a: AuthContext, body: z.output<typeof api.settingSave.body>) {
  if (!isSuperUser(a)) throw forbidden('储值设置全市统一，只有超级管理员可以修改');
  if (body.minFen > body.maxFen) throw failOn('maxFen', '单笔最高充值不能低于单笔最低充值');
  if (body.balanceCapFen < body.maxFen) throw failOn('balanceCapFen', '余额上限不能低于单笔最高充值');
  if (body.dailyFen < body.minFen) throw failOn('dailyFen', '每日充值金额不能低于单笔最低充值');
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7302, 1)`);
    const before = await settingOf(tx);
    await checkVersion({ rowVersion: before.rowVersion }, before.updatedAt === null ? undefined : body.rowVersion, () => settingDto(before));
    const { rowVersion: _v, ...values } = body;
    void _v;
    await tx
      .insert(rechargeSettings)
      .values({ id: 1, ...values, updatedAt: now })
      .onConflictDoUpdate({ target: rechargeSettings.id, set: { ...values, updatedAt: now, rowVersion: nextVersion(rechargeSettings.rowVersion) } });
    const after = settingDto(await settingOf(tx));
    await audit(tx, a.actor, { type: 'RECHARGE_SETTING_SAVE', targetDistrictId: null, target: 'recharge-setting/1', summary: `保存储值设置：单笔${yuan(body.minFen)}–${yuan(body.maxFen)}元，余额上限${yuan(body.balanceCapFen)}元，单笔调账上限${yuan(body.adjustSingleMaxFen)}元`, before: settingDto(before), after }, now);
    return after;
  });
}
