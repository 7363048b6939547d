import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, exportTask } from '../../src/shared/api';
import * as wallet from '../../src/shared/api/wallet';
import { MAX_PAGE_SIZE } from '../../src/shared/api/paging';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { builtInPaymentChannel } from '../../src/server/lib/payment-channel';
import { createOrder, payNotify } from '../../src/server/modules/rechargeable/money';
import { walletAdjustments, walletOrders, wallets } from '../../src/server/modules/rechargeable/schema';
import { exportThroughTask } from '../support/export-task';
import { type CallOptions, TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';
import { MODULE_CONTRACTS } from '../../src/shared/api/contract';

/**
 * The masking crawl over 储值管理 (the desk's crawl, tests/server/masking-crawl.test.ts, extended to
 * the money module; kept in its own file so the three money branches merge without conflict): every
 * call answered to a district manager holding every 储值 key, read to its last string and cell, and
 * every audit row it wrote. Not one rider phone in clear.
 */
let s: TestServer;
let token: string;
const pii = createPii(TEST_PII_KEY);
const db = () => s.database.db;
const PHONE = /(?<![\dA-Za-z])1[3-9]\d{9}(?!\d)/;
const plain = new Set<string>();
const called = new Set<string>();
const leaks: string[] = [];
let masked = 0;

function scan(where: string, value: unknown): void {
  if (typeof value === 'string') {
    if (/^1\d{2}\*{4}\d{4}$/.test(value)) masked++;
    if (plain.has(value) || PHONE.test(value)) leaks.push(`${where}: ${value}`);
  } else if (Array.isArray(value)) value.forEach((v, i) => scan(`${where}[${i}]`, v));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) scan(`${where}.${k}`, v);
}

async function crawl(e: Endpoint, opts: CallOptions = {}) {
  called.add(e.id);
  const res = await s.call(e, { token, ...opts });
  expect(res.status, `${e.id} ${JSON.stringify(res.body)?.slice(0, 200)}`).toBe(200);
  expect(res.body.code, `${e.id} ${res.body.msg}`).toBe(1);
  scan(e.id, res.body);
  return res.body.data as unknown;
}
async function crawlPages(e: Endpoint, query: Record<string, string | number> = {}) {
  for (let page = 0; ; page++) {
    const paging = { ...query, page, size: MAX_PAGE_SIZE };
    const data = (await crawl(e, e.bodyFormOf ? { body: paging } : { query: paging })) as { totalPages: number };
    if (page + 1 >= data.totalPages) return;
  }
}

beforeAll(async () => {
  // With jobs: the export task's worker is one.
  s = await startTestServer();
  for (const r of await db().select().from(t.riders)) plain.add(pii.decrypt(r.phoneEnc));
  token = await s.login('manager');
});
afterAll(() => s?.close());

describe('the masking crawl over 储值管理', () => {
  it('finds no rider phone in clear in any answer, file or audit row', async () => {
    const [me] = await db().select().from(t.users).where(eq(t.users.login, 'manager'));
    const area = me!.districtId!;
    const deps = { db: db(), clock: s.clock, pii, payments: builtInPaymentChannel({ refundFails: false }), config: s.config } as unknown as AppDeps;
    // A few wallets of the manager's district with money, so every call has something to read.
    const riders = await db().select().from(t.riders).where(eq(t.riders.districtId, area)).limit(40);
    const fresh = riders.filter((r) => r.id % 2 === 0).slice(0, 4);
    for (const r of fresh) {
      const o = await createOrder(deps, { riderId: r.id, amount: 10_000 });
      await payNotify(deps, o.orderNo);
    }
    const mine = await db().select().from(wallets).where(eq(wallets.districtId, area));
    const orders = await db().select().from(walletOrders).where(eq(walletOrders.districtId, area));

    for (const e of [wallet.planPage, wallet.orderPage, wallet.walletPage, wallet.walletPageByBody, wallet.adjustPage]) await crawlPages(e);
    for (const w of mine) await crawlPages(wallet.ledgerPage, { walletId: w.id });
    for (const e of [wallet.orderTotal, wallet.planTotal, wallet.walletTotal, wallet.adjustTotal, wallet.settingQuery, wallet.reconcile]) await crawl(e);
    await crawl(wallet.walletTotalByBody, { body: {} });
    for (const o of orders) await crawl(wallet.orderMsg, { query: { id: o.id } });
    for (const w of mine) await crawl(wallet.walletMsg, { query: { id: w.id } });
    const plans = (await crawl(wallet.planPage)) as { content: { id: number }[] };
    await crawl(wallet.planById, { query: { id: plans.content[0]!.id } });
    // By phone, as the console finds a wallet.
    for (const r of fresh) {
      const phone = pii.decrypt(r.phoneEnc);
      await crawl(wallet.walletPage, { query: { phone } });
      await crawl(wallet.walletPageByBody, { body: { phone } });
    }
    called.add(exportTask.taskDownload.id);
    // Every export of the module, its task's answer and its file.
    const exports: [Endpoint, Record<string, string | number>][] = [
      [wallet.orderExport, {}],
      [wallet.planExport, {}],
      [wallet.walletExport, {}],
      [wallet.adjustExport, {}],
      ...mine.map((w): [Endpoint, Record<string, string | number>] => [wallet.ledgerExport, { walletId: w.id }]),
    ];
    for (const [e, query] of exports) {
      called.add(e.id);
      const { created, sheet } = await exportThroughTask(s, e as Parameters<typeof exportThroughTask>[1], token, query);
      scan(e.id, created);
      scan(`${e.id} xlsx`, sheet.rows);
    }

    // The changes answer with the record they changed, and write audit rows: masked too.
    const paid = (await db().select().from(walletOrders).where(eq(walletOrders.districtId, area))).find((o) => o.status === 1)!;
    await crawl(wallet.orderRefund, { body: { id: paid.id, reason: '巡检退款，来电13812345678', idempotencyKey: 'crawl-wallet-refund-01' } });
    plain.add('13812345678');
    const target = mine.find((w) => w.id !== paid.walletId && w.status === 1)!;
    await crawl(wallet.walletStatus, { body: { id: target.id, fromStatus: 1, toStatus: 2, reason: '乘客13912345678挂失' } });
    await crawl(wallet.walletStatus, { body: { id: target.id, fromStatus: 2, toStatus: 1, reason: '找回卡片' } });
    plain.add('13912345678');
    const made = (await crawl(wallet.adjust, { body: { walletId: target.id, bucket: 1, delta: 100, reason: '乘客来电13712345678反映多扣', idempotencyKey: 'crawl-wallet-adjust-01' } })) as { adjustment: { id: number } };
    plain.add('13712345678');
    await crawl(wallet.adjustCheck, { token: await s.login('admin'), body: { id: made.adjustment.id, fromStatus: 0, toStatus: 1, confirmDelta: 100 } });
    const saved = (await crawl(wallet.planSave, { body: { name: '巡检档位', amount: 5_000, giftAmount: 0 } })) as { id: number; rowVersion: number };
    await crawl(wallet.planStatus, { body: { id: saved.id, fromStatus: 1, toStatus: 0, rowVersion: saved.rowVersion } });
    await crawl(wallet.planDelete, { query: { id: saved.id } });
    const setting = (await crawl(wallet.settingQuery)) as Record<string, unknown>;
    const { updatedDate: _u, ...body } = setting;
    void _u;
    await crawl(wallet.settingSave, { token: await s.login('admin'), body });
    expect(await db().select().from(walletAdjustments).where(eq(walletAdjustments.id, made.adjustment.id))).toHaveLength(1);

    scan('sys_log', await db().select().from(t.sysLog));
    expect(MODULE_CONTRACTS.rechargeable.endpoints.map((e) => e.id).filter((id) => !called.has(id))).toEqual([]);
    expect(leaks).toEqual([]);
    expect(masked).toBeGreaterThan(20);
  }, 180_000);

  it('refuses every 储值 call to the viewer (no menu): 403, each refusal logged and nothing else written', async () => {
    const viewer = await s.login('viewer');
    const before = await db().select({ n: t.sysLog.id }).from(t.sysLog);
    const refused = [];
    for (const e of MODULE_CONTRACTS.rechargeable.endpoints) {
      const res = await s.call(e, { token: viewer, query: {}, ...(e.bodyType === 'none' ? {} : { body: {} }) });
      refused.push([e.id, res.status]);
    }
    expect(refused.filter(([, status]) => status !== 403)).toEqual([]);
    const after = await db().select({ n: t.sysLog.id }).from(t.sysLog);
    expect(after.length - before.length).toBe(MODULE_CONTRACTS.rechargeable.endpoints.length);
  });
});
