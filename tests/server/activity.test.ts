import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { menuCatalogue, menuItemIds } from '../../src/shared/api';
import * as api from '../../src/shared/api/activity';
import { CONTRACT_MODULES } from '../../src/shared/api/contract';
import { addDays, shanghaiDate, shanghaiMidnight } from '../../src/shared/domain/time';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { activities, activityLimits, activityUsages } from '../../src/server/modules/activity/schema';
import { discountOf, pickWinners, statusOf } from '../../src/server/modules/activity/rules';
import { settleRide } from '../../src/server/modules/activity/service';
import { DAY } from '../support/clock';
import { DEMO_PASSWORD, type TestServer, startTestServer } from '../support/test-server';

/** 活动管理 against the real server: the seed, roles and scope, every endpoint and refusal, nothing changed on refusal, the audit, the settlement. */
let s: TestServer;
let admin: string;
let manager: string;
let viewer: string;
let agent: string;
let editorOnly: string;
let districts: number[];

const db = () => s.database.db;
const deps = () => ({ db: s.database.db, clock: s.clock }) as unknown as AppDeps;

/** An account of the manager's district with 活动管理 and only the given buttons. */
async function accountWith(login: string, buttons: string[]) {
  const [base] = await db().select().from(t.users).where(eq(t.users.login, 'manager'));
  const [group] = await db().insert(t.roleGroups).values({ name: `${login}组`, description: '活动测试', createdAt: s.clock.now(), updatedAt: s.clock.now() }).returning();
  await db()
    .insert(t.roleGroupItems)
    .values([...menuItemIds(menuCatalogue(CONTRACT_MODULES), ['acitivity']), ...buttons].map((itemId) => ({ groupId: group!.id, itemId })));
  await db().insert(t.users).values({ ...base!, id: undefined, login, firstName: login, authorities: ['ROLE_USER'], groupId: group!.id });
  return s.login(login, DEMO_PASSWORD);
}

beforeAll(async () => {
  s = await startTestServer();
  [admin, manager, viewer, agent] = (await Promise.all(['admin', 'manager', 'viewer', 'agent'].map((u) => s.login(u)))) as [string, string, string, string];
  districts = (await db().select({ id: t.districts.id }).from(t.districts).orderBy(asc(t.districts.sort))).map((d) => d.id);
  editorOnly = await accountWith('actedit', ['ACTIVITY_EDIT']);
});
afterAll(() => s.close());

const later = (days: number) => new Date(s.clock.now().getTime() + days * DAY).toISOString();
const stored = async (id: number) => (await db().select().from(activities).where(eq(activities.id, id)))[0]!;
const audits = (type: string, id: number) =>
  db()
    .select()
    .from(t.sysLog)
    .where(and(eq(t.sysLog.operationType, type), eq(t.sysLog.target, `activity/${id}`)));
let seq = 0;
/**
 * A draft of the test's own, on its own line, stackable: the seeded 工作日早高峰8折 runs non-stackable
 * on every line of the manager's district, so a non-stackable one there meets it (the overlap test
 * works in the third district, where nothing runs).
 */
const draft = (over: Record<string, unknown> = {}) => ({ name: `测试活动${++seq}`, type: 1, rule: { rate: 800 }, scope: { lineCodes: [`T${seq}`] }, startAt: later(1), endAt: later(30), budgetFen: 100_000, priority: 5, stackable: true, ...over });
const save = (token: string, body: unknown, district?: number) => s.call(api.activitySave, { token, body, district });
const move = (token: string, body: unknown) => s.call(api.activityUpdateStatus, { token, body });
/** Inserted directly: running now (started yesterday), for the status and settlement tests. */
async function running(over: Partial<typeof activities.$inferInsert> = {}) {
  const now = s.clock.now();
  const [row] = await db()
    .insert(activities)
    .values({ districtId: districts[2]!, name: `进行中${++seq}`, type: 1, rule: { rate: 800 }, lineCodes: [`R${seq}`], startAt: new Date(now.getTime() - DAY), endAt: new Date(now.getTime() + 30 * DAY), enabled: true, enabledAt: now, budgetFen: 100_000, priority: 5, stackable: false, createdAt: now, updatedAt: now, ...over })
    .returning();
  return row!;
}

describe('the seed (second wave §13): 14 activities in every status, 4 limits, usages, the operate record', () => {
  it('2 进行中, 3 未开始, 2 已暂停 (one never enabled), 6 已结束, 1 预算耗尽; the total counts the same', async () => {
    const seeded = await db().select().from(activities);
    expect(seeded).toHaveLength(14);
    const now = s.clock.now();
    const by = (st: number) => seeded.filter((a) => statusOf(a, now) === st).length;
    expect([by(0), by(1), by(2), by(3), by(4)]).toEqual([3, 2, 2, 6, 1]);
    expect(seeded.filter((a) => a.enabledAt === null)).toHaveLength(1);
    const total = (await s.call(api.activityTotal, { token: admin })).body.data;
    expect(total).toMatchObject({ total: 14, notStarted: 3, running: 2, paused: 2, ended: 6, exhausted: 1 });
    expect(total.usedFen).toBe(seeded.reduce((sum, a) => sum + a.usedFen, 0));
  });

  it('each activity used what its usages sum to (the exhausted one: all of its budget); 4 limits', async () => {
    const sums = (await db().execute(sql`select activity_id, sum(discount_fen)::bigint as s from activity_usages group by 1`)) as unknown as { rows: { activity_id: number; s: string }[] };
    const seeded = await db().select().from(activities);
    for (const a of seeded) {
      if (a.name === '老年卡次日返还') expect(a.usedFen).toBe(a.budgetFen);
      else expect(a.usedFen).toBe(Number(sums.rows.find((r) => r.activity_id === a.id)?.s ?? 0));
    }
    expect(await db().select().from(activityLimits)).toHaveLength(4);
    // The small profile keeps usages tiny.
    expect((await db().select().from(activityUsages)).length).toBeLessThan(200);
  });

  it('the operate record is the system log’s ACTIVITY_* rows: a creation for each activity, pauses and ends with their reasons', async () => {
    const page = (await s.call(api.operateRecordPage, { token: admin, query: { size: 100 } })).body.data;
    expect(page.totalElements).toBeGreaterThanOrEqual(14);
    expect(page.content.every((r) => r.operationType.startsWith('ACTIVITY_'))).toBe(true);
    const created = page.content.filter((r) => r.operationType === 'ACTIVITY_SAVE');
    expect(created.length).toBeGreaterThanOrEqual(14);
    expect(created[0]!.changes.map((c) => c.field)).toContain('优惠规则');
    const ended = page.content.find((r) => r.operationType === 'ACTIVITY_END')!;
    expect(ended).toMatchObject({ operationLabel: '结束活动', reason: '活动效果未达预期' });
    expect(ended.changes).toContainEqual({ field: '状态', before: '进行中', after: '已结束' });
  });
});

describe('活动列表: roles, scope, filters', () => {
  it('the viewer and the agent have no menu (403); the manager reads the district’s and the city’s; a foreign one is refused', async () => {
    expect((await s.call(api.activityPage, { token: viewer })).status).toBe(403);
    expect((await s.call(api.activityPage, { token: agent })).status).toBe(403);
    const mine = (await s.call(api.activityPage, { token: manager, query: { size: 100 } })).body.data.content;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((a) => a.districtId === districts[1] || a.districtId === null)).toBe(true);
    expect(mine.some((a) => a.districtId === null)).toBe(true);
    const foreign = (await s.call(api.activityPage, { token: admin, query: { size: 100 } })).body.data.content.find((a) => a.districtId === districts[0])!;
    expect((await s.call(api.activityById, { token: manager, query: { id: foreign.id } })).status).toBe(403);
    expect((await s.call(api.activityEffect, { token: manager, query: { id: foreign.id } })).status).toBe(403);
    expect((await s.call(api.activityCopy, { token: manager, body: { id: foreign.id } })).status).toBe(403);
    const pause = await move(manager, { id: foreign.id, action: '暂停' });
    expect(pause.status).toBe(403);
    expect((await stored(foreign.id)).enabled).toBe(foreign.enabled);
  });

  it('filters by status, type and name; sorts by priority; refuses an unknown sort and status', async () => {
    const runningNow = (await s.call(api.activityPage, { token: admin, query: { status: '1', size: 100 } })).body.data.content;
    expect(runningNow.length).toBeGreaterThanOrEqual(2);
    expect(runningNow.every((a) => a.status === 1)).toBe(true);
    const tiered = (await s.call(api.activityPage, { token: admin, query: { type: '2' } })).body.data.content;
    expect(tiered.length).toBe(2);
    expect(tiered.every((a) => a.type === 2)).toBe(true);
    const named = (await s.call(api.activityPage, { token: admin, query: { name: '换乘' } })).body.data.content;
    expect(named.every((a) => a.name.includes('换乘'))).toBe(true);
    const byPriority = (await s.call(api.activityPage, { token: admin, query: { sort: 'priority,desc', size: 100 } })).body.data.content.map((a) => a.priority);
    expect(byPriority).toEqual([...byPriority].sort((a, b) => b - a));
    expect((await s.call(api.activityPage, { token: admin, query: { sort: 'hack,asc' } })).status).toBe(400);
    expect((await s.call(api.activityPage, { token: admin, query: { status: '5' } })).status).toBe(400);
  });

  it('the export is a download-centre task; a viewer cannot start one', async () => {
    const res = await s.call(api.activityExport, { token: admin, query: { status: '3' } });
    expect(res.body.code).toBe(1);
    const [task] = await db().select().from(t.exportTasks).where(eq(t.exportTasks.kind, 'acitivity.activities'));
    expect(task?.title).toBe('活动 已结束');
    expect((await s.call(api.activityExport, { token: viewer })).status).toBe(403);
  });
});

describe('saveOrUpdate: the design’s refusals, verbatim, and nothing changed', () => {
  const count = async () => (await db().select().from(activities)).length;

  it('a new activity: stored in the manager’s district in fen and ‰, enabled, audited with its rule', async () => {
    const res = await save(manager, draft({ name: '新增测试', type: 2, rule: { tiers: [{ fromFen: 5000, rate: 900 }, { fromFen: 10000, rate: 700 }], rate: 300 } }));
    expect(res.body.code).toBe(1);
    const a = res.body.data;
    expect(a).toMatchObject({ districtId: districts[1], status: 0, enabled: true, neverEnabled: false, usedFen: 0, budgetFen: 100_000 });
    // The other types' leftovers are not kept.
    expect(a.rule).toEqual({ tiers: [{ fromFen: 5000, rate: 900 }, { fromFen: 10000, rate: 700 }] });
    const [log] = await audits('ACTIVITY_SAVE', a.id);
    expect(log?.summary).toContain('月累计满50.00元9折');
    expect(log?.targetDistrictId).toBe(districts[1]);
  });

  it.each([
    ['rate below 0.1折', { rule: { rate: 9 } }, api.RATE_REFUSAL],
    ['rate above 9.9折', { rule: { rate: 991 } }, api.RATE_REFUSAL],
    ['tiers not rising', { type: 2, rule: { tiers: [{ fromFen: 5000, rate: 900 }, { fromFen: 5000, rate: 700 }] } }, api.TIERS_REFUSAL],
    ['tiers not deepening', { type: 2, rule: { tiers: [{ fromFen: 5000, rate: 700 }, { fromFen: 9000, rate: 800 }] } }, api.TIERS_REFUSAL],
    ['transfer window 0', { type: 3, rule: { windowMin: 0, maxFen: 200 } }, api.WINDOW_REFUSAL],
    ['transfer window 181', { type: 3, rule: { windowMin: 181, maxFen: 200 } }, api.WINDOW_REFUSAL],
    ['end before start', { startAt: '2030-01-05T00:00:00+08:00', endAt: '2030-01-04T00:00:00+08:00' }, api.END_BEFORE_START_REFUSAL],
    ['a missing rule field', { type: 4, rule: {} }, '请填写返还比例'],
    ['a name too long', { name: '活'.repeat(31) }, '活动名称不能超过30个字符'],
    ['a missing name', { name: undefined }, '活动名称不能为空'],
    ['a malformed type', { type: 9 }, '活动类型应为'],
    ['a malformed time', { startAt: '明天' }, '开始时间不是有效的时间'],
    ['an unknown pay channel', { scope: { payChannels: ['现金'] } }, '支付方式应为'],
  ])('400 for %s', async (_what, over, msg) => {
    const before = await count();
    const res = await save(manager, draft(over));
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain(msg);
    expect(await count()).toBe(before);
  });

  it('a start in the past: 开始时间不能早于当前时间', async () => {
    const before = await count();
    const res = await save(manager, draft({ startAt: later(-1) }));
    expect(res.body.msg).toBe(api.PAST_START_REFUSAL);
    expect(await count()).toBe(before);
  });

  it('two non-stackable activities meeting on the same rides: the overlap refusal names the other; stackable or another line is fine', async () => {
    const third = districts[2]!;
    const solo = (over: Record<string, unknown>) => save(admin, draft({ stackable: false, ...over }), third);
    const first = (await solo({ name: '重叠甲', scope: { lineCodes: ['OV1', 'OV2'] } })).body.data;
    const res = await solo({ name: '重叠乙', scope: { lineCodes: ['OV2'] }, startAt: later(10), endAt: later(50) });
    expect(res.body.msg).toBe(api.overlapRefusal('重叠甲'));
    expect((await solo({ name: '重叠丙', scope: { lineCodes: ['OV2'] }, stackable: true })).body.code).toBe(1);
    expect((await solo({ name: '重叠丁', scope: { lineCodes: ['OV3'] } })).body.code).toBe(1);
    expect((await solo({ name: '重叠己', scope: { lineCodes: ['OV2'] }, startAt: later(31), endAt: later(40) })).body.code).toBe(1);
    // In the manager's district the seeded 工作日早高峰8折 covers every line.
    expect((await save(manager, draft({ stackable: false }))).body.msg).toBe(api.overlapRefusal('工作日早高峰8折'));
    // A paused one is not counted; its 恢复 checks again.
    expect((await move(admin, { id: first.id, action: '暂停' })).body.code).toBe(1);
    const second = (await solo({ name: '重叠戊', scope: { lineCodes: ['OV1'] } })).body.data;
    expect(second.status).toBe(0);
    const resume = await move(admin, { id: first.id, action: '恢复' });
    expect(resume.body.msg).toBe(api.overlapRefusal('重叠戊'));
    expect((await stored(first.id)).enabled).toBe(false);
  });

  it('a running activity keeps its rule (请先暂停) but takes a new name, end and budget; paused, the rule changes', async () => {
    const a = await running({ districtId: districts[1]!, stackable: true });
    const one = (await s.call(api.activityById, { token: manager, query: { id: a.id } })).body.data;
    const body = { id: a.id, name: one.name, type: 1, rule: { rate: 700 }, scope: one.scope, startAt: one.startAt, endAt: one.endAt, budgetFen: one.budgetFen, priority: one.priority, stackable: one.stackable, rowVersion: one.rowVersion };
    const refused = await save(manager, body);
    expect(refused.body.msg).toBe(api.RUNNING_RULE_REFUSAL);
    expect((await stored(a.id)).rule).toEqual({ rate: 800 });
    const renamed = await save(manager, { ...body, rule: { rate: 800 }, name: '改名进行中', endAt: later(40), budgetFen: 200_000 });
    expect(renamed.body.data).toMatchObject({ name: '改名进行中', budgetFen: 200_000, status: 1 });
    const paused = (await move(manager, { id: a.id, action: '暂停', reason: '调整规则' })).body.data;
    const edited = await save(manager, { ...body, name: '改名进行中', endAt: later(40), budgetFen: 200_000, rowVersion: paused.rowVersion });
    expect(edited.body.data.rule).toEqual({ rate: 700 });
    // A stale version is refused with the record as it is now.
    const stale = await save(manager, { ...body, name: '过期版本', rowVersion: one.rowVersion });
    expect(stale.body.data).toMatchObject({ stale: true });
    expect((await stored(a.id)).name).toBe('改名进行中');
  });

  it('the budget: never below what was used; needs 活动预算 (an editor without it is refused, the rest of the form too); 追加 revives an exhausted one', async () => {
    const a = await running({ districtId: districts[1]!, usedFen: 100_000, budgetFen: 100_000, stackable: true });
    const one = (await s.call(api.activityById, { token: manager, query: { id: a.id } })).body.data;
    expect(one.status).toBe(4);
    const body = { id: a.id, name: one.name, type: 1, rule: one.rule, scope: one.scope, startAt: one.startAt, endAt: one.endAt, budgetFen: 150_000, priority: one.priority, stackable: one.stackable };
    const denied = await save(editorOnly, body);
    expect(denied.status).toBe(403);
    expect(denied.body.msg).toBe(api.BUDGET_PERMISSION_REFUSAL);
    expect(await audits('ACTIVITY_BUDGET', a.id)).toHaveLength(0);
    // The editor may rename it (no budget change).
    expect((await save(editorOnly, { ...body, budgetFen: 100_000, name: '编辑者改名' })).body.code).toBe(1);
    const below = await save(manager, { ...body, name: '编辑者改名', budgetFen: 90_000 });
    expect(below.body.msg).toBe(api.budgetBelowUsedRefusal('1000.00'));
    const raised = await save(manager, { ...body, name: '编辑者改名' });
    expect(raised.body.data).toMatchObject({ budgetFen: 150_000, status: 1 });
    const [log] = await audits('ACTIVITY_BUDGET', a.id);
    expect(log?.summary).toBe('追加活动「编辑者改名」预算：1000.00元 → 1500.00元（预算耗尽后恢复进行中）');
  });

  it('wrong district: the manager cannot edit a foreign one, or make a city-wide one', async () => {
    const foreign = await running({ districtId: districts[0]! });
    const res = await save(manager, { ...draft(), id: foreign.id });
    expect(res.status).toBe(403);
    expect((await stored(foreign.id)).name).toBe(foreign.name);
    // A city-wide activity is read by every district and changed by the super user only.
    const [city] = await db().select().from(activities).where(eq(activities.name, '90分钟换乘优惠'));
    expect(city!.districtId).toBeNull();
    expect((await move(manager, { id: city!.id, action: '暂停' })).status).toBe(403);
    expect((await s.call(api.activityById, { token: manager, query: { id: city!.id } })).body.data.name).toBe('90分钟换乘优惠');
    expect((await stored(city!.id)).enabled).toBe(true);
    // The manager's district header is its own; the body's districtId is ignored.
    const mine = (await save(manager, { ...draft(), districtId: districts[0] })).body.data;
    expect(mine.districtId).toBe(districts[1]);
  });
});

describe('update/status, copy', () => {
  it('暂停 → 恢复 → 结束, each audited with the reason; an ended one neither restarts nor ends again', async () => {
    const a = await running();
    const paused = await move(admin, { id: a.id, action: '暂停', reason: '客流异常' });
    expect(paused.body.data).toMatchObject({ status: 2, enabled: false });
    const [log] = await audits('ACTIVITY_PAUSE', a.id);
    expect(log?.summary).toBe(`暂停活动「${a.name}」：客流异常`);
    expect(log?.after).toMatchObject({ status: 2, reason: '客流异常' });
    expect((await move(admin, { id: a.id, action: '暂停' })).body.msg).toBe(`活动「${a.name}」已暂停`);
    expect((await move(admin, { id: a.id, action: '恢复' })).body.data.status).toBe(1);
    expect((await move(admin, { id: a.id, action: '恢复' })).body.msg).toBe(`活动「${a.name}」未暂停，无需恢复`);
    const ended = (await move(admin, { id: a.id, action: '结束', reason: '提前结束' })).body.data;
    expect(ended.status).toBe(3);
    expect(ended.endedAt).not.toBeNull();
    expect((await move(admin, { id: a.id, action: '恢复' })).body.msg).toBe(api.ENDED_RESTART_REFUSAL);
    expect((await move(admin, { id: a.id, action: '结束' })).body.msg).toBe(`活动「${a.name}」已结束`);
    expect(await audits('ACTIVITY_END', a.id)).toHaveLength(1);
  });

  it('refuses a malformed action, a too-long reason, a missing id, without the button (403)', async () => {
    const a = await running();
    expect((await move(admin, { id: a.id, action: '删除' })).status).toBe(400);
    expect((await move(admin, { id: a.id, action: '暂停', reason: '长'.repeat(101) })).status).toBe(400);
    expect((await move(admin, { action: '暂停' })).status).toBe(400);
    expect((await move(editorOnly, { id: a.id, action: '暂停' })).status).toBe(403);
    expect((await stored(a.id)).enabled).toBe(true);
  });

  it('复制: the rule, scope and budget of the original, from the next midnight, never enabled, audited', async () => {
    const a = await running({ rule: { rate: 650 }, cardCategories: [4], budgetFen: 88_800, usedFen: 1_000 });
    const copy = (await s.call(api.activityCopy, { token: admin, body: { id: a.id } })).body.data;
    expect(copy).toMatchObject({ name: `${a.name}（副本）`, rule: { rate: 650 }, scope: { cardCategories: [4] }, budgetFen: 88_800, usedFen: 0, enabled: false, neverEnabled: true, status: 2 });
    expect(copy.startAt).toBe(shanghaiMidnight(addDays(shanghaiDate(s.clock.now()), 1)).toISOString());
    expect(await audits('ACTIVITY_COPY', copy.id)).toHaveLength(1);
    // 启用 it: the original (non-stackable, same lines) is in the way until it ends; then the verb says 启用.
    expect((await move(admin, { id: copy.id, action: '恢复' })).body.msg).toBe(api.overlapRefusal(a.name));
    await move(admin, { id: a.id, action: '结束' });
    await move(admin, { id: copy.id, action: '恢复' });
    const [log] = await audits('ACTIVITY_RESUME', copy.id);
    expect(log?.summary).toBe(`启用活动「${copy.name}」`);
    expect((await s.call(api.activityCopy, { token: editorOnly, body: { id: 999_999 } })).body.msg).toBe('活动不存在');
  });
});

describe('★ 活动预演 and 活动效果', () => {
  it('a draft over the last 30 days of the area’s rides: its cost is the rule over those rides, per day; a small budget runs out on day 1', async () => {
    const area = districts[2]!;
    const res = await s.call(api.activitySimulate, { token: admin, district: area, body: draft({ rule: { rate: 500 }, scope: {}, budgetFen: 1, stackable: true }) });
    expect(res.headers.get('cache-control') ?? '').toMatch(/no-store/);
    const r = res.body.data;
    expect(r.days).toHaveLength(30);
    const today = shanghaiDate(s.clock.now());
    const expected = (await db().execute(
      sql`select coalesce(sum(amount - floor(amount * 500 / 1000)::int), 0)::bigint as cost, count(*)::int as rides, count(distinct card_no)::int as cards from ride_records
        where district_id = ${area} and pay_status = 1 and amount > 0 and ride_at >= ${shanghaiMidnight(addDays(today, -30))} and ride_at < ${shanghaiMidnight(today)}`,
    )) as unknown as { rows: { cost: string; rides: number; cards: number }[] };
    expect(r.costFen).toBe(Number(expected.rows[0]!.cost));
    expect(r.rides).toBe(expected.rows[0]!.rides);
    expect(r.riders).toBe(expected.rows[0]!.cards);
    expect(r.costFen).toBeGreaterThan(0);
    expect(r.days.reduce((sum, d) => sum + d.costFen, 0)).toBe(r.costFen);
    expect(r.days.at(-1)!.cumulativeFen).toBe(r.costFen);
    expect(r.exhaustedOnDay).toBe(r.days.findIndex((d) => d.cumulativeFen >= 1) + 1);
    expect(r.from).toBe(addDays(today, -30));
  });

  it('where a running activity meets the draft, priority decides who takes the ride', async () => {
    const area = districts[2]!;
    const other = await running({ name: '预演对手', lineCodes: [], priority: 50, rule: { rate: 900 } });
    try {
      const lower = (await s.call(api.activitySimulate, { token: admin, district: area, body: draft({ scope: {}, priority: 10, budgetFen: 10_000_000 }) })).body.data;
      const row = lower.overlaps.find((o) => o.activityId === other.id)!;
      expect(row.rides).toBeGreaterThan(0);
      expect(row).toMatchObject({ draftWins: 0, otherWins: row.rides, stacked: 0 });
      // The draft loses every ride it meets: it costs nothing there.
      expect(lower.costFen).toBe(0);
      const higher = (await s.call(api.activitySimulate, { token: admin, district: area, body: draft({ scope: {}, priority: 99, budgetFen: 10_000_000 }) })).body.data;
      expect(higher.overlaps.find((o) => o.activityId === other.id)).toMatchObject({ draftWins: row.rides, otherWins: 0 });
      expect(higher.costFen).toBeGreaterThan(0);
    } finally {
      await db().update(activities).set({ endedAt: s.clock.now() }).where(eq(activities.id, other.id));
    }
  });

  it('simulate refuses bad rules like the save (400) and a viewer (403)', async () => {
    expect((await s.call(api.activitySimulate, { token: admin, body: draft({ rule: { rate: 5 } }) })).body.msg).toContain(api.RATE_REFUSAL);
    expect((await s.call(api.activitySimulate, { token: viewer, body: draft() })).status).toBe(403);
  });

  it('活动效果: one row per day of the last N, the usages’ sums; the export is a task', async () => {
    const seeded = (await db().select().from(activities).where(eq(activities.name, '工作日早高峰8折')))[0]!;
    const res = (await s.call(api.activityEffect, { token: manager, query: { id: seeded.id, days: 7 } })).body.data;
    expect(res.days).toHaveLength(7);
    expect(res.days.at(-1)!.day).toBe(shanghaiDate(s.clock.now()));
    const since = shanghaiMidnight(addDays(shanghaiDate(s.clock.now()), -6));
    const sums = (await db().execute(sql`select coalesce(sum(discount_fen), 0)::bigint as d, count(*)::int as n from activity_usages where activity_id = ${seeded.id} and ride_at >= ${since}`)) as unknown as { rows: { d: string; n: number }[] };
    const sum = sums.rows[0];
    expect(res.discountFen).toBe(Number(sum!.d));
    expect(res.rides).toBe(sum!.n);
    expect((await s.call(api.activityEffect, { token: manager, query: { id: seeded.id, days: 91 } })).status).toBe(400);
    const task = await s.call(api.activityEffectExport, { token: manager, query: { id: seeded.id, days: 7 } });
    expect(task.body.code).toBe(1);
  });
});

describe('优惠限制', () => {
  it('lists the area’s and the city’s; saves a new one and an edit, audited; refuses empty caps, a foreign activity and the viewer', async () => {
    const list = (await s.call(api.discountLimitList, { token: manager })).body.data.rows;
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((l) => l.districtId === districts[1] || l.districtId === null)).toBe(true);
    const made = await s.call(api.discountLimitSave, { token: manager, body: { scope: 'all', dimension: 'card', period: 'month', maxTimes: 40, maxFen: 0 } });
    expect(made.body.data).toMatchObject({ districtId: districts[1], activityId: null, maxTimes: 40, enabled: true });
    const edited = await s.call(api.discountLimitSave, { token: manager, body: { id: made.body.data.id, scope: 'all', dimension: 'card', period: 'month', maxTimes: 30, maxFen: 5000, enabled: false, rowVersion: made.body.data.rowVersion } });
    expect(edited.body.data).toMatchObject({ maxTimes: 30, maxFen: 5000, enabled: false });
    const logs = await db()
      .select()
      .from(t.sysLog)
      .where(and(eq(t.sysLog.operationType, 'ACTIVITY_LIMIT_SAVE'), eq(t.sysLog.target, `activity-limit/${made.body.data.id}`)))
      .orderBy(asc(t.sysLog.id));
    expect(logs.map((l) => l.summary)).toEqual(['新增优惠限制：全部活动每张卡每月最多40次', '修改优惠限制：全部活动每张卡每月最多30次、最多优惠50.00元（停用）']);
    expect((await s.call(api.discountLimitSave, { token: manager, body: { scope: 'all', dimension: 'card', period: 'day', maxTimes: 0, maxFen: 0 } })).body.msg).toContain('次数上限和金额上限至少填一项');
    expect((await s.call(api.discountLimitSave, { token: manager, body: { scope: 'activity', dimension: 'card', period: 'day', maxTimes: 1, maxFen: 0 } })).body.msg).toContain('请选择活动');
    const foreign = await running({ districtId: districts[0]! });
    expect((await s.call(api.discountLimitSave, { token: manager, body: { scope: 'activity', activityId: foreign.id, dimension: 'card', period: 'day', maxTimes: 1, maxFen: 0 } })).body.msg).toBe('只能限制本区域的活动');
    expect((await s.call(api.discountLimitSave, { token: viewer, body: { scope: 'all', dimension: 'card', period: 'day', maxTimes: 1, maxFen: 0 } })).status).toBe(403);
    expect((await s.call(api.discountLimitSave, { token: manager, body: { scope: 'all', dimension: 'bus', period: 'day', maxTimes: 1, maxFen: 0 } })).status).toBe(400);
  });
});

describe('操作记录 of one activity', () => {
  it('who, when, the action, the diff and the reason; the filters; scoped to the district', async () => {
    const a = await running({ districtId: districts[1]! });
    await move(manager, { id: a.id, action: '暂停', reason: '预算消耗过快' });
    const page = (await s.call(api.operateRecordPage, { token: manager, query: { activityId: a.id } })).body.data.content;
    expect(page).toHaveLength(1);
    expect(page[0]).toMatchObject({ operatorLogin: 'manager', operationType: 'ACTIVITY_PAUSE', operationLabel: '暂停活动', activityId: a.id, reason: '预算消耗过快' });
    expect(page[0]!.changes).toContainEqual({ field: '状态', before: '进行中', after: '已暂停' });
    const pauses = (await s.call(api.operateRecordPage, { token: manager, query: { operationType: 'ACTIVITY_PAUSE', size: 100 } })).body.data.content;
    expect(pauses.every((r) => r.operationType === 'ACTIVITY_PAUSE')).toBe(true);
    const foreign = await running({ districtId: districts[0]! });
    await move(admin, { id: foreign.id, action: '暂停' });
    expect((await s.call(api.operateRecordPage, { token: manager, query: { activityId: foreign.id } })).body.data.content).toHaveLength(0);
    expect((await s.call(api.operateRecordPage, { token: manager, query: { operationType: 'USER_ADD' } })).status).toBe(400);
  });
});

describe('the rider side: settleRide', () => {
  const ride = (over: Partial<Parameters<typeof settleRide>[1]> = {}) =>
    settleRide(deps(), { rideAt: s.clock.now(), districtId: districts[2]!, lineCode: 'S1', cardNo: 'CARD-S1', cardCategory: 2, payChannel: '乘车码', amount: 200, ...over });

  it('the rule’s discount, the used amount, a usage row; a retried ride is answered as it was; paused: nothing', async () => {
    const a = await running({ lineCodes: ['S1'], rule: { rate: 750 } });
    const first = await ride({ rideRecordId: 9_000_001 });
    expect(first).toMatchObject({ discountFen: 50, applied: [{ activityId: a.id, discountFen: 50 }], replayed: false });
    expect((await ride({ rideRecordId: 9_000_001 })).replayed).toBe(true);
    expect((await stored(a.id)).usedFen).toBe(50);
    await move(admin, { id: a.id, action: '暂停' });
    expect((await ride()).discountFen).toBe(0);
    expect((await stored(a.id)).usedFen).toBe(50);
  });

  it('a card’s daily limit; a budget nearly gone gives what is left; the next ride nothing', async () => {
    const a = await running({ lineCodes: ['S2'], rule: { rate: 500 }, budgetFen: 250 });
    const [limit] = await db().insert(activityLimits).values({ districtId: districts[2]!, activityId: a.id, dimension: 'card', period: 'day', maxTimes: 2, maxFen: 0, enabled: true, createdAt: s.clock.now(), updatedAt: s.clock.now() }).returning();
    const taps = [];
    for (let k = 0; k < 3; k++) taps.push((await ride({ lineCode: 'S2', cardNo: 'CARD-S2' })).discountFen);
    expect(taps).toEqual([100, 100, 0]);
    await db().update(activityLimits).set({ enabled: false }).where(eq(activityLimits.id, limit!.id));
    expect((await ride({ lineCode: 'S2', cardNo: 'CARD-S3' })).discountFen).toBe(50);
    expect((await ride({ lineCode: 'S2', cardNo: 'CARD-S4' })).discountFen).toBe(0);
    const after = await stored(a.id);
    expect(after.usedFen).toBe(250);
    expect(statusOf(after, s.clock.now())).toBe(4);
  });

  it('the rules: tiers by the month’s spend, a transfer within the window, the rebate; the winner by priority', () => {
    const at = new Date('2026-12-07T08:00:00+08:00');
    const ride = { amount: 200, lineCode: 'B', rideAt: at };
    const tiers = { type: 2, rule: { tiers: [{ fromFen: 5000, rate: 900 }, { fromFen: 10000, rate: 700 }] } };
    expect(discountOf(tiers, ride, { monthSpendFen: 4999, previous: null, transfersToday: 0 })).toBe(0);
    expect(discountOf(tiers, ride, { monthSpendFen: 5000, previous: null, transfersToday: 0 })).toBe(20);
    expect(discountOf(tiers, ride, { monthSpendFen: 12000, previous: null, transfersToday: 0 })).toBe(60);
    const transfer = { type: 3, rule: { windowMin: 90, maxFen: 150, perDay: 2 } };
    const prev = (min: number, lineCode = 'A') => ({ at: new Date(at.getTime() - min * 60_000), lineCode });
    expect(discountOf(transfer, ride, { monthSpendFen: 0, previous: prev(89), transfersToday: 0 })).toBe(150);
    expect(discountOf(transfer, ride, { monthSpendFen: 0, previous: prev(91), transfersToday: 0 })).toBe(0);
    expect(discountOf(transfer, ride, { monthSpendFen: 0, previous: prev(10, 'B'), transfersToday: 0 })).toBe(0);
    expect(discountOf(transfer, ride, { monthSpendFen: 0, previous: prev(10), transfersToday: 2 })).toBe(0);
    expect(discountOf({ type: 4, rule: { rebateRate: 333 } }, ride, { monthSpendFen: 0, previous: null, transfersToday: 0 })).toBe(66);
    expect(pickWinners([{ id: 1, priority: 1, stackable: false, off: 90 }, { id: 2, priority: 5, stackable: false, off: 10 }]).map((w) => w.id)).toEqual([2]);
    expect(pickWinners([{ id: 1, priority: 1, stackable: true, off: 90 }, { id: 2, priority: 5, stackable: true, off: 10 }, { id: 3, priority: 9, stackable: false, off: 0 }]).map((w) => w.id)).toEqual([2, 1]);
  });
});
