import { and, eq, sql } from 'drizzle-orm';
import { GUARDIAN_AGE, REFUSAL, type VerifyCategory } from '../../../shared/api/card-verify';
import { shanghaiDate } from '../../../shared/domain/time';
import type { AppDeps } from '../../context';
import * as t from '../../db/schema';
import { audit } from '../../lib/audit';
import { fail, isUniqueViolation, notFound } from '../../lib/errors';
import { placeholderImage, storeSealedFiles } from '../../lib/sealed-files';
import { computeChecks } from './rules';
import { SYSTEM_ACTOR, configFor } from './service';
import { cardVerifyApplications as v } from './schema';

/**
 * The rider's side of 线上验卡 (not console endpoints: second wave §1): submitting an application in
 * the mini-program, and withdrawing it while it waits. Called by the seed and the tests. The
 * automatic checks run here, on submission, against the card and configuration of that moment.
 */

export interface Submission {
  cardNo: string;
  name: string;
  idNo: string;
  phone: string;
  /** The face match's score (null: none taken). */
  faceScore?: number | null;
  /** A guardian agreed (the mini-program's consent step): needed under 14. */
  guardianConsent?: boolean;
  school?: string | null;
  grade?: string | null;
  /** The uploaded images; omitted, generated placeholders of the configured materials. */
  materials?: { label: string; mime: string; data: Buffer; width?: number; height?: number }[];
  at?: Date;
}

let seq = 0;
const pad = (n: number, w: number) => String(n).padStart(w, '0');

export async function submitApplication(deps: Pick<AppDeps, 'db' | 'pii' | 'clock'>, s: Submission) {
  const now = s.at ?? deps.clock.now();
  const [card] = await deps.db
    .select({ id: t.busCards.id, cardNo: t.busCards.cardNo, districtId: t.busCards.districtId, category: t.busCards.category, state: t.busCards.state, riderId: t.busCards.riderId, citizenIdx: t.riders.citizenIdx })
    .from(t.busCards)
    .leftJoin(t.riders, eq(t.riders.id, t.busCards.riderId))
    .where(eq(t.busCards.cardNo, s.cardNo));
  if (!card) throw notFound('卡片不存在');
  if (card.category !== 4 && card.category !== 5) throw fail('只有学生卡和老年卡需要验卡');
  const category = card.category as VerifyCategory;
  const config = await configFor(deps.db, card.districtId, category);
  if (!config.enabled) throw fail('该卡种暂未开放线上验卡');
  const idNo = s.idNo.trim().toUpperCase();
  const idIdx = deps.pii.index('citizen', idNo);
  const faceScore = s.faceScore ?? null;
  const { checks, birthDate, age, autoPass } = computeChecks({ idNo, category, cardState: card.state, holderIdx: card.citizenIdx, idIdx, faceScore, config, now });
  // Minors' data is sensitive (PIPL Art. 31): under 14 the application needs a guardian's consent.
  if (age !== null && age < GUARDIAN_AGE && !s.guardianConsent) throw fail(REFUSAL.guardian);
  try {
    return await deps.db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(v)
        .values({
          // Numbered from the id once it has one: YZ, the Shanghai day, six digits.
          applyNo: `pending-${now.getTime()}-${++seq}-${Math.random().toString(36).slice(2)}`,
          districtId: card.districtId,
          riderId: card.riderId,
          cardId: card.id,
          cardNo: card.cardNo,
          cardCategory: category,
          nameEnc: deps.pii.encrypt(s.name.trim()),
          idEnc: deps.pii.encrypt(idNo),
          idIdx,
          phoneEnc: deps.pii.encrypt(s.phone.trim()),
          birthDate,
          guardianConsent: !!s.guardianConsent,
          school: s.school ?? null,
          grade: s.grade ?? null,
          faceScore,
          faceResult: faceScore === null ? null : faceScore >= config.faceThreshold ? 1 : 0,
          ocrResult: checks.idChecksum ? 1 : 0,
          checks,
          autoPass,
          status: 0,
          cycleYear: Number(shanghaiDate(now).slice(0, 4)),
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: v.id });
      const [row] = await tx
        .update(v)
        .set({ applyNo: `YZ${shanghaiDate(now).replaceAll('-', '')}${pad(inserted!.id % 1_000_000, 6)}` })
        .where(eq(v.id, inserted!.id))
        .returning();
      const files =
        s.materials ??
        config.materials.map((label, i) => ({ label, ...placeholderImage(`${label}（示例）`, label === '人脸照片' ? 240 : 428, label === '人脸照片' ? 320 : 270, ['#dbeafe', '#fef3c7', '#dcfce7', '#fce7f3', '#e0e7ff'][i % 5]) }));
      await storeSealedFiles(tx, deps.pii, files.map((f) => ({ kind: 'verify' as const, refId: row!.id, label: f.label, mime: f.mime, data: f.data, width: f.width, height: f.height })), now);
      return row!;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw fail(REFUSAL.duplicatePending);
    throw err;
  }
}

/** The rider withdraws a waiting application (0 → 3): guarded, so a reviewer's decision and the withdrawal never both land. */
export async function withdrawApplication(deps: Pick<AppDeps, 'db' | 'clock'>, id: number) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [moved] = await tx
      .update(v)
      .set({ status: 3, withdrawnAt: now, claimBy: null, claimUntil: null, updatedAt: now, rowVersion: sql`${v.rowVersion} + 1` })
      .where(and(eq(v.id, id), eq(v.status, 0)))
      .returning();
    if (!moved) throw fail(REFUSAL.withdrawOnlyPending);
    await audit(tx, SYSTEM_ACTOR, { type: 'CARD_VERIFY_WITHDRAW', targetDistrictId: moved.districtId, target: `card-verify/${id}`, summary: `乘客撤销验卡申请 ${moved.applyNo}（卡号 ${moved.cardNo}）`, before: { status: 0 }, after: { status: 3 } }, now);
    return moved;
  });
}

