import dayjs from 'dayjs';
import { and, count, desc, eq, sql } from 'drizzle-orm';
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
import { paged } from '../../lib/paging';
import { moveStatus } from '../../lib/transition';
import { assertInScope, inScope } from '../../lib/scope';
import { iso } from '../../lib/sql';
import { sendXlsx } from '../../lib/xlsx';
import { verifyOwnPassword } from '../shell/credential-guard';
import { type CardCentre, bindable } from './card-centre';
import { shanghaiDate, shanghaiDateTime } from '../../../shared/domain/time';

type BindFilters = z.output<typeof family.bindSummary.query>;
type BindPageQuery = z.output<typeof family.bindPage.query>;
type RenewQuery = z.output<typeof family.renewLogPage.query>;

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
});

/**
 * 绑定关系: the area's bindings by card, by the binder's whole citizen id (its blind index, made with
 * this server's key: hence one list per deps) and by status. The page, the counts and the export
 * all filter through it.
 */
const bindingList = (deps: AppDeps) =>
  listService({
    endpoint: family.bindPage,
    select,
    count: (db) => db.select({ n: count() }).from(t.familyBindings).innerJoin(t.busCards, eq(t.busCards.id, t.familyBindings.cardId)).innerJoin(t.riders, eq(t.riders.id, t.familyBindings.holderId)),
    scope: t.familyBindings.districtId,
    filters: {
      busCardNo: (no) => eq(t.busCards.cardNo, no),
      citizenCardNo: (citizen) => eq(t.riders.citizenIdx, deps.pii.index('citizen', citizen)),
      status: (status) => eq(t.familyBindings.status, status),
    },
    sorts: { boundDate: t.familyBindings.boundAt, expiresDate: t.familyBindings.expiresAt },
    order: { column: t.familyBindings.boundAt, dir: 'desc' },
    key: { column: t.familyBindings.id, of: (r) => r.b.id },
    dto: (r) => dto(deps, r),
  });

export const pageBindings = (deps: AppDeps, a: AuthContext, q: BindPageQuery) => bindingList(deps).page(deps, a, q);

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
    .where(bindingList(deps).where(a, q));
  return { total: r?.total ?? 0, bound: Number(r?.bound ?? 0), unbound: Number(r?.unbound ?? 0), expiringSoon: Number(r?.expiringSoon ?? 0) };
}

function renewWhere(a: AuthContext, q: { busCardNo?: string | undefined }) {
  return and(inScope(a, t.familyRenewals.districtId), q.busCardNo ? eq(t.busCards.cardNo, q.busCardNo) : undefined);
}

export async function pageRenewals(deps: AppDeps, a: AuthContext, q: RenewQuery) {
  const cond = renewWhere(a, q);
  const base = (db: Db) =>
    db
      .select({ n: t.familyRenewals, cardNo: t.busCards.cardNo, r: t.riders })
      .from(t.familyRenewals)
      .innerJoin(t.familyBindings, eq(t.familyBindings.id, t.familyRenewals.bindingId))
      .innerJoin(t.busCards, eq(t.busCards.id, t.familyBindings.cardId))
      .innerJoin(t.riders, eq(t.riders.id, t.familyBindings.holderId));
  return paged(
    q,
    async (limit, offset) =>
      (await base(deps.db).where(cond).orderBy(q.sort === 'renewedDate,asc' ? sql`${t.familyRenewals.renewedAt} asc` : sql`${t.familyRenewals.renewedAt} desc`, desc(t.familyRenewals.id)).limit(limit).offset(offset)).map(({ n, cardNo, r }) => ({
        id: n.id,
        bindingId: n.bindingId,
        cardNo,
        months: n.months,
        amount: n.amount,
        renewedDate: iso(n.renewedAt),
        holder: maskedRider(deps.pii, r),
      })),
    () => deps.db.select({ n: count() }).from(t.familyRenewals).innerJoin(t.familyBindings, eq(t.familyBindings.id, t.familyRenewals.bindingId)).innerJoin(t.busCards, eq(t.busCards.id, t.familyBindings.cardId)).where(cond),
  );
}

export async function renewalSummary(deps: AppDeps, a: AuthContext, q: { busCardNo?: string | undefined }) {
  const [r] = await deps.db
    .select({ count: count(), amount: sql<number>`coalesce(sum(${t.familyRenewals.amount}), 0)::int` })
    .from(t.familyRenewals)
    .innerJoin(t.familyBindings, eq(t.familyBindings.id, t.familyRenewals.bindingId))
    .innerJoin(t.busCards, eq(t.busCards.id, t.familyBindings.cardId))
    .where(renewWhere(a, q));
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
    await moveStatus(tx, { flow: BINDING_STATE, table: t.familyBindings, key: t.familyBindings.id, id: live.b.id, status: t.familyBindings.status, from: 1, to: 0, set: { status: 0, unboundAt: now }, what: `亲情卡 ${q.busCardNo} 的绑定` });
    const after = await bindingRow(deps, tx, live.b.id);
    await audit(tx, a.actor, { type: 'FAMILY_UNBIND', targetDistrictId: live.b.districtId, target: `family-binding/${live.b.id}`, summary: `解绑亲情卡 ${q.busCardNo}`, before, after }, now);
    return after;
  });
}

export async function updateBinding(deps: AppDeps, a: AuthContext, ip: string, pwd: string, body: { id: number; relation: string }) {
  await verifyOwnPassword(deps, a, ip, pwd, PWD);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [b] = await tx.select().from(t.familyBindings).where(eq(t.familyBindings.id, body.id)).for('update');
    if (!b) throw notFound('绑定关系不存在');
    assertInScope(a, b.districtId);
    if (b.status !== 1) throw fail('该绑定已解除，不能修改');
    const before = await bindingRow(deps, tx, b.id);
    await tx.update(t.familyBindings).set({ relation: body.relation }).where(eq(t.familyBindings.id, b.id));
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


/** Bindings of the area as a spreadsheet, 1,000 rows at a time by id, the binder masked. */
async function* bindingRows(deps: AppDeps, a: AuthContext, q: BindFilters) {
  for await (const batch of bindingList(deps).batches(deps, a, q, 1_000)) {
    for (const d of batch) yield [d.id, d.cardNo, cardCategoryLabel(d.cardCategory), d.relation, d.holder.name, d.holder.phone, d.holder.citizenId, BINDING_STATE.label(d.status), shanghaiDate(d.boundDate), shanghaiDate(d.expiresDate), d.renewals];
  }
}

export async function exportBindings(deps: AppDeps, a: AuthContext, q: BindFilters, reply: FastifyReply) {
  const now = deps.clock.now();
  await audit(deps.db, a.actor, { type: 'FAMILY_EXPORT', targetDistrictId: a.districtScope, target: null, summary: '导出亲情卡绑定（绑定人信息已脱敏）', after: { filters: { ...q, citizenCardNo: q.citizenCardNo ? '（按身份证号筛选）' : undefined } } }, now);
  return sendXlsx(reply, `亲情卡绑定-${dayjs(now).format('YYYYMMDD-HHmm')}.xlsx`, {
    sheet: '亲情卡绑定',
    columns: [{ title: '绑定ID', width: 10 }, { title: '卡号', width: 20 }, { title: '卡类别', width: 14 }, { title: '关系', width: 8 }, { title: '绑定人', width: 10 }, { title: '手机号', width: 14 }, { title: '身份证号', width: 22 }, { title: '状态', width: 8 }, { title: '绑定日期', width: 12 }, { title: '到期日期', width: 12 }, { title: '续期次数', width: 10 }],
    rows: bindingRows(deps, a, q),
  });
}

async function* renewalRows(deps: AppDeps, a: AuthContext, q: { busCardNo?: string | undefined }) {
  for (let page = 0; ; page++) {
    const res = await pageRenewals(deps, a, { page, size: 1_000, busCardNo: q.busCardNo, sort: 'renewedDate,asc' });
    for (const r of res.content) yield [r.id, r.cardNo, r.holder.name, r.holder.phone, r.months, r.amount / 100, shanghaiDateTime(r.renewedDate)];
    if (res.content.length < 1_000) return;
  }
}

export async function exportRenewals(deps: AppDeps, a: AuthContext, q: { busCardNo?: string | undefined }, reply: FastifyReply) {
  const now = deps.clock.now();
  await audit(deps.db, a.actor, { type: 'FAMILY_EXPORT', targetDistrictId: a.districtScope, target: null, summary: '导出亲情卡续期记录（绑定人信息已脱敏）', after: { filters: q } }, now);
  return sendXlsx(reply, `亲情卡续期-${dayjs(now).format('YYYYMMDD-HHmm')}.xlsx`, {
    sheet: '续期记录',
    columns: [{ title: '记录ID', width: 10 }, { title: '卡号', width: 20 }, { title: '绑定人', width: 10 }, { title: '手机号', width: 14 }, { title: '续期月数', width: 10 }, { title: '金额（元）', width: 10 }, { title: '续期时间', width: 20 }],
    rows: renewalRows(deps, a, q),
  });
}
