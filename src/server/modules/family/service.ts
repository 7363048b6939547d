import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { family } from '../../../shared/api';
import { BINDING_STATE } from '../../../shared/api/family';
import { CARD_CATEGORIES, cardCategoryLabel } from '../../../shared/api/card';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { audit } from '../../lib/audit';
import { fail, notFound } from '../../lib/errors';
import { maskedRider } from '../../lib/masked-rider';
import { listService } from '../../lib/list';
import { checkVersion, nextVersion } from '../../lib/row-version';
import { moveStatus } from '../../lib/transition';
import { assertInScope } from '../../lib/scope';
import { iso } from '../../lib/sql';
import { defineExport, keysetRows, listRows, sendExport } from '../../lib/export-definition';
import { verifyOwnPassword } from '../shell/credential-guard';
import { type CardCentre, bindable } from './card-centre';
import { shanghaiDate, shanghaiDateTime } from '../../../shared/domain/time';

type BindFilters = z.output<typeof family.bindSummary.query>;
type BindPageQuery = z.output<typeof family.bindPage.query>;
type RenewQuery = z.output<typeof family.renewLogPage.query>;
type RenewFilters = z.output<typeof family.renewLogSummary.query>;

const renewals = sql<number>`(select count(*)::int from ${t.familyRenewals} r where r.binding_id = ${t.familyBindings.id})`;
const columns = { b: t.familyBindings, c: t.busCards, r: t.riders, renewals };
const select = (db: Db) => db.select(columns).from(t.familyBindings).innerJoin(t.busCards, eq(t.busCards.id, t.familyBindings.cardId)).innerJoin(t.riders, eq(t.riders.id, t.familyBindings.holderId));

type Row = { b: typeof t.familyBindings.$inferSelect; c: typeof t.busCards.$inferSelect; r: typeof t.riders.$inferSelect; renewals: number };
const dto = (deps: AppDeps, { b, c, r, renewals: n }: Row) => ({
  id: b.id,
  districtId: b.districtId,
  cardNo: c.cardNo,
  cardCategory: c.category,
  cardState: c.state,
  relation: b.relation,
  status: BINDING_STATE.schema.parse(b.status),
  boundDate: iso(b.boundAt),
  expiresDate: iso(b.expiresAt),
  unboundDate: b.unboundAt ? iso(b.unboundAt) : null,
  holder: maskedRider(deps.pii, r),
  renewals: Number(n),
  rowVersion: b.rowVersion,
});

/**
 * 绑定关系: the area's bindings by card, by the binder's whole citizen id (its blind index, made with
 * this server's key) and by status. The page, the counts and the export all filter through it.
 */
const bindingList = listService({
  endpoint: family.bindPage,
  select,
  count: (db) => db.select({ n: count() }).from(t.familyBindings).innerJoin(t.busCards, eq(t.busCards.id, t.familyBindings.cardId)).innerJoin(t.riders, eq(t.riders.id, t.familyBindings.holderId)),
  scope: t.familyBindings.districtId,
  filters: {
    busCardNo: (no) => eq(t.busCards.cardNo, no),
    citizenCardNo: (citizen, _q, _a, deps) => eq(t.riders.citizenIdx, deps.pii.index('citizen', citizen)),
    status: (status) => eq(t.familyBindings.status, status),
  },
  sorts: { boundDate: t.familyBindings.boundAt, expiresDate: t.familyBindings.expiresAt },
  order: { column: t.familyBindings.boundAt, dir: 'desc' },
  key: { column: t.familyBindings.id, of: (r) => r.b.id },
  dto: (r, { deps }) => dto(deps, r),
});

export const pageBindings = (deps: AppDeps, a: AuthContext, q: BindPageQuery) => bindingList.page(deps, a, q);

export async function bindingSummary(deps: AppDeps, a: AuthContext, q: BindFilters) {
  const now = deps.clock.now();
  const soon = new Date(now.getTime() + 30 * 86_400_000);
  const b = t.familyBindings;
  const [r] = await deps.db
    .select({
      total: count(),
      bound: sql<number>`count(*) filter (where ${b.status} = 1)::int`,
      unbound: sql<number>`count(*) filter (where ${b.status} = 0)::int`,
      expiringSoon: sql<number>`count(*) filter (where ${b.status} = 1 and ${b.expiresAt} between ${now} and ${soon})::int`,
    })
    .from(b)
    .innerJoin(t.busCards, eq(t.busCards.id, b.cardId))
    .innerJoin(t.riders, eq(t.riders.id, b.holderId))
    .where(bindingList.where(deps, a, q));
  return { total: r?.total ?? 0, bound: Number(r?.bound ?? 0), unbound: Number(r?.unbound ?? 0), expiringSoon: Number(r?.expiringSoon ?? 0) };
}

const renewed = t.familyRenewals;

/**
 * Renewals with their card and binder, and the time as the database writes it: the export's cursor
 * (a JS Date would drop microseconds and repeat rows).
 */
const selectRenewals = (db: Db) =>
  db
    .select({ n: renewed, cardNo: t.busCards.cardNo, r: t.riders, cursorAt: sql<string>`${renewed.renewedAt}::text` })
    .from(renewed)
    .innerJoin(t.familyBindings, eq(t.familyBindings.id, renewed.bindingId))
    .innerJoin(t.busCards, eq(t.busCards.id, t.familyBindings.cardId))
    .innerJoin(t.riders, eq(t.riders.id, t.familyBindings.holderId));
type RenewalRow = { n: typeof renewed.$inferSelect; cardNo: string; r: typeof t.riders.$inferSelect };

const renewalDto = (pii: AppDeps['pii'], { n, cardNo, r }: RenewalRow) => ({
  id: n.id,
  bindingId: n.bindingId,
  cardNo,
  months: n.months,
  amount: n.amount,
  renewedDate: iso(n.renewedAt),
  holder: maskedRider(pii, r),
});

/** 续费记录: the area's renewals by card, newest first. The page, the sums and the export filter through it. */
const renewalList = listService({
  endpoint: family.renewLogPage,
  select: selectRenewals,
  count: (db) => db.select({ n: count() }).from(renewed).innerJoin(t.familyBindings, eq(t.familyBindings.id, renewed.bindingId)).innerJoin(t.busCards, eq(t.busCards.id, t.familyBindings.cardId)),
  scope: renewed.districtId,
  filters: { busCardNo: (no) => eq(t.busCards.cardNo, no) },
  sorts: { renewedDate: renewed.renewedAt },
  order: { column: renewed.renewedAt, dir: 'desc' },
  key: { column: renewed.id, of: (x) => x.n.id },
  dto: (x, { deps }) => renewalDto(deps.pii, x),
});

export const pageRenewals = (deps: AppDeps, a: AuthContext, q: RenewQuery) => renewalList.page(deps, a, q);

export async function renewalSummary(deps: AppDeps, a: AuthContext, q: RenewFilters) {
  const [r] = await deps.db
    .select({ count: count(), amount: sql<number>`coalesce(sum(${renewed.amount}), 0)::int` })
    .from(renewed)
    .innerJoin(t.familyBindings, eq(t.familyBindings.id, renewed.bindingId))
    .innerJoin(t.busCards, eq(t.busCards.id, t.familyBindings.cardId))
    .where(renewalList.where(deps, a, q));
  return { count: r?.count ?? 0, amount: Number(r?.amount ?? 0) };
}

const PWD = { failure: '亲情卡操作密码错误', wrong: '登录密码错误', field: 'pwd' };

async function bindingRow(deps: AppDeps, db: Db, id: number) {
  const [row] = await select(db).where(eq(t.familyBindings.id, id));
  if (!row) throw notFound('绑定关系不存在');
  return dto(deps, row);
}

/** 解绑: the live binding of the card by the citizen named, after the operator's password; audited without it. */
export async function unbind(deps: AppDeps, a: AuthContext, ip: string, q: { busCardNo: string; citizenCardNo: string; pwd: string }) {
  await verifyOwnPassword(deps, a, ip, q.pwd, PWD);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [live] = await tx
      .select({ b: t.familyBindings })
      .from(t.familyBindings)
      .innerJoin(t.busCards, eq(t.busCards.id, t.familyBindings.cardId))
      .innerJoin(t.riders, eq(t.riders.id, t.familyBindings.holderId))
      .where(and(eq(t.busCards.cardNo, q.busCardNo), eq(t.riders.citizenIdx, deps.pii.index('citizen', q.citizenCardNo)), eq(t.familyBindings.status, 1)))
      .for('update', { of: t.familyBindings });
    if (!live) throw fail('没有找到该卡与该身份证号的有效绑定');
    assertInScope(a, live.b.districtId);
    const before = await bindingRow(deps, tx, live.b.id);
    await moveStatus(tx, { flow: BINDING_STATE, table: t.familyBindings, key: t.familyBindings.id, id: live.b.id, status: t.familyBindings.status, from: 1, to: 0, set: { status: 0, unboundAt: now }, what: `亲情卡 ${q.busCardNo} 的绑定`, version: { column: t.familyBindings.rowVersion, sent: undefined, current: () => null } });
    const after = await bindingRow(deps, tx, live.b.id);
    await audit(tx, a.actor, { type: 'FAMILY_UNBIND', targetDistrictId: live.b.districtId, target: `family-binding/${live.b.id}`, summary: `解绑亲情卡 ${q.busCardNo}`, before, after }, now);
    return after;
  });
}

export async function updateBinding(deps: AppDeps, a: AuthContext, ip: string, pwd: string, body: { id: number; relation: string; rowVersion?: number | undefined }) {
  await verifyOwnPassword(deps, a, ip, pwd, PWD);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [b] = await tx.select().from(t.familyBindings).where(eq(t.familyBindings.id, body.id)).for('update');
    if (!b) throw notFound('绑定关系不存在');
    assertInScope(a, b.districtId);
    await checkVersion(b, body.rowVersion, () => bindingRow(deps, tx, b.id));
    if (b.status !== 1) throw fail('该绑定已解除，不能修改');
    const before = await bindingRow(deps, tx, b.id);
    await tx.update(t.familyBindings).set({ relation: body.relation, rowVersion: nextVersion(t.familyBindings.rowVersion) }).where(eq(t.familyBindings.id, b.id));
    const after = await bindingRow(deps, tx, b.id);
    await audit(tx, a.actor, { type: 'FAMILY_UPDATE', targetDistrictId: b.districtId, target: `family-binding/${b.id}`, summary: `修改亲情卡 ${after.cardNo} 的关系：${before.relation} → ${after.relation}`, before, after }, now);
    return after;
  });
}

export const cardTypes = () => Object.entries(CARD_CATEGORIES).map(([value, label]) => ({ value: Number(value), label }));

export async function checkCard(centre: CardCentre, cardNo: string) {
  const card = await centre.check(cardNo);
  const reason = bindable(card);
  return { cardNo, ...card, bindable: reason === null, reason };
}


/** 导出 of 绑定关系 (the spec's direct file): the list's rows of the filters in id order (its keyset batches), the binder masked. */
export const bindingsExport = defineExport({
  id: 'family.bindings',
  permission: family.bindExport.permission,
  sheet: '亲情卡绑定',
  columns: [
    { header: '绑定ID', width: 10, cell: (d: ReturnType<typeof dto>) => d.id },
    { header: '卡号', width: 20, cell: (d) => d.cardNo },
    { header: '卡类别', width: 14, cell: (d) => cardCategoryLabel(d.cardCategory) },
    { header: '关系', width: 8, cell: (d) => d.relation },
    { header: '绑定人', width: 10, mask: 'name', cell: (d) => d.holder.name },
    { header: '手机号', width: 14, mask: 'phone', cell: (d) => d.holder.phone },
    { header: '身份证号', width: 22, mask: 'citizenId', cell: (d) => d.holder.citizenId },
    { header: '状态', width: 8, cell: (d) => BINDING_STATE.label(d.status) },
    { header: '绑定日期', width: 12, cell: (d) => shanghaiDate(d.boundDate) },
    { header: '到期日期', width: 12, cell: (d) => shanghaiDate(d.expiresDate) },
    { header: '续期次数', width: 10, cell: (d) => d.renewals },
  ],
  rows: listRows(bindingList),
  audit: {
    operation: 'FAMILY_EXPORT',
    summary: () => '导出亲情卡绑定（绑定人信息已脱敏）',
    after: (q) => ({ filters: { ...q, citizenCardNo: q.citizenCardNo ? '（按身份证号筛选）' : undefined } }),
  },
});

export const exportBindings = (deps: AppDeps, a: AuthContext, q: BindFilters, reply: FastifyReply) => sendExport(deps, a, bindingsExport, q, reply);

type Renewal = ReturnType<typeof renewalDto>;

/**
 * 导出 of 续期记录 (a direct file): the list's rows of the filter (its scope and filters) in the order
 * they were renewed, a keyset batch at a time on (renewed_at, id), the binder masked.
 */
export const renewalsExport = defineExport({
  id: 'family.renewals',
  permission: family.renewLogExport.permission,
  sheet: '续期记录',
  file: '亲情卡续期',
  columns: [
    { header: '记录ID', width: 10, cell: (r: Renewal) => r.id },
    { header: '卡号', width: 20, cell: (r) => r.cardNo },
    { header: '绑定人', width: 10, mask: 'name', cell: (r) => r.holder.name },
    { header: '手机号', width: 14, mask: 'phone', cell: (r) => r.holder.phone },
    { header: '续期月数', width: 10, cell: (r) => r.months },
    { header: '金额（元）', width: 10, cell: (r) => r.amount / 100 },
    { header: '续期时间', width: 20, cell: (r) => shanghaiDateTime(r.renewedDate) },
  ],
  rows: keysetRows({
    read: async ({ deps, scope }, q: RenewFilters, after: { at: string; id: number } | null, limit) => {
      const rows = await selectRenewals(deps.db)
        // The plain bound lets the (district, renewed_at) index start at the cursor; the row comparison breaks ties.
        .where(and(renewalList.where(deps, scope, q), after ? sql`${renewed.renewedAt} >= ${after.at}::timestamptz and (${renewed.renewedAt}, ${renewed.id}) > (${after.at}::timestamptz, ${after.id})` : undefined))
        .orderBy(asc(renewed.renewedAt), asc(renewed.id))
        .limit(limit);
      return rows.map((x) => ({ ...renewalDto(deps.pii, x), cursorAt: x.cursorAt }));
    },
    cursor: (x) => ({ at: x.cursorAt, id: x.id }),
  }),
  audit: { operation: 'FAMILY_EXPORT', summary: () => '导出亲情卡续期记录（绑定人信息已脱敏）' },
});

export const exportRenewals = (deps: AppDeps, a: AuthContext, q: RenewFilters, reply: FastifyReply) => sendExport(deps, a, renewalsExport, q, reply);
