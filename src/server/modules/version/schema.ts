import { type AnyPgColumn, boolean, check, index, integer, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { districts, rowVersion, users } from '../../db/schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * 帮助中心's tables (second wave §11). The line-network tables of 版本管理 stay in db/schema.ts,
 * where the other modules read them; these are the help part's alone.
 */

/** The city's one tree of catalogues, up to three levels, each for riders (1) or staff (2). */
export const helpCatalogs = pgTable(
  'help_catalogs',
  {
    id: serial('id').primaryKey(),
    parentId: integer('parent_id').references((): AnyPgColumn => helpCatalogs.id),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(0),
    /** 1 乘客, 2 员工: a child has its parent's. */
    audience: smallint('audience').notNull(),
    /** 1–3, kept so the depth rule is one check, not a walk. */
    level: smallint('level').notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [
    index('help_catalogs_parent_idx').on(t.parentId),
    // One name per parent (a top catalogue's parent is none: coalesce makes the tops one set too).
    uniqueIndex('help_catalogs_name_uq').on(sql`coalesce(${t.parentId}, 0)`, t.name),
    check('help_catalogs_audience_ck', sql`${t.audience} in (1, 2)`),
    check('help_catalogs_level_ck', sql`${t.level} between 1 and 3 and (${t.level} = 1) = (${t.parentId} is null)`),
    check('help_catalogs_name_ck', sql`char_length(${t.name}) between 1 and 20`),
  ],
);

/** A doc: sanitised rich text in one catalogue, maybe bound to a console page (★ 页内帮助). */
export const helpDocs = pgTable(
  'help_docs',
  {
    id: serial('id').primaryKey(),
    catalogId: integer('catalog_id')
      .notNull()
      .references(() => helpCatalogs.id),
    /** null: city-wide, written by the super user only. */
    districtId: integer('district_id').references(() => districts.id),
    title: text('title').notNull(),
    /** Sanitised by the allow-list (shared/domain/rich-text.ts) before it is stored. */
    content: text('content').notNull(),
    /** The words without markup: what 搜索帮助 searches. */
    contentText: text('content_text').notNull(),
    /** The catalogue's, copied so lists and the `?` sheet filter without a join. */
    audience: smallint('audience').notNull(),
    /** `<menu id>/<page key>` of a console page; staff docs only. */
    pageKey: text('page_key'),
    /** 0 草稿, 1 已发布, 2 已下线 (HELP_DOC_STATUS). */
    status: smallint('status').notNull().default(0),
    sort: integer('sort').notNull().default(0),
    views: integer('views').notNull().default(0),
    createdBy: integer('created_by').references(() => users.id),
    updatedBy: integer('updated_by').references(() => users.id),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [
    index('help_docs_catalog_idx').on(t.catalogId, t.status),
    index('help_docs_page_idx').on(t.pageKey).where(sql`${t.pageKey} is not null`),
    // One title per catalogue and area (a district may word its own doc like the city's).
    uniqueIndex('help_docs_title_uq').on(t.catalogId, sql`coalesce(${t.districtId}, 0)`, t.title),
    check('help_docs_status_ck', sql`${t.status} between 0 and 2`),
    check('help_docs_audience_ck', sql`${t.audience} in (1, 2)`),
    check('help_docs_title_ck', sql`char_length(${t.title}) between 1 and 50`),
    check('help_docs_content_ck', sql`char_length(${t.content}) <= 50000`),
    check('help_docs_page_ck', sql`${t.pageKey} is null or ${t.audience} = 2`),
  ],
);

/** 有用 / 没用: one vote per account and doc, changed at will; the counts are these rows. */
export const helpDocVotes = pgTable(
  'help_doc_votes',
  {
    docId: integer('doc_id')
      .notNull()
      .references(() => helpDocs.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    helpful: boolean('helpful').notNull(),
    votedAt: ts('voted_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.docId, t.userId] })],
);
