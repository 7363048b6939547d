import { and, asc, count, eq, isNull, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import * as help from '../../../shared/api/help';
import { HELP_CATALOG_DEPTH, HELP_CONTENT_MAX, HELP_DOC_STATUS, type HelpAudience, type HelpDocStatus } from '../../../shared/api/help';
import { richTextEmpty, richTextPlain, sanitizeRichText } from '../../../shared/domain/rich-text';
import { formatDateTime } from '../../../shared/domain/time';
import { MODULES } from '../../../shared/modules';
import { type AppDeps, type AuthContext, isSuperUser } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { audit } from '../../lib/audit';
import { fail, failOn, forbidden, isUniqueViolation, notFound } from '../../lib/errors';
import { type ListReader, defineExport, listRows } from '../../lib/export-definition';
import { listService } from '../../lib/list';
import { checkVersion, nextVersion } from '../../lib/row-version';
import { assertInScope } from '../../lib/scope';
import { contains, iso } from '../../lib/sql';
import { moveStatus } from '../../lib/transition';
import { helpCatalogs, helpDocVotes, helpDocs } from './schema';

type CatalogBody = z.output<typeof help.helpCatalogSave.body>;
type DocBody = z.output<typeof help.helpDocSave.body>;
type PageQuery = z.output<typeof help.helpDocPage.query>;
type StatusBody = z.output<typeof help.helpDocUpdateStatus.body>;
type Scope = Pick<AuthContext, 'districtScope' | 'roles'>;

/** The console's pages by `<menu>/<page>`, with their titles: what a staff doc may be bound to. */
const CONSOLE_PAGES = new Map<string, string>(
  MODULES.flatMap((m) => ('menu' in m ? m.menu.pages.filter((p) => !('planned' in p && p.planned)).map((p) => [`${m.menu.id}/${p.key}`, `${m.menu.title} › ${p.title}`] as const) : [])),
);
export const consolePageTitle = (pageKey: string) => CONSOLE_PAGES.get(pageKey) ?? null;

/* ------------------------------------------------------------------ catalogues */

/** Docs filed in each catalogue that this reader may see. */
async function docCounts(db: Db, a: Scope) {
  const rows = await db.select({ catalogId: helpDocs.catalogId, n: count() }).from(helpDocs).where(visibleTo(a)).groupBy(helpDocs.catalogId);
  return new Map(rows.map((r) => [r.catalogId, r.n]));
}

type CatalogRow = typeof helpCatalogs.$inferSelect;
const catalogDto = (c: CatalogRow, counts: Map<number, number>) => ({
  id: c.id,
  parentId: c.parentId,
  name: c.name,
  sort: c.sort,
  audience: c.audience as HelpAudience,
  level: c.level,
  docCount: counts.get(c.id) ?? 0,
  rowVersion: c.rowVersion,
});

/** Depth first: each parent followed by its children, siblings by sort then id. */
function depthFirst(rows: CatalogRow[]): CatalogRow[] {
  const byParent = new Map<number | null, CatalogRow[]>();
  for (const r of rows) byParent.set(r.parentId, [...(byParent.get(r.parentId) ?? []), r]);
  const out: CatalogRow[] = [];
  const walk = (parent: number | null) => {
    for (const r of (byParent.get(parent) ?? []).sort((x, y) => x.sort - y.sort || x.id - y.id)) {
      out.push(r);
      walk(r.id);
    }
  };
  walk(null);
  return out;
}

export async function catalogTree(deps: AppDeps, a: AuthContext, audience: HelpAudience | undefined) {
  const rows = await deps.db
    .select()
    .from(helpCatalogs)
    .where(audience ? eq(helpCatalogs.audience, audience) : undefined)
    .orderBy(asc(helpCatalogs.sort), asc(helpCatalogs.id));
  const counts = await docCounts(deps.db, a);
  return depthFirst(rows).map((c) => catalogDto(c, counts));
}

/** Catalogues are the city's one tree, read by every district: only the super user reshapes it. */
function assertCatalogEditor(a: Scope) {
  if (!isSuperUser(a)) throw forbidden('帮助目录全市共用，只有超级管理员可以修改');
}

async function loadCatalog(db: Db, id: number, lock = false) {
  const q = db.select().from(helpCatalogs).where(eq(helpCatalogs.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw notFound('目录不存在');
  return row;
}

/** How many levels hang below a catalogue (0: none). */
async function depthBelow(db: Db, id: number): Promise<number> {
  const children = await db.select({ id: helpCatalogs.id }).from(helpCatalogs).where(eq(helpCatalogs.parentId, id));
  let deepest = 0;
  for (const c of children) deepest = Math.max(deepest, 1 + (await depthBelow(db, c.id)));
  return deepest;
}

/** Is `id` the catalogue `ancestor` or below it? */
async function isWithin(db: Db, id: number, ancestor: number): Promise<boolean> {
  for (let at: number | null = id; at !== null; ) {
    if (at === ancestor) return true;
    const [row]: { parentId: number | null }[] = await db.select({ parentId: helpCatalogs.parentId }).from(helpCatalogs).where(eq(helpCatalogs.id, at));
    at = row?.parentId ?? null;
  }
  return false;
}

/** A catalogue's level and its subtree's, rewritten after a move. */
async function relevel(db: Db, id: number, level: number, audience: number) {
  await db.update(helpCatalogs).set({ level, audience }).where(eq(helpCatalogs.id, id));
  await db.update(helpDocs).set({ audience }).where(eq(helpDocs.catalogId, id));
  for (const c of await db.select({ id: helpCatalogs.id }).from(helpCatalogs).where(eq(helpCatalogs.parentId, id))) await relevel(db, c.id, level + 1, audience);
}

/**
 * 新增 / 编辑目录: at most three levels (`目录最多三级`, the subtree moved along counted), a child for
 * its parent's readers, one name per parent. Serialised on one advisory lock: the tree is small and
 * two moves at once could otherwise make a cycle or a fourth level.
 */
export async function saveCatalog(deps: AppDeps, a: AuthContext, body: CatalogBody) {
  assertCatalogEditor(a);
  const now = deps.clock.now();
  const counts = new Map<number, number>();
  try {
    return await deps.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${TREE_LOCK})`);
      const parent = body.parentId ? await loadCatalog(tx, body.parentId) : null;
      const level = parent ? parent.level + 1 : 1;
      const audience = parent ? parent.audience : body.audience;
      if (parent && parent.audience !== body.audience) throw failOn('audience', `子目录的阅读对象须与上级目录一致（${help.HELP_AUDIENCE.label(parent.audience as HelpAudience)}）`);
      if (body.id === undefined) {
        if (level > HELP_CATALOG_DEPTH) throw failOn('parentId', '目录最多三级');
        const [row] = await tx
          .insert(helpCatalogs)
          .values({ parentId: parent?.id ?? null, name: body.name, sort: body.sort, audience, level, createdAt: now, updatedAt: now })
          .returning();
        await audit(tx, a.actor, { type: 'HELP_CATALOG_SAVE', targetDistrictId: null, target: `help-catalog/${row!.id}`, summary: `新增帮助目录「${body.name}」`, after: row }, now);
        return catalogDto(row!, counts);
      }
      const before = await loadCatalog(tx, body.id, true);
      await checkVersion(before, body.rowVersion, () => catalogDto(before, counts));
      if (parent && (await isWithin(tx, parent.id, before.id))) throw failOn('parentId', '不能移到自己或自己的下级目录之下');
      if (level + (await depthBelow(tx, before.id)) > HELP_CATALOG_DEPTH) throw failOn('parentId', '目录最多三级');
      if (audience !== before.audience) {
        const [docs] = await tx.select({ n: count() }).from(helpDocs).where(underCatalog(before.id));
        if ((docs?.n ?? 0) > 0) throw failOn('audience', '目录下已有文档，不能修改阅读对象');
      }
      await tx
        .update(helpCatalogs)
        // Parent and level in one update: the table's check ties a top level to no parent.
        .set({ parentId: parent?.id ?? null, level, audience, name: body.name, sort: body.sort, updatedAt: now, rowVersion: nextVersion(helpCatalogs.rowVersion) })
        .where(eq(helpCatalogs.id, before.id));
      if (level !== before.level || audience !== before.audience || (parent?.id ?? null) !== before.parentId) await relevel(tx, before.id, level, audience);
      const after = await loadCatalog(tx, before.id);
      await audit(tx, a.actor, { type: 'HELP_CATALOG_SAVE', targetDistrictId: null, target: `help-catalog/${before.id}`, summary: `编辑帮助目录「${body.name}」`, before, after }, now);
      return catalogDto(after, await docCounts(tx, a));
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw failOn('name', '同一目录下已有同名目录');
    throw err;
  }
}

/** The advisory lock space of the catalogue tree (any constant no other lock uses). */
const TREE_LOCK = 7_311;

/** 删除目录: an empty one only, docs of every area and every status counted. */
export async function deleteCatalog(deps: AppDeps, a: AuthContext, id: number) {
  assertCatalogEditor(a);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${TREE_LOCK})`);
    const row = await loadCatalog(tx, id, true);
    const [docs] = await tx.select({ n: count() }).from(helpDocs).where(eq(helpDocs.catalogId, id));
    if ((docs?.n ?? 0) > 0) throw fail('该目录下还有文档，不能删除');
    const [children] = await tx.select({ n: count() }).from(helpCatalogs).where(eq(helpCatalogs.parentId, id));
    if ((children?.n ?? 0) > 0) throw fail('该目录下还有子目录，不能删除');
    await tx.delete(helpCatalogs).where(eq(helpCatalogs.id, id));
    await audit(tx, a.actor, { type: 'HELP_CATALOG_DELETE', targetDistrictId: null, target: `help-catalog/${id}`, summary: `删除帮助目录「${row.name}」`, before: row }, now);
    return { id };
  });
}

/* ------------------------------------------------------------------ docs */

/** A district's people read its docs and the city-wide ones; 全部区域 reads all. */
const visibleTo = (a: Pick<AuthContext, 'districtScope'>) => (a.districtScope === null ? undefined : or(eq(helpDocs.districtId, a.districtScope), isNull(helpDocs.districtId)));
const manageable = (a: Scope, districtId: number | null) => (districtId === null ? isSuperUser(a) : a.districtScope === null || a.districtScope === districtId);

function assertManageable(a: Scope, districtId: number | null) {
  if (districtId === null && !isSuperUser(a)) throw forbidden('全市帮助文档只有超级管理员可以修改');
  assertInScope(a, districtId);
}

const updater = alias(t.users, 'help_updater');
const helpfulCount = sql<number>`(select count(*) from ${helpDocVotes} where ${helpDocVotes.docId} = ${helpDocs.id} and ${helpDocVotes.helpful})`.mapWith(Number);
const unhelpfulCount = sql<number>`(select count(*) from ${helpDocVotes} where ${helpDocVotes.docId} = ${helpDocs.id} and not ${helpDocVotes.helpful})`.mapWith(Number);

const columns = {
  id: helpDocs.id,
  catalogId: helpDocs.catalogId,
  catalogName: helpCatalogs.name,
  districtId: helpDocs.districtId,
  districtName: t.districts.name,
  title: helpDocs.title,
  audience: helpDocs.audience,
  pageKey: helpDocs.pageKey,
  status: helpDocs.status,
  sort: helpDocs.sort,
  views: helpDocs.views,
  helpful: helpfulCount,
  unhelpful: unhelpfulCount,
  updatedByName: updater.firstName,
  createdAt: helpDocs.createdAt,
  updatedAt: helpDocs.updatedAt,
  rowVersion: helpDocs.rowVersion,
};

const select = (db: Db) =>
  db
    .select(columns)
    .from(helpDocs)
    .innerJoin(helpCatalogs, eq(helpCatalogs.id, helpDocs.catalogId))
    .leftJoin(t.districts, eq(t.districts.id, helpDocs.districtId))
    .leftJoin(updater, eq(updater.id, helpDocs.updatedBy));

type DocRow = Awaited<ReturnType<typeof loadDoc>>;

type Reader = ListReader;

const docDto = (r: DocRow, a: Reader) => ({
  id: r.id,
  catalogId: r.catalogId,
  catalogName: r.catalogName,
  districtId: r.districtId,
  districtName: r.districtName,
  title: r.title,
  audience: r.audience as HelpAudience,
  pageKey: r.pageKey,
  status: r.status as HelpDocStatus,
  sort: r.sort,
  views: r.views,
  helpful: r.helpful,
  unhelpful: r.unhelpful,
  updatedByName: r.updatedByName,
  createdDate: iso(r.createdAt),
  updatedDate: iso(r.updatedAt),
  rowVersion: r.rowVersion,
  manageable: a.roles ? manageable({ districtScope: a.districtScope, roles: a.roles }, r.districtId) : false,
});

async function loadDoc(db: Db, id: number) {
  const [row] = await select(db).where(eq(helpDocs.id, id));
  if (!row) throw notFound('文档不存在');
  return row;
}

/** A catalogue and every catalogue below it (three levels at most: two joins). */
const underCatalog = (id: number) =>
  sql`${helpDocs.catalogId} in (select c.id from ${helpCatalogs} c where c.id = ${id} or c.parent_id = ${id} or c.parent_id in (select c2.id from ${helpCatalogs} c2 where c2.parent_id = ${id}))`;

export const helpDocList = listService({
  endpoint: help.helpDocPage,
  select,
  count: (db) => db.select({ n: count() }).from(helpDocs),
  scope: (a: Reader) => visibleTo(a),
  filters: {
    catalogId: (id) => underCatalog(id),
    keyword: (k) => or(contains(helpDocs.title, k), contains(helpDocs.contentText, k)),
    audience: (v) => eq(helpDocs.audience, v),
    status: (v) => eq(helpDocs.status, v),
    pageKey: (v) => eq(helpDocs.pageKey, v),
  },
  sorts: { updatedDate: helpDocs.updatedAt, views: helpDocs.views, sort: helpDocs.sort },
  order: { column: helpDocs.id, dir: 'desc' },
  key: { column: helpDocs.id, of: (r) => r.id },
  dto: (r, { a }) => docDto(r, a),
});

export const pageDocs = (deps: AppDeps, a: AuthContext, q: PageQuery) => helpDocList.page(deps, a, q);

/** The summary line: the filtered docs by status, and what readers made of them. */
export async function docTotals(deps: AppDeps, a: AuthContext, q: z.output<typeof help.helpDocTotal.query>) {
  const [r] = await deps.db
    .select({
      total: count(),
      draft: sql<number>`count(*) filter (where ${helpDocs.status} = 0)::int`,
      published: sql<number>`count(*) filter (where ${helpDocs.status} = 1)::int`,
      withdrawn: sql<number>`count(*) filter (where ${helpDocs.status} = 2)::int`,
      views: sql<number>`coalesce(sum(${helpDocs.views}), 0)::int`,
      helpful: sql<number>`coalesce(sum(${helpfulCount}), 0)::int`,
      unhelpful: sql<number>`coalesce(sum(${unhelpfulCount}), 0)::int`,
    })
    .from(helpDocs)
    .where(helpDocList.where(deps, a, q));
  return { total: Number(r!.total), byStatus: { draft: r!.draft, published: r!.published, withdrawn: r!.withdrawn }, views: r!.views, helpful: r!.helpful, unhelpful: r!.unhelpful };
}

type DocDto = ReturnType<typeof docDto>;
type DocExportQuery = z.output<typeof help.helpDocExport.query>;

/** 导出 Excel: the filtered docs as the list shows them (the text stays out). */
export const docExport = defineExport({
  id: 'version.helpDocs',
  permission: help.helpDocExport.permission,
  sheet: '帮助文档',
  columns: [
    { header: '编号', width: 8, cell: (d: DocDto) => d.id },
    { header: '目录', width: 16, cell: (d) => d.catalogName ?? '' },
    { header: '标题', width: 40, cell: (d) => d.title },
    { header: '阅读对象', width: 8, cell: (d) => help.HELP_AUDIENCE.label(d.audience) },
    { header: '绑定页面', width: 28, cell: (d) => d.pageKey ?? '' },
    { header: '区域', width: 10, cell: (d) => d.districtName ?? '全市' },
    { header: '状态', width: 8, cell: (d) => HELP_DOC_STATUS.label(d.status) },
    { header: '阅读数', width: 8, cell: (d) => d.views },
    { header: '有用', width: 6, cell: (d) => d.helpful },
    { header: '没用', width: 6, cell: (d) => d.unhelpful },
    { header: '更新人', width: 10, cell: (d) => d.updatedByName ?? '' },
    { header: '更新时间', width: 20, cell: (d) => formatDateTime(d.updatedDate) },
  ],
  rows: listRows(helpDocList, (q: DocExportQuery) => q),
  audit: { operation: 'HELP_DOC_EXPORT' },
});

export const docExportTitle = (q: DocExportQuery) =>
  ['帮助文档', q.status !== undefined ? HELP_DOC_STATUS.label(q.status) : '', q.audience !== undefined ? help.HELP_AUDIENCE.label(q.audience) : '', q.keyword ?? ''].filter(Boolean).join(' ');

async function withContent(db: Db, a: Scope, id: number) {
  const row = await loadDoc(db, id);
  const [body] = await db.select({ content: helpDocs.content }).from(helpDocs).where(eq(helpDocs.id, id));
  return { ...docDto(row, a), content: body?.content ?? '' };
}

export async function docById(deps: AppDeps, a: AuthContext, id: number) {
  const [row] = await deps.db.select({ id: helpDocs.id }).from(helpDocs).where(and(eq(helpDocs.id, id), visibleTo(a)));
  if (!row) throw notFound('文档不存在');
  return withContent(deps.db, a, id);
}

async function lockDoc(tx: Db, a: Scope, id: number) {
  const [row] = await tx.select().from(helpDocs).where(eq(helpDocs.id, id)).for('update');
  if (!row) throw notFound('文档不存在');
  assertManageable(a, row.districtId);
  return row;
}

/** The audit's view of a doc: its fields, the text cut (the full text is the row's). */
const audited = (d: { content: string } & Record<string, unknown>) => ({ ...d, content: richTextPlain(d.content).slice(0, 200) });

/**
 * 新增 / 编辑文档. The content is sanitised first and judged as stored (empty → `文档内容不能为空`);
 * the page it explains must be a console page and the doc for staff.
 */
export async function saveDoc(deps: AppDeps, a: AuthContext, body: DocBody) {
  const now = deps.clock.now();
  const content = sanitizeRichText(body.content);
  if (richTextEmpty(content)) throw failOn('content', '文档内容不能为空');
  if (content.length > HELP_CONTENT_MAX) throw failOn('content', `文档内容不能超过${HELP_CONTENT_MAX}个字符`);
  const pageKey = body.pageKey || null;
  if (pageKey && !consolePageTitle(pageKey)) throw failOn('pageKey', `控制台没有页面「${pageKey}」`);
  try {
    return await deps.db.transaction(async (tx) => {
      const catalog = await tx.select().from(helpCatalogs).where(eq(helpCatalogs.id, body.catalogId));
      if (!catalog[0]) throw failOn('catalogId', '目录不存在');
      const audience = catalog[0].audience;
      if (pageKey && audience !== 2) throw failOn('pageKey', '只有员工文档可以绑定页面');
      const fields = { catalogId: body.catalogId, title: body.title, content, contentText: richTextPlain(content), audience, pageKey, sort: body.sort, updatedBy: a.user.id, updatedAt: now };
      if (body.id === undefined) {
        const districtId = a.districtScope ?? body.districtId ?? null;
        if (districtId === null && !isSuperUser(a)) throw failOn('districtId', '请选择文档所属区域（全市文档只有超级管理员可以编辑）');
        assertManageable(a, districtId);
        const [row] = await tx
          .insert(helpDocs)
          .values({ ...fields, districtId, status: 0, createdBy: a.user.id, createdAt: now })
          .returning({ id: helpDocs.id });
        const after = await withContent(tx, a, row!.id);
        await audit(tx, a.actor, { type: 'HELP_DOC_SAVE', targetDistrictId: districtId, target: `help-doc/${row!.id}`, summary: `新增帮助文档「${body.title}」`, after: audited(after) }, now);
        return after;
      }
      const row = await lockDoc(tx, a, body.id);
      const before = await withContent(tx, a, row.id);
      await checkVersion(row, body.rowVersion, () => before);
      await tx
        .update(helpDocs)
        .set({ ...fields, rowVersion: nextVersion(helpDocs.rowVersion) })
        .where(eq(helpDocs.id, row.id));
      const after = await withContent(tx, a, row.id);
      await audit(tx, a.actor, { type: 'HELP_DOC_SAVE', targetDistrictId: row.districtId, target: `help-doc/${row.id}`, summary: `编辑帮助文档「${body.title}」`, before: audited(before), after: audited(after) }, now);
      return after;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw failOn('title', '同一目录下已有同名文档');
    throw err;
  }
}

const MOVE_TYPE = { 1: 'HELP_DOC_PUBLISH', 2: 'HELP_DOC_WITHDRAW' } as const;

/** 发布 / 下线 / 重新发布: one guarded move from the status the author saw, audited with it. */
export async function updateDocStatus(deps: AppDeps, a: AuthContext, body: StatusBody) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockDoc(tx, a, body.id);
    const what = `帮助文档「${row.title}」`;
    const { from } = await moveStatus(tx, {
      flow: HELP_DOC_STATUS,
      table: helpDocs,
      key: helpDocs.id,
      id: row.id,
      status: helpDocs.status,
      from: body.fromStatus,
      to: body.toStatus,
      set: { status: body.toStatus, updatedBy: a.user.id, updatedAt: now },
      what,
      version: { column: helpDocs.rowVersion, sent: body.rowVersion, current: async () => docDto(await loadDoc(tx, row.id), a) },
    });
    const after = docDto(await loadDoc(tx, row.id), a);
    const type = body.toStatus === 2 ? MOVE_TYPE[2] : MOVE_TYPE[1];
    await audit(tx, a.actor, { type, targetDistrictId: row.districtId, target: `help-doc/${row.id}`, summary: `${what}：${HELP_DOC_STATUS.label(from)} → ${HELP_DOC_STATUS.label(body.toStatus)}`, before: { status: from }, after }, now);
    return after;
  });
}

/** 删除文档: a draft or a withdrawn doc; a published one comes down first. */
export async function deleteDoc(deps: AppDeps, a: AuthContext, id: number) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockDoc(tx, a, id);
    if (row.status === 1) throw fail('已发布的文档请先下线再删除');
    const before = await withContent(tx, a, id);
    await tx.delete(helpDocs).where(and(eq(helpDocs.id, id), ne(helpDocs.status, 1)));
    await audit(tx, a.actor, { type: 'HELP_DOC_DELETE', targetDistrictId: row.districtId, target: `help-doc/${id}`, summary: `删除帮助文档「${row.title}」`, before: audited(before) }, now);
    return { id };
  });
}

/** What a reader may open in the `?` sheet or rate: published, in the area or city-wide. */
const readable = (a: Pick<AuthContext, 'districtScope'>) => and(eq(helpDocs.status, 1), visibleTo(a));

const myVote = (userId: number) => sql<boolean | null>`(select ${helpDocVotes.helpful} from ${helpDocVotes} where ${helpDocVotes.docId} = ${helpDocs.id} and ${helpDocVotes.userId} = ${userId})`;

/** ★ 页内帮助: the page's published staff docs, the area's own first, then by sort. */
export async function docsByPage(deps: AppDeps, a: AuthContext, pageKey: string) {
  const rows = await deps.db
    .select({ id: helpDocs.id, title: helpDocs.title, content: helpDocs.content, updatedAt: helpDocs.updatedAt, helpful: helpfulCount, unhelpful: unhelpfulCount, myVote: myVote(a.user.id) })
    .from(helpDocs)
    .where(and(readable(a), eq(helpDocs.audience, 2), eq(helpDocs.pageKey, pageKey)))
    .orderBy(sql`${helpDocs.districtId} is null`, asc(helpDocs.sort), asc(helpDocs.id))
    .limit(5);
  return rows.map((r) => ({ id: r.id, title: r.title, content: r.content, updatedDate: iso(r.updatedAt), helpful: r.helpful, unhelpful: r.unhelpful, myVote: r.myVote ?? null }));
}

async function assertReadable(db: Db, a: AuthContext, id: number) {
  const [row] = await db.select({ id: helpDocs.id }).from(helpDocs).where(and(eq(helpDocs.id, id), readable(a)));
  if (!row) throw notFound('文档不存在或未发布');
}

/**
 * 有用 / 没用: the account's own vote, one row per account and doc (null takes it back). A reader's
 * opinion, not a change to the doc: the vote row itself records who and when, so no audit row.
 */
export async function rateDoc(deps: AppDeps, a: AuthContext, body: { id: number; helpful: boolean | null }) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    await assertReadable(tx, a, body.id);
    if (body.helpful === null) await tx.delete(helpDocVotes).where(and(eq(helpDocVotes.docId, body.id), eq(helpDocVotes.userId, a.user.id)));
    else
      await tx
        .insert(helpDocVotes)
        .values({ docId: body.id, userId: a.user.id, helpful: body.helpful, votedAt: now })
        .onConflictDoUpdate({ target: [helpDocVotes.docId, helpDocVotes.userId], set: { helpful: body.helpful, votedAt: now } });
    const [row] = await tx.select({ helpful: helpfulCount, unhelpful: unhelpfulCount }).from(helpDocs).where(eq(helpDocs.id, body.id));
    return { id: body.id, helpful: row?.helpful ?? 0, unhelpful: row?.unhelpful ?? 0, myVote: body.helpful };
  });
}

/** One view of a doc opened whole; a counter, not a change of the doc (no version, no audit). */
export async function viewDoc(deps: AppDeps, a: AuthContext, id: number) {
  await assertReadable(deps.db, a, id);
  const [row] = await deps.db
    .update(helpDocs)
    .set({ views: sql`${helpDocs.views} + 1` })
    .where(eq(helpDocs.id, id))
    .returning({ views: helpDocs.views });
  return { id, views: row?.views ?? 0 };
}

/** Used by the seed: the staff pages bound, so every guide names a page that exists. */
export const boundPages = (keys: readonly string[]) => keys.filter((k) => CONSOLE_PAGES.has(k));
