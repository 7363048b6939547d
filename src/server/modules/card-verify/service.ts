import { and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, lte, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import * as api from '../../../shared/api/card-verify';
import { AUTO_CHECK, CHECK_KEYS, CHECK_LABELS, CLAIM_MS, PURGE_AFTER_DAYS, REFUSAL, VERIFY_CATEGORY, VERIFY_STATUS, type VerifyCategory, type VerifyStatus } from '../../../shared/api/card-verify';
import { cardStateLabel } from '../../../shared/api/card';
import { maskCitizenId, maskInText, maskName, maskPhone } from '../../../shared/domain/mask';
import { shanghaiDate, shanghaiDateTime, shanghaiMidnight } from '../../../shared/domain/time';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { SYSTEM_ACTOR, audit } from '../../lib/audit';
import { AppError, fail, forbidden, isUniqueViolation, notFound } from '../../lib/errors';
import { defineExport, listRows } from '../../lib/export-definition';
import { listService } from '../../lib/list';
import { reviewClaims } from '../../lib/review-claim';
import { nextVersion, staleEdit } from '../../lib/row-version';
import { assertInScope, inScope } from '../../lib/scope';
import { openSealedFile, purgeSealedFiles, sealedFileInfos } from '../../lib/sealed-files';
import { iso } from '../../lib/sql';
import { type ConfigValues, addMonths, ageOn, computeChecks, defaultConfig } from './rules';
import { cardVerifyApplications as v, cardVerifyBatches, cardVerifyConfigs as cfg, cardVerifyReminders } from './schema';

type PageQuery = z.output<typeof api.verifyPage.query>;
type Filters = z.output<typeof api.verifyTotal.query>;
type AuditBody = z.output<typeof api.verifyAudit.body>;

export { SYSTEM_ACTOR };

/** The queue's claims over this table (lib/review-claim.ts; 线上办卡 has its own over its table, apply-service.ts). */
export const claims = reviewClaims({
  table: v,
  id: v.id,
  status: v.status,
  claimBy: v.claimBy,
  claimUntil: v.claimUntil,
  createdAt: v.createdAt,
  pending: 0,
  ttlMs: CLAIM_MS,
  refusals: { decided: REFUSAL.decided, claimedBy: REFUSAL.claimedBy },
});

/** ROLE_ADMIN (and the super user above it) may take over another reviewer's claim. */
export const mayTakeOver = (a: Pick<AuthContext, 'roles'>) => a.roles.includes('ROLE_ADMIN') || a.roles.includes('ROLE_APP_ADMIN');

const reviewer = alias(t.users, 'verify_reviewer');
const claimer = alias(t.users, 'verify_claimer');
const revoker = alias(t.users, 'verify_revoker');

const columns = { v, districtName: t.districts.name, reviewerName: reviewer.firstName, claimByName: claimer.firstName, revokedByName: revoker.firstName };
type Row = { v: typeof v.$inferSelect; districtName: string | null; reviewerName: string | null; claimByName: string | null; revokedByName: string | null };

const select = (db: Db) =>
  db
    .select(columns)
    .from(v)
    .leftJoin(t.districts, eq(t.districts.id, v.districtId))
    .leftJoin(reviewer, eq(reviewer.id, v.reviewerId))
    .leftJoin(claimer, eq(claimer.id, v.claimBy))
    .leftJoin(revoker, eq(revoker.id, v.revokedBy));

const st = (n: number) => n as VerifyStatus;
const cat = (n: number) => n as VerifyCategory;

/** An application as every list, export and answer shows it: personal fields decrypted only to be masked. */
function dto(deps: Pick<AppDeps, 'pii' | 'clock'>, r: Row): api.VerifyApplication {
  const now = deps.clock.now();
  const live = r.v.claimBy !== null && r.v.claimUntil !== null && r.v.claimUntil.getTime() > now.getTime() && r.v.status === 0;
  return {
    id: r.v.id,
    applyNo: r.v.applyNo,
    districtId: r.v.districtId,
    districtName: r.districtName,
    cardNo: r.v.cardNo,
    cardCategory: cat(r.v.cardCategory),
    name: maskName(deps.pii.decrypt(r.v.nameEnc)),
    idNo: maskCitizenId(deps.pii.decrypt(r.v.idEnc)),
    phone: maskPhone(deps.pii.decrypt(r.v.phoneEnc)),
    age: ageOn(r.v.birthDate, shanghaiDate(r.v.createdAt)),
    school: r.v.school,
    guardianConsent: r.v.guardianConsent,
    faceScore: r.v.faceScore,
    checks: r.v.checks,
    autoPass: r.v.autoPass,
    status: st(r.v.status),
    reason: r.v.reason,
    note: r.v.note,
    reviewerName: r.reviewerName,
    reviewedDate: r.v.reviewedAt ? iso(r.v.reviewedAt) : null,
    claimById: live ? r.v.claimBy : null,
    claimByName: live ? r.claimByName : null,
    claimUntil: live ? iso(r.v.claimUntil!) : null,
    validUntil: r.v.validUntil,
    cycleYear: r.v.cycleYear,
    createdDate: iso(r.v.createdAt),
    purged: r.v.purgedAt !== null,
    suspendedDate: r.v.suspendedAt ? iso(r.v.suspendedAt) : null,
  };
}

/** 验卡记录: the area's applications by number, card, id (blind index), status, category, checks and time. */
export const verifyList = listService({
  endpoint: api.verifyPage,
  select,
  count: (db) => db.select({ n: count() }).from(v),
  scope: v.districtId,
  filters: {
    applyNo: (applyNo) => eq(v.applyNo, applyNo),
    cardNo: (cardNo) => eq(v.cardNo, cardNo),
    idNo: (idNo, _q, _a, deps) => eq(v.idIdx, deps.pii.index('citizen', idNo)),
    status: (status) => eq(v.status, status),
    category: (category) => eq(v.cardCategory, category),
    autoCheck: (ok) => eq(v.autoPass, ok === 1),
    startTime: (from) => gte(v.createdAt, new Date(from)),
    endTime: (to) => lte(v.createdAt, new Date(to)),
  },
  sorts: { createdDate: v.createdAt, reviewedDate: v.reviewedAt, faceScore: v.faceScore },
  order: { column: v.createdAt, dir: 'desc' },
  key: { column: v.id, of: (r) => r.v.id },
  dto: (r, { deps }) => dto(deps, r),
});

export const pageApplications = (deps: AppDeps, a: AuthContext, q: PageQuery) => verifyList.page(deps, a, q);

export async function totals(deps: AppDeps, a: AuthContext, q: Filters) {
  const { status: _status, ...rest } = q;
  const where = verifyList.where(deps, a, rest);
  const now = deps.clock.now();
  const today = shanghaiMidnight(shanghaiDate(now));
  const [row] = await deps.db
    .select({
      total: count(),
      s0: sql<number>`count(*) filter (where ${v.status} = 0)::int`,
      s1: sql<number>`count(*) filter (where ${v.status} = 1)::int`,
      s2: sql<number>`count(*) filter (where ${v.status} = 2)::int`,
      s3: sql<number>`count(*) filter (where ${v.status} = 3)::int`,
      claimed: sql<number>`count(*) filter (where ${v.status} = 0 and ${v.claimUntil} > ${now})::int`,
      mine: sql<number>`count(*) filter (where ${v.status} = 0 and ${v.claimUntil} > ${now} and ${v.claimBy} = ${a.user.id})::int`,
      green: sql<number>`count(*) filter (where ${v.status} = 0 and ${v.autoPass})::int`,
      today: sql<number>`count(*) filter (where ${v.reviewedAt} >= ${today} and ${v.status} in (1, 2))::int`,
      // Suspended and not renewed since (a newer approval lifts it).
      suspended: sql<number>`count(*) filter (where ${v.status} = 1 and ${v.suspendedAt} is not null and not exists (select 1 from card_verify_applications n where n.card_id = ${v.cardId} and n.id <> ${v.id} and n.status = 1 and n.valid_until > ${v.validUntil}))::int`,
    })
    .from(v)
    .where(where);
  const r = row!;
  return {
    total: Number(r.total),
    byStatus: { '0': r.s0, '1': r.s1, '2': r.s2, '3': r.s3 },
    pending: r.s0,
    claimed: r.claimed,
    claimedByMe: r.mine,
    pendingGreen: r.green,
    decidedToday: r.today,
    suspended: r.suspended,
  };
}

async function loadRow(db: Db, id: number): Promise<Row> {
  const [r] = await select(db).where(eq(v.id, id));
  if (!r) throw notFound('验卡申请不存在');
  return r;
}

/** The configuration of a category in a district: the stored row, else the design's defaults. */
export async function configFor(db: Db, districtId: number, category: VerifyCategory): Promise<ConfigValues> {
  const [c] = await db.select().from(cfg).where(and(eq(cfg.districtId, districtId), eq(cfg.category, category)));
  return c ? { ...c, materials: c.materials } : defaultConfig(category);
}

/** The card and its holder's id index, as they stand now. */
async function cardNow(db: Db, cardId: number) {
  const [c] = await db
    .select({ state: t.busCards.state, riderId: t.busCards.riderId, citizenIdx: t.riders.citizenIdx })
    .from(t.busCards)
    .leftJoin(t.riders, eq(t.riders.id, t.busCards.riderId))
    .where(eq(t.busCards.id, cardId));
  return c ?? null;
}

/** The checks against the live card and configuration: what the reviewer sees and an approval rests on. */
async function liveChecks(deps: Pick<AppDeps, 'db' | 'pii' | 'clock'>, db: Db, row: typeof v.$inferSelect) {
  const config = await configFor(db, row.districtId, cat(row.cardCategory));
  const card = await cardNow(db, row.cardId);
  const idNo = deps.pii.decrypt(row.idEnc);
  const computed = computeChecks({ idNo, category: cat(row.cardCategory), cardState: card?.state ?? -1, holderIdx: card?.citizenIdx ?? null, idIdx: row.idIdx, faceScore: row.faceScore, config, now: deps.clock.now() });
  return { ...computed, config, cardState: card?.state ?? -1 };
}

export async function detail(deps: AppDeps, a: AuthContext, id: number): Promise<api.VerifyDetail> {
  const r = await loadRow(deps.db, id);
  assertInScope(a, r.v.districtId);
  return detailOf(deps, r);
}

async function detailOf(deps: AppDeps, r: Row): Promise<api.VerifyDetail> {
  const live = await liveChecks(deps, deps.db, r.v);
  const files = (await sealedFileInfos(deps.db, 'verify', [r.v.id])).get(r.v.id) ?? [];
  const c = live.config;
  const age = live.age;
  const details: Record<(typeof CHECK_KEYS)[number], string> = {
    idChecksum: live.checks.idChecksum ? '18位，校验位正确' : '校验位或出生日期不正确',
    age: `${age ?? '—'}周岁（${VERIFY_CATEGORY.label(cat(r.v.cardCategory))} ${c.ageMin}–${c.ageMax}周岁）`,
    cardState: `卡片状态：${cardStateLabel(live.cardState)}`,
    holderMatch: live.checks.holderMatch ? '与持卡人身份证号一致' : '与持卡人身份证号不一致或卡片未实名',
    face: r.v.faceScore === null ? '未做人脸比对' : `${r.v.faceScore}分（阈值 ${c.faceThreshold}分）`,
  };
  return {
    ...dto(deps, r),
    // A pending application shows the checks as they stand now; a decided one as it was judged.
    ...(r.v.status === 0 ? { checks: live.checks, autoPass: live.autoPass } : {}),
    materials: files,
    cardState: live.cardState,
    cardStateLabel: cardStateLabel(live.cardState),
    config: { ageMin: c.ageMin, ageMax: c.ageMax, faceThreshold: c.faceThreshold, validMonths: c.validMonths, requireFace: c.requireFace },
    checkList: CHECK_KEYS.map((key) => ({ key, label: CHECK_LABELS[key], ok: (r.v.status === 0 ? live.checks : r.v.checks)[key], detail: details[key] })),
    revokedByName: r.revokedByName,
    revokedDate: r.v.revokedAt ? iso(r.v.revokedAt) : null,
    revokeReason: r.v.revokeReason,
  };
}

const claimAudit = (a: AuthContext, r: typeof v.$inferSelect, from: { name: string }, now: Date, tx: Db) =>
  audit(tx, a.actor, { type: 'CARD_VERIFY_TAKEOVER', targetDistrictId: r.districtId, target: `card-verify/${r.id}`, summary: `接管验卡申请 ${r.applyNo}（原由${from.name}审核）`, before: { claimBy: r.claimBy }, after: { claimBy: a.user.id } }, now);

/**
 * 审核下一条 / 认领. Without an id: the oldest pending application in the caller's district nobody
 * else holds (skip locked: two reviewers get two); with one: that one, refused while another holds
 * it unless ROLE_ADMIN takes it over (audited).
 */
export async function claim(deps: AppDeps, a: AuthContext, body: z.output<typeof api.verifyClaim.body>): Promise<api.VerifyDetail | null> {
  const now = deps.clock.now();
  if (body.takeOver && !mayTakeOver(a)) throw forbidden('只有管理员可以接管他人正在审核的申请');
  let id: number | null;
  if (body.id !== undefined) {
    const r = await loadRow(deps.db, body.id);
    assertInScope(a, r.v.districtId);
    id = await deps.db.transaction(async (tx) => {
      const got = await claims.claim(tx, { id: r.v.id, userId: a.user.id, now, takeOver: !!body.takeOver });
      if (!got) throw notFound('验卡申请不存在');
      if (got.takenFrom) await claimAudit(a, r.v, got.takenFrom, now, tx);
      return r.v.id;
    });
  } else {
    id = await deps.db.transaction((tx) =>
      claims.next(tx, { userId: a.user.id, now, skip: body.skip, where: and(inScope(a, v.districtId), body.category !== undefined ? eq(v.cardCategory, body.category) : undefined) }),
    );
  }
  return id === null ? null : detailOf(deps, await loadRow(deps.db, id));
}

export async function release(deps: AppDeps, a: AuthContext, id: number) {
  const r = await loadRow(deps.db, id);
  assertInScope(a, r.v.districtId);
  return { released: await deps.db.transaction((tx) => claims.release(tx, { id, userId: a.user.id })) };
}

/** Why an approval is refused on these live checks (the design's words, in its order), or null. */
function approvalRefusal(live: Awaited<ReturnType<typeof liveChecks>>, row: typeof v.$inferSelect, note: string | undefined): string | null {
  const c = live.config;
  if (!live.checks.idChecksum) return REFUSAL.idChecksum;
  if (!live.checks.age) return row.cardCategory === 5 ? REFUSAL.seniorAge(c.ageMin) : REFUSAL.studentAge(c.ageMin, c.ageMax);
  if (!live.checks.cardState) return REFUSAL.cardState(cardStateLabel(live.cardState));
  if (!live.checks.holderMatch) return REFUSAL.holder;
  if (!live.checks.face) {
    if (!note) return REFUSAL.face(row.faceScore ?? 0);
    if ([...note].length < 10) return REFUSAL.faceNote;
  }
  return null;
}

/** The day an approval runs to: the card's current check (when still running) or today, plus the configured months. */
async function validUntilFor(tx: Db, row: typeof v.$inferSelect, months: number, now: Date): Promise<string> {
  const [prev] = await tx
    .select({ until: v.validUntil })
    .from(v)
    .where(and(eq(v.cardId, row.cardId), eq(v.status, 1), isNotNull(v.validUntil)))
    .orderBy(desc(v.validUntil))
    .limit(1);
  const today = shanghaiDate(now);
  const from = prev?.until && prev.until > today ? prev.until : today;
  return addMonths(from, months);
}

/**
 * Approves one locked, pending application in the caller's transaction (the single and the batch
 * share it): the guarded update `where status = 0`, then its audit row. Answers false when the row
 * had moved (the caller refuses).
 */
async function approveLocked(deps: AppDeps, tx: Db, a: AuthContext, row: typeof v.$inferSelect, note: string | null, how: string, now: Date): Promise<boolean> {
  const config = await configFor(tx, row.districtId, cat(row.cardCategory));
  const validUntil = await validUntilFor(tx, row, config.validMonths, now);
  const [moved] = await tx
    .update(v)
    .set({ status: 1, note, reviewerId: a.user.id, reviewedAt: now, validUntil, claimBy: null, claimUntil: null, updatedAt: now, rowVersion: nextVersion(v.rowVersion) })
    .where(and(eq(v.id, row.id), eq(v.status, 0)))
    .returning({ id: v.id });
  if (!moved) return false;
  await audit(
    tx,
    a.actor,
    { type: 'CARD_VERIFY_AUDIT', targetDistrictId: row.districtId, target: `card-verify/${row.id}`, summary: `${how}验卡申请 ${row.applyNo}（卡号 ${row.cardNo}），有效期至 ${validUntil}${note ? `，人工核验说明：${note}` : ''}`, before: { status: 0 }, after: { status: 1, validUntil } },
    now,
  );
  return true;
}

/** 通过 / 驳回 one application: claim checked on the locked row, live checks for an approval, guarded update, one audit row. */
export async function auditOne(deps: AppDeps, a: AuthContext, given: AuditBody) {
  const body = { ...given, reason: given.reason ? maskInText(given.reason) : undefined, note: given.note ? maskInText(given.note) : undefined };
  if (body.takeOver && !mayTakeOver(a)) throw forbidden('只有管理员可以接管他人正在审核的申请');
  const r = await loadRow(deps.db, body.id);
  assertInScope(a, r.v.districtId);
  if (r.v.status !== 0) throw fail(REFUSAL.decided);
  if (body.toStatus === 2 && (!body.reason || [...body.reason].length < 4)) throw fail(REFUSAL.rejectReason);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const may = await claims.assertMayDecide(tx, { id: r.v.id, from: 0, userId: a.user.id, now, takeOver: !!body.takeOver });
    if (!may) throw notFound('验卡申请不存在');
    const [locked] = await tx.select().from(v).where(eq(v.id, r.v.id));
    if (may.takenFrom) await claimAudit(a, locked!, may.takenFrom, now, tx);
    if (body.toStatus === 1) {
      const live = await liveChecks(deps, tx, locked!);
      const refusal = approvalRefusal(live, locked!, body.note);
      if (refusal) throw fail(refusal);
      if (!(await approveLocked(deps, tx, a, locked!, body.note ?? null, '通过', now))) throw fail(REFUSAL.decided);
    } else {
      const [moved] = await tx
        .update(v)
        .set({ status: 2, reason: body.reason!, note: body.note ?? null, reviewerId: a.user.id, reviewedAt: now, claimBy: null, claimUntil: null, updatedAt: now, rowVersion: nextVersion(v.rowVersion) })
        .where(and(eq(v.id, r.v.id), eq(v.status, 0)))
        .returning({ id: v.id });
      if (!moved) throw fail(REFUSAL.decided);
      await audit(tx, a.actor, { type: 'CARD_VERIFY_AUDIT', targetDistrictId: r.v.districtId, target: `card-verify/${r.v.id}`, summary: `驳回验卡申请 ${r.v.applyNo}（卡号 ${r.v.cardNo}）：${body.reason}`, before: { status: 0 }, after: { status: 2, reason: body.reason } }, now);
    }
  });
  return dto(deps, await loadRow(deps.db, r.v.id));
}

/**
 * 批量通过: up to 100 applications, all or none. Every one must be pending, all-green on the live
 * checks, in the caller's district and not held by another reviewer. Rows are locked in id order
 * (two batches never deadlock); each gets the single approval's guarded update and audit row. The
 * key is stored with what it approved: a repeat answers the same, replayed.
 */
export async function auditBatch(deps: AppDeps, a: AuthContext, body: z.output<typeof api.verifyAuditBatch.body>) {
  const replay = async () => {
    const [b] = await deps.db.select().from(cardVerifyBatches).where(and(eq(cardVerifyBatches.operatorId, a.user.id), eq(cardVerifyBatches.idempotencyKey, body.idempotencyKey)));
    return b ? { approved: b.approved, replayed: true } : null;
  };
  const earlier = await replay();
  if (earlier) return earlier;
  const ids = [...body.ids].sort((x, y) => x - y);
  const now = deps.clock.now();
  try {
    return await deps.db.transaction(async (tx) => {
      const rows = await tx.select().from(v).where(inArray(v.id, ids)).orderBy(asc(v.id)).for('update');
      if (rows.length !== ids.length) throw notFound('验卡申请不存在');
      for (const r of rows) assertInScope(a, r.districtId);
      const decided = rows.find((r) => r.status !== 0);
      if (decided) throw fail(`${REFUSAL.decided}（${decided.applyNo}）`);
      const held = await claims.heldByOthers(tx, { ids, userId: a.user.id, now });
      if (held.length) throw fail(REFUSAL.claimedBy(held[0]!.holder.name));
      for (const r of rows) {
        const live = await liveChecks(deps, tx, r);
        if (!live.autoPass) throw fail(REFUSAL.batchGreen);
      }
      for (const r of rows) if (!(await approveLocked(deps, tx, a, r, null, '批量通过', now))) throw fail(REFUSAL.decided);
      await tx.insert(cardVerifyBatches).values({ idempotencyKey: body.idempotencyKey, operatorId: a.user.id, approved: ids, createdAt: now });
      return { approved: ids, replayed: false };
    });
  } catch (err) {
    // The same key racing itself: the first committed; answer as it did.
    if (isUniqueViolation(err) || err instanceof AppError) {
      const again = await replay();
      if (again) return again;
    }
    throw err;
  }
}

/** 撤销通过 (1 → 2, an error found after approval): the reason kept, the validity withdrawn, audited. */
export async function revoke(deps: AppDeps, a: AuthContext, given: z.output<typeof api.verifyRevoke.body>) {
  const reason = maskInText(given.reason);
  const r = await loadRow(deps.db, given.id);
  assertInScope(a, r.v.districtId);
  if ([...reason].length < 4) throw fail(REFUSAL.revokeReason);
  if (r.v.status !== 1) throw fail(r.v.status === 0 ? REFUSAL.revokeOnlyApproved : REFUSAL.decided);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const [moved] = await tx
      .update(v)
      .set({ status: 2, reason: `撤销通过：${reason}`, revokeReason: reason, validUntil: null, revokedBy: a.user.id, revokedAt: now, updatedAt: now, rowVersion: nextVersion(v.rowVersion) })
      .where(and(eq(v.id, r.v.id), eq(v.status, 1)))
      .returning({ id: v.id });
    if (!moved) throw fail(REFUSAL.decided);
    await audit(tx, a.actor, { type: 'CARD_VERIFY_REVOKE', targetDistrictId: r.v.districtId, target: `card-verify/${r.v.id}`, summary: `撤销验卡申请 ${r.v.applyNo} 的通过（卡号 ${r.v.cardNo}）：${reason}`, before: { status: 1, validUntil: r.v.validUntil }, after: { status: 2, reason } }, now);
  });
  return dto(deps, await loadRow(deps.db, r.v.id));
}

/** One material's bytes: scoped, audited with the reason (never the image), no-store. */
export async function material(deps: AppDeps, a: AuthContext, body: z.output<typeof api.verifyMaterial.body>, setNoStore: () => void) {
  const r = await loadRow(deps.db, body.id);
  assertInScope(a, r.v.districtId);
  const infos = (await sealedFileInfos(deps.db, 'verify', [r.v.id])).get(r.v.id) ?? [];
  const info = infos.find((f) => f.id === body.materialId);
  if (!info) throw notFound('材料不存在');
  if (info.purged) throw fail(REFUSAL.materialGone);
  const file = await openSealedFile(deps.db, deps.pii, 'verify', r.v.id, body.materialId);
  if (!file) throw fail(REFUSAL.materialGone);
  const reason = maskInText(body.reason);
  await audit(deps.db, a.actor, { type: 'CARD_VERIFY_MATERIAL', targetDistrictId: r.v.districtId, target: `card-verify/${r.v.id}`, summary: `查看验卡申请 ${r.v.applyNo} 的材料「${info.label}」，原因：${reason}`, after: { materialId: info.id, sha256: info.sha256, reason } }, deps.clock.now());
  setNoStore();
  return { id: info.id, label: info.label, mime: info.mime, sha256: info.sha256, width: info.width, height: info.height, dataBase64: file.data.toString('base64') };
}

// ---------------------------------------------------------------- ★ 到期雷达

const mondayOf = (day: string) => {
  const d = new Date(`${day}T00:00:00Z`);
  const back = (d.getUTCDay() + 6) % 7;
  return new Date(d.getTime() - back * 86_400_000).toISOString().slice(0, 10);
};

/** The cards whose latest approval runs out within `days`, with no newer application waiting or approved. */
async function dueCards(deps: AppDeps, a: AuthContext, days: number, category: number | undefined) {
  const now = deps.clock.now();
  const today = shanghaiDate(now);
  const end = shanghaiDate(new Date(now.getTime() + days * 86_400_000));
  const rows = await deps.db
    .select({ id: v.id, cardNo: v.cardNo, cardCategory: v.cardCategory, districtId: v.districtId, districtName: t.districts.name, nameEnc: v.nameEnc, phoneEnc: v.phoneEnc, validUntil: v.validUntil })
    .from(v)
    .leftJoin(t.districts, eq(t.districts.id, v.districtId))
    .where(
      and(
        inScope(a, v.districtId),
        eq(v.status, 1),
        gte(v.validUntil, today),
        lte(v.validUntil, end),
        category !== undefined ? eq(v.cardCategory, category) : undefined,
        // The card's latest approval only, and none waiting: a renewed card is not due.
        sql`not exists (select 1 from card_verify_applications n where n.card_id = ${v.cardId} and n.id <> ${v.id} and (n.status = 0 or (n.status = 1 and n.valid_until > ${v.validUntil})))`,
      ),
    )
    .orderBy(asc(v.validUntil), asc(v.id));
  const cards = rows.map((r) => r.cardNo);
  const rides = new Map<string, number>();
  const reminded = new Set<string>();
  for (let i = 0; i < cards.length; i += 1000) {
    const chunk = cards.slice(i, i + 1000);
    const counts = await deps.db
      .select({ cardNo: t.rideRecords.cardNo, n: count() })
      .from(t.rideRecords)
      .where(and(inArray(t.rideRecords.cardNo, chunk), gte(t.rideRecords.rideAt, new Date(now.getTime() - 30 * 86_400_000))))
      .groupBy(t.rideRecords.cardNo);
    for (const c of counts) rides.set(c.cardNo, Number(c.n));
    const sent = await deps.db.select({ cardNo: cardVerifyReminders.cardNo, validUntil: cardVerifyReminders.validUntil }).from(cardVerifyReminders).where(inArray(cardVerifyReminders.cardNo, chunk));
    for (const s of sent) reminded.add(`${s.cardNo}|${s.validUntil}`);
  }
  return rows.map((r) => ({ ...r, rides30d: rides.get(r.cardNo) ?? 0, reminded: reminded.has(`${r.cardNo}|${r.validUntil}`) }));
}

export async function dueRadar(deps: AppDeps, a: AuthContext, q: z.output<typeof api.verifyDueRadar.query>) {
  const now = deps.clock.now();
  const cards = await dueCards(deps, a, q.days, q.category);
  // The renewal rate behind the forecast: applications of the last 90 days against the approvals that ran out then.
  const since = new Date(now.getTime() - 90 * 86_400_000);
  const [applied] = await deps.db.select({ n: count() }).from(v).where(and(inScope(a, v.districtId), gte(v.createdAt, since), q.category !== undefined ? eq(v.cardCategory, q.category) : undefined));
  const [ranOut] = await deps.db
    .select({ n: count() })
    .from(v)
    .where(and(inScope(a, v.districtId), eq(v.status, 1), gte(v.validUntil, shanghaiDate(since)), lt(v.validUntil, shanghaiDate(now)), q.category !== undefined ? eq(v.cardCategory, q.category) : undefined));
  const rate = Number(ranOut?.n ?? 0) > 0 ? Math.min(1, Number(applied?.n ?? 0) / Number(ranOut!.n)) : 0.85;
  const weeks = new Map<string, { due: number; active: number; reminded: number }>();
  const start = mondayOf(shanghaiDate(now));
  for (let w = 0; w * 7 < q.days + 7; w++) {
    const day = new Date(new Date(`${start}T00:00:00Z`).getTime() + w * 7 * 86_400_000).toISOString().slice(0, 10);
    weeks.set(day, { due: 0, active: 0, reminded: 0 });
  }
  for (const c of cards) {
    const w = weeks.get(mondayOf(c.validUntil!));
    if (!w) continue;
    w.due++;
    if (c.rides30d > 0) w.active++;
    if (c.reminded) w.reminded++;
  }
  const weekRows = [...weeks.entries()]
    .filter(([, w], i, all) => w.due > 0 || i < all.length - 1)
    .map(([weekStart, w]) => {
      const forecast = Math.round(w.due * rate);
      return { weekStart, ...w, forecast, reviewerHours: Math.round((forecast * api.REVIEW_MINUTES) / 6) / 10 };
    });
  const items = [...cards]
    .sort((x, y) => Number(y.rides30d > 0) - Number(x.rides30d > 0) || x.validUntil!.localeCompare(y.validUntil!) || y.rides30d - x.rides30d)
    .slice(0, 200)
    .map((c) => ({ cardNo: c.cardNo, cardCategory: cat(c.cardCategory), districtName: c.districtName, name: maskName(deps.pii.decrypt(c.nameEnc)), phone: maskPhone(deps.pii.decrypt(c.phoneEnc)), validUntil: c.validUntil!, rides30d: c.rides30d, reminded: c.reminded }));
  return {
    days: q.days,
    totalDue: cards.length,
    activeDue: cards.filter((c) => c.rides30d > 0).length,
    reminded: cards.filter((c) => c.reminded).length,
    renewalRate: Math.round(rate * 1000),
    weeks: weekRows,
    items,
  };
}

/** The radar's batch reminder: each due card once per due date (the unique key keeps a second batch from sending again). */
export async function dueRemind(deps: AppDeps, a: AuthContext, body: z.output<typeof api.verifyDueRemind.body>) {
  const cards = (await dueCards(deps, a, body.days, body.category)).filter((c) => !body.activeOnly || c.rides30d > 0);
  const now = deps.clock.now();
  const fresh = cards.filter((c) => !c.reminded);
  return deps.db.transaction(async (tx) => {
    const sent = fresh.length
      ? await tx
          .insert(cardVerifyReminders)
          .values(fresh.map((c) => ({ cardNo: c.cardNo, districtId: c.districtId, validUntil: c.validUntil!, sentBy: a.user.id, sentAt: now })))
          .onConflictDoNothing()
          .returning({ id: cardVerifyReminders.id })
      : [];
    await audit(tx, a.actor, { type: 'CARD_VERIFY_REMIND', targetDistrictId: a.districtScope, target: 'card-verify/remind', summary: `发送验卡到期提醒（${body.days}天内${body.category !== undefined ? `，${VERIFY_CATEGORY.label(body.category)}` : ''}${body.activeOnly ? '，仅活跃乘客' : ''}）：${sent.length} 张卡，已提醒过 ${cards.length - sent.length} 张`, after: { sent: sent.length, skipped: cards.length - sent.length } }, now);
    return { sent: sent.length, skipped: cards.length - sent.length };
  });
}

// ---------------------------------------------------------------- 验卡配置

const configDto = (c: typeof cfg.$inferSelect, districtName: string | null): api.VerifyConfig => ({
  id: c.id,
  districtId: c.districtId,
  districtName,
  category: cat(c.category),
  enabled: c.enabled,
  windowMonthsBefore: c.windowMonthsBefore,
  validMonths: c.validMonths,
  requireFace: c.requireFace,
  faceThreshold: c.faceThreshold,
  requireOcr: c.requireOcr,
  yearlyProof: c.yearlyProof,
  graceDays: c.graceDays,
  suspendOnMiss: c.suspendOnMiss,
  ageMin: c.ageMin,
  ageMax: c.ageMax,
  materials: c.materials.filter((m): m is api.MaterialKind => (api.MATERIAL_KINDS as readonly string[]).includes(m)),
  noticeCode: c.noticeCode,
  rowVersion: c.rowVersion,
  updatedDate: iso(c.updatedAt),
});

export async function configList(deps: AppDeps, a: AuthContext, q: z.output<typeof api.verifyConfigList.query>) {
  const rows = await deps.db
    .select({ c: cfg, districtName: t.districts.name })
    .from(cfg)
    .leftJoin(t.districts, eq(t.districts.id, cfg.districtId))
    .where(and(inScope(a, cfg.districtId), q.category !== undefined ? eq(cfg.category, q.category) : undefined))
    .orderBy(asc(t.districts.sort), asc(cfg.category));
  return rows.map((r) => configDto(r.c, r.districtName));
}

/** Saves one category's configuration in one district (an update by its (district, category) when no id is sent). */
export async function configSave(deps: AppDeps, a: AuthContext, body: z.output<typeof api.verifyConfigSave.body>) {
  assertInScope(a, body.districtId);
  if (body.windowMonthsBefore < 1 || body.windowMonthsBefore > 6) throw fail(REFUSAL.windowMonths);
  if (body.ageMin > body.ageMax) throw fail(REFUSAL.ageRange);
  const [district] = await deps.db.select().from(t.districts).where(eq(t.districts.id, body.districtId));
  if (!district) throw fail('区域不存在');
  const now = deps.clock.now();
  const values = {
    enabled: body.enabled,
    windowMonthsBefore: body.windowMonthsBefore,
    validMonths: body.validMonths,
    requireFace: body.requireFace,
    faceThreshold: body.faceThreshold,
    requireOcr: body.requireOcr,
    yearlyProof: body.yearlyProof,
    graceDays: body.graceDays,
    suspendOnMiss: body.suspendOnMiss,
    ageMin: body.ageMin,
    ageMax: body.ageMax,
    materials: [...new Set(body.materials)],
    noticeCode: body.noticeCode || null,
  };
  const saved = await deps.db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(cfg)
      .where(body.id !== undefined ? eq(cfg.id, body.id) : and(eq(cfg.districtId, body.districtId), eq(cfg.category, body.category)))
      .for('update');
    if (body.id !== undefined && !before) throw notFound('验卡配置不存在');
    if (before && (before.districtId !== body.districtId || before.category !== body.category)) throw fail('不能修改配置的区域或卡类型');
    if (before && body.rowVersion !== undefined && before.rowVersion !== body.rowVersion) throw staleEdit(configDto(before, district.name));
    const [row] = before
      ? await tx.update(cfg).set({ ...values, updatedBy: a.user.id, updatedAt: now, rowVersion: nextVersion(cfg.rowVersion) }).where(eq(cfg.id, before.id)).returning()
      : await tx.insert(cfg).values({ districtId: body.districtId, category: body.category, ...values, updatedBy: a.user.id, createdAt: now, updatedAt: now }).returning();
    const { materials: bm, ...beforeRest } = before ?? ({} as Partial<typeof cfg.$inferSelect>);
    await audit(
      tx,
      a.actor,
      { type: 'CARD_VERIFY_CONFIG', targetDistrictId: body.districtId, target: `card-verify-config/${row!.id}`, summary: `${before ? '修改' : '新增'}验卡配置：${district.name} ${VERIFY_CATEGORY.label(body.category)}（提前${values.windowMonthsBefore}个月，有效期${values.validMonths}个月，人脸阈值${values.faceThreshold}分，${values.ageMin}–${values.ageMax}周岁）`, before: before ? { ...beforeRest, materials: bm } : null, after: values },
      now,
    );
    return row!;
  });
  return configDto(saved, district.name);
}

// ---------------------------------------------------------------- jobs

/**
 * verify.purge: face and id images of applications decided (or withdrawn) more than 30 days ago are
 * dropped, the hashes kept (second wave §1, PIPL Art. 28). Each application once, whichever
 * instance takes it (`for update skip locked`); one audit row per run.
 */
export async function purgeMaterials(deps: Pick<AppDeps, 'db' | 'clock'>, limit = 500): Promise<number> {
  const now = deps.clock.now();
  const before = new Date(now.getTime() - PURGE_AFTER_DAYS * 86_400_000);
  return deps.db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: v.id, districtId: v.districtId })
      .from(v)
      .where(and(isNull(v.purgedAt), sql`coalesce(${v.revokedAt}, ${v.reviewedAt}, ${v.withdrawnAt}) < ${before}`, inArray(v.status, [1, 2, 3])))
      .orderBy(asc(v.id))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (!rows.length) return 0;
    const ids = rows.map((r) => r.id);
    const files = await purgeSealedFiles(tx, 'verify', ids, now);
    await tx.update(v).set({ purgedAt: now }).where(inArray(v.id, ids));
    await audit(tx, SYSTEM_ACTOR, { type: 'CARD_VERIFY_PURGE', targetDistrictId: null, target: 'card-verify/purge', summary: `清除 ${ids.length} 份验卡申请的人脸与证件图片（${files} 个文件，保留哈希）：决定已满${PURGE_AFTER_DAYS}天`, after: { applications: ids.length, files } }, now);
    return ids.length;
  });
}

// ---------------------------------------------------------------- export

type ExportQuery = z.output<typeof api.verifyExport.query>;

const yesNo = (b: boolean) => (b ? '通过' : '未通过');

export const applicationsExport = defineExport({
  id: 'cardVerify.applications',
  permission: api.verifyExport.permission,
  sheet: '验卡记录',
  columns: [
    { header: '申请号', width: 22, cell: (r: api.VerifyApplication) => r.applyNo },
    { header: '区域', width: 10, cell: (r) => r.districtName },
    { header: '卡号', width: 20, cell: (r) => r.cardNo },
    { header: '卡类型', width: 8, cell: (r) => VERIFY_CATEGORY.label(r.cardCategory) },
    { header: '姓名', width: 8, mask: 'name', cell: (r) => r.name },
    { header: '身份证号', width: 20, mask: 'citizenId', cell: (r) => r.idNo },
    { header: '手机号', width: 14, mask: 'phone', cell: (r) => r.phone },
    { header: '年龄', width: 6, cell: (r) => r.age },
    { header: '人脸分', width: 8, cell: (r) => r.faceScore },
    { header: '自动核验', width: 10, cell: (r) => AUTO_CHECK.label(r.autoPass ? 1 : 0) },
    ...CHECK_KEYS.map((k) => ({ header: CHECK_LABELS[k], width: 10, cell: (r: api.VerifyApplication) => yesNo(r.checks[k]) })),
    { header: '审核状态', width: 8, cell: (r) => VERIFY_STATUS.label(r.status) },
    { header: '驳回原因', width: 24, cell: (r) => r.reason },
    { header: '审核人', width: 10, cell: (r) => r.reviewerName },
    { header: '审核时间', width: 20, cell: (r) => (r.reviewedDate ? shanghaiDateTime(r.reviewedDate) : '') },
    { header: '有效期至', width: 12, cell: (r) => r.validUntil },
    { header: '申请时间', width: 20, cell: (r) => shanghaiDateTime(r.createdDate) },
  ],
  rows: listRows(verifyList, (q: ExportQuery) => q),
  audit: { operation: 'CARD_VERIFY_EXPORT' },
});

export const exportTitle = (q: ExportQuery) =>
  ['验卡记录', q.status !== undefined ? VERIFY_STATUS.label(q.status) : '', q.category !== undefined ? VERIFY_CATEGORY.label(q.category) : '', q.autoCheck !== undefined ? AUTO_CHECK.label(q.autoCheck) : ''].filter(Boolean).join(' ');
