import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { PrecheckItem } from '../../../shared/api/handle-card';
import { districts, riders, users } from '../../db/schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * 办卡设置 (second wave §10): one row per card category and district. `ruleText` is the 办卡须知 the
 * hidden 办卡规则编辑 page edits; the rest is 办卡设置's form.
 */
export const handleCardSettings = pgTable(
  'handle_card_settings',
  {
    id: serial('id').primaryKey(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    cardCategory: smallint('card_category').notNull(),
    open: boolean('open').notNull().default(false),
    ageMin: integer('age_min').notNull().default(0),
    ageMax: integer('age_max').notNull().default(120),
    feeFen: integer('fee_fen').notNull().default(0),
    deliveryModes: integer('delivery_modes').array().notNull(),
    materials: text('materials').array().notNull(),
    onePerId: boolean('one_per_id').notNull().default(true),
    dailyQuota: integer('daily_quota').notNull().default(0),
    ruleText: text('rule_text').notNull().default(''),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('handle_card_settings_uq').on(t.districtId, t.cardCategory),
    check('handle_card_settings_category_ck', sql`${t.cardCategory} in (2, 4, 5, 6)`),
    check('handle_card_settings_age_ck', sql`${t.ageMin} >= 0 and ${t.ageMin} <= ${t.ageMax} and ${t.ageMax} <= 120`),
    check('handle_card_settings_fee_ck', sql`${t.feeFen} >= 0 and ${t.dailyQuota} >= 0`),
    check('handle_card_settings_rule_ck', sql`char_length(${t.ruleText}) <= 5000`),
  ],
);

/**
 * 办卡申请: one rider's application for a card. Name, id number, phone and address are sealed
 * (lib/pii.ts); `idHash` is the id number's blind index, the key of one-per-id. The partial unique
 * index lets one application per id and category be in flight (待支付, 待审核, 制卡中, 已寄出/待领取),
 * so two submissions at once give one row whatever the service checked before.
 */
export const handleCardApplications = pgTable(
  'handle_card_applications',
  {
    id: serial('id').primaryKey(),
    applyNo: text('apply_no').notNull(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    riderId: integer('rider_id')
      .notNull()
      .references(() => riders.id),
    cardCategory: smallint('card_category').notNull(),
    nameEnc: text('name_enc').notNull(),
    idEnc: text('id_enc').notNull(),
    idHash: text('id_hash').notNull(),
    phoneEnc: text('phone_enc').notNull(),
    phoneIdx: text('phone_idx').notNull(),
    addressEnc: text('address_enc'),
    /** What lists show of the address: cut to its street (second wave §1). */
    addressStreet: text('address_street'),
    birthDate: date('birth_date', { mode: 'string' }).notNull(),
    guardianConsent: boolean('guardian_consent').notNull().default(false),
    school: text('school'),
    /** 1 自取, 2 邮寄. */
    delivery: smallint('delivery').notNull(),
    pickupPoint: text('pickup_point'),
    fee: integer('fee').notNull(),
    /** 0 未支付, 1 已支付, 2 已退款 (spec §3). */
    payStatus: smallint('pay_status').notNull().default(0),
    /** 0 待支付, 1 待审核, 2 制卡中, 3 已驳回, 4 已寄出/待领取, 5 已完成, 6 已取消 (APPLY_STATUS). */
    status: smallint('status').notNull().default(0),
    reason: text('reason'),
    reviewerId: integer('reviewer_id').references(() => users.id),
    /** The reviewer holding this 待审核 application in the review queue, and until when (lib/review-claim.ts). */
    claimBy: integer('claim_by').references(() => users.id),
    claimUntil: ts('claim_until'),
    /** The approval's or rejection's idempotency key: a retry of the same decision answers it again. */
    decisionKey: text('decision_key'),
    cardNo: text('card_no'),
    /** The Shanghai day the card went to the factory (the factory file's batchDate). */
    batchNo: text('batch_no'),
    trackingNo: text('tracking_no'),
    precheck: jsonb('precheck').$type<PrecheckItem[]>().notNull(),
    precheckGreen: boolean('precheck_green').notNull(),
    createdAt: ts('created_at').notNull(),
    paidAt: ts('paid_at'),
    decidedAt: ts('decided_at'),
    shippedAt: ts('shipped_at'),
    completedAt: ts('completed_at'),
    cancelledAt: ts('cancelled_at'),
    /** When the images were purged (30 days after the final decision); the hashes stay. */
    imagesPurgedAt: ts('images_purged_at'),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('handle_card_applications_no_uq').on(t.applyNo),
    uniqueIndex('handle_card_applications_live_uq').on(t.idHash, t.cardCategory).where(sql`${t.status} in (0, 1, 2, 4)`),
    uniqueIndex('handle_card_applications_card_uq').on(t.cardNo).where(sql`${t.cardNo} is not null and ${t.status} in (2, 4, 5)`),
    uniqueIndex('handle_card_applications_decision_uq').on(t.decisionKey),
    index('handle_card_applications_district_idx').on(t.districtId, t.createdAt),
    index('handle_card_applications_status_idx').on(t.status, t.createdAt),
    index('handle_card_applications_phone_idx').on(t.phoneIdx),
    index('handle_card_applications_id_idx').on(t.idHash),
    index('handle_card_applications_batch_idx').on(t.batchNo),
    check('handle_card_applications_status_ck', sql`${t.status} between 0 and 6`),
    check('handle_card_applications_pay_ck', sql`${t.payStatus} between 0 and 2`),
    check('handle_card_applications_category_ck', sql`${t.cardCategory} in (2, 4, 5, 6)`),
    check('handle_card_applications_delivery_ck', sql`${t.delivery} in (1, 2)`),
    check('handle_card_applications_fee_ck', sql`${t.fee} >= 0`),
    check('handle_card_applications_claim_ck', sql`(${t.claimBy} is null) = (${t.claimUntil} is null)`),
    // A card number from 制卡中 on; 已寄出 by post has its tracking number.
    check('handle_card_applications_card_ck', sql`${t.status} not in (2, 4, 5) or ${t.cardNo} is not null`),
    check('handle_card_applications_tracking_ck', sql`${t.status} not in (4, 5) or ${t.delivery} = 1 or ${t.trackingNo} is not null`),
  ],
);

/**
 * 卡号池: numbers the card centre issued for online applications, per category. 0 空闲 → 1 预留 (通过)
 * → 2 已用 (寄出/待领取); a 预留 number goes back to 0 when the card could not be made (制卡失败).
 * Reserved with `for update skip locked`, so two approvals never take one number.
 */
export const handleCardPool = pgTable(
  'handle_card_pool',
  {
    id: serial('id').primaryKey(),
    cardNo: text('card_no').notNull(),
    cardCategory: smallint('card_category').notNull(),
    /** 0 空闲, 1 预留, 2 已用. */
    state: smallint('state').notNull().default(0),
    applicationId: integer('application_id').references(() => handleCardApplications.id),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('handle_card_pool_no_uq').on(t.cardNo),
    index('handle_card_pool_free_idx').on(t.cardCategory, t.id).where(sql`${t.state} = 0`),
    check('handle_card_pool_state_ck', sql`${t.state} in (0, 1, 2)`),
    check('handle_card_pool_app_ck', sql`${t.state} = 0 or ${t.applicationId} is not null`),
  ],
);
