import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/shared/api/custom-setting';
import { DEFAULT_LADDER, type LadderRow, refundQuote } from '../../src/shared/custom/refund-ladder';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { ladderInForce, ladderOf } from '../../src/server/modules/custom-setting/read';
import { customBaseSettings, customRefundRules } from '../../src/server/modules/custom-setting/schema';
import { activateDue } from '../../src/server/modules/custom-setting/service';
import { fixtureClass, fixtureLadder, fixtureLine, fixturePaidOrder } from '../support/custom-bus-fixture';
import { HOUR, MINUTE } from '../support/clock';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/** 定制公交设置 against the real server: roles, scope, input, every refusal, nothing changed on refusal, audit, the job. */
let s: TestServer;
let admin: string;
let manager: string;
let viewer: string;
let agent: string;
let xuhui: number;
let huangpu: number;
let changning: number;

const db = () => s.database.db;
const pii = createPii(TEST_PII_KEY);
const deps = () => ({ db: s.database.db, clock: s.clock, pii }) as unknown as AppDeps;
const fx = () => ({ db: db(), pii, now: s.clock.now() });

beforeAll(async () => {
  s = await startTestServer();
  [admin, manager, viewer, agent] = (await Promise.all(['admin', 'manager', 'viewer', 'agent'].map((u) => s.login(u)))) as [string, string, string, string];
  const districts = await db().select().from(t.districts);
  xuhui = districts.find((d) => d.name === '徐汇区')!.id;
  huangpu = districts.find((d) => d.name === '黄浦区')!.id;
  changning = districts.find((d) => d.name === '长宁区')!.id;
});
afterAll(() => s.close());

const audits = (type: string, target: string) =>
  db()
    .select()
    .from(t.sysLog)
    .where(and(eq(t.sysLog.operationType, type), eq(t.sysLog.target, target)));
const storedBase = async (districtId: number) => (await db().select().from(customBaseSettings).where(eq(customBaseSettings.districtId, districtId)))[0];
const storedRule = async (id: number) => (await db().select().from(customRefundRules).where(eq(customRefundRules.id, id)))[0]!;
const rulesOf = (districtId: number) => db().select().from(customRefundRules).where(eq(customRefundRules.districtId, districtId));

const baseOf = (token: string, district?: number) => s.call(api.baseQuery, { token, district });
const saveBase = (token: string, body: unknown, district?: number) => s.call(api.baseSave, { token, body, district });
const saveRule = (token: string, body: unknown, district?: number) => s.call(api.refundRuleSave, { token, body, district });
const publish = (token: string, body: unknown) => s.call(api.refundRulePublish, { token, body });
const withdraw = (token: string, body: unknown) => s.call(api.refundRuleWithdraw, { token, body });
const later = (ms: number) => new Date(s.clock.now().getTime() + ms).toISOString();

/** The form as the console sends it, from what the district has now. */
async function baseForm(token: string, over: Record<string, unknown> = {}, district?: number) {
  const { updatedDate: _u, updatedBy: _b, districtName: _n, districtId: _d, ...values } = (await baseOf(token, district)).body.data;
  return { ...values, ...over };
}

const LADDER: LadderRow[] = [
  { fromMin: 0, toMin: 60, refundable: 0, feeRate: 0, minFee: 0 },
  { fromMin: 60, toMin: null, refundable: 1, feeRate: 500, minFee: 0 },
];

/** A draft of the test's own in `districtId`, made through the endpoint. */
async function draft(districtId: number, rows: LadderRow[] = LADDER) {
  const r = await saveRule(admin, { districtId, rows, remark: '测试草稿' });
  expect(r.body.code, r.body.msg).toBe(1);
  return r.body.data;
}

describe('the seed (second wave §6, §13)', () => {
  it('one base row per district, the first and third different from the defaults', async () => {
    const rows = await db().select().from(customBaseSettings);
    const districts = await db().select().from(t.districts);
    expect(rows).toHaveLength(districts.length);
    expect((await storedBase(huangpu))!.saleDaysAhead).toBe(14);
    expect((await storedBase(changning))!.monthTicketEnabled).toBe(false);
    expect((await storedBase(xuhui))!.saleDaysAhead).toBe(7);
  });

  it('per district one 已失效 and one 生效中 ladder (the default); one draft in 徐汇区; the custom-bus agreement', async () => {
    for (const d of [xuhui, huangpu, changning]) {
      const seeded = (await rulesOf(d)).filter((r) => r.createdAt.getTime() < s.clock.now().getTime() - HOUR);
      expect(seeded.filter((r) => r.status === 3)).toHaveLength(1);
      expect(seeded.filter((r) => r.status === 2)).toHaveLength(1);
      expect(seeded.find((r) => r.status === 2)!.rows).toEqual(DEFAULT_LADDER);
      expect(seeded.filter((r) => r.status === 0)).toHaveLength(d === xuhui ? 1 : 0);
    }
    const agreements = await db().select().from(t.agreements).where(eq(t.agreements.code, 'custom-bus'));
    expect(agreements.length).toBeGreaterThanOrEqual(3);
  });
});

describe('基础设置 base/query and base/saveOrUpdate', () => {
  it('the manager reads and saves their own district; the audit row names the change', async () => {
    const read = await baseOf(manager);
    expect(read.body.code).toBe(1);
    expect(read.body.data).toMatchObject({ districtId: xuhui, districtName: '徐汇区' });
    const body = await baseForm(manager, { payTimeoutMin: 3, saleOpenTime: 11 * 3600 + 30 * 60, boardingNotice: '请提前到站' });
    const res = await saveBase(manager, body);
    expect(res.body.code, res.body.msg).toBe(1);
    expect(res.body.data).toMatchObject({ payTimeoutMin: 3, saleOpenTime: 41_400, boardingNotice: '请提前到站', rowVersion: body.rowVersion + 1 });
    expect((await storedBase(xuhui))!.payTimeoutMin).toBe(3);
    const logs = await audits('CUSTOM_BASE_SAVE', `custom-base/${xuhui}`);
    expect(logs.at(-1)!.summary).toContain('支付超时时间 2 → 3');
    expect(logs.at(-1)!.summary).toContain('每日开售时间 12:00 → 11:30');
    expect(logs.at(-1)!.targetDistrictId).toBe(xuhui);
  });

  it('a stale save is refused with the values now and writes nothing', async () => {
    const body = await baseForm(manager);
    expect((await saveBase(manager, { ...body, payTimeoutMin: 4 })).body.code).toBe(1);
    const before = await storedBase(xuhui);
    const logs = (await audits('CUSTOM_BASE_SAVE', `custom-base/${xuhui}`)).length;
    const stale = await saveBase(manager, { ...body, payTimeoutMin: 9 });
    expect(stale.body.msg).toBe('设置已被他人修改，请刷新后再保存');
    expect((stale.body.data as unknown as { current: { payTimeoutMin: number } }).current.payTimeoutMin).toBe(4);
    expect(await storedBase(xuhui)).toEqual(before);
    expect(await audits('CUSTOM_BASE_SAVE', `custom-base/${xuhui}`)).toHaveLength(logs);
  });

  it('a district never saved answers the defaults with version 0; its first save inserts; a second first save is stale', async () => {
    await db().delete(customBaseSettings).where(eq(customBaseSettings.districtId, changning));
    const read = (await baseOf(admin, changning)).body.data;
    expect(read).toMatchObject({ rowVersion: 0, updatedDate: null, saleDaysAhead: 7, maxSeatsPerUserPerClass: 4 });
    const body = await baseForm(admin, { maxSeatsPerUserPerClass: 3 }, changning);
    expect((await saveBase(admin, body, changning)).body.data.rowVersion).toBe(1);
    expect((await saveBase(admin, body, changning)).body.msg).toBe('设置已被他人修改，请刷新后再保存');
    expect((await storedBase(changning))!.maxSeatsPerUserPerClass).toBe(3);
  });

  it('the design’s refusals, in Chinese, and nothing changed', async () => {
    const body = await baseForm(manager);
    const before = await storedBase(xuhui);
    const cases: [Record<string, unknown>, string][] = [
      [{ payTimeoutMin: 0 }, '支付超时时间应在1–30分钟之间'],
      [{ payTimeoutMin: 31 }, '支付超时时间应在1–30分钟之间'],
      [{ maxSeatsPerUserPerClass: 11 }, '每人每班次限购应在1–10张之间'],
      [{ maxSeatsPerUserPerClass: 0 }, '每人每班次限购应在1–10张之间'],
      [{ saleOpenTime: 86_400 }, '每日开售时间应在00:00–23:59之间'],
      [{ boardingNotice: '须'.repeat(501) }, '购票须知不能超过500个字符'],
      [{ servicePhone: '021-1234<script>' }, '客服电话'],
      [{ monthTicketEnabled: 'yes' }, '开通月票应为是或否'],
      [{ rowVersion: undefined }, '记录版本'],
      [{ saleDaysAhead: 'x' }, '提前售票天数必须是数字'],
    ];
    for (const [over, msg] of cases) {
      const res = await saveBase(manager, { ...body, ...over });
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body.msg + JSON.stringify(res.body.data)).toContain(msg);
    }
    expect((await saveBase(manager, 'not json')).status).toBe(400);
    expect(await storedBase(xuhui)).toEqual(before);
  });

  it('roles: viewer and agent read nothing and save nothing; a manager cannot touch another district', async () => {
    for (const token of [viewer, agent]) {
      expect((await baseOf(token)).status).toBe(403);
      expect((await saveBase(token, await baseForm(manager))).status).toBe(403);
    }
    const before = await storedBase(huangpu);
    const foreign = await saveBase(manager, { ...(await baseForm(admin, {}, huangpu)), districtId: huangpu, payTimeoutMin: 9 });
    expect(foreign.status).toBe(403);
    expect((await s.call(api.baseQuery, { token: manager, query: { districtId: huangpu } })).status).toBe(403);
    expect(await storedBase(huangpu)).toEqual(before);
  });

  it('the super user on 全部区域 must name a district', async () => {
    const res = await s.call(api.baseQuery, { token: admin });
    expect(res.body.msg).toBe('请先选择区域');
    expect((await s.call(api.baseQuery, { token: admin, query: { districtId: huangpu } })).body.data.districtName).toBe('黄浦区');
  });
});

describe('★ 跨区同步 base/applyTo', () => {
  it('a dry run answers each district’s old → new per field and writes nothing', async () => {
    const before = await db().select().from(customBaseSettings);
    const res = await s.call(api.baseApplyTo, { token: admin, body: { districtId: huangpu, fields: ['saleDaysAhead', 'boardingNotice', 'servicePhone'], districtIds: [xuhui, changning], dryRun: true } });
    expect(res.body.code, res.body.msg).toBe(1);
    expect(res.body.data.applied).toBe(false);
    const xu = res.body.data.districts.find((d) => d.districtId === xuhui)!;
    expect(xu.changes.find((c) => c.field === 'saleDaysAhead')).toMatchObject({ old: 7, new: 14, label: '提前售票天数' });
    expect(await db().select().from(customBaseSettings)).toEqual(before);
  });

  it('applying writes every district in one transaction with one audit row per district', async () => {
    const res = await s.call(api.baseApplyTo, { token: admin, body: { districtId: huangpu, fields: ['saleDaysAhead'], districtIds: [xuhui, changning], dryRun: false } });
    expect(res.body.data.applied).toBe(true);
    expect((await storedBase(xuhui))!.saleDaysAhead).toBe(14);
    expect((await storedBase(changning))!.saleDaysAhead).toBe(14);
    expect(await audits('CUSTOM_BASE_APPLY', `custom-base/${xuhui}`)).toHaveLength(1);
    expect(await audits('CUSTOM_BASE_APPLY', `custom-base/${changning}`)).toHaveLength(1);
    // Again: nothing differs, nothing is written or logged.
    const again = await s.call(api.baseApplyTo, { token: admin, body: { districtId: huangpu, fields: ['saleDaysAhead'], districtIds: [xuhui], dryRun: false } });
    expect(again.body.data.districts[0]!.changes).toEqual([]);
    expect(await audits('CUSTOM_BASE_APPLY', `custom-base/${xuhui}`)).toHaveLength(1);
  });

  it('only the super user; the source never among the targets; bad fields refused; nothing changed', async () => {
    const before = await db().select().from(customBaseSettings);
    expect((await s.call(api.baseApplyTo, { token: manager, body: { fields: ['saleDaysAhead'], districtIds: [huangpu], dryRun: true } })).status).toBe(403);
    expect((await s.call(api.baseApplyTo, { token: viewer, body: { fields: ['saleDaysAhead'], districtIds: [huangpu], dryRun: true } })).status).toBe(403);
    expect((await s.call(api.baseApplyTo, { token: admin, body: { districtId: huangpu, fields: ['saleDaysAhead'], districtIds: [huangpu], dryRun: false } })).body.msg).toBe('目标区域不能包含来源区域');
    expect((await s.call(api.baseApplyTo, { token: admin, body: { districtId: huangpu, fields: ['password'], districtIds: [xuhui], dryRun: false } })).status).toBe(400);
    expect((await s.call(api.baseApplyTo, { token: admin, body: { districtId: huangpu, fields: [], districtIds: [xuhui], dryRun: false } })).body.msg).toContain('请选择要同步的字段');
    expect((await s.call(api.baseApplyTo, { token: admin, body: { districtId: huangpu, fields: ['saleDaysAhead'], districtIds: [99_999], dryRun: false } })).body.msg).toBe('目标区域不存在');
    expect(await db().select().from(customBaseSettings)).toEqual(before);
  });
});

describe('退款设置 refundRule/*', () => {
  it('list: the district’s versions with the summary; scope and roles', async () => {
    const res = await s.call(api.refundRuleList, { token: manager });
    expect(res.body.code).toBe(1);
    expect(res.body.data.content.every((r) => r.districtId === xuhui)).toBe(true);
    expect(res.body.data.total.inForce).toBe(1);
    expect(res.body.data.total.draft).toBeGreaterThanOrEqual(1);
    expect((await s.call(api.refundRuleList, { token: manager, query: { districtId: huangpu } })).status).toBe(403);
    expect((await s.call(api.refundRuleList, { token: viewer })).status).toBe(403);
    expect((await s.call(api.refundRuleList, { token: agent })).status).toBe(403);
  });

  it('saves a draft and edits it; audit rows; a published version cannot be edited', async () => {
    const d = await draft(changning);
    expect(d).toMatchObject({ status: 0, districtId: changning, rows: LADDER });
    const edited = await saveRule(admin, { id: d.id, rows: [{ ...LADDER[0]!, toMin: 30 }, { ...LADDER[1]!, fromMin: 30 }], rowVersion: d.rowVersion });
    expect(edited.body.data.rows[0]!.toMin).toBe(30);
    expect(await audits('REFUND_RULE_SAVE', `custom-refund-rule/${d.id}`)).toHaveLength(2);
    const stale = await saveRule(admin, { id: d.id, rows: LADDER, rowVersion: d.rowVersion });
    expect(stale.body.msg).toBe('设置已被他人修改，请刷新后再保存');
    const inForce = (await ladderInForce(db(), changning))!;
    const before = await storedRule(inForce.id);
    expect((await saveRule(admin, { id: inForce.id, rows: LADDER })).body.msg).toBe('生效中的退款规则不能修改，请另存为草稿');
    expect(await storedRule(inForce.id)).toEqual(before);
  });

  it('the ladder’s refusals in the design’s words, and nothing stored', async () => {
    const n = (await rulesOf(changning)).length;
    const cases: [LadderRow[] | unknown, string][] = [
      [[{ fromMin: 0, toMin: 60, refundable: 0, feeRate: 0, minFee: 0 }, { fromMin: 30, toMin: null, refundable: 1, feeRate: 100, minFee: 0 }], '退款阶梯区间重叠：30–60分钟'],
      [[{ fromMin: 0, toMin: 20, refundable: 0, feeRate: 0, minFee: 0 }, { fromMin: 40, toMin: null, refundable: 1, feeRate: 100, minFee: 0 }], '退款阶梯存在空档：20–40分钟'],
      [[{ fromMin: 0, toMin: 20, refundable: 0, feeRate: 0, minFee: 0 }], '退款阶梯存在空档：20–∞分钟'],
      [[{ fromMin: 0, toMin: null, refundable: 1, feeRate: 1001, minFee: 0 }], '手续费比例应在0–100%之间'],
      [[{ fromMin: 0, toMin: null, refundable: 1, feeRate: -1, minFee: 0 }], '手续费比例应在0–100%之间'],
      [[], '退款阶梯至少需要一行'],
      [Array.from({ length: 21 }, (_, i) => ({ fromMin: i, toMin: i === 20 ? null : i + 1, refundable: 1, feeRate: 0, minFee: 0 })), '退款阶梯最多20行'],
      ['rows', '退款阶梯应为行的列表'],
    ];
    for (const [rows, msg] of cases) {
      const res = await saveRule(admin, { districtId: changning, rows });
      expect(res.body.msg + JSON.stringify(res.body.data), msg).toContain(msg);
    }
    expect((await saveRule(admin, { districtId: changning, rows: LADDER, remark: '长'.repeat(101) })).body.msg + '').toContain('备注不能超过100个字符');
    expect(await rulesOf(changning)).toHaveLength(n);
    // Roles and scope.
    expect((await saveRule(viewer, { rows: LADDER })).status).toBe(403);
    expect((await saveRule(agent, { rows: LADDER })).status).toBe(403);
    expect((await saveRule(manager, { districtId: changning, rows: LADDER })).status).toBe(403);
    expect(await rulesOf(changning)).toHaveLength(n);
  });

  it('publish now: 生效中, the old one 已失效 in the same transaction, audited', async () => {
    const old = (await ladderInForce(db(), changning))!;
    const d = await draft(changning);
    const res = await publish(admin, { id: d.id, rowVersion: d.rowVersion });
    expect(res.body.code, res.body.msg).toBe(1);
    expect(res.body.data.status).toBe(2);
    expect((await storedRule(old.id)).status).toBe(3);
    expect((await ladderInForce(db(), changning))!.id).toBe(d.id);
    expect((await audits('REFUND_RULE_PUBLISH', `custom-refund-rule/${d.id}`))[0]!.summary).toContain(`#${old.id} 已失效`);
    // Published twice: refused, nothing moves.
    expect((await publish(admin, { id: d.id })).body.msg).toBe('退款规则已被他人处理，请刷新后查看');
  });

  it('publish later: 待生效; a second pending is refused; withdraw → 草稿; a past time is refused', async () => {
    const d = await draft(changning);
    expect((await publish(admin, { id: d.id, effectiveAt: later(-2 * HOUR) })).body.msg).toBe('生效时间不能早于当前时间');
    expect((await storedRule(d.id)).status).toBe(0);
    const res = await publish(admin, { id: d.id, effectiveAt: later(2 * HOUR) });
    expect(res.body.data).toMatchObject({ status: 1 });
    const other = await draft(changning);
    expect((await publish(admin, { id: other.id })).body.msg).toBe(`已有待生效的退款规则（#${d.id}），请先撤回再发布`);
    expect((await storedRule(other.id)).status).toBe(0);
    expect((await withdraw(viewer, { id: d.id })).status).toBe(403);
    expect((await withdraw(manager, { id: d.id })).status).toBe(403);
    const back = await withdraw(admin, { id: d.id, rowVersion: res.body.data.rowVersion });
    expect(back.body.data).toMatchObject({ status: 0, effectiveAt: null });
    expect(await audits('REFUND_RULE_WITHDRAW', `custom-refund-rule/${d.id}`)).toHaveLength(1);
    expect((await withdraw(admin, { id: d.id })).body.msg).toBe('只有待生效的退款规则可以撤回');
    expect((await publish(admin, { id: 'x' })).status).toBe(400);
    expect((await publish(admin, { id: d.id, effectiveAt: '明天' })).status).toBe(400);
    expect((await publish(admin, { id: 99_999_999 })).body.msg).toBe('退款规则不存在');
  });

  it('the job: a 待生效 whose time has come → 生效中, the old → 已失效, audited once; not before', async () => {
    const old = (await ladderInForce(db(), huangpu))!;
    const d = await draft(huangpu);
    await publish(admin, { id: d.id, effectiveAt: later(30 * MINUTE) });
    expect(await activateDue(deps())).not.toContain(d.id);
    expect((await storedRule(d.id)).status).toBe(1);
    s.clock.advance(31 * MINUTE);
    // The idle sessions ended with the half hour: the next tests sign in again.
    [admin, manager, viewer, agent] = (await Promise.all(['admin', 'manager', 'viewer', 'agent'].map((u) => s.login(u)))) as [string, string, string, string];
    expect(await activateDue(deps())).toEqual([d.id]);
    expect((await storedRule(d.id)).status).toBe(2);
    expect((await storedRule(old.id)).status).toBe(3);
    expect(await activateDue(deps())).toEqual([]);
    const logs = await audits('REFUND_RULE_ACTIVATE', `custom-refund-rule/${d.id}`);
    expect(logs).toHaveLength(1);
    expect(logs[0]!.targetDistrictId).toBe(huangpu);
  });

  it('preview: the shared quote of a given rule or the one in force; scope; bad input', async () => {
    const d = await draft(xuhui, [
      { fromMin: 0, toMin: 20, refundable: 0, feeRate: 0, minFee: 0 },
      { fromMin: 20, toMin: null, refundable: 1, feeRate: 200, minFee: 0 },
    ]);
    const q = await s.call(api.refundRulePreview, { token: manager, query: { ruleId: d.id, amount: 5000, minutesBefore: 90 } });
    expect(q.body.data).toMatchObject({ ruleId: d.id, refundable: true, fee: 1000, refund: 4000 });
    const none = await s.call(api.refundRulePreview, { token: manager, query: { ruleId: d.id, amount: 5000, minutesBefore: 10 } });
    expect(none.body.data).toMatchObject({ refundable: false, refund: 0 });
    const inForce = await s.call(api.refundRulePreview, { token: manager, query: { amount: 5000, minutesBefore: 90 } });
    expect(inForce.body.data.refund).toBe(refundQuote((await ladderInForce(db(), xuhui))!.rows, 5000, 90).refund);
    const foreign = (await ladderInForce(db(), huangpu))!;
    expect((await s.call(api.refundRulePreview, { token: manager, query: { ruleId: foreign.id, amount: 5000, minutesBefore: 90 } })).status).toBe(403);
    expect((await s.call(api.refundRulePreview, { token: viewer, query: { amount: 5000, minutesBefore: 90 } })).status).toBe(403);
    expect((await s.call(api.refundRulePreview, { token: manager, query: { amount: -1, minutesBefore: 90 } })).body.msg).toContain('金额应在0–100000元之间');
    expect((await s.call(api.refundRulePreview, { token: manager, query: { amount: 100, minutesBefore: 'soon' } })).status).toBe(400);
  });

  it('a ladder published after a sale does not change the sold order’s refund', async () => {
    // 黄浦区 holds no draft here (fixtureLadder retires every other version of the district).
    const sold = await fixtureLadder(fx(), huangpu, DEFAULT_LADDER);
    const { line } = await fixtureLine(fx(), huangpu);
    const classes = await fixtureClass(fx(), line, 2);
    const { order } = await fixturePaidOrder(fx(), classes, { ruleVersionId: sold.id });
    const before = refundQuote(await ladderOf(db(), order.ruleVersionId), order.amount, 90);
    const d = await draft(huangpu, [{ fromMin: 0, toMin: null, refundable: 0, feeRate: 0, minFee: 0 }]);
    expect((await publish(admin, { id: d.id })).body.data.status).toBe(2);
    const after = refundQuote(await ladderOf(db(), order.ruleVersionId), order.amount, 90);
    expect(after).toEqual(before);
    expect(after.refundable).toBe(true);
    // The new ladder would refuse it: the order's own version is what decided.
    expect(refundQuote((await ladderInForce(db(), huangpu))!.rows, order.amount, 90).refundable).toBe(false);
    const statuses = (await db().select().from(customRefundRules).where(inArray(customRefundRules.id, [sold.id, d.id]))).map((r) => [r.id, r.status]);
    expect(new Map(statuses as [number, number][]).get(sold.id)).toBe(3);
  });
});
