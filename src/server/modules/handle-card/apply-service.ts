import { type SQL, and, count, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import * as api from '../../../shared/api/handle-card';
import {
  APPLY_PAY_TIMEOUT_MINUTES,
  APPLY_STATUS,
  type ApplyStatus,
  GUARDIAN_AGE,
  IMAGE_RETENTION_DAYS,
  MATERIALS,
  type MaterialKey,
  PHOTO_HEIGHT,
  PHOTO_MAX_BYTES,
  PHOTO_WIDTH,
  type PrecheckItem,
  REFUSALS,
  CLAIM_MS,
  applyCategoryLabel,
  deliveryLabel,
} from '../../../shared/api/handle-card';
import { isValidCitizenId } from '../../../shared/domain/citizen-id';
import { maskCitizenId, maskInText, maskName, maskPhone } from '../../../shared/domain/mask';
import { fenToYuan } from '../../../shared/domain/money';
import { DAY_MS, shanghaiDate, shanghaiDateTime, shanghaiMidnight } from '../../../shared/domain/time';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { type Actor, type OperationType, audit } from '../../lib/audit';
import { fail, failOn, forbidden, isUniqueViolation, notFound } from '../../lib/errors';
import { type ExportScope, defineExport, keysetRows, listRows } from '../../lib/export-definition';
import { type ListContext, listService } from '../../lib/list';
import { recordRefund, refundsOf, settleRefund } from '../../lib/refund-ledger';
import { liveClaim, reviewClaims } from '../../lib/review-claim';
import { openSealedFile, purgeSealedFiles, sealedFileInfos, storeSealedFiles } from '../../lib/sealed-files';
import { assertInScope, inScope } from '../../lib/scope';
import { iso } from '../../lib/sql';
import { handleCardApplications as apps, handleCardPool as pool, handleCardSettings as settings } from './schema';

type Scope = Pick<AuthContext, 'districtScope'>;
type Filters = z.output<typeof api.applyTotal.query>;
type ExportFilters = z.output<typeof api.applyExport.query>;
type AuditBody = z.output<typeof api.applyAudit.body>;
type SettingBody = z.output<typeof api.settingSave.body>;
type AppRow = typeof apps.$inferSelect;

const SYSTEM_ACTOR: Actor = { id: null, login: 'system', districtId: null, ip: null };
const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const digits = (s: string) => s.replace(/[\s-]/g, '');

// ---------------------------------------------------------------- shared pieces

/** Whole years of age on a Shanghai day, from a birth date (YYYY-MM-DD). */
export function ageOn(birthDate: string, today: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

/** The birth date a citizen id holds (characters 7–14). */
export const birthDateOf = (idNo: string) => `${idNo.slice(6, 10)}-${idNo.slice(10, 12)}-${idNo.slice(12, 14)}`;

/** What lists show of an address: up to its street (路/街/道/镇), never the number. */
export function streetOf(address: string): string {
  const m = /^(.*?(?:路|街|道|镇|乡|大道))/.exec(address.trim());
  return m ? `${m[1]}…` : `${address.trim().slice(0, 6)}…`;
}

/** The review queue's claims over this table: the rule 线上验卡 keeps (lib/review-claim.ts), over 待审核. */
export const claims = reviewClaims({
  table: apps,
  id: apps.id,
  status: apps.status,
  claimBy: apps.claimBy,
  claimUntil: apps.claimUntil,
  createdAt: apps.createdAt,
  pending: 1,
  ttlMs: CLAIM_MS,
  refusals: { decided: REFUSALS.stale, claimedBy: REFUSALS.claimedBy },
});

/** ROLE_ADMIN (and the super user above it) may take over another reviewer's claim. */
export const mayTakeOver = (a: Pick<AuthContext, 'roles'>) => a.roles.includes('ROLE_ADMIN') || a.roles.includes('ROLE_APP_ADMIN');

const claimer = alias(t.users, 'handle_claimer');
const applyColumns = { a: apps, districtName: t.districts.name, reviewerName: t.users.firstName, claimByName: claimer.firstName, claimByLogin: claimer.login };
type Selected = { a: AppRow; districtName: string | null; reviewerName: string | null; claimByName: string | null; claimByLogin: string | null };
const selectApps = (db: Db) =>
  db
    .select(applyColumns)
    .from(apps)
    .leftJoin(t.districts, eq(t.districts.id, apps.districtId))
    .leftJoin(t.users, eq(t.users.id, apps.reviewerId))
    .leftJoin(claimer, eq(claimer.id, apps.claimBy));

/** The live claim of a 待审核 row (an expired one, or one on a decided row, is nobody's). */
const claimOf = (r: Selected, now: Date) => {
  const by = r.a.status === 1 ? liveClaim(r.a, now) : null;
  return { claimById: by, claimByName: by === null ? null : r.claimByName || r.claimByLogin, claimUntil: by === null ? null : iso(r.a.claimUntil!) };
};

const applyDto = (deps: Pick<AppDeps, 'pii' | 'clock'>, r: Selected) => ({
  id: r.a.id,
  applyNo: r.a.applyNo,
  districtId: r.a.districtId,
  districtName: r.districtName,
  riderId: r.a.riderId,
  cardCategory: r.a.cardCategory,
  name: maskName(deps.pii.decrypt(r.a.nameEnc)),
  idNo: maskCitizenId(deps.pii.decrypt(r.a.idEnc)),
  phone: maskPhone(deps.pii.decrypt(r.a.phoneEnc)),
  age: ageOn(r.a.birthDate, shanghaiDate(r.a.createdAt)),
  guardianConsent: r.a.guardianConsent,
  delivery: r.a.delivery,
  deliveryTo: r.a.delivery === 2 ? (r.a.addressStreet ?? '—') : (r.a.pickupPoint ?? '—'),
  school: r.a.school,
  fee: r.a.fee,
  payStatus: api.APPLY_PAY_STATUS.schema.parse(r.a.payStatus),
  status: APPLY_STATUS.schema.parse(r.a.status),
  reason: r.a.reason,
  reviewerName: r.reviewerName,
  cardNo: r.a.cardNo,
  batchNo: r.a.batchNo,
  trackingNo: r.a.trackingNo,
  precheckGreen: r.a.precheckGreen,
  precheckRed: r.a.precheck.filter((p) => !p.ok).map((p) => p.label),
  ...claimOf(r, deps.clock.now()),
  createdDate: iso(r.a.createdAt),
  paidDate: r.a.paidAt ? iso(r.a.paidAt) : null,
  decidedDate: r.a.decidedAt ? iso(r.a.decidedAt) : null,
  shippedDate: r.a.shippedAt ? iso(r.a.shippedAt) : null,
  completedDate: r.a.completedAt ? iso(r.a.completedAt) : null,
});
export type ApplyDto = ReturnType<typeof applyDto>;

async function loadApply(deps: Pick<AppDeps, 'pii' | 'clock'>, db: Db, id: number) {
  const [r] = await selectApps(db).where(eq(apps.id, id));
  if (!r) throw notFound('申请不存在');
  return applyDto(deps, r);
}

// ---------------------------------------------------------------- the list

/** 办卡申请: the area's applications by number, phone or id (blind indexes), type, status, precheck and time. */
const applyList = listService({
  endpoint: api.applyPage,
  select: selectApps,
  count: (db) => db.select({ n: count() }).from(apps),
  scope: apps.districtId,
  filters: {
    applyNo: (applyNo) => eq(apps.applyNo, applyNo.trim()),
    phone: (phone, _q, _a, deps) => eq(apps.phoneIdx, deps.pii.index('phone', digits(phone))),
    idNo: (idNo, _q, _a, deps) => eq(apps.idHash, deps.pii.index('citizen', idNo)),
    cardCategory: (c) => eq(apps.cardCategory, c),
    status: (status) => eq(apps.status, status),
    delivery: (d) => eq(apps.delivery, d),
    precheck: (p) => eq(apps.precheckGreen, p === 'green'),
    startTime: (from) => gte(apps.createdAt, new Date(from)),
    endTime: (to) => lte(apps.createdAt, new Date(to)),
  },
  sorts: { createdDate: apps.createdAt, paidDate: apps.paidAt, fee: apps.fee },
  order: { column: apps.createdAt, dir: 'desc' },
  key: { column: apps.id, of: (r) => r.a.id },
  dto: (r, { deps }: ListContext<ExportScope>) => applyDto(deps, r),
});

export const pageApplies = (deps: AppDeps, a: AuthContext, q: z.output<typeof api.applyPage.query>) => applyList.page(deps, a, q);

/** The summary line: per status, the all-green 待审核 a batch would take, fees, and the pool's free numbers. */
export async function applyTotals(deps: AppDeps, a: AuthContext, q: Filters) {
  const where = applyList.where(deps, a, { ...q, status: undefined });
  const now = deps.clock.now();
  const rows = await deps.db
    .select({
      status: apps.status,
      n: count(),
      green: sql<number>`count(*) filter (where ${apps.precheckGreen})`.mapWith(Number),
      claimed: sql<number>`count(*) filter (where ${apps.claimUntil} > ${now})`.mapWith(Number),
      mine: sql<number>`count(*) filter (where ${apps.claimUntil} > ${now} and ${apps.claimBy} = ${a.user.id})`.mapWith(Number),
      paid: sql<number>`coalesce(sum(${apps.fee}) filter (where ${apps.payStatus} = 1), 0)`.mapWith(Number),
      refunded: sql<number>`coalesce(sum(${apps.fee}) filter (where ${apps.payStatus} = 2), 0)`.mapWith(Number),
    })
    .from(apps)
    .where(where)
    .groupBy(apps.status);
  const free = await deps.db.select({ c: pool.cardCategory, n: count() }).from(pool).where(eq(pool.state, 0)).groupBy(pool.cardCategory);
  const byStatus: Record<string, number> = {};
  for (const s of APPLY_STATUS.codes) byStatus[String(s)] = 0;
  for (const r of rows) byStatus[String(r.status)] = r.n;
  return {
    total: rows.reduce((s, r) => s + r.n, 0),
    byStatus,
    pendingGreen: rows.find((r) => r.status === 1)?.green ?? 0,
    claimed: rows.find((r) => r.status === 1)?.claimed ?? 0,
    claimedByMe: rows.find((r) => r.status === 1)?.mine ?? 0,
    feePaid: rows.reduce((s, r) => s + r.paid, 0),
    refunded: rows.reduce((s, r) => s + r.refunded, 0),
    poolFree: Object.fromEntries(api.APPLY_CATEGORIES.map((c) => [String(c), free.find((f) => f.c === c)?.n ?? 0])),
  };
}

/** 申请详情: the row, the precheck's green/red list, the materials (never their bytes), the refunds. */
export async function applyMsg(deps: AppDeps, a: Scope, id: number) {
  const [r] = await selectApps(deps.db).where(eq(apps.id, id));
  if (!r) throw notFound('申请不存在');
  assertInScope(a, r.a.districtId);
  const files = (await sealedFileInfos(deps.db, 'handle', [id])).get(id) ?? [];
  const refunds = await refundsOf(deps.db, 'handle', id);
  return {
    ...applyDto(deps, r),
    precheck: r.a.precheck,
    materials: files,
    refunds: refunds.map((f) => ({ id: f.id, amount: f.amount, reason: f.reason, state: f.state, createdDate: iso(f.createdAt) })),
    imagesPurged: r.a.imagesPurgedAt !== null,
  };
}

export const applyExportDef = defineExport({
  id: 'handleCard.applies',
  permission: api.applyExport.permission,
  sheet: '办卡申请',
  columns: [
    { header: '申请号', width: 22, cell: (r: ApplyDto) => r.applyNo },
    { header: '区域', width: 10, cell: (r) => r.districtName },
    { header: '卡类型', width: 12, cell: (r) => applyCategoryLabel(r.cardCategory) },
    { header: '姓名', width: 8, mask: 'name', cell: (r) => r.name },
    { header: '身份证号', width: 20, mask: 'citizenId', cell: (r) => r.idNo },
    { header: '手机号', width: 14, mask: 'phone', cell: (r) => r.phone },
    { header: '年龄', width: 6, cell: (r) => r.age },
    { header: '领取方式', width: 8, cell: (r) => deliveryLabel(r.delivery) },
    { header: '寄送/领取', width: 20, cell: (r) => r.deliveryTo },
    { header: '工本费（元）', width: 10, cell: (r) => r.fee / 100 },
    { header: '支付状态', width: 8, cell: (r) => api.APPLY_PAY_STATUS.label(r.payStatus) },
    { header: '状态', width: 12, cell: (r) => APPLY_STATUS.label(r.status) },
    { header: '预检', width: 20, cell: (r) => (r.precheckGreen ? '全绿' : r.precheckRed.join('、')) },
    { header: '原因', width: 20, cell: (r) => r.reason },
    { header: '卡号', width: 18, cell: (r) => r.cardNo },
    { header: '快递单号', width: 16, cell: (r) => r.trackingNo },
    { header: '申请时间', width: 20, cell: (r) => shanghaiDateTime(r.createdDate) },
  ],
  rows: listRows(applyList, (q: ExportFilters) => q),
  audit: { operation: 'HANDLE_CARD_EXPORT' },
});

export const exportTitle = (q: ExportFilters) => ['办卡申请', q.status !== undefined ? APPLY_STATUS.label(q.status) : '', q.cardCategory ? applyCategoryLabel(q.cardCategory) : ''].filter(Boolean).join(' ');

// ---------------------------------------------------------------- the factory file

interface FactoryRow {
  id: number;
  applyNo: string;
  cardNo: string;
  cardCategory: number;
  name: string;
  districtName: string | null;
  delivery: number;
  photoSha: string | null;
  photo: string;
}

/** A cell holds at most 32,767 characters; a photo's data URL longer than this is named by its hash only. */
const CELL_MAX = 32_000;

/**
 * 导出制卡文件: the cards approved on one Shanghai day (their batch), with the holder's name unmasked
 * and the photo, for the card factory to print. HANDLE_CARD_FACTORY_EXPORT only; the task's
 * queueing writes the audit row.
 */
export const factoryExportDef = defineExport({
  id: 'handleCard.factory',
  permission: api.applyFactoryExport.permission,
  sheet: '制卡文件',
  columns: [
    { header: '申请号', width: 22, cell: (r: FactoryRow) => r.applyNo },
    { header: '卡号', width: 18, cell: (r) => r.cardNo },
    { header: '卡类型', width: 12, cell: (r) => applyCategoryLabel(r.cardCategory) },
    // Printed on the card: unmasked by design (the permission and the audit row are the guard).
    { header: '姓名', width: 10, cell: (r) => r.name },
    { header: '区域', width: 10, cell: (r) => r.districtName },
    { header: '领取方式', width: 8, cell: (r) => deliveryLabel(r.delivery) },
    { header: '照片SHA-256', width: 66, cell: (r) => r.photoSha },
    { header: '照片', width: 30, cell: (r) => r.photo },
  ],
  rows: keysetRows({
    count: async ({ deps, scope }, q: { batchDate: string }) => {
      const [n] = await deps.db
        .select({ n: count() })
        .from(apps)
        .where(and(eq(apps.batchNo, q.batchDate), inArray(apps.status, [2, 4, 5]), inScope(scope, apps.districtId)));
      return n?.n ?? 0;
    },
    async read({ deps, scope }, q, after: number | null, limit) {
      const rows = await deps.db
        .select({ a: apps, districtName: t.districts.name })
        .from(apps)
        .leftJoin(t.districts, eq(t.districts.id, apps.districtId))
        .where(and(eq(apps.batchNo, q.batchDate), inArray(apps.status, [2, 4, 5]), inScope(scope, apps.districtId), after === null ? undefined : sql`${apps.id} > ${after}`))
        .orderBy(apps.id)
        .limit(limit);
      const out: FactoryRow[] = [];
      for (const r of rows) {
        const info = ((await sealedFileInfos(deps.db, 'handle', [r.a.id])).get(r.a.id) ?? []).find((f) => f.label === MATERIALS.photo);
        const opened = info ? await openSealedFile(deps.db, deps.pii, 'handle', r.a.id, info.id) : null;
        const dataUrl = opened ? `data:${opened.info.mime};base64,${opened.data.toString('base64')}` : '';
        out.push({
          id: r.a.id,
          applyNo: r.a.applyNo,
          cardNo: r.a.cardNo ?? '',
          cardCategory: r.a.cardCategory,
          name: deps.pii.decrypt(r.a.nameEnc),
          districtName: r.districtName,
          delivery: r.a.delivery,
          photoSha: info?.sha256 ?? null,
          photo: !opened ? '照片已清除' : dataUrl.length <= CELL_MAX ? dataUrl : `照片见 ${r.a.applyNo}.jpg`,
        });
      }
      return out;
    },
    cursor: (r) => r.id,
  }),
  audit: { operation: 'HANDLE_CARD_FACTORY_EXPORT' },
});

// ---------------------------------------------------------------- decisions

async function lockApply(tx: Db, a: Scope, id: number) {
  const [row] = await tx.select().from(apps).where(eq(apps.id, id)).for('update');
  if (!row) throw notFound('申请不存在');
  assertInScope(a, row.districtId);
  return row;
}

/** The next free number of a category, taken so no other transaction can take it (`skip locked`). */
async function reserveNumber(tx: Db, category: number, applicationId: number, now: Date): Promise<string> {
  const [free] = await tx
    .select({ id: pool.id, cardNo: pool.cardNo })
    .from(pool)
    .where(and(eq(pool.cardCategory, category), eq(pool.state, 0)))
    .orderBy(pool.id)
    .limit(1)
    .for('update', { skipLocked: true });
  if (!free) throw fail(REFUSALS.pool);
  const taken = await tx
    .update(pool)
    .set({ state: 1, applicationId, updatedAt: now })
    .where(and(eq(pool.id, free.id), eq(pool.state, 0)))
    .returning({ id: pool.id });
  if (!taken.length) throw fail(REFUSALS.pool);
  return free.cardNo;
}

/** The fee back, once: the ledger row's key is the application number (unique per kind and order too). */
async function refundFee(tx: Db, row: AppRow, reason: string, operatorId: number | null, now: Date) {
  if (row.payStatus !== 1 || row.fee <= 0) return null;
  await tx.update(apps).set({ payStatus: 2 }).where(and(eq(apps.id, row.id), eq(apps.payStatus, 1)));
  return recordRefund(tx, { kind: 'handle', orderId: row.id, districtId: row.districtId, orderNo: row.applyNo, amount: row.fee, reason, idempotencyKey: row.applyNo, operatorId, now });
}

const takeOverAudit = (a: AuthContext, row: AppRow, from: { name: string }, now: Date, tx: Db) =>
  audit(tx, a.actor, { type: 'HANDLE_CARD_TAKEOVER', targetDistrictId: row.districtId, target: `handle-card/${row.id}`, summary: `接管办卡申请 ${row.applyNo}（原由${from.name}审核）`, before: { claimBy: row.claimBy }, after: { claimBy: a.user.id } }, now);

/**
 * 下一条办卡审核 / 认领. Without an id: the oldest 待审核 application in the caller's district nobody
 * else holds (skip locked: two reviewers get two); with one: that one, refused while another holds it
 * unless ROLE_ADMIN takes it over (audited).
 */
export async function claimApply(deps: AppDeps, a: AuthContext, body: z.output<typeof api.applyClaim.body>) {
  const now = deps.clock.now();
  if (body.takeOver && !mayTakeOver(a)) throw forbidden(REFUSALS.takeOver);
  const id = await deps.db.transaction(async (tx) => {
    if (body.id === undefined) return claims.next(tx, { userId: a.user.id, now, skip: body.skip, where: inScope(a, apps.districtId) });
    const row = await lockApply(tx, a, body.id);
    const got = await claims.claim(tx, { id: row.id, userId: a.user.id, now, takeOver: !!body.takeOver });
    if (!got) throw notFound('申请不存在');
    if (got.takenFrom) await takeOverAudit(a, row, got.takenFrom, now, tx);
    return row.id;
  });
  return id === null ? null : applyMsg(deps, a, id);
}

/** 放弃认领: gives one's own claim back (skipping, leaving the queue). */
export async function releaseApply(deps: AppDeps, a: AuthContext, id: number) {
  const [row] = await deps.db.select({ districtId: apps.districtId }).from(apps).where(eq(apps.id, id));
  if (!row) throw notFound('申请不存在');
  assertInScope(a, row.districtId);
  return { released: await deps.db.transaction((tx) => claims.release(tx, { id, userId: a.user.id })) };
}

interface Decision {
  apply: ApplyDto;
  replayed: boolean;
  refundId: number | null;
}

/** One decision in its own transaction: 通过 (1 → 2), 驳回 (1 → 3) or 制卡失败 (2 → 3). */
async function decide(deps: AppDeps, a: AuthContext, body: { id: number; fromStatus: number; toStatus: 2 | 3; reason?: string | undefined; idempotencyKey: string; takeOver?: boolean | undefined }, batch = false): Promise<Decision> {
  if (body.takeOver && !mayTakeOver(a)) throw forbidden(REFUSALS.takeOver);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockApply(tx, a, body.id);
    // The same decision sent again (a retry after a lost answer): answered as the first was.
    const [seen] = await tx.select({ id: apps.id }).from(apps).where(eq(apps.decisionKey, body.idempotencyKey));
    if (seen) {
      if (seen.id !== row.id) throw fail('该审核请求编号已用于另一条申请，请重新发起');
      return { apply: await loadApply(deps, tx, row.id), replayed: true, refundId: null };
    }
    if (row.status !== body.fromStatus) throw fail(REFUSALS.stale);
    // 待审核 may be held by another reviewer in the queue: refused with their name, or taken over (audited).
    if (row.status === 1) {
      const may = await claims.assertMayDecide(tx, { id: row.id, from: 1, userId: a.user.id, now, takeOver: !!body.takeOver });
      if (may?.takenFrom) await takeOverAudit(a, row, may.takenFrom, now, tx);
    }
    const from = row.status as ApplyStatus;
    if (!APPLY_STATUS.can(from, body.toStatus)) throw fail(APPLY_STATUS.refusal(`申请 ${row.applyNo}`, from, body.toStatus));
    const cat = applyCategoryLabel(row.cardCategory);
    let refundId: number | null = null;
    let type: 'HANDLE_CARD_APPROVE' | 'HANDLE_CARD_REJECT' | 'HANDLE_CARD_FAIL';
    let summary: string;
    if (body.toStatus === 2) {
      const cardNo = await reserveNumber(tx, row.cardCategory, row.id, now);
      await tx
        .update(apps)
        .set({ status: 2, cardNo, batchNo: shanghaiDate(now), reviewerId: a.user.id, decisionKey: body.idempotencyKey, decidedAt: now, reason: null, claimBy: null, claimUntil: null, updatedAt: now })
        .where(and(eq(apps.id, row.id), eq(apps.status, 1)));
      type = 'HANDLE_CARD_APPROVE';
      summary = `${batch ? '批量' : ''}通过办卡申请 ${row.applyNo}（${cat}），预留卡号 ${cardNo}`;
    } else {
      if ((body.reason ?? '').trim().length < api.REASON_MIN) throw failOn('reason', REFUSALS.reason);
      // The reason is shown in lists, exports and to the rider: a number typed into it is kept masked.
      const reason = maskInText((body.reason ?? '').trim());
      if (from === 2 && row.cardNo) {
        // The card could not be made: its number goes back to the pool.
        await tx.update(pool).set({ state: 0, applicationId: null, updatedAt: now }).where(and(eq(pool.cardNo, row.cardNo), eq(pool.state, 1)));
      }
      await tx
        .update(apps)
        .set({ status: 3, reason, reviewerId: a.user.id, decisionKey: body.idempotencyKey, decidedAt: now, claimBy: null, claimUntil: null, updatedAt: now })
        .where(and(eq(apps.id, row.id), eq(apps.status, from)));
      const refund = await refundFee(tx, row, from === 2 ? `制卡失败：${reason}` : `办卡申请驳回：${reason}`, a.user.id, now);
      refundId = refund?.id ?? null;
      type = from === 2 ? 'HANDLE_CARD_FAIL' : 'HANDLE_CARD_REJECT';
      summary = `${from === 2 ? '制卡失败' : '驳回办卡申请'} ${row.applyNo}（${cat}），原因：${reason}${refund ? `，退还工本费 ${fenToYuan(refund.amount)} 元` : ''}`;
    }
    const after = await loadApply(deps, tx, row.id);
    await audit(tx, a.actor, { type, targetDistrictId: row.districtId, target: `handle-card/${row.id}`, summary, before: { status: from }, after: { status: after.status, cardNo: after.cardNo, reason: after.reason, refund: refundId } }, now);
    return { apply: after, replayed: false, refundId };
  });
}

/** 审核: 通过 / 驳回 / 制卡失败, guarded by the status the reviewer saw; a refund is settled with the channel after the commit. */
export async function auditApply(deps: AppDeps, a: AuthContext, body: AuditBody) {
  const d = await decide(deps, a, body);
  if (d.refundId !== null) await settleRefund(deps, d.refundId);
  return { apply: d.apply, replayed: d.replayed };
}

/**
 * 批量通过预检全绿: each chosen application that is 待审核 with every precheck line green is approved in
 * its own transaction (one audit row each), keyed `<key>-<id>` so a retried batch answers as the
 * first; the rest are skipped with why. A single approval racing the batch meets the same row lock.
 */
export async function auditBatch(deps: AppDeps, a: AuthContext, body: z.output<typeof api.applyAuditBatch.body>) {
  const ids = [...new Set(body.ids)];
  const rows = await deps.db.select({ id: apps.id, applyNo: apps.applyNo, districtId: apps.districtId, status: apps.status, green: apps.precheckGreen, key: apps.decisionKey }).from(apps).where(inArray(apps.id, ids));
  const approved: { id: number; applyNo: string; cardNo: string }[] = [];
  const skipped: { id: number; applyNo: string | null; reason: string }[] = [];
  let replays = 0;
  for (const id of ids) {
    const r = rows.find((x) => x.id === id);
    if (!r) {
      skipped.push({ id, applyNo: null, reason: '申请不存在' });
      continue;
    }
    assertInScope(a, r.districtId);
    const key = `${body.idempotencyKey}-${id}`;
    if (r.key !== key) {
      if (r.status !== 1) {
        skipped.push({ id, applyNo: r.applyNo, reason: `${APPLY_STATUS.label(r.status as ApplyStatus)}，${REFUSALS.stale}` });
        continue;
      }
      if (!r.green) {
        skipped.push({ id, applyNo: r.applyNo, reason: '预检未全绿，请逐条审核' });
        continue;
      }
    }
    try {
      const d = await decide(deps, a, { id, fromStatus: 1, toStatus: 2, idempotencyKey: key }, true);
      if (d.replayed) replays++;
      approved.push({ id, applyNo: d.apply.applyNo, cardNo: d.apply.cardNo ?? '' });
    } catch (err) {
      skipped.push({ id, applyNo: r.applyNo, reason: err instanceof Error ? err.message : String(err) });
    }
  }
  return { approved, skipped, replayed: approved.length > 0 && replays === approved.length };
}

/** 录入快递单号 / 待领取: 制卡中 → 已寄出/待领取; the reserved number is now used. */
export async function shipApply(deps: AppDeps, a: AuthContext, body: z.output<typeof api.applyShip.body>) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockApply(tx, a, body.id);
    if (row.status !== 2) throw fail(REFUSALS.stale);
    const tracking = body.trackingNo?.trim() || null;
    if (row.delivery === 2 && !tracking) throw failOn('trackingNo', REFUSALS.tracking);
    if (row.delivery === 1 && body.pickupReady !== true) throw failOn('pickupReady', '自取办理请确认卡片已到领取点');
    await tx
      .update(apps)
      .set({ status: 4, trackingNo: row.delivery === 2 ? tracking : null, shippedAt: now, updatedAt: now })
      .where(and(eq(apps.id, row.id), eq(apps.status, 2)));
    if (row.cardNo) await tx.update(pool).set({ state: 2, updatedAt: now }).where(and(eq(pool.cardNo, row.cardNo), eq(pool.state, 1)));
    const after = await loadApply(deps, tx, row.id);
    await audit(
      tx,
      a.actor,
      { type: 'HANDLE_CARD_SHIP', targetDistrictId: row.districtId, target: `handle-card/${row.id}`, summary: row.delivery === 2 ? `办卡申请 ${row.applyNo} 已寄出，快递单号 ${tracking}` : `办卡申请 ${row.applyNo} 卡片已到领取点（${row.pickupPoint ?? ''}）`, before: { status: 2 }, after: { status: 4, trackingNo: tracking } },
      now,
    );
    return after;
  });
}

/** 完成: 已寄出/待领取 → 已完成 (the rider received or collected the card). */
export async function completeApply(deps: AppDeps, a: AuthContext | null, id: number) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = a ? await lockApply(tx, a, id) : (await tx.select().from(apps).where(eq(apps.id, id)).for('update'))[0];
    if (!row) throw notFound('申请不存在');
    if (row.status !== 4) throw fail(REFUSALS.stale);
    await tx.update(apps).set({ status: 5, completedAt: now, updatedAt: now }).where(and(eq(apps.id, row.id), eq(apps.status, 4)));
    const after = await loadApply(deps, tx, row.id);
    await audit(tx, a?.actor ?? SYSTEM_ACTOR, { type: 'HANDLE_CARD_COMPLETE', targetDistrictId: row.districtId, target: `handle-card/${row.id}`, summary: `办卡申请 ${row.applyNo} 已完成（卡号 ${row.cardNo}）`, before: { status: 4 }, after: { status: 5 } }, now);
    return after;
  });
}

/** One material's image, opened with a reason: scoped, audited (the reason, never the image), no-store. */
export async function openMaterial(deps: AppDeps, a: AuthContext, body: z.output<typeof api.applyMaterial.body>, setNoStore: () => void) {
  const [row] = await deps.db.select({ id: apps.id, applyNo: apps.applyNo, districtId: apps.districtId }).from(apps).where(eq(apps.id, body.id));
  if (!row) throw notFound('申请不存在');
  assertInScope(a, row.districtId);
  const file = await openSealedFile(deps.db, deps.pii, 'handle', row.id, body.materialId);
  if (!file) throw fail('材料不存在或已过保存期清除');
  await audit(deps.db, a.actor, { type: 'HANDLE_CARD_MATERIAL', targetDistrictId: row.districtId, target: `handle-card/${row.id}`, summary: `查看办卡申请 ${row.applyNo} 的${file.info.label}，原因：${body.reason}`, after: { materialId: file.info.id, sha256: file.info.sha256, reason: body.reason } }, deps.clock.now());
  setNoStore();
  return { id: file.info.id, label: file.info.label, mime: file.info.mime, width: file.info.width, height: file.info.height, dataUrl: `data:${file.info.mime};base64,${file.data.toString('base64')}` };
}

// ---------------------------------------------------------------- settings

const settingColumns = { s: settings, districtName: t.districts.name };
const selectSettings = (db: Db) => db.select(settingColumns).from(settings).leftJoin(t.districts, eq(t.districts.id, settings.districtId));
const settingDto = (r: { s: typeof settings.$inferSelect; districtName: string | null }) => ({
  id: r.s.id,
  districtId: r.s.districtId,
  districtName: r.districtName,
  cardCategory: r.s.cardCategory,
  open: r.s.open,
  ageMin: r.s.ageMin,
  ageMax: r.s.ageMax,
  feeFen: r.s.feeFen,
  deliveryModes: r.s.deliveryModes,
  materials: r.s.materials,
  onePerId: r.s.onePerId,
  dailyQuota: r.s.dailyQuota,
  ruleText: r.s.ruleText,
  updatedDate: iso(r.s.updatedAt),
});

export async function listSettings(deps: AppDeps, a: AuthContext, q: z.output<typeof api.settingList.query>) {
  const rows = await selectSettings(deps.db)
    .where(and(inScope(a, settings.districtId), q.cardCategory ? eq(settings.cardCategory, q.cardCategory) : undefined))
    .orderBy(settings.districtId, settings.cardCategory);
  return rows.map(settingDto);
}

async function loadSetting(db: Db, id: number) {
  const [r] = await selectSettings(db).where(eq(settings.id, id));
  if (!r) throw notFound('办卡设置不存在');
  return settingDto(r);
}

export async function settingById(deps: AppDeps, a: AuthContext, id: number) {
  const s = await loadSetting(deps.db, id);
  assertInScope(a, s.districtId);
  return s;
}

/** 保存办卡设置 (and 办卡须知 when sent): one row per category and district, audited with before and after. */
export async function saveSetting(deps: AppDeps, a: AuthContext, body: SettingBody) {
  const now = deps.clock.now();
  const fields = {
    open: body.open,
    ageMin: body.ageMin,
    ageMax: body.ageMax,
    feeFen: body.feeFen,
    deliveryModes: [...new Set(body.deliveryModes)].sort(),
    materials: [...new Set(body.materials)],
    onePerId: body.onePerId,
    dailyQuota: body.dailyQuota,
    updatedBy: a.user.id,
    updatedAt: now,
    ...(body.ruleText !== undefined ? { ruleText: body.ruleText } : {}),
  };
  return deps.db.transaction(async (tx) => {
    let id = body.id;
    let before: ReturnType<typeof settingDto> | null = null;
    if (id === undefined) {
      const districtId = a.districtScope ?? body.districtId;
      if (!districtId) throw failOn('districtId', '请选择区域');
      const [existing] = await tx.select({ id: settings.id }).from(settings).where(and(eq(settings.districtId, districtId), eq(settings.cardCategory, body.cardCategory)));
      if (existing) throw failOn('cardCategory', `该区域已有${applyCategoryLabel(body.cardCategory)}的办卡设置`);
      const [row] = await tx
        .insert(settings)
        .values({ districtId, cardCategory: body.cardCategory, ...fields })
        .returning({ id: settings.id });
      id = row!.id;
    } else {
      const [row] = await tx.select().from(settings).where(eq(settings.id, id)).for('update');
      if (!row) throw notFound('办卡设置不存在');
      assertInScope(a, row.districtId);
      if (row.cardCategory !== body.cardCategory) throw failOn('cardCategory', '卡类型不能修改');
      before = await loadSetting(tx, id);
      await tx.update(settings).set(fields).where(eq(settings.id, id));
    }
    const after = await loadSetting(tx, id);
    const what = `${after.districtName ?? ''}${applyCategoryLabel(after.cardCategory)}`;
    const rule = body.ruleText !== undefined && before?.ruleText !== body.ruleText;
    await audit(
      tx,
      a.actor,
      { type: 'HANDLE_CARD_SETTING', targetDistrictId: after.districtId, target: `handle-card-setting/${id}`, summary: `${before ? '修改' : '新增'}办卡设置：${what}${after.open ? '（开放）' : '（未开放）'}${rule ? '，办卡须知已修改' : ''}`, before, after },
      now,
    );
    return after;
  });
}

// ---------------------------------------------------------------- the rider side (service functions)

export interface ImageInput {
  mime: string;
  data: Buffer;
  width: number;
  height: number;
}

export interface SubmitInput {
  riderId: number;
  districtId: number;
  cardCategory: number;
  name: string;
  idNo: string;
  phone: string;
  address?: string | null;
  delivery: 1 | 2;
  pickupPoint?: string | null;
  school?: string | null;
  guardianConsent?: boolean;
  photo: ImageInput;
  idFront: ImageInput;
  idBack: ImageInput;
  /** Further materials by key (学生证, 在读证明…). */
  proofs?: { key: MaterialKey; image: ImageInput }[];
}

const APPLY_LOCK = 7_412;
const applyNoOf = (now: Date, id: number) => `BK${shanghaiDate(now).replaceAll('-', '')}${String(id).padStart(8, '0')}`;

/** The card of this id and category that is still valid: a card of the rider's, or one an earlier application issued. */
async function validCardOf(db: Db, idHash: string, category: number): Promise<string | null> {
  const [card] = rowsOf<{ card_no: string }>(
    await db.execute(sql`select c.card_no from bus_cards c join riders r on r.id = c.rider_id where r.citizen_idx = ${idHash} and c.category = ${category} and c.state in (0, 1, 2) order by c.id limit 1`),
  );
  if (card) return card.card_no;
  const [issued] = await db
    .select({ cardNo: apps.cardNo })
    .from(apps)
    .where(and(eq(apps.idHash, idHash), eq(apps.cardCategory, category), eq(apps.status, 5)))
    .limit(1);
  return issued?.cardNo ?? null;
}

/** A card of this id and category in a state that needs a reviewer's eye (挂失, 黑名单…): a red line, not a refusal. */
async function troubledCardOf(db: Db, idHash: string, category: number): Promise<{ cardNo: string; state: number } | null> {
  const [card] = rowsOf<{ card_no: string; state: number }>(
    await db.execute(sql`select c.card_no, c.state from bus_cards c join riders r on r.id = c.rider_id where r.citizen_idx = ${idHash} and c.category = ${category} and c.state in (3, 5, 7, 8) order by c.id limit 1`),
  );
  return card ? { cardNo: card.card_no, state: Number(card.state) } : null;
}

const CARD_STATE_WORDS: Record<number, string> = { 3: '已挂失', 5: '已停用（黑名单）', 7: '退卡登记', 8: '换卡登记' };

/**
 * 提交 with ★ 提交即预检: what the rider can fix is refused at once in the design's words (a closed
 * type, a bad id, the photo's size, the age, no guardian's consent, a valid card of the type); what
 * needs a reviewer's judgement (a missing proof, an old card 挂失) is stored as a red line. The
 * partial unique index keeps one application per id and category in flight, whatever races.
 */
export async function submitApplication(deps: Pick<AppDeps, 'db' | 'clock' | 'pii'>, input: SubmitInput) {
  const now = deps.clock.now();
  const today = shanghaiDate(now);
  const cat = applyCategoryLabel(input.cardCategory);
  const idNo = input.idNo.trim().toUpperCase();
  const [setting] = await deps.db.select().from(settings).where(and(eq(settings.districtId, input.districtId), eq(settings.cardCategory, input.cardCategory)));
  if (!setting || !setting.open) throw fail(REFUSALS.closed(cat));
  if (!isValidCitizenId(idNo, now)) throw fail(REFUSALS.idChecksum);
  const p = input.photo;
  if (p.width !== PHOTO_WIDTH || p.height !== PHOTO_HEIGHT || p.data.length >= PHOTO_MAX_BYTES) throw fail(REFUSALS.photo);
  const birthDate = birthDateOf(idNo);
  const age = ageOn(birthDate, today);
  if (age < setting.ageMin || age > setting.ageMax) throw fail(REFUSALS.age(cat, setting.ageMin, setting.ageMax));
  if (age < GUARDIAN_AGE && !input.guardianConsent) throw fail(REFUSALS.guardian);
  if (!setting.deliveryModes.includes(input.delivery)) throw fail(`${cat}不支持${deliveryLabel(input.delivery)}`);
  if (input.delivery === 2 && !input.address?.trim()) throw fail('邮寄办理须填写收件地址');
  const idHash = deps.pii.index('citizen', idNo);
  const valid = setting.onePerId ? await validCardOf(deps.db, idHash, input.cardCategory) : null;
  if (valid) throw fail(REFUSALS.duplicate(cat, valid));
  const troubled = await troubledCardOf(deps.db, idHash, input.cardCategory);
  const given = new Set<string>(['photo', 'idFront', 'idBack', ...(input.proofs ?? []).map((x) => x.key), ...(input.guardianConsent ? ['guardianConsent'] : [])]);
  const missing = setting.materials.filter((m) => !given.has(m)).map((m) => MATERIALS[m as MaterialKey] ?? m);
  const precheck: PrecheckItem[] = [
    { key: 'photo', label: '照片规格', ok: true, note: `${p.width}×${p.height}，${Math.ceil(p.data.length / 1024)}KB` },
    { key: 'idChecksum', label: '身份证校验', ok: true, note: '校验通过' },
    { key: 'age', label: '年龄', ok: true, note: `${age}周岁（${setting.ageMin}–${setting.ageMax}周岁）` },
    { key: 'onePerId', label: '一证一卡', ok: true, note: setting.onePerId ? '无有效同类卡' : '该卡种不限一证一卡' },
    { key: 'existingCard', label: '已有卡片状态', ok: !troubled, note: troubled ? `已有${cat} ${troubled.cardNo}，状态${CARD_STATE_WORDS[troubled.state] ?? troubled.state}，请核实是否补卡` : '无异常卡片' },
    { key: 'guardian', label: '监护人同意', ok: true, note: age < GUARDIAN_AGE ? '已同意' : '已满14周岁，无须' },
    { key: 'materials', label: '证明材料', ok: missing.length === 0, note: missing.length ? `缺少${missing.join('、')}` : '齐全' },
  ];
  const free = setting.feeFen === 0;
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${APPLY_LOCK}, ${input.districtId * 10 + input.cardCategory})`);
    if (setting.dailyQuota > 0) {
      const [n] = await tx
        .select({ n: count() })
        .from(apps)
        .where(and(eq(apps.districtId, input.districtId), eq(apps.cardCategory, input.cardCategory), gte(apps.createdAt, shanghaiMidnight(today)), sql`${apps.status} <> 6`));
      if ((n?.n ?? 0) >= setting.dailyQuota) throw fail(`今日${cat}线上办理名额已满，请明日再来`);
    }
    const [seq] = rowsOf<{ n: string }>(await tx.execute(sql`select nextval(pg_get_serial_sequence('handle_card_applications', 'id')) as n`));
    const id = Number(seq?.n);
    try {
      await tx.insert(apps).values({
        id,
        applyNo: applyNoOf(now, id),
        districtId: input.districtId,
        riderId: input.riderId,
        cardCategory: input.cardCategory,
        nameEnc: deps.pii.encrypt(input.name.trim()),
        idEnc: deps.pii.encrypt(idNo),
        idHash,
        phoneEnc: deps.pii.encrypt(digits(input.phone)),
        phoneIdx: deps.pii.index('phone', digits(input.phone)),
        addressEnc: input.address ? deps.pii.encrypt(input.address.trim()) : null,
        addressStreet: input.address ? streetOf(input.address) : null,
        birthDate,
        guardianConsent: !!input.guardianConsent,
        school: input.school ?? null,
        delivery: input.delivery,
        pickupPoint: input.delivery === 1 ? (input.pickupPoint ?? `${cat}服务网点`) : null,
        fee: setting.feeFen,
        payStatus: free ? 1 : 0,
        status: free ? 1 : 0,
        precheck,
        precheckGreen: precheck.every((x) => x.ok),
        createdAt: now,
        paidAt: free ? now : null,
        updatedAt: now,
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      throw fail(`该身份证已有办理中的${cat}申请，不能重复提交`);
    }
    const files = [
      { label: MATERIALS.photo, img: input.photo },
      { label: MATERIALS.idFront, img: input.idFront },
      { label: MATERIALS.idBack, img: input.idBack },
      ...(input.proofs ?? []).map((x) => ({ label: MATERIALS[x.key], img: x.image })),
    ];
    await storeSealedFiles(tx, deps.pii, files.map((f) => ({ kind: 'handle' as const, refId: id, label: f.label, mime: f.img.mime, data: f.img.data, width: f.img.width, height: f.img.height })), now);
    const [row] = await tx.select().from(apps).where(eq(apps.id, id));
    return row!;
  });
}

/** The channel's payment notice: 待支付 → 待审核 once; a notice after the timeout cancelled it is refunded at once. */
export async function payApplication(deps: Pick<AppDeps, 'db' | 'clock'> & Partial<Pick<AppDeps, 'payments'>>, id: number) {
  const now = deps.clock.now();
  let refundId: number | null = null;
  const row = await deps.db.transaction(async (tx) => {
    const [r] = await tx.select().from(apps).where(eq(apps.id, id)).for('update');
    if (!r) throw notFound('申请不存在');
    if (r.payStatus !== 0) return r;
    if (r.status === 0) {
      const [paid] = await tx.update(apps).set({ status: 1, payStatus: 1, paidAt: now, updatedAt: now }).where(and(eq(apps.id, id), eq(apps.status, 0))).returning();
      return paid!;
    }
    // Cancelled for want of payment, and the money came after all: it goes back.
    const [paid] = await tx.update(apps).set({ payStatus: 1, paidAt: now, updatedAt: now }).where(eq(apps.id, id)).returning();
    const refund = await refundFee(tx, paid!, '申请已超时取消后收到支付，全额退回', null, now);
    refundId = refund?.id ?? null;
    await audit(tx, SYSTEM_ACTOR, { type: 'HANDLE_CARD_CANCEL', targetDistrictId: r.districtId, target: `handle-card/${id}`, summary: `办卡申请 ${r.applyNo} 取消后收到支付，退还 ${fenToYuan(r.fee)} 元`, after: { refund: refundId } }, now);
    const [after] = await tx.select().from(apps).where(eq(apps.id, id));
    return after!;
  });
  if (refundId !== null && deps.payments) await settleRefund(deps as AppDeps, refundId);
  return row;
}

/** The rider cancels: 待支付 → 已取消; 待审核 → 已取消 with the fee refunded (key = applyNo). Later, the reviewer has it. */
export async function cancelApplication(deps: Pick<AppDeps, 'db' | 'clock'> & Partial<Pick<AppDeps, 'payments'>>, id: number) {
  const now = deps.clock.now();
  let refundId: number | null = null;
  const row = await deps.db.transaction(async (tx) => {
    const [r] = await tx.select().from(apps).where(eq(apps.id, id)).for('update');
    if (!r) throw notFound('申请不存在');
    if (r.status !== 0 && r.status !== 1) throw fail('申请已在审核或制卡中，不能取消');
    await tx.update(apps).set({ status: 6, cancelledAt: now, claimBy: null, claimUntil: null, updatedAt: now }).where(and(eq(apps.id, id), eq(apps.status, r.status)));
    const refund = r.status === 1 ? await refundFee(tx, r, '乘客取消办卡申请', null, now) : null;
    refundId = refund?.id ?? null;
    await audit(tx, SYSTEM_ACTOR, { type: 'HANDLE_CARD_CANCEL', targetDistrictId: r.districtId, target: `handle-card/${id}`, summary: `乘客取消办卡申请 ${r.applyNo}${refund ? `，退还 ${fenToYuan(refund.amount)} 元` : ''}`, before: { status: r.status }, after: { status: 6, refund: refundId } }, now);
    const [after] = await tx.select().from(apps).where(eq(apps.id, id));
    return after!;
  });
  if (refundId !== null && deps.payments) await settleRefund(deps as AppDeps, refundId);
  return row;
}

// ---------------------------------------------------------------- jobs

/**
 * A timed move of one status to the next (the pay timeout, the auto-completion): a batch at a time,
 * rows locked with SKIP LOCKED so two instances never move one row twice, one audit row each.
 */
async function sweepStatus(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  move: { from: number; to: number; due(now: Date): SQL; stamp(now: Date): Partial<typeof apps.$inferInsert>; audit: { type: OperationType; summary(applyNo: string): string } },
  batch: number,
): Promise<number[]> {
  const done: number[] = [];
  for (;;) {
    const now = deps.clock.now();
    const ids = await deps.db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: apps.id, applyNo: apps.applyNo, districtId: apps.districtId })
        .from(apps)
        .where(and(eq(apps.status, move.from), move.due(now)))
        .orderBy(apps.id)
        .limit(batch)
        .for('update', { skipLocked: true });
      if (!rows.length) return [];
      await tx
        .update(apps)
        .set({ status: move.to, ...move.stamp(now), updatedAt: now })
        .where(and(inArray(apps.id, rows.map((r) => r.id)), eq(apps.status, move.from)));
      for (const r of rows) {
        await audit(tx, SYSTEM_ACTOR, { type: move.audit.type, targetDistrictId: r.districtId, target: `handle-card/${r.id}`, summary: move.audit.summary(r.applyNo), before: { status: move.from }, after: { status: move.to } }, now);
      }
      return rows.map((r) => r.id);
    });
    done.push(...ids);
    if (ids.length < batch) return done;
  }
}

/** handleCard.payTimeout: unpaid applications older than the timeout → 已取消. */
export const cancelUnpaid = (deps: Pick<AppDeps, 'db' | 'clock'>, batch = 200) =>
  sweepStatus(
    deps,
    {
      from: 0,
      to: 6,
      due: (now) => lte(apps.createdAt, new Date(now.getTime() - APPLY_PAY_TIMEOUT_MINUTES * 60_000)),
      stamp: (now) => ({ cancelledAt: now }),
      audit: { type: 'HANDLE_CARD_PAY_TIMEOUT', summary: (no) => `办卡申请 ${no} 超过${APPLY_PAY_TIMEOUT_MINUTES}分钟未支付，已取消` },
    },
    batch,
  );

/** A shipped card counts as received this many days after it went out (second wave §10: 15 days after delivery). */
export const AUTO_COMPLETE_DAYS = 15;

/** handleCard.autoComplete: 已寄出/待领取 for 15 days → 已完成. */
export const completeDelivered = (deps: Pick<AppDeps, 'db' | 'clock'>, batch = 200) =>
  sweepStatus(
    deps,
    {
      from: 4,
      to: 5,
      due: (now) => lte(apps.shippedAt, new Date(now.getTime() - AUTO_COMPLETE_DAYS * DAY_MS)),
      stamp: (now) => ({ completedAt: now }),
      audit: { type: 'HANDLE_CARD_COMPLETE', summary: (no) => `办卡申请 ${no} 寄出/待领取满${AUTO_COMPLETE_DAYS}天，自动完成` },
    },
    batch,
  );

/** The moment an application's images stop being needed: its final state's time. */
const finalAt = sql`case ${apps.status} when 3 then ${apps.decidedAt} when 5 then ${apps.completedAt} when 6 then ${apps.cancelledAt} end`;

/** handleCard.imagePurge: images of applications final for 30 days are dropped (their SHA-256 kept). */
export async function purgeImages(deps: Pick<AppDeps, 'db' | 'clock'>, batch = 500): Promise<number[]> {
  const now = deps.clock.now();
  const cutoff = new Date(now.getTime() - IMAGE_RETENTION_DAYS * DAY_MS);
  const done: number[] = [];
  for (;;) {
    const ids = await deps.db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: apps.id, applyNo: apps.applyNo, districtId: apps.districtId })
        .from(apps)
        .where(and(inArray(apps.status, [3, 5, 6]), isNull(apps.imagesPurgedAt), sql`${finalAt} <= ${cutoff}`))
        .orderBy(apps.id)
        .limit(batch)
        .for('update', { skipLocked: true });
      if (!rows.length) return [];
      const list = rows.map((r) => r.id);
      const files = await purgeSealedFiles(tx, 'handle', list, now);
      await tx.update(apps).set({ imagesPurgedAt: now }).where(inArray(apps.id, list));
      await audit(tx, SYSTEM_ACTOR, { type: 'HANDLE_CARD_IMAGE_PURGE', targetDistrictId: null, target: null, summary: `清除办卡材料：${rows.length} 条申请、${files} 个文件（办结满${IMAGE_RETENTION_DAYS}天，保留SHA-256）`, after: { applications: rows.length, files } }, now);
      return list;
    });
    done.push(...ids);
    if (ids.length < batch) return done;
  }
}
