import { and, count, eq, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { isAllowed } from '../../../shared/api';
import * as notice from '../../../shared/api/notice';
import { NOTICE_STATUS, NOTICE_TOP_LIMIT, NOTICE_TYPE, type NoticeStatus, noticeMovePermission } from '../../../shared/api/notice';
import { richTextEmpty, sanitizeRichText } from '../../../shared/domain/rich-text';
import { formatDateTime } from '../../../shared/domain/time';
import { type AppDeps, type AuthContext, isSuperUser } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { type Actor, type OperationType, audit } from '../../lib/audit';
import { fail, failOn, forbidden, notFound } from '../../lib/errors';
import { type ListReader, defineExport, listRows } from '../../lib/export-definition';
import { listService } from '../../lib/list';
import { assertInScope } from '../../lib/scope';
import { contains, iso } from '../../lib/sql';
import { moveStatus } from '../../lib/transition';
import { checkVersion, nextVersion, updateVersioned } from '../../lib/row-version';
import { notices } from './schema';

type PageQuery = z.output<typeof notice.noticePage.query>;
type TotalQuery = z.output<typeof notice.noticeTotal.query>;
type StatusBody = z.output<typeof notice.noticeUpdateStatus.body>;
type TopBody = z.output<typeof notice.noticeTop.body>;
type SaveBody = z.output<typeof notice.noticeSave.body>;
type Scope = Pick<AuthContext, 'districtScope' | 'roles'>;

const creator = alias(t.users, 'notice_creator');
const publisher = alias(t.users, 'notice_publisher');

/** A notice without its content (up to 50,000 characters): lists never carry it. */
const columns = {
  id: notices.id,
  districtId: notices.districtId,
  title: notices.title,
  type: notices.type,
  top: notices.top,
  status: notices.status,
  publishAt: notices.publishAt,
  expireAt: notices.expireAt,
  viewCount: notices.viewCount,
  lineCodes: notices.lineCodes,
  createdAt: notices.createdAt,
  updatedAt: notices.updatedAt,
  rowVersion: notices.rowVersion,
  districtName: t.districts.name,
  createdByName: creator.firstName,
  publishedByName: publisher.firstName,
};

const select = (db: Db) =>
  db
    .select(columns)
    .from(notices)
    .leftJoin(t.districts, eq(t.districts.id, notices.districtId))
    .leftJoin(creator, eq(creator.id, notices.createdBy))
    .leftJoin(publisher, eq(publisher.id, notices.publishedBy));

/** A district's people read its notices and the city-wide ones; 全部区域 reads all. */
const visibleTo = (a: Pick<AuthContext, 'districtScope'>) => (a.districtScope === null ? undefined : or(eq(notices.districtId, a.districtScope), isNull(notices.districtId)));

/** City-wide notices are the super user's alone; a district's, its own people's (or 全部区域's). */
const manageable = (a: Scope, districtId: number | null) => (districtId === null ? isSuperUser(a) : a.districtScope === null || a.districtScope === districtId);

function assertManageable(a: Scope, districtId: number | null) {
  if (districtId === null && !isSuperUser(a)) throw forbidden('全市公告只有超级管理员可以修改');
  assertInScope(a, districtId);
}

type Row = Awaited<ReturnType<typeof load>>;

type Reader = ListReader;

const dto = (r: Row, a: Reader) => ({
  id: r.id,
  districtId: r.districtId,
  districtName: r.districtName,
  title: r.title,
  type: r.type as 1 | 2 | 3,
  top: r.top ? (1 as const) : (0 as const),
  status: r.status as NoticeStatus,
  publishAt: r.publishAt ? iso(r.publishAt) : null,
  expireAt: r.expireAt ? iso(r.expireAt) : null,
  viewCount: r.viewCount,
  lineCodes: r.lineCodes,
  createdByName: r.createdByName,
  publishedByName: r.publishedByName,
  createdDate: iso(r.createdAt),
  updatedDate: iso(r.updatedAt),
  rowVersion: r.rowVersion,
  manageable: a.roles ? manageable({ districtScope: a.districtScope, roles: a.roles }, r.districtId) : false,
});

/** 公告管理: the area's notices (and the city-wide ones) by title, type, status and pin. */
export const noticeList = listService({
  endpoint: notice.noticePage,
  select,
  count: (db) => db.select({ n: count() }).from(notices),
  scope: (a: Reader) => visibleTo(a),
  filters: {
    title: (title) => contains(notices.title, title),
    type: (type) => eq(notices.type, type),
    status: (status) => eq(notices.status, status),
    top: (top) => eq(notices.top, top),
  },
  sorts: { publishAt: notices.publishAt, createdDate: notices.createdAt },
  order: { column: notices.id, dir: 'desc' },
  key: { column: notices.id, of: (r) => r.id },
  dto: (r, { a }) => dto(r, a),
});

export const pageNotices = (deps: AppDeps, a: AuthContext, q: PageQuery) => noticeList.page(deps, a, q);

type NoticeDto = ReturnType<typeof dto>;
type ExportQuery = z.output<typeof notice.noticeExport.query>;

/** 导出 Excel: the filtered list as the page shows it (the notices' bodies stay out). */
export const noticeExport = defineExport({
  id: 'noticeReport.notice',
  permission: notice.noticeExport.permission,
  sheet: '公告',
  columns: [
    { header: '编号', width: 8, cell: (n: NoticeDto) => n.id },
    { header: '区域', width: 10, cell: (n) => n.districtName ?? '全市' },
    { header: '标题', width: 40, cell: (n) => n.title },
    { header: '类型', width: 10, cell: (n) => NOTICE_TYPE.label(n.type) },
    { header: '状态', width: 8, cell: (n) => NOTICE_STATUS.label(n.status) },
    { header: '置顶', width: 6, cell: (n) => (n.top ? '是' : '否') },
    { header: '发布时间', width: 20, cell: (n) => formatDateTime(n.publishAt) },
    { header: '下线时间', width: 20, cell: (n) => formatDateTime(n.expireAt) },
    { header: '阅读数', width: 8, cell: (n) => n.viewCount },
    { header: '关联线路', width: 16, cell: (n) => n.lineCodes.join('、') },
    { header: '创建人', width: 10, cell: (n) => n.createdByName ?? '' },
    { header: '发布人', width: 10, cell: (n) => n.publishedByName ?? '' },
    { header: '创建时间', width: 20, cell: (n) => formatDateTime(n.createdDate) },
  ],
  rows: listRows(noticeList, (q: ExportQuery) => q),
  audit: { operation: 'NOTICE_EXPORT' },
});

export const noticeExportTitle = (q: ExportQuery) =>
  ['公告', q.status !== undefined ? NOTICE_STATUS.label(q.status) : '', q.type !== undefined ? NOTICE_TYPE.label(q.type) : '', q.top === 1 ? '置顶' : '', q.title ?? ''].filter(Boolean).join(' ');

/** The summary line: the filtered notices by status, and how many are pinned. */
export async function noticeTotals(deps: AppDeps, a: AuthContext, q: TotalQuery) {
  const cond = noticeList.where(deps, a, { ...q, status: undefined });
  const rows = await deps.db
    .select({ status: notices.status, n: count(), top: sql<number>`count(*) filter (where ${notices.top} = 1)`.mapWith(Number) })
    .from(notices)
    .where(cond)
    .groupBy(notices.status);
  const of = (s: NoticeStatus) => rows.find((r) => r.status === s)?.n ?? 0;
  return {
    total: rows.reduce((sum, r) => sum + r.n, 0),
    byStatus: { draft: of(0), scheduled: of(1), published: of(2), offline: of(3) },
    top: rows.reduce((sum, r) => sum + r.top, 0),
  };
}

async function load(db: Db, id: number) {
  const [row] = await select(db).where(eq(notices.id, id));
  if (!row) throw notFound('公告不存在');
  return row;
}

export async function noticeById(deps: AppDeps, a: AuthContext, id: number) {
  const [row] = await select(deps.db).where(and(eq(notices.id, id), visibleTo(a)));
  if (!row) throw notFound('公告不存在');
  const [body] = await deps.db.select({ content: notices.content }).from(notices).where(eq(notices.id, id));
  return { ...dto(row, a), content: body?.content ?? '' };
}

/** What a draft in each other status must do before it can be edited. */
const NOT_EDITABLE: Record<number, string> = {
  1: '待发布的公告不能修改，请先取消定时',
  2: '已发布的公告不能修改，请先撤回',
  3: '已下线的公告不能修改，请先转为草稿',
};

/** The lines named, each once, refused when one is no line of the network (any version). */
async function knownLines(db: Db, codes: readonly string[]): Promise<string[]> {
  const unique = [...new Set(codes)];
  if (!unique.length) return [];
  const found = new Set((await db.selectDistinct({ code: t.busLines.code }).from(t.busLines).where(inArray(t.busLines.code, unique))).map((r) => r.code));
  const missing = unique.filter((c) => !found.has(c));
  if (missing.length) throw failOn('lineCodes', `线路不存在：${missing.slice(0, 5).join('、')}${missing.length > 5 ? ' 等' : ''}`);
  return unique;
}

/**
 * 新建公告 / 编辑公告: a draft only. The content goes through the allow-list before anything else
 * looks at it, so the emptiness and the length checked are those of what is stored; the title is
 * plain text (the console and the mini-program show it as text, never as markup).
 */
export async function saveNotice(deps: AppDeps, a: AuthContext, body: SaveBody) {
  const now = deps.clock.now();
  const content = sanitizeRichText(body.content);
  if (richTextEmpty(content)) throw failOn('content', '公告内容不能为空');
  if (content.length > notice.NOTICE_CONTENT_MAX) throw failOn('content', `公告内容不能超过${notice.NOTICE_CONTENT_MAX}个字符`);
  if (body.type === 3 && !body.lineCodes.length) throw failOn('lineCodes', '线路调整公告请选择调整的线路');
  // A draft is published now at the earliest, so an expiry already past could never come after it.
  const expireAt = body.expireAt ? new Date(body.expireAt) : null;
  if (expireAt && expireAt.getTime() <= now.getTime()) throw failOn('expireAt', '下线时间必须晚于发布时间');
  return deps.db.transaction(async (tx) => {
    const lineCodes = await knownLines(tx, body.lineCodes);
    const fields = { title: body.title, type: body.type, content, lineCodes, expireAt };
    if (body.id === undefined) {
      const districtId = a.districtScope ?? body.districtId ?? null;
      if (districtId === null && !isSuperUser(a)) throw failOn('districtId', '请选择公告所属区域（全市公告只有超级管理员可以发布）');
      assertManageable(a, districtId);
      const [row] = await tx
        .insert(notices)
        .values({ ...fields, districtId, status: 0, top: 0, createdBy: a.user.id, createdAt: now, updatedAt: now })
        .returning({ id: notices.id });
      const after = await withContent(tx, a, row!.id);
      await audit(tx, a.actor, { type: 'NOTICE_SAVE', targetDistrictId: districtId, target: `notice/${row!.id}`, summary: `新建公告「${body.title}」（${after.districtName ?? '全市'}）`, after: { ...after, content: undefined } }, now);
      return after;
    }
    const row = await lockManageable(tx, a, body.id);
    const before = await withContent(tx, a, row.id);
    await checkVersion(row, body.rowVersion, async () => before);
    if (row.status !== 0) throw fail(NOT_EDITABLE[row.status] ?? '只能修改草稿');
    await tx
      .update(notices)
      .set({ ...fields, updatedAt: now, rowVersion: nextVersion(notices.rowVersion) })
      .where(and(eq(notices.id, row.id), eq(notices.status, 0)));
    const after = await withContent(tx, a, row.id);
    await audit(tx, a.actor, { type: 'NOTICE_SAVE', targetDistrictId: row.districtId, target: `notice/${row.id}`, summary: `编辑公告「${body.title}」`, before: { ...before, content: undefined }, after: { ...after, content: undefined } }, now);
    return after;
  });
}

/** A notice with its content, as saving answers it. */
async function withContent(db: Db, a: Scope, id: number) {
  const row = await load(db, id);
  const [body] = await db.select({ content: notices.content }).from(notices).where(eq(notices.id, id));
  return { ...dto(row, a), content: body?.content ?? '' };
}

/** The row under its lock, refused unless this account may change it. */
async function lockManageable(tx: Db, a: AuthContext, id: number) {
  const [row] = await tx.select({ id: notices.id, districtId: notices.districtId, title: notices.title, status: notices.status, top: notices.top, expireAt: notices.expireAt, rowVersion: notices.rowVersion }).from(notices).where(eq(notices.id, id)).for('update');
  if (!row) throw notFound('公告不存在');
  assertManageable(a, row.districtId);
  return row;
}

/** The operation a move is logged as. */
const moveType = (from: NoticeStatus, to: NoticeStatus): OperationType =>
  to === 1 ? 'NOTICE_SCHEDULE' : to === 2 ? 'NOTICE_PUBLISH' : to === 3 ? 'NOTICE_WITHDRAW' : from === 1 ? 'NOTICE_UNSCHEDULE' : 'NOTICE_REDRAFT';

/** When a move publishes (now, or at the chosen time), refusing a time in the past or after the expiry. */
function publishTime(body: StatusBody, now: Date): Date | null {
  if (body.toStatus === 2) return now;
  if (body.toStatus !== 1) return null;
  if (!body.publishAt) throw failOn('publishAt', '请选择定时发布时间');
  const at = new Date(body.publishAt);
  if (at.getTime() <= now.getTime()) throw failOn('publishAt', '定时发布时间不能早于当前时间');
  return at;
}

/**
 * 立即发布, 定时发布, 取消定时, 撤回, 重新编辑 (to a draft): one guarded move from the status the operator
 * saw, with its audit row in the same transaction.
 */
export async function updateStatus(deps: AppDeps, a: AuthContext, body: StatusBody) {
  if (!isAllowed(noticeMovePermission(body.fromStatus, body.toStatus), a)) throw forbidden();
  const now = deps.clock.now();
  const at = publishTime(body, now);
  return deps.db.transaction(async (tx) => {
    const row = await lockManageable(tx, a, body.id);
    if (at && row.expireAt && row.expireAt.getTime() <= at.getTime()) throw failOn('publishAt', '下线时间必须晚于发布时间');
    const to = body.toStatus;
    const set =
      to === 1 || to === 2
        ? { status: to, publishAt: at, publishedBy: a.user.id, updatedAt: now }
        : to === 3
          ? { status: to, top: 0, updatedAt: now }
          : { status: to, top: 0, publishAt: null, publishedBy: null, updatedAt: now };
    const what = `公告「${row.title}」`;
    const { from } = await moveStatus(tx, {
      flow: NOTICE_STATUS,
      table: notices,
      key: notices.id,
      id: row.id,
      status: notices.status,
      from: body.fromStatus,
      to,
      set,
      what,
      stale: `${what}已被他人处理，请刷新后查看`,
      version: { column: notices.rowVersion, sent: body.rowVersion, current: async () => dto(await load(tx, row.id), a) },
    });
    const after = dto(await load(tx, row.id), a);
    const when = to === 1 && at ? `，将于 ${formatDateTime(at)} 发布` : '';
    await audit(tx, a.actor, { type: moveType(from, to), targetDistrictId: row.districtId, target: `notice/${row.id}`, summary: `${what}：${NOTICE_STATUS.label(from)} → ${NOTICE_STATUS.label(to)}${when}`, before: { status: from }, after }, now);
    return after;
  });
}

/** Serialises the pin count of one district (0: the city-wide set) across transactions and instances. */
const lockPins = (tx: Db, districtId: number | null) => tx.execute(sql`select pg_advisory_xact_lock(${PIN_LOCK}, ${districtId ?? 0})`);
/** The advisory lock space of notice pins (any constant no other lock uses). */
const PIN_LOCK = 7_301;

/** 置顶 / 取消置顶: at most NOTICE_TOP_LIMIT pinned per district, counted under the district's lock. */
export async function setTop(deps: AppDeps, a: AuthContext, body: TopBody) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockManageable(tx, a, body.id);
    await checkVersion(row, body.rowVersion, async () => dto(await load(tx, row.id), a));
    if (row.top === body.top) return dto(await load(tx, row.id), a);
    if (body.top === 1) {
      if (row.status === 3) throw fail('已下线的公告不能置顶');
      await lockPins(tx, row.districtId);
      const sameArea = row.districtId === null ? isNull(notices.districtId) : eq(notices.districtId, row.districtId);
      const [pinned] = await tx.select({ n: count() }).from(notices).where(and(sameArea, eq(notices.top, 1), ne(notices.status, 3)));
      if ((pinned?.n ?? 0) >= NOTICE_TOP_LIMIT) throw fail(`每个区域最多置顶${NOTICE_TOP_LIMIT}条公告`);
    }
    await updateVersioned(tx, { table: notices, key: notices.id, id: row.id, version: body.rowVersion, set: { top: body.top, updatedAt: now }, current: async () => dto(await load(tx, row.id), a) });
    const after = dto(await load(tx, row.id), a);
    await audit(tx, a.actor, { type: 'NOTICE_TOP', targetDistrictId: row.districtId, target: `notice/${row.id}`, summary: `${body.top ? '置顶' : '取消置顶'}公告「${row.title}」`, before: { top: row.top }, after: { top: body.top } }, now);
    return after;
  });
}

/** 删除草稿: a draft only; anything published once stays (撤回 takes it down). */
export async function deleteNotice(deps: AppDeps, a: AuthContext, id: number) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockManageable(tx, a, id);
    if (row.status !== 0) throw fail(`只能删除草稿，「${NOTICE_STATUS.label(row.status as NoticeStatus)}」的公告请先撤回或转为草稿`);
    const before = dto(await load(tx, id), a);
    await tx.delete(notices).where(and(eq(notices.id, id), eq(notices.status, 0)));
    await audit(tx, a.actor, { type: 'NOTICE_DELETE', targetDistrictId: row.districtId, target: `notice/${id}`, summary: `删除公告草稿「${row.title}」`, before }, now);
    return { id };
  });
}

const SYSTEM_ACTOR: Actor = { id: null, login: 'system', districtId: null, ip: null };

/**
 * One due notice moved by the job, or null when none is left: `for update skip locked` hands each to
 * exactly one instance, and the status in the where makes a second look a no-op.
 */
async function moveOneDue(deps: AppDeps, kind: 'publish' | 'expire'): Promise<number | null> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const due = kind === 'publish' ? and(eq(notices.status, 1), lte(notices.publishAt, now)) : and(eq(notices.status, 2), lte(notices.expireAt, now));
    const [row] = await tx.select({ id: notices.id, title: notices.title, districtId: notices.districtId }).from(notices).where(due).orderBy(notices.id).limit(1).for('update', { skipLocked: true });
    if (!row) return null;
    const set = kind === 'publish' ? { status: 2, updatedAt: now } : { status: 3, top: 0, updatedAt: now };
    await tx.update(notices).set({ ...set, rowVersion: nextVersion(notices.rowVersion) }).where(eq(notices.id, row.id));
    const entry = kind === 'publish' ? { type: 'NOTICE_PUBLISH' as const, summary: `公告「${row.title}」已按定时发布` } : { type: 'NOTICE_EXPIRE' as const, summary: `公告「${row.title}」已到下线时间，自动下线` };
    await audit(tx, SYSTEM_ACTOR, { ...entry, targetDistrictId: row.districtId, target: `notice/${row.id}`, after: set }, now);
    return row.id;
  });
}

/** The job notice.publish: scheduled notices whose time has come go out; expired ones come down. */
export async function publishDueNotices(deps: AppDeps): Promise<{ published: number[]; expired: number[] }> {
  const done = { published: [] as number[], expired: [] as number[] };
  for (let id = await moveOneDue(deps, 'publish'); id !== null; id = await moveOneDue(deps, 'publish')) done.published.push(id);
  for (let id = await moveOneDue(deps, 'expire'); id !== null; id = await moveOneDue(deps, 'expire')) done.expired.push(id);
  return done;
}
