import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { districts, rowVersion, users } from '../../db/schema';

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
