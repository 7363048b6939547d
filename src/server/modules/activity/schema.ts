import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { ActivityRule } from '../../../shared/api/activity';
import { districts, rowVersion, users } from '../../db/schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * 活动 (second wave §8). The status is derived, never stored: `enabled` (暂停/恢复), `endedAt` (结束,
 * terminal), the window and the budget. `usedFen <= budgetFen` holds in the database whatever a
 * settlement does; the settlement's guarded update keeps it without ever hitting the check.
 */
export const activities = pgTable(
  'activities',
  {
    id: serial('id').primaryKey(),
    /** null: city-wide (the super user's). */
    districtId: integer('district_id').references(() => districts.id),
    name: text('name').notNull(),
    /** 1 折扣乘车, 2 月累计阶梯, 3 换乘优惠, 4 次日返还. */
    type: smallint('type').notNull(),
    rule: jsonb('rule').$type<ActivityRule>().notNull(),
    /** Empty: every line / category / channel. */
    lineCodes: text('line_codes').array().notNull().default(sql`'{}'::text[]`),
    cardCategories: integer('card_categories').array().notNull().default(sql`'{}'::integer[]`),
    payChannels: text('pay_channels').array().notNull().default(sql`'{}'::text[]`),
    startAt: ts('start_at').notNull(),
    endAt: ts('end_at').notNull(),
    enabled: boolean('enabled').notNull(),
    /** When it was first enabled; null: never (a copy or a draft). */
    enabledAt: ts('enabled_at'),
    /** 结束 by an operator: terminal, whatever the window says. */
    endedAt: ts('ended_at'),
    budgetFen: bigint('budget_fen', { mode: 'number' }).notNull(),
    usedFen: bigint('used_fen', { mode: 'number' }).notNull().default(0),
    priority: integer('priority').notNull().default(0),
    stackable: boolean('stackable').notNull().default(false),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [
    index('activities_district_idx').on(t.districtId, t.startAt),
    // What a settlement looks for: the enabled, unfinished ones.
    index('activities_live_idx').on(t.endAt).where(sql`${t.enabled} and ${t.endedAt} is null`),
    check('activities_type_ck', sql`${t.type} between 1 and 4`),
    check('activities_name_ck', sql`char_length(${t.name}) between 1 and 30`),
    check('activities_window_ck', sql`${t.endAt} > ${t.startAt}`),
    check('activities_budget_ck', sql`${t.budgetFen} > 0 and ${t.usedFen} >= 0 and ${t.usedFen} <= ${t.budgetFen}`),
    check('activities_priority_ck', sql`${t.priority} between 0 and 999`),
  ],
);

/**
 * 优惠限制: at most maxTimes discounts / maxFen off per rider or card per day or month, over every
 * activity of the area (activityId null) or one. 0 on either cap means no cap there.
 */
export const activityLimits = pgTable(
  'activity_limits',
  {
    id: serial('id').primaryKey(),
    districtId: integer('district_id').references(() => districts.id),
    activityId: integer('activity_id').references(() => activities.id),
    /** 'rider' | 'card'. */
    dimension: text('dimension').notNull(),
    /** 'day' | 'month' (Shanghai). */
    period: text('period').notNull(),
    maxTimes: integer('max_times').notNull().default(0),
    maxFen: integer('max_fen').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [
    index('activity_limits_district_idx').on(t.districtId),
    check('activity_limits_dimension_ck', sql`${t.dimension} in ('rider', 'card')`),
    check('activity_limits_period_ck', sql`${t.period} in ('day', 'month')`),
    check('activity_limits_caps_ck', sql`${t.maxTimes} >= 0 and ${t.maxFen} >= 0 and (${t.maxTimes} > 0 or ${t.maxFen} > 0)`),
  ],
);

/**
 * One ride discounted by one activity (written by the ride settlement). `rideRecordId` points into
 * the partitioned ride_records (no foreign key: its key holds ride_at too); the unique index makes a
 * reader's retry of the same ride a replay, never a second discount.
 */
export const activityUsages = pgTable(
  'activity_usages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    activityId: integer('activity_id')
      .notNull()
      .references(() => activities.id),
    rideRecordId: bigint('ride_record_id', { mode: 'number' }),
    rideAt: ts('ride_at').notNull(),
    districtId: integer('district_id').notNull(),
    cardNo: text('card_no').notNull(),
    riderId: integer('rider_id'),
    lineCode: text('line_code').notNull(),
    /** The fare before the discount (fen). */
    amountFen: integer('amount_fen').notNull(),
    discountFen: integer('discount_fen').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('activity_usages_activity_idx').on(t.activityId, t.rideAt),
    uniqueIndex('activity_usages_ride_uq').on(t.activityId, t.rideRecordId).where(sql`${t.rideRecordId} is not null`),
    check('activity_usages_discount_ck', sql`${t.discountFen} > 0 and ${t.discountFen} <= ${t.amountFen}`),
  ],
);

/**
 * Running counts the settlement keeps exact under concurrency: one row per (what is counted, whose,
 * which period), inserted if missing then locked `for update`, so 20 taps of one card queue on it.
 * `key` is `limit:<id>` (a 优惠限制), `spend:<activity id>` (a card's month spend for 月累计阶梯) or
 * `transfer:<activity id>` (a card's transfers of the day).
 */
export const activityCounters = pgTable(
  'activity_counters',
  {
    key: text('key').notNull(),
    /** `card:<no>` or `rider:<id>`. */
    subject: text('subject').notNull(),
    /** `2026-12-07` or `2026-12` (Shanghai). */
    period: text('period').notNull(),
    times: integer('times').notNull().default(0),
    fen: bigint('fen', { mode: 'number' }).notNull().default(0),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ name: 'activity_counters_pk', columns: [t.key, t.subject, t.period] }), check('activity_counters_ck', sql`${t.times} >= 0 and ${t.fen} >= 0`)],
);
