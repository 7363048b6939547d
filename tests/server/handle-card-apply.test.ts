import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/shared/api/handle-card';
import { REFUSALS } from '../../src/shared/api/handle-card';
import { shanghaiDate } from '../../src/shared/domain/time';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { placeholderImage } from '../../src/server/lib/sealed-files';
import { handleCardApplications as apps, handleCardPool as pool, handleCardSettings } from '../../src/server/modules/handle-card/schema';
import { cancelApplication, cancelUnpaid, completeDelivered, payApplication, purgeImages, submitApplication, type SubmitInput } from '../../src/server/modules/handle-card/apply-service';
import { citizenIdOf } from '../../src/server/modules/handle-card/seed-plan';
import { DAY, MINUTE } from '../support/clock';
import { exportThroughTask } from '../support/export-task';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/** 办卡申请 against the real server: every endpoint, its refusals (role, district, input), the audit rows, the rider side and the jobs. */
let s: TestServer;
let admin: string;
let manager: string;
let viewer: string;
let agent: string;
let xuhui: number;
let huangpu: number;
let riderId: number;

const db = () => s.database.db;
const pii = createPii(TEST_PII_KEY);
const deps = () => ({ db: s.database.db, clock: s.clock, pii }) as unknown as AppDeps;
let seq = 100;

/** After the clock moved past the session's 30 minutes, everyone signs in again. */
async function signIn() {
  [admin, manager, viewer, agent] = (await Promise.all(['admin', 'manager', 'viewer', 'agent'].map((u) => s.login(u)))) as [string, string, string, string];
}

beforeAll(async () => {
  s = await startTestServer();
  await signIn();
  const districts = await db().select().from(t.districts);
  xuhui = districts.find((d) => d.name === '徐汇区')!.id;
  huangpu = districts.find((d) => d.name === '黄浦区')!.id;
  riderId = (await db().select({ id: t.riders.id }).from(t.riders).limit(1))[0]!.id;
});
afterAll(() => s.close());

const audits = (type: string, id: number) => db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, type), eq(t.sysLog.target, `handle-card/${id}`)));
const stored = async (id: number) => (await db().select().from(apps).where(eq(apps.id, id)))[0]!;
const ledger = (id: number) => db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'handle'), eq(t.moneyRefunds.orderId, id)));
const photo = () => placeholderImage('证件照', 358, 441);
const side = () => placeholderImage('身份证', 428, 270);
const yearsAgo = (age: number) => `${Number(shanghaiDate(s.clock.now()).slice(0, 4)) - age - 1}-03-15`;
const idOf = (age: number) => citizenIdOf('310104', yearsAgo(age), ++seq, false);
const key = () => `k${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

function input(over: Partial<SubmitInput> = {}): SubmitInput {
  return { riderId, districtId: xuhui, cardCategory: 2, name: '王小明', idNo: idOf(30), phone: '13912345678', address: '上海市徐汇区漕溪北路88号1201室', delivery: 2, photo: photo(), idFront: side(), idBack: side(), ...over };
}
/** A paid application waiting for review (待审核). */
async function pending(over: Partial<SubmitInput> = {}) {
  const a = await submitApplication(deps(), input(over));
  return payApplication(deps(), a.id);
}
const audit = (token: string, body: Record<string, unknown>, district?: number) => s.call(api.applyAudit, { token, body: { idempotencyKey: key(), ...body }, district });

describe('the seeded applications, settings and pool (second wave §13)', () => {
  it('a handful of applications in several statuses; settings 4 categories × 3 districts; the pool with its used numbers marked', async () => {
    const rows = await db().select().from(apps);
    expect(rows.length).toBeGreaterThanOrEqual(10);
    expect(rows.length).toBeLessThan(40);
    for (const st of [1, 2, 3, 4, 5]) expect(rows.some((r) => r.status === st), `status ${st}`).toBe(true);
    expect(await db().select().from(handleCardSettings)).toHaveLength(12);
    const numbers = await db().select().from(pool);
    expect(numbers.length).toBeGreaterThanOrEqual(40);
    for (const r of rows.filter((x) => x.status === 2)) expect(numbers.find((n) => n.cardNo === r.cardNo)?.state).toBe(1);
    for (const r of rows.filter((x) => x.status === 4 || x.status === 5)) expect(numbers.find((n) => n.cardNo === r.cardNo)?.state).toBe(2);
    // Rejected applications with a fee have their refund in the ledger, keyed by the application number.
    for (const r of rows.filter((x) => x.status === 3 && x.fee > 0 && x.payStatus === 2)) expect((await ledger(r.id))[0]?.idempotencyKey).toBe(r.applyNo);
  });
});

describe('办卡申请: list, scope, filters, summary, detail', () => {
  it('the district manager and the agent read their district only; the viewer has no menu', async () => {
    const mine = (await s.call(api.applyPage, { token: manager, query: { size: 100 } })).body.data.content;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((a) => a.districtId === xuhui)).toBe(true);
    expect((await s.call(api.applyPage, { token: agent })).status).toBe(200);
    expect((await s.call(api.applyPage, { token: viewer })).status).toBe(403);
    const foreign = (await db().select().from(apps).where(eq(apps.districtId, huangpu)))[0]!;
    expect((await s.call(api.applyMsg, { token: manager, query: { id: foreign.id } })).status).toBe(403);
  });

  it('rows are masked: name, id and phone never in clear', async () => {
    const a = await pending({ name: '李四海', phone: '13700001111' });
    const row = (await s.call(api.applyPage, { token: admin, query: { applyNo: a.applyNo } })).body.data.content[0]!;
    expect(row.name).toBe('李**');
    expect(row.phone).toBe('137****1111');
    expect(row.idNo).toMatch(/^\d{3}\*+\d{3}[\dX]$/);
    expect(JSON.stringify(row)).not.toContain('李四海');
    expect(row.deliveryTo).toBe('上海市徐汇区漕溪北路…');
  });

  it('filters by phone and id through the body form (blind index), by status, category, precheck; sorts; refuses a bad sort', async () => {
    const id = idOf(40);
    const a = await pending({ idNo: id, phone: '13611112222' });
    const byPhone = (await s.call(api.applyPageByBody, { token: admin, body: { phone: '136 1111 2222' } })).body.data.content;
    expect(byPhone.map((r) => r.id)).toEqual([a.id]);
    const byId = (await s.call(api.applyPageByBody, { token: admin, body: { idNo: id.toLowerCase() } })).body.data.content;
    expect(byId.map((r) => r.id)).toEqual([a.id]);
    const waiting = (await s.call(api.applyPage, { token: admin, query: { status: 1, size: 200 } })).body.data.content;
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting.every((r) => r.status === 1)).toBe(true);
    const red = (await s.call(api.applyPage, { token: admin, query: { precheck: 'red', size: 200 } })).body.data.content;
    expect(red.every((r) => !r.precheckGreen && r.precheckRed.length > 0)).toBe(true);
    const students = (await s.call(api.applyPage, { token: admin, query: { cardCategory: 4, size: 200 } })).body.data.content;
    expect(students.every((r) => r.cardCategory === 4)).toBe(true);
    expect((await s.call(api.applyPage, { token: admin, query: { cardCategory: 1 } })).body.code).not.toBe(1);
    expect((await s.call(api.applyPage, { token: admin, query: { sort: 'name,asc' } })).body.code).not.toBe(1);
    const fees = (await s.call(api.applyPage, { token: admin, query: { sort: 'fee,asc', size: 200 } })).body.data.content.map((r) => r.fee);
    expect(fees).toEqual([...fees].sort((x, y) => x - y));
  });

  it('the summary counts per status (not filtered by status), the all-green waiting, fees and the pool', async () => {
    const total = (await s.call(api.applyTotal, { token: admin, query: { status: 5 } })).body.data;
    const all = await db().select().from(apps);
    expect(total.total).toBe(all.length);
    expect(total.byStatus['1']).toBe(all.filter((a) => a.status === 1).length);
    expect(total.pendingGreen).toBe(all.filter((a) => a.status === 1 && a.precheckGreen).length);
    expect(total.poolFree['2']).toBeGreaterThan(0);
    const mine = (await s.call(api.applyTotalByBody, { token: manager, body: {} })).body.data;
    expect(mine.total).toBe(all.filter((a) => a.districtId === xuhui).length);
  });

  it('the detail has the precheck list and the materials without their bytes', async () => {
    const a = await pending();
    const msg = (await s.call(api.applyMsg, { token: agent, query: { id: a.id } })).body.data;
    expect(msg.precheck.map((p) => p.key)).toEqual(['photo', 'idChecksum', 'age', 'onePerId', 'existingCard', 'guardian', 'materials']);
    expect(msg.precheck.every((p) => p.ok)).toBe(true);
    expect(msg.materials.map((m) => m.label)).toEqual(['证件照', '身份证人像面', '身份证国徽面']);
    expect(JSON.stringify(msg)).not.toContain('base64');
    expect((await s.call(api.applyMsg, { token: admin, query: { id: 99_999_999 } })).body.code).not.toBe(1);
    expect((await s.call(api.applyMsg, { token: admin, query: { id: 'abc' } as never })).body.code).not.toBe(1);
  });
});

describe('★ 提交即预检 and the rider side', () => {
  it('refuses in the design’s words: closed type, checksum, photo, age, guardian, a valid card of the type', async () => {
    await db().update(handleCardSettings).set({ open: false }).where(and(eq(handleCardSettings.districtId, xuhui), eq(handleCardSettings.cardCategory, 6)));
    await expect(submitApplication(deps(), input({ cardCategory: 6 }))).rejects.toThrow(REFUSALS.closed('记名卡'));
    await db().update(handleCardSettings).set({ open: true }).where(and(eq(handleCardSettings.districtId, xuhui), eq(handleCardSettings.cardCategory, 6)));
    const bad = idOf(30);
    await expect(submitApplication(deps(), input({ idNo: `${bad.slice(0, 17)}${bad[17] === '1' ? '2' : '1'}` }))).rejects.toThrow(REFUSALS.idChecksum);
    await expect(submitApplication(deps(), input({ photo: placeholderImage('x', 300, 400) }))).rejects.toThrow(REFUSALS.photo);
    await expect(submitApplication(deps(), input({ photo: { ...photo(), data: Buffer.alloc(100 * 1024) } }))).rejects.toThrow(REFUSALS.photo);
    await expect(submitApplication(deps(), input({ cardCategory: 5, idNo: idOf(40) }))).rejects.toThrow(REFUSALS.age('老年卡', 60, 120));
    await expect(submitApplication(deps(), input({ idNo: idOf(10) }))).rejects.toThrow(REFUSALS.guardian);
    const child = await submitApplication(deps(), input({ idNo: idOf(10), guardianConsent: true }));
    expect(child.precheck.find((p) => p.key === 'guardian')?.note).toBe('已同意');
    // A card issued by a finished application is a valid card of the type.
    const done = (await db().select().from(apps).where(eq(apps.status, 5)))[0]!;
    const doneId = pii.decrypt(done.idEnc);
    await expect(submitApplication(deps(), input({ idNo: doneId, cardCategory: done.cardCategory, districtId: done.districtId }))).rejects.toThrow(REFUSALS.duplicate(api.applyCategoryLabel(done.cardCategory), done.cardNo!));
    // Nothing was stored by the refusals.
    expect((await db().select().from(apps).where(eq(apps.idHash, pii.index('citizen', bad)))).length).toBe(0);
  });

  it('a missing proof is a red line, not a refusal; one application per id and type in flight', async () => {
    const id = citizenIdOf('310104', yearsAgo(16), ++seq, true);
    const a = await submitApplication(deps(), input({ cardCategory: 4, idNo: id }));
    expect(a.precheckGreen).toBe(false);
    expect(a.precheck.find((p) => p.key === 'materials')).toMatchObject({ ok: false, note: '缺少学生证' });
    await expect(submitApplication(deps(), input({ cardCategory: 4, idNo: id }))).rejects.toThrow('该身份证已有办理中的学生卡申请，不能重复提交');
  });

  it('pay moves 待支付 to 待审核 once; cancel before review refunds the fee once; the timeout job cancels the unpaid', async () => {
    const a = await submitApplication(deps(), input());
    expect(a).toMatchObject({ status: 0, payStatus: 0, fee: 2000 });
    const paid = await payApplication(deps(), a.id);
    expect(paid).toMatchObject({ status: 1, payStatus: 1 });
    expect((await payApplication(deps(), a.id)).paidAt?.getTime()).toBe(paid.paidAt?.getTime());
    const cancelled = await cancelApplication(deps(), a.id);
    expect(cancelled).toMatchObject({ status: 6, payStatus: 2 });
    expect(await ledger(a.id)).toHaveLength(1);
    await expect(cancelApplication(deps(), a.id)).rejects.toThrow();
    const unpaid = await submitApplication(deps(), input());
    s.clock.advance(31 * MINUTE);
    const closed = await cancelUnpaid(deps());
    expect(closed).toContain(unpaid.id);
    expect((await stored(unpaid.id)).status).toBe(6);
    expect(await audits('HANDLE_CARD_PAY_TIMEOUT', unpaid.id)).toHaveLength(1);
    await signIn();
  });
});

describe('审核: 通过, 驳回, 制卡失败', () => {
  it('通过 reserves a pool number; a retry with the same key answers the same; another key is refused verbatim; one audit row', async () => {
    const a = await pending();
    const k = key();
    const first = await s.call(api.applyAudit, { token: agent, body: { id: a.id, fromStatus: 1, toStatus: 2, idempotencyKey: k } });
    expect(first.body.code, first.body.msg).toBe(1);
    const cardNo = first.body.data.apply.cardNo!;
    expect(first.body.data).toMatchObject({ apply: { status: 2 }, replayed: false });
    expect((await db().select().from(pool).where(eq(pool.cardNo, cardNo)))[0]).toMatchObject({ state: 1, applicationId: a.id });
    const again = await s.call(api.applyAudit, { token: agent, body: { id: a.id, fromStatus: 1, toStatus: 2, idempotencyKey: k } });
    expect(again.body.data).toMatchObject({ replayed: true, apply: { cardNo } });
    const other = await audit(agent, { id: a.id, fromStatus: 1, toStatus: 2 });
    expect(other.body.msg).toBe(REFUSALS.stale);
    expect(await audits('HANDLE_CARD_APPROVE', a.id)).toHaveLength(1);
    expect((await stored(a.id)).batchNo).toBe(shanghaiDate(s.clock.now()));
  });

  it('驳回 needs a reason of ≥4 characters; refunds the fee once with the application number as key', async () => {
    const a = await pending();
    for (const reason of [undefined, '', '太短了']) {
      const r = await audit(agent, { id: a.id, fromStatus: 1, toStatus: 3, ...(reason === undefined ? {} : { reason }) });
      expect(r.body.msg).toBe(REFUSALS.reason);
    }
    expect((await audit(agent, { id: a.id, fromStatus: 1, toStatus: 3, reason: '字'.repeat(101) })).body.msg).toContain('原因不能超过100个字符');
    expect((await stored(a.id)).status).toBe(1);
    const ok = await audit(agent, { id: a.id, fromStatus: 1, toStatus: 3, reason: api.REJECT_PRESETS[0] });
    expect(ok.body.data.apply).toMatchObject({ status: 3, payStatus: 2, reason: api.REJECT_PRESETS[0] });
    const refunds = await ledger(a.id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 2000, idempotencyKey: a.applyNo, state: 1 });
    expect((await audit(agent, { id: a.id, fromStatus: 1, toStatus: 3, reason: '再驳回一次' })).body.msg).toBe(REFUSALS.stale);
    expect(await ledger(a.id)).toHaveLength(1);
    const logged = await audits('HANDLE_CARD_REJECT', a.id);
    expect(logged).toHaveLength(1);
    expect(logged[0]!.summary).toContain('退还工本费 20.00 元');
  });

  it('制卡失败 (2 → 3) gives the number back to the pool and refunds; 3 is final', async () => {
    const a = await pending();
    const approved = (await audit(manager, { id: a.id, fromStatus: 1, toStatus: 2 })).body.data.apply;
    const failed = await audit(manager, { id: a.id, fromStatus: 2, toStatus: 3, reason: '芯片写入失败' });
    expect(failed.body.data.apply.status).toBe(3);
    expect((await db().select().from(pool).where(eq(pool.cardNo, approved.cardNo!)))[0]).toMatchObject({ state: 0, applicationId: null });
    expect(await ledger(a.id)).toHaveLength(1);
    expect(await audits('HANDLE_CARD_FAIL', a.id)).toHaveLength(1);
  });

  it('refuses: wrong role, wrong district, malformed, missing, a move the flow has not', async () => {
    const a = await pending();
    expect((await audit(viewer, { id: a.id, fromStatus: 1, toStatus: 2 })).status).toBe(403);
    const foreign = await pending({ districtId: huangpu, idNo: citizenIdOf('310101', yearsAgo(30), ++seq, false) });
    expect((await audit(manager, { id: foreign.id, fromStatus: 1, toStatus: 2 })).status).toBe(403);
    expect((await stored(foreign.id)).status).toBe(1);
    expect((await audit(agent, { id: a.id, fromStatus: 1, toStatus: 4 })).body.code).not.toBe(1);
    expect((await audit(agent, { id: a.id, fromStatus: 1 })).body.code).not.toBe(1);
    expect((await s.call(api.applyAudit, { token: agent, body: { id: a.id, fromStatus: 1, toStatus: 2 } })).body.msg).toContain('缺少幂等键');
    expect((await audit(agent, { id: 'x', fromStatus: 1, toStatus: 2 })).body.code).not.toBe(1);
    expect((await audit(agent, { id: a.id, fromStatus: 2, toStatus: 3, reason: '没有的状态' })).body.msg).toBe(REFUSALS.stale);
    expect((await stored(a.id)).status).toBe(1);
  });

  it('an empty pool refuses 通过 verbatim and changes nothing', async () => {
    const a = await pending({ cardCategory: 6 });
    const freeIds = (await db().select({ id: pool.id }).from(pool).where(and(eq(pool.cardCategory, 6), eq(pool.state, 0)))).map((r) => r.id);
    await db().update(pool).set({ state: 2, applicationId: a.id }).where(and(eq(pool.cardCategory, 6), eq(pool.state, 0)));
    const r = await audit(agent, { id: a.id, fromStatus: 1, toStatus: 2 });
    expect(r.body.msg).toBe(REFUSALS.pool);
    expect((await stored(a.id)).status).toBe(1);
    for (const id of freeIds) await db().update(pool).set({ state: 0, applicationId: null }).where(eq(pool.id, id));
  });
});

describe('the review claim (下一条办卡审核)', () => {
  const claim = (token: string, body: Record<string, unknown>, district?: number) => s.call(api.applyClaim, { token, body, district });

  it('Enter takes the next 待审核 (its own claim first); another reviewer is refused with the holder’s name; ROLE_ADMIN takes over (audited); the agent may not', async () => {
    const a = await pending();
    const claimed = await claim(agent, { id: a.id });
    expect(claimed.body.code, claimed.body.msg).toBe(1);
    expect(claimed.body.data).toMatchObject({ id: a.id, status: 1, claimByName: '客服小李' });
    // The detail of the queue: the precheck's green/red list and the materials beside it.
    expect(claimed.body.data?.precheck.length).toBeGreaterThan(0);
    expect(claimed.body.data?.materials.map((m) => m.label)).toEqual(expect.arrayContaining(['证件照', '身份证人像面']));
    const row = await stored(a.id);
    expect(row.claimBy).toBe(claimed.body.data?.claimById);
    expect(row.claimUntil!.getTime() - s.clock.now().getTime()).toBe(api.CLAIM_MS);
    const next = await claim(agent, {});
    expect(next.body.data?.id).toBe(a.id);
    // The list shows who holds it.
    const listed = await s.call(api.applyPageByBody, { token: manager, body: { applyNo: a.applyNo } });
    expect(listed.body.data.content[0]).toMatchObject({ claimByName: '客服小李' });
    // Another reviewer: refused by the claim and by the decision, nothing changed.
    expect((await claim(manager, { id: a.id })).body.msg).toBe(REFUSALS.claimedBy('客服小李'));
    expect((await audit(manager, { id: a.id, fromStatus: 1, toStatus: 2 })).body.msg).toBe(REFUSALS.claimedBy('客服小李'));
    expect((await audit(manager, { id: a.id, fromStatus: 1, toStatus: 3, reason: api.REJECT_PRESETS[1] })).body.msg).toBe(REFUSALS.claimedBy('客服小李'));
    expect(await stored(a.id)).toMatchObject({ status: 1, claimBy: row.claimBy, cardNo: null });
    // The manager's next skips the agent's.
    const managers = await claim(manager, { skip: [] });
    expect(managers.body.data?.id ?? null).not.toBe(a.id);
    if (managers.body.data) await s.call(api.applyRelease, { token: manager, body: { id: managers.body.data.id } });
    // The batch skips it with the holder's name.
    const batch = await s.call(api.applyAuditBatch, { token: manager, body: { ids: [a.id], idempotencyKey: key() } });
    expect(batch.body.data.skipped).toEqual([{ id: a.id, applyNo: a.applyNo, reason: REFUSALS.claimedBy('客服小李') }]);
    // The agent may not take over; the manager (ROLE_ADMIN) may, audited.
    expect((await claim(agent, { id: a.id, takeOver: true })).status).toBe(403);
    const took = await claim(manager, { id: a.id, takeOver: true });
    expect(took.body.data?.claimByName).toBe('徐汇区管理员');
    const logged = await audits('HANDLE_CARD_TAKEOVER', a.id);
    expect(logged).toHaveLength(1);
    expect(logged[0]!.summary).toContain('原由客服小李审核');
    expect((await audit(agent, { id: a.id, fromStatus: 1, toStatus: 2 })).body.msg).toBe(REFUSALS.claimedBy('徐汇区管理员'));
    expect((await audit(agent, { id: a.id, fromStatus: 1, toStatus: 2, takeOver: true })).status).toBe(403);
    // Release: only one's own.
    expect((await s.call(api.applyRelease, { token: agent, body: { id: a.id } })).body.data.released).toBe(false);
    expect((await s.call(api.applyRelease, { token: manager, body: { id: a.id } })).body.data.released).toBe(true);
    expect((await stored(a.id)).claimBy).toBeNull();
  });

  it('a decision clears the claim in its own update; a take-over by deciding is audited; an expired claim is free', async () => {
    const a = await pending();
    expect((await claim(agent, { id: a.id })).body.code).toBe(1);
    const ok = await audit(agent, { id: a.id, fromStatus: 1, toStatus: 3, reason: api.REJECT_PRESETS[0] });
    expect(ok.body.code, ok.body.msg).toBe(1);
    expect(ok.body.data.apply).toMatchObject({ status: 3, claimById: null });
    expect(await stored(a.id)).toMatchObject({ status: 3, claimBy: null, claimUntil: null });
    expect((await claim(agent, { id: a.id })).body.msg).toBe(REFUSALS.stale);

    const b = await pending();
    await claim(agent, { id: b.id });
    const taken = await audit(manager, { id: b.id, fromStatus: 1, toStatus: 2, takeOver: true });
    expect(taken.body.code, taken.body.msg).toBe(1);
    expect(await stored(b.id)).toMatchObject({ status: 2, claimBy: null, claimUntil: null });
    expect(await audits('HANDLE_CARD_TAKEOVER', b.id)).toHaveLength(1);
    expect(await audits('HANDLE_CARD_APPROVE', b.id)).toHaveLength(1);

    const c = await pending();
    await claim(agent, { id: c.id });
    s.clock.advance(api.CLAIM_MS + 60_000);
    await signIn();
    expect((await claim(manager, { id: c.id })).body.data?.claimByName).toBe('徐汇区管理员');
    expect(await audits('HANDLE_CARD_TAKEOVER', c.id)).toHaveLength(0);
    await s.call(api.applyRelease, { token: manager, body: { id: c.id } });
  });

  it('refuses: the viewer, another district, malformed and too many skips', async () => {
    const foreign = await pending({ districtId: huangpu, idNo: citizenIdOf('310101', yearsAgo(31), ++seq, false) });
    expect((await claim(viewer, {})).status).toBe(403);
    expect((await claim(manager, { id: foreign.id })).status).toBe(403);
    expect((await stored(foreign.id)).claimBy).toBeNull();
    expect((await s.call(api.applyRelease, { token: manager, body: { id: foreign.id } })).status).toBe(403);
    expect((await claim(agent, { id: 'x' })).body.code).not.toBe(1);
    expect((await claim(agent, { takeOver: 'yes' })).body.code).not.toBe(1);
    expect((await claim(agent, { skip: Array.from({ length: 101 }, (_, i) => i + 1) })).body.msg).toContain('最多跳过100条');
    expect((await claim(agent, { id: 99_999_999 })).body.code).not.toBe(1);
    // The manager's next never answers another district's application.
    const seen: number[] = [];
    for (;;) {
      const r = await claim(manager, { skip: seen });
      if (!r.body.data) break;
      expect(r.body.data.districtId).toBe(xuhui);
      seen.push(r.body.data.id);
      await s.call(api.applyRelease, { token: manager, body: { id: r.body.data.id } });
      if (seen.length > 60) break;
    }
    expect(seen).not.toContain(foreign.id);
  });
});

describe('批量通过预检全绿', () => {
  it('approves the all-green 待审核, skips the red and the decided, each with one audit row; a retry answers the same', async () => {
    const green = await pending();
    const red = await pending({ cardCategory: 4, idNo: citizenIdOf('310104', yearsAgo(17), ++seq, true) });
    const done = await pending();
    await audit(agent, { id: done.id, fromStatus: 1, toStatus: 3, reason: '证件信息不一致' });
    const k = key();
    const r = await s.call(api.applyAuditBatch, { token: agent, body: { ids: [green.id, red.id, done.id], idempotencyKey: k } });
    expect(r.body.code, r.body.msg).toBe(1);
    expect(r.body.data.approved.map((x) => x.id)).toEqual([green.id]);
    expect(r.body.data.skipped.map((x) => x.id).sort()).toEqual([red.id, done.id].sort());
    expect(r.body.data.skipped.find((x) => x.id === red.id)?.reason).toBe('预检未全绿，请逐条审核');
    expect((await stored(red.id)).status).toBe(1);
    const again = await s.call(api.applyAuditBatch, { token: agent, body: { ids: [green.id], idempotencyKey: k } });
    expect(again.body.data).toMatchObject({ replayed: true, approved: [{ id: green.id }] });
    expect(await audits('HANDLE_CARD_APPROVE', green.id)).toHaveLength(1);
  });

  it('refuses more than 100, none, the viewer, another district', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => i + 1);
    expect((await s.call(api.applyAuditBatch, { token: agent, body: { ids, idempotencyKey: key() } })).body.msg).toContain('一次最多通过100条');
    expect((await s.call(api.applyAuditBatch, { token: agent, body: { ids: [], idempotencyKey: key() } })).body.msg).toContain('请选择申请');
    expect((await s.call(api.applyAuditBatch, { token: viewer, body: { ids: [1], idempotencyKey: key() } })).status).toBe(403);
    const foreign = await pending({ districtId: huangpu, idNo: citizenIdOf('310101', yearsAgo(33), ++seq, false) });
    expect((await s.call(api.applyAuditBatch, { token: manager, body: { ids: [foreign.id], idempotencyKey: key() } })).status).toBe(403);
    expect((await stored(foreign.id)).status).toBe(1);
  });
});

describe('寄出 / 待领取 / 完成', () => {
  it('邮寄 needs a tracking number; the number becomes used; 完成 after; the agent may not ship', async () => {
    const a = await pending();
    const cardNo = (await audit(manager, { id: a.id, fromStatus: 1, toStatus: 2 })).body.data.apply.cardNo!;
    expect((await s.call(api.applyShip, { token: agent, body: { id: a.id, trackingNo: 'SF123' } })).status).toBe(403);
    expect((await s.call(api.applyShip, { token: manager, body: { id: a.id } })).body.msg).toBe(REFUSALS.tracking);
    expect((await s.call(api.applyShip, { token: manager, body: { id: a.id, trackingNo: 'SF 12' } })).body.code).not.toBe(1);
    expect((await s.call(api.applyShip, { token: manager, body: { id: a.id, trackingNo: 'A'.repeat(31) } })).body.code).not.toBe(1);
    expect((await stored(a.id)).status).toBe(2);
    const shipped = await s.call(api.applyShip, { token: manager, body: { id: a.id, trackingNo: 'SF1234567890' } });
    expect(shipped.body.data).toMatchObject({ status: 4, trackingNo: 'SF1234567890' });
    expect((await db().select().from(pool).where(eq(pool.cardNo, cardNo)))[0]?.state).toBe(2);
    expect((await s.call(api.applyShip, { token: manager, body: { id: a.id, trackingNo: 'SF1' } })).body.msg).toBe(REFUSALS.stale);
    expect((await s.call(api.applyComplete, { token: agent, body: { id: a.id } })).status).toBe(403);
    expect((await s.call(api.applyComplete, { token: manager, body: { id: a.id } })).body.data.status).toBe(5);
    expect((await s.call(api.applyComplete, { token: manager, body: { id: a.id } })).body.msg).toBe(REFUSALS.stale);
    expect(await audits('HANDLE_CARD_SHIP', a.id)).toHaveLength(1);
    expect(await audits('HANDLE_CARD_COMPLETE', a.id)).toHaveLength(1);
  });

  it('the autoComplete job completes what went out 15 days ago, once', async () => {
    const a = await pending();
    await audit(manager, { id: a.id, fromStatus: 1, toStatus: 2 });
    await s.call(api.applyShip, { token: manager, body: { id: a.id, trackingNo: 'SF5550001' } });
    s.clock.advance(14 * DAY);
    expect(await completeDelivered(deps())).not.toContain(a.id);
    s.clock.advance(1 * DAY + MINUTE);
    expect(await completeDelivered(deps())).toContain(a.id);
    expect(await completeDelivered(deps())).not.toContain(a.id);
    expect((await stored(a.id)).status).toBe(5);
    expect(await audits('HANDLE_CARD_COMPLETE', a.id)).toHaveLength(1);
    await signIn();
  });

  it('自取 needs 待领取 confirmed', async () => {
    const a = await pending({ delivery: 1, address: null });
    await audit(manager, { id: a.id, fromStatus: 1, toStatus: 2 });
    expect((await s.call(api.applyShip, { token: manager, body: { id: a.id } })).body.msg).toBe('自取办理请确认卡片已到领取点');
    expect((await s.call(api.applyShip, { token: manager, body: { id: a.id, pickupReady: true } })).body.data).toMatchObject({ status: 4, trackingNo: null });
  });
});

describe('材料 (readsOnly, with a reason, no-store, audited)', () => {
  it('opens an image with a reason; refuses without one, a file of another application, another district, the viewer', async () => {
    const a = await pending();
    const msg = (await s.call(api.applyMsg, { token: agent, query: { id: a.id } })).body.data;
    const photoId = msg.materials[0]!.id;
    const r = await s.call(api.applyMaterial, { token: agent, body: { id: a.id, materialId: photoId, reason: '审核核对照片' } });
    expect(r.body.data.dataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const logged = await audits('HANDLE_CARD_MATERIAL', a.id);
    expect(logged).toHaveLength(1);
    expect(logged[0]!.summary).toContain('审核核对照片');
    expect(JSON.stringify(logged[0])).not.toContain('base64');
    expect((await s.call(api.applyMaterial, { token: agent, body: { id: a.id, materialId: photoId } })).body.msg).toContain('请填写查看原因');
    expect((await s.call(api.applyMaterial, { token: agent, body: { id: a.id, materialId: photoId, reason: '看' } })).body.msg).toContain('查看原因至少2个字');
    expect((await s.call(api.applyMaterial, { token: agent, body: { id: a.id, materialId: photoId, reason: '看'.repeat(101) } })).body.msg).toContain('查看原因不能超过100个字');
    const other = await pending();
    expect((await s.call(api.applyMaterial, { token: agent, body: { id: other.id, materialId: photoId, reason: '审核核对照片' } })).body.msg).toBe('材料不存在或已过保存期清除');
    expect((await s.call(api.applyMaterial, { token: viewer, body: { id: a.id, materialId: photoId, reason: '审核核对照片' } })).status).toBe(403);
    const foreign = await pending({ districtId: huangpu, idNo: citizenIdOf('310101', yearsAgo(35), ++seq, false) });
    expect((await s.call(api.applyMaterial, { token: manager, body: { id: foreign.id, materialId: 1, reason: '审核核对照片' } })).status).toBe(403);
    expect(await audits('HANDLE_CARD_MATERIAL', a.id)).toHaveLength(1);
  });

  it('the purge job drops the images 30 days after the final decision and keeps the hash', async () => {
    const a = await pending();
    await audit(agent, { id: a.id, fromStatus: 1, toStatus: 3, reason: '照片不符合要求' });
    const before = (await s.call(api.applyMsg, { token: admin, query: { id: a.id } })).body.data.materials;
    s.clock.advance(29 * DAY);
    expect(await purgeImages(deps())).not.toContain(a.id);
    s.clock.advance(2 * DAY);
    expect(await purgeImages(deps())).toContain(a.id);
    await signIn();
    const after = (await s.call(api.applyMsg, { token: admin, query: { id: a.id } })).body.data;
    expect(after.imagesPurged).toBe(true);
    expect(after.materials.map((m) => [m.sha256, m.purged])).toEqual(before.map((m) => [m.sha256, true]));
    expect((await s.call(api.applyMaterial, { token: admin, body: { id: a.id, materialId: before[0]!.id, reason: '复核材料' } })).body.msg).toBe('材料不存在或已过保存期清除');
  });
});

describe('导出 and 导出制卡文件', () => {
  it('the export is a task with masked personal data', async () => {
    const { sheet } = await exportThroughTask(s, api.applyExport, admin, { status: 1 });
    expect(sheet.rows[0]).toContain('申请号');
    const body = sheet.rows.slice(1);
    expect(body.length).toBeGreaterThan(0);
    const nameCol = sheet.rows[0]!.indexOf('姓名');
    const idCol = sheet.rows[0]!.indexOf('身份证号');
    for (const r of body) {
      expect(r[nameCol]).toMatch(/\*/);
      expect(r[idCol]).toMatch(/\*{6,}/);
    }
  });

  it('the factory file: the day’s approved cards with the name unmasked and the photo; only HANDLE_CARD_FACTORY_EXPORT; a bad date refused', async () => {
    const a = await pending({ name: '赵制卡' });
    const cardNo = (await audit(agent, { id: a.id, fromStatus: 1, toStatus: 2 })).body.data.apply.cardNo!;
    const day = shanghaiDate(s.clock.now());
    expect((await s.call(api.applyFactoryExport, { token: agent, query: { batchDate: day } })).status).toBe(403);
    expect((await s.call(api.applyFactoryExport, { token: manager, query: { batchDate: '2026/01/01' } })).body.msg).toContain('制卡日期应为 YYYY-MM-DD');
    expect((await s.call(api.applyFactoryExport, { token: manager, query: {} as never })).body.code).not.toBe(1);
    const { sheet, task } = await exportThroughTask(s, api.applyFactoryExport, manager, { batchDate: day });
    const row = sheet.rows.find((r) => r.includes(cardNo))!;
    expect(row).toContain('赵制卡');
    expect(row.some((c) => c.startsWith('data:image/svg+xml;base64,'))).toBe(true);
    const logged = await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'HANDLE_CARD_FACTORY_EXPORT'), eq(t.sysLog.target, `export/${task.id}`)));
    expect(logged).toHaveLength(1);
  });
});

describe('办卡设置 and 办卡规则编辑', () => {
  it('lists the district’s settings; reads one by id; scope and role', async () => {
    const mine = (await s.call(api.settingList, { token: manager })).body.data;
    expect(mine).toHaveLength(4);
    expect(mine.every((x) => x.districtId === xuhui)).toBe(true);
    expect((await s.call(api.settingList, { token: admin })).body.data).toHaveLength(12);
    expect((await s.call(api.settingList, { token: viewer })).status).toBe(403);
    const foreign = (await s.call(api.settingList, { token: admin })).body.data.find((x) => x.districtId === huangpu)!;
    expect((await s.call(api.settingById, { token: manager, query: { id: foreign.id } })).status).toBe(403);
    expect((await s.call(api.settingById, { token: manager, query: { id: mine[0]!.id } })).body.data.ruleText).toContain('须知');
  });

  it('saves the form and the 办卡须知 with one audit row each; refuses the agent, bad ages, no delivery mode, too long a text', async () => {
    const st = (await s.call(api.settingList, { token: manager, query: { cardCategory: 4 } })).body.data[0]!;
    const form = { id: st.id, cardCategory: 4, open: true, ageMin: 6, ageMax: 22, feeFen: 500, deliveryModes: [1], materials: ['photo', 'idFront', 'idBack', 'studentCard'], onePerId: true, dailyQuota: 50 };
    expect((await s.call(api.settingSave, { token: agent, body: form })).status).toBe(403);
    expect((await s.call(api.settingSave, { token: manager, body: { ...form, ageMin: 30 } })).body.msg).toContain('最小年龄不能大于最大年龄');
    expect((await s.call(api.settingSave, { token: manager, body: { ...form, deliveryModes: [] } })).body.msg).toContain('请至少选择一种领取方式');
    expect((await s.call(api.settingSave, { token: manager, body: { ...form, feeFen: -1 } })).body.code).not.toBe(1);
    expect((await s.call(api.settingSave, { token: manager, body: { ...form, ruleText: '字'.repeat(5001) } })).body.msg).toContain('办卡须知不能超过5000个字符');
    expect((await s.call(api.settingSave, { token: manager, body: { ...form, cardCategory: 5 } })).body.msg).toBe('卡类型不能修改');
    const { cardCategory: _c, ...missing } = form;
    expect((await s.call(api.settingSave, { token: manager, body: missing })).body.code).not.toBe(1);
    const saved = await s.call(api.settingSave, { token: manager, body: form });
    expect(saved.body.data).toMatchObject({ ageMax: 22, feeFen: 500, deliveryModes: [1], ruleText: st.ruleText });
    const rule = await s.call(api.settingSave, { token: manager, body: { ...form, ruleText: '新的办卡须知' } });
    expect(rule.body.data.ruleText).toBe('新的办卡须知');
    const logged = await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'HANDLE_CARD_SETTING'), eq(t.sysLog.target, `handle-card-setting/${st.id}`)));
    expect(logged).toHaveLength(2);
    expect(logged[1]!.summary).toContain('办卡须知已修改');
    const foreign = (await s.call(api.settingList, { token: admin })).body.data.find((x) => x.districtId === huangpu && x.cardCategory === 4)!;
    expect((await s.call(api.settingSave, { token: manager, body: { ...form, id: foreign.id } })).status).toBe(403);
    // The new age range is what the next submission meets.
    await expect(submitApplication(deps(), input({ cardCategory: 4, idNo: citizenIdOf('310104', yearsAgo(24), ++seq, true), delivery: 1 }))).rejects.toThrow(REFUSALS.age('学生卡', 6, 22));
  });
});
