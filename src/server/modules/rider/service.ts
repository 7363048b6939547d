import { and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { card } from '../../../shared/api';
import { CARD_NO, type ForeignCard, foreignCardMsg } from '../../../shared/api/card';
import { isValidCitizenId } from '../../../shared/domain/citizen-id';
import { maskCitizenId, maskName, maskPhone } from '../../../shared/domain/mask';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { audit } from '../../lib/audit';
import { cardRows } from '../../lib/card-rows';
import { fail, failOn, forbidden, isUniqueViolation, notFound } from '../../lib/errors';
import { maskedRider } from '../../lib/masked-rider';
import { type ListContext, listService } from '../../lib/list';
import type { Pii } from '../../lib/pii';
import { assertInScope, inScope } from '../../lib/scope';
import { iso } from '../../lib/sql';
import { type ExportScope, defineExport, listRows } from '../../lib/export-definition';
import { shanghaiDate } from '../../../shared/domain/time';
import { isAllowed } from '../../../shared/api/permissions';
import { WALLET_READ } from '../../../shared/api/wallet';
import { PACKAGE_READ } from '../../../shared/api/package-pay';
import { RECHARGE_READ } from '../../../shared/api/recharge';
import { refundableOrdersOfWallet, walletOfCard } from '../rechargeable/money';
import { packagesOfRider } from '../package-pay/service';
import { rechargeOrdersOfCard } from '../recharge/service';

type PageQuery = z.output<typeof card.riderPage.query>;
type RiderRow = typeof t.riders.$inferSelect;

const cardCount = sql<number>`(select count(*)::int from ${t.busCards} c where c.rider_id = ${t.riders.id})`;
const riderColumns = { r: t.riders, districtName: t.districts.name, cards: cardCount };

/** A rider as every list shows it: phone, citizen id and name decrypted only to be masked here. */
export function riderDto(pii: Pii, row: { r: RiderRow; districtName: string | null; cards: number }) {
  const { r } = row;
  return {
    id: r.id,
    districtId: r.districtId,
    districtName: row.districtName,
    phone: maskPhone(pii.decrypt(r.phoneEnc)),
    citizenId: r.citizenEnc ? maskCitizenId(pii.decrypt(r.citizenEnc)) : null,
    name: r.nameEnc ? maskName(pii.decrypt(r.nameEnc)) : null,
    realName: r.realName === 1 ? (1 as const) : (0 as const),
    state: r.state === 1 ? (1 as const) : (0 as const),
    abnormalReason: r.abnormalReason,
    cards: Number(row.cards),
    createdDate: iso(r.createdAt),
  };
}

const selectRiders = (db: Db) => db.select(riderColumns).from(t.riders).leftJoin(t.districts, eq(t.districts.id, t.riders.districtId));

const digits = (s: string) => s.replace(/[\s-]/g, '');

/**
 * 乘客用户: the area's riders, newest first. Phone and citizen id match exactly through the blind
 * index: the table cannot be searched by a fragment of a value it does not hold.
 */
export const riderList = listService({
  endpoint: card.riderPage,
  select: selectRiders,
  count: (db) => db.select({ n: count() }).from(t.riders),
  scope: t.riders.districtId,
  filters: {
    phone: (phone, _q, _a, deps) => eq(t.riders.phoneIdx, deps.pii.index('phone', digits(phone))),
    citizenCardNo: (no, _q, _a, deps) => eq(t.riders.citizenIdx, deps.pii.index('citizen', no)),
    realName: (realName) => eq(t.riders.realName, realName),
    state: (state) => eq(t.riders.state, state),
  },
  sorts: { createdDate: t.riders.createdAt },
  order: { column: t.riders.createdAt, dir: 'desc' },
  key: { column: t.riders.id, of: (row) => row.r.id },
  // The export's scope is its task's, not a request's: the DTO needs no more than the district.
  dto: (row, { deps }: ListContext<ExportScope>) => riderDto(deps.pii, row),
});

export const pageRiders = (deps: AppDeps, a: AuthContext, q: PageQuery) => riderList.page(deps, a, q);

export async function riderSummary(deps: AppDeps, a: AuthContext) {
  const [r] = await deps.db
    .select({ total: count(), realName: sql<number>`count(*) filter (where ${t.riders.realName} = 1)::int`, abnormal: sql<number>`count(*) filter (where ${t.riders.state} = 0)::int` })
    .from(t.riders)
    .where(inScope(a, t.riders.districtId));
  const [c] = await deps.db.select({ n: count() }).from(t.busCards).where(inScope(a, t.busCards.districtId));
  return { total: r?.total ?? 0, realName: Number(r?.realName ?? 0), abnormal: Number(r?.abnormal ?? 0), cards: c?.n ?? 0 };
}

/**
 * 查看实名信息: one rider in full. The audit row names the rider and the reason, never the values;
 * the answer is marked no-store so no cache keeps it.
 */
export async function revealRider(deps: AppDeps, a: AuthContext, q: { id: number; reason: string }, setNoStore: () => void) {
  const [r] = await deps.db.select().from(t.riders).where(eq(t.riders.id, q.id));
  if (!r) throw notFound('乘客不存在');
  assertInScope(a, r.districtId);
  await audit(deps.db, a.actor, { type: 'RIDER_REVEAL', targetDistrictId: r.districtId, target: `rider/${r.id}`, summary: `查看乘客 ${r.id} 的实名信息，原因：${q.reason}`, after: { reason: q.reason } }, deps.clock.now());
  setNoStore();
  return { id: r.id, phone: deps.pii.decrypt(r.phoneEnc), citizenId: r.citizenEnc ? deps.pii.decrypt(r.citizenEnc) : null, name: r.nameEnc ? deps.pii.decrypt(r.nameEnc) : null };
}

const LOOKUP_LIMIT = 10;

/**
 * What a typed number finds: a 16-digit card number (exact), a citizen id (valid by its checksum,
 * through the blind index) or a mobile number (11 digits, spaces and dashes allowed). The riders'
 * cards come with them. Scoped to the request's district like every list.
 */
export async function lookup(deps: AppDeps, a: AuthContext, raw: string) {
  const q = digits(raw).toUpperCase();
  const riderConds: SQL[] = [];
  if (/^\d{17}[\dX]$/.test(q) && isValidCitizenId(q)) riderConds.push(eq(t.riders.citizenIdx, deps.pii.index('citizen', q)));
  if (/^1\d{10}$/.test(q)) riderConds.push(eq(t.riders.phoneIdx, deps.pii.index('phone', q)));
  const riders = riderConds.length
    ? (await selectRiders(deps.db).where(and(inScope(a, t.riders.districtId), riderConds.length === 1 ? riderConds[0] : sql`(${sql.join(riderConds, sql` or `)})`)).limit(LOOKUP_LIMIT)).map((r) => riderDto(deps.pii, r))
    : [];
  const cardConds: SQL[] = [];
  if (CARD_NO.test(q)) cardConds.push(eq(t.busCards.cardNo, q));
  if (riders.length) cardConds.push(inArray(t.busCards.riderId, riders.map((r) => r.id)));
  const cards = cardConds.length ? await cardRows(deps, and(inScope(a, t.busCards.districtId), cardConds.length === 1 ? cardConds[0] : sql`(${sql.join(cardConds, sql` or `)})`), { limit: LOOKUP_LIMIT }) : [];
  return { cards, riders };
}

const ORDERS_SHOWN = 20;
const RIDES_SHOWN = 10;
const TOP_UPS_SHOWN = 10;

/** Another district's rows of an in-scope card's holder stay unsaid, as everywhere else. */
const inDistrict = (a: AuthContext) => (row: { districtId: number }) => a.districtScope === null || row.districtId === a.districtScope;

/**
 * The card's money (issue 22), each part through its module's own function and only for an account
 * that may read that module: the others get null and no query is made for them.
 */
async function cardMoney(deps: AppDeps, a: AuthContext, card: { id: number; cardNo: string; riderId: number | null }) {
  const wallet = async () => {
    if (!isAllowed(WALLET_READ, a)) return null;
    const account = await walletOfCard(deps, card.id);
    const refundable = account ? await refundableOrdersOfWallet(deps, account.walletId, a.districtScope) : [];
    return { account, refundable };
  };
  const packages = async () => {
    if (!isAllowed(PACKAGE_READ, a)) return null;
    if (card.riderId === null) return [];
    return (await packagesOfRider(deps, card.riderId)).filter(inDistrict(a)).map((p) => ({
      id: p.id,
      orderNo: p.orderNo,
      packageName: p.packageName,
      amount: p.amount,
      rides: p.rides,
      remainingRides: p.remainingRides,
      status: p.status,
      expireDate: p.expireDate,
    }));
  };
  const topUps = async () => {
    if (!isAllowed(RECHARGE_READ, a)) return null;
    // Only what the desk shows: no phone (the holder's is on the page already, masked), no card-centre detail.
    return (await rechargeOrdersOfCard(deps, card.cardNo, TOP_UPS_SHOWN)).filter(inDistrict(a)).map((o) => ({ id: o.id, orderNo: o.orderNo, amount: o.amount, payStatus: o.payStatus, writeState: o.writeState, createdDate: o.createdDate }));
  };
  const [w, p, n] = await Promise.all([wallet(), packages(), topUps()]);
  return { wallet: w, packages: p, topUps: n };
}

/** 卡片详情: the card, its holder, who binds it as a family card (with renewals), its recent orders and rides, its money (cardMoney). */
export async function viewCard(deps: AppDeps, a: AuthContext, cardNo: string) {
  const [c] = await deps.db.select({ c: t.busCards, districtName: t.districts.name }).from(t.busCards).leftJoin(t.districts, eq(t.districts.id, t.busCards.districtId)).where(eq(t.busCards.cardNo, cardNo));
  if (!c) throw notFound('卡片不存在');
  // Another district's card: where it belongs, so the agent can say so or switch area; no more.
  if (a.districtScope !== null && c.c.districtId !== a.districtScope) {
    throw forbidden(foreignCardMsg(c.districtName), { districtId: c.c.districtId, districtName: c.districtName } satisfies ForeignCard);
  }
  const [card] = await cardRows(deps, eq(t.busCards.id, c.c.id), { limit: 1 });
  const [holder] = c.c.riderId ? await selectRiders(deps.db).where(eq(t.riders.id, c.c.riderId)) : [];
  const renewals = sql<number>`(select count(*)::int from ${t.familyRenewals} r where r.binding_id = ${t.familyBindings.id})`;
  const bindings = await deps.db
    .select({ b: t.familyBindings, r: t.riders, renewals })
    .from(t.familyBindings)
    .innerJoin(t.riders, eq(t.riders.id, t.familyBindings.holderId))
    .where(eq(t.familyBindings.cardId, c.c.id))
    .orderBy(desc(t.familyBindings.boundAt));
  const orders = await deps.db
    .select({ o: t.discountOrders, productName: t.discountProducts.name, ticketType: t.discountProducts.ticketType })
    .from(t.discountOrders)
    .innerJoin(t.discountProducts, eq(t.discountProducts.id, t.discountOrders.productId))
    .where(eq(t.discountOrders.cardId, c.c.id))
    .orderBy(desc(t.discountOrders.createdAt))
    .limit(ORDERS_SHOWN);
  // The card's rides wherever it rode (the card is in scope), newest first: its index in each month's partition.
  const rides = await deps.db
    .select()
    .from(t.rideRecords)
    .where(eq(t.rideRecords.cardNo, c.c.cardNo))
    .orderBy(desc(t.rideRecords.rideAt))
    .limit(RIDES_SHOWN);
  const money = await cardMoney(deps, a, c.c);
  return {
    card: card!,
    districtName: c.districtName,
    holder: holder ? riderDto(deps.pii, holder) : null,
    bindings: bindings.map(({ b, r, renewals: n }) => ({
      id: b.id,
      relation: b.relation,
      status: b.status,
      boundDate: iso(b.boundAt),
      expiresDate: iso(b.expiresAt),
      unboundDate: b.unboundAt ? iso(b.unboundAt) : null,
      holder: maskedRider(deps.pii, r),
      renewals: Number(n),
    })),
    orders: orders.map(({ o, productName, ticketType }) => ({
      id: o.id,
      orderNo: o.orderNo,
      productName,
      ticketType,
      amount: o.amount,
      payStatus: o.payStatus,
      createdDate: iso(o.createdAt),
      paidDate: o.paidAt ? iso(o.paidAt) : null,
      refundedDate: o.refundedAt ? iso(o.refundedAt) : null,
    })),
    rides: rides.map((x) => ({ id: x.id, rideDate: iso(x.rideAt), lineName: x.lineName, busName: x.busName, stationName: x.stationName, ticketType: x.ticketType, amount: x.amount, payStatus: x.payStatus })),
    ...money,
  };
}

/** 新增乘客: sealed like every rider; a phone already registered is refused by the unique blind index. */
export async function addRider(deps: AppDeps, a: AuthContext, body: { phone: string; citizenCardNo?: string | undefined; name?: string | undefined }) {
  if (a.districtScope === null) throw fail('请先选择区域再新增乘客');
  const districtId = a.districtScope;
  const now = deps.clock.now();
  try {
    return await deps.db.transaction(async (tx) => {
      const verified = !!(body.citizenCardNo && body.name);
      const [created] = await tx
        .insert(t.riders)
        .values({
          districtId,
          phoneEnc: deps.pii.encrypt(body.phone),
          phoneIdx: deps.pii.index('phone', body.phone),
          citizenEnc: verified ? deps.pii.encrypt(body.citizenCardNo!) : null,
          citizenIdx: verified ? deps.pii.index('citizen', body.citizenCardNo!) : null,
          nameEnc: verified ? deps.pii.encrypt(body.name!) : null,
          realName: verified ? 1 : 0,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: t.riders.id });
      const [row] = await selectRiders(tx).where(eq(t.riders.id, created!.id));
      const after = riderDto(deps.pii, row!);
      // The audit row holds the masked record (audit() masks again besides): never the numbers.
      await audit(tx, a.actor, { type: 'RIDER_ADD', targetDistrictId: districtId, target: `rider/${after.id}`, summary: `新增乘客 ${after.phone}${verified ? '（已实名）' : ''}`, after }, now);
      return after;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw failOn('phone', '该手机号已注册');
    throw err;
  }
}

type RiderExportQuery = z.output<typeof card.riderExport.query>;

/**
 * 导出乘客用户 as a task of the download centre: the list's rows for the filters, in id order, each
 * masked exactly as the list shows it (the file never holds a phone, id or name in clear).
 */
export const ridersExport = defineExport({
  id: 'rider.riders',
  permission: card.riderExport.permission,
  sheet: '乘客用户',
  columns: [
    { header: '乘客ID', width: 10, cell: (d) => d.id },
    { header: '姓名', width: 10, mask: 'name', cell: (d) => d.name },
    { header: '手机号', width: 14, mask: 'phone', cell: (d) => d.phone },
    { header: '身份证号', width: 22, mask: 'citizenId', cell: (d) => d.citizenId },
    { header: '实名', width: 8, cell: (d) => (d.realName ? '已实名' : '未实名') },
    { header: '状态', width: 8, cell: (d) => (d.state ? '正常' : '异常') },
    { header: '异常原因', width: 24, cell: (d) => d.abnormalReason },
    { header: '卡片数', width: 8, cell: (d) => d.cards },
    { header: '区域', width: 10, cell: (d) => d.districtName },
    { header: '注册日期', width: 12, cell: (d) => shanghaiDate(d.createdDate) },
  ],
  rows: listRows(riderList, (q: RiderExportQuery) => q),
  audit: { operation: 'RIDER_EXPORT' },
});

/** The task's title: 乘客用户 or 异常用户, and the filter that narrowed it. */
export const riderExportTitle = (q: RiderExportQuery) => [q.state === 0 ? '异常用户' : '乘客用户', q.realName === 1 ? '已实名' : q.realName === 0 ? '未实名' : ''].filter(Boolean).join(' ');

/**
 * 处理异常 (ycOrder): clears a rider's abnormal flag once, under a row lock, with the agent's note and
 * the old reason in the audit row (the same transaction).
 */
export async function resolveAbnormal(deps: AppDeps, a: AuthContext, body: { id: number; note: string }) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [r] = await tx.select().from(t.riders).where(eq(t.riders.id, body.id)).for('update');
    if (!r) throw notFound('乘客不存在');
    assertInScope(a, r.districtId);
    if (r.state === 1) throw fail('该乘客已是正常状态，无需处理');
    await tx.update(t.riders).set({ state: 1, abnormalReason: null, updatedAt: now }).where(eq(t.riders.id, r.id));
    const [row] = await selectRiders(tx).where(eq(t.riders.id, r.id));
    const after = riderDto(deps.pii, row!);
    await audit(tx, a.actor, { type: 'RIDER_RESOLVE', targetDistrictId: r.districtId, target: `rider/${r.id}`, summary: `处理异常用户 ${after.phone}：${body.note}`, before: { state: 0, abnormalReason: r.abnormalReason }, after: { state: 1, note: body.note } }, now);
    return after;
  });
}
