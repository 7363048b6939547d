import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/shared/api/card-verify';
import { REFUSAL } from '../../src/shared/api/card-verify';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { type Pii, createPii } from '../../src/server/lib/pii';
import { submitApplication, withdrawApplication } from '../../src/server/modules/card-verify/rider-side';
import { cardVerifyApplications as apps } from '../../src/server/modules/card-verify/schema';
import { skipWithoutPostgres } from '../support/test-db';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/**
 * 线上验卡's races on PostgreSQL (a pool of connections, real row locks): two reviewers on one
 * application, a batch against a single approval, two claims, a revocation racing a late approval,
 * the rider's withdrawal racing a decision. Each ends in one decision and one audit row.
 */
describe.skipIf(skipWithoutPostgres('card-verify races (two reviewers, batch vs single, two claims, revoke vs approve)'))('on PostgreSQL', () => {
  let s: TestServer;
  let manager: string;
  let agent: string;
  let pii: Pii;
  let cards: { cardNo: string; idNo: string }[] = [];
  const db = () => s.database.db;
  const deps = () => ({ db: s.database.db, clock: s.clock, pii }) as unknown as AppDeps;

  beforeAll(async () => {
    s = await startTestServer();
    pii = createPii(TEST_PII_KEY);
    [manager, agent] = [await s.login('manager'), await s.login('agent')];
    const xuhui = (await db().select().from(t.districts)).find((d) => d.name === '徐汇区')!.id;
    const used = new Set((await db().select({ cardId: apps.cardId }).from(apps)).map((r) => r.cardId));
    const rows = await db()
      .select({ id: t.busCards.id, cardNo: t.busCards.cardNo, citizenEnc: t.riders.citizenEnc })
      .from(t.busCards)
      .innerJoin(t.riders, eq(t.riders.id, t.busCards.riderId))
      .where(and(inArray(t.busCards.category, [4, 5]), eq(t.busCards.state, 1), eq(t.busCards.districtId, xuhui), sql`${t.riders.citizenEnc} is not null`));
    cards = rows.filter((r) => !used.has(r.id)).map((r) => ({ cardNo: r.cardNo, idNo: pii.decrypt(r.citizenEnc!) }));
  });
  afterAll(() => s?.close());

  const submit = async () => {
    const c = cards.shift();
    if (!c) throw new Error('out of test cards');
    return submitApplication(deps(), { cardNo: c.cardNo, name: '李四', idNo: c.idNo, phone: '13911112222', faceScore: 95, guardianConsent: true });
  };
  const stored = async (id: number) => (await db().select().from(apps).where(eq(apps.id, id)))[0]!;
  const audits = (type: string, id: number) => db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, type), eq(t.sysLog.target, `card-verify/${id}`)));
  const approve = (token: string, id: number) => s.call(api.verifyAudit, { token, body: { id, fromStatus: 0, toStatus: 1 } });
  const reject = (token: string, id: number) => s.call(api.verifyAudit, { token, body: { id, fromStatus: 0, toStatus: 2, reason: '材料不全，请补充' } });

  it('two reviewers decide one application at once: one decision, one audit row', async () => {
    for (let round = 0; round < 6; round++) {
      const a = await submit();
      const [x, y] = await Promise.all([approve(agent, a.id), round % 2 ? reject(manager, a.id) : approve(manager, a.id)]);
      const ok = [x, y].filter((r) => r.body.code === 1);
      expect(ok).toHaveLength(1);
      expect([x, y].find((r) => r.body.code !== 1)!.body.msg).toBe(REFUSAL.decided);
      expect(await audits('CARD_VERIFY_AUDIT', a.id)).toHaveLength(1);
      expect((await stored(a.id)).status).toBe(ok[0]!.body.data.status);
    }
  });

  it('a batch against a single approval of one of its rows: each row decided once, the batch all or nothing', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b, c] = [await submit(), await submit(), await submit()];
      const [batch, single] = await Promise.all([
        s.call(api.verifyAuditBatch, { token: agent, body: { ids: [a.id, b.id, c.id], idempotencyKey: `race-batch-${a.id}` } }),
        approve(manager, b.id),
      ]);
      expect(single.body.code === 1 || batch.body.code === 1).toBe(true);
      for (const x of [a, b, c]) expect((await audits('CARD_VERIFY_AUDIT', x.id)).length, `row ${x.id}`).toBeLessThanOrEqual(1);
      expect(await audits('CARD_VERIFY_AUDIT', b.id)).toHaveLength(1);
      if (batch.body.code === 1) {
        expect(single.body.msg).toBe(REFUSAL.decided);
        for (const x of [a, b, c]) expect((await stored(x.id)).status).toBe(1);
      } else {
        expect(batch.body.msg).toMatch(/^该申请已被处理，请刷新后查看/);
        expect((await stored(a.id)).status).toBe(0);
        expect((await stored(c.id)).status).toBe(0);
        expect((await stored(b.id)).reviewerId).not.toBeNull();
      }
    }
  });

  it('two claims on one application: one claimant; two reviewers taking the next get two different applications', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await submit();
      const [x, y] = await Promise.all([s.call(api.verifyClaim, { token: agent, body: { id: a.id } }), s.call(api.verifyClaim, { token: manager, body: { id: a.id } })]);
      const ok = [x, y].filter((r) => r.body.code === 1);
      expect(ok).toHaveLength(1);
      const loser = [x, y].find((r) => r.body.code !== 1)!;
      expect(loser.body.msg).toMatch(/^该申请正由.+审核中$/);
      const row = await stored(a.id);
      expect(row.claimBy).toBe(ok[0]!.body.data!.claimById);
      await s.call(api.verifyRelease, { token: agent, body: { id: a.id } });
      await s.call(api.verifyRelease, { token: manager, body: { id: a.id } });
    }
    await submit();
    await submit();
    const [p, q] = await Promise.all([s.call(api.verifyClaim, { token: agent, body: {} }), s.call(api.verifyClaim, { token: manager, body: {} })]);
    expect(p.body.data).not.toBeNull();
    expect(q.body.data).not.toBeNull();
    expect(p.body.data!.id).not.toBe(q.body.data!.id);
  });

  it('a revocation racing a late approval: revoked only after the approval, never a revocation of a pending one', async () => {
    for (let round = 0; round < 6; round++) {
      const a = await submit();
      const [ap, rv] = await Promise.all([approve(agent, a.id), s.call(api.verifyRevoke, { token: manager, body: { id: a.id, fromStatus: 1, reason: '复核发现证件过期' } })]);
      expect(ap.body.code).toBe(1);
      const row = await stored(a.id);
      expect(await audits('CARD_VERIFY_AUDIT', a.id)).toHaveLength(1);
      if (rv.body.code === 1) {
        expect(row.status).toBe(2);
        expect(row.validUntil).toBeNull();
        expect(await audits('CARD_VERIFY_REVOKE', a.id)).toHaveLength(1);
      } else {
        expect(rv.body.msg).toBe(REFUSAL.revokeOnlyApproved);
        expect(row.status).toBe(1);
        expect(await audits('CARD_VERIFY_REVOKE', a.id)).toHaveLength(0);
      }
    }
  });

  it('the rider’s withdrawal racing an approval: one of them, never both', async () => {
    for (let round = 0; round < 6; round++) {
      const a = await submit();
      const [ap, wd] = await Promise.allSettled([approve(agent, a.id), withdrawApplication(deps(), a.id)]);
      const approved = ap.status === 'fulfilled' && ap.value.body.code === 1;
      const withdrawn = wd.status === 'fulfilled';
      expect(approved !== withdrawn).toBe(true);
      expect((await stored(a.id)).status).toBe(approved ? 1 : 3);
      expect((await audits('CARD_VERIFY_AUDIT', a.id)).length + (await audits('CARD_VERIFY_WITHDRAW', a.id)).length).toBe(1);
    }
  });
});
