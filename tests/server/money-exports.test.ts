import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as pkg from '../../src/shared/api/package-pay';
import * as recharge from '../../src/shared/api/recharge';
import * as wallet from '../../src/shared/api/wallet';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { builtInPaymentChannel } from '../../src/server/lib/payment-channel';
import { createOrder, payNotify } from '../../src/server/modules/rechargeable/money';
import { createPii } from '../../src/server/lib/pii';
import { packages } from '../../src/server/modules/package-pay/schema';
import { rechargeReconcileItems } from '../../src/server/modules/recharge/schema';
import { rechargePlans, walletAdjustments, walletLedger, wallets } from '../../src/server/modules/rechargeable/schema';
import { exportThroughTask } from '../support/export-task';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/**
 * Issue 22: every money list has its summary line (over the whole filtered set, server-side) and its
 * 下载中心 export (a task; the file holds the filtered rows of the caller's area, phones masked, text
 * that a spreadsheet would run as a formula escaped; an audit row per task; the list's read permission).
 */
let s: TestServer;
let manager: string;
let agent: string;
let viewer: string;
let xuhui: number;
let huangpu: number;
const pii = createPii(TEST_PII_KEY);
const db = () => s.database.db;

beforeAll(async () => {
  s = await startTestServer();
  [manager, agent, viewer] = (await Promise.all(['manager', 'agent', 'viewer'].map((u) => s.login(u)))) as [string, string, string];
  const districts = await db().select().from(t.districts);
  xuhui = districts.find((d) => d.name === '徐汇区')!.id;
  huangpu = districts.find((d) => d.name === '黄浦区')!.id;
  // Wallets of both areas (the demo's may be elsewhere): paid top-ups, one frozen, adjustments made, approved and rejected.
  const deps = { db: db(), clock: s.clock, pii, payments: builtInPaymentChannel({ refundFails: false }), config: s.config } as unknown as AppDeps;
  const fund = async (districtId: number, amount: number) => {
    const rows = (await db().execute(sql`select r.id from riders r where r.district_id = ${districtId} and not exists (select 1 from wallets w where w.rider_id = r.id) order by r.id limit 1`)) as unknown as { rows: { id: number }[] };
    const order = await createOrder(deps, { riderId: rows.rows[0]!.id, amount });
    await payNotify(deps, order.orderNo);
    return order.walletId;
  };
  const mine = [await fund(xuhui, 10_000), await fund(xuhui, 20_000), await fund(xuhui, 30_000)];
  await fund(huangpu, 40_000);
  const ok = (r: { body: { code: number } }) => expect(r.body.code, JSON.stringify(r.body)).toBe(1);
  ok(await s.call(wallet.walletStatus, { token: manager, body: { id: mine[2]!, fromStatus: 1, toStatus: 2, reason: '乘客挂失冻结' } }));
  const key = () => `k${Math.random().toString(36).slice(2)}${Date.now()}`;
  const made = [];
  for (const [walletId, bucket, delta] of [[mine[0]!, 1, 500], [mine[0]!, 1, -300], [mine[1]!, 2, 200], [mine[1]!, 1, 100]] as const) {
    const r = await s.call(wallet.adjust, { token: agent, body: { walletId, bucket, delta, reason: '客服工单核实补偿乘车费用', idempotencyKey: key() } });
    ok(r);
    made.push(r.body.data.adjustment.id);
  }
  ok(await s.call(wallet.adjustCheck, { token: manager, body: { id: made[0]!, fromStatus: 0, toStatus: 1, confirmDelta: 500 } }));
  ok(await s.call(wallet.adjustCheck, { token: manager, body: { id: made[2]!, fromStatus: 0, toStatus: 2, reason: '依据不足' } }));
});
afterAll(() => s?.close());

const lastLog = async (type: string) => (await db().select().from(t.sysLog).where(eq(t.sysLog.operationType, type)).orderBy(desc(t.sysLog.id)).limit(1))[0];
/** Every clear phone of the riders: none may be in a file. */
const clearPhones = async () => (await db().select({ enc: t.riders.phoneEnc }).from(t.riders)).map((r) => pii.decrypt(r.enc));
const expectMasked = async (rows: string[][], column: number) => {
  const text = JSON.stringify(rows);
  for (const phone of await clearPhones()) expect(text).not.toContain(phone);
  for (const r of rows.slice(1)) expect(r[column]).toMatch(/^1\d{2}\*{4}\d{4}$/);
};
const yuan = (fen: number) => String(fen / 100);

describe('储值管理: 储值档位', () => {
  it('summary counts the area’s plans by status; the export holds them; audited; the viewer is refused', async () => {
    const stored = await db().select().from(rechargePlans).where(or(eq(rechargePlans.districtId, xuhui), isNull(rechargePlans.districtId)));
    expect(stored.length).toBeGreaterThan(0);
    const total = (await s.call(wallet.planTotal, { token: manager, query: { status: '1' } })).body.data;
    expect(total).toEqual(expect.objectContaining({ plans: stored.length, enabled: stored.filter((p) => p.status === 1).length, disabled: stored.filter((p) => p.status === 0).length }));
    const { sheet, task } = await exportThroughTask(s, wallet.planExport, manager);
    expect(sheet.sheetName).toBe('储值档位');
    expect(task.title).toBe('储值档位');
    expect(sheet.rows[0]).toEqual(expect.arrayContaining(['档位名称', '充值金额（元）', '赠送金额（元）', '状态']));
    expect(sheet.rows.slice(1).map((r) => Number(r[0])).sort((a, b) => a - b)).toEqual(stored.map((p) => p.id).sort((a, b) => a - b));
    const first = stored[0]!;
    expect(sheet.rows.find((r) => r[0] === String(first.id))!.slice(3, 5)).toEqual([yuan(first.amount), yuan(first.giftAmount)]);
    expect(await lastLog('RECHARGE_PLAN_EXPORT')).toMatchObject({ operatorLogin: 'manager', targetDistrictId: xuhui, summary: '导出任务：储值档位' });
    expect((await s.call(wallet.planExport, { token: viewer })).status).toBe(403);
    expect((await s.call(wallet.planTotal, { token: viewer })).status).toBe(403);
  });
});

describe('储值管理: 用户钱包', () => {
  it('summary is Σ of the area’s stored wallets (the status filter aside); the same in a POST body with a phone', async () => {
    const stored = await db().select().from(wallets).where(eq(wallets.districtId, xuhui));
    expect(stored.length).toBeGreaterThan(2);
    const sum = (f: (w: (typeof stored)[number]) => number) => stored.reduce((n, w) => n + f(w), 0);
    const total = (await s.call(wallet.walletTotal, { token: manager, query: { status: '2' } })).body.data;
    expect(total).toEqual({
      wallets: stored.length,
      principal: sum((w) => w.principal),
      gift: sum((w) => w.gift),
      normal: stored.filter((w) => w.status === 1).length,
      frozen: stored.filter((w) => w.status === 2).length,
      frozenBalance: sum((w) => (w.status === 2 ? w.principal + w.gift : 0)),
      closed: stored.filter((w) => w.status === 0).length,
    });
    const one = stored[0]!;
    const [rider] = await db().select().from(t.riders).where(eq(t.riders.id, one.riderId));
    const byPhone = (await s.call(wallet.walletTotalByBody, { token: manager, body: { phone: pii.decrypt(rider!.phoneEnc) } })).body.data;
    expect(byPhone).toEqual(expect.objectContaining({ wallets: 1, principal: one.principal, gift: one.gift }));
  });

  it('the export is the area’s wallets of the status, phones masked, audited without a phone; takes no phone in its URL', async () => {
    const frozen = await db().select().from(wallets).where(and(eq(wallets.districtId, xuhui), eq(wallets.status, 2)));
    expect(frozen.length).toBeGreaterThan(0);
    const { sheet, task } = await exportThroughTask(s, wallet.walletExport, manager, { status: '2' });
    expect(task.title).toBe('用户钱包 冻结');
    expect(sheet.rows.slice(1).map((r) => Number(r[0])).sort((a, b) => a - b)).toEqual(frozen.map((w) => w.id).sort((a, b) => a - b));
    expect(new Set(sheet.rows.slice(1).map((r) => r[6]))).toEqual(new Set(['冻结']));
    const w = frozen[0]!;
    expect(sheet.rows.find((r) => r[0] === String(w.id))!.slice(3, 6)).toEqual([yuan(w.principal), yuan(w.gift), yuan(w.principal + w.gift)]);
    await expectMasked(sheet.rows, 1);
    const log = await lastLog('WALLET_EXPORT');
    expect(log).toMatchObject({ operatorLogin: 'manager', targetDistrictId: xuhui });
    // A phone in the URL is not a filter of the export: the task is of the whole area, its params hold no phone.
    const [rider] = await db().select().from(t.riders).where(eq(t.riders.id, w.riderId));
    const phone = pii.decrypt(rider!.phoneEnc);
    const withPhone = await exportThroughTask(s, wallet.walletExport, manager, { phone, status: '2' });
    expect(withPhone.sheet.rows.length).toBe(sheet.rows.length);
    expect(JSON.stringify(await lastLog('WALLET_EXPORT'))).not.toContain(phone);
    expect((await s.call(wallet.walletExport, { token: viewer })).status).toBe(403);
  });

  it('a wallet’s ledger: its rows oldest first; another district’s wallet refused, nothing queued', async () => {
    const [w] = await db().select().from(wallets).where(eq(wallets.districtId, xuhui)).limit(1);
    const ledger = await db().select().from(walletLedger).where(eq(walletLedger.walletId, w!.id)).orderBy(walletLedger.id);
    const { sheet, task } = await exportThroughTask(s, wallet.ledgerExport, agent, { walletId: w!.id });
    expect(task.title).toBe(`钱包流水 ${w!.id}`);
    expect(sheet.rows.slice(1).map((r) => Number(r[0]))).toEqual(ledger.map((l) => l.id));
    const last = ledger[ledger.length - 1]!;
    expect(sheet.rows[sheet.rows.length - 1]!.slice(4, 8)).toEqual([yuan(last.principalDelta), yuan(last.giftDelta), yuan(last.principalAfter), yuan(last.giftAfter)]);
    expect(await lastLog('WALLET_LEDGER_EXPORT')).toMatchObject({ operatorLogin: 'agent', targetDistrictId: xuhui });
    const [foreign] = await db().select().from(wallets).where(eq(wallets.districtId, huangpu)).limit(1);
    const tasksBefore = (await db().select().from(t.exportTasks)).length;
    const refused = await s.call(wallet.ledgerExport, { token: agent, query: { walletId: foreign!.id } });
    expect(refused.status).toBe(403);
    expect((await db().select().from(t.exportTasks)).length).toBe(tasksBefore);
  });
});

describe('储值管理: 人工调账', () => {
  it('summary by status matches the stored rows; the export holds them masked, a formula-like reason escaped, audited', async () => {
    const [victim] = await db().select().from(walletAdjustments).where(eq(walletAdjustments.districtId, xuhui)).limit(1);
    await db().update(walletAdjustments).set({ reason: '=HYPERLINK("http://x")调账原因说明' }).where(eq(walletAdjustments.id, victim!.id));
    const stored = await db().select().from(walletAdjustments).where(eq(walletAdjustments.districtId, xuhui));
    const total = (await s.call(wallet.adjustTotal, { token: manager, query: { status: '0' } })).body.data;
    expect(total.total).toBe(stored.length);
    for (const code of [0, 1, 2, 3]) {
      const mine = stored.filter((j) => j.status === code);
      expect(total.byStatus[String(code)]).toEqual({
        count: mine.length,
        principal: mine.filter((j) => j.bucket === 1).reduce((n, j) => n + j.delta, 0),
        gift: mine.filter((j) => j.bucket === 2).reduce((n, j) => n + j.delta, 0),
      });
    }
    const { sheet } = await exportThroughTask(s, wallet.adjustExport, manager);
    expect(sheet.rows.slice(1).map((r) => Number(r[0])).sort((a, b) => a - b)).toEqual(stored.map((j) => j.id).sort((a, b) => a - b));
    expect(sheet.rows.find((r) => r[0] === String(victim!.id))![5]).toBe('\'=HYPERLINK("http://x")调账原因说明');
    await expectMasked(sheet.rows, 2);
    expect(await lastLog('WALLET_ADJUST_EXPORT')).toMatchObject({ operatorLogin: 'manager', targetDistrictId: xuhui });
    const pending = await exportThroughTask(s, wallet.adjustExport, manager, { status: '0' });
    expect(pending.task.title).toBe('人工调账 待复核');
    expect(pending.sheet.rows.length - 1).toBe(stored.filter((j) => j.status === 0).length);
    expect((await s.call(wallet.adjustExport, { token: viewer })).status).toBe(403);
  });
});

describe('套餐管理', () => {
  it('the package list’s export holds the area’s packages of the filter; audited; the viewer is refused', async () => {
    const stored = await db().select().from(packages).where(eq(packages.districtId, xuhui));
    expect(stored.length).toBeGreaterThan(0);
    const total = (await s.call(pkg.packageTotal, { token: manager })).body.data;
    expect(total.total).toBe(stored.length);
    const { sheet, task } = await exportThroughTask(s, pkg.packageExport, manager);
    expect(task.title).toBe('套餐');
    expect(sheet.rows.slice(1).map((r) => Number(r[0])).sort((a, b) => a - b)).toEqual(stored.map((p) => p.id).sort((a, b) => a - b));
    const onSale = await exportThroughTask(s, pkg.packageExport, manager, { status: '1' });
    expect(onSale.task.title).toBe('套餐 在售');
    expect(onSale.sheet.rows.length - 1).toBe(stored.filter((p) => p.status === 1).length);
    expect(await lastLog('PACKAGE_EXPORT')).toMatchObject({ operatorLogin: 'manager', targetDistrictId: xuhui, summary: '导出任务：套餐 在售' });
    expect((await s.call(pkg.packageExport, { token: viewer })).status).toBe(403);
  });
});

describe('NFC充值: 圈存日对账', () => {
  it('a day’s worklist: summary by kind matches the stored items; the export holds the area’s items of the day only', async () => {
    const day = '2026-01-15';
    const now = new Date('2026-01-16T02:00:00Z');
    const mk = (kind: number, districtId: number, n: number, orderAmount: number | null, centreAmount: number | null) => ({
      day,
      kind,
      districtId,
      orderNo: `RCX${kind}${districtId}${n}`,
      cardNo: `310100000000${String(kind * 100 + n).padStart(4, '0')}`,
      orderAmount,
      centreAmount,
      note: kind === 1 ? '已付款，卡中心无圈存记录' : kind === 2 ? '=卡中心有圈存，订单未支付' : '金额不一致',
      status: n === 2 ? 1 : 0,
      createdAt: now,
    });
    const rows = [mk(1, xuhui, 1, 5_000, null), mk(1, xuhui, 2, 3_000, null), mk(2, xuhui, 1, null, 2_000), mk(3, xuhui, 1, 5_000, 4_000), mk(1, huangpu, 1, 9_900, null)];
    const inserted = await db().insert(rechargeReconcileItems).values(rows).returning();
    try {
      const total = (await s.call(recharge.rechargeReconcileTotal, { token: manager, query: { day } })).body.data;
      expect(total).toEqual({
        total: 4,
        open: 3,
        byKind: {
          '1': { count: 2, open: 1, orderAmount: 8_000, centreAmount: 0 },
          '2': { count: 1, open: 1, orderAmount: 0, centreAmount: 2_000 },
          '3': { count: 1, open: 1, orderAmount: 5_000, centreAmount: 4_000 },
        },
      });
      const { sheet, task } = await exportThroughTask(s, recharge.rechargeReconcileExport, manager, { day });
      expect(task.title).toBe(`圈存日对账 ${day}`);
      const mine = inserted.filter((r) => r.districtId === xuhui);
      expect(sheet.rows.slice(1).map((r) => r[2])).toEqual(mine.map((r) => r.orderNo));
      expect(JSON.stringify(sheet.rows)).not.toContain(`RCX1${huangpu}1`);
      expect(sheet.rows.find((r) => r[1] === '圈存未付')![7]).toBe("'=卡中心有圈存，订单未支付");
      expect(sheet.rows.find((r) => r[1] === '金额不符')!.slice(4, 6)).toEqual(['50', '40']);
      expect(await lastLog('RECHARGE_RECONCILE_EXPORT')).toMatchObject({ operatorLogin: 'manager', targetDistrictId: xuhui });
      const open = await exportThroughTask(s, recharge.rechargeReconcileExport, manager, { day, status: '0', kind: '1' });
      expect(open.sheet.rows.slice(1).map((r) => r[2])).toEqual([`RCX1${xuhui}1`]);
      expect((await s.call(recharge.rechargeReconcileExport, { token: viewer, query: { day } })).status).toBe(403);
      expect((await s.call(recharge.rechargeReconcileTotal, { token: viewer, query: { day } })).status).toBe(403);
    } finally {
      await db().delete(rechargeReconcileItems).where(inArray(rechargeReconcileItems.id, inserted.map((r) => r.id)));
    }
  });
});
