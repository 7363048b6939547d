import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import * as api from '../../../shared/api/custom-setting';
import { BASE_FIELDS, type BaseChange, type BaseField, REFUND_RULE_STATUS, type RefundRuleStatus } from '../../../shared/api/custom-setting';
import { DEFAULT_LADDER, type LadderRow, ladderProblem, refundQuote } from '../../../shared/custom/refund-ladder';
import { fenToYuan } from '../../../shared/domain/money';
import { shanghaiDateTime } from '../../../shared/domain/time';
import { type AppDeps, type AuthContext, isSuperUser } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { type Actor, audit } from '../../lib/audit';
import { fail, failOn, forbidden, notFound } from '../../lib/errors';
import type { StaleRefusal } from '../../../shared/api/fields';
import { assertInScope } from '../../lib/scope';
import { iso } from '../../lib/sql';
import { BASE_DEFAULTS, type CustomBase } from './read';
import { customBaseSettings, customRefundRules } from './schema';

type Deps = Pick<AppDeps, 'db' | 'clock'>;
type BaseSaveBody = z.output<typeof api.baseSave.body>;
type ApplyBody = z.output<typeof api.baseApplyTo.body>;
type RuleSaveBody = z.output<typeof api.refundRuleSave.body>;
type PublishBody = z.output<typeof api.refundRulePublish.body>;
type WithdrawBody = z.output<typeof api.refundRuleWithdraw.body>;
type PreviewQuery = z.output<typeof api.refundRulePreview.query>;

/** The design's refusal of a stale save, with the record now (the console shows it beside the typed values). */
const staleEdit = <R>(current: R) => fail(STALE_MSG, { stale: true, current } satisfies StaleRefusal<R>);
export const STALE_MSG = '设置已被他人修改，请刷新后再保存';

const SYSTEM_ACTOR: Actor = { id: null, login: 'system', districtId: null, ip: null };
/** The advisory lock class of a district's ladder versions: publish, withdraw and activation queue on it. */
export const LADDER_LOCK = 7_421;

/**
 * The district a call works in: a scoped account's own (naming another is refused as foreign); the
 * super user on 全部区域 names one, and must (the settings belong to a district).
 */
export function districtOf(a: Pick<AuthContext, 'districtScope'>, named: number | undefined): number {
  if (named !== undefined) {
    assertInScope(a, named);
    return named;
  }
  if (a.districtScope !== null) return a.districtScope;
  throw failOn('districtId', '请先选择区域');
}

async function districtName(db: Db, id: number): Promise<string> {
  const [d] = await db.select({ name: t.districts.name }).from(t.districts).where(eq(t.districts.id, id));
  if (!d) throw notFound('区域不存在');
  return d.name;
}

// ---------------------------------------------------------------- base settings

const hhmm = (seconds: number) => `${String(Math.floor(seconds / 3600)).padStart(2, '0')}:${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}`;
/** How an audit summary and the sync's diff show a value. */
export const showValue = (field: BaseField, v: number | string | boolean): string =>
  field === 'saleOpenTime' ? hhmm(Number(v)) : typeof v === 'boolean' ? (v ? '是' : '否') : field === 'boardingNotice' ? `${String(v).slice(0, 20)}${String(v).length > 20 ? '…' : ''}` : String(v);

async function baseDto(db: Db, districtId: number) {
  const [row] = await db
    .select({ b: customBaseSettings, by: t.users.firstName })
    .from(customBaseSettings)
    .leftJoin(t.users, eq(t.users.id, customBaseSettings.updatedBy))
    .where(eq(customBaseSettings.districtId, districtId));
  const name = await districtName(db, districtId);
  if (!row) return { districtId, districtName: name, ...BASE_DEFAULTS, updatedDate: null, updatedBy: null, rowVersion: 0 };
  const { updatedBy: _by, updatedAt, rowVersion, ...values } = row.b;
  return { ...values, districtName: name, updatedDate: iso(updatedAt), updatedBy: row.by, rowVersion };
}
export type BaseDto = Awaited<ReturnType<typeof baseDto>>;

const valuesOf = (b: CustomBase | BaseDto): Omit<CustomBase, 'districtId'> => {
  const out = {} as Record<BaseField, unknown>;
  for (const f of api.BASE_FIELD_KEYS) out[f] = b[f];
  return out as Omit<CustomBase, 'districtId'>;
};

const changesOf = (before: Omit<CustomBase, 'districtId'>, after: Omit<CustomBase, 'districtId'>, fields: readonly BaseField[] = api.BASE_FIELD_KEYS): BaseChange[] =>
  fields.filter((f) => before[f] !== after[f]).map((f) => ({ field: f, label: BASE_FIELDS[f], old: before[f], new: after[f] }));

export async function queryBase(deps: Deps, a: AuthContext, q: z.output<typeof api.baseQuery.query>) {
  return baseDto(deps.db, districtOf(a, q.districtId));
}

/**
 * Writes a district's values, guarded by the version the operator read: `insert … on conflict do
 * update … where row_version = :v`. A first save (version 0) meets a row another made meanwhile as
 * a conflict whose guard fails, so of two saves from one version exactly one writes.
 */
async function writeBase(tx: Db, districtId: number, values: Omit<CustomBase, 'districtId'>, version: number | null, by: number | null, now: Date): Promise<boolean> {
  const guard = version === null ? undefined : sql`${customBaseSettings.rowVersion} = ${version}`;
  const rows = await tx
    .insert(customBaseSettings)
    .values({ districtId, ...values, updatedBy: by, updatedAt: now })
    .onConflictDoUpdate({ target: customBaseSettings.districtId, set: { ...values, updatedBy: by, updatedAt: now, rowVersion: sql`${customBaseSettings.rowVersion} + 1` }, ...(guard ? { setWhere: guard } : {}) })
    .returning({ v: customBaseSettings.rowVersion });
  return rows.length > 0;
}

export async function saveBase(deps: Deps, a: AuthContext, body: BaseSaveBody) {
  const districtId = districtOf(a, body.districtId);
  const now = deps.clock.now();
  const { districtId: _d, rowVersion, ...values } = body;
  return deps.db.transaction(async (tx) => {
    const before = await baseDto(tx, districtId);
    // Version 0 is "never saved": a row that exists now was saved by someone else since.
    if (before.rowVersion !== rowVersion) throw staleEdit(before);
    const written = rowVersion === 0 ? await insertFirst(tx, districtId, values, a.user.id, now) : await writeBase(tx, districtId, values, rowVersion, a.user.id, now);
    if (!written) throw staleEdit(await baseDto(tx, districtId));
    const after = await baseDto(tx, districtId);
    const changes = changesOf(valuesOf(before), valuesOf(after));
    await audit(
      tx,
      a.actor,
      {
        type: 'CUSTOM_BASE_SAVE',
        targetDistrictId: districtId,
        target: `custom-base/${districtId}`,
        summary: `保存${after.districtName}定制公交基础设置：${changes.length ? changes.map((c) => `${c.label} ${showValue(c.field, c.old)} → ${showValue(c.field, c.new)}`).join('；') : '无变化'}`,
        before,
        after,
      },
      now,
    );
    return after;
  });
}

/** The first save of a district: an insert that does nothing when another's first save won. */
async function insertFirst(tx: Db, districtId: number, values: Omit<CustomBase, 'districtId'>, by: number, now: Date): Promise<boolean> {
  const rows = await tx
    .insert(customBaseSettings)
    .values({ districtId, ...values, updatedBy: by, updatedAt: now })
    .onConflictDoNothing()
    .returning({ v: customBaseSettings.rowVersion });
  return rows.length > 0;
}

/**
 * ★ 跨区同步 (super user only): the chosen fields of the source district onto each target. A dry run
 * answers each district's old → new; applying writes every district in one transaction (rows locked
 * in id order) with one audit row per district that changed.
 */
export async function applyBase(deps: Deps, a: AuthContext, body: ApplyBody) {
  if (!isSuperUser(a)) throw forbidden('跨区同步只有超级管理员可以操作');
  const source = districtOf(a, body.districtId);
  const targets = [...new Set(body.districtIds)].sort((x, y) => x - y);
  if (targets.includes(source)) throw failOn('districtIds', '目标区域不能包含来源区域');
  const fields = [...new Set(body.fields)];
  const known = await deps.db.select({ id: t.districts.id }).from(t.districts).where(inArray(t.districts.id, targets));
  if (known.length !== targets.length) throw failOn('districtIds', '目标区域不存在');
  const now = deps.clock.now();
  const run = async (tx: Db) => {
    const from = valuesOf(await baseDto(tx, source));
    const sourceName = await districtName(tx, source);
    if (!body.dryRun) await tx.select({ id: customBaseSettings.districtId }).from(customBaseSettings).where(inArray(customBaseSettings.districtId, targets)).orderBy(asc(customBaseSettings.districtId)).for('update');
    const out = [];
    for (const d of targets) {
      const before = await baseDto(tx, d);
      const next = { ...valuesOf(before) };
      for (const f of fields) (next as Record<BaseField, unknown>)[f] = from[f];
      const changes = changesOf(valuesOf(before), next, fields);
      out.push({ districtId: d, districtName: before.districtName ?? '', changes });
      if (body.dryRun || !changes.length) continue;
      // Locked above (or absent and inserted here): no other writer moves it before this commits.
      await writeBase(tx, d, next, null, a.user.id, now);
      const after = await baseDto(tx, d);
      await audit(
        tx,
        a.actor,
        {
          type: 'CUSTOM_BASE_APPLY',
          targetDistrictId: d,
          target: `custom-base/${d}`,
          summary: `从${sourceName}同步定制公交设置到${after.districtName}：${changes.map((c) => `${c.label} ${showValue(c.field, c.old)} → ${showValue(c.field, c.new)}`).join('；')}`,
          before,
          after,
        },
        now,
      );
    }
    return { sourceDistrictId: source, applied: !body.dryRun, districts: out };
  };
  return body.dryRun ? run(deps.db) : deps.db.transaction(run);
}

// ---------------------------------------------------------------- refund ladder

const creator = alias(t.users, 'creator');
const publisher = alias(t.users, 'publisher');

const selectRules = (db: Db) =>
  db
    .select({ r: customRefundRules, districtName: t.districts.name, createdBy: creator.firstName, publishedBy: publisher.firstName })
    .from(customRefundRules)
    .leftJoin(t.districts, eq(t.districts.id, customRefundRules.districtId))
    .leftJoin(creator, eq(creator.id, customRefundRules.createdBy))
    .leftJoin(publisher, eq(publisher.id, customRefundRules.publishedBy));

type RuleSelected = Awaited<ReturnType<ReturnType<typeof selectRules>['execute']>>[number];

const ruleDto = (r: RuleSelected) => ({
  id: r.r.id,
  districtId: r.r.districtId,
  districtName: r.districtName,
  rows: r.r.rows,
  status: REFUND_RULE_STATUS.schema.parse(r.r.status),
  effectiveAt: r.r.effectiveAt ? iso(r.r.effectiveAt) : null,
  remark: r.r.remark,
  createdBy: r.createdBy,
  publishedBy: r.publishedBy,
  createdDate: iso(r.r.createdAt),
  updatedDate: iso(r.r.updatedAt),
  rowVersion: r.r.rowVersion,
});
export type RuleDto = ReturnType<typeof ruleDto>;

async function loadRule(db: Db, id: number): Promise<RuleDto> {
  const [r] = await selectRules(db).where(eq(customRefundRules.id, id));
  if (!r) throw notFound('退款规则不存在');
  return ruleDto(r);
}

/** 退款设置's versions of a district: 待生效 and 草稿 first, then 生效中, then the history; newest first within. */
export async function listRules(deps: Deps, a: AuthContext, q: z.output<typeof api.refundRuleList.query>) {
  const districtId = districtOf(a, q.districtId);
  const rows = await selectRules(deps.db)
    .where(eq(customRefundRules.districtId, districtId))
    .orderBy(sql`case ${customRefundRules.status} when 1 then 0 when 0 then 1 when 2 then 2 else 3 end`, desc(customRefundRules.id));
  const content = rows.map(ruleDto);
  const n = (s: RefundRuleStatus) => content.filter((r) => r.status === s).length;
  return { content, total: { draft: n(0), pending: n(1), inForce: n(2), expired: n(3) } };
}

const ladderText = (rows: readonly LadderRow[]) =>
  [...rows]
    .sort((x, y) => x.fromMin - y.fromMin)
    .map((r) => `${r.fromMin}–${r.toMin ?? '∞'}分钟${r.refundable ? (r.feeRate ? `扣${r.feeRate / 10}%` : '免费') : '不可退'}`)
    .join('，');

/** Rows as stored: sorted by their start, so every reader walks them in order. */
const normalised = (rows: readonly LadderRow[]): LadderRow[] => [...rows].sort((x, y) => x.fromMin - y.fromMin).map((r) => ({ fromMin: r.fromMin, toMin: r.toMin, refundable: r.refundable, feeRate: r.refundable ? r.feeRate : 0, minFee: r.refundable ? r.minFee : 0 }));

async function lockRule(tx: Db, a: Pick<AuthContext, 'districtScope'>, id: number) {
  const [row] = await tx.select().from(customRefundRules).where(eq(customRefundRules.id, id)).for('update');
  if (!row) throw notFound('退款规则不存在');
  assertInScope(a, row.districtId);
  return row;
}

const lockLadders = (tx: Db, districtId: number) => tx.execute(sql`select pg_advisory_xact_lock(${LADDER_LOCK}, ${districtId})`);

/** 保存草稿: a new draft, or a draft's rows changed; a published version never changes (orders name it). */
export async function saveRule(deps: Deps, a: AuthContext, body: RuleSaveBody) {
  const problem = ladderProblem(body.rows);
  if (problem) throw failOn('rows', problem);
  const rows = normalised(body.rows);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    if (body.id === undefined) {
      const districtId = districtOf(a, body.districtId);
      const [row] = await tx.insert(customRefundRules).values({ districtId, rows, status: 0, remark: body.remark, createdBy: a.user.id, createdAt: now, updatedAt: now }).returning({ id: customRefundRules.id });
      const after = await loadRule(tx, row!.id);
      await audit(tx, a.actor, { type: 'REFUND_RULE_SAVE', targetDistrictId: districtId, target: `custom-refund-rule/${row!.id}`, summary: `新建${after.districtName}退款规则草稿：${ladderText(rows)}`, after }, now);
      return after;
    }
    const row = await lockRule(tx, a, body.id);
    if (body.districtId !== undefined && body.districtId !== row.districtId) throw failOn('districtId', '不能修改退款规则所属区域');
    const before = await loadRule(tx, row.id);
    if (body.rowVersion !== undefined && row.rowVersion !== body.rowVersion) throw staleEdit(before);
    if (row.status !== 0) throw fail(`${REFUND_RULE_STATUS.label(REFUND_RULE_STATUS.schema.parse(row.status))}的退款规则不能修改，请另存为草稿`);
    await tx
      .update(customRefundRules)
      .set({ rows, remark: body.remark, updatedAt: now, rowVersion: sql`${customRefundRules.rowVersion} + 1` })
      .where(and(eq(customRefundRules.id, row.id), eq(customRefundRules.status, 0)));
    const after = await loadRule(tx, row.id);
    await audit(tx, a.actor, { type: 'REFUND_RULE_SAVE', targetDistrictId: row.districtId, target: `custom-refund-rule/${row.id}`, summary: `修改${after.districtName}退款规则草稿 #${row.id}：${ladderText(rows)}`, before, after }, now);
    return after;
  });
}

/** The version in force leaves (→ 已失效) and `id` takes its place, with their audit rows; in the caller's transaction. */
async function swapInForce(tx: Db, actor: Actor, rule: { id: number; districtId: number }, set: Partial<typeof customRefundRules.$inferInsert>, now: Date) {
  const old = await tx
    .update(customRefundRules)
    .set({ status: 3, updatedAt: now, rowVersion: sql`${customRefundRules.rowVersion} + 1` })
    .where(and(eq(customRefundRules.districtId, rule.districtId), eq(customRefundRules.status, 2)))
    .returning({ id: customRefundRules.id });
  await tx
    .update(customRefundRules)
    .set({ ...set, status: 2, updatedAt: now, rowVersion: sql`${customRefundRules.rowVersion} + 1` })
    .where(eq(customRefundRules.id, rule.id));
  return old.map((o) => o.id);
}

/**
 * 发布: now (absent or not after the present) → 生效中, the old 生效中 → 已失效 in the same
 * transaction; later → 待生效 for the job. One 待生效 per district at a time: two scheduled ladders
 * would make the one in force depend on which the job met first.
 */
export async function publishRule(deps: Deps, a: AuthContext, body: PublishBody) {
  const now = deps.clock.now();
  const at = body.effectiveAt ? new Date(body.effectiveAt) : null;
  // A minute's grace: a time typed as "now" reaches the server a moment later.
  if (at && at.getTime() < now.getTime() - 60_000) throw failOn('effectiveAt', '生效时间不能早于当前时间');
  const later = at !== null && at.getTime() > now.getTime();
  return deps.db.transaction(async (tx) => {
    const [peek] = await tx.select({ districtId: customRefundRules.districtId }).from(customRefundRules).where(eq(customRefundRules.id, body.id));
    if (!peek) throw notFound('退款规则不存在');
    assertInScope(a, peek.districtId);
    await lockLadders(tx, peek.districtId);
    const row = await lockRule(tx, a, body.id);
    const before = await loadRule(tx, row.id);
    if (body.rowVersion !== undefined && row.rowVersion !== body.rowVersion) throw staleEdit(before);
    if (row.status !== 0) throw fail('退款规则已被他人处理，请刷新后查看');
    const problem = ladderProblem(row.rows);
    if (problem) throw failOn('rows', problem);
    const [pending] = await tx.select({ id: customRefundRules.id }).from(customRefundRules).where(and(eq(customRefundRules.districtId, row.districtId), eq(customRefundRules.status, 1)));
    if (pending) throw fail(`已有待生效的退款规则（#${pending.id}），请先撤回再发布`);
    let summary: string;
    if (later) {
      await tx
        .update(customRefundRules)
        .set({ status: 1, effectiveAt: at, publishedBy: a.user.id, updatedAt: now, rowVersion: sql`${customRefundRules.rowVersion} + 1` })
        .where(eq(customRefundRules.id, row.id));
      summary = `发布${before.districtName}退款规则 #${row.id}，${shanghaiDateTime(at!)} 生效`;
    } else {
      const old = await swapInForce(tx, a.actor, row, { effectiveAt: now, publishedBy: a.user.id }, now);
      summary = `发布${before.districtName}退款规则 #${row.id}，立即生效${old.length ? `（#${old.join('、#')} 已失效）` : ''}`;
    }
    const after = await loadRule(tx, row.id);
    await audit(tx, a.actor, { type: 'REFUND_RULE_PUBLISH', targetDistrictId: row.districtId, target: `custom-refund-rule/${row.id}`, summary, before, after }, now);
    return after;
  });
}

/** 撤回: 待生效 → 草稿 (the job has not reached it), to be edited or published again. */
export async function withdrawRule(deps: Deps, a: AuthContext, body: WithdrawBody) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockRule(tx, a, body.id);
    const before = await loadRule(tx, row.id);
    if (body.rowVersion !== undefined && row.rowVersion !== body.rowVersion) throw staleEdit(before);
    if (row.status !== 1) throw fail(row.status === 2 ? '退款规则已生效，不能撤回' : '只有待生效的退款规则可以撤回');
    await tx
      .update(customRefundRules)
      .set({ status: 0, effectiveAt: null, publishedBy: null, updatedAt: now, rowVersion: sql`${customRefundRules.rowVersion} + 1` })
      .where(and(eq(customRefundRules.id, row.id), eq(customRefundRules.status, 1)));
    const after = await loadRule(tx, row.id);
    await audit(tx, a.actor, { type: 'REFUND_RULE_WITHDRAW', targetDistrictId: row.districtId, target: `custom-refund-rule/${row.id}`, summary: `撤回${before.districtName}退款规则 #${row.id}（原定 ${before.effectiveAt ? shanghaiDateTime(before.effectiveAt) : ''} 生效）`, before, after }, now);
    return after;
  });
}

/** 退款试算 with the shared `refundQuote`: the very function 定制公交's refunds use. */
export async function previewRefund(deps: Deps, a: AuthContext, q: PreviewQuery) {
  let rows: readonly LadderRow[] = DEFAULT_LADDER;
  let ruleId: number | null = null;
  if (q.ruleId !== undefined) {
    const [r] = await deps.db.select().from(customRefundRules).where(eq(customRefundRules.id, q.ruleId));
    if (!r) throw notFound('退款规则不存在');
    assertInScope(a, r.districtId);
    rows = r.rows;
    ruleId = r.id;
  } else {
    const districtId = districtOf(a, q.districtId);
    const [r] = await deps.db.select().from(customRefundRules).where(and(eq(customRefundRules.districtId, districtId), eq(customRefundRules.status, 2)));
    if (r) {
      rows = r.rows;
      ruleId = r.id;
    }
  }
  const problem = ladderProblem(rows);
  if (problem) throw fail(problem);
  const quote = refundQuote(rows, q.amount, q.minutesBefore);
  return { ruleId, amount: q.amount, minutesBefore: Math.floor(q.minutesBefore), row: quote.row, refundable: quote.refundable, fee: quote.fee, refund: quote.refund };
}

/** "50元·距发车90分钟 → 退40元": the console's preview line and the palette's answer. */
export const quoteLine = (amount: number, minutes: number, refund: number, refundable: boolean) => `${fenToYuan(amount)}元·距发车${minutes}分钟 → ${refundable ? `退${fenToYuan(refund)}元` : '不可退'}`;

/**
 * Job refundRule.activate: each 待生效 whose time has come → 生效中, the old 生效中 → 已失效, in one
 * transaction with their audit rows. Every instance runs it; `for update skip locked` gives each row
 * to one of them, and the district's ladder lock orders it against a publish.
 */
export async function activateDue(deps: Deps): Promise<number[]> {
  const done: number[] = [];
  for (;;) {
    const id = await activateOne(deps);
    if (id === null) return done;
    done.push(id);
  }
}

async function activateOne(deps: Deps): Promise<number | null> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(customRefundRules)
      .where(and(eq(customRefundRules.status, 1), lte(customRefundRules.effectiveAt, now)))
      .orderBy(asc(customRefundRules.effectiveAt), asc(customRefundRules.id))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!row) return null;
    await lockLadders(tx, row.districtId);
    const before = await loadRule(tx, row.id);
    const old = await swapInForce(tx, SYSTEM_ACTOR, row, {}, now);
    const after = await loadRule(tx, row.id);
    await audit(
      tx,
      SYSTEM_ACTOR,
      { type: 'REFUND_RULE_ACTIVATE', targetDistrictId: row.districtId, target: `custom-refund-rule/${row.id}`, summary: `${before.districtName}退款规则 #${row.id} 到达生效时间，已生效${old.length ? `（#${old.join('、#')} 已失效）` : ''}`, before, after },
      now,
    );
    return row.id;
  });
}
