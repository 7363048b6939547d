import { and, asc, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card } from '../../src/shared/api';
import { isValidCitizenId } from '../../src/shared/domain/citizen-id';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/** Riders and cards: sealed at rest, masked in every answer, revealed only with a reason and the button. */
let s: TestServer;
let admin: string;
let manager: string;
let agent: string;
let viewer: string;
let xuhui: number;
const pii = createPii(TEST_PII_KEY);
const db = () => s.database.db;

beforeAll(async () => {
  s = await startTestServer();
  [admin, manager, agent, viewer] = (await Promise.all(['admin', 'manager', 'agent', 'viewer'].map((u) => s.login(u)))) as [string, string, string, string];
  xuhui = (await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区')))[0]!.id;
});
afterAll(() => s.close());

/** A verified rider of 徐汇区 holding a card of 徐汇区, in the clear (the test holds the key). */
async function knownRider() {
  const [found] = await db()
    .select({ r: t.riders })
    .from(t.riders)
    .innerJoin(t.busCards, and(eq(t.busCards.riderId, t.riders.id), eq(t.busCards.districtId, xuhui)))
    .where(and(eq(t.riders.districtId, xuhui), eq(t.riders.realName, 1), isNotNull(t.riders.citizenEnc)))
    .orderBy(asc(t.riders.id))
    .limit(1);
  const r = found!.r;
  return { row: r, phone: pii.decrypt(r.phoneEnc), citizen: pii.decrypt(r.citizenEnc!), name: pii.decrypt(r.nameEnc!) };
}

/** A whole value, not digits inside a card number: as JSON strings. */
const PHONE = /"1\d{10}"/;
const CITIZEN = /"\d{17}[\dXx]"/;

describe('the seeded desk', () => {
  it('has every card state and category, valid citizen ids, seniors old and students young', async () => {
    const states = await db().selectDistinct({ v: t.busCards.state }).from(t.busCards);
    const categories = await db().selectDistinct({ v: t.busCards.category }).from(t.busCards);
    expect(states.map((x) => x.v).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(categories.map((x) => x.v).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    const held = await db().select({ category: t.busCards.category, citizen: t.riders.citizenEnc }).from(t.busCards).innerJoin(t.riders, eq(t.riders.id, t.busCards.riderId)).where(isNotNull(t.riders.citizenEnc));
    expect(held.length).toBeGreaterThan(50);
    const born = (category: number) => held.filter((h) => h.category === category).map((h) => Number(pii.decrypt(h.citizen!).slice(6, 10)));
    for (const h of held) {
      const id = pii.decrypt(h.citizen!);
      expect(isValidCitizenId(id), id).toBe(true);
    }
    // Seniors (老年卡, 5) and students (学生卡, 4) are both among the holders, so both bounds are checked.
    expect(born(5).length).toBeGreaterThan(0);
    expect(Math.max(...born(5))).toBeLessThanOrEqual(1960);
    expect(born(4).length).toBeGreaterThan(0);
    expect(Math.min(...born(4))).toBeGreaterThanOrEqual(2006);
  });

  it('stores no phone, citizen id or name in clear: the raw rows hold only sealed values and indexes', async () => {
    const rows = await db().execute(sql`select * from riders`);
    const text = JSON.stringify((rows as unknown as { rows: unknown[] }).rows);
    expect(text.length).toBeGreaterThan(10_000);
    expect(text).not.toMatch(PHONE);
    expect(text).not.toMatch(CITIZEN);
    const { name } = await knownRider();
    expect(text).not.toContain(name);
  });
});

describe('wx-user/page and summary', () => {
  it('masks every phone, citizen id and name, for every reader; refuses an account without the menu', async () => {
    expect((await s.call(card.riderPage, { token: viewer, query: { size: 100 } })).status).toBe(403);
    for (const token of [admin, manager, agent]) {
      const res = await s.call(card.riderPage, { token, query: { size: 100 } });
      expect(res.body.code).toBe(1);
      const text = JSON.stringify(res.body.data);
      expect(text).not.toMatch(PHONE);
      expect(text).not.toMatch(CITIZEN);
      const rows = res.body.data.content;
      for (const r of rows) expect(r.phone).toMatch(/^1\d{2}\*{4}\d{4}$/);
      // Unverified riders have neither; the page holds verified ones too, so the masks are checked.
      const ids = rows.flatMap((r) => (r.citizenId === null ? [] : [r.citizenId]));
      const names = rows.flatMap((r) => (r.name === null ? [] : [r.name]));
      expect(ids.length).toBeGreaterThan(0);
      expect(names.length).toBeGreaterThan(0);
      for (const v of ids) expect(v).toMatch(/^\d{3}\*{11}\d{3}[\dX]$/);
      for (const v of names) expect(v).toMatch(/^\p{Script=Han}\*+$/u);
    }
  });

  it('finds a rider by the exact phone (spaces and dashes allowed) or citizen id, through the blind index', async () => {
    const { row, phone, citizen } = await knownRider();
    const spaced = `${phone.slice(0, 3)} ${phone.slice(3, 7)}-${phone.slice(7)}`;
    const byPhone = await s.call(card.riderPage, { token: agent, query: { phone: spaced } });
    expect(byPhone.body.data.content.map((r) => r.id)).toEqual([row.id]);
    const byId = await s.call(card.riderPage, { token: agent, query: { citizenCardNo: citizen.toLowerCase() } });
    expect(byId.body.data.content.map((r) => r.id)).toEqual([row.id]);
  });

  it('counts riders, verified, abnormal and cards of the area', async () => {
    const res = await s.call(card.riderSummary, { token: manager });
    const [n] = await db().select({ n: sql<number>`count(*)::int` }).from(t.riders).where(eq(t.riders.districtId, xuhui));
    expect(res.body.data.total).toBe(n!.n);
    expect(res.body.data.realName).toBeLessThanOrEqual(res.body.data.total);
    expect(res.body.data.cards).toBeGreaterThan(0);
  });
});

describe('wx-user/getShiMingXinXiById: the reveal', () => {
  it('shows one rider in full to a holder of RIDER_REVEAL with a reason, no-store, logging the reason and never the values', async () => {
    const { row, phone, citizen, name } = await knownRider();
    const res = await s.call(card.riderReveal, { token: agent, query: { id: row.id, reason: '乘客来电核实身份' } });
    expect(res.body.data).toEqual({ id: row.id, phone, citizenId: citizen, name });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const [log] = await db().select().from(t.sysLog).where(eq(t.sysLog.operationType, 'RIDER_REVEAL')).orderBy(desc(t.sysLog.id)).limit(1);
    expect(log).toMatchObject({ operatorLogin: 'agent', target: `rider/${row.id}`, targetDistrictId: xuhui });
    const logged = JSON.stringify(log);
    expect(logged).toContain('乘客来电核实身份');
    for (const v of [phone, citizen, name]) expect(logged).not.toContain(v);
  });

  it('refuses without the button (403), without a reason (400), and another district\'s rider (403)', async () => {
    const { row } = await knownRider();
    expect((await s.call(card.riderReveal, { token: viewer, query: { id: row.id, reason: '乘客来电核实身份' } })).status).toBe(403);
    const short = await s.call(card.riderReveal, { token: agent, query: { id: row.id, reason: '看看' } });
    expect(short.status).toBe(400);
    expect(short.body.msg).toContain('查看原因至少4个字');
    const [foreign] = await db().select().from(t.riders).where(sql`${t.riders.districtId} <> ${xuhui}`).limit(1);
    expect((await s.call(card.riderReveal, { token: agent, query: { id: foreign!.id, reason: '乘客来电核实身份' } })).status).toBe(403);
  });
});

describe('card/lookup', () => {
  it('finds a card by its number, a rider and their cards by phone or citizen id, masked', async () => {
    const { row, phone, citizen } = await knownRider();
    const [own] = await db().select().from(t.busCards).where(eq(t.busCards.riderId, row.id)).limit(1);
    expect(own).toBeDefined();
    const [any] = await db().select().from(t.busCards).where(eq(t.busCards.districtId, xuhui)).limit(1);
    const byCard = await s.call(card.cardLookup, { token: agent, body: { q: any!.cardNo } });
    expect(byCard.body.data.cards.map((c) => c.cardNo)).toEqual([any!.cardNo]);
    for (const q of [phone, `${phone.slice(0, 3)}-${phone.slice(3, 7)}-${phone.slice(7)}`, citizen]) {
      const res = await s.call(card.cardLookup, { token: agent, body: { q } });
      expect(res.body.data.riders.map((r) => r.id), q).toEqual([row.id]);
      expect(res.body.data.cards.map((c) => c.id)).toContain(own!.id);
      const text = JSON.stringify(res.body.data);
      expect(text).not.toMatch(PHONE);
      expect(text).not.toMatch(CITIZEN);
    }
  });

  it('finds nothing for a citizen id with a wrong check character, or a card of another district', async () => {
    const { citizen } = await knownRider();
    const wrong = citizen.slice(0, 17) + (citizen[17] === '1' ? '2' : '1');
    expect((await s.call(card.cardLookup, { token: agent, body: { q: wrong } })).body.data.riders).toEqual([]);
    const [foreign] = await db().select().from(t.busCards).where(sql`${t.busCards.districtId} <> ${xuhui}`).limit(1);
    expect((await s.call(card.cardLookup, { token: agent, body: { q: foreign!.cardNo } })).body.data.cards).toEqual([]);
    expect((await s.call(card.cardLookup, { token: admin, body: { q: foreign!.cardNo } })).body.data.cards).toHaveLength(1);
    expect((await s.call(card.cardLookup, { token: agent, body: { q: '12' } })).status).toBe(400);
  });
});

describe('card/view', () => {
  it('shows the card, its holder, who binds it and its orders, all masked', async () => {
    const [bound] = await db()
      .select({ cardId: t.familyBindings.cardId })
      .from(t.familyBindings)
      .innerJoin(t.busCards, eq(t.busCards.id, t.familyBindings.cardId))
      .where(eq(t.busCards.districtId, xuhui))
      .limit(1);
    const [c] = await db().select().from(t.busCards).where(eq(t.busCards.id, bound!.cardId));
    const res = await s.call(card.cardView, { token: agent, body: { cardNo: c!.cardNo } });
    expect(res.body.code, res.body.msg).toBe(1);
    expect(res.body.data.card).toMatchObject({ cardNo: c!.cardNo, state: c!.state, category: c!.category, balance: c!.balance });
    expect(res.body.data.holder?.id ?? null).toBe(c!.riderId);
    const stored = await db().select().from(t.familyBindings).where(eq(t.familyBindings.cardId, c!.id));
    expect(res.body.data.bindings.map((b) => b.holder.id).sort()).toEqual(stored.map((b) => b.holderId).sort());
    const orders = await db().select().from(t.discountOrders).where(eq(t.discountOrders.cardId, c!.id));
    expect(res.body.data.orders).toHaveLength(Math.min(20, orders.length));
    const [n] = await db().select({ n: sql<number>`count(*)::int` }).from(t.rideRecords).where(eq(t.rideRecords.cardNo, c!.cardNo));
    expect(res.body.data.rides.length).toBe(Math.min(10, Number(n!.n)));
    const text = JSON.stringify(res.body.data);
    expect(text).not.toMatch(PHONE);
    expect(text).not.toMatch(CITIZEN);
  });

  it('refuses a card of another district (403), an unknown card (404) and a malformed number (400)', async () => {
    const [foreign] = await db().select().from(t.busCards).where(sql`${t.busCards.districtId} <> ${xuhui}`).limit(1);
    expect((await s.call(card.cardView, { token: agent, body: { cardNo: foreign!.cardNo } })).status).toBe(403);
    expect((await s.call(card.cardView, { token: agent, body: { cardNo: '9999999999999999' } })).body).toMatchObject({ code: 404, msg: '卡片不存在' });
    const bad = await s.call(card.cardView, { token: agent, body: { cardNo: '3101' } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('卡号应为16位数字');
  });

  it('says which district a refused card belongs to, and nothing else of the card; the refusal is audited', async () => {
    const [foreign] = await db()
      .select({ cardNo: t.busCards.cardNo, districtId: t.busCards.districtId, districtName: t.districts.name })
      .from(t.busCards)
      .innerJoin(t.districts, eq(t.districts.id, t.busCards.districtId))
      .where(and(sql`${t.busCards.districtId} <> ${xuhui}`, isNotNull(t.busCards.riderId)))
      .limit(1);
    const res = await s.call(card.cardView, { token: agent, body: { cardNo: foreign!.cardNo } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 403,
      msg: `该卡属于 ${foreign!.districtName}，当前账号无权查看`,
      data: { districtId: foreign!.districtId, districtName: foreign!.districtName },
    });
    const [denied] = await db().select().from(t.sysLog).where(eq(t.sysLog.operationType, 'DENIED')).orderBy(desc(t.sysLog.id)).limit(1);
    expect(denied?.summary).toContain(`该卡属于 ${foreign!.districtName}，当前账号无权查看`);
    expect(denied?.summary).toContain('card.view');

    // The admin on 全部区域 sees it; with 徐汇区 chosen, the same refusal.
    expect((await s.call(card.cardView, { token: admin, body: { cardNo: foreign!.cardNo } })).body.code).toBe(1);
    const scoped = await s.call(card.cardView, { token: admin, headers: { districtid: String(xuhui) }, body: { cardNo: foreign!.cardNo } });
    expect(scoped.body).toMatchObject({ code: 403, data: { districtId: foreign!.districtId } });
  });
});

describe('busCard/page and summary: the card list', () => {
  it('pages the area\'s cards by number prefix, state and category, holders masked', async () => {
    const [c] = await db().select().from(t.busCards).where(and(eq(t.busCards.districtId, xuhui), isNotNull(t.busCards.riderId))).orderBy(asc(t.busCards.id)).limit(1);
    const prefix = c!.cardNo.slice(0, 12);
    const res = await s.call(card.cardPage, { token: agent, query: { cardNo: prefix, size: 50 } });
    expect(res.body.code).toBe(1);
    const page = res.body.data!;
    const [expected] = await db().select({ n: sql<number>`count(*)::int` }).from(t.busCards).where(and(eq(t.busCards.districtId, xuhui), sql`${t.busCards.cardNo} like ${`${prefix}%`}`));
    expect(page.totalElements).toBe(Number(expected!.n));
    expect(page.content.every((x) => x.cardNo.startsWith(prefix) && x.districtId === xuhui)).toBe(true);
    expect(page.content.map((x) => x.cardNo)).toContain(c!.cardNo);
    expect(JSON.stringify(page)).not.toMatch(PHONE);
    const [odd] = await db().select().from(t.busCards).where(and(eq(t.busCards.districtId, xuhui), sql`${t.busCards.state} <> 1`)).limit(1);
    const some = await s.call(card.cardPage, { token: agent, query: { state: String(odd!.state), category: String(odd!.category), size: 20 } });
    expect(some.body.data!.content.map((x) => x.cardNo)).toContain(odd!.cardNo);
    expect(some.body.data!.content.every((x) => x.state === odd!.state && x.category === odd!.category)).toBe(true);
  });

  it('counts the area\'s cards by state, and refuses a prefix that is not digits', async () => {
    const res = await s.call(card.cardStateCounts, { token: agent });
    const [n] = await db().select({ n: sql<number>`count(*)::int` }).from(t.busCards).where(eq(t.busCards.districtId, xuhui));
    expect(res.body.data!.total).toBe(Number(n!.n));
    expect(res.body.data!.byState.reduce((a, r) => a + r.count, 0)).toBe(Number(n!.n));
    const bad = await s.call(card.cardPage, { token: agent, query: { cardNo: '31a' } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('卡号只能是数字');
  });
});

describe('wx-user/resolveAbnormal: ycOrder', () => {
  const abnormal = async (district: 'own' | 'foreign') => {
    const [r] = await db().select().from(t.riders).where(and(eq(t.riders.state, 0), district === 'own' ? eq(t.riders.districtId, xuhui) : sql`${t.riders.districtId} <> ${xuhui}`)).orderBy(asc(t.riders.id)).limit(1);
    return r!;
  };

  it('clears the abnormal flag once, logging the note and the old reason, never the phone', async () => {
    const r = await abnormal('own');
    const res = await s.call(card.riderResolve, { token: agent, body: { id: r.id, note: '已电话核实本人' } });
    expect(res.body.code).toBe(1);
    expect(res.body.data).toMatchObject({ id: r.id, state: 1, abnormalReason: null });
    const [after] = await db().select().from(t.riders).where(eq(t.riders.id, r.id));
    expect(after).toMatchObject({ state: 1, abnormalReason: null });
    const [log] = await db().select().from(t.sysLog).where(eq(t.sysLog.operationType, 'RIDER_RESOLVE')).orderBy(desc(t.sysLog.id)).limit(1);
    expect(log).toMatchObject({ operatorLogin: 'agent', target: `rider/${r.id}`, targetDistrictId: xuhui });
    expect(JSON.stringify(log)).toContain('已电话核实本人');
    expect(JSON.stringify(log)).toContain(r.abnormalReason!);
    expect(JSON.stringify(log)).not.toContain(pii.decrypt(r.phoneEnc));
    const again = await s.call(card.riderResolve, { token: agent, body: { id: r.id, note: '已电话核实本人' } });
    expect(again.body).toMatchObject({ code: 0, msg: '该乘客已是正常状态，无需处理' });
  });

  it('refuses without ycOrder (403), another district\'s rider (403), a short note (400), and changes nothing', async () => {
    const r = await abnormal('own');
    expect((await s.call(card.riderResolve, { token: viewer, body: { id: r.id, note: '已电话核实本人' } })).status).toBe(403);
    const foreign = await abnormal('foreign');
    expect((await s.call(card.riderResolve, { token: agent, body: { id: foreign.id, note: '已电话核实本人' } })).status).toBe(403);
    const short = await s.call(card.riderResolve, { token: agent, body: { id: r.id, note: '好' } });
    expect(short.status).toBe(400);
    expect(short.body.msg).toContain('处理说明至少4个字');
    const rows = await db().select().from(t.riders).where(sql`${t.riders.id} in (${r.id}, ${foreign.id})`);
    expect(rows.every((x) => x.state === 0)).toBe(true);
  });
});
