import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/shared/api/card-verify';
import { REFUSAL } from '../../src/shared/api/card-verify';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { type Pii, createPii } from '../../src/server/lib/pii';
import { citizenId } from '../../src/server/modules/rider/seed-plan';
import { submitApplication, withdrawApplication } from '../../src/server/modules/card-verify/rider-side';
import { cardVerifyApplications as apps, cardVerifyConfigs, cardVerifyReminders } from '../../src/server/modules/card-verify/schema';
import { remindDue, suspendMissed } from '../../src/server/modules/card-verify/jobs';
import { purgeMaterials } from '../../src/server/modules/card-verify/service';
import { createRng } from '../../src/server/db/seed/rng';
import { DAY } from '../support/clock';
import { exportThroughTask } from '../support/export-task';
import { type TestServer, TEST_PII_KEY, startTestServer } from '../support/test-server';

/** 线上验卡 against the real server: every endpoint, its roles and refusals, the rider side, the purge job, the seed. */
let s: TestServer;
let admin: string;
let manager: string;
let agent: string;
let viewer: string;
let xuhui: number;
let huangpu: number;
let pii: Pii;
type Card = { id: number; cardNo: string; category: number; districtId: number; idNo: string; birthYear: number };
let xuhuiCards: Card[] = [];
let huangpuCards: Card[] = [];

const db = () => s.database.db;
const deps = () => ({ db: s.database.db, clock: s.clock, pii }) as unknown as AppDeps;
const rng = createRng(7);

beforeAll(async () => {
  s = await startTestServer();
  pii = createPii(TEST_PII_KEY);
  [admin, manager, agent, viewer] = (await Promise.all(['admin', 'manager', 'agent', 'viewer'].map((u) => s.login(u)))) as [string, string, string, string];
  const districts = await db().select().from(t.districts);
  xuhui = districts.find((d) => d.name === '徐汇区')!.id;
  huangpu = districts.find((d) => d.name === '黄浦区')!.id;
  const used = new Set((await db().select({ cardId: apps.cardId }).from(apps)).map((r) => r.cardId));
  const rows = await db()
    .select({ id: t.busCards.id, cardNo: t.busCards.cardNo, category: t.busCards.category, districtId: t.busCards.districtId, citizenEnc: t.riders.citizenEnc })
    .from(t.busCards)
    .innerJoin(t.riders, eq(t.riders.id, t.busCards.riderId))
    .where(and(inArray(t.busCards.category, [4, 5]), eq(t.busCards.state, 1), sql`${t.riders.citizenEnc} is not null`));
  const cards = rows.filter((r) => !used.has(r.id)).map((r) => {
    const idNo = pii.decrypt(r.citizenEnc!);
    return { id: r.id, cardNo: r.cardNo, category: r.category, districtId: r.districtId, idNo, birthYear: Number(idNo.slice(6, 10)) };
  });
  xuhuiCards = cards.filter((c) => c.districtId === xuhui);
  huangpuCards = cards.filter((c) => c.districtId === huangpu);
});
afterAll(() => s.close());

const take = (list: Card[], category?: number) => {
  const i = list.findIndex((c) => category === undefined || c.category === category);
  if (i < 0) throw new Error('out of test cards');
  return list.splice(i, 1)[0]!;
};

/** An application of the test's own, as the rider submits it. */
async function submit(opts: { district?: 'xuhui' | 'huangpu'; category?: number; faceScore?: number; idNo?: string; guardianConsent?: boolean } = {}) {
  const card = take(opts.district === 'huangpu' ? huangpuCards : xuhuiCards, opts.category);
  const row = await submitApplication(deps(), { cardNo: card.cardNo, name: '张三丰', idNo: opts.idNo ?? card.idNo, phone: '13912345678', faceScore: opts.faceScore ?? 92, guardianConsent: opts.guardianConsent ?? true });
  return { ...row, card };
}
const stored = async (id: number) => (await db().select().from(apps).where(eq(apps.id, id)))[0]!;
const auditRows = (type: string, id: number) =>
  db()
    .select()
    .from(t.sysLog)
    .where(and(eq(t.sysLog.operationType, type), eq(t.sysLog.target, `card-verify/${id}`)));
const approve = (token: string, id: number, extra: Record<string, unknown> = {}) => s.call(api.verifyAudit, { token, body: { id, fromStatus: 0, toStatus: 1, ...extra } });
const reject = (token: string, id: number, reason?: string, extra: Record<string, unknown> = {}) => s.call(api.verifyAudit, { token, body: { id, fromStatus: 0, toStatus: 2, reason, ...extra } });
const key = () => `k${Date.now()}${Math.random().toString(36).slice(2, 10)}`;
const list = (token: string, query: Record<string, string | number> = {}) => s.call(api.verifyPage, { token, query: { size: 1000, ...query } });

describe('the seeded applications (small profile: one of each outcome)', () => {
  it('each status is there, personal data masked, configs for both categories in every district', async () => {
    const all = (await list(admin)).body.data.content;
    expect(all.length).toBeGreaterThanOrEqual(6);
    for (const st of [0, 1, 2, 3]) expect(all.some((a) => a.status === st), `status ${st}`).toBe(true);
    expect(all.every((a) => /^.\*+$/.test(a.name) && /^\d{3}\*{11}[\dX]{4}$/.test(a.idNo) && /^1\d{2}\*{4}\d{4}$/.test(a.phone))).toBe(true);
    expect(all.some((a) => a.status === 0 && !a.autoPass)).toBe(true);
    const configs = (await s.call(api.verifyConfigList, { token: admin })).body.data;
    const districts = await db().select().from(t.districts);
    expect(configs).toHaveLength(districts.length * 2);
    // Materials are sealed: no placeholder text in the stored bytes.
    const files = await db().select().from(t.sealedFiles).where(eq(t.sealedFiles.kind, 'verify'));
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((f) => f.data).every((f) => !f.data!.toString('utf8').includes('svg'))).toBe(true);
  });
});

describe('list, summary, detail', () => {
  it('a district reads its own; filters by status, category, autoCheck, card, applyNo and the private id; refuses malformed filters', async () => {
    const mine = await submit();
    const other = await submit({ district: 'huangpu' });
    const rows = (await list(manager)).body.data.content;
    expect(rows.every((r) => r.districtId === xuhui)).toBe(true);
    expect(rows.some((r) => r.id === other.id)).toBe(false);
    expect((await list(manager, { applyNo: mine.applyNo })).body.data.content.map((r) => r.id)).toEqual([mine.id]);
    expect((await list(manager, { cardNo: mine.cardNo })).body.data.content.map((r) => r.id)).toContain(mine.id);
    expect((await list(admin, { status: 0 })).body.data.content.every((r) => r.status === 0)).toBe(true);
    expect((await list(admin, { category: 5 })).body.data.content.every((r) => r.cardCategory === 5)).toBe(true);
    expect((await list(admin, { autoCheck: 0 })).body.data.content.every((r) => !r.autoPass)).toBe(true);
    // The id number only in a body, through the blind index.
    const byId = await s.call(api.verifyPageByBody, { token: manager, body: { idNo: mine.card.idNo, size: 50 } });
    expect(byId.body.data.content.map((r) => r.id)).toContain(mine.id);
    for (const [q, msg] of [
      [{ status: 9 }, /审核状态/],
      [{ category: 2 }, /卡类型/],
      [{ cardNo: '123' }, /卡号应为16位数字/],
      [{ applyNo: 'x'.repeat(41) }, /申请号不能超过40个字符/],
      [{ startTime: 'yesterday' }, /开始时间/],
      [{ sort: 'idNo,asc' }, /排序参数/],
    ] as const) {
      const r = await list(admin, q as Record<string, string | number>);
      expect(r.status, JSON.stringify(q)).toBe(400);
      expect(r.body.msg).toMatch(msg);
    }
    const total = (await s.call(api.verifyTotal, { token: manager })).body.data;
    expect(total.pending).toBe(total.byStatus['0']);
    expect(total.total).toBe(Object.values(total.byStatus).reduce((a, b) => a + b, 0));
  });

  it('the read-only group has no menu here; another district’s detail is refused', async () => {
    expect((await list(viewer)).status).toBe(403);
    const other = await submit({ district: 'huangpu' });
    const r = await s.call(api.verifyMsg, { token: manager, query: { id: other.id } });
    expect(r.status).toBe(403);
    expect(r.body.msg).toBe('当前用户没有权限操作该区域');
    const d = (await s.call(api.verifyMsg, { token: admin, query: { id: other.id } })).body.data;
    expect(d.checkList.map((c) => c.key)).toEqual(['idChecksum', 'age', 'cardState', 'holderMatch', 'face']);
    expect(d.materials.length).toBeGreaterThanOrEqual(3);
    expect((await s.call(api.verifyMsg, { token: admin, query: { id: 'x' } })).status).toBe(400);
    expect((await s.call(api.verifyMsg, { token: admin, query: {} })).status).toBe(400);
    expect((await s.call(api.verifyMsg, { token: admin, query: { id: 99_999_999 } })).body.msg).toBe('验卡申请不存在');
  });
});

describe('the claim', () => {
  it('Enter takes the next pending; another reviewer is refused with the holder’s name; ROLE_ADMIN takes over (audited); the agent may not', async () => {
    const a = await submit();
    const claimed = await s.call(api.verifyClaim, { token: agent, body: { id: a.id } });
    expect(claimed.body.code).toBe(1);
    expect(claimed.body.data?.claimByName).toBe('客服小李');
    const next = await s.call(api.verifyClaim, { token: agent, body: {} });
    // Its own claim first.
    expect(next.body.data?.id).toBe(a.id);
    const blocked = await approve(manager, a.id);
    expect(blocked.body.msg).toBe(REFUSAL.claimedBy('客服小李'));
    expect((await s.call(api.verifyClaim, { token: manager, body: { id: a.id } })).body.msg).toBe(REFUSAL.claimedBy('客服小李'));
    const took = await s.call(api.verifyClaim, { token: manager, body: { id: a.id, takeOver: true } });
    expect(took.body.data?.claimByName).toBe('徐汇区管理员');
    expect(await auditRows('CARD_VERIFY_TAKEOVER', a.id)).toHaveLength(1);
    expect((await approve(agent, a.id)).body.msg).toBe(REFUSAL.claimedBy('徐汇区管理员'));
    expect((await s.call(api.verifyClaim, { token: agent, body: { id: a.id, takeOver: true } })).status).toBe(403);
    // The claim runs out after 10 minutes.
    s.clock.advance(11 * 60_000);
    expect((await s.call(api.verifyClaim, { token: agent, body: { id: a.id } })).body.code).toBe(1);
    expect((await s.call(api.verifyRelease, { token: agent, body: { id: a.id } })).body.data.released).toBe(true);
    expect((await stored(a.id)).claimBy).toBeNull();
    expect((await s.call(api.verifyClaim, { token: viewer, body: {} })).status).toBe(403);
    expect((await s.call(api.verifyClaim, { token: agent, body: { skip: Array.from({ length: 101 }, (_, i) => i + 1) } })).status).toBe(400);
  });
});

describe('audit', () => {
  it('approves an all-green application once: validity from today, one audit row; a second decision is refused', async () => {
    const a = await submit();
    const r = await approve(agent, a.id);
    expect(r.body.code, r.body.msg).toBe(1);
    expect(r.body.data.status).toBe(1);
    expect(r.body.data.validUntil).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const row = await stored(a.id);
    expect(row).toMatchObject({ status: 1, claimBy: null });
    expect(await auditRows('CARD_VERIFY_AUDIT', a.id)).toHaveLength(1);
    expect((await approve(agent, a.id)).body.msg).toBe(REFUSAL.decided);
    expect((await reject(agent, a.id, '照片模糊看不清')).body.msg).toBe(REFUSAL.decided);
  });

  it('rejects only with a reason of 4 characters; refuses malformed, too long, missing input and the wrong district and role', async () => {
    const a = await submit();
    expect((await reject(agent, a.id)).body.msg).toBe(REFUSAL.rejectReason);
    expect((await reject(agent, a.id, '模糊')).body.msg).toBe(REFUSAL.rejectReason);
    expect((await reject(agent, a.id, '原'.repeat(101))).status).toBe(400);
    expect((await s.call(api.verifyAudit, { token: agent, body: { id: a.id, fromStatus: 1, toStatus: 2, reason: '材料不全请补充' } })).status).toBe(400);
    expect((await s.call(api.verifyAudit, { token: agent, body: { id: a.id, fromStatus: 0, toStatus: 3 } })).status).toBe(400);
    expect((await s.call(api.verifyAudit, { token: agent, body: { fromStatus: 0, toStatus: 1 } })).status).toBe(400);
    expect((await approve(viewer, a.id)).status).toBe(403);
    const other = await submit({ district: 'huangpu' });
    expect((await approve(manager, other.id)).status).toBe(403);
    expect((await stored(other.id)).status).toBe(0);
    const ok = await reject(agent, a.id, api.PRESET_REASONS[0]);
    expect(ok.body.data).toMatchObject({ status: 2, reason: api.PRESET_REASONS[0] });
    expect(await auditRows('CARD_VERIFY_AUDIT', a.id)).toHaveLength(1);
  });

  it('an approval re-checks age, card state, holder and face in the design’s words', async () => {
    // A senior card, the applicant’s id of a 30-year-old: age first.
    const young = citizenId(rng, 1996);
    const senior = await submit({ category: 5, idNo: young });
    expect(senior.autoPass).toBe(false);
    expect((await approve(agent, senior.id)).body.msg).toBe('持卡人未满60周岁，不符合老年卡验卡条件');
    const student = await submit({ category: 4, idNo: citizenId(rng, 1990) });
    expect((await approve(agent, student.id)).body.msg).toBe('持卡人年龄超出学生卡范围（6–22周岁）');
    // Another id of the holder's own age: only the holder differs.
    const holder = await submit({ category: 5 });
    await db().update(apps).set({ idIdx: 'someone-else' }).where(eq(apps.id, holder.id));
    expect((await approve(agent, holder.id)).body.msg).toBe(REFUSAL.holder);
    // The card lost after the submission.
    const lost = await submit();
    await db().update(t.busCards).set({ state: 3 }).where(eq(t.busCards.id, lost.card.id));
    expect((await approve(agent, lost.id)).body.msg).toBe('卡片状态为「已挂失」，不能通过验卡');
    await db().update(t.busCards).set({ state: 1 }).where(eq(t.busCards.id, lost.card.id));
    const face = await submit({ faceScore: 61 });
    expect((await approve(agent, face.id)).body.msg).toBe('人脸比对未通过（61分），请填写人工核验说明');
    expect((await approve(agent, face.id, { note: '电话核实' })).body.msg).toBe(REFUSAL.faceNote);
    expect((await approve(agent, face.id, { note: 'x'.repeat(201) })).status).toBe(400);
    const ok = await approve(agent, face.id, { note: '已电话联系本人，照片光线不足' });
    expect(ok.body.data).toMatchObject({ status: 1, note: '已电话联系本人，照片光线不足' });
    for (const id of [senior.id, student.id, holder.id]) expect((await stored(id)).status).toBe(0);
  });

  it('a withdrawal by the rider ends the application; the reviewer then finds it decided', async () => {
    const a = await submit();
    await withdrawApplication(deps(), a.id);
    expect((await stored(a.id)).status).toBe(3);
    expect((await approve(agent, a.id)).body.msg).toBe(REFUSAL.decided);
    await expect(withdrawApplication(deps(), a.id)).rejects.toThrow(REFUSAL.withdrawOnlyPending);
    // One pending application per card.
    const b = await submit();
    await expect(submitApplication(deps(), { cardNo: b.cardNo, name: '张三', idNo: b.card.idNo, phone: '13912345678', faceScore: 90, guardianConsent: true })).rejects.toThrow(REFUSAL.duplicatePending);
  });
});

describe('minors', () => {
  it('an applicant under 14 needs the guardian’s consent', async () => {
    const thisYear = Number(s.clock.now().toISOString().slice(0, 4));
    const i = xuhuiCards.findIndex((c) => c.category === 4 && thisYear - c.birthYear <= 12);
    expect(i, 'a student card of a child in 徐汇区').toBeGreaterThanOrEqual(0);
    const child = xuhuiCards.splice(i, 1)[0]!;
    await expect(submitApplication(deps(), { cardNo: child.cardNo, name: '小明', idNo: child.idNo, phone: '13912345678', faceScore: 90 })).rejects.toThrow(REFUSAL.guardian);
    expect(await db().select().from(apps).where(and(eq(apps.cardId, child.id), eq(apps.status, 0)))).toHaveLength(0);
    const ok = await submitApplication(deps(), { cardNo: child.cardNo, name: '小明', idNo: child.idNo, phone: '13912345678', faceScore: 90, guardianConsent: true });
    expect(ok.guardianConsent).toBe(true);
    expect((await s.call(api.verifyMsg, { token: agent, query: { id: ok.id } })).body.data.guardianConsent).toBe(true);
  });
});

describe('batch approval', () => {
  it('all-green only, at most 100, with a key; replays answer the same', async () => {
    const greens = [await submit(), await submit()];
    const red = await submit({ faceScore: 50 });
    const k = key();
    const mixed = await s.call(api.verifyAuditBatch, { token: agent, body: { ids: [...greens.map((g) => g.id), red.id], idempotencyKey: key() } });
    expect(mixed.body.msg).toBe(REFUSAL.batchGreen);
    for (const g of greens) expect((await stored(g.id)).status).toBe(0);
    expect((await s.call(api.verifyAuditBatch, { token: agent, body: { ids: greens.map((g) => g.id) } })).status).toBe(400);
    expect((await s.call(api.verifyAuditBatch, { token: agent, body: { ids: Array.from({ length: 101 }, (_, i) => i + 1), idempotencyKey: key() } })).status).toBe(400);
    expect((await s.call(api.verifyAuditBatch, { token: agent, body: { ids: [], idempotencyKey: key() } })).status).toBe(400);
    expect((await s.call(api.verifyAuditBatch, { token: viewer, body: { ids: [greens[0]!.id], idempotencyKey: key() } })).status).toBe(403);
    const other = await submit({ district: 'huangpu' });
    expect((await s.call(api.verifyAuditBatch, { token: manager, body: { ids: [other.id], idempotencyKey: key() } })).status).toBe(403);
    const ok = await s.call(api.verifyAuditBatch, { token: agent, body: { ids: greens.map((g) => g.id), idempotencyKey: k } });
    expect(ok.body.data).toEqual({ approved: greens.map((g) => g.id).sort((a, b) => a - b), replayed: false });
    for (const g of greens) {
      expect((await stored(g.id)).status).toBe(1);
      expect(await auditRows('CARD_VERIFY_AUDIT', g.id)).toHaveLength(1);
    }
    const again = await s.call(api.verifyAuditBatch, { token: agent, body: { ids: greens.map((g) => g.id), idempotencyKey: k } });
    expect(again.body.data.replayed).toBe(true);
    expect((await s.call(api.verifyAuditBatch, { token: agent, body: { ids: greens.map((g) => g.id), idempotencyKey: key() } })).body.msg).toMatch(/^该申请已被处理，请刷新后查看/);
  });
});

describe('revoke', () => {
  it('撤销通过 is the revoker’s (not the agent’s), with a reason, only from 已通过', async () => {
    const a = await submit();
    const body = (extra: Record<string, unknown> = {}) => ({ id: a.id, fromStatus: 1, reason: '复核发现证件过期', ...extra });
    expect((await s.call(api.verifyRevoke, { token: manager, body: body() })).body.msg).toBe(REFUSAL.revokeOnlyApproved);
    await approve(agent, a.id);
    expect((await s.call(api.verifyRevoke, { token: agent, body: body() })).status).toBe(403);
    expect((await s.call(api.verifyRevoke, { token: manager, body: body({ reason: '过期' }) })).body.msg).toBe(REFUSAL.revokeReason);
    expect((await s.call(api.verifyRevoke, { token: manager, body: body({ reason: 'x'.repeat(101) }) })).status).toBe(400);
    expect((await s.call(api.verifyRevoke, { token: manager, body: body({ fromStatus: 0 }) })).status).toBe(400);
    expect((await s.call(api.verifyRevoke, { token: manager, body: { id: a.id, fromStatus: 1 } })).status).toBe(400);
    const r = await s.call(api.verifyRevoke, { token: manager, body: body() });
    expect(r.body.data).toMatchObject({ status: 2, validUntil: null });
    expect(await auditRows('CARD_VERIFY_REVOKE', a.id)).toHaveLength(1);
    expect((await s.call(api.verifyRevoke, { token: manager, body: body() })).body.msg).toBe(REFUSAL.decided);
    const other = await submit({ district: 'huangpu' });
    await approve(admin, other.id);
    expect((await s.call(api.verifyRevoke, { token: manager, body: { id: other.id, fromStatus: 1, reason: '复核发现证件过期' } })).status).toBe(403);
  });
});

describe('materials', () => {
  it('opened only with a reason, answered no-store and audited; purged 30 days after the decision, the hash kept', async () => {
    const a = await submit();
    const d = (await s.call(api.verifyMsg, { token: agent, query: { id: a.id } })).body.data;
    const m = d.materials[0]!;
    expect((await s.call(api.verifyMaterial, { token: agent, body: { id: a.id, materialId: m.id } })).status).toBe(400);
    expect((await s.call(api.verifyMaterial, { token: agent, body: { id: a.id, materialId: m.id, reason: 'x'.repeat(51) } })).status).toBe(400);
    expect((await s.call(api.verifyMaterial, { token: viewer, body: { id: a.id, materialId: m.id, reason: '审核比对' } })).status).toBe(403);
    const r = await s.call(api.verifyMaterial, { token: agent, body: { id: a.id, materialId: m.id, reason: '审核比对' } });
    expect(r.body.code).toBe(1);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(Buffer.from(r.body.data.dataBase64, 'base64').toString('utf8')).toContain('<svg');
    const logged = await auditRows('CARD_VERIFY_MATERIAL', a.id);
    expect(logged).toHaveLength(1);
    expect(logged[0]!.summary).toContain('审核比对');
    expect(logged[0]!.summary).not.toContain('svg');
    // Another application's file is not this one's.
    const b = await submit();
    const bm = (await s.call(api.verifyMsg, { token: agent, query: { id: b.id } })).body.data.materials[0]!;
    expect((await s.call(api.verifyMaterial, { token: agent, body: { id: a.id, materialId: bm.id, reason: '审核比对' } })).body.msg).toBe('材料不存在');
    const other = await submit({ district: 'huangpu' });
    expect((await s.call(api.verifyMaterial, { token: manager, body: { id: other.id, materialId: 1, reason: '审核比对' } })).status).toBe(403);
    await reject(agent, a.id, '材料不全请补充');
    const later = { db: db(), clock: { now: () => new Date(s.clock.now().getTime() + 31 * DAY) } } as unknown as AppDeps;
    expect(await purgeMaterials(later)).toBeGreaterThanOrEqual(1);
    expect((await stored(a.id)).purgedAt).not.toBeNull();
    const after = (await s.call(api.verifyMsg, { token: agent, query: { id: a.id } })).body.data.materials;
    expect(after.every((f) => f.purged && f.sha256 === d.materials.find((x) => x.id === f.id)!.sha256)).toBe(true);
    expect((await s.call(api.verifyMaterial, { token: agent, body: { id: a.id, materialId: m.id, reason: '审核比对' } })).body.msg).toBe(REFUSAL.materialGone);
    // The pending one is untouched.
    expect((await s.call(api.verifyMsg, { token: agent, query: { id: b.id } })).body.data.materials.every((f) => !f.purged)).toBe(true);
    expect(await purgeMaterials(later)).toBe(0);
  });
});

describe('★ 到期雷达', () => {
  it('cards due per week, active first; the batch reminder sends each card once', async () => {
    const a = await submit();
    await approve(agent, a.id);
    // Make it run out in three weeks.
    const due = new Date(s.clock.now().getTime() + 21 * DAY).toISOString().slice(0, 10);
    await db().update(apps).set({ validUntil: due }).where(eq(apps.id, a.id));
    const radar = (await s.call(api.verifyDueRadar, { token: manager })).body.data;
    expect(radar.days).toBe(90);
    expect(radar.items.some((i) => i.cardNo === a.cardNo && i.validUntil === due && /^.\*+$/.test(i.name))).toBe(true);
    expect(radar.weeks.reduce((n, w) => n + w.due, 0)).toBe(radar.totalDue);
    expect(radar.weeks.length).toBeGreaterThanOrEqual(13);
    expect((await s.call(api.verifyDueRadar, { token: manager, query: { days: 91 } })).status).toBe(400);
    expect((await s.call(api.verifyDueRadar, { token: viewer })).status).toBe(403);
    const sent = (await s.call(api.verifyDueRemind, { token: agent, body: { days: 30 } })).body.data;
    expect(sent.sent).toBeGreaterThanOrEqual(1);
    expect(await db().select().from(cardVerifyReminders).where(eq(cardVerifyReminders.cardNo, a.cardNo))).toHaveLength(1);
    const again = (await s.call(api.verifyDueRemind, { token: agent, body: { days: 30 } })).body.data;
    expect(again.sent).toBe(0);
    expect(again.skipped).toBe(sent.sent + sent.skipped);
    expect((await s.call(api.verifyDueRemind, { token: viewer, body: { days: 30 } })).status).toBe(403);
    expect((await s.call(api.verifyDueRemind, { token: agent, body: {} })).status).toBe(400);
  });
});

describe('timed jobs: a missed check suspends the concession, falling due is told once', () => {
  const dayOffset = (days: number) => new Date(s.clock.now().getTime() + 8 * 3600_000 + days * DAY).toISOString().slice(0, 10);
  const jobLog = (type: string, districtId: number) =>
    db()
      .select()
      .from(t.sysLog)
      .where(and(eq(t.sysLog.operationType, type), eq(t.sysLog.targetDistrictId, districtId)));

  it('past validUntil + graceDays the current approval is suspended once (audited per district); within grace, renewed or suspendOnMiss off it is not', async () => {
    const [missed, inGrace, renewedOld, renewedNew, noSuspend] = [await submit(), await submit(), await submit(), await submit(), await submit({ district: 'huangpu' })];
    for (const a of [missed, inGrace, renewedOld, renewedNew, noSuspend]) await approve(a.card.districtId === xuhui ? agent : admin, a.id);
    const grace = (await db().select().from(cardVerifyConfigs).where(and(eq(cardVerifyConfigs.districtId, xuhui), eq(cardVerifyConfigs.category, missed.card.category))))[0]!.graceDays;
    await db().update(apps).set({ validUntil: dayOffset(-grace - 1) }).where(eq(apps.id, missed.id));
    await db().update(apps).set({ validUntil: dayOffset(-Math.max(0, grace - 1)) }).where(eq(apps.id, inGrace.id));
    // The same card approved again later: the older approval is history, not suspended.
    await db().update(apps).set({ validUntil: dayOffset(-grace - 5), cardId: renewedNew.card.id, cardNo: renewedNew.cardNo }).where(eq(apps.id, renewedOld.id));
    await db().update(cardVerifyConfigs).set({ suspendOnMiss: false }).where(eq(cardVerifyConfigs.districtId, huangpu));
    await db().update(apps).set({ validUntil: dayOffset(-400) }).where(eq(apps.id, noSuspend.id));
    const before = await jobLog('CARD_VERIFY_SUSPEND', xuhui);

    expect(await suspendMissed(deps())).toBeGreaterThanOrEqual(1);
    expect((await stored(missed.id)).suspendedAt).not.toBeNull();
    for (const a of [inGrace, renewedOld, renewedNew, noSuspend]) expect((await stored(a.id)).suspendedAt, `${a.applyNo}`).toBeNull();
    const logged = (await jobLog('CARD_VERIFY_SUSPEND', xuhui)).filter((r) => !before.some((b) => b.id === r.id));
    expect(logged).toHaveLength(1);
    expect(logged[0]!.summary).toContain(missed.cardNo);
    expect(await suspendMissed(deps())).toBe(0);

    const listed = (await s.call(api.verifyPage, { token: manager, query: { cardNo: missed.cardNo } })).body.data.content[0]!;
    expect(listed.suspendedDate).not.toBeNull();
    expect((await s.call(api.verifyTotal, { token: manager, query: {} })).body.data.suspended).toBeGreaterThanOrEqual(1);
    await db().update(cardVerifyConfigs).set({ suspendOnMiss: true }).where(eq(cardVerifyConfigs.districtId, huangpu));
  });

  it('the reminder job tells each card falling due within 30 days once, by nobody (the system), audited; a waiting application is not told', async () => {
    const [due, waiting] = [await submit(), await submit()];
    await approve(agent, due.id);
    await approve(agent, waiting.id);
    await db().update(apps).set({ validUntil: dayOffset(12) }).where(inArray(apps.id, [due.id, waiting.id]));
    // The rider of the second has applied again already.
    await db().insert(apps).values({ ...(({ id: _id, applyNo: _no, rowVersion: _v, ...rest }) => rest)(await stored(waiting.id)), applyNo: `YZT${waiting.id}`, status: 0, reviewerId: null, reviewedAt: null, validUntil: null });

    expect(await remindDue(deps())).toBeGreaterThanOrEqual(1);
    const told = await db().select().from(cardVerifyReminders).where(inArray(cardVerifyReminders.cardNo, [due.cardNo, waiting.cardNo]));
    expect(told).toEqual([expect.objectContaining({ cardNo: due.cardNo, validUntil: dayOffset(12), sentBy: null })]);
    expect((await jobLog('CARD_VERIFY_REMIND', xuhui)).some((r) => r.operatorLogin === 'system' && r.summary.includes(due.cardNo))).toBe(true);
    expect(await remindDue(deps())).toBe(0);
  });
});

describe('export', () => {
  it('a 下载中心 task of the filtered list, personal data masked', async () => {
    await submit();
    const { sheet } = await exportThroughTask(s, api.verifyExport, manager, { status: 0 });
    expect(sheet.rows[0]).toContain('身份证号');
    const body = sheet.rows.slice(1);
    expect(body.length).toBeGreaterThan(0);
    const idCol = sheet.rows[0]!.indexOf('身份证号');
    const phoneCol = sheet.rows[0]!.indexOf('手机号');
    expect(body.every((r) => /^\d{3}\*{11}/.test(r[idCol]!) && /\*{4}/.test(r[phoneCol]!))).toBe(true);
    expect(body.every((r) => r[sheet.rows[0]!.indexOf('审核状态')] === '待审核')).toBe(true);
    expect((await s.call(api.verifyExport, { token: manager, query: { status: 7 } })).status).toBe(400);
    expect((await s.call(api.verifyExport, { token: viewer })).status).toBe(403);
  });
});

describe('验卡配置', () => {
  it('per category and district; the configurer alone; the design’s refusal on the window; audited', async () => {
    const mine = (await s.call(api.verifyConfigList, { token: manager, query: { category: 5 } })).body.data;
    expect(mine.every((c) => c.districtId === xuhui && c.category === 5)).toBe(true);
    const c = mine[0]!;
    const body = (extra: Record<string, unknown> = {}) => ({ ...c, districtName: undefined, updatedDate: undefined, ...extra });
    expect((await s.call(api.verifyConfigSave, { token: agent, body: body() })).status).toBe(403);
    const bad = await s.call(api.verifyConfigSave, { token: manager, body: body({ windowMonthsBefore: 7 }) });
    expect(bad.body.msg).toBe(REFUSAL.windowMonths);
    expect((await s.call(api.verifyConfigSave, { token: manager, body: body({ ageMin: 80, ageMax: 60 }) })).body.msg).toBe(REFUSAL.ageRange);
    expect((await s.call(api.verifyConfigSave, { token: manager, body: body({ materials: [] }) })).status).toBe(400);
    expect((await s.call(api.verifyConfigSave, { token: manager, body: body({ noticeCode: 'x'.repeat(41) }) })).status).toBe(400);
    expect((await s.call(api.verifyConfigSave, { token: manager, body: body({ faceThreshold: undefined }) })).status).toBe(400);
    expect((await s.call(api.verifyConfigSave, { token: manager, body: body({ id: undefined, districtId: huangpu }) })).status).toBe(403);
    const ok = await s.call(api.verifyConfigSave, { token: manager, body: body({ faceThreshold: 85, windowMonthsBefore: 2 }) });
    expect(ok.body.data).toMatchObject({ faceThreshold: 85, windowMonthsBefore: 2 });
    const [row] = await db().select().from(cardVerifyConfigs).where(eq(cardVerifyConfigs.id, c.id));
    expect(row!.faceThreshold).toBe(85);
    const logged = await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'CARD_VERIFY_CONFIG'), eq(t.sysLog.target, `card-verify-config/${c.id}`)));
    expect(logged).toHaveLength(1);
    // A stale save is refused.
    expect((await s.call(api.verifyConfigSave, { token: manager, body: body({ rowVersion: c.rowVersion }) })).body.code).not.toBe(1);
    // The threshold applies to the next submission.
    const a = await submit({ category: 5, faceScore: 82 });
    expect(a.checks.face).toBe(false);
  });
});
