import { and, count, eq, gte, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { isAllowed } from '../../../shared/api';
import * as api from '../../../shared/api/activity';
import {
  ACTIVITY_BUDGETER,
  ACTIVITY_EDITOR,
  ACTIVITY_STATUS,
  BUDGET_PERMISSION_REFUSAL,
  ENDED_RESTART_REFUSAL,
  LIMIT_DIMENSIONS,
  LIMIT_PERIODS,
  PAST_START_REFUSAL,
  RUNNING_RULE_REFUSAL,
  type ActivityRule,
  type ActivityStatus,
  activityTypeLabel,
  budgetBelowUsedRefusal,
  ruleText,
  overlapRefusal,
} from '../../../shared/api/activity';
import { cardCategoryLabel } from '../../../shared/api/card';
import { fenToYuan } from '../../../shared/domain/money';
import { DAY_MS, addDays, shanghaiDate, shanghaiDateTime, shanghaiMidnight } from '../../../shared/domain/time';
import type { AppDeps, AuthContext } from '../../context';
import { isSuperUser } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { OPERATION_TYPES, type OperationType, audit } from '../../lib/audit';
import { fail, failOn, forbidden, notFound } from '../../lib/errors';
import { type ExportScope, computedRows, defineExport, listRows } from '../../lib/export-definition';
import { type ListContext, listService } from '../../lib/list';
import { checkVersion, nextVersion, staleEdit } from '../../lib/row-version';
import { assertInScope } from '../../lib/scope';
import { contains, iso } from '../../lib/sql';
import { NO_HISTORY, type RideHistory, discountOf, overlaps, pickWinners, rideInScope, statusOf } from './rules';
import { activities, activityCounters, activityLimits, activityUsages } from './schema';

type Scope = Pick<AuthContext, 'districtScope'>;
type SaveBody = z.output<typeof api.activitySave.body>;
type StatusBody = z.output<typeof api.activityUpdateStatus.body>;
type SimulateBody = z.output<typeof api.activitySimulate.body>;
type Filters = z.output<typeof api.activityTotal.query>;
type EffectQuery = z.output<typeof api.activityEffect.query>;
type LimitBody = z.output<typeof api.discountLimitSave.body>;
type ActivityRow = typeof activities.$inferSelect;

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const num = (v: unknown) => Number(v ?? 0);
/** A start typed as "now" reaches the server a moment later: this much in the past still counts as now. */
const START_SLACK_MS = 60_000;

// ---------------------------------------------------------------- activities

/** The derived status in SQL, the same order as rules.ts's statusOf. */
const statusSql = (now: Date) =>
  sql<number>`(case when ${activities.endedAt} is not null or ${activities.endAt} <= ${now} then 3 when not ${activities.enabled} then 2 when ${activities.usedFen} >= ${activities.budgetFen} then 4 when ${activities.startAt} > ${now} then 0 else 1 end)`;

/** A district reads its own activities and the city-wide ones (which only the super user writes). */
const districtOrCity = (a: Scope, column: typeof activities.districtId | typeof activityLimits.districtId) => (a.districtScope === null ? undefined : or(eq(column, a.districtScope), isNull(column)));

const activityColumns = {
  a: activities,
  districtName: t.districts.name,
  rides: sql<number>`(select count(*) from activity_usages u where u.activity_id = ${activities.id})`.mapWith(Number),
};
type Selected = { a: ActivityRow; districtName: string | null; rides: number };

const selectActivities = (db: Db) => db.select(activityColumns).from(activities).leftJoin(t.districts, eq(t.districts.id, activities.districtId));

const activityDto = (r: Selected, now: Date) => ({
  id: r.a.id,
  districtId: r.a.districtId,
  districtName: r.districtName,
  name: r.a.name,
  type: r.a.type,
  rule: r.a.rule,
  scope: { lineCodes: r.a.lineCodes, cardCategories: r.a.cardCategories, payChannels: r.a.payChannels },
  startAt: iso(r.a.startAt),
  endAt: iso(r.a.endAt),
  enabled: r.a.enabled,
  neverEnabled: r.a.enabledAt === null,
  endedAt: r.a.endedAt ? iso(r.a.endedAt) : null,
  budgetFen: r.a.budgetFen,
  usedFen: r.a.usedFen,
  priority: r.a.priority,
  stackable: r.a.stackable,
  status: statusOf(r.a, now),
  rides: r.rides,
  createdDate: iso(r.a.createdAt),
  updatedDate: iso(r.a.updatedAt),
  rowVersion: r.a.rowVersion,
});
export type ActivityDto = ReturnType<typeof activityDto>;

/** 活动列表: the area's activities and the city's, by name, status and type; the newest start first. */
const activityList = listService({
  endpoint: api.activityPage,
  select: selectActivities,
  count: (db) => db.select({ n: count() }).from(activities),
  scope: (a) => districtOrCity(a, activities.districtId),
  filters: {
    name: (name) => contains(activities.name, name),
    status: (status, _q, _a, deps) => sql`${statusSql(deps.clock.now())} = ${status}`,
    type: (type) => eq(activities.type, type),
  },
  sorts: { startAt: activities.startAt, priority: activities.priority, usedFen: activities.usedFen, createdDate: activities.createdAt },
  order: { column: activities.startAt, dir: 'desc' },
  key: { column: activities.id, of: (r) => r.a.id },
  dto: (r, { deps }: ListContext<ExportScope>) => activityDto(r, deps.clock.now()),
});

export const pageActivities = (deps: AppDeps, a: AuthContext, q: z.output<typeof api.activityPage.query>) => activityList.page(deps, a, q);

export async function activityTotals(deps: AppDeps, a: AuthContext, q: Filters) {
  const now = deps.clock.now();
  const rows = await deps.db
    .select({ status: statusSql(now).mapWith(Number), n: count(), budget: sql<number>`coalesce(sum(${activities.budgetFen}), 0)`.mapWith(Number), used: sql<number>`coalesce(sum(${activities.usedFen}), 0)`.mapWith(Number) })
    .from(activities)
    .where(activityList.where(deps, a, { ...q, status: undefined }))
    // By position: the expression's own parameter would not match the select's.
    .groupBy(sql`1`);
  const of = (s: number) => rows.find((r) => r.status === s)?.n ?? 0;
  return {
    total: rows.reduce((s, r) => s + r.n, 0),
    notStarted: of(0),
    running: of(1),
    paused: of(2),
    ended: of(3),
    exhausted: of(4),
    budgetFen: rows.reduce((s, r) => s + r.budget, 0),
    usedFen: rows.reduce((s, r) => s + r.used, 0),
  };
}

const scopeText = (s: ActivityDto['scope']) =>
  [s.lineCodes.length ? `线路 ${s.lineCodes.join('、')}` : '全部线路', s.cardCategories.length ? s.cardCategories.map(cardCategoryLabel).join('、') : '全部卡类', s.payChannels.length ? s.payChannels.join('、') : '全部支付方式'].join('；');

export const activitiesExport = defineExport({
  id: 'acitivity.activities',
  permission: api.activityExport.permission,
  sheet: '活动',
  columns: [
    { header: '活动ID', width: 8, cell: (x: ActivityDto) => x.id },
    { header: '活动名称', width: 20, cell: (x) => x.name },
    { header: '区域', width: 10, cell: (x) => x.districtName ?? '全市' },
    { header: '类型', width: 10, cell: (x) => activityTypeLabel(x.type) },
    { header: '优惠规则', width: 30, cell: (x) => ruleText(x.type, x.rule) },
    { header: '适用范围', width: 30, cell: (x) => scopeText(x.scope) },
    { header: '开始时间', width: 20, cell: (x) => shanghaiDateTime(x.startAt) },
    { header: '结束时间', width: 20, cell: (x) => shanghaiDateTime(x.endAt) },
    { header: '状态', width: 8, cell: (x) => ACTIVITY_STATUS.label(x.status) },
    { header: '预算（元）', width: 12, cell: (x) => x.budgetFen / 100 },
    { header: '已使用（元）', width: 12, cell: (x) => x.usedFen / 100 },
    { header: '优惠笔数', width: 10, cell: (x) => x.rides },
    { header: '优先级', width: 8, cell: (x) => x.priority },
    { header: '可叠加', width: 8, cell: (x) => (x.stackable ? '是' : '否') },
  ],
  rows: listRows(activityList, (q: Filters) => q),
  audit: { operation: 'ACTIVITY_EXPORT' },
});

export const activityExportTitle = (q: Filters) => ['活动', q.status !== undefined ? ACTIVITY_STATUS.label(q.status) : ''].filter(Boolean).join(' ');

async function loadActivity(db: Db, id: number, now: Date) {
  const [r] = await selectActivities(db).where(eq(activities.id, id));
  if (!r) throw notFound('活动不存在');
  return activityDto(r, now);
}

/** Reading: a district reads its own and the city-wide ones. */
const assertReadable = (a: Scope, districtId: number | null) => {
  if (districtId !== null) assertInScope(a, districtId);
};

export async function activityById(deps: AppDeps, a: AuthContext, id: number) {
  const x = await loadActivity(deps.db, id, deps.clock.now());
  assertReadable(a, x.districtId);
  return x;
}

/** Writing: the row's own district (a city-wide row only unscoped, i.e. the super user working across all). */
async function lockActivity(tx: Db, a: Scope, id: number) {
  const [row] = await tx.select().from(activities).where(eq(activities.id, id)).for('update');
  if (!row) throw notFound('活动不存在');
  assertInScope(a, row.districtId);
  return row;
}

const uniq = <T>(xs: readonly T[]) => [...new Set(xs)];
const normalScope = (s: SaveBody['scope']) => ({ lineCodes: uniq(s.lineCodes.map((l) => l.trim()).filter(Boolean)), cardCategories: uniq(s.cardCategories).sort((x, y) => x - y), payChannels: uniq(s.payChannels) });

/** The rule with the fields its type reads, nothing else (a form may send the other types' leftovers). */
export function ruleOf(type: number, r: ActivityRule): ActivityRule {
  if (type === 1) return { rate: r.rate };
  if (type === 2) return { tiers: (r.tiers ?? []).map((x) => ({ fromFen: x.fromFen, rate: x.rate })) };
  if (type === 3) return { windowMin: r.windowMin, maxFen: r.maxFen, perDay: r.perDay ?? 0 };
  return { rebateRate: r.rebateRate };
}

/** What the operate record keeps of an activity: the fields a person sets, in a stable order. */
const snapshot = (x: Pick<ActivityRow, 'name' | 'type' | 'rule' | 'lineCodes' | 'cardCategories' | 'payChannels' | 'startAt' | 'endAt' | 'budgetFen' | 'priority' | 'stackable' | 'enabled'>) => ({
  name: x.name,
  type: x.type,
  rule: x.rule,
  lineCodes: x.lineCodes,
  cardCategories: x.cardCategories,
  payChannels: x.payChannels,
  startAt: iso(x.startAt),
  endAt: iso(x.endAt),
  budgetFen: x.budgetFen,
  priority: x.priority,
  stackable: x.stackable,
  enabled: x.enabled,
});

/**
 * The overlap rule: an enabled activity that cannot stack may not share a ride with another such
 * one (same district or the city's, windows and every scope dimension meeting). Paused and never
 * enabled ones are not counted: 恢复 checks again, so a copy can be prepared beside its original.
 */
async function assertNoOverlap(tx: Db, me: { id?: number; districtId: number | null; stackable: boolean; startAt: Date; endAt: Date; lineCodes: string[]; cardCategories: number[]; payChannels: string[] }, now: Date) {
  if (me.stackable) return;
  const area = me.districtId === null ? sql`true` : or(eq(activities.districtId, me.districtId), isNull(activities.districtId));
  const others = await tx
    .select()
    .from(activities)
    .where(and(eq(activities.enabled, true), isNull(activities.endedAt), eq(activities.stackable, false), sql`${activities.endAt} > ${now}`, me.id === undefined ? undefined : sql`${activities.id} <> ${me.id}`, area))
    .orderBy(activities.id);
  const hit = others.find((o) => overlaps(me, o));
  if (hit) throw fail(overlapRefusal(hit.name));
}

const sameJson = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);

/**
 * 新增活动 / 编辑活动. Permissions by field (decision 8's rule): the budget needs ACTIVITY_BUDGET
 * (追加预算 of an exhausted activity is this call), every other field ACTIVITY_EDIT. The rule, the
 * scope, the start, the priority and stacking decide what riders get: they change only while the
 * activity is 未开始 or 已暂停. A finished activity changes no more (copy it).
 */
export async function saveActivity(deps: AppDeps, a: AuthContext, body: SaveBody) {
  const now = deps.clock.now();
  const mayEdit = isAllowed(ACTIVITY_EDITOR, a);
  const mayBudget = isAllowed(ACTIVITY_BUDGETER, a);
  const scope = normalScope(body.scope);
  const rule = ruleOf(body.type, body.rule);
  const startAt = new Date(body.startAt);
  const endAt = new Date(body.endAt);
  return deps.db.transaction(async (tx) => {
    if (body.id === undefined) {
      if (!mayEdit) throw forbidden('新增活动需要「编辑活动」权限');
      let districtId: number | null;
      if (a.districtScope !== null) districtId = a.districtScope;
      else if (body.districtId === undefined) throw failOn('districtId', '请选择活动所属区域');
      else districtId = body.districtId;
      if (districtId === null && !isSuperUser(a)) throw forbidden('只有超级管理员可以新增全市活动');
      if (startAt.getTime() < now.getTime() - START_SLACK_MS) throw failOn('startAt', PAST_START_REFUSAL);
      const fields = { name: body.name, type: body.type, rule, ...scope, startAt, endAt, budgetFen: body.budgetFen, priority: body.priority, stackable: body.stackable, enabled: body.enabled };
      if (body.enabled) await assertNoOverlap(tx, { districtId, ...fields }, now);
      const [row] = await tx
        .insert(activities)
        .values({ ...fields, districtId, enabledAt: body.enabled ? now : null, usedFen: 0, createdBy: a.user.id, createdAt: now, updatedAt: now })
        .returning();
      await audit(tx, a.actor, { type: 'ACTIVITY_SAVE', targetDistrictId: districtId, target: `activity/${row!.id}`, summary: `新增活动「${body.name}」：${activityTypeLabel(body.type)} ${ruleText(body.type, rule)}，预算${fenToYuan(body.budgetFen)}元`, after: snapshot(row!) }, now);
      return loadActivity(tx, row!.id, now);
    }
    const row = await lockActivity(tx, a, body.id);
    await checkVersion(row, body.rowVersion, () => loadActivity(tx, row.id, now));
    const status = statusOf(row, now);
    const ruleChanged =
      row.type !== body.type ||
      !sameJson(ruleOf(row.type, row.rule), rule) ||
      !sameJson({ l: row.lineCodes, c: [...row.cardCategories].sort((x, y) => x - y), p: row.payChannels }, { l: scope.lineCodes, c: scope.cardCategories, p: scope.payChannels }) ||
      row.startAt.getTime() !== startAt.getTime() ||
      row.priority !== body.priority ||
      row.stackable !== body.stackable;
    const otherChanged = row.name !== body.name || row.endAt.getTime() !== endAt.getTime();
    const budgetChanged = row.budgetFen !== body.budgetFen;
    if (budgetChanged && !mayBudget) throw forbidden(BUDGET_PERMISSION_REFUSAL);
    if ((ruleChanged || otherChanged) && !mayEdit) throw forbidden('修改活动需要「编辑活动」权限');
    if (status === 3 && (ruleChanged || otherChanged || budgetChanged)) throw fail('活动已结束，不能修改，请复制为新活动');
    if (ruleChanged && (status === 1 || status === 4)) throw fail(RUNNING_RULE_REFUSAL);
    if (row.startAt.getTime() !== startAt.getTime() && startAt.getTime() < now.getTime() - START_SLACK_MS) throw failOn('startAt', PAST_START_REFUSAL);
    if (row.endAt.getTime() !== endAt.getTime() && endAt.getTime() <= now.getTime()) throw failOn('endAt', '结束时间必须晚于当前时间，要立即停止请使用「结束」');
    if (body.budgetFen < row.usedFen) throw failOn('budgetFen', budgetBelowUsedRefusal(fenToYuan(row.usedFen)));
    const fields = { name: body.name, type: body.type, rule, ...scope, startAt, endAt, budgetFen: body.budgetFen, priority: body.priority, stackable: body.stackable };
    if (row.enabled) await assertNoOverlap(tx, { id: row.id, districtId: row.districtId, ...fields }, now);
    const before = snapshot(row);
    // The row is locked: a settlement waits and then meets the new budget; the guard is the check's.
    const [after] = await tx
      .update(activities)
      .set({ ...fields, updatedAt: now, rowVersion: nextVersion(activities.rowVersion) })
      .where(and(eq(activities.id, row.id), sql`${activities.usedFen} <= ${body.budgetFen}`))
      .returning();
    if (!after) throw staleEdit(await loadActivity(tx, row.id, now));
    const onlyBudget = budgetChanged && !ruleChanged && !otherChanged;
    const summary = onlyBudget
      ? `${body.budgetFen > row.budgetFen ? '追加' : '调整'}活动「${row.name}」预算：${fenToYuan(row.budgetFen)}元 → ${fenToYuan(body.budgetFen)}元${status === 4 ? '（预算耗尽后恢复进行中）' : ''}`
      : `编辑活动「${body.name}」${budgetChanged ? `，预算 ${fenToYuan(row.budgetFen)}元 → ${fenToYuan(body.budgetFen)}元` : ''}`;
    await audit(tx, a.actor, { type: onlyBudget ? 'ACTIVITY_BUDGET' : 'ACTIVITY_SAVE', targetDistrictId: row.districtId, target: `activity/${row.id}`, summary, before, after: snapshot(after) }, now);
    return loadActivity(tx, row.id, now);
  });
}

/**
 * 暂停 / 恢复 / 结束: one guarded update from what the row is (locked), audited in its transaction.
 * 恢复 checks the overlap rule again (a paused activity was not counted); an ended one never starts
 * again. Each update repeats its condition in the where, so it is right even without the lock.
 */
export async function updateActivityStatus(deps: AppDeps, a: AuthContext, body: StatusBody) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockActivity(tx, a, body.id);
    await checkVersion(row, body.rowVersion, () => loadActivity(tx, row.id, now));
    const from = statusOf(row, now);
    const what = `活动「${row.name}」`;
    const reason = body.reason ? `：${body.reason}` : '';
    const live = and(eq(activities.id, row.id), isNull(activities.endedAt), sql`${activities.endAt} > ${now}`);
    let set: Partial<ActivityRow>;
    let type: OperationType;
    let where: SQL | undefined;
    if (body.action === '暂停') {
      if (from === 3) throw fail(`${what}已结束，不能暂停`);
      if (from === 2) throw fail(`${what}已暂停`);
      set = { enabled: false };
      type = 'ACTIVITY_PAUSE';
      where = and(live, eq(activities.enabled, true));
    } else if (body.action === '恢复') {
      if (from === 3) throw fail(ENDED_RESTART_REFUSAL);
      if (row.enabled) throw fail(`${what}未暂停，无需恢复`);
      await assertNoOverlap(tx, { id: row.id, districtId: row.districtId, stackable: row.stackable, startAt: row.startAt, endAt: row.endAt, lineCodes: row.lineCodes, cardCategories: row.cardCategories, payChannels: row.payChannels }, now);
      set = { enabled: true, enabledAt: row.enabledAt ?? now };
      type = 'ACTIVITY_RESUME';
      where = and(live, eq(activities.enabled, false));
    } else {
      if (from === 3) throw fail(`${what}已结束`);
      set = { endedAt: now };
      type = 'ACTIVITY_END';
      where = live;
    }
    const [moved] = await tx
      .update(activities)
      .set({ ...set, updatedAt: now, rowVersion: nextVersion(activities.rowVersion) })
      .where(where)
      .returning();
    if (!moved) throw fail(`${what}的状态已变化，请刷新后重试`);
    const to = statusOf(moved, now);
    const verb = body.action === '恢复' && row.enabledAt === null ? '启用' : body.action;
    await audit(
      tx,
      a.actor,
      { type, targetDistrictId: row.districtId, target: `activity/${row.id}`, summary: `${verb}${what}${reason}`, before: { status: from, enabled: row.enabled }, after: { status: to, enabled: moved.enabled, ...(body.reason ? { reason: body.reason } : {}) } },
      now,
    );
    return loadActivity(tx, row.id, now);
  });
}

/** The next Shanghai midnight after `now`: where a copy starts (never in the past). */
const nextMidnight = (now: Date) => shanghaiMidnight(addDays(shanghaiDate(now), 1));

/**
 * 复制: a new activity with the rule, scope, budget, priority and stacking of the original, starting
 * at the next midnight for as long as the original ran, never enabled (so it is checked and 启用d on
 * purpose, and the overlap rule meets it then), nothing used.
 */
export async function copyActivity(deps: AppDeps, a: AuthContext, id: number) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [src] = await tx.select().from(activities).where(eq(activities.id, id));
    if (!src) throw notFound('活动不存在');
    assertInScope(a, src.districtId);
    const startAt = nextMidnight(now);
    const endAt = new Date(startAt.getTime() + Math.max(DAY_MS, src.endAt.getTime() - src.startAt.getTime()));
    const name = `${src.name}（副本）`.slice(0, api.ACTIVITY_NAME_MAX);
    const [row] = await tx
      .insert(activities)
      .values({
        districtId: src.districtId,
        name,
        type: src.type,
        rule: src.rule,
        lineCodes: src.lineCodes,
        cardCategories: src.cardCategories,
        payChannels: src.payChannels,
        startAt,
        endAt,
        enabled: false,
        enabledAt: null,
        budgetFen: src.budgetFen,
        usedFen: 0,
        priority: src.priority,
        stackable: src.stackable,
        createdBy: a.user.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await audit(tx, a.actor, { type: 'ACTIVITY_COPY', targetDistrictId: src.districtId, target: `activity/${row!.id}`, summary: `复制活动「${src.name}」为「${name}」（未启用）`, before: { from: src.id }, after: snapshot(row!) }, now);
    return loadActivity(tx, row!.id, now);
  });
}

// ---------------------------------------------------------------- ★ 活动预演

interface RideRow {
  id: string | number;
  ride_at: string | Date;
  district_id: number;
  line_code: string;
  card_no: string;
  card_category: number;
  pay_channel: string;
  amount: number;
  rider_id: number | null;
}

const SIMULATE_DAYS = 30;
/** More rides than this in 30 days of one area is not a rehearsal any more but a batch job. */
const SIMULATE_MAX_RIDES = 400_000;
const monthOf = (day: string) => day.slice(0, 7);

/**
 * ★ 活动预演: the draft rule over the last 30 whole Shanghai days of real ride records of its area
 * (one range on ride_at, so PostgreSQL reads only those months' partitions). Each card's history is
 * replayed in time order (its month's spend for 月累计阶梯, its previous ride for 换乘优惠); the
 * enabled 优惠限制 of the area (and the activity's own, for a saved one) cap it as the settlement
 * would. Where a running activity would discount the same ride, the settlement's order decides
 * (priority, then the bigger discount): the draft pays only for the rides it would take.
 */
export async function simulateActivity(deps: AppDeps, a: AuthContext, body: SimulateBody) {
  const now = deps.clock.now();
  let districtId: number | null = a.districtScope ?? body.districtId ?? null;
  if (body.id !== undefined) {
    const [row] = await deps.db.select().from(activities).where(eq(activities.id, body.id));
    if (!row) throw notFound('活动不存在');
    assertReadable(a, row.districtId);
    districtId = row.districtId;
  }
  const draft = { id: body.id ?? 0, type: body.type, rule: ruleOf(body.type, body.rule), ...normalScope(body.scope), priority: body.priority, stackable: body.stackable };
  const today = shanghaiDate(now);
  const fromDay = addDays(today, -SIMULATE_DAYS);
  const from = shanghaiMidnight(fromDay);
  const to = shanghaiMidnight(today);
  const area = districtId === null ? sql`true` : sql`r.district_id = ${districtId}`;
  // From the first of from's month: those rides only build each card's history (its month's spend
  // for 月累计阶梯), so the first days of the run see the tier a rider really had reached.
  const historyFrom = shanghaiMidnight(`${monthOf(fromDay)}-01`);
  const rides = rowsOf<RideRow>(
    await deps.db.execute(sql`select r.id, r.ride_at, r.district_id, r.line_code, r.card_no, r.card_category, r.pay_channel, r.amount, c.rider_id
      from ride_records r left join bus_cards c on c.card_no = r.card_no
      where r.ride_at >= ${historyFrom} and r.ride_at < ${to} and r.pay_status = 1 and ${area}
      order by r.ride_at, r.id limit ${SIMULATE_MAX_RIDES}`),
  );
  // The running activities it could meet: enabled, in its area, live now.
  const running = (
    await deps.db
      .select()
      .from(activities)
      .where(and(eq(activities.enabled, true), isNull(activities.endedAt), districtId === null ? undefined : or(eq(activities.districtId, districtId), isNull(activities.districtId)), body.id === undefined ? undefined : sql`${activities.id} <> ${body.id}`))
  ).filter((x) => statusOf(x, now) === 1);
  const limits = (await deps.db.select().from(activityLimits).where(and(eq(activityLimits.enabled, true), districtId === null ? undefined : or(eq(activityLimits.districtId, districtId), isNull(activityLimits.districtId))))).filter(
    (l) => l.activityId === null || (body.id !== undefined && l.activityId === body.id),
  );

  const spend = new Map<string, number>();
  const previous = new Map<string, { at: Date; lineCode: string }>();
  const transfers = new Map<string, number>();
  const counters = new Map<string, { times: number; fen: number }>();
  const days = new Map<string, { cards: Set<string>; rides: number; cost: number }>();
  for (let d = fromDay; d < today; d = addDays(d, 1)) days.set(d, { cards: new Set(), rides: 0, cost: 0 });
  const reached = new Set<string>();
  const overlapStats = new Map<number, { rides: number; draftWins: number; otherWins: number; stacked: number }>();

  for (const r of rides) {
    const at = new Date(r.ride_at);
    const day = shanghaiDate(at);
    const month = monthOf(day);
    const card = r.card_no;
    const ride = { rideAt: at, lineCode: r.line_code, cardCategory: num(r.card_category), payChannel: r.pay_channel, amount: num(r.amount) };
    const spendKey = `${card}|${month}`;
    const history = (actId: number): RideHistory => ({ monthSpendFen: spend.get(spendKey) ?? 0, previous: previous.get(card) ?? null, transfersToday: transfers.get(`${actId}|${card}|${day}`) ?? 0 });
    if (ride.amount > 0 && at.getTime() >= from.getTime()) {
      const mine = rideInScope(draft, ride) ? discountOf(draft, ride, history(draft.id)) : 0;
      if (mine > 0) {
        const others = running.filter((o) => rideInScope(o, ride)).map((o) => ({ id: o.id, priority: o.priority, stackable: o.stackable, off: discountOf(o, ride, history(o.id)) }));
        const meeting = others.filter((o) => o.off > 0);
        const winners = pickWinners([{ id: -1, priority: draft.priority, stackable: draft.stackable, off: mine }, ...meeting]);
        const draftTakes = winners.some((w) => w.id === -1);
        for (const o of meeting) {
          const s = overlapStats.get(o.id) ?? { rides: 0, draftWins: 0, otherWins: 0, stacked: 0 };
          s.rides++;
          const otherTakes = winners.some((w) => w.id === o.id);
          if (draftTakes && otherTakes) s.stacked++;
          else if (draftTakes) s.draftWins++;
          else if (otherTakes) s.otherWins++;
          overlapStats.set(o.id, s);
        }
        let d = draftTakes ? mine : 0;
        const touched: { key: string; c: { times: number; fen: number } }[] = [];
        for (const l of limits) {
          if (d <= 0) break;
          const subject = l.dimension === 'card' ? `card:${card}` : r.rider_id ? `rider:${r.rider_id}` : null;
          if (!subject) continue;
          const key = `${l.id}|${subject}|${l.period === 'day' ? day : month}`;
          const c = counters.get(key) ?? { times: 0, fen: 0 };
          if (l.maxTimes > 0 && c.times >= l.maxTimes) d = 0;
          if (l.maxFen > 0) d = Math.min(d, l.maxFen - c.fen);
          touched.push({ key, c });
        }
        if (d > 0) {
          for (const { key, c } of touched) counters.set(key, { times: c.times + 1, fen: c.fen + d });
          if (draft.type === 3) transfers.set(`${draft.id}|${card}|${day}`, (transfers.get(`${draft.id}|${card}|${day}`) ?? 0) + 1);
          const bucket = days.get(day);
          if (bucket) {
            bucket.cards.add(card);
            bucket.rides++;
            bucket.cost += d;
          }
          reached.add(card);
        }
      }
    }
    spend.set(spendKey, (spend.get(spendKey) ?? 0) + ride.amount);
    previous.set(card, { at, lineCode: r.line_code });
  }

  let cumulative = 0;
  let exhaustedOnDay: number | null = null;
  const dayRows = [...days.entries()].map(([day, b], i) => {
    cumulative += b.cost;
    if (exhaustedOnDay === null && cumulative >= body.budgetFen) exhaustedOnDay = i + 1;
    return { day, riders: b.cards.size, rides: b.rides, costFen: b.cost, cumulativeFen: cumulative };
  });
  const cost = cumulative;
  const perDay = cost / SIMULATE_DAYS;
  const budgetDays = cost > 0 ? Math.ceil(body.budgetFen / perDay) : null;
  const startDay = shanghaiDate(new Date(Math.max(Date.parse(body.startAt), now.getTime())));
  const endDay = shanghaiDate(new Date(Date.parse(body.endAt) - 1));
  const exhaustDay = budgetDays === null ? null : addDays(startDay, budgetDays - 1);
  const names = new Map(running.map((o) => [o.id, o]));
  return {
    from: fromDay,
    to: addDays(today, -1),
    days: dayRows,
    riders: reached.size,
    rides: dayRows.reduce((s, d) => s + d.rides, 0),
    costFen: cost,
    budgetFen: body.budgetFen,
    exhaustedOnDay,
    exhaustDate: exhaustDay !== null && exhaustDay <= endDay ? exhaustDay : null,
    budgetDays,
    overlaps: [...overlapStats.entries()]
      .map(([id, s]) => ({ activityId: id, name: names.get(id)!.name, priority: names.get(id)!.priority, stackable: names.get(id)!.stackable, ...s }))
      .sort((x, y) => y.rides - x.rides || x.activityId - y.activityId),
  };
}

// ---------------------------------------------------------------- 活动效果

async function effectDays(db: Db, id: number, days: number, now: Date) {
  const today = shanghaiDate(now);
  const first = addDays(today, -(days - 1));
  const res = rowsOf<{ day: string; riders: number; rides: number; discount: string }>(
    await db.execute(sql`select to_char((u.ride_at at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as day, count(distinct u.card_no)::int as riders, count(*)::int as rides, coalesce(sum(u.discount_fen), 0)::bigint as discount
      from activity_usages u where u.activity_id = ${id} and u.ride_at >= ${shanghaiMidnight(first)} and u.ride_at < ${shanghaiMidnight(addDays(today, 1))} group by 1`),
  );
  const byDay = new Map(res.map((r) => [String(r.day), r]));
  const rows: { day: string; riders: number; rides: number; discountFen: number }[] = [];
  for (let d = first; d <= today; d = addDays(d, 1)) {
    const r = byDay.get(d);
    rows.push({ day: d, riders: num(r?.riders), rides: num(r?.rides), discountFen: num(r?.discount) });
  }
  const [all] = rowsOf<{ riders: number }>(
    await db.execute(sql`select count(distinct u.card_no)::int as riders from activity_usages u where u.activity_id = ${id} and u.ride_at >= ${shanghaiMidnight(first)} and u.ride_at < ${shanghaiMidnight(addDays(today, 1))}`),
  );
  return { rows, riders: num(all?.riders) };
}

/** 活动效果: per Shanghai day of the last N, the cards it reached, its rides and what it gave (fen). */
export async function activityEffect(deps: AppDeps, a: AuthContext, q: EffectQuery) {
  const now = deps.clock.now();
  const activity = await activityById(deps, a, q.id);
  const { rows, riders } = await effectDays(deps.db, q.id, q.days, now);
  return { activity, days: rows, riders, rides: rows.reduce((s, r) => s + r.rides, 0), discountFen: rows.reduce((s, r) => s + r.discountFen, 0) };
}

type EffectRow = Awaited<ReturnType<typeof effectDays>>['rows'][number] & { name: string };

export const effectExport = defineExport({
  id: 'acitivity.effect',
  permission: api.activityEffectExport.permission,
  sheet: '活动效果',
  columns: [
    { header: '日期', width: 12, cell: (r: EffectRow) => r.day },
    { header: '活动', width: 20, cell: (r) => r.name },
    { header: '乘客（卡）', width: 10, cell: (r) => r.riders },
    { header: '优惠笔数', width: 10, cell: (r) => r.rides },
    { header: '优惠金额（元）', width: 12, cell: (r) => r.discountFen / 100 },
  ],
  // At most 90 days of one activity: computed whole.
  rows: computedRows(async ({ deps, scope }, q: EffectQuery) => {
    const now = deps.clock.now();
    const [row] = await deps.db.select().from(activities).where(eq(activities.id, q.id));
    if (!row) throw notFound('活动不存在');
    assertReadable(scope, row.districtId);
    const { rows } = await effectDays(deps.db, q.id, q.days, now);
    return rows.map((r) => ({ ...r, name: row.name }));
  }),
  audit: { operation: 'ACTIVITY_EXPORT' },
});

export async function effectExportTitle(deps: AppDeps, a: AuthContext, q: EffectQuery) {
  const x = await activityById(deps, a, q.id);
  return `活动效果 ${x.name} 近${q.days}天`;
}

// ---------------------------------------------------------------- 优惠限制

const limitDto = (r: { l: typeof activityLimits.$inferSelect; districtName: string | null; activityName: string | null }) => ({
  id: r.l.id,
  districtId: r.l.districtId,
  districtName: r.districtName,
  activityId: r.l.activityId,
  activityName: r.activityName,
  dimension: r.l.dimension as 'rider' | 'card',
  period: r.l.period as 'day' | 'month',
  maxTimes: r.l.maxTimes,
  maxFen: r.l.maxFen,
  enabled: r.l.enabled,
  updatedDate: iso(r.l.updatedAt),
  rowVersion: r.l.rowVersion,
});

const selectLimits = (db: Db) =>
  db
    .select({ l: activityLimits, districtName: t.districts.name, activityName: activities.name })
    .from(activityLimits)
    .leftJoin(t.districts, eq(t.districts.id, activityLimits.districtId))
    .leftJoin(activities, eq(activities.id, activityLimits.activityId));

export async function listLimits(deps: AppDeps, a: AuthContext) {
  const rows = await selectLimits(deps.db).where(districtOrCity(a, activityLimits.districtId)).orderBy(activityLimits.id);
  return { rows: rows.map(limitDto) };
}

const limitText = (l: { dimension: string; period: string; maxTimes: number; maxFen: number; enabled: boolean }) =>
  `${LIMIT_DIMENSIONS[l.dimension as 'rider']}${LIMIT_PERIODS[l.period as 'day']}${l.maxTimes ? `最多${l.maxTimes}次` : ''}${l.maxTimes && l.maxFen ? '、' : ''}${l.maxFen ? `最多优惠${fenToYuan(l.maxFen)}元` : ''}${l.enabled ? '' : '（停用）'}`;

/** 优惠限制 saved: a new one or an edit, for every activity of the area or one of them. */
export async function saveLimit(deps: AppDeps, a: AuthContext, body: LimitBody) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const activityId = body.scope === 'activity' ? body.activityId! : null;
    let target: ActivityRow | undefined;
    if (activityId !== null) {
      [target] = await tx.select().from(activities).where(eq(activities.id, activityId));
      if (!target) throw failOn('activityId', '活动不存在');
    }
    const fields = { activityId, dimension: body.dimension, period: body.period, maxTimes: body.maxTimes, maxFen: body.maxFen, enabled: body.enabled };
    if (body.id === undefined) {
      let districtId: number | null;
      if (a.districtScope !== null) districtId = a.districtScope;
      else if (body.districtId === undefined) throw failOn('districtId', '请选择限制所属区域');
      else districtId = body.districtId;
      if (districtId === null && !isSuperUser(a)) throw forbidden('只有超级管理员可以新增全市限制');
      if (target && target.districtId !== null && target.districtId !== districtId) throw failOn('activityId', '只能限制本区域的活动');
      const [row] = await tx.insert(activityLimits).values({ ...fields, districtId, createdAt: now, updatedAt: now }).returning();
      await audit(tx, a.actor, { type: 'ACTIVITY_LIMIT_SAVE', targetDistrictId: districtId, target: `activity-limit/${row!.id}`, summary: `新增优惠限制：${target ? `活动「${target.name}」` : '全部活动'}${limitText(row!)}`, after: fields }, now);
      const [r] = await selectLimits(tx).where(eq(activityLimits.id, row!.id));
      return limitDto(r!);
    }
    const [row] = await tx.select().from(activityLimits).where(eq(activityLimits.id, body.id)).for('update');
    if (!row) throw notFound('优惠限制不存在');
    assertInScope(a, row.districtId);
    const current = async () => limitDto((await selectLimits(tx).where(eq(activityLimits.id, row.id)))[0]!);
    await checkVersion(row, body.rowVersion, current);
    if (target && target.districtId !== null && target.districtId !== row.districtId) throw failOn('activityId', '只能限制本区域的活动');
    await tx
      .update(activityLimits)
      .set({ ...fields, updatedAt: now, rowVersion: nextVersion(activityLimits.rowVersion) })
      .where(eq(activityLimits.id, row.id));
    const before = { activityId: row.activityId, dimension: row.dimension, period: row.period, maxTimes: row.maxTimes, maxFen: row.maxFen, enabled: row.enabled };
    await audit(tx, a.actor, { type: 'ACTIVITY_LIMIT_SAVE', targetDistrictId: row.districtId, target: `activity-limit/${row.id}`, summary: `修改优惠限制：${target ? `活动「${target.name}」` : '全部活动'}${limitText(fields)}`, before, after: fields }, now);
    return current();
  });
}

// ---------------------------------------------------------------- 操作记录

/** The labels of the fields an action changes, and how their values read. */
const FIELD_LABELS: Record<string, string> = {
  name: '活动名称',
  type: '活动类型',
  rule: '优惠规则',
  lineCodes: '适用线路',
  cardCategories: '适用卡类',
  payChannels: '支付方式',
  startAt: '开始时间',
  endAt: '结束时间',
  budgetFen: '预算',
  priority: '优先级',
  stackable: '可叠加',
  enabled: '启用',
  status: '状态',
  activityId: '限制活动',
  dimension: '限制维度',
  period: '限制周期',
  maxTimes: '次数上限',
  maxFen: '金额上限',
};

function valueText(field: string, v: unknown, type: number): string {
  if (v === null || v === undefined) return '—';
  if (field === 'rule') return ruleText(type, v as ActivityRule);
  if (field === 'type') return activityTypeLabel(Number(v));
  if (field === 'budgetFen' || field === 'maxFen') return `${fenToYuan(Number(v))}元`;
  if (field === 'startAt' || field === 'endAt') return shanghaiDateTime(String(v));
  if (field === 'status') return ACTIVITY_STATUS.label(Number(v) as ActivityStatus);
  if (field === 'stackable' || field === 'enabled') return v ? '是' : '否';
  if (field === 'dimension') return LIMIT_DIMENSIONS[v as 'rider'] ?? String(v);
  if (field === 'period') return LIMIT_PERIODS[v as 'day'] ?? String(v);
  if (field === 'activityId') return `活动 ${String(v)}`;
  if (field === 'cardCategories') return (v as number[]).length ? (v as number[]).map(cardCategoryLabel).join('、') : '全部';
  if (Array.isArray(v)) return v.length ? v.join('、') : '全部';
  return String(v);
}

/** before → after, field by field, the fields a person reads (a new record: every field from —). */
export function diffOf(before: unknown, after: unknown): { field: string; before: string; after: string }[] {
  const b = (before && typeof before === 'object' ? before : {}) as Record<string, unknown>;
  const f = (after && typeof after === 'object' ? after : {}) as Record<string, unknown>;
  const typeB = Number(b.type ?? f.type ?? 0);
  const typeA = Number(f.type ?? b.type ?? 0);
  const out: { field: string; before: string; after: string }[] = [];
  for (const key of Object.keys(FIELD_LABELS)) {
    if (!(key in b) && !(key in f)) continue;
    if (sameJson(b[key], f[key])) continue;
    out.push({ field: FIELD_LABELS[key]!, before: key in b ? valueText(key, b[key], typeB) : '—', after: key in f ? valueText(key, f[key], typeA) : '—' });
  }
  return out;
}

const recordDto = (r: typeof t.sysLog.$inferSelect) => {
  const m = /^activity\/(\d+)$/.exec(r.target ?? '');
  const after = (r.after ?? null) as Record<string, unknown> | null;
  return {
    id: r.id,
    operatorLogin: r.operatorLogin,
    operationType: r.operationType,
    operationLabel: OPERATION_TYPES[r.operationType as OperationType] ?? r.operationType,
    activityId: m ? Number(m[1]) : null,
    summary: r.summary,
    reason: typeof after?.reason === 'string' ? after.reason : null,
    changes: r.operationType === 'ACTIVITY_EXPORT' ? [] : diffOf(r.before, r.after),
    result: r.result,
    createdDate: iso(r.createdAt),
  };
};

/** 操作记录: the system log's ACTIVITY_* rows about the area (decision 38's scope), newest first. */
const recordList = listService({
  endpoint: api.operateRecordPage,
  select: (db) => db.select().from(t.sysLog),
  count: (db) => db.select({ n: count() }).from(t.sysLog),
  scope: t.sysLog.targetDistrictId,
  base: sql`${t.sysLog.operationType} like 'ACTIVITY\\_%'`,
  filters: {
    activityId: (id) => eq(t.sysLog.target, `activity/${id}`),
    operationType: (type) => eq(t.sysLog.operationType, type),
    operator: (login) => contains(t.sysLog.operatorLogin, login),
    startTime: (from) => gte(t.sysLog.createdAt, new Date(from)),
    endTime: (to) => lte(t.sysLog.createdAt, new Date(to)),
  },
  sorts: { createdDate: t.sysLog.createdAt },
  order: { column: t.sysLog.createdAt, dir: 'desc' },
  key: { column: t.sysLog.id, of: (r) => r.id },
  dto: (r) => recordDto(r),
});

export const pageRecords = (deps: AppDeps, a: AuthContext, q: z.output<typeof api.operateRecordPage.query>) => recordList.page(deps, a, q);

// ---------------------------------------------------------------- the rider side: ride settlement

export interface SettleInput {
  rideRecordId?: number | null;
  rideAt: Date;
  districtId: number;
  lineCode: string;
  cardNo: string;
  cardCategory: number;
  payChannel: string;
  /** The fare before any activity (fen). */
  amount: number;
  /** The card's rider, when known (looked up from the card otherwise). */
  riderId?: number | null;
}

export interface Settlement {
  discountFen: number;
  applied: { activityId: number; discountFen: number }[];
  replayed: boolean;
}

/** A counter row, inserted when missing, then locked: the concurrent taps of one card queue here. */
async function lockCounter(tx: Db, key: string, subject: string, period: string, now: Date) {
  await tx.insert(activityCounters).values({ key, subject, period, times: 0, fen: 0, updatedAt: now }).onConflictDoNothing();
  const [c] = await tx
    .select()
    .from(activityCounters)
    .where(and(eq(activityCounters.key, key), eq(activityCounters.subject, subject), eq(activityCounters.period, period)))
    .for('update');
  return c!;
}

const bump = (tx: Db, c: { key: string; subject: string; period: string }, times: number, fen: number, now: Date) =>
  tx
    .update(activityCounters)
    .set({ times: sql`${activityCounters.times} + ${times}`, fen: sql`${activityCounters.fen} + ${fen}`, updatedAt: now })
    .where(and(eq(activityCounters.key, c.key), eq(activityCounters.subject, c.subject), eq(activityCounters.period, c.period)));

/**
 * Settles one ride against the activities (the reader's deduction; a service function, not a console
 * call). In one transaction: the candidates (enabled, live at the ride, budget left, in scope), the
 * winners (pickWinners), and for each the 优惠限制 counters of the card or rider (locked, so 20 taps of
 * one card count exactly), then the activity's own guarded update:
 * `used_fen = used_fen + d where enabled and ended_at is null and (window) and used_fen + d <= budget_fen`.
 * That update re-checks enabled and the window itself, so a 暂停 that commits first wins; and two
 * settlements near the budget never take it past by one fen (the second meets the first's sum and
 * takes only what is left, or nothing). A retried ride (same rideRecordId) is answered as it was.
 */
export async function settleRide(deps: Pick<AppDeps, 'db' | 'clock'>, input: SettleInput): Promise<Settlement> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    if (input.rideRecordId != null) {
      const seen = await tx.select().from(activityUsages).where(eq(activityUsages.rideRecordId, input.rideRecordId));
      if (seen.length) return { discountFen: seen.reduce((s, u) => s + u.discountFen, 0), applied: seen.map((u) => ({ activityId: u.activityId, discountFen: u.discountFen })), replayed: true };
    }
    if (input.amount <= 0) return { discountFen: 0, applied: [], replayed: false };
    const at = input.rideAt;
    const day = shanghaiDate(at);
    const month = monthOf(day);
    const cands = (
      await tx
        .select()
        .from(activities)
        .where(
          and(
            eq(activities.enabled, true),
            isNull(activities.endedAt),
            lte(activities.startAt, at),
            sql`${activities.endAt} > ${at}`,
            sql`${activities.usedFen} < ${activities.budgetFen}`,
            or(eq(activities.districtId, input.districtId), isNull(activities.districtId)),
          ),
        )
        .orderBy(activities.id)
    ).filter((x) => rideInScope(x, input));
    if (!cands.length) return { discountFen: 0, applied: [], replayed: false };

    // The card's history the rules read: its month's spend (locked per tiered activity) and its last ride.
    const spendCounters = new Map<number, Awaited<ReturnType<typeof lockCounter>>>();
    for (const c of cands.filter((x) => x.type === 2)) spendCounters.set(c.id, await lockCounter(tx, `spend:${c.id}`, `card:${input.cardNo}`, month, now));
    const transferCounters = new Map<number, Awaited<ReturnType<typeof lockCounter>>>();
    for (const c of cands.filter((x) => x.type === 3)) transferCounters.set(c.id, await lockCounter(tx, `transfer:${c.id}`, `card:${input.cardNo}`, day, now));
    let previous: RideHistory['previous'] = null;
    if (transferCounters.size) {
      const [p] = rowsOf<{ ride_at: string | Date; line_code: string }>(
        await tx.execute(sql`select ride_at, line_code from ride_records where card_no = ${input.cardNo} and ride_at < ${at} and ride_at >= ${new Date(at.getTime() - 181 * 60_000)}
          ${input.rideRecordId != null ? sql`and id <> ${input.rideRecordId}` : sql``} order by ride_at desc limit 1`),
      );
      if (p) previous = { at: new Date(p.ride_at), lineCode: p.line_code };
    }
    const historyOf = (id: number): RideHistory => ({ ...NO_HISTORY, monthSpendFen: spendCounters.get(id)?.fen ?? 0, previous, transfersToday: transferCounters.get(id)?.times ?? 0 });
    const winners = pickWinners(cands.map((c) => ({ id: c.id, priority: c.priority, stackable: c.stackable, off: discountOf(c, input, historyOf(c.id)), row: c })));

    let riderId = input.riderId ?? null;
    if (riderId === null && winners.length) {
      const [card] = await tx.select({ riderId: t.busCards.riderId }).from(t.busCards).where(eq(t.busCards.cardNo, input.cardNo));
      riderId = card?.riderId ?? null;
    }
    const limits = winners.length
      ? await tx
          .select()
          .from(activityLimits)
          .where(and(eq(activityLimits.enabled, true), or(eq(activityLimits.districtId, input.districtId), isNull(activityLimits.districtId))))
          .orderBy(activityLimits.id)
      : [];

    let left = input.amount;
    const applied: Settlement['applied'] = [];
    for (const w of winners) {
      let d = Math.min(w.off, left);
      const held: Awaited<ReturnType<typeof lockCounter>>[] = [];
      for (const l of limits.filter((x) => x.activityId === null || x.activityId === w.id)) {
        if (d <= 0) break;
        const subject = l.dimension === 'card' ? `card:${input.cardNo}` : riderId !== null ? `rider:${riderId}` : null;
        if (!subject) continue;
        const c = await lockCounter(tx, `limit:${l.id}`, subject, l.period === 'day' ? day : month, now);
        if (l.maxTimes > 0 && c.times >= l.maxTimes) d = 0;
        if (l.maxFen > 0) d = Math.min(d, l.maxFen - c.fen);
        held.push(c);
      }
      if (d <= 0) continue;
      // The guarded update; when the budget is nearly gone, what is left (re-read), tried again.
      let taken = 0;
      for (let attempt = 0; attempt < 3 && d > 0; attempt++) {
        const [hit] = await tx
          .update(activities)
          .set({ usedFen: sql`${activities.usedFen} + ${d}` })
          .where(and(eq(activities.id, w.id), eq(activities.enabled, true), isNull(activities.endedAt), lte(activities.startAt, at), sql`${activities.endAt} > ${at}`, sql`${activities.usedFen} + ${d} <= ${activities.budgetFen}`))
          .returning({ id: activities.id });
        if (hit) {
          taken = d;
          break;
        }
        const [now2] = await tx.select({ enabled: activities.enabled, endedAt: activities.endedAt, used: activities.usedFen, budget: activities.budgetFen }).from(activities).where(eq(activities.id, w.id));
        if (!now2 || !now2.enabled || now2.endedAt) break;
        d = Math.min(d, now2.budget - now2.used);
      }
      if (taken <= 0) continue;
      for (const c of held) await bump(tx, c, 1, taken, now);
      const tc = transferCounters.get(w.id);
      if (tc) await bump(tx, tc, 1, taken, now);
      await tx.insert(activityUsages).values({ activityId: w.id, rideRecordId: input.rideRecordId ?? null, rideAt: at, districtId: input.districtId, cardNo: input.cardNo, riderId, lineCode: input.lineCode, amountFen: input.amount, discountFen: taken, createdAt: now });
      applied.push({ activityId: w.id, discountFen: taken });
      left -= taken;
      if (left <= 0) break;
    }
    // The ride counts toward the month's spend of every tiered activity it was in scope of.
    for (const c of spendCounters.values()) await bump(tx, c, 1, input.amount, now);
    return { discountFen: input.amount - left, applied, replayed: false };
  });
}
