import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/shared/api/custom-setting';
import { DEFAULT_LADDER } from '../../src/shared/custom/refund-ladder';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { customBaseSettings, customRefundRules } from '../../src/server/modules/custom-setting/schema';
import { activateDue } from '../../src/server/modules/custom-setting/service';
import { MINUTE } from '../support/clock';
import { skipWithoutPostgres } from '../support/test-db';
import { type TestServer, startTestServer } from '../support/test-server';

/**
 * 定制公交设置's races on PostgreSQL (a pool of connections, real row locks): two admins saving the
 * base from one version, the activation job on two instances at once, two publishes in one district.
 */
describe.skipIf(skipWithoutPostgres('custom setting races (base save, activation job, publish)'))('on PostgreSQL', () => {
  let s: TestServer;
  let admin: string;
  let manager: string;
  let xuhui: number;
  let huangpu: number;
  const db = () => s.database.db;
  const deps = () => ({ db: s.database.db, clock: s.clock }) as unknown as AppDeps;

  beforeAll(async () => {
    s = await startTestServer();
    [admin, manager] = [await s.login('admin'), await s.login('manager')];
    const districts = await db().select().from(t.districts);
    xuhui = districts.find((d) => d.name === '徐汇区')!.id;
    huangpu = districts.find((d) => d.name === '黄浦区')!.id;
  });
  afterAll(() => s?.close());

  const rule = async (districtId: number, status: number, effectiveAt: Date | null) => {
    const now = s.clock.now();
    const [r] = await db().insert(customRefundRules).values({ districtId, rows: [...DEFAULT_LADDER], status, effectiveAt, createdAt: now, updatedAt: now }).returning();
    return r!;
  };
  const inForce = (districtId: number) => db().select().from(customRefundRules).where(and(eq(customRefundRules.districtId, districtId), eq(customRefundRules.status, 2)));

  it('two admins save the base from one version: one wins, the other is told to refresh; one audit row', async () => {
    for (let round = 0; round < 5; round++) {
      const { updatedDate: _u, updatedBy: _b, districtName: _n, districtId: _d, ...form } = (await s.call(api.baseQuery, { token: manager })).body.data;
      const logsBefore = (await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'CUSTOM_BASE_SAVE'), eq(t.sysLog.target, `custom-base/${xuhui}`)))).length;
      const answers = await Promise.all([
        s.call(api.baseSave, { token: manager, body: { ...form, payTimeoutMin: 3 + round } }),
        s.call(api.baseSave, { token: admin, body: { ...form, districtId: xuhui, payTimeoutMin: 20 + round } }),
      ]);
      const won = answers.filter((a) => a.body.code === 1);
      expect(won).toHaveLength(1);
      expect(answers.find((a) => a.body.code !== 1)!.body.msg).toBe('设置已被他人修改，请刷新后再保存');
      const [row] = await db().select().from(customBaseSettings).where(eq(customBaseSettings.districtId, xuhui));
      expect(row!.rowVersion).toBe(form.rowVersion + 1);
      expect(row!.payTimeoutMin).toBe(won[0]!.body.data.payTimeoutMin);
      expect(await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'CUSTOM_BASE_SAVE'), eq(t.sysLog.target, `custom-base/${xuhui}`)))).toHaveLength(logsBefore + 1);
    }
  });

  it('the activation job on two instances at once: one swap, one audit row, one ladder in force', async () => {
    for (let round = 0; round < 5; round++) {
      const due = await rule(huangpu, 1, new Date(s.clock.now().getTime() + MINUTE));
      s.clock.advance(2 * MINUTE);
      const [a, b] = await Promise.all([activateDue(deps()), activateDue(deps())]);
      expect([...a, ...b]).toEqual([due.id]);
      const live = await inForce(huangpu);
      expect(live.map((r) => r.id)).toEqual([due.id]);
      expect(await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'REFUND_RULE_ACTIVATE'), eq(t.sysLog.target, `custom-refund-rule/${due.id}`)))).toHaveLength(1);
    }
    admin = await s.login('admin');
    manager = await s.login('manager');
  });

  it('two publishes in one district at once: both apply in turn, one ladder in force; the same draft twice: once', async () => {
    for (let round = 0; round < 3; round++) {
      const [d1, d2] = [await rule(xuhui, 0, null), await rule(xuhui, 0, null)];
      const answers = await Promise.all([s.call(api.refundRulePublish, { token: admin, body: { id: d1.id } }), s.call(api.refundRulePublish, { token: manager, body: { id: d2.id } })]);
      expect(answers.map((a) => a.body.code)).toEqual([1, 1]);
      const live = await inForce(xuhui);
      expect(live).toHaveLength(1);
      expect([d1.id, d2.id]).toContain(live[0]!.id);
      const same = await rule(xuhui, 0, null);
      const twice = await Promise.all([s.call(api.refundRulePublish, { token: admin, body: { id: same.id } }), s.call(api.refundRulePublish, { token: manager, body: { id: same.id } })]);
      expect(twice.filter((a) => a.body.code === 1)).toHaveLength(1);
      expect(twice.find((a) => a.body.code !== 1)!.body.msg).toBe('退款规则已被他人处理，请刷新后查看');
      expect(await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'REFUND_RULE_PUBLISH'), eq(t.sysLog.target, `custom-refund-rule/${same.id}`)))).toHaveLength(1);
      expect((await inForce(xuhui)).map((r) => r.id)).toEqual([same.id]);
    }
  });
});
