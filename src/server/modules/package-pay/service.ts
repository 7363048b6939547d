import { and, count, eq, gte, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import * as pkg from '../../../shared/api/package-pay';
import { FULL_REFUND_DAYS, PACKAGE_AGREEMENT, PACKAGE_ORDER_STATUS, PACKAGE_STATUS, PAY_TIMEOUT_MINUTES, type PackageOrderStatus, type PackageStatus } from '../../../shared/api/package-pay';
import { fenToYuan } from '../../../shared/domain/money';
import { maskInText, maskPhone } from '../../../shared/domain/mask';
import { DAY_MS, addDays, shanghaiDate, shanghaiDateTime, shanghaiMidnight } from '../../../shared/domain/time';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { type Actor, audit } from '../../lib/audit';
import { fail, failOn, isUniqueViolation, notFound } from '../../lib/errors';
import { type ExportScope, computedRows, defineExport, listRows } from '../../lib/export-definition';
import { type ListContext, listService } from '../../lib/list';
import { paged } from '../../lib/paging';
import { type MoneyRefund, recordRefund, refundByKey, refundsOf, settleRefund } from '../../lib/refund-ledger';
import { checkVersion, nextVersion } from '../../lib/row-version';
import { assertInScope } from '../../lib/scope';
import { contains, iso } from '../../lib/sql';
import { moveStatus } from '../../lib/transition';
import { type PackageSnapshot, packageOrders, packageUsages, packages } from './schema';

type Scope = Pick<AuthContext, 'districtScope'>;
type SaveBody = z.output<typeof pkg.packageSave.body>;
type StatusBody = z.output<typeof pkg.packageUpdateStatus.body>;
type RefundBody = z.output<typeof pkg.packageOrderRefund.body>;
type OrderFilters = z.output<typeof pkg.packageOrderTotal.query>;
type ExportFilters = z.output<typeof pkg.packageOrderExport.query>;
type SummaryFilters = z.output<typeof pkg.packageSummaryTotal.query>;
type SummaryPageQuery = z.output<typeof pkg.packageSummaryPage.query>;

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const num = (v: unknown) => Number(v ?? 0);
const SYSTEM_ACTOR: Actor = { id: null, login: 'system', districtId: null, ip: null };
const yuan = (fen: number) => fen / 100;

// ---------------------------------------------------------------- packages

const packageColumns = {
  p: packages,
  districtName: t.districts.name,
  orders: sql<number>`(select count(*) from package_orders po where po.package_id = ${packages.id})`.mapWith(Number),
};
type PackageSelected = { p: typeof packages.$inferSelect; districtName: string | null; orders: number };

const selectPackages = (db: Db) => db.select(packageColumns).from(packages).leftJoin(t.districts, eq(t.districts.id, packages.districtId));

const packageDto = (r: PackageSelected) => ({
  id: r.p.id,
  districtId: r.p.districtId,
  districtName: r.districtName,
  name: r.p.name,
  price: r.p.price,
  originalPrice: r.p.originalPrice,
  rides: r.p.rides,
  validDays: r.p.validDays,
  lineScope: r.p.lineScope ?? null,
  dailyLimit: r.p.dailyLimit,
  perUserLimit: r.p.perUserLimit,
  saleStart: iso(r.p.saleStart),
  saleEnd: iso(r.p.saleEnd),
  stock: r.p.stock,
  sold: r.p.sold,
  status: PACKAGE_STATUS.schema.parse(r.p.status),
  sort: r.p.sort,
  description: r.p.description,
  orders: r.orders,
  createdDate: iso(r.p.createdAt),
  updatedDate: iso(r.p.updatedAt),
  rowVersion: r.p.rowVersion,
});
export type PackageDto = ReturnType<typeof packageDto>;

/** 套餐管理: the area's packages by name and status, by their sort then newest. */
const packageList = listService({
  endpoint: pkg.packagePage,
  select: selectPackages,
  count: (db) => db.select({ n: count() }).from(packages),
  scope: packages.districtId,
  filters: {
    name: (name) => contains(packages.name, name),
    status: (status) => eq(packages.status, status),
  },
  sorts: { sort: packages.sort, createdDate: packages.createdAt, price: packages.price },
  order: { column: packages.sort, dir: 'asc' },
  key: { column: packages.id, of: (r) => r.p.id },
  dto: (r) => packageDto(r),
});

export const pagePackages = (deps: AppDeps, a: AuthContext, q: z.output<typeof pkg.packagePage.query>) => packageList.page(deps, a, q);

export async function packageTotals(deps: AppDeps, a: AuthContext, q: z.output<typeof pkg.packageTotal.query>) {
  const rows = await deps.db
    .select({ status: packages.status, n: count(), sold: sql<number>`coalesce(sum(${packages.sold}), 0)`.mapWith(Number) })
    .from(packages)
    .where(packageList.where(deps, a, { ...q, status: undefined }))
    .groupBy(packages.status);
  const of = (s: number) => rows.find((r) => r.status === s)?.n ?? 0;
  return { total: rows.reduce((s, r) => s + r.n, 0), draft: of(0), onSale: of(1), offSale: of(2), sold: rows.reduce((s, r) => s + r.sold, 0) };
}

type PackageFilters = z.output<typeof pkg.packageExport.query>;

export const packagesExport = defineExport({
  id: 'packagePay.packages',
  permission: pkg.packageExport.permission,
  sheet: '套餐',
  columns: [
    { header: '套餐ID', width: 8, cell: (p: PackageDto) => p.id },
    { header: '套餐名称', width: 16, cell: (p) => p.name },
    { header: '区域', width: 10, cell: (p) => p.districtName },
    { header: '售价（元）', width: 10, cell: (p) => yuan(p.price) },
    { header: '原价（元）', width: 10, cell: (p) => yuan(p.originalPrice) },
    { header: '次数', width: 6, cell: (p) => p.rides },
    { header: '有效天数', width: 8, cell: (p) => p.validDays },
    { header: '适用线路', width: 20, cell: (p) => (p.lineScope ? p.lineScope.join('、') : '全部线路') },
    { header: '每日限用', width: 8, cell: (p) => p.dailyLimit },
    { header: '每人限购', width: 8, cell: (p) => p.perUserLimit },
    { header: '开售时间', width: 20, cell: (p) => shanghaiDateTime(p.saleStart) },
    { header: '停售时间', width: 20, cell: (p) => shanghaiDateTime(p.saleEnd) },
    { header: '库存', width: 8, cell: (p) => (p.stock === null ? '不限' : p.stock) },
    { header: '已售', width: 8, cell: (p) => p.sold },
    { header: '状态', width: 8, cell: (p) => PACKAGE_STATUS.label(p.status) },
    { header: '订单数', width: 8, cell: (p) => p.orders },
    { header: '更新时间', width: 20, cell: (p) => shanghaiDateTime(p.updatedDate) },
  ],
  rows: listRows(packageList, (q: PackageFilters) => q),
  audit: { operation: 'PACKAGE_EXPORT' },
});

export const packageExportTitle = (q: PackageFilters) => ['套餐', q.status !== undefined ? PACKAGE_STATUS.label(q.status) : ''].filter(Boolean).join(' ');

async function loadPackage(db: Db, id: number) {
  const [r] = await selectPackages(db).where(eq(packages.id, id));
  if (!r) throw notFound('套餐不存在');
  return packageDto(r);
}

export async function packageById(deps: AppDeps, a: AuthContext, id: number) {
  const p = await loadPackage(deps.db, id);
  assertInScope(a, p.districtId);
  return p;
}

async function lockPackage(tx: Db, a: Scope, id: number) {
  const [row] = await tx.select().from(packages).where(eq(packages.id, id)).for('update');
  if (!row) throw notFound('套餐不存在');
  assertInScope(a, row.districtId);
  return row;
}

const scopeOf = (lines: readonly string[] | null | undefined) => {
  const unique = [...new Set((lines ?? []).map((l) => l.trim()).filter(Boolean))];
  return unique.length ? unique : null;
};

/**
 * 新增套餐 / 编辑套餐: a draft or an off-sale package changes freely; one on sale keeps its price,
 * rides and valid days (its buyers' orders hold a snapshot anyway, but the mini-program's listing
 * and the orders made a second before would disagree), so those wait for 下架.
 */
export async function savePackage(deps: AppDeps, a: AuthContext, body: SaveBody) {
  const now = deps.clock.now();
  const fields = {
    name: body.name,
    price: body.price,
    originalPrice: body.originalPrice,
    rides: body.rides,
    validDays: body.validDays,
    lineScope: scopeOf(body.lineScope),
    dailyLimit: body.dailyLimit,
    perUserLimit: body.perUserLimit,
    saleStart: new Date(body.saleStart),
    saleEnd: new Date(body.saleEnd),
    stock: body.stock ?? null,
    sort: body.sort,
    description: body.description,
  };
  return deps.db.transaction(async (tx) => {
    if (body.id === undefined) {
      const districtId = a.districtScope ?? body.districtId;
      if (!districtId) throw failOn('districtId', '请选择套餐所属区域');
      const [row] = await tx
        .insert(packages)
        .values({ ...fields, districtId, status: 0, sold: 0, createdBy: a.user.id, createdAt: now, updatedAt: now })
        .returning({ id: packages.id });
      const after = await loadPackage(tx, row!.id);
      await audit(tx, a.actor, { type: 'PACKAGE_SAVE', targetDistrictId: districtId, target: `package/${row!.id}`, summary: `新增套餐「${body.name}」：${fenToYuan(body.price)}元 ${body.rides}次 ${body.validDays}天`, after }, now);
      return after;
    }
    const row = await lockPackage(tx, a, body.id);
    const before = await loadPackage(tx, row.id);
    await checkVersion(row, body.rowVersion, () => before);
    if (row.status === 1 && (row.price !== body.price || row.rides !== body.rides || row.validDays !== body.validDays)) throw fail('在售套餐不能修改价格、次数和有效期，请先下架');
    await tx
      .update(packages)
      .set({ ...fields, updatedAt: now, rowVersion: nextVersion(packages.rowVersion) })
      .where(eq(packages.id, row.id));
    const after = await loadPackage(tx, row.id);
    await audit(tx, a.actor, { type: 'PACKAGE_SAVE', targetDistrictId: row.districtId, target: `package/${row.id}`, summary: `编辑套餐「${body.name}」`, before, after }, now);
    return after;
  });
}

/** The area's 套餐协议 (bus/agreement, code 'package'): the one buyers accept, and its version. */
async function agreementOf(db: Db, districtId: number) {
  const [row] = await db
    .select({ id: t.agreements.id, rowVersion: t.agreements.rowVersion })
    .from(t.agreements)
    .where(and(eq(t.agreements.districtId, districtId), eq(t.agreements.code, PACKAGE_AGREEMENT)));
  return row ?? null;
}

/** 上架 / 下架 / 重新上架: one guarded move from the status the operator saw, audited in its transaction. */
export async function updatePackageStatus(deps: AppDeps, a: AuthContext, body: StatusBody) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockPackage(tx, a, body.id);
    const what = `套餐「${row.name}」`;
    if (body.toStatus === 1 && row.status === body.fromStatus && PACKAGE_STATUS.can(row.status as PackageStatus, 1)) {
      if (!(await agreementOf(tx, row.districtId))) throw fail('请先设置套餐协议再上架');
      if (row.saleEnd.getTime() <= now.getTime()) throw fail('销售结束时间已过，请先修改销售时间再上架');
    }
    const { from } = await moveStatus(tx, {
      flow: PACKAGE_STATUS,
      table: packages,
      key: packages.id,
      id: row.id,
      status: packages.status,
      from: body.fromStatus,
      to: body.toStatus,
      set: { status: body.toStatus, updatedAt: now },
      what,
      version: { column: packages.rowVersion, sent: body.rowVersion, current: () => loadPackage(tx, row.id) },
    });
    const after = await loadPackage(tx, row.id);
    const verb = body.toStatus === 1 ? (from === 2 ? '重新上架' : '上架') : '下架';
    await audit(
      tx,
      a.actor,
      { type: body.toStatus === 1 ? 'PACKAGE_PUBLISH' : 'PACKAGE_UNPUBLISH', targetDistrictId: row.districtId, target: `package/${row.id}`, summary: `${verb}${what}${body.reason ? `：${body.reason}` : ''}`, before: { status: from }, after: { status: after.status } },
      now,
    );
    return after;
  });
}

/** 删除: a draft or an off-sale package that never had an order; one with orders is taken off sale instead. */
export async function deletePackage(deps: AppDeps, a: AuthContext, id: number) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockPackage(tx, a, id);
    if (row.status === 1) throw fail('在售套餐不能删除，请先下架');
    const [orders] = await tx.select({ n: count() }).from(packageOrders).where(eq(packageOrders.packageId, id));
    if ((orders?.n ?? 0) > 0) throw fail('该套餐已有订单，不能删除，请下架');
    const before = await loadPackage(tx, id);
    await tx.delete(packages).where(and(eq(packages.id, id), inArray(packages.status, [0, 2])));
    await audit(tx, a.actor, { type: 'PACKAGE_DELETE', targetDistrictId: row.districtId, target: `package/${id}`, summary: `删除套餐「${row.name}」`, before }, now);
    return { id };
  });
}

// ---------------------------------------------------------------- orders

const orderColumns = { o: packageOrders, packageName: packages.name, phoneEnc: t.riders.phoneEnc };
type OrderSelected = { o: typeof packageOrders.$inferSelect; packageName: string; phoneEnc: string | null };

const selectOrders = (db: Db) =>
  db.select(orderColumns).from(packageOrders).innerJoin(packages, eq(packages.id, packageOrders.packageId)).leftJoin(t.riders, eq(t.riders.id, packageOrders.riderId));

const orderDto = (deps: Pick<AppDeps, 'pii'>, r: OrderSelected) => ({
  id: r.o.id,
  orderNo: r.o.orderNo,
  districtId: r.o.districtId,
  riderId: r.o.riderId,
  riderPhone: r.phoneEnc ? maskPhone(deps.pii.decrypt(r.phoneEnc)) : null,
  packageId: r.o.packageId,
  packageName: r.o.snapshot.name ?? r.packageName,
  amount: r.o.amount,
  rides: r.o.rides,
  usedRides: r.o.usedRides,
  payStatus: pkg.PACKAGE_PAY_STATUS.schema.parse(r.o.payStatus),
  status: PACKAGE_ORDER_STATUS.schema.parse(r.o.status),
  createdDate: iso(r.o.createdAt),
  paidDate: r.o.paidAt ? iso(r.o.paidAt) : null,
  effectiveDate: r.o.effectiveAt ? iso(r.o.effectiveAt) : null,
  expireDate: r.o.expireAt ? iso(r.o.expireAt) : null,
  refundAmount: r.o.refundAmount,
  refundedDate: r.o.refundedAt ? iso(r.o.refundedAt) : null,
  agreementVersion: r.o.agreementVersion,
});
export type PackageOrderDto = ReturnType<typeof orderDto>;

const digits = (s: string) => s.replace(/[\s-]/g, '');

/** 套餐订单: the area's orders by number, the rider's phone (blind index), package, status and time; newest first. */
const orderList = listService({
  endpoint: pkg.packageOrderPage,
  select: selectOrders,
  count: (db) => db.select({ n: count() }).from(packageOrders),
  scope: packageOrders.districtId,
  filters: {
    orderNo: (orderNo) => eq(packageOrders.orderNo, orderNo),
    phone: (phone, _q, _a, deps) => sql`${packageOrders.riderId} in (select id from riders where phone_idx = ${deps.pii.index('phone', digits(phone))})`,
    packageId: (packageId) => eq(packageOrders.packageId, packageId),
    status: (status) => eq(packageOrders.status, status),
    startTime: (from) => gte(packageOrders.createdAt, new Date(from)),
    endTime: (to) => lte(packageOrders.createdAt, new Date(to)),
  },
  sorts: { createdDate: packageOrders.createdAt, amount: packageOrders.amount },
  order: { column: packageOrders.createdAt, dir: 'desc' },
  key: { column: packageOrders.id, of: (r) => r.o.id },
  dto: (r, { deps }: ListContext<ExportScope>) => orderDto(deps, r),
});

export const pageOrders = (deps: AppDeps, a: AuthContext, q: z.output<typeof pkg.packageOrderPage.query>) => orderList.page(deps, a, q);

export async function orderTotals(deps: AppDeps, a: AuthContext, q: OrderFilters) {
  const o = packageOrders;
  const [r] = await deps.db
    .select({
      orders: count(),
      paidAmount: sql<number>`coalesce(sum(${o.amount}) filter (where ${o.payStatus} in (1, 2)), 0)`.mapWith(Number),
      active: sql<number>`count(*) filter (where ${o.status} = 1)`.mapWith(Number),
      refunded: sql<number>`count(*) filter (where ${o.status} = 4)`.mapWith(Number),
      refundAmount: sql<number>`coalesce(sum(${o.refundAmount}), 0)`.mapWith(Number),
      usedRides: sql<number>`coalesce(sum(${o.usedRides}), 0)`.mapWith(Number),
    })
    .from(o)
    .where(orderList.where(deps, a, q));
  return { orders: r?.orders ?? 0, paidAmount: r?.paidAmount ?? 0, active: r?.active ?? 0, refunded: r?.refunded ?? 0, refundAmount: r?.refundAmount ?? 0, usedRides: r?.usedRides ?? 0 };
}

async function loadOrder(deps: Pick<AppDeps, 'pii'>, db: Db, id: number) {
  const [r] = await selectOrders(db).where(eq(packageOrders.id, id));
  if (!r) throw notFound('订单不存在');
  return { row: r.o, order: orderDto(deps, r) };
}

const refundDto = (r: MoneyRefund) => ({ id: r.id, amount: r.amount, reason: maskInText(r.reason), state: r.state, failReason: r.failReason, createdDate: iso(r.createdAt), settledDate: r.settledAt ? iso(r.settledAt) : null });

export async function orderMsg(deps: AppDeps, a: AuthContext, id: number) {
  const { row, order } = await loadOrder(deps, deps.db, id);
  assertInScope(a, row.districtId);
  const usages = await deps.db.select().from(packageUsages).where(eq(packageUsages.orderId, id)).orderBy(packageUsages.rideAt, packageUsages.id);
  const refunds = await refundsOf(deps.db, 'package', id);
  const s = row.snapshot;
  return {
    ...order,
    snapshot: { name: s.name, price: s.price, originalPrice: s.originalPrice, rides: s.rides, validDays: s.validDays, lineScope: s.lineScope ?? null, dailyLimit: s.dailyLimit },
    usages: usages.map((u) => ({ id: u.id, rideRecordId: u.rideRecordId, rideDate: iso(u.rideAt), lineCode: u.lineCode, busNo: u.busNo, singleFare: u.singleFare })),
    refunds: refunds.map(refundDto),
  };
}

/** Σ the single fares of an order's rides: what a refund that is not in full keeps back. */
async function usedFareOf(db: Db, orderId: number) {
  const [r] = await db.select({ fare: sql<number>`coalesce(sum(${packageUsages.singleFare}), 0)`.mapWith(Number) }).from(packageUsages).where(eq(packageUsages.orderId, orderId));
  return r?.fare ?? 0;
}

type OrderRow = typeof packageOrders.$inferSelect;

/**
 * The refund rule (second wave §7): nothing used and at most 7 days since payment → in full; else
 * the amount less the used rides' single fares, never below zero. Only an active order is refunded:
 * 已用完 and 已过期 are refused with the design's words.
 */
export function refundTerms(o: Pick<OrderRow, 'status' | 'amount' | 'usedRides' | 'paidAt' | 'expireAt'>, usedFare: number, now: Date) {
  const refusal =
    o.status === 2
      ? '套餐已用完，不能退款'
      : o.status === 3 || (o.status === 1 && o.expireAt && o.expireAt.getTime() <= now.getTime())
        ? '套餐已过期，不能退款'
        : o.status === 4
          ? '订单已退款，不能重复退款'
          : o.status !== 1
            ? '订单未支付，不能退款'
            : null;
  const withinDays = !!o.paidAt && now.getTime() - o.paidAt.getTime() <= FULL_REFUND_DAYS * DAY_MS;
  const full = o.usedRides === 0 && withinDays;
  const refundable = refusal ? 0 : full ? o.amount : Math.max(0, o.amount - usedFare);
  const rule = full
    ? `未使用且购买不满${FULL_REFUND_DAYS}天，全额退款`
    : `已用${o.usedRides}次，按单程票价扣除 ${fenToYuan(usedFare)} 元${o.usedRides === 0 ? `（购买已超过${FULL_REFUND_DAYS}天）` : ''}，可退 ${fenToYuan(refundable)} 元`;
  return { full, refundable, rule, refusal };
}

export async function refundPreview(deps: AppDeps, a: AuthContext, id: number) {
  const { row } = await loadOrder(deps, deps.db, id);
  assertInScope(a, row.districtId);
  const usedFare = await usedFareOf(deps.db, id);
  const terms = refundTerms(row, usedFare, deps.clock.now());
  return { id: row.id, orderNo: row.orderNo, amount: row.amount, usedRides: row.usedRides, usedFare, ...terms };
}

/** The answer a refund gave, for a retry with the same key (after settling it, if it still waits). */
async function replayRefund(deps: AppDeps, a: AuthContext, orderId: number, key: string) {
  const done = await refundByKey(deps.db, 'package', orderId, key);
  if (!done) return null;
  const { row, order } = await loadOrder(deps, deps.db, orderId);
  assertInScope(a, row.districtId);
  return { order, refund: refundDto(done), replayed: true };
}

/**
 * 套餐退款, exactly once: a retry with the same key gets the first answer. The order is locked first,
 * so a ride racing the refund either lands before (and is deducted) or finds the order refunded; the
 * refundable amount is computed on that locked count. The guarded move 1 → 4, the ledger row (unique
 * per order and per key) and the audit row commit together; the channel is asked after the commit.
 */
export async function refundOrder(deps: AppDeps, a: AuthContext, body: RefundBody) {
  const earlier = await replayRefund(deps, a, body.id, body.idempotencyKey);
  if (earlier) return earlier;
  const now = deps.clock.now();
  let refundId: number;
  try {
    refundId = await deps.db.transaction(async (tx) => {
      const [current] = await tx.select().from(packageOrders).where(eq(packageOrders.id, body.id)).for('update');
      if (!current) throw notFound('订单不存在');
      assertInScope(a, current.districtId);
      const usedFare = await usedFareOf(tx, current.id);
      const terms = refundTerms(current, usedFare, now);
      if (terms.refusal) throw fail(terms.refusal);
      if (body.amount > terms.refundable) throw failOn('amount', `退款金额不能超过可退金额（${fenToYuan(terms.refundable)}元）`);
      const what = `套餐订单 ${current.orderNo}`;
      await moveStatus(tx, {
        flow: PACKAGE_ORDER_STATUS,
        table: packageOrders,
        key: packageOrders.id,
        id: current.id,
        status: packageOrders.status,
        from: 1,
        to: 4,
        set: { status: 4, payStatus: 2, refundAmount: body.amount, refundedAt: now, updatedAt: now },
        what,
      });
      const refund = await recordRefund(tx, {
        kind: 'package',
        orderId: current.id,
        districtId: current.districtId,
        orderNo: current.orderNo,
        amount: body.amount,
        // A reason may quote the caller's number (decision 83): the ledger keeps it masked, as the log does.
        reason: maskInText(body.reason),
        idempotencyKey: body.idempotencyKey,
        operatorId: a.actor.id,
        now,
      });
      await audit(
        tx,
        a.actor,
        {
          type: 'PACKAGE_ORDER_REFUND',
          targetDistrictId: current.districtId,
          target: `package-order/${current.id}`,
          summary: `${what}退款 ${fenToYuan(body.amount)} 元（${terms.rule}）：${body.reason}`,
          before: { status: current.status, usedRides: current.usedRides },
          after: { status: 4, refundAmount: body.amount, refund: refund.id },
        },
        now,
      );
      return refund.id;
    });
  } catch (err) {
    // The same key racing itself: the other request committed first; answer as it did.
    if (isUniqueViolation(err) || (err instanceof Error && /已退款/.test(err.message))) {
      const again = await replayRefund(deps, a, body.id, body.idempotencyKey);
      if (again) return again;
    }
    throw err;
  }
  const settled = await settleRefund(deps, refundId);
  const { order } = await loadOrder(deps, deps.db, body.id);
  const [refund] = settled ? [settled] : await deps.db.select().from(t.moneyRefunds).where(eq(t.moneyRefunds.id, refundId));
  return { order, refund: refundDto(refund!), replayed: false };
}

/** The export task's title: 套餐订单, with the status chosen. */
export const orderExportTitle = (q: ExportFilters) => ['套餐订单', q.status !== undefined ? PACKAGE_ORDER_STATUS.label(q.status) : ''].filter(Boolean).join(' ');

export const ordersExport = defineExport({
  id: 'packagePay.orders',
  permission: pkg.packageOrderExport.permission,
  sheet: '套餐订单',
  columns: [
    { header: '订单号', width: 22, cell: (o: PackageOrderDto) => o.orderNo },
    { header: '套餐', width: 16, cell: (o) => o.packageName },
    { header: '手机号', width: 14, mask: 'phone', cell: (o) => o.riderPhone },
    { header: '金额（元）', width: 10, cell: (o) => yuan(o.amount) },
    { header: '次数', width: 8, cell: (o) => o.rides },
    { header: '已用', width: 8, cell: (o) => o.usedRides },
    { header: '状态', width: 8, cell: (o) => PACKAGE_ORDER_STATUS.label(o.status) },
    { header: '下单时间', width: 20, cell: (o) => shanghaiDateTime(o.createdDate) },
    { header: '生效时间', width: 20, cell: (o) => (o.effectiveDate ? shanghaiDateTime(o.effectiveDate) : '') },
    { header: '到期时间', width: 20, cell: (o) => (o.expireDate ? shanghaiDateTime(o.expireDate) : '') },
    { header: '退款金额（元）', width: 12, cell: (o) => yuan(o.refundAmount) },
  ],
  rows: listRows(orderList),
  audit: { operation: 'PACKAGE_EXPORT' },
});

// ---------------------------------------------------------------- summary

/** The days asked for (Shanghai, inclusive), the last 30 without them; at most 366. */
function dayRange(deps: AppDeps, q: SummaryFilters) {
  const today = shanghaiDate(deps.clock.now());
  const end = q.endDate ?? today;
  const start = q.startDate ?? addDays(end, -29);
  if (start > end) throw failOn('startDate', '开始日期不能晚于结束日期');
  if (Date.parse(end) - Date.parse(start) > 366 * DAY_MS) throw failOn('startDate', '日期范围不能超过366天');
  return { from: shanghaiMidnight(start), to: shanghaiMidnight(addDays(end, 1)) };
}

/** Per package and Shanghai day: sold (by payment), refunds (by refund), rides (by ride). */
function dayRows(deps: AppDeps, a: Scope, q: SummaryFilters) {
  const { from, to } = dayRange(deps, q);
  const area = a.districtScope === null ? sql`true` : sql`o.district_id = ${a.districtScope}`;
  const one = q.packageId === undefined ? sql`true` : sql`o.package_id = ${q.packageId}`;
  const local = (col: SQL) => sql`((${col}) at time zone 'Asia/Shanghai')::date`;
  return sql`
    s as (select o.package_id, ${local(sql`o.paid_at`)} as day, count(*)::int as sold, sum(o.amount)::bigint as amount
          from package_orders o where o.pay_status in (1, 2) and o.paid_at >= ${from} and o.paid_at < ${to} and ${area} and ${one} group by 1, 2),
    r as (select o.package_id, ${local(sql`o.refunded_at`)} as day, count(*)::int as refunds, sum(o.refund_amount)::bigint as refund_amount
          from package_orders o where o.status = 4 and o.refunded_at >= ${from} and o.refunded_at < ${to} and ${area} and ${one} group by 1, 2),
    u as (select o.package_id, ${local(sql`u.ride_at`)} as day, count(*)::int as rides
          from package_usages u join package_orders o on o.id = u.order_id where u.ride_at >= ${from} and u.ride_at < ${to} and ${area} and ${one} group by 1, 2),
    k as (select package_id, day from s union select package_id, day from r union select package_id, day from u)`;
}

type DayRow = { day: string; package_id: number; name: string; sold: number; amount: string; refunds: number; refund_amount: string; rides: number };
const dayDto = (r: DayRow) => ({ day: String(r.day).slice(0, 10), packageId: num(r.package_id), packageName: r.name, sold: num(r.sold), amount: num(r.amount), refunds: num(r.refunds), refundAmount: num(r.refund_amount), ridesUsed: num(r.rides) });

async function readDays(db: Db, ctes: SQL, dir: 'asc' | 'desc', limit: number, offset: number) {
  const res = await db.execute(sql`with ${ctes}
    select to_char(k.day, 'YYYY-MM-DD') as day, k.package_id, p.name, coalesce(s.sold, 0) as sold, coalesce(s.amount, 0) as amount,
           coalesce(r.refunds, 0) as refunds, coalesce(r.refund_amount, 0) as refund_amount, coalesce(u.rides, 0) as rides
    from k join packages p on p.id = k.package_id
    left join s on s.package_id = k.package_id and s.day = k.day
    left join r on r.package_id = k.package_id and r.day = k.day
    left join u on u.package_id = k.package_id and u.day = k.day
    order by k.day ${dir === 'asc' ? sql`asc` : sql`desc`}, p.sort, k.package_id limit ${limit} offset ${offset}`);
  return rowsOf<DayRow>(res).map(dayDto);
}

export async function summaryPage(deps: AppDeps, a: AuthContext, q: SummaryPageQuery) {
  const ctes = dayRows(deps, a, q);
  const dir = q.sort === 'day,asc' ? 'asc' : 'desc';
  return paged(
    q,
    (limit, offset) => readDays(deps.db, ctes, dir, limit, offset),
    async () => rowsOf<{ n: number }>(await deps.db.execute(sql`with ${ctes} select count(*)::int as n from k`)),
  );
}

export async function summaryTotals(deps: AppDeps, a: AuthContext, q: SummaryFilters) {
  const ctes = dayRows(deps, a, q);
  const [r] = rowsOf<{ sold: string; amount: string; refunds: string; refund_amount: string; rides: string }>(
    await deps.db.execute(sql`with ${ctes} select (select coalesce(sum(sold), 0) from s) as sold, (select coalesce(sum(amount), 0) from s) as amount,
      (select coalesce(sum(refunds), 0) from r) as refunds, (select coalesce(sum(refund_amount), 0) from r) as refund_amount, (select coalesce(sum(rides), 0) from u) as rides`),
  );
  const amount = num(r?.amount);
  const refundAmount = num(r?.refund_amount);
  return { sold: num(r?.sold), amount, refunds: num(r?.refunds), refundAmount, ridesUsed: num(r?.rides), net: amount - refundAmount };
}

export const summaryExport = defineExport({
  id: 'packagePay.summary',
  permission: pkg.packageSummaryExport.permission,
  sheet: '套餐汇总',
  columns: [
    { header: '日期', width: 12, cell: (r: ReturnType<typeof dayDto>) => r.day },
    { header: '套餐', width: 16, cell: (r) => r.packageName },
    { header: '售出', width: 8, cell: (r) => r.sold },
    { header: '销售额（元）', width: 12, cell: (r) => yuan(r.amount) },
    { header: '退款笔数', width: 10, cell: (r) => r.refunds },
    { header: '退款金额（元）', width: 12, cell: (r) => yuan(r.refundAmount) },
    { header: '使用次数', width: 10, cell: (r) => r.ridesUsed },
  ],
  // At most 366 days × the area's packages: computed whole.
  rows: computedRows(({ deps, scope }, q: SummaryFilters) => readDays(deps.db, dayRows(deps, scope, q), 'desc', 1_000_000, 0)),
  audit: { operation: 'PACKAGE_EXPORT' },
});

/** The share `part / whole` in ‰, rounded; null without a whole. */
const permille = (part: number, whole: number) => (whole > 0 ? Math.round((part * 1000) / whole) : null);
/** How many ‰ deeper than meant a full-use discount may be before the package is flagged. */
const UNDERCUT_MARGIN = 50;

/**
 * ★ 套餐体检: per package, what its buyers paid (refunds deducted) against the single fares of the rides
 * they took; the breakage (rides bought, never taken, expired); the finished orders whose buyer paid
 * more than singles would have cost; and `undercut` when a rider who uses every ride, on the lines
 * they actually ride, gets ≥ 5 points more off than price / originalPrice meant.
 */
export async function packageHealth(deps: AppDeps, a: AuthContext, q: z.output<typeof pkg.packageSummaryHealth.query>) {
  const area = a.districtScope === null ? sql`true` : sql`p.district_id = ${a.districtScope}`;
  const one = q.packageId === undefined ? sql`true` : sql`p.id = ${q.packageId}`;
  const res = await deps.db.execute(sql`
    with f as (select u.order_id, sum(u.single_fare)::bigint as fare from package_usages u group by u.order_id),
    o as (select o.id, o.package_id, o.amount - o.refund_amount as paid, o.used_rides, o.rides, o.status, coalesce(f.fare, 0) as would
          from package_orders o left join f on f.order_id = o.id where o.pay_status in (1, 2))
    select p.id, p.name, p.status, p.price, p.original_price, p.rides, count(o.id)::int as orders,
      coalesce(sum(o.paid), 0)::bigint as paid, coalesce(sum(o.used_rides), 0)::bigint as used, coalesce(sum(o.would), 0)::bigint as would,
      coalesce(sum(o.rides - o.used_rides) filter (where o.status = 3), 0)::bigint as breakage,
      count(o.id) filter (where o.status in (2, 3, 4))::int as finished,
      count(o.id) filter (where o.status in (2, 3, 4) and o.paid > o.would)::int as lost
    from packages p left join o on o.package_id = p.id
    where ${area} and ${one}
    group by p.id order by p.sort, p.id`);
  type H = { id: number; name: string; status: number; price: number; original_price: number; rides: number; orders: number; paid: string; used: string; would: string; breakage: string; finished: number; lost: number };
  const rows = rowsOf<H>(res).map((r) => {
    const paid = num(r.paid);
    const used = num(r.used);
    const would = num(r.would);
    const intendedRate = permille(num(r.price), num(r.original_price)) ?? 1000;
    const avgFare = used > 0 ? would / used : null;
    const fullUseRate = avgFare ? Math.round((num(r.price) * 1000) / (num(r.rides) * avgFare)) : null;
    return {
      packageId: num(r.id),
      packageName: r.name,
      status: PACKAGE_STATUS.schema.parse(num(r.status)),
      price: num(r.price),
      originalPrice: num(r.original_price),
      rides: num(r.rides),
      orders: num(r.orders),
      paid,
      ridesUsed: used,
      wouldPay: would,
      paidPerRide: used > 0 ? Math.round(paid / used) : null,
      realRate: permille(paid, would),
      intendedRate,
      fullUseRate,
      breakageRides: num(r.breakage),
      lostShare: permille(num(r.lost), num(r.finished)),
      finished: num(r.finished),
      undercut: fullUseRate !== null && fullUseRate < intendedRate - UNDERCUT_MARGIN,
    };
  });
  return { rows };
}

// ---------------------------------------------------------------- the rider side (service functions)

/** The advisory lock space of one rider's purchases (perUserLimit counted under it). */
const BUY_LOCK = 7_311;

const orderNoOf = (now: Date, n: number) => `PK${shanghaiDateTime(now).replace(/\D/g, '')}${String(n).padStart(6, '0')}`;

/**
 * A rider buys a package (the mini-program's call): on sale, inside its sale window, within the
 * rider's limit of orders held at once (counted under the rider's advisory lock), and while stock
 * lasts (`stock = stock - 1 where stock > 0` in the same guarded update that counts it sold, so the
 * last one is sold once). The order waits for payment (待支付) with its snapshot and agreement version.
 */
export async function buyPackage(deps: Pick<AppDeps, 'db' | 'clock'>, input: { riderId: number; packageId: number }) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${BUY_LOCK}, ${input.riderId})`);
    const [p] = await tx.select().from(packages).where(eq(packages.id, input.packageId));
    if (!p) throw notFound('套餐不存在');
    if (p.status !== 1) throw fail('套餐未在售');
    if (p.saleStart.getTime() > now.getTime() || p.saleEnd.getTime() <= now.getTime()) throw fail('不在套餐销售时间内');
    if (p.perUserLimit > 0) {
      const [held] = await tx
        .select({ n: count() })
        .from(packageOrders)
        .where(and(eq(packageOrders.riderId, input.riderId), eq(packageOrders.packageId, p.id), inArray(packageOrders.status, [0, 1])));
      if ((held?.n ?? 0) >= p.perUserLimit) throw fail(`每人同时最多持有${p.perUserLimit}个生效中的该套餐`);
    }
    const agreement = await agreementOf(tx, p.districtId);
    if (!agreement) throw fail('套餐协议未设置，暂不能购买');
    const taken = await tx
      .update(packages)
      .set({ sold: sql`${packages.sold} + 1`, stock: sql`case when ${packages.stock} is null then null else ${packages.stock} - 1 end` })
      .where(and(eq(packages.id, p.id), eq(packages.status, 1), or(sql`${packages.stock} is null`, sql`${packages.stock} > 0`)))
      .returning({ id: packages.id });
    if (!taken.length) throw fail('套餐已售罄');
    const [seq] = rowsOf<{ n: string }>(await tx.execute(sql`select nextval(pg_get_serial_sequence('package_orders', 'id')) as n`));
    const id = num(seq?.n);
    const snapshot: PackageSnapshot = { name: p.name, price: p.price, originalPrice: p.originalPrice, rides: p.rides, validDays: p.validDays, lineScope: p.lineScope ?? null, dailyLimit: p.dailyLimit };
    const [order] = await tx
      .insert(packageOrders)
      .values({
        id,
        orderNo: orderNoOf(now, id),
        districtId: p.districtId,
        riderId: input.riderId,
        packageId: p.id,
        snapshot,
        amount: p.price,
        rides: p.rides,
        agreementVersion: agreement.rowVersion,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return order!;
  });
}

/** When an order paid at `paidAt` stops: the end of its last Shanghai day (the day of payment is day 1). */
export const expiryOf = (paidAt: Date, validDays: number) => shanghaiMidnight(addDays(shanghaiDate(paidAt), validDays));

/**
 * The channel's payment notice: 待支付 → 生效中 once; a repeated notice finds it paid (or refunded) and
 * changes nothing. A notice after the timeout closed the order is money that arrived all the same:
 * the order opens again when its package still has stock, and otherwise it is refunded in full at
 * once (a ledger row, settled with the channel after the commit), never refused, which would leave
 * the money with the operator and no order to refund.
 */
export async function payOrder(deps: Pick<AppDeps, 'db' | 'clock'> & Partial<Pick<AppDeps, 'payments'>>, orderId: number) {
  const now = deps.clock.now();
  let lateRefund: number | null = null;
  const order = await deps.db.transaction(async (tx) => {
    const [o] = await tx.select().from(packageOrders).where(eq(packageOrders.id, orderId)).for('update');
    if (!o) throw notFound('订单不存在');
    if (o.payStatus !== 0) return o;
    const paidSet = { status: 1, payStatus: 1, paidAt: now, effectiveAt: now, expireAt: expiryOf(now, o.snapshot.validDays), updatedAt: now } as const;
    if (o.status === 0) {
      const [paid] = await tx.update(packageOrders).set(paidSet).where(and(eq(packageOrders.id, o.id), eq(packageOrders.status, 0))).returning();
      return paid!;
    }
    // 5 已关闭, unpaid: its stock went back to sale when it closed; take a unit again if one is left.
    const [unit] = await tx
      .update(packages)
      .set({ sold: sql`${packages.sold} + 1`, stock: sql`case when ${packages.stock} is null then null else ${packages.stock} - 1 end` })
      .where(and(eq(packages.id, o.packageId), or(sql`${packages.stock} is null`, sql`${packages.stock} > 0`)))
      .returning({ id: packages.id });
    if (unit) {
      const [paid] = await tx.update(packageOrders).set(paidSet).where(eq(packageOrders.id, o.id)).returning();
      await audit(tx, SYSTEM_ACTOR, { type: 'PACKAGE_ORDER_LATE_PAY', targetDistrictId: o.districtId, target: `package-order/${o.id}`, summary: `套餐订单 ${o.orderNo} 关闭后收到支付通知，重新生效`, before: { status: 5, payStatus: 0 }, after: { status: 1, payStatus: 1 } }, now);
      return paid!;
    }
    const [refunded] = await tx
      .update(packageOrders)
      // Never in effect: it ends as it starts.
      .set({ status: 4, payStatus: 2, paidAt: now, effectiveAt: now, expireAt: now, refundAmount: o.amount, refundedAt: now, updatedAt: now })
      .where(eq(packageOrders.id, o.id))
      .returning();
    const row = await recordRefund(tx, { kind: 'package', orderId: o.id, districtId: o.districtId, orderNo: o.orderNo, amount: o.amount, reason: '订单关闭后收到支付，套餐已售罄，全额退回', idempotencyKey: `late-pay-${o.orderNo}`, operatorId: null, now });
    lateRefund = row.id;
    await audit(tx, SYSTEM_ACTOR, { type: 'PACKAGE_ORDER_LATE_PAY', targetDistrictId: o.districtId, target: `package-order/${o.id}`, summary: `套餐订单 ${o.orderNo} 关闭后收到支付通知，套餐已售罄，全额退款 ${fenToYuan(o.amount)} 元`, before: { status: 5, payStatus: 0 }, after: { status: 4, payStatus: 2, refund: row.id } }, now);
    return refunded!;
  });
  if (lateRefund !== null && deps.payments) await settleRefund(deps as AppDeps, lateRefund);
  return order;
}

export interface RideInput {
  orderId: number;
  rideAt: Date;
  lineCode: string;
  busNo: string;
  /** What the ride would have cost as a single (fen). */
  singleFare: number;
  rideRecordId?: number | null;
}

/**
 * One ride paid by the package (the reader's deduction). The order is locked, so two taps for the
 * last ride, a refund and the expiry job queue on it; the ride's own time decides against expireAt
 * (a ride taken before the expiry but uploaded after the job ran still counts), and the update is
 * guarded `used_rides < rides` besides. The last ride moves the order to 已用完.
 */
export async function useRide(deps: Pick<AppDeps, 'db' | 'clock'>, input: RideInput) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [o] = await tx.select().from(packageOrders).where(eq(packageOrders.id, input.orderId)).for('update');
    if (!o) throw notFound('订单不存在');
    // The same ride sent again (a reader's retry after a timeout): answered as it was, paid once.
    if (input.rideRecordId != null) {
      const [seen] = await tx.select().from(packageUsages).where(and(eq(packageUsages.orderId, o.id), eq(packageUsages.rideRecordId, input.rideRecordId)));
      if (seen) return { order: o, usage: seen, replayed: true };
    }
    const at = input.rideAt.getTime();
    if (o.status === 2 || o.usedRides >= o.rides) throw fail('套餐次数已用完');
    if (o.status === 4) throw fail('套餐已退款');
    if (o.status !== 1 && o.status !== 3) throw fail('套餐未生效');
    if (!o.effectiveAt || !o.expireAt || at < o.effectiveAt.getTime()) throw fail('套餐未生效');
    if (at >= o.expireAt.getTime()) throw fail('套餐已过期');
    const scope = o.snapshot.lineScope;
    if (scope && scope.length && !scope.includes(input.lineCode)) throw fail('该线路不在套餐适用范围内');
    if (o.snapshot.dailyLimit > 0) {
      const day = shanghaiDate(input.rideAt);
      const [today] = await tx
        .select({ n: count() })
        .from(packageUsages)
        .where(and(eq(packageUsages.orderId, o.id), gte(packageUsages.rideAt, shanghaiMidnight(day)), sql`${packageUsages.rideAt} < ${shanghaiMidnight(addDays(day, 1))}`));
      if ((today?.n ?? 0) >= o.snapshot.dailyLimit) throw fail(`今日乘车次数已达上限（${o.snapshot.dailyLimit}次）`);
    }
    const [after] = await tx
      .update(packageOrders)
      .set({
        usedRides: sql`${packageOrders.usedRides} + 1`,
        status: sql`case when ${packageOrders.usedRides} + 1 >= ${packageOrders.rides} then 2 else ${packageOrders.status} end`,
        updatedAt: now,
      })
      .where(and(eq(packageOrders.id, o.id), sql`${packageOrders.usedRides} < ${packageOrders.rides}`, inArray(packageOrders.status, [1, 3]), sql`${packageOrders.expireAt} > ${input.rideAt}`))
      .returning();
    if (!after) throw fail('套餐次数已用完');
    const [usage] = await tx
      .insert(packageUsages)
      .values({ orderId: o.id, rideRecordId: input.rideRecordId ?? null, rideAt: input.rideAt, lineCode: input.lineCode, busNo: input.busNo, singleFare: input.singleFare, createdAt: now })
      .returning();
    return { order: after, usage: usage!, replayed: false };
  });
}

/**
 * One batch of the job's work, each row by `for update skip locked` so instances share it: active
 * orders past their expiry → 已过期; unpaid orders older than PAY_TIMEOUT_MINUTES → 已关闭 with their
 * stock given back. One audit row per order, in the batch's transaction.
 */
async function moveDue(deps: Pick<AppDeps, 'db' | 'clock'>, kind: 'expire' | 'close', batch = 200): Promise<number[]> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const due =
      kind === 'expire' ? and(eq(packageOrders.status, 1), lte(packageOrders.expireAt, now)) : and(eq(packageOrders.status, 0), lte(packageOrders.createdAt, new Date(now.getTime() - PAY_TIMEOUT_MINUTES * 60_000)));
    const rows = await tx
      .select({ id: packageOrders.id, orderNo: packageOrders.orderNo, districtId: packageOrders.districtId, packageId: packageOrders.packageId, used: packageOrders.usedRides, rides: packageOrders.rides })
      .from(packageOrders)
      .where(due)
      .orderBy(packageOrders.id)
      .limit(batch)
      .for('update', { skipLocked: true });
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id);
    const to: PackageOrderStatus = kind === 'expire' ? 3 : 5;
    const set = kind === 'expire' ? { status: to, updatedAt: now } : { status: to, closedAt: now, updatedAt: now };
    await tx
      .update(packageOrders)
      .set(set)
      .where(and(inArray(packageOrders.id, ids), eq(packageOrders.status, kind === 'expire' ? 1 : 0)));
    if (kind === 'close') {
      // The stock the unpaid orders held goes back to sale.
      const perPackage = new Map<number, number>();
      for (const r of rows) perPackage.set(r.packageId, (perPackage.get(r.packageId) ?? 0) + 1);
      for (const [packageId, n] of perPackage) {
        await tx
          .update(packages)
          .set({ sold: sql`greatest(${packages.sold} - ${n}, 0)`, stock: sql`case when ${packages.stock} is null then null else ${packages.stock} + ${n} end` })
          .where(eq(packages.id, packageId));
      }
    }
    for (const r of rows) {
      await audit(
        tx,
        SYSTEM_ACTOR,
        kind === 'expire'
          ? { type: 'PACKAGE_ORDER_EXPIRE', targetDistrictId: r.districtId, target: `package-order/${r.id}`, summary: `套餐订单 ${r.orderNo} 已到期（用 ${r.used}/${r.rides} 次）`, after: { status: 3 } }
          : { type: 'PACKAGE_ORDER_CLOSE', targetDistrictId: r.districtId, target: `package-order/${r.id}`, summary: `套餐订单 ${r.orderNo} 超过${PAY_TIMEOUT_MINUTES}分钟未支付，已关闭`, after: { status: 5 } },
        now,
      );
    }
    return ids;
  });
}

/** The job package.expire: expired active orders and unpaid orders past their time, in batches until none is left. */
export async function expireOrders(deps: Pick<AppDeps, 'db' | 'clock'>): Promise<{ expired: number[]; closed: number[] }> {
  const done = { expired: [] as number[], closed: [] as number[] };
  for (let ids = await moveDue(deps, 'expire'); ids.length; ids = await moveDue(deps, 'expire')) done.expired.push(...ids);
  for (let ids = await moveDue(deps, 'close'); ids.length; ids = await moveDue(deps, 'close')) done.closed.push(...ids);
  return done;
}

/**
 * For the card view (卡片详情): a rider's packages that matter on a call, the active and unpaid ones
 * and those that ended in the last 90 days, newest first, with what is left.
 */
export async function packagesOfRider(deps: Pick<AppDeps, 'db' | 'clock' | 'pii'>, riderId: number, limit = 20) {
  const since = new Date(deps.clock.now().getTime() - 90 * DAY_MS);
  const rows = await selectOrders(deps.db)
    .where(and(eq(packageOrders.riderId, riderId), or(inArray(packageOrders.status, [0, 1]), gte(packageOrders.updatedAt, since))))
    .orderBy(sql`${packageOrders.createdAt} desc`, sql`${packageOrders.id} desc`)
    .limit(limit);
  return rows.map((r) => ({ ...orderDto(deps, r), remainingRides: r.o.rides - r.o.usedRides }));
}
