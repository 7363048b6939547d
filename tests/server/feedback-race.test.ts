import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fb from '../../src/shared/api/feedback';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { submitFeedback } from '../../src/server/modules/notice-report/feedback-service';
import { feedback } from '../../src/server/modules/notice-report/schema';
import { MINUTE } from '../support/clock';
import { skipWithoutPostgres } from '../support/test-db';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/**
 * 意见反馈's races on PostgreSQL (a pool of connections, real row locks): two handlers answering one
 * item at once, two claiming it, and two cluster replies over overlapping items.
 */
describe.skipIf(skipWithoutPostgres('feedback races (two replies, two claims, overlapping cluster replies)'))('on PostgreSQL', () => {
  let s: TestServer;
  let agent: string;
  let manager: string;
  let rider: number;
  const db = () => s.database.db;
  const deps = () => ({ db: s.database.db, clock: s.clock, pii: createPii(TEST_PII_KEY) }) as unknown as AppDeps;

  beforeAll(async () => {
    s = await startTestServer();
    [agent, manager] = await Promise.all([s.login('agent'), s.login('manager')]);
    const xuhui = (await db().select().from(t.districts)).find((d) => d.name === '徐汇区')!.id;
    rider = (await db().select().from(t.riders).where(eq(t.riders.districtId, xuhui)).limit(1))[0]!.id;
  });
  afterAll(() => s?.close());

  const make = (over: Partial<Parameters<typeof submitFeedback>[1]> = {}) => submitFeedback(deps(), { riderId: rider, category: 2, content: '司机急刹车', ...over });
  const audits = (type: string, ids: number[]) =>
    db()
      .select()
      .from(t.sysLog)
      .where(and(eq(t.sysLog.operationType, type), inArray(t.sysLog.target, ids.map((id) => `feedback/${id}`))));
  const stored = async (id: number) => (await db().select().from(feedback).where(eq(feedback.id, id)))[0]!;

  it('two handlers reply at once: one reply is stored, the other is told it was handled, one audit row', async () => {
    for (let round = 0; round < 5; round++) {
      const id = await make();
      const [a, b] = await Promise.all([
        s.call(fb.feedbackReply, { token: agent, body: { id, fromStatus: 0, reply: '客服的回复' } }),
        s.call(fb.feedbackReply, { token: manager, body: { id, fromStatus: 0, reply: '管理员的回复' } }),
      ]);
      expect([a.body.code, b.body.code].sort()).toEqual([0, 1]);
      const loser = [a, b].find((r) => r.body.code === 0)!;
      expect(loser.body.msg).toMatch(/^(该反馈已被处理，请刷新后查看|该反馈正由.+处理)$/);
      const winner = [a, b].find((r) => r.body.code === 1)!;
      expect((await stored(id)).reply).toBe(winner.body.data.reply);
      expect(await audits('FEEDBACK_REPLY', [id])).toHaveLength(1);
    }
  });

  it('two claims at once: one handler holds it, the other is told who, one audit row', async () => {
    for (let round = 0; round < 5; round++) {
      const id = await make();
      const [a, b] = await Promise.all([s.call(fb.feedbackAssign, { token: agent, body: { id } }), s.call(fb.feedbackAssign, { token: manager, body: { id } })]);
      expect([a.body.code, b.body.code].sort()).toEqual([0, 1]);
      const winner = [a, b].find((r) => r.body.code === 1)!;
      const loser = [a, b].find((r) => r.body.code === 0)!;
      expect(loser.body.msg).toBe(`该反馈正由${winner.body.data.handlerName}处理`);
      expect((await stored(id)).handlerId).toBe(winner.body.data.handlerId);
      expect(await audits('FEEDBACK_ASSIGN', [id])).toHaveLength(1);
    }
  });

  it('two cluster replies over the same items: each item answered once, no deadlock', async () => {
    const at = new Date(s.clock.now().getTime() - 30 * MINUTE);
    const bus = `沪B-R${at.getTime() % 100000}`;
    const ids = await Promise.all([0, 5, 10, 15].map((m) => make({ lineCode: '56', busNo: bus, occurredAt: new Date(at.getTime() + m * MINUTE) })));
    const [first, second] = [ids[0]!, ids[3]!];
    const [a, b] = await Promise.all([
      s.call(fb.feedbackReply, { token: agent, body: { id: first, fromStatus: 0, reply: '合并回复一', clusterIds: [...ids].reverse() } }),
      s.call(fb.feedbackReply, { token: manager, body: { id: second, fromStatus: 0, reply: '合并回复二', clusterIds: ids } }),
    ]);
    const ok = [a, b].filter((r) => r.body.code === 1);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    const answered = ok.flatMap((r) => [r.body.data.id, ...r.body.data.alsoAnswered]);
    expect(new Set(answered).size).toBe(answered.length);
    expect(answered.sort()).toEqual([...ids].sort());
    expect(await audits('FEEDBACK_REPLY', ids)).toHaveLength(4);
  });
});
