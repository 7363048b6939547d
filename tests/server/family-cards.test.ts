import { and, desc, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, family } from '../../src/shared/api';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { DEMO_PASSWORD, TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/** 亲情卡: masked lists, unbind and update only with the operator's password (never logged), lockout after 5 wrong. */
let s: TestServer;
let agent: string;
let viewer: string;
let xuhui: number;
const pii = createPii(TEST_PII_KEY);
const db = () => s.database.db;

beforeAll(async () => {
  s = await startTestServer();
  agent = await s.login('agent');
  viewer = await s.login('viewer');
  xuhui = (await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区')))[0]!.id;
});
afterAll(() => s.close());

/** A live binding of 徐汇区 with its card number and the binder's citizen id in clear. */
async function liveBinding(skip = 0) {
  const rows = await db()
    .select({ b: t.familyBindings, cardNo: t.busCards.cardNo, citizenEnc: t.riders.citizenEnc })
    .from(t.familyBindings)
    .innerJoin(t.busCards, eq(t.busCards.id, t.familyBindings.cardId))
    .innerJoin(t.riders, eq(t.riders.id, t.familyBindings.holderId))
    .where(and(eq(t.familyBindings.districtId, xuhui), eq(t.familyBindings.status, 1)))
    .orderBy(t.familyBindings.id);
  const r = rows[skip]!;
  return { id: r.b.id, cardNo: r.cardNo, citizen: pii.decrypt(r.citizenEnc!) };
}

const unbind = (token: string, q: { busCardNo: string; citizenCardNo: string; pwd: string }) => s.call(family.unBind, { token, query: q });

describe('familyCard/bind and renewLog reads', () => {
  it('lists the area\'s bindings with the binder masked, finds one by card or citizen id, and counts them', async () => {
    const page = await s.call(family.bindPage, { token: agent, query: { size: 100 } });
    expect(page.body.data.content.length).toBeGreaterThan(0);
    expect(page.body.data.content.every((b) => b.districtId === xuhui)).toBe(true);
    expect(JSON.stringify(page.body.data)).not.toMatch(/"1\d{10}"|"\d{17}[\dX]"/);
    const live = await liveBinding();
    const byCard = await s.call(family.bindPage, { token: agent, query: { busCardNo: live.cardNo } });
    expect(byCard.body.data.content.map((b) => b.id)).toContain(live.id);
    const byCitizen = await s.call(family.bindPage, { token: agent, query: { citizenCardNo: live.citizen } });
    expect(byCitizen.body.data.content.map((b) => b.id)).toContain(live.id);
    const summary = await s.call(family.bindSummary, { token: agent });
    expect(summary.body.data.total).toBe(page.body.data.totalElements);
    expect(summary.body.data.bound + summary.body.data.unbound).toBe(summary.body.data.total);
    const renewals = await s.call(family.renewLogPage, { token: agent, query: { size: 1000 } });
    const renewSum = await s.call(family.renewLogSummary, { token: agent });
    expect(renewSum.body.data.count).toBe(renewals.body.data.totalElements);
    expect(renewSum.body.data.amount).toBe(renewals.body.data.content.reduce((a, r) => a + r.amount, 0));
  });

  it('answers the card type dictionary and checks a card against the card centre', async () => {
    expect((await s.call(family.cardTypeDict, { token: viewer })).status).toBe(403);
    const dict = await s.call(family.cardTypeDict, { token: agent });
    expect(dict.body.data).toContainEqual({ value: 5, label: '老年卡' });
    const [senior] = await db().select().from(t.busCards).where(and(eq(t.busCards.category, 5), eq(t.busCards.state, 1))).limit(1);
    expect((await s.call(family.checkCard, { token: agent, query: { busCardNo: senior!.cardNo } })).body.data).toMatchObject({ exists: true, bindable: true, reason: null });
    const [anon] = await db().select().from(t.busCards).where(and(eq(t.busCards.category, 3), eq(t.busCards.state, 1))).limit(1);
    expect((await s.call(family.checkCard, { token: agent, query: { busCardNo: anon!.cardNo } })).body.data).toMatchObject({ bindable: false, reason: '只有学生卡和老年卡可以绑定为亲情卡' });
    expect((await s.call(family.checkCard, { token: agent, query: { busCardNo: '9999999999999999' } })).body.data).toMatchObject({ exists: false, reason: '卡中心查无此卡' });
  });
});

describe('unBind and updateBind with the operator\'s password', () => {
  it('unbinds with the right password, audited without it; the wrong one changes nothing', async () => {
    const live = await liveBinding();
    const wrong = await unbind(agent, { busCardNo: live.cardNo, citizenCardNo: live.citizen, pwd: 'Wrong-pass-1' });
    expect(wrong.body).toMatchObject({ code: 0, msg: '登录密码错误', data: { errors: [{ field: 'pwd', msg: '登录密码错误' }] } });
    expect((await db().select().from(t.familyBindings).where(eq(t.familyBindings.id, live.id)))[0]!.status).toBe(1);
    const ok = await unbind(agent, { busCardNo: live.cardNo, citizenCardNo: live.citizen, pwd: DEMO_PASSWORD });
    expect(ok.body.code, ok.body.msg).toBe(1);
    expect(ok.body.data).toMatchObject({ id: live.id, status: 0 });
    const [row] = await db().select().from(t.sysLog).where(eq(t.sysLog.target, `family-binding/${live.id}`)).orderBy(desc(t.sysLog.id));
    expect(row).toMatchObject({ operationType: 'FAMILY_UNBIND', operatorLogin: 'agent' });
    const everything = JSON.stringify(await db().select().from(t.sysLog));
    expect(everything).not.toContain(DEMO_PASSWORD);
    expect(everything).not.toContain('Wrong-pass-1');
    expect(everything).not.toContain(live.citizen);
    const again = await unbind(agent, { busCardNo: live.cardNo, citizenCardNo: live.citizen, pwd: DEMO_PASSWORD });
    expect(again.body).toMatchObject({ code: 0, msg: '没有找到该卡与该身份证号的有效绑定' });
  });

  it('updates the relation of a live binding', async () => {
    const live = await liveBinding();
    const res = await s.call(family.updateBind, { token: agent, query: { pwd: DEMO_PASSWORD }, body: { id: live.id, relation: '外孙女' } });
    expect(res.body.data.relation).toBe('外孙女');
    expect((await db().select().from(t.familyBindings).where(eq(t.familyBindings.id, live.id)))[0]!.relation).toBe('外孙女');
  });

  it('refuses a reader without FAMILY_CARD_EDIT (403) and another district\'s binding (403)', async () => {
    const live = await liveBinding();
    expect((await unbind(viewer, { busCardNo: live.cardNo, citizenCardNo: live.citizen, pwd: DEMO_PASSWORD })).status).toBe(403);
    const [foreign] = await db().select().from(t.familyBindings).where(and(sql`${t.familyBindings.districtId} <> ${xuhui}`, eq(t.familyBindings.status, 1))).limit(1);
    expect((await s.call(family.updateBind, { token: agent, query: { pwd: DEMO_PASSWORD }, body: { id: foreign!.id, relation: '父亲' } })).status).toBe(403);
    expect((await db().select().from(t.familyBindings).where(eq(t.familyBindings.id, foreign!.id)))[0]!.relation).toBe(foreign!.relation);
  });

  it('5 wrong passwords lock the operator out for 30 minutes (the session ends): nothing is unbound, and the right password no longer logs in', async () => {
    const live = await liveBinding();
    for (let i = 0; i < 5; i++) await unbind(agent, { busCardNo: live.cardNo, citizenCardNo: live.citizen, pwd: `Wrong-${i}-pass` });
    const after = await unbind(agent, { busCardNo: live.cardNo, citizenCardNo: live.citizen, pwd: DEMO_PASSWORD });
    expect(after.status).toBe(401);
    const relogin = await s.call(auth.authenticate, { body: { username: 'agent', password: DEMO_PASSWORD } });
    expect(relogin.body.code).not.toBe(1);
    expect(relogin.body.msg).toMatch(/锁定|分钟/);
    expect((await db().select().from(t.familyBindings).where(eq(t.familyBindings.id, live.id)))[0]!.status).toBe(1);
    expect(await db().select().from(t.sysLog).where(like(t.sysLog.summary, '%Wrong-%'))).toEqual([]);
  });
});

describe('the renewals export, city-wide', () => {
  it('walks its keyset (renewed_at, id) on an index of its own, with no district to lead with', async () => {
    const after = { at: '2026-01-01 00:00:00+08', id: 0 };
    const plan = await db().transaction(async (tx) => {
      // The seed is small enough for a sequential scan to win on cost; what matters is that an index can serve the walk.
      await tx.execute(sql`set local enable_seqscan = off`);
      const res = await tx.execute(
        sql`explain select id from family_renewals where renewed_at >= ${after.at}::timestamptz and (renewed_at, id) > (${after.at}::timestamptz, ${after.id}) order by renewed_at, id limit 500`,
      );
      return (res as unknown as { rows: Record<string, string>[] }).rows.map((r) => Object.values(r)[0]).join('\n');
    });
    expect(plan).toContain('family_renewals_renewed_idx');
    expect(plan).not.toMatch(/\bSort\b/);
  });
});
