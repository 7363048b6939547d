import { and, asc, count, eq, gte, inArray, isNotNull, lt, lte, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { isAllowed } from '../../../shared/api';
import * as fb from '../../../shared/api/feedback';
import {
  CLOSE_REASON_MIN,
  CLUSTER_WINDOW_MS,
  FEEDBACK_CATEGORY,
  FEEDBACK_CONTENT_MAX,
  FEEDBACK_IMAGES_MAX,
  FEEDBACK_REFUSAL as REFUSAL,
  FEEDBACK_STATUS,
  type FeedbackCategory,
  type FeedbackStatus,
  RIDE_MATCH_MS,
  feedbackDueAt,
} from '../../../shared/api/feedback';
import { maskInText, maskPhone } from '../../../shared/domain/mask';
import { shanghaiDateTime } from '../../../shared/domain/time';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { type OperationType, audit } from '../../lib/audit';
import { fail, failOn, forbidden, notFound } from '../../lib/errors';
import { defineExport, listRows } from '../../lib/export-definition';
import { listService } from '../../lib/list';
import type { Pii } from '../../lib/pii';
import { assertInScope } from '../../lib/scope';
import { openSealedFile, sealedFileInfos, storeSealedFiles } from '../../lib/sealed-files';
import { iso } from '../../lib/sql';
import { feedback } from './schema';

type PageQuery = z.output<typeof fb.feedbackPage.query>;
type SummaryQuery = z.output<typeof fb.feedbackSummary.query>;
type ExportQuery = z.output<typeof fb.feedbackExport.query>;
type ReplyBody = z.output<typeof fb.feedbackReply.body>;
type StatusBody = z.output<typeof fb.feedbackUpdateStatus.body>;
type MaterialBody = z.output<typeof fb.feedbackMaterial.body>;

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const OPEN: FeedbackStatus[] = [0, 3];
const isOpen = (s: number) => s === 0 || s === 3;
/** 管理员 (and the super user): 重新打开, and taking over an item another handler holds. */
const isAdmin = (a: Pick<AuthContext, 'roles'>) => a.roles.includes('ROLE_ADMIN') || a.roles.includes('ROLE_APP_ADMIN');

/**
 * ★ 同车同时段: how many items were on this one's bus within an hour, itself included (1 when it names
 * no bus or no time). Correlated on the outer row: `feedback` is never aliased in the list's select.
 */
const clusterSize = sql<number>`greatest(1, (select count(*) from feedback f2 where f2.district_id = ${feedback.districtId} and f2.bus_no = ${feedback.busNo}
  and f2.occurred_at between ${feedback.occurredAt} - interval '1 hour' and ${feedback.occurredAt} + interval '1 hour'))::int`.mapWith(Number);

const columns = {
  f: feedback,
  districtName: t.districts.name,
  riderPhoneEnc: t.riders.phoneEnc,
  handlerName: t.users.firstName,
  clusterSize,
};
type Selected = { f: typeof feedback.$inferSelect; districtName: string | null; riderPhoneEnc: string | null; handlerName: string | null; clusterSize: number };

const select = (db: Db) =>
  db
    .select(columns)
    .from(feedback)
    .leftJoin(t.districts, eq(t.districts.id, feedback.districtId))
    .leftJoin(t.riders, eq(t.riders.id, feedback.riderId))
    .leftJoin(t.users, eq(t.users.id, feedback.handlerId));

const overdueAt = (now: Date) => and(inArray(feedback.status, OPEN), lt(feedback.dueAt, now));

/** A row as every answer shows it: phones masked, numbers in the rider's words masked. */
function dto(r: Selected, pii: Pii, now: Date) {
  const f = r.f;
  return {
    id: f.id,
    districtId: f.districtId,
    districtName: r.districtName,
    riderId: f.riderId,
    riderPhone: r.riderPhoneEnc ? maskPhone(pii.decrypt(r.riderPhoneEnc)) : '—',
    contactPhone: f.contactPhoneEnc ? maskPhone(pii.decrypt(f.contactPhoneEnc)) : null,
    category: FEEDBACK_CATEGORY.schema.parse(f.category),
    content: maskInText(f.content),
    imageCount: f.imageCount,
    lineCode: f.lineCode,
    lineName: f.lineName,
    busNo: f.busNo,
    occurredAt: f.occurredAt ? iso(f.occurredAt) : null,
    status: FEEDBACK_STATUS.schema.parse(f.status),
    handlerId: f.handlerId,
    handlerName: r.handlerName,
    reply: f.reply === null ? null : maskInText(f.reply),
    repliedAt: f.repliedAt ? iso(f.repliedAt) : null,
    closeReason: f.closeReason === null ? null : maskInText(f.closeReason),
    dueAt: iso(f.dueAt),
    overdue: isOpen(f.status) && f.dueAt.getTime() < now.getTime(),
    linkedRides: f.linkedRideIds.length,
    clusterSize: r.clusterSize,
    createdDate: iso(f.createdAt),
    updatedDate: iso(f.updatedAt),
  };
}
export type FeedbackDto = ReturnType<typeof dto>;

/** 意见反馈: the area's feedback by status, category, line, overdue, handler and date; by due time or newest. */
const feedbackList = listService({
  endpoint: fb.feedbackPage,
  select,
  count: (db) => db.select({ n: count() }).from(feedback),
  scope: feedback.districtId,
  filters: {
    status: (status) => eq(feedback.status, status),
    category: (category) => eq(feedback.category, category),
    lineCode: (code) => eq(feedback.lineCode, code),
    overdue: (overdue, _args, _a, deps) => (overdue ? overdueAt(deps.clock.now()) : sql`not coalesce(${overdueAt(deps.clock.now())}, false)`),
    // The asker's own items: an export (run without a session) never carries this filter.
    mine: (mine, _args, a) => {
      const me = (a as Partial<AuthContext>).user?.id;
      return mine ? (me === undefined ? sql`false` : eq(feedback.handlerId, me)) : undefined;
    },
    startTime: (from) => gte(feedback.createdAt, new Date(from)),
    endTime: (to) => lte(feedback.createdAt, new Date(to)),
  },
  sorts: { dueAt: feedback.dueAt, createdDate: feedback.createdAt },
  order: { column: feedback.id, dir: 'desc' },
  key: { column: feedback.id, of: (r) => r.f.id },
  dto: (r, { deps }) => dto(r, deps.pii, deps.clock.now()),
});

export const pageFeedback = (deps: AppDeps, a: AuthContext, q: PageQuery) => feedbackList.page(deps, a, q);

/** The summary line: by status over the other filters, how many are overdue, the median hours to a reply. */
export async function feedbackSummary(deps: AppDeps, a: AuthContext, q: SummaryQuery) {
  const now = deps.clock.now();
  const cond = feedbackList.where(deps, a, q);
  const rows = await deps.db
    .select({
      status: feedback.status,
      n: count(),
      overdue: sql<number>`count(*) filter (where ${feedback.dueAt} < ${now})`.mapWith(Number),
    })
    .from(feedback)
    .where(cond)
    .groupBy(feedback.status);
  const [median] = await deps.db
    .select({ hours: sql<string | null>`percentile_cont(0.5) within group (order by extract(epoch from (${feedback.repliedAt} - ${feedback.createdAt})) / 3600)` })
    .from(feedback)
    .where(and(cond, eq(feedback.status, 1), isNotNull(feedback.repliedAt)));
  const of = (s: FeedbackStatus) => rows.find((r) => r.status === s);
  const hours = median?.hours === null || median?.hours === undefined ? null : Math.round(Number(median.hours) * 10) / 10;
  return {
    total: rows.reduce((s, r) => s + r.n, 0),
    byStatus: { open: of(0)?.n ?? 0, handling: of(3)?.n ?? 0, replied: of(1)?.n ?? 0, declined: of(2)?.n ?? 0 },
    overdue: (of(0)?.overdue ?? 0) + (of(3)?.overdue ?? 0),
    medianReplyHours: hours,
  };
}

const yesNo = (b: boolean) => (b ? '是' : '否');
const time = (at: string | null) => (at ? shanghaiDateTime(at) : '');

export const feedbackExport = defineExport({
  id: 'noticeReport.feedback',
  permission: fb.feedbackExport.permission,
  sheet: '意见反馈',
  columns: [
    { header: '编号', width: 8, cell: (f: FeedbackDto) => f.id },
    { header: '区域', width: 10, cell: (f) => f.districtName },
    { header: '乘客手机号', width: 14, mask: 'phone', cell: (f) => f.riderPhone },
    { header: '联系电话', width: 14, mask: 'phone', cell: (f) => f.contactPhone ?? '' },
    { header: '反馈类型', width: 12, cell: (f) => FEEDBACK_CATEGORY.label(f.category) },
    { header: '反馈内容', width: 40, cell: (f) => f.content },
    { header: '图片数', width: 6, cell: (f) => f.imageCount },
    { header: '线路', width: 10, cell: (f) => [f.lineCode, f.lineName].filter(Boolean).join(' ') },
    { header: '车辆', width: 12, cell: (f) => f.busNo ?? '' },
    { header: '发生时间', width: 20, cell: (f) => time(f.occurredAt) },
    { header: '状态', width: 8, cell: (f) => FEEDBACK_STATUS.label(f.status) },
    { header: '处理人', width: 10, cell: (f) => f.handlerName ?? '' },
    { header: '回复内容', width: 40, cell: (f) => f.reply ?? '' },
    { header: '回复时间', width: 20, cell: (f) => time(f.repliedAt) },
    { header: '不处理原因', width: 20, cell: (f) => f.closeReason ?? '' },
    { header: '处理期限', width: 20, cell: (f) => time(f.dueAt) },
    { header: '是否超时', width: 8, cell: (f) => yesNo(f.overdue) },
    { header: '关联乘车', width: 8, cell: (f) => f.linkedRides },
    { header: '同车同时段', width: 10, cell: (f) => f.clusterSize },
    { header: '提交时间', width: 20, cell: (f) => time(f.createdDate) },
  ],
  rows: listRows(feedbackList, (q: ExportQuery) => q),
  audit: { operation: 'FEEDBACK_EXPORT' },
});

export const feedbackExportTitle = (q: ExportQuery) =>
  ['意见反馈', q.status !== undefined ? FEEDBACK_STATUS.label(q.status) : '', q.category !== undefined ? FEEDBACK_CATEGORY.label(q.category) : '', q.overdue ? '超时' : '', q.lineCode ? `${q.lineCode}路` : '']
    .filter(Boolean)
    .join(' ');

async function load(db: Db, deps: Pick<AppDeps, 'pii' | 'clock'>, id: number) {
  const [r] = await select(db).where(eq(feedback.id, id));
  if (!r) throw notFound(REFUSAL.notFound);
  return dto(r, deps.pii, deps.clock.now());
}

/** ★ The rides of a rider's cards within ±30 min of a moment (the window names the partitions read). */
export async function matchRides(db: Db, riderId: number, at: Date) {
  const from = new Date(at.getTime() - RIDE_MATCH_MS);
  const to = new Date(at.getTime() + RIDE_MATCH_MS);
  const cards = db.select({ no: t.busCards.cardNo }).from(t.busCards).where(eq(t.busCards.riderId, riderId));
  const rows = await db
    .select()
    .from(t.rideRecords)
    .where(and(inArray(t.rideRecords.cardNo, cards), gte(t.rideRecords.rideAt, from), lte(t.rideRecords.rideAt, to)))
    .orderBy(asc(t.rideRecords.rideAt));
  return rows.sort((x, y) => Math.abs(x.rideAt.getTime() - at.getTime()) - Math.abs(y.rideAt.getTime() - at.getTime()));
}

/** The rides a feedback was matched to, read back by id within its window. */
async function linkedRides(db: Db, f: typeof feedback.$inferSelect) {
  if (!f.linkedRideIds.length) return [];
  const at = f.occurredAt ?? f.createdAt;
  const rows = await db
    .select()
    .from(t.rideRecords)
    .where(and(inArray(t.rideRecords.id, f.linkedRideIds), gte(t.rideRecords.rideAt, new Date(at.getTime() - RIDE_MATCH_MS)), lte(t.rideRecords.rideAt, new Date(at.getTime() + RIDE_MATCH_MS))))
    .orderBy(asc(t.rideRecords.rideAt));
  return rows.map((r) => ({
    id: r.id,
    rideAt: iso(r.rideAt),
    lineCode: r.lineCode,
    lineName: r.lineName,
    busName: r.busName,
    direction: r.direction,
    stationName: r.stationName,
    cardNo: r.cardNo,
    amount: r.amount,
    payStatus: r.payStatus,
    payChannel: r.payChannel,
    orderNo: r.orderNo,
  }));
}

/** ★ The other items on the same bus within an hour, in the same district. */
function clusterOf(db: Db, f: Pick<typeof feedback.$inferSelect, 'id' | 'districtId' | 'busNo' | 'occurredAt'>) {
  if (!f.busNo || !f.occurredAt) return Promise.resolve([]);
  return select(db)
    .where(
      and(
        eq(feedback.districtId, f.districtId),
        eq(feedback.busNo, f.busNo),
        ne(feedback.id, f.id),
        gte(feedback.occurredAt, new Date(f.occurredAt.getTime() - CLUSTER_WINDOW_MS)),
        lte(feedback.occurredAt, new Date(f.occurredAt.getTime() + CLUSTER_WINDOW_MS)),
      ),
    )
    .orderBy(asc(feedback.occurredAt), asc(feedback.id));
}

export async function feedbackById(deps: AppDeps, a: AuthContext, id: number) {
  const [r] = await select(deps.db).where(eq(feedback.id, id));
  if (!r) throw notFound(REFUSAL.notFound);
  assertInScope(a, r.f.districtId);
  const now = deps.clock.now();
  const files = (await sealedFileInfos(deps.db, 'feedback', [id])).get(id) ?? [];
  const cluster = (await clusterOf(deps.db, r.f)).map((c) => {
    const d = dto(c, deps.pii, now);
    return { id: d.id, status: d.status, category: d.category, content: d.content, riderPhone: d.riderPhone, occurredAt: d.occurredAt, handlerId: d.handlerId, handlerName: d.handlerName };
  });
  return {
    ...dto(r, deps.pii, now),
    images: files.map((f) => ({ id: f.id, label: f.label, mime: f.mime, bytes: f.bytes, purged: f.purged })),
    rides: await linkedRides(deps.db, r.f),
    cluster,
  };
}

/**
 * Rows under their locks, in id order (two calls locking overlapping sets never deadlock). The
 * handlers' names are read after the lock: a join in the locking query would name the handler the
 * row had before a concurrent claim committed (PostgreSQL re-reads only the locked row).
 */
async function lockRows(tx: Db, ids: readonly number[]) {
  const rows = await tx
    .select()
    .from(feedback)
    .where(inArray(feedback.id, [...ids]))
    .orderBy(asc(feedback.id))
    .for('update');
  const handlerIds = [...new Set(rows.map((f) => f.handlerId).filter((h): h is number => h !== null))];
  const names = handlerIds.length ? await tx.select({ id: t.users.id, name: t.users.firstName }).from(t.users).where(inArray(t.users.id, handlerIds)) : [];
  const nameOf = new Map(names.map((n) => [n.id, n.name]));
  return new Map(rows.map((f) => [f.id, { f, handlerName: f.handlerId === null ? null : (nameOf.get(f.handlerId) ?? null) }]));
}

type Locked = { f: typeof feedback.$inferSelect; handlerName: string | null };

/**
 * Whether this account may act on an open item now: a closed one is 已被处理; one another handler
 * holds is theirs unless an administrator takes it over. Answers the refusal, or null.
 */
function refusalFor(a: AuthContext, row: Locked, takeOver: boolean | undefined): string | null {
  if (!isOpen(row.f.status)) return REFUSAL.handled;
  if (row.f.status === 3 && row.f.handlerId !== a.user.id && !(takeOver && isAdmin(a))) return REFUSAL.heldBy(row.handlerName ?? '其他处理人');
  return null;
}

const what = (id: number) => `意见反馈#${id}`;
const target = (id: number) => `feedback/${id}`;

/** The guarded write: `where status = :current`, so a row moved under the lock (never, but) writes nothing. */
async function guardedSet(tx: Db, row: Locked, set: Partial<typeof feedback.$inferInsert>) {
  const done = await tx
    .update(feedback)
    .set(set)
    .where(and(eq(feedback.id, row.f.id), eq(feedback.status, row.f.status)))
    .returning({ id: feedback.id });
  if (!done.length) throw fail(REFUSAL.handled);
}

/**
 * 认领 (0 → 3): the item becomes this handler's. Already theirs: answered as it is. Held by another:
 * `该反馈正由{name}处理`, unless an administrator takes it over (`takeOver`).
 */
export async function assignFeedback(deps: AppDeps, a: AuthContext, body: { id: number; takeOver?: boolean | undefined }) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = (await lockRows(tx, [body.id])).get(body.id);
    if (!row) throw notFound(REFUSAL.notFound);
    assertInScope(a, row.f.districtId);
    if (row.f.status === 3 && row.f.handlerId === a.user.id) return load(tx, deps, row.f.id);
    const refusal = refusalFor(a, row, body.takeOver);
    if (refusal) throw fail(refusal);
    await guardedSet(tx, row, { status: 3, handlerId: a.user.id, updatedAt: now });
    const after = await load(tx, deps, row.f.id);
    const takeOver = row.f.status === 3;
    await audit(
      tx,
      a.actor,
      {
        type: takeOver ? 'FEEDBACK_TAKEOVER' : 'FEEDBACK_ASSIGN',
        targetDistrictId: row.f.districtId,
        target: target(row.f.id),
        summary: takeOver ? `接管${what(row.f.id)}（原处理人：${row.handlerName ?? '—'}）` : `认领${what(row.f.id)}`,
        before: { status: row.f.status, handlerId: row.f.handlerId },
        after: { status: 3, handlerId: a.user.id },
      },
      now,
    );
    return after;
  });
}

/**
 * 回复 (0/3 → 1), and ★ the cluster answered once: the same reply on each of `clusterIds` that is on
 * the same bus within the hour and still open for this handler, each with its own audit row. Items
 * handled or taken meanwhile are skipped and named, never overwritten.
 */
export async function replyFeedback(deps: AppDeps, a: AuthContext, body: ReplyBody) {
  const now = deps.clock.now();
  const others = [...new Set(body.clusterIds ?? [])].filter((id) => id !== body.id);
  return deps.db.transaction(async (tx) => {
    const locked = await lockRows(tx, [body.id, ...others]);
    const row = locked.get(body.id);
    if (!row) throw notFound(REFUSAL.notFound);
    assertInScope(a, row.f.districtId);
    const refusal = refusalFor(a, row, body.takeOver);
    if (refusal) throw fail(refusal);
    const answer = async (r: Locked, summary: string) => {
      await guardedSet(tx, r, { status: 1, handlerId: a.user.id, reply: body.reply, repliedAt: now, updatedAt: now });
      await audit(
        tx,
        a.actor,
        { type: 'FEEDBACK_REPLY', targetDistrictId: r.f.districtId, target: target(r.f.id), summary, before: { status: r.f.status, handlerId: r.f.handlerId }, after: { status: 1, reply: body.reply } },
        now,
      );
    };
    await answer(row, `回复${what(row.f.id)}：${body.reply}`);
    const alsoAnswered: number[] = [];
    const skipped: { id: number; msg: string }[] = [];
    const window = row.f.occurredAt?.getTime();
    for (const id of others) {
      const r = locked.get(id);
      const inCluster =
        r &&
        r.f.districtId === row.f.districtId &&
        row.f.busNo !== null &&
        r.f.busNo === row.f.busNo &&
        window !== undefined &&
        r.f.occurredAt !== null &&
        Math.abs(r.f.occurredAt.getTime() - window) <= CLUSTER_WINDOW_MS;
      if (!r || !inCluster) {
        skipped.push({ id, msg: '不属于同车同时段的反馈' });
        continue;
      }
      const no = refusalFor(a, r, body.takeOver);
      if (no) {
        skipped.push({ id, msg: no });
        continue;
      }
      await answer(r, `同车同时段合并回复${what(r.f.id)}（随${what(row.f.id)}）：${body.reply}`);
      alsoAnswered.push(id);
    }
    return { ...(await load(tx, deps, row.f.id)), alsoAnswered, skipped };
  });
}

/**
 * 不处理 (0/3 → 2, a reason of at least 4 characters), 认领 (0 → 3) and 重新打开 (1/2 → 3, ROLE_ADMIN:
 * back to its handler with a fresh due time, the reply and reason cleared; the log keeps them).
 */
export async function updateFeedbackStatus(deps: AppDeps, a: AuthContext, body: StatusBody) {
  const reopen = body.toStatus === 3 && (body.fromStatus === 1 || body.fromStatus === 2);
  if (reopen && !isAllowed(fb.FEEDBACK_REOPENER, a)) throw forbidden('只有管理员可以重新打开反馈');
  if (!reopen && !isAllowed(fb.FEEDBACK_HANDLER, a)) throw forbidden();
  if (!FEEDBACK_STATUS.can(body.fromStatus, body.toStatus)) throw fail(FEEDBACK_STATUS.refusal(what(body.id), body.fromStatus, body.toStatus));
  if (body.toStatus === 3 && !reopen) return assignFeedback(deps, a, body);
  const reason = body.reason?.trim() ?? '';
  if (body.toStatus === 2 && [...reason].length < CLOSE_REASON_MIN) throw failOn('reason', REFUSAL.closeReason);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = (await lockRows(tx, [body.id])).get(body.id);
    if (!row) throw notFound(REFUSAL.notFound);
    assertInScope(a, row.f.districtId);
    let type: OperationType;
    let summary: string;
    if (reopen) {
      if (row.f.status !== body.fromStatus) throw fail(REFUSAL.handled);
      await guardedSet(tx, row, { status: 3, reply: null, repliedAt: null, closeReason: null, dueAt: feedbackDueAt(now), updatedAt: now });
      type = 'FEEDBACK_REOPEN';
      summary = `重新打开${what(row.f.id)}（${FEEDBACK_STATUS.label(row.f.status as FeedbackStatus)} → 处理中）${reason ? `，原因：${reason}` : ''}`;
    } else {
      const refusal = refusalFor(a, row, body.takeOver);
      if (refusal) throw fail(refusal);
      await guardedSet(tx, row, { status: 2, handlerId: a.user.id, closeReason: reason, updatedAt: now });
      type = 'FEEDBACK_DECLINE';
      summary = `不处理${what(row.f.id)}，原因：${reason}`;
    }
    const after = await load(tx, deps, row.f.id);
    await audit(
      tx,
      a.actor,
      { type, targetDistrictId: row.f.districtId, target: target(row.f.id), summary, before: { status: row.f.status, handlerId: row.f.handlerId, reply: row.f.reply, closeReason: row.f.closeReason }, after: { status: after.status, handlerId: after.handlerId } },
      now,
    );
    return after;
  });
}

/** An image of the item (or, without a file, its contact phone) in clear: scoped, audited with the reason, no-store. */
export async function feedbackMaterial(deps: AppDeps, a: AuthContext, body: MaterialBody, setNoStore: () => void) {
  const [row] = await deps.db.select({ id: feedback.id, districtId: feedback.districtId, contactPhoneEnc: feedback.contactPhoneEnc }).from(feedback).where(eq(feedback.id, body.id));
  if (!row) throw notFound(REFUSAL.notFound);
  assertInScope(a, row.districtId);
  let image: { id: number; label: string; mime: string; dataUrl: string } | null = null;
  if (body.fileId !== undefined) {
    const file = await openSealedFile(deps.db, deps.pii, 'feedback', row.id, body.fileId);
    if (!file) throw notFound('图片不存在或已清除');
    image = { id: file.info.id, label: file.info.label, mime: file.info.mime, dataUrl: `data:${file.info.mime};base64,${file.data.toString('base64')}` };
  } else if (!row.contactPhoneEnc) throw fail('该反馈没有留联系电话');
  const seen = image ? `图片「${image.label}」` : '联系电话';
  await audit(deps.db, a.actor, { type: 'FEEDBACK_MATERIAL', targetDistrictId: row.districtId, target: target(row.id), summary: `查看${what(row.id)}的${seen}，原因：${body.reason}`, after: { reason: body.reason, fileId: body.fileId ?? null } }, deps.clock.now());
  setNoStore();
  return { id: row.id, contactPhone: image ? null : deps.pii.decrypt(row.contactPhoneEnc!), image };
}

// ---------------------------------------------------------------- the rider side

export interface NewFeedback {
  riderId: number;
  contactPhone?: string | null;
  category: FeedbackCategory;
  content: string;
  images?: readonly { label?: string; mime: string; data: Buffer; width?: number; height?: number }[];
  lineCode?: string | null;
  busNo?: string | null;
  occurredAt?: Date | null;
}

/**
 * The mini-program's 提交反馈 (a service function, not a console endpoint; second wave §1): checked
 * as the rider's form would be, matched to the rider's own rides ±30 min (★; the nearest one fills the
 * line and bus the rider left out), placed in the district of the line ridden (else the rider's),
 * due 3 working days later; the images sealed beside it.
 */
export async function submitFeedback(deps: Pick<AppDeps, 'db' | 'pii' | 'clock'>, input: NewFeedback): Promise<number> {
  const content = input.content.trim();
  if (!content) throw failOn('content', '请填写反馈内容');
  if ([...content].length > FEEDBACK_CONTENT_MAX) throw failOn('content', `反馈内容不能超过${FEEDBACK_CONTENT_MAX}个字`);
  if ((input.images?.length ?? 0) > FEEDBACK_IMAGES_MAX) throw failOn('images', `最多上传${FEEDBACK_IMAGES_MAX}张图片`);
  if (input.contactPhone && !/^1\d{10}$/.test(input.contactPhone)) throw failOn('contactPhone', '手机号应为11位数字');
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [rider] = await tx.select({ id: t.riders.id, districtId: t.riders.districtId }).from(t.riders).where(eq(t.riders.id, input.riderId));
    if (!rider) throw notFound('乘客不存在');
    const anchor = input.occurredAt ?? now;
    const rides = await matchRides(tx, rider.id, anchor);
    const wanted = input.lineCode ? rides.filter((r) => r.lineCode === input.lineCode) : rides;
    const nearest = (wanted.length ? wanted : rides)[0];
    const lineCode = input.lineCode ?? nearest?.lineCode ?? null;
    const [line] = lineCode && !nearest ? await onlineLine(tx, lineCode) : [];
    const [row] = await tx
      .insert(feedback)
      .values({
        districtId: nearest?.districtId ?? line?.districtId ?? rider.districtId,
        riderId: rider.id,
        contactPhoneEnc: input.contactPhone ? deps.pii.encrypt(input.contactPhone) : null,
        category: input.category,
        content,
        imageCount: input.images?.length ?? 0,
        lineCode,
        lineName: nearest && nearest.lineCode === lineCode ? nearest.lineName : (line?.name ?? null),
        busNo: input.busNo ?? nearest?.busName ?? null,
        occurredAt: input.occurredAt ?? nearest?.rideAt ?? null,
        status: 0,
        dueAt: feedbackDueAt(now),
        linkedRideIds: rides.map((r) => r.id),
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: feedback.id });
    const id = row!.id;
    await storeSealedFiles(
      tx,
      deps.pii,
      (input.images ?? []).map((img, i) => ({ kind: 'feedback' as const, refId: id, label: img.label ?? `图片${i + 1}`, mime: img.mime, data: img.data, width: img.width, height: img.height })),
      now,
    );
    return id;
  });
}

/** An online line by code: its district and name. */
function onlineLine(db: Db, code: string) {
  return db
    .select({ districtId: t.lineVersions.districtId, name: t.busLines.name })
    .from(t.busLines)
    .innerJoin(t.lineVersions, eq(t.lineVersions.id, t.busLines.versionId))
    .where(and(eq(t.busLines.code, code), eq(t.lineVersions.status, 3)))
    .limit(1);
}

/** For the seed: the links of every item with a time, in one statement (what submitFeedback does one by one). */
export async function linkSeededRides(db: Db, since: Date): Promise<number> {
  const res = await db.execute(sql`
    update feedback f set linked_ride_ids = m.ids
    from (
      select f2.id, array_agg(r.id order by r.ride_at) as ids
      from feedback f2
      join bus_cards c on c.rider_id = f2.rider_id
      join ride_records r on r.card_no = c.card_no and r.ride_at between f2.occurred_at - interval '30 minutes' and f2.occurred_at + interval '30 minutes'
      where f2.occurred_at >= ${since}
      group by f2.id
    ) m
    where m.id = f.id
    returning f.id`);
  return rowsOf<{ id: number }>(res).length;
}

