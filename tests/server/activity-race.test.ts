import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/shared/api/activity';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { activities, activityCounters, activityLimits } from '../../src/server/modules/activity/schema';
import { settleRide } from '../../src/server/modules/activity/service';
import { DAY } from '../support/clock';
import { skipWithoutPostgres } from '../support/test-db';
import { type TestServer, startTestServer } from '../support/test-server';

/**
 * 活动管理's races on PostgreSQL (a pool of connections, real row locks, second wave §12): concurrent
 * settlements near the budget never take it past by one fen; 20 simultaneous taps of one card keep
 * its daily limit exact; a settlement racing 暂停 re-checks `enabled` in its own update.
 */
describe.skipIf(skipWithoutPostgres('activity races (budget to the fen, 20 taps of one card, settlement vs 暂停)'))('on PostgreSQL', () => {
  let s: TestServer;
  let admin: string;
  let area: number;
  const db = () => s.database.db;
  const deps = () => ({ db: s.database.db, clock: s.clock }) as unknown as AppDeps;
  let seq = 0;

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login('admin');
    // The third district: no seeded activity runs there.
    area = (await db().select({ id: t.districts.id }).from(t.districts).orderBy(asc(t.districts.sort)))[2]!.id;
  });
  afterAll(() => s?.close());

  const make = async (over: Partial<typeof activities.$inferInsert> = {}) => {
    const now = s.clock.now();
    const [row] = await db()
      .insert(activities)
      .values({ districtId: area, name: `并发活动${++seq}`, type: 1, rule: { rate: 500 }, lineCodes: [`RACE${seq}`], startAt: new Date(now.getTime() - DAY), endAt: new Date(now.getTime() + 30 * DAY), enabled: true, enabledAt: now, budgetFen: 1_000, priority: 5, stackable: false, createdAt: now, updatedAt: now, ...over })
      .returning();
    return row!;
  };
  const tap = (a: typeof activities.$inferSelect, cardNo: string, amount = 200) =>
    settleRide(deps(), { rideAt: s.clock.now(), districtId: area, lineCode: a.lineCodes[0]!, cardNo, cardCategory: 2, payChannel: '乘车码', amount });
  const stored = async (id: number) => (await db().select().from(activities).where(eq(activities.id, id)))[0]!;
  const usageSum = async (id: number) => {
    const res = (await db().execute(sql`select coalesce(sum(discount_fen), 0)::bigint as s, count(*)::int as n from activity_usages where activity_id = ${id}`)) as unknown as { rows: { s: string; n: number }[] };
    return { sum: Number(res.rows[0]!.s), n: res.rows[0]!.n };
  };

  it('60 settlements of 100 fen each against a budget of 1,037 fen: exactly 1,037 given, never one fen more, the usages agree', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await make({ budgetFen: 1_037 });
      const answers = await Promise.all(Array.from({ length: 60 }, (_, k) => tap(a, `RACE-BUDGET-${round}-${k}`)));
      const given = answers.reduce((sum, r) => sum + r.discountFen, 0);
      const after = await stored(a.id);
      expect(given).toBe(1_037);
      expect(after.usedFen).toBe(1_037);
      expect(await usageSum(a.id)).toEqual({ sum: 1_037, n: answers.filter((r) => r.discountFen > 0).length });
      // Ten full discounts and one of what was left (37 fen); the rest none.
      expect(answers.filter((r) => r.discountFen === 100)).toHaveLength(10);
      expect(answers.filter((r) => r.discountFen === 37)).toHaveLength(1);
    }
  });

  it('20 simultaneous taps of one card against a daily limit of 3 (and 250 fen): exactly 3 discounted, the counter exact', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await make({ budgetFen: 1_000_000 });
      const now = s.clock.now();
      const [limit] = await db().insert(activityLimits).values({ districtId: area, activityId: a.id, dimension: 'card', period: 'day', maxTimes: 3, maxFen: 250, enabled: true, createdAt: now, updatedAt: now }).returning();
      const card = `RACE-CARD-${round}`;
      const answers = await Promise.all(Array.from({ length: 20 }, () => tap(a, card)));
      const got = answers.map((r) => r.discountFen).filter((d) => d > 0).sort((x, y) => y - x);
      // 100 + 100 + 50: the third is capped by the 250 fen.
      expect(got).toEqual([100, 100, 50]);
      const [counter] = await db().select().from(activityCounters).where(eq(activityCounters.key, `limit:${limit!.id}`));
      expect(counter).toMatchObject({ subject: `card:${card}`, times: 3, fen: 250 });
      expect((await stored(a.id)).usedFen).toBe(250);
      expect(await usageSum(a.id)).toEqual({ sum: 250, n: 3 });
    }
  });

  it('settlements racing 暂停: every one that committed before the pause counted, none after; used equals the usages', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await make({ budgetFen: 1_000_000 });
      const taps = Array.from({ length: 15 }, (_, k) => tap(a, `RACE-PAUSE-${round}-${k}`));
      const pause = s.call(api.activityUpdateStatus, { token: admin, body: { id: a.id, action: '暂停', reason: '并发暂停' } });
      const [paused, ...answers] = await Promise.all([pause, ...taps]);
      expect(paused.body.code).toBe(1);
      const after = await stored(a.id);
      expect(after.enabled).toBe(false);
      const given = answers.reduce((sum, r) => sum + r.discountFen, 0);
      expect(after.usedFen).toBe(given);
      expect((await usageSum(a.id)).sum).toBe(given);
      // After the pause has committed, a settlement gives nothing.
      expect((await tap(a, `RACE-PAUSE-after-${round}`)).discountFen).toBe(0);
      expect((await stored(a.id)).usedFen).toBe(given);
      const logs = await db().select().from(t.sysLog).where(eq(t.sysLog.target, `activity/${a.id}`));
      expect(logs.map((l) => l.operationType)).toEqual(['ACTIVITY_PAUSE']);
    }
  });
});
