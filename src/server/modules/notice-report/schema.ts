import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { districts, riders, rowVersion, users } from '../../db/schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * 公告: the notice module's own table (kept in its folder; `npm run db:generate` reads every module's
 * schema.ts). Content is rich text the server sanitised (shared/domain/rich-text.ts) before storing.
 */
export const notices = pgTable(
  'notices',
  {
    id: serial('id').primaryKey(),
    /** null: city-wide, written by the super user only. */
    districtId: integer('district_id').references(() => districts.id),
    title: text('title').notNull(),
    /** 1 通知, 2 公告, 3 线路调整. */
    type: smallint('type').notNull(),
    content: text('content').notNull(),
    /** The lines a 线路调整 notice is about; empty for the rest. */
    lineCodes: text('line_codes').array().notNull().default(sql`'{}'::text[]`),
    top: smallint('top').notNull().default(0),
    /** 0 草稿, 1 待发布, 2 已发布, 3 已下线 (NOTICE_STATUS). */
    status: smallint('status').notNull().default(0),
    /** When it was (2, 3) or will be (1) published; a draft may have none yet. */
    publishAt: ts('publish_at'),
    expireAt: ts('expire_at'),
    viewCount: integer('view_count').notNull().default(0),
    createdBy: integer('created_by').references(() => users.id),
    publishedBy: integer('published_by').references(() => users.id),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [
    index('notices_district_idx').on(t.districtId, t.status),
    // The publish job's work: scheduled notices by time.
    index('notices_due_idx').on(t.publishAt).where(sql`${t.status} = 1`),
    check('notices_status_ck', sql`${t.status} between 0 and 3`),
    check('notices_type_ck', sql`${t.type} between 1 and 3`),
    check('notices_top_ck', sql`${t.top} in (0, 1)`),
    check('notices_title_ck', sql`char_length(${t.title}) between 1 and 50`),
    check('notices_content_ck', sql`char_length(${t.content}) <= 50000`),
    check('notices_scheduled_ck', sql`${t.status} = 0 or ${t.publishAt} is not null`),
    check('notices_expire_ck', sql`${t.expireAt} is null or ${t.publishAt} is null or ${t.expireAt} > ${t.publishAt}`),
  ],
);

/**
 * 意见反馈 (second wave §2): a rider's feedback. The contact phone is sealed (lib/pii.ts); images sit in
 * `sealed_files` (kind 'feedback'). status 0 未处理 / 3 处理中 / 1 已处理 / 2 不处理 (FEEDBACK_STATUS);
 * dueAt is 3 working days after it came in (feedbackDueAt). linkedRideIds: the rider's own rides
 * ±30 min matched when it came in (★ 反馈关联乘车); line and bus are filled from the nearest one when
 * the rider named none.
 */
export const feedback = pgTable(
  'feedback',
  {
    id: serial('id').primaryKey(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    riderId: integer('rider_id')
      .notNull()
      .references(() => riders.id),
    contactPhoneEnc: text('contact_phone_enc'),
    /** 1 线路与班次, 2 司乘服务, 3 车辆设施, 4 乘车码与支付, 5 其他. */
    category: smallint('category').notNull(),
    content: text('content').notNull(),
    imageCount: smallint('image_count').notNull().default(0),
    lineCode: text('line_code'),
    lineName: text('line_name'),
    busNo: text('bus_no'),
    occurredAt: ts('occurred_at'),
    status: smallint('status').notNull().default(0),
    handlerId: integer('handler_id').references(() => users.id),
    reply: text('reply'),
    repliedAt: ts('replied_at'),
    closeReason: text('close_reason'),
    dueAt: ts('due_at').notNull(),
    linkedRideIds: bigint('linked_ride_ids', { mode: 'number' }).array().notNull().default(sql`'{}'::bigint[]`),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    index('feedback_district_idx').on(t.districtId, t.status, t.dueAt),
    // ★ 同车同时段: the items on one bus by time.
    index('feedback_bus_idx').on(t.busNo, t.occurredAt),
    index('feedback_handler_idx').on(t.handlerId, t.status),
    index('feedback_rider_idx').on(t.riderId),
    check('feedback_status_ck', sql`${t.status} between 0 and 3`),
    check('feedback_category_ck', sql`${t.category} between 1 and 5`),
    check('feedback_content_ck', sql`char_length(${t.content}) between 1 and 500`),
    check('feedback_reply_ck', sql`${t.reply} is null or char_length(${t.reply}) <= 500`),
    check('feedback_images_ck', sql`${t.imageCount} between 0 and 3`),
    // 已处理 carries its reply; 不处理 its reason; 处理中 its handler.
    check('feedback_replied_ck', sql`${t.status} <> 1 or (${t.reply} is not null and ${t.repliedAt} is not null and ${t.handlerId} is not null)`),
    check('feedback_declined_ck', sql`${t.status} <> 2 or (${t.closeReason} is not null and ${t.handlerId} is not null)`),
    check('feedback_handling_ck', sql`${t.status} <> 3 or ${t.handlerId} is not null`),
  ],
);
