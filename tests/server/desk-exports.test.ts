import { and, desc, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, card, discount, family } from '../../src/shared/api';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';
import { readXlsx } from '../support/xlsx-read';
import { exportThroughTask } from '../support/export-task';

/** The desk's exports (masked, formula text escaped, audited, opened back) and adding a rider. */
let s: TestServer;
let manager: string;
let agent: string;
let xuhui: number;
const pii = createPii(TEST_PII_KEY);
const db = () => s.database.db;

beforeAll(async () => {
  s = await startTestServer();
  manager = await s.login('manager');
  agent = await s.login('agent');
  xuhui = (await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区')))[0]!.id;
});
afterAll(() => s.close());

async function download(e: Endpoint, token: string, query: Record<string, string> = {}) {
  const res = await s.call(e, { token, query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return readXlsx(res.file!);
}
const lastLog = async (type: string) => (await db().select().from(t.sysLog).where(eq(t.sysLog.operationType, type)).orderBy(desc(t.sysLog.id)).limit(1))[0];

describe('exports', () => {
  it('riders: every row of the area, masked, formula text escaped, audited', async () => {
    const [victim] = await db().select().from(t.riders).where(eq(t.riders.districtId, xuhui)).limit(1);
    await db().update(t.riders).set({ state: 0, abnormalReason: '=cmd|"/c calc"!A1' }).where(eq(t.riders.id, victim!.id));
    const { sheet: { sheetName, rows } } = await exportThroughTask(s, card.riderExport, agent);
    expect(sheetName).toBe('乘客用户');
    const [n] = await db().select({ id: t.riders.id }).from(t.riders).where(eq(t.riders.districtId, xuhui));
    expect(n).toBeTruthy();
    const stored = await db().select().from(t.riders).where(eq(t.riders.districtId, xuhui));
    expect(rows.length - 1).toBe(stored.length);
    const text = JSON.stringify(rows);
    for (const r of stored) expect(text).not.toContain(pii.decrypt(r.phoneEnc));
    expect(text).not.toMatch(/"\d{17}[\dX]"/);
    const row = rows.find((r) => r[0] === String(victim!.id))!;
    expect(row[6]).toBe('\'=cmd|"/c calc"!A1');
    expect(await lastLog('RIDER_EXPORT')).toMatchObject({ operatorLogin: 'agent', targetDistrictId: xuhui });
  });

  it('family bindings and renewals, masked and audited', async () => {
    const binds = await download(family.bindExport, agent);
    const stored = await db().select().from(t.familyBindings).where(eq(t.familyBindings.districtId, xuhui));
    expect(binds.rows.length - 1).toBe(stored.length);
    expect(binds.rows[0]).toContain('身份证号');
    expect(JSON.stringify(binds.rows)).not.toMatch(/"1\d{10}"|"\d{17}[\dX]"/);
    const renewals = await download(family.renewLogExport, agent);
    const storedRenewals = await db().select().from(t.familyRenewals).where(eq(t.familyRenewals.districtId, xuhui));
    expect(renewals.rows.length - 1).toBe(storedRenewals.length);
    expect((await lastLog('FAMILY_EXPORT'))?.summary).toContain('续期');
  });

  it('renewals over several keyset batches, many at one time: each once, in the order they were renewed, the card filter kept', async () => {
    const [binding] = await db().select({ b: t.familyBindings, cardNo: t.busCards.cardNo }).from(t.familyBindings).innerJoin(t.busCards, eq(t.busCards.id, t.familyBindings.cardId)).where(eq(t.familyBindings.districtId, xuhui)).limit(1);
    const [last] = await db().select({ id: t.familyRenewals.id }).from(t.familyRenewals).orderBy(desc(t.familyRenewals.id)).limit(1);
    // 2,100 renewals in three instants (1,000 are a batch): ties on the time straddle each batch's end.
    const at = [new Date('2026-03-01T02:00:00.123Z'), new Date('2026-02-01T02:00:00.456Z'), new Date('2026-03-01T02:00:00.123Z')];
    await db().insert(t.familyRenewals).values(Array.from({ length: 2_100 }, (_, i) => ({ bindingId: binding!.b.id, districtId: xuhui, months: 1, amount: 100, renewedAt: at[i % 3]! })));
    try {
      const { rows } = await download(family.renewLogExport, agent, { busCardNo: binding!.cardNo });
      const stored = await db()
        .select({ id: t.familyRenewals.id, at: t.familyRenewals.renewedAt })
        .from(t.familyRenewals)
        .innerJoin(t.familyBindings, eq(t.familyBindings.id, t.familyRenewals.bindingId))
        .where(eq(t.familyBindings.cardId, binding!.b.cardId));
      const expected = stored.sort((a, b) => a.at.getTime() - b.at.getTime() || a.id - b.id).map((r) => String(r.id));
      expect(rows.slice(1).map((r) => r[0])).toEqual(expected);
      expect(new Set(rows.slice(1).map((r) => r[1]))).toEqual(new Set([binding!.cardNo]));
    } finally {
      await db().delete(t.familyRenewals).where(and(gt(t.familyRenewals.id, last!.id), eq(t.familyRenewals.bindingId, binding!.b.id)));
    }
  });

  it('discount orders and their counts per product: the numbers agree with the count call', async () => {
    const orders = await download(discount.downloadOrder, agent);
    const stored = await db().select().from(t.discountOrders).where(eq(t.discountOrders.districtId, xuhui));
    expect(orders.rows.length - 1).toBe(stored.length);
    const totals = await s.call(discount.countTotal, { token: agent });
    expect(totals.body.data.orders).toBe(stored.length);
    const byProduct = await download(discount.downloadTotal, agent);
    expect(byProduct.rows.length - 1).toBe(totals.body.data.products);
    expect(byProduct.rows.slice(1).reduce((a, r) => a + Number(r[2]), 0)).toBe(stored.length);
    const page = await s.call(discount.countPage, { token: agent, query: { size: 100 } });
    const counts = page.body.data.content.map((r) => r.orders);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });
});

describe('wx-user/addUser', () => {
  it('adds a rider sealed like every other, masked in the answer and the log; a phone twice is refused', async () => {
    const res = await s.call(card.riderAdd, { token: agent, body: { phone: '139-1234-5678', citizenCardNo: '11010519491231002x', name: '王小明' } });
    expect(res.body.code, res.body.msg).toBe(1);
    expect(res.body.data).toMatchObject({ phone: '139****5678', citizenId: '110***********002X', name: '王**', realName: 1, districtId: xuhui });
    const [stored] = await db().select().from(t.riders).where(eq(t.riders.id, res.body.data.id));
    expect(pii.decrypt(stored!.phoneEnc)).toBe('13912345678');
    expect(pii.decrypt(stored!.citizenEnc!)).toBe('11010519491231002X');
    const log = JSON.stringify(await lastLog('RIDER_ADD'));
    expect(log).not.toContain('13912345678');
    expect(log).not.toContain('11010519491231002X');
    expect(log).not.toContain('王小明');
    const twice = await s.call(card.riderAdd, { token: agent, body: { phone: '13912345678' } });
    expect(twice.body).toMatchObject({ code: 0, msg: '该手机号已注册', data: { errors: [{ field: 'phone' }] } });
  });

  it.each([
    [{ phone: '12345678901' }, '手机号应为11位，以1开头'],
    [{ phone: '13912340000', citizenCardNo: '110105194912310021', name: '张三' }, '身份证号不正确'],
    [{ phone: '13912340000', citizenCardNo: '11010519491231002X' }, '实名信息需同时填写姓名和身份证号'],
  ])('refuses %j in Chinese', async (body, msg) => {
    const res = await s.call(card.riderAdd, { token: agent, body });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain(msg);
  });

  it('refuses an account without RIDER_ADD', async () => {
    const viewer = await s.login('viewer');
    expect((await s.call(card.riderAdd, { token: viewer, body: { phone: '13912340001' } })).status).toBe(403);
    void manager;
  });
});
