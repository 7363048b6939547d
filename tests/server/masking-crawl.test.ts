import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, card, discount, exportTask, family } from '../../src/shared/api';
import { MAX_PAGE_SIZE } from '../../src/shared/api/paging';
import { menuCatalogue, menuItemIds } from '../../src/shared/modules';
import { discountModule } from '../../src/shared/modules/discount';
import { rechargeModule } from '../../src/shared/modules/recharge';
import * as recharge from '../../src/shared/api/recharge';
import { cardLoaded, createOrder, failWrite, pay, startWrite } from '../../src/server/modules/recharge/rider-side';
import { rechargeOrders } from '../../src/server/modules/recharge/schema';
import { familyModule } from '../../src/shared/modules/family';
import { handleCardModule } from '../../src/shared/modules/handle-card';
import * as handleApi from '../../src/shared/api/handle-card';
import { handleCardApplications, handleCardSettings } from '../../src/server/modules/handle-card/schema';
import { payApplication, submitApplication } from '../../src/server/modules/handle-card/apply-service';
import { citizenIdOf } from '../../src/server/modules/handle-card/seed-plan';
import { placeholderImage } from '../../src/server/lib/sealed-files';
import { riderModule } from '../../src/shared/modules/rider';
import { packagePayModule } from '../../src/shared/modules/package-pay';
import * as pkg from '../../src/shared/api/package-pay';
import { packageOrders } from '../../src/server/modules/package-pay/schema';
import * as fleet from '../../src/shared/api/custom-bus/fleet';
import * as customOrdersApi from '../../src/shared/api/custom-bus/orders';
import * as customClassesApi from '../../src/shared/api/custom-bus/classes';
import * as customDemandApi from '../../src/shared/api/custom-bus/demand';
import { customClasses, customDemandRecords, customDrivers, customOrders } from '../../src/server/modules/custom-bus/schema';
import { citizenCheckChar } from '../../src/shared/domain/citizen-id';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { DEMO_PASSWORD } from '../../src/server/db/seed/context';
import * as verifyApi from '../../src/shared/api/card-verify';
import { cardVerifyApplications as verifyApps } from '../../src/server/modules/card-verify/schema';
import { submitApplication as submitVerify } from '../../src/server/modules/card-verify/rider-side';
import type { AppDeps } from '../../src/server/context';
import { type CallOptions, TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';
import { readXlsx } from '../support/xlsx-read';
import { exportThroughTask } from '../support/export-task';
import { CONTRACT_MODULES, MODULE_CONTRACTS } from '../../src/shared/api/contract';
import * as fb from '../../src/shared/api/feedback';
import { feedback } from '../../src/server/modules/notice-report/schema';
import { submitFeedback } from '../../src/server/modules/notice-report/feedback-service';

/**
 * The masking crawl (issue 11): every call of the desk's modules, answered to an account holding
 * every desk key but RIDER_REVEAL, read to its last string and spreadsheet cell. Not one phone,
 * citizen id or name of the riders table may come back in clear, and neither may the audit rows the
 * crawl writes. The reveal itself is refused to this account.
 */
let s: TestServer;
let token: string;
const pii = createPii(TEST_PII_KEY);
const db = () => s.database.db;
const DESK = [riderModule, familyModule, discountModule, handleCardModule, packagePayModule, rechargeModule];
const ENDPOINTS: readonly Endpoint[] = DESK.flatMap((m): readonly Endpoint[] => MODULE_CONTRACTS[m.id].endpoints);

const PHONE = /(?<![\dA-Za-z])1[3-9]\d{9}(?!\d)/;
const CITIZEN = /(?<![\dA-Za-z])\d{17}[\dXx](?!\d)/;
const plain = new Set<string>();
const called = new Set<string>();
const leaks: string[] = [];
let strings = 0;
let masked = 0;

function scan(where: string, value: unknown): void {
  if (typeof value === 'string') {
    strings++;
    if (/^1\d{2}\*{4}\d{4}$/.test(value)) masked++;
    if (plain.has(value) || PHONE.test(value) || CITIZEN.test(value)) leaks.push(`${where}: ${value}`);
  } else if (Array.isArray(value)) value.forEach((v, i) => scan(`${where}[${i}]`, v));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) scan(`${where}.${k}`, v);
}

async function crawl(e: Endpoint, opts: CallOptions = {}, expectStatus = 200) {
  called.add(e.id);
  const res = await s.call(e, { token, ...opts });
  expect(res.status, `${e.id} ${JSON.stringify(res.body)?.slice(0, 200)}`).toBe(expectStatus);
  if (res.file) {
    const { rows } = await readXlsx(res.file);
    scan(`${e.id} xlsx`, rows);
    return rows;
  }
  scan(e.id, res.body);
  return res.body?.data as unknown;
}

/** Every page of a list, the largest pages the contract allows; a body form takes them in its body. */
async function crawlPages(e: Endpoint, query: NonNullable<CallOptions['query']> = {}) {
  for (let page = 0; ; page++) {
    const paging = { ...query, page, size: MAX_PAGE_SIZE };
    const data = (await crawl(e, e.bodyFormOf ? { body: paging } : { query: paging })) as { content: unknown[]; totalPages: number };
    if (page + 1 >= data.totalPages) return;
  }
}

beforeAll(async () => {
  s = await startTestServer();
  for (const r of await db().select().from(t.riders)) {
    plain.add(pii.decrypt(r.phoneEnc));
    if (r.citizenEnc) plain.add(pii.decrypt(r.citizenEnc));
    if (r.nameEnc) plain.add(pii.decrypt(r.nameEnc));
  }
  // The agent's menus and desk keys, without RIDER_REVEAL; REFUND_ORDER so the refund is crawled too.
  const [agent] = await db().select().from(t.users).where(eq(t.users.login, 'agent'));
  const [group] = await db().insert(t.roleGroups).values({ name: '脱敏巡检组', description: '除查看实名外的坐席权限', createdAt: s.clock.now(), updatedAt: s.clock.now() }).returning();
  const items = [...menuItemIds(menuCatalogue(CONTRACT_MODULES), ['busUser', 'callingCard', 'specialCode', 'handleCard', 'packagePay', 'recharge', 'rechargeable']), 'ycOrder', 'RIDER_ADD', 'FAMILY_CARD_EDIT', 'REFUND_ORDER', 'PACKAGE_ORDER_REFUND', 'RECHARGE_RESOLVE', 'RECHARGE_ORDER_REFUND'].filter((i) => i !== 'RIDER_REVEAL');
  await db().insert(t.roleGroupItems).values([...new Set(items)].map((itemId) => ({ groupId: group!.id, itemId })));
  await db().insert(t.users).values({ ...agent!, id: undefined, login: 'crawler', firstName: '脱敏巡检', groupId: group!.id });
  token = await s.login('crawler', DEMO_PASSWORD);
});
afterAll(() => s.close());

describe('the masking crawl over the desk', () => {
  it('finds no phone, citizen id or name in clear in any answer, file or audit row', async () => {
    expect(plain.size).toBeGreaterThan(100);
    const district = (await db().select().from(t.districts).where(eq(t.districts.id, await agentArea())))[0]!;
    const held = await db().select().from(t.busCards).where(and(eq(t.busCards.districtId, district.id), isNotNull(t.busCards.riderId))).orderBy(asc(t.busCards.id)).limit(15);
    const bound = await db().select({ cardNo: t.busCards.cardNo, b: t.familyBindings }).from(t.familyBindings).innerJoin(t.busCards, eq(t.busCards.id, t.familyBindings.cardId)).where(eq(t.familyBindings.districtId, district.id)).orderBy(asc(t.familyBindings.id)).limit(10);
    const orders = await db().select({ o: t.discountOrders, cardNo: t.busCards.cardNo }).from(t.discountOrders).innerJoin(t.busCards, eq(t.busCards.id, t.discountOrders.cardId)).where(eq(t.discountOrders.districtId, district.id)).orderBy(asc(t.discountOrders.id)).limit(20);
    const riders = await db().select().from(t.riders).where(and(eq(t.riders.districtId, district.id), isNotNull(t.riders.citizenEnc))).orderBy(asc(t.riders.id)).limit(10);
    const [product] = await db().select().from(t.discountProducts).where(eq(t.discountProducts.districtId, district.id)).limit(1);

    // Every list, to its last page.
    for (const e of [card.riderPage, card.riderPageByBody, card.cardPage, family.bindPage, family.bindPageByBody, family.renewLogPage, discount.discountOrderPage, discount.productPage, discount.countPage]) await crawlPages(e);
    await crawlPages(card.riderPage, { state: '0' });
    await crawlPages(card.riderPageByBody, { state: '0' });
    // Summaries, dictionaries, exports.
    for (const e of [card.riderSummary, card.cardStateCounts, family.bindSummary, family.renewLogSummary, family.cardTypeDict, discount.discountOrderTotal, discount.productTotal, discount.countTotal]) await crawl(e);
    await crawl(family.bindSummaryByBody, { body: {} });
    for (const e of [family.bindExport, family.renewLogExport, discount.downloadOrder, discount.downloadTotal]) await crawl(e);
    await crawl(family.bindExportByBody, { body: {} });
    // 导出乘客用户 is a task of 下载中心: its answer, every event of its stream's list, and its file.
    for (const query of [{}, { state: '0' }, { realName: '1' }] as Record<string, string>[]) {
      called.add(card.riderExport.id).add(exportTask.taskDownload.id);
      const { created, file, sheet } = await exportThroughTask(s, card.riderExport, token, query);
      scan(card.riderExport.id, created);
      expect(file.length).toBeGreaterThan(0);
      scan(`${card.riderExport.id} xlsx`, sheet.rows);
    }
    await crawl(exportTask.taskList, { query: { size: 50 } });
    // One record at a time: by phone, citizen id and card number, as the desk finds them.
    for (const r of riders) {
      const phone = pii.decrypt(r.phoneEnc);
      const citizen = pii.decrypt(r.citizenEnc!);
      await crawl(card.cardLookup, { body: { q: phone } });
      await crawl(card.cardLookup, { body: { q: citizen } });
      await crawl(card.riderPage, { query: { phone } });
      await crawl(card.riderPage, { query: { citizenCardNo: citizen } });
      await crawl(family.bindPage, { query: { citizenCardNo: citizen } });
      await crawl(card.riderReveal, { query: { id: r.id, reason: '巡检不应看到' } }, 403);
      // The body forms the console sends, with the same numbers.
      await crawl(card.riderPageByBody, { body: { phone } });
      await crawl(card.riderPageByBody, { body: { citizenCardNo: citizen } });
      await crawl(family.bindPageByBody, { body: { citizenCardNo: citizen } });
      await crawl(family.bindSummaryByBody, { body: { citizenCardNo: citizen } });
      await crawl(family.bindExportByBody, { body: { citizenCardNo: citizen } });
      await crawl(card.riderRevealByBody, { body: { id: r.id, reason: '巡检不应看到' } }, 403);
    }
    for (const c of [...held.map((h) => h.cardNo), ...bound.map((b) => b.cardNo), ...orders.map((o) => o.cardNo)]) {
      await crawl(card.cardView, { body: { cardNo: c } });
      await crawl(card.cardLookup, { body: { q: c } });
      await crawl(family.checkCard, { query: { busCardNo: c } });
    }
    for (const o of orders) await crawl(discount.discountOrderMsg, { query: { id: o.o.id } });
    await crawl(discount.productById, { query: { id: product!.id } });

    // The changes answer with the record they changed: masked too.
    const paid = orders.find((o) => o.o.payStatus === 1)!;
    await crawl(discount.discountOrderRefundRule);
    await crawl(discount.discountOrderRefund, { body: { id: paid.o.id, reason: '巡检退款', idempotencyKey: 'crawl-refund-0001', pwd: DEMO_PASSWORD } });
    const live = bound.filter((b) => b.b.status === 1);
    const holder = (await db().select().from(t.riders).where(eq(t.riders.id, live[0]!.b.holderId)))[0]!;
    await crawl(family.updateBind, { query: { pwd: DEMO_PASSWORD }, body: { id: live[1]!.b.id, relation: '巡检' } });
    await crawl(family.unBind, { query: { busCardNo: live[0]!.cardNo, citizenCardNo: pii.decrypt(holder.citizenEnc!), pwd: DEMO_PASSWORD } });
    const holder2 = (await db().select().from(t.riders).where(eq(t.riders.id, live[2]!.b.holderId)))[0]!;
    await crawl(family.updateBindByBody, { body: { id: live[3]!.b.id, relation: '巡检', pwd: DEMO_PASSWORD } });
    await crawl(family.unBindByBody, { body: { busCardNo: live[2]!.cardNo, citizenCardNo: pii.decrypt(holder2.citizenEnc!), pwd: DEMO_PASSWORD } });
    await crawl(card.riderAdd, { body: { phone: '13912345678', name: '巡检新乘客', citizenCardNo: '11010519491231002X' } });
    plain.add('13912345678').add('巡检新乘客').add('11010519491231002X');
    const [abnormal] = await db().select().from(t.riders).where(and(eq(t.riders.districtId, district.id), eq(t.riders.state, 0))).limit(1);
    // A note quoting the caller's numbers: the audit row must mask them inside the text.
    await crawl(card.riderResolve, { body: { id: abnormal!.id, note: '已致电13812345678核实，身份证110105194912310037' } });
    plain.add('13812345678').add('110105194912310037');
    // Products are managed by district managers (ROLE_ADMIN); they hold no rider, but are crawled all the same.
    const manager = await s.login('manager');
    const saved = (await crawl(discount.productSave, { token: manager, body: { name: '巡检产品', ticketType: 2, price: 3000, validDays: 30 } })) as { id: number };
    await crawl(discount.productStatus, { token: manager, query: { id: saved.id, status: '0' } });
    await crawl(discount.productDelete, { token: manager, query: { id: saved.id } });

    // 套餐购买: its lists, summaries, 体检, detail, preview, the refund, both exports through their tasks,
    // the phone filter of the body forms with the riders' real numbers, and the packages' changes.
    for (const e of [pkg.packagePage, pkg.packageOrderPage, pkg.packageOrderPageByBody, pkg.packageSummaryPage]) await crawlPages(e);
    for (const e of [pkg.packageTotal, pkg.packageOrderTotal, pkg.packageSummaryTotal, pkg.packageSummaryHealth]) await crawl(e);
    await crawl(pkg.packageOrderTotalByBody, { body: {} });
    const pkgOrders = await db().select().from(packageOrders).where(eq(packageOrders.districtId, district.id)).orderBy(asc(packageOrders.id)).limit(15);
    for (const o of pkgOrders) {
      await crawl(pkg.packageOrderMsg, { query: { id: o.id } });
      await crawl(pkg.packageOrderRefundPreview, { query: { id: o.id } });
      const [buyer] = await db().select().from(t.riders).where(eq(t.riders.id, o.riderId));
      const phone = pii.decrypt(buyer!.phoneEnc);
      await crawl(pkg.packageOrderPageByBody, { body: { phone } });
      await crawl(pkg.packageOrderTotalByBody, { body: { phone } });
    }
    await crawl(pkg.packageById, { query: { id: pkgOrders[0]!.packageId } });
    const activeOrder = pkgOrders.find((o) => o.status === 1)!;
    await crawl(pkg.packageOrderRefund, { body: { id: activeOrder.id, amount: 1, reason: '巡检退款，乘客13812345678来电', idempotencyKey: 'crawl-package-refund-1' } });
    for (const endpoint of [pkg.packageOrderExport, pkg.packageSummaryExport, pkg.packageExport]) {
      called.add(endpoint.id);
      const { created, sheet } = await exportThroughTask(s, endpoint, token, {});
      scan(endpoint.id, created);
      scan(`${endpoint.id} xlsx`, sheet.rows);
    }
    const pkgManager = await s.login('manager');
    const newPkg = (await crawl(pkg.packageSave, { token: pkgManager, body: { name: '巡检套餐', price: 1000, originalPrice: 2000, rides: 10, validDays: 30, saleStart: '2026-11-01T00:00:00+08:00', saleEnd: '2027-11-01T00:00:00+08:00' } })) as { id: number };
    await crawl(pkg.packageUpdateStatus, { token: pkgManager, body: { id: newPkg.id, fromStatus: 0, toStatus: 1 } });
    await crawl(pkg.packageUpdateStatus, { token: pkgManager, body: { id: newPkg.id, fromStatus: 1, toStatus: 2 } });
    await crawl(pkg.packageDelete, { token: pkgManager, query: { id: newPkg.id } });
    // NFC充值: its lists (the phone filter too), summary, worklist, export task, details and changes.
    const rider = { db: db(), clock: s.clock } as unknown as Parameters<typeof createOrder>[0];
    const heldHere = held.filter((h) => h.state === 1 && h.balance < 50_000);
    const nfc = async (i: number, end: 'suspect' | 'failed') => {
      const o = await createOrder(rider, { cardNo: heldHere[i]!.cardNo, amount: 2_000 });
      await pay(rider, o.id);
      await startWrite(rider, o.id);
      if (end === 'suspect') {
        await cardLoaded(rider, o.id, { txnSeq: `M${o.id}`, tac: 'AB12CD34' });
        await db().update(rechargeOrders).set({ writeState: 4 }).where(eq(rechargeOrders.id, o.id));
      } else await failWrite(rider, o.id, '巡检写卡失败');
      return o.id;
    };
    const [suspectId, failedId] = [await nfc(0, 'suspect'), await nfc(1, 'failed')];
    // 卡片详情 with the money (issue 22): the cards with top-ups, and the cards of riders holding packages
    // (the crawler has 储值管理 too, so the wallet part is in every card/view answer).
    const pkgCards = await db().select({ cardNo: t.busCards.cardNo }).from(t.busCards).where(and(eq(t.busCards.districtId, district.id), inArray(t.busCards.riderId, pkgOrders.map((o) => o.riderId)))).limit(10);
    for (const c of [heldHere[0]!.cardNo, heldHere[1]!.cardNo, ...pkgCards.map((x) => x.cardNo)]) await crawl(card.cardView, { body: { cardNo: c } });
    await crawlPages(recharge.rechargePage);
    await crawl(recharge.rechargeTotal);
    await crawl(recharge.rechargeReconcilePage, { query: { size: 100 } });
    await crawl(recharge.rechargeReconcileTotal);
    for (const r of riders.slice(0, 5)) await crawl(recharge.rechargePage, { query: { phone: pii.decrypt(r.phoneEnc) } });
    for (const r of riders.slice(0, 3)) {
      await crawl(recharge.rechargePageByBody, { body: { phone: pii.decrypt(r.phoneEnc) } });
      await crawl(recharge.rechargeTotalByBody, { body: { phone: pii.decrypt(r.phoneEnc) } });
    }
    for (const id of [suspectId, failedId]) await crawl(recharge.rechargeMsg, { query: { id } });
    await crawl(recharge.rechargeRequery, { body: { id: failedId } });
    await crawl(recharge.rechargeResolve, { body: { id: suspectId, fromState: 4, toState: 2, note: '巡检核实，来电13812345678' } });
    await crawl(recharge.rechargeRefund, { body: { id: failedId, reason: '巡检退款，乘客13812345678来电', idempotencyKey: 'crawl-nfc-refund-1' } });
    called.add(recharge.rechargeExport.id);
    const nfcExport = await exportThroughTask(s, recharge.rechargeExport, token, {});
    scan(recharge.rechargeExport.id, nfcExport.created);
    scan(`${recharge.rechargeExport.id} xlsx`, nfcExport.sheet.rows);
    called.add(recharge.rechargeReconcileExport.id);
    const worklist = await exportThroughTask(s, recharge.rechargeReconcileExport, token, {});
    scan(recharge.rechargeReconcileExport.id, worklist.created);
    scan(`${recharge.rechargeReconcileExport.id} xlsx`, worklist.sheet.rows);

    // 车辆与司机 (定制公交): the drivers' phones and citizen ids are sealed like the riders'. Their lists,
    // body forms (with the real numbers), totals, details, changes and both exports, as the district's
    // manager reads them (the crawler has no 定制公交 menu); the reveal is the one call that shows them.
    const fleetToken = await s.login('manager');
    for (const d of await db().select().from(customDrivers)) plain.add(pii.decrypt(d.phoneEnc)).add(pii.decrypt(d.idEnc));
    for (const e of [fleet.carPage, fleet.driverPage, fleet.driverPageByBody]) {
      for (let page = 0; ; page++) {
        const paging = { page, size: MAX_PAGE_SIZE };
        const data = (await crawl(e, { token: fleetToken, ...(e.bodyFormOf ? { body: paging } : { query: paging }) })) as { totalPages: number };
        if (page + 1 >= data.totalPages) break;
      }
    }
    await crawl(fleet.carTotal, { token: fleetToken });
    await crawl(fleet.driverTotal, { token: fleetToken });
    const fleetDrivers = await db().select().from(customDrivers).where(eq(customDrivers.districtId, (await db().select().from(t.users).where(eq(t.users.login, 'manager')))[0]!.districtId!));
    for (const d of fleetDrivers) {
      await crawl(fleet.driverPageByBody, { token: fleetToken, body: { phone: pii.decrypt(d.phoneEnc) } });
      await crawl(fleet.driverTotalByBody, { token: fleetToken, body: { idNo: pii.decrypt(d.idEnc) } });
      await crawl(fleet.driverById, { token: fleetToken, query: { id: d.id } });
    }
    const newDriver = (await crawl(fleet.driverSave, { token: fleetToken, body: { name: '巡检司机', phone: '13912340001', idNo: `11010519800101123${citizenCheckChar('11010519800101123')}`, licenceClass: 'A1', licenceUntil: '2030-01-01' } })) as { id: number };
    plain.add('13912340001').add(`11010519800101123${citizenCheckChar('11010519800101123')}`);
    expect(newDriver.id).toBeGreaterThan(0);
    await crawl(fleet.driverSave, { token: fleetToken, body: { id: newDriver.id, name: '巡检司机', phone: '13912340002', licenceClass: 'A3', licenceUntil: '2030-01-01' } });
    plain.add('13912340002');
    await crawl(fleet.driverUpdateStatus, { token: fleetToken, body: { id: newDriver.id, fromStatus: 1, toStatus: 2, reason: '请假，电话13912340002' } });
    for (const endpoint of [fleet.carExport, fleet.driverExport]) {
      const { created, sheet } = await exportThroughTask(s, endpoint, fleetToken, {});
      scan(endpoint.id, created);
      scan(`${endpoint.id} xlsx`, sheet.rows);
    }

    // 定制公交's riders (订单记录, 班次详情's passengers, 定制记录): the same riders' numbers, masked in
    // every list, body-form filter, detail and export, as the district's manager reads them.
    const pagesAs = async (e: Endpoint, tok: string) => {
      for (let page = 0; ; page++) {
        const paging = { page, size: MAX_PAGE_SIZE };
        const data = (await crawl(e, { token: tok, ...(e.bodyFormOf ? { body: paging } : { query: paging }) })) as { totalPages: number };
        if (page + 1 >= data.totalPages) return;
      }
    };
    const managerArea = (await db().select().from(t.users).where(eq(t.users.login, 'manager')))[0]!.districtId!;
    for (const e of [customOrdersApi.customOrderPage, customOrdersApi.customOrderPageByBody, customDemandApi.customDemandRecordPage, customDemandApi.customDemandPage]) await pagesAs(e, fleetToken);
    await crawl(customOrdersApi.customOrderTotal, { token: fleetToken });
    const someOrders = await db().select().from(customOrders).where(eq(customOrders.districtId, managerArea)).orderBy(asc(customOrders.id)).limit(10);
    expect(someOrders.length).toBeGreaterThan(0);
    for (const o of someOrders) {
      await crawl(customOrdersApi.customOrderMsg, { token: fleetToken, query: { id: o.id } });
      if (o.classesId) await crawl(customClassesApi.classesById, { token: fleetToken, query: { id: o.classesId } });
      const [buyer] = await db().select().from(t.riders).where(eq(t.riders.id, o.riderId));
      await crawl(customOrdersApi.customOrderPageByBody, { token: fleetToken, body: { phone: pii.decrypt(buyer!.phoneEnc) } });
      await crawl(customOrdersApi.customOrderTotalByBody, { token: fleetToken, body: { phone: pii.decrypt(buyer!.phoneEnc) } });
    }
    const [withClasses] = await db().select().from(customClasses).where(eq(customClasses.districtId, managerArea)).limit(1);
    await crawl(customClassesApi.classesPage, { token: fleetToken, query: { lineId: withClasses!.lineId } });
    const [record] = await db().select().from(customDemandRecords).where(eq(customDemandRecords.districtId, managerArea)).limit(1);
    if (record?.demandId) await crawl(customDemandApi.customDemandById, { token: fleetToken, query: { id: record.demandId } });
    for (const endpoint of [customOrdersApi.customOrderExport, customDemandApi.customDemandRecordExport, customClassesApi.classesExport]) {
      const { created, sheet } = await exportThroughTask(s, endpoint, fleetToken, {});
      scan(endpoint.id, created);
      scan(`${endpoint.id} xlsx`, sheet.rows);
    }

    // 办卡申请 (线上办卡): the applicants' names, ids and phones are sealed; every list (the phone and id
    // filters of the body forms with the real numbers), summary, detail, change, the material (an image,
    // no personal string) and the masked export. The factory file is the one that names the holder in
    // clear, by design (HANDLE_CARD_FACTORY_EXPORT, audited): it is read for phones and ids only.
    const hcApps = await db().select().from(handleCardApplications);
    for (const a of hcApps) plain.add(pii.decrypt(a.nameEnc)).add(pii.decrypt(a.idEnc)).add(pii.decrypt(a.phoneEnc));
    await crawlPages(handleApi.applyPage);
    await crawlPages(handleApi.applyPageByBody);
    await crawl(handleApi.applyTotal);
    await crawl(handleApi.applyTotalByBody, { body: {} });
    await crawl(handleApi.settingList);
    const hcArea = await agentArea();
    const hcHere = hcApps.filter((a) => a.districtId === hcArea);
    for (const a of hcHere) {
      await crawl(handleApi.applyMsg, { query: { id: a.id } });
      await crawl(handleApi.applyPageByBody, { body: { phone: pii.decrypt(a.phoneEnc) } });
      await crawl(handleApi.applyTotalByBody, { body: { idNo: pii.decrypt(a.idEnc) } });
    }
    const hcSetting = (await db().select().from(handleCardSettings).where(eq(handleCardSettings.districtId, hcArea)))[0]!;
    await crawl(handleApi.settingById, { query: { id: hcSetting.id } });
    const hcManager = await s.login('manager');
    const hcManagerArea = await managerDistrict();
    const hcMine = hcApps.filter((a) => a.districtId === hcManagerArea);
    const waiting = hcMine.filter((a) => a.status === 1);
    const shipped = hcMine.find((a) => a.status === 4);
    // The review queue's claim answers the detail (masked), by id and as the next; then given back.
    if (waiting[0]) await crawl(handleApi.applyClaim, { token: hcManager, body: { id: waiting[0].id } });
    const hcNext = await crawl(handleApi.applyClaim, { token: hcManager, body: { skip: waiting[0] ? [waiting[0].id] : [] } });
    for (const id of [waiting[0]?.id, (hcNext as { id: number } | null)?.id]) if (id) await crawl(handleApi.applyRelease, { token: hcManager, body: { id } });
    if (waiting[0]) await crawl(handleApi.applyAudit, { token: hcManager, body: { id: waiting[0].id, fromStatus: 1, toStatus: 3, reason: '巡检驳回，乘客13812345678来电', idempotencyKey: 'crawl-hc-audit-1' } });
    await crawl(handleApi.applyAuditBatch, { token: hcManager, body: { ids: waiting.slice(1).map((a) => a.id).concat([999_999]), idempotencyKey: 'crawl-hc-batch-1' } });
    // One of the crawl's own, submitted and paid on the rider side, approved and shipped here.
    const [hcRider] = await db().select({ id: t.riders.id }).from(t.riders).limit(1);
    const hcCode = (await db().select().from(t.districts).where(eq(t.districts.id, hcManagerArea)))[0]!.code;
    const hcDeps = { db: db(), clock: s.clock, pii } as unknown as Parameters<typeof submitApplication>[0];
    const fresh = await submitApplication(hcDeps, { riderId: hcRider!.id, districtId: hcManagerArea, cardCategory: 6, name: '巡检申请人', idNo: citizenIdOf(hcCode, '1990-04-04', 777, false), phone: '13955554444', address: '上海市徐汇区衡山路9号', delivery: 2, photo: placeholderImage('照片', 358, 441), idFront: placeholderImage('正面', 428, 270), idBack: placeholderImage('反面', 428, 270) });
    await payApplication(hcDeps, fresh.id);
    plain.add('巡检申请人').add('13955554444').add(citizenIdOf(hcCode, '1990-04-04', 777, false));
    await crawl(handleApi.applyAudit, { token: hcManager, body: { id: fresh.id, fromStatus: 1, toStatus: 2, idempotencyKey: 'crawl-hc-approve-1' } });
    const making = fresh;
    if (making) await crawl(handleApi.applyShip, { token: hcManager, body: { id: making.id, trackingNo: 'SF9000000001', pickupReady: true } });
    if (shipped) await crawl(handleApi.applyComplete, { token: hcManager, body: { id: shipped.id } });
    const hcFile = (await db().select().from(t.sealedFiles).where(and(eq(t.sealedFiles.kind, 'handle'), isNotNull(t.sealedFiles.data), inArray(t.sealedFiles.refId, hcMine.map((a) => a.id)))).limit(1))[0]!;
    await crawl(handleApi.applyMaterial, { token: hcManager, body: { id: hcFile.refId, materialId: hcFile.id, reason: '巡检查看材料' } });
    await crawl(handleApi.settingSave, { token: hcManager, body: { id: hcSetting.id, cardCategory: hcSetting.cardCategory, open: hcSetting.open, ageMin: hcSetting.ageMin, ageMax: hcSetting.ageMax, feeFen: hcSetting.feeFen, deliveryModes: hcSetting.deliveryModes, materials: hcSetting.materials, onePerId: hcSetting.onePerId, dailyQuota: hcSetting.dailyQuota } }, hcSetting.districtId === hcManagerArea ? 200 : 403);
    called.add(handleApi.applyExport.id);
    const hcExport = await exportThroughTask(s, handleApi.applyExport, token, {});
    scan(handleApi.applyExport.id, hcExport.created);
    scan(`${handleApi.applyExport.id} xlsx`, hcExport.sheet.rows);
    called.add(handleApi.applyFactoryExport.id);
    const batchDay = hcMine.find((a) => a.batchNo)?.batchNo ?? '2026-11-01';
    const factory = await exportThroughTask(s, handleApi.applyFactoryExport, hcManager, { batchDate: batchDay });
    scan(handleApi.applyFactoryExport.id, factory.created);
    for (const cell of factory.sheet.rows.flat()) if (PHONE.test(cell) || CITIZEN.test(cell) || hcApps.some((a) => cell === pii.decrypt(a.idEnc) || cell === pii.decrypt(a.phoneEnc))) leaks.push(`factory xlsx: ${cell}`);
    // 意见反馈: the riders' phones, the contact phones they left and numbers typed into the words, the
    // replies and reasons, masked in the list, summary, detail (with the linked rides and the cluster),
    // the changes' answers, the export and the audit rows, as the desk (agent) reads them.
    const desk = await s.login('agent');
    for (const f of await db().select().from(feedback)) if (f.contactPhoneEnc) plain.add(pii.decrypt(f.contactPhoneEnc));
    const deskArea = (await db().select().from(t.users).where(eq(t.users.login, 'agent')))[0]!.districtId!;
    const [fbRider] = await db().select().from(t.riders).where(eq(t.riders.districtId, deskArea)).limit(1);
    const fbDeps = { db: db(), clock: s.clock, pii } as unknown as Parameters<typeof submitFeedback>[0];
    const said = await Promise.all([0, 1, 2].map(() => submitFeedback(fbDeps, { riderId: fbRider!.id, category: 2, content: '司机态度差，请回电13812345678，身份证110105194912310037', contactPhone: '13912349999' })));
    plain.add('13912349999');
    await pagesAs(fb.feedbackPage, desk);
    await crawl(fb.feedbackSummary, { token: desk });
    for (const f of await db().select({ id: feedback.id }).from(feedback).where(eq(feedback.districtId, deskArea)).orderBy(asc(feedback.id)).limit(20)) await crawl(fb.feedbackById, { token: desk, query: { id: f.id } });
    await crawl(fb.feedbackAssign, { token: desk, body: { id: said[0] } });
    await crawl(fb.feedbackReply, { token: desk, body: { id: said[0], fromStatus: 3, reply: '已致电13812345678核实', clusterIds: [said[1]] } });
    await crawl(fb.feedbackUpdateStatus, { token: desk, body: { id: said[2], fromStatus: 0, toStatus: 2, reason: '乘客13812345678要求撤回' } });
    // The one call that opens the phone is refused to the crawler (no FEEDBACK_HANDLE).
    await crawl(fb.feedbackMaterial, { body: { id: said[0], reason: '巡检不应看到' } }, 403);
    {
      const { created, sheet } = await exportThroughTask(s, fb.feedbackExport, desk, {});
      scan(fb.feedbackExport.id, created);
      scan(`${fb.feedbackExport.id} xlsx`, sheet.rows);
    }

    // 线上验卡 (second wave §4): applicants' names, ids and phones are sealed; every list, body-form
    // filter with a real id, summary, detail, decision, the radar and the export, as the district's manager reads them.
    for (const a of await db().select().from(verifyApps)) plain.add(pii.decrypt(a.nameEnc)).add(pii.decrypt(a.idEnc)).add(pii.decrypt(a.phoneEnc));
    const verifyDeps = { db: db(), clock: s.clock, pii } as unknown as AppDeps;
    const verifyCards = await db().select({ cardNo: t.busCards.cardNo, citizenEnc: t.riders.citizenEnc }).from(t.busCards).innerJoin(t.riders, eq(t.riders.id, t.busCards.riderId)).where(and(eq(t.busCards.districtId, managerArea), inArray(t.busCards.category, [4, 5]), eq(t.busCards.state, 1), isNotNull(t.riders.citizenEnc), sql`not exists (select 1 from card_verify_applications x where x.card_id = ${t.busCards.id})`)).limit(3);
    const submitted = [];
    for (const c of verifyCards) {
      submitted.push(await submitVerify(verifyDeps, { cardNo: c.cardNo, name: '巡检申请人', idNo: pii.decrypt(c.citizenEnc!), phone: '13912340003', faceScore: 95, guardianConsent: true }));
      plain.add('13912340003');
    }
    await pagesAs(verifyApi.verifyPage, hcManager);
    await pagesAs(verifyApi.verifyPageByBody, hcManager);
    await crawl(verifyApi.verifyTotal, { token: hcManager });
    for (const a of submitted) {
      await crawl(verifyApi.verifyPageByBody, { token: hcManager, body: { idNo: pii.decrypt(a.idEnc) } });
      await crawl(verifyApi.verifyTotalByBody, { token: hcManager, body: { idNo: pii.decrypt(a.idEnc) } });
      await crawl(verifyApi.verifyMsg, { token: hcManager, query: { id: a.id } });
    }
    await crawl(verifyApi.verifyClaim, { token: hcManager, body: { id: submitted[0]!.id } });
    await crawl(verifyApi.verifyAudit, { token: hcManager, body: { id: submitted[0]!.id, fromStatus: 0, toStatus: 1, note: '巡检：来电13812345678' } });
    await crawl(verifyApi.verifyAudit, { token: hcManager, body: { id: submitted[1]!.id, fromStatus: 0, toStatus: 2, reason: '巡检驳回，身份证11010519491231002X' } });
    await crawl(verifyApi.verifyRevoke, { token: hcManager, body: { id: submitted[0]!.id, fromStatus: 1, reason: '巡检撤销，来电13812345678' } });
    await crawl(verifyApi.verifyDueRadar, { token: hcManager });
    await crawl(verifyApi.verifyDueRemind, { token: hcManager, body: { days: 90 } });
    await crawl(verifyApi.verifyConfigList, { token: hcManager });
    {
      const { created, sheet } = await exportThroughTask(s, verifyApi.verifyExport, hcManager, {});
      scan(verifyApi.verifyExport.id, created);
      scan(`${verifyApi.verifyExport.id} xlsx`, sheet.rows);
    }

    // The audit rows the crawl wrote, and every other desk row.
    scan('sys_log', await db().select().from(t.sysLog));

    expect(ENDPOINTS.map((e) => e.id).filter((id) => !called.has(id))).toEqual([]);
    expect(leaks).toEqual([]);
    // Not vacuous: thousands of strings read, hundreds of them masked phones.
    expect(masked).toBeGreaterThan(100);
    expect(strings).toBeGreaterThan(2_000);
    // Every call of the desk and their files, one after another: 2–3 s alone, over 30 s when the run's
    // pool shares two cores with the browser tests (timed out in a run under load).
  }, 180_000);

  it('refuses every call of the desk to an account without its menus (the viewer): 403, nothing read or changed', async () => {
    const viewer = await s.login('viewer');
    const before = await db().select({ n: t.sysLog.id }).from(t.sysLog);
    const refused = [];
    for (const e of ENDPOINTS) {
      const res = await s.call(e, { token: viewer, query: {}, ...(e.bodyType === 'none' ? {} : { body: {} }) });
      refused.push([e.id, res.status]);
    }
    expect(refused.filter(([, status]) => status !== 403)).toEqual([]);
    // Each refusal is in the system log (as every 403 is), and nothing else was written.
    const after = await db().select({ n: t.sysLog.id }).from(t.sysLog);
    expect(after.length - before.length).toBe(ENDPOINTS.length);
  });
});


/** The district manager's district (the changes are the manager's). */
async function managerDistrict(): Promise<number> {
  const [u] = await db().select().from(t.users).where(eq(t.users.login, 'manager'));
  return u!.districtId!;
}

/** The agent's own district: the crawl reads what the desk of that area reads. */
async function agentArea(): Promise<number> {
  const [u] = await db().select().from(t.users).where(eq(t.users.login, 'crawler'));
  return u!.districtId!;
}
