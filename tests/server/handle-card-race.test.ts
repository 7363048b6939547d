import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/shared/api/handle-card';
import { REFUSALS } from '../../src/shared/api/handle-card';
import { shanghaiDate } from '../../src/shared/domain/time';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { placeholderImage } from '../../src/server/lib/sealed-files';
import { payApplication, submitApplication, type SubmitInput } from '../../src/server/modules/handle-card/apply-service';
import { handleCardApplications as apps, handleCardPool as pool } from '../../src/server/modules/handle-card/schema';
import { citizenIdOf } from '../../src/server/modules/handle-card/seed-plan';
import { skipWithoutPostgres } from '../support/test-db';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/**
 * 线上办卡's races on PostgreSQL (second wave §12 verify-audit, handle-audit): double approval, the
 * batch against a single approval, the reject refund under 50 concurrent calls, the card-number
 * pool under concurrent approvals, two claims of the review queue, a claim against a decision, two
 * submissions of one id and category.
 */
describe.skipIf(skipWithoutPostgres('handle-card races (double approval, batch vs single, refund once, pool, one per id)'))('on PostgreSQL', () => {
  let s: TestServer;
  let manager: string;
  let agent: string;
  let area: number;
  let riderId: number;
  let seq = 5_000;
  const db = () => s.database.db;
  const pii = createPii(TEST_PII_KEY);
  const deps = () => ({ db: s.database.db, clock: s.clock, pii }) as unknown as AppDeps;
  const key = () => `r${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
  const birth = (age: number) => `${Number(shanghaiDate(s.clock.now()).slice(0, 4)) - age - 1}-05-20`;
  const input = (over: Partial<SubmitInput> = {}): SubmitInput => ({
    riderId,
    districtId: area,
    cardCategory: 2,
    name: '并发申请',
    idNo: citizenIdOf('310104', birth(30), ++seq, false),
    phone: '13900000000',
    address: '上海市徐汇区衡山路1号',
    delivery: 2,
    photo: placeholderImage('照片', 358, 441),
    idFront: placeholderImage('正面', 428, 270),
    idBack: placeholderImage('反面', 428, 270),
    ...over,
  });
  const pending = async (over: Partial<SubmitInput> = {}) => payApplication(deps(), (await submitApplication(deps(), input(over))).id);
  const stored = async (id: number) => (await db().select().from(apps).where(eq(apps.id, id)))[0]!;
  const audits = (types: string[], id: number) => db().select().from(t.sysLog).where(and(inArray(t.sysLog.operationType, types), eq(t.sysLog.target, `handle-card/${id}`)));

  beforeAll(async () => {
    s = await startTestServer();
    [manager, agent] = (await Promise.all(['manager', 'agent'].map((u) => s.login(u)))) as [string, string];
    area = (await db().select().from(t.districts)).find((d) => d.name === '徐汇区')!.id;
    riderId = (await db().select({ id: t.riders.id }).from(t.riders).limit(1))[0]!.id;
    // Enough free numbers for the rounds below.
    const now = s.clock.now();
    await db().insert(pool).values(Array.from({ length: 200 }, (_, i) => ({ cardNo: `31029${String(90_000_000_000 + i).padStart(11, '0')}`, cardCategory: 2, state: 0, updatedAt: now })));
  });
  afterAll(() => s?.close());

  it('double approval (two reviewers, two keys): one decision, one audit row, one number', async () => {
    for (let round = 0; round < 8; round++) {
      const a = await pending();
      const answers = await Promise.all([agent, manager, agent].map((token) => s.call(api.applyAudit, { token, body: { id: a.id, fromStatus: 1, toStatus: 2, idempotencyKey: key() } })));
      expect(answers.filter((r) => r.body.code === 1)).toHaveLength(1);
      expect(answers.filter((r) => r.body.code !== 1).every((r) => r.body.msg === REFUSALS.stale)).toBe(true);
      expect(await audits(['HANDLE_CARD_APPROVE'], a.id)).toHaveLength(1);
      expect(await db().select().from(pool).where(eq(pool.applicationId, a.id))).toHaveLength(1);
      expect((await stored(a.id)).status).toBe(2);
    }
  });

  it('approve against reject at once: exactly one of them, with its own audit row', async () => {
    for (let round = 0; round < 6; round++) {
      const a = await pending();
      const [ok, no] = await Promise.all([
        s.call(api.applyAudit, { token: agent, body: { id: a.id, fromStatus: 1, toStatus: 2, idempotencyKey: key() } }),
        s.call(api.applyAudit, { token: manager, body: { id: a.id, fromStatus: 1, toStatus: 3, reason: '证件信息不一致', idempotencyKey: key() } }),
      ]);
      expect([ok.body.code, no.body.code].filter((c) => c === 1)).toHaveLength(1);
      expect(await audits(['HANDLE_CARD_APPROVE', 'HANDLE_CARD_REJECT'], a.id)).toHaveLength(1);
      const after = await stored(a.id);
      const held = await db().select().from(pool).where(eq(pool.applicationId, a.id));
      expect(held).toHaveLength(after.status === 2 ? 1 : 0);
    }
  });

  it('the batch against single approvals of the same rows: each approved once, one audit row each', async () => {
    const rows = await Promise.all(Array.from({ length: 10 }, () => pending()));
    const ids = rows.map((r) => r.id);
    const [batch, ...singles] = await Promise.all([
      s.call(api.applyAuditBatch, { token: agent, body: { ids, idempotencyKey: key() } }),
      ...ids.map((id) => s.call(api.applyAudit, { token: manager, body: { id, fromStatus: 1, toStatus: 2, idempotencyKey: key() } })),
    ]);
    expect(batch!.body.code).toBe(1);
    const byBatch = new Set(batch!.body.data.approved.map((x) => x.id));
    singles.forEach((r, i) => expect(r.body.code === 1).toBe(!byBatch.has(ids[i]!)));
    for (const id of ids) {
      expect(await audits(['HANDLE_CARD_APPROVE'], id)).toHaveLength(1);
      expect(await db().select().from(pool).where(eq(pool.applicationId, id))).toHaveLength(1);
    }
  });

  it('the reject refund exactly once: 50 concurrent rejections (one key and many keys)', async () => {
    for (const sameKey of [true, false]) {
      const a = await pending();
      const k = key();
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => s.call(api.applyAudit, { token: i % 2 ? agent : manager, body: { id: a.id, fromStatus: 1, toStatus: 3, reason: '照片不符合要求', idempotencyKey: sameKey ? k : key() } })),
      );
      const ok = answers.filter((r) => r.body.code === 1);
      if (sameKey) expect(ok.length).toBeGreaterThanOrEqual(1);
      else expect(ok).toHaveLength(1);
      expect(ok.filter((r) => !r.body.data.replayed)).toHaveLength(1);
      expect(answers.filter((r) => r.body.code !== 1).every((r) => r.body.msg === REFUSALS.stale || r.status === 403)).toBe(true);
      const ledger = await db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'handle'), eq(t.moneyRefunds.orderId, a.id)));
      expect(ledger).toHaveLength(1);
      expect(ledger[0]).toMatchObject({ amount: a.fee, idempotencyKey: a.applyNo });
      expect(await audits(['HANDLE_CARD_REJECT'], a.id)).toHaveLength(1);
      expect(await stored(a.id)).toMatchObject({ status: 3, payStatus: 2 });
    }
  });

  it('many approvals at once never reserve one card number twice', async () => {
    const rows = await Promise.all(Array.from({ length: 40 }, () => pending()));
    const answers = await Promise.all(rows.map((r, i) => s.call(api.applyAudit, { token: i % 2 ? agent : manager, body: { id: r.id, fromStatus: 1, toStatus: 2, idempotencyKey: key() } })));
    expect(answers.every((r) => r.body.code === 1)).toBe(true);
    const numbers = answers.map((r) => r.body.data.apply.cardNo);
    expect(new Set(numbers).size).toBe(40);
    const held = await db().select().from(pool).where(inArray(pool.applicationId, rows.map((r) => r.id)));
    expect(held).toHaveLength(40);
    expect(held.every((p) => p.state === 1)).toBe(true);
  });

  it('two claims on one application: one claimant; two reviewers taking the next get two different applications', async () => {
    for (let round = 0; round < 6; round++) {
      const a = await pending();
      const [x, y] = await Promise.all([s.call(api.applyClaim, { token: agent, body: { id: a.id } }), s.call(api.applyClaim, { token: manager, body: { id: a.id } })]);
      const ok = [x, y].filter((r) => r.body.code === 1);
      expect(ok).toHaveLength(1);
      expect([x, y].find((r) => r.body.code !== 1)!.body.msg).toMatch(/^该申请正由.+审核中$/);
      expect((await stored(a.id)).claimBy).toBe(ok[0]!.body.data!.claimById);
      await s.call(api.applyRelease, { token: agent, body: { id: a.id } });
      await s.call(api.applyRelease, { token: manager, body: { id: a.id } });
    }
    await pending();
    await pending();
    const [p, q] = await Promise.all([s.call(api.applyClaim, { token: agent, body: {} }), s.call(api.applyClaim, { token: manager, body: {} })]);
    expect(p.body.data).not.toBeNull();
    expect(q.body.data).not.toBeNull();
    expect(p.body.data!.id).not.toBe(q.body.data!.id);
    await s.call(api.applyRelease, { token: agent, body: { id: p.body.data!.id } });
    await s.call(api.applyRelease, { token: manager, body: { id: q.body.data!.id } });
  });

  it('a claim racing another reviewer’s decision: either the decision (claim refused, cleared) or the claim (decision refused)', async () => {
    for (let round = 0; round < 6; round++) {
      const a = await pending();
      const [c, d] = await Promise.all([
        s.call(api.applyClaim, { token: agent, body: { id: a.id } }),
        s.call(api.applyAudit, { token: manager, body: { id: a.id, fromStatus: 1, toStatus: 2, idempotencyKey: key() } }),
      ]);
      const row = await stored(a.id);
      if (d.body.code === 1) {
        expect(row).toMatchObject({ status: 2, claimBy: null, claimUntil: null });
        if (c.body.code !== 1) expect(c.body.msg).toBe(REFUSALS.stale);
      } else {
        expect(c.body.code).toBe(1);
        expect(d.body.msg).toBe(REFUSALS.claimedBy('客服小李'));
        expect(row.status).toBe(1);
        await s.call(api.applyRelease, { token: agent, body: { id: a.id } });
      }
      expect(await audits(['HANDLE_CARD_APPROVE'], a.id)).toHaveLength(d.body.code === 1 ? 1 : 0);
    }
  });

  it('two submissions with one id and category at once: one application', async () => {
    for (let round = 0; round < 5; round++) {
      const idNo = citizenIdOf('310104', birth(35), ++seq, true);
      const answers = await Promise.allSettled(Array.from({ length: 6 }, () => submitApplication(deps(), input({ idNo }))));
      expect(answers.filter((x) => x.status === 'fulfilled')).toHaveLength(1);
      expect(answers.filter((x) => x.status === 'rejected').every((x) => /不能重复提交/.test(String((x as PromiseRejectedResult).reason)))).toBe(true);
      expect(await db().select().from(apps).where(eq(apps.idHash, pii.index('citizen', idNo)))).toHaveLength(1);
    }
  });
});
