import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { busCards, districts, riders, rowVersion, users } from '../../db/schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** The automatic checks, as computed on submission (second wave §4 autoCheck). */
export interface StoredChecks {
  idChecksum: boolean;
  age: boolean;
  cardState: boolean;
  holderMatch: boolean;
  face: boolean;
}

/**
 * 验卡申请 (second wave §4): a rider asks that a concession card (4 学生卡 / 5 老年卡) be checked for
 * another cycle. status 0 待审核 / 1 已通过 / 2 已驳回 / 3 已撤销 (by the rider). Name, id number and
 * phone are sealed (the id's blind index finds it exactly); the materials are sealed_files of kind
 * 'verify'. A reviewer holds a pending application through the claim columns (lib/review-claim.ts).
 */
export const cardVerifyApplications = pgTable(
  'card_verify_applications',
  {
    id: serial('id').primaryKey(),
    applyNo: text('apply_no').notNull(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    riderId: integer('rider_id').references(() => riders.id),
    cardId: integer('card_id')
      .notNull()
      .references(() => busCards.id),
    cardNo: text('card_no').notNull(),
    cardCategory: smallint('card_category').notNull(),
    nameEnc: text('name_enc').notNull(),
    idEnc: text('id_enc').notNull(),
    idIdx: text('id_idx').notNull(),
    phoneEnc: text('phone_enc').notNull(),
    /** From the id number (null when it has no valid date): the age check and the list's age. */
    birthDate: date('birth_date', { mode: 'string' }),
    /** A guardian's consent, required of applicants under 14 (PIPL Art. 31; second wave §1). */
    guardianConsent: boolean('guardian_consent').notNull().default(false),
    school: text('school'),
    grade: text('grade'),
    /** 0–100 (null: no face match asked). */
    faceScore: smallint('face_score'),
    /** Spec Result 0/1 of the face match and of the id OCR. */
    faceResult: smallint('face_result'),
    ocrResult: smallint('ocr_result'),
    checks: jsonb('checks').$type<StoredChecks>().notNull(),
    /** Every check green: what 批量通过 takes. */
    autoPass: boolean('auto_pass').notNull(),
    status: smallint('status').notNull().default(0),
    reason: text('reason'),
    note: text('note'),
    reviewerId: integer('reviewer_id').references(() => users.id),
    reviewedAt: ts('reviewed_at'),
    revokedBy: integer('revoked_by').references(() => users.id),
    revokedAt: ts('revoked_at'),
    revokeReason: text('revoke_reason'),
    withdrawnAt: ts('withdrawn_at'),
    claimBy: integer('claim_by').references(() => users.id),
    claimUntil: ts('claim_until'),
    /** The card's check runs to this Shanghai day once approved. */
    validUntil: date('valid_until', { mode: 'string' }),
    cycleYear: smallint('cycle_year').notNull(),
    /** When the face and id images were purged (the hashes stay in sealed_files). */
    purgedAt: ts('purged_at'),
    /**
     * An approval whose check was missed: past validUntil + the configuration's graceDays, the card's
     * concession is suspended (the card itself stays in use, state 1) until a newer approval.
     */
    suspendedAt: ts('suspended_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [
    uniqueIndex('card_verify_applications_no_uq').on(t.applyNo),
    // One open application per card: a second submission while one waits is refused.
    uniqueIndex('card_verify_applications_pending_uq').on(t.cardId).where(sql`${t.status} = 0`),
    index('card_verify_applications_district_idx').on(t.districtId, t.createdAt),
    index('card_verify_applications_card_idx').on(t.cardNo, t.createdAt),
    index('card_verify_applications_id_idx').on(t.idIdx),
    // The queue: pending by age.
    index('card_verify_applications_queue_idx').on(t.createdAt).where(sql`${t.status} = 0`),
    // The radar: approvals by the day they run out.
    index('card_verify_applications_due_idx').on(t.validUntil).where(sql`${t.status} = 1`),
    check('card_verify_applications_status_ck', sql`${t.status} between 0 and 3`),
    check('card_verify_applications_category_ck', sql`${t.cardCategory} in (4, 5)`),
    check('card_verify_applications_face_ck', sql`${t.faceScore} is null or ${t.faceScore} between 0 and 100`),
    check('card_verify_applications_claim_ck', sql`(${t.claimBy} is null) = (${t.claimUntil} is null)`),
    check('card_verify_applications_approved_ck', sql`${t.status} <> 1 or (${t.validUntil} is not null and ${t.reviewedAt} is not null)`),
    check('card_verify_applications_rejected_ck', sql`${t.status} <> 2 or ${t.reason} is not null`),
  ],
);

/** 验卡配置 per card category and district (second wave §4 Config). */
export const cardVerifyConfigs = pgTable(
  'card_verify_configs',
  {
    id: serial('id').primaryKey(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    category: smallint('category').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    windowMonthsBefore: smallint('window_months_before').notNull().default(3),
    validMonths: smallint('valid_months').notNull().default(12),
    requireFace: boolean('require_face').notNull().default(true),
    faceThreshold: smallint('face_threshold').notNull().default(80),
    requireOcr: boolean('require_ocr').notNull().default(true),
    yearlyProof: boolean('yearly_proof').notNull().default(false),
    graceDays: smallint('grace_days').notNull().default(30),
    suspendOnMiss: boolean('suspend_on_miss').notNull().default(true),
    ageMin: smallint('age_min').notNull(),
    ageMax: smallint('age_max').notNull(),
    materials: jsonb('materials').$type<string[]>().notNull(),
    noticeCode: text('notice_code'),
    updatedBy: integer('updated_by').references(() => users.id),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [
    uniqueIndex('card_verify_configs_uq').on(t.districtId, t.category),
    check('card_verify_configs_category_ck', sql`${t.category} in (4, 5)`),
    check('card_verify_configs_window_ck', sql`${t.windowMonthsBefore} between 1 and 6`),
    check('card_verify_configs_age_ck', sql`${t.ageMin} <= ${t.ageMax}`),
    check('card_verify_configs_face_ck', sql`${t.faceThreshold} between 50 and 100`),
  ],
);

/** 批量通过's idempotency keys: a repeated key answers what it approved the first time. */
export const cardVerifyBatches = pgTable(
  'card_verify_batches',
  {
    id: serial('id').primaryKey(),
    idempotencyKey: text('idempotency_key').notNull(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => users.id),
    approved: jsonb('approved').$type<number[]>().notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('card_verify_batches_key_uq').on(t.operatorId, t.idempotencyKey)],
);

/** ★ 到期雷达's reminders: one per card and due date, whoever sends the batch. */
export const cardVerifyReminders = pgTable(
  'card_verify_reminders',
  {
    id: serial('id').primaryKey(),
    cardNo: text('card_no').notNull(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    validUntil: date('valid_until', { mode: 'string' }).notNull(),
    sentBy: integer('sent_by').references(() => users.id),
    sentAt: ts('sent_at').notNull(),
  },
  (t) => [uniqueIndex('card_verify_reminders_uq').on(t.cardNo, t.validUntil)],
);
