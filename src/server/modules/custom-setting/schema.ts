import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { districts, rowVersion, users } from '../../db/schema';
import type { LadderRow } from '../../../shared/custom/refund-ladder';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * 定制公交 基础设置 (second wave §6): one row per district. `rowVersion` is the design's `version`: a
 * save names the version it read, so two admins saving at once cannot overwrite each other.
 */
export const customBaseSettings = pgTable(
  'custom_base_settings',
  {
    districtId: integer('district_id')
      .primaryKey()
      .references(() => districts.id),
    /** Classes go on sale this many days ahead. */
    saleDaysAhead: integer('sale_days_ahead').notNull().default(7),
    /** Seconds after midnight (Shanghai) at which a day's classes open for sale. */
    saleOpenTime: integer('sale_open_time').notNull().default(43_200),
    payTimeoutMin: integer('pay_timeout_min').notNull().default(2),
    maxSeatsPerUserPerClass: integer('max_seats_per_user_per_class').notNull().default(4),
    stopSaleMinBefore: integer('stop_sale_min_before').notNull().default(10),
    checkOpenMinBefore: integer('check_open_min_before').notNull().default(30),
    monthTicketEnabled: boolean('month_ticket_enabled').notNull().default(true),
    /** A month's 月票 sells until this day of the month before. */
    monthSaleUntilDay: integer('month_sale_until_day').notNull().default(25),
    boardingNotice: text('boarding_notice').notNull().default(''),
    servicePhone: text('service_phone').notNull().default(''),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [
    check('custom_base_pay_timeout_ck', sql`${t.payTimeoutMin} between 1 and 30`),
    check('custom_base_max_seats_ck', sql`${t.maxSeatsPerUserPerClass} between 1 and 10`),
    check('custom_base_sale_days_ck', sql`${t.saleDaysAhead} between 1 and 62`),
    check('custom_base_sale_open_ck', sql`${t.saleOpenTime} between 0 and 86399`),
    check('custom_base_minutes_ck', sql`${t.stopSaleMinBefore} between 0 and 1440 and ${t.checkOpenMinBefore} between 0 and 1440`),
    check('custom_base_month_day_ck', sql`${t.monthSaleUntilDay} between 1 and 28`),
    check('custom_base_notice_ck', sql`char_length(${t.boardingNotice}) <= 500`),
  ],
);

/**
 * 退款设置: a district's refund ladder, versioned. 0 草稿 → 1 待生效 (effectiveAt ahead) / 2 生效中; the
 * job refundRule.activate moves 1 → 2 and the old 2 → 3 已失效 in one transaction; 1 → 0 撤回. Orders
 * keep the id of the version they were sold under, so a new ladder never changes a sold ticket.
 */
export const customRefundRules = pgTable(
  'custom_refund_rules',
  {
    id: serial('id').primaryKey(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    rows: jsonb('rows').$type<LadderRow[]>().notNull(),
    /** 0 草稿, 1 待生效, 2 生效中, 3 已失效. */
    status: smallint('status').notNull().default(0),
    effectiveAt: ts('effective_at'),
    remark: text('remark').notNull().default(''),
    createdBy: integer('created_by').references(() => users.id),
    publishedBy: integer('published_by').references(() => users.id),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [
    index('custom_refund_rules_district_idx').on(t.districtId, t.status),
    // One ladder in force per district: the activation's swap cannot leave two.
    uniqueIndex('custom_refund_rules_active_uq').on(t.districtId).where(sql`${t.status} = 2`),
    index('custom_refund_rules_due_idx').on(t.effectiveAt).where(sql`${t.status} = 1`),
    check('custom_refund_rules_status_ck', sql`${t.status} between 0 and 3`),
    check('custom_refund_rules_effective_ck', sql`${t.status} = 0 or ${t.effectiveAt} is not null`),
  ],
);
