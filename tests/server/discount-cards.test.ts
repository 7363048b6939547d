import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discount } from '../../src/shared/api';
import * as t from '../../src/server/db/schema';
import { type TestServer, startTestServer } from '../support/test-server';

/** 优惠卡 products: the district's managers create, price, put on and take off sale, delete the unbought. */
let s: TestServer;
let manager: string;
let agent: string;
let xuhui: number;
const db = () => s.database.db;

beforeAll(async () => {
  s = await startTestServer();
  manager = await s.login('manager');
  agent = await s.login('agent');
  xuhui = (await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区')))[0]!.id;
});
afterAll(() => s.close());

const save = (token: string, body: Record<string, unknown>) => s.call(discount.productSave, { token, body });

describe('busDiscountCard', () => {
  it('lists the area\'s products with their order counts, and totals them', async () => {
    const page = await s.call(discount.productPage, { token: agent, query: { size: 100 } });
    expect(page.body.data.content.length).toBeGreaterThan(0);
    expect(page.body.data.content.every((p) => p.districtId === xuhui)).toBe(true);
    const total = await s.call(discount.productTotal, { token: agent });
    expect(total.body.data.total).toBe(page.body.data.totalElements);
    expect(total.body.data.onSale + total.body.data.offSale).toBe(total.body.data.total);
    const withOrders = page.body.data.content.find((p) => p.orders > 0)!;
    const [n] = await db().select({ n: sql<number>`count(*)::int` }).from(t.discountOrders).where(eq(t.discountOrders.productId, withOrders.id));
    expect(withOrders.orders).toBe(n!.n);
  });

  it('a new product starts off sale; it is put on sale by the GET of the spec, edited, and deleted while unbought — each audited', async () => {
    const created = await save(manager, { name: '夜班通勤月票', ticketType: 2, price: 6000, validDays: 30, description: '22:00 后乘车' });
    expect(created.body.data).toMatchObject({ status: 0, districtId: xuhui, orders: 0 });
    const id = created.body.data.id;
    const on = await s.call(discount.productStatus, { token: manager, query: { id, status: '1' } });
    expect(on.body.data.status).toBe(1);
    expect((await s.call(discount.productStatus, { token: manager, query: { id, status: '1' } })).body).toMatchObject({ code: 0, msg: '优惠卡「夜班通勤月票」已经上架' });
    const edited = await save(manager, { id, name: '夜班通勤月票', ticketType: 2, price: 5500, validDays: 30 });
    expect(edited.body.data.price).toBe(5500);
    expect((await s.call(discount.productDelete, { token: manager, query: { id } })).body).toMatchObject({ code: 1, data: { id } });
    expect((await s.call(discount.productById, { token: manager, query: { id } })).body).toMatchObject({ code: 404 });
    const logs = await db().select().from(t.sysLog).where(eq(t.sysLog.target, `discount-card/${id}`)).orderBy(desc(t.sysLog.id));
    expect(logs.map((l) => l.operationType)).toEqual(['DISCOUNT_CARD_DELETE', 'DISCOUNT_CARD_SAVE', 'DISCOUNT_CARD_STATUS', 'DISCOUNT_CARD_SAVE']);
  });

  it('keeps a product with orders (refuses to delete it), and refuses agents and other districts', async () => {
    const [bought] = await db().select().from(t.discountProducts).where(and(eq(t.discountProducts.districtId, xuhui), sql`exists (select 1 from discount_orders o where o.product_id = ${t.discountProducts.id})`)).limit(1);
    const res = await s.call(discount.productDelete, { token: manager, query: { id: bought!.id } });
    expect(res.body.code).toBe(0);
    expect(res.body.msg).toMatch(/已有 \d+ 笔订单，不能删除，请改为下架/);
    expect((await s.call(discount.productStatus, { token: agent, query: { id: bought!.id, status: '0' } })).status).toBe(403);
    expect((await save(agent, { name: 'x', ticketType: 1, price: 1, validDays: 1 })).status).toBe(403);
    const [foreign] = await db().select().from(t.discountProducts).where(sql`${t.discountProducts.districtId} <> ${xuhui}`).limit(1);
    expect((await s.call(discount.productStatus, { token: manager, query: { id: foreign!.id, status: String(1 - foreign!.status) } })).status).toBe(403);
    const [still] = await db().select().from(t.discountProducts).where(eq(t.discountProducts.id, foreign!.id));
    expect(still!.status).toBe(foreign!.status);
  });

  it.each([
    [{ ticketType: 4, price: 100, validDays: 1, name: '票' }, '票种应为'],
    [{ ticketType: 1, price: -1, validDays: 1, name: '票' }, '价格不能小于0'],
    [{ ticketType: 1, price: 1.5, validDays: 1, name: '票' }, '价格应为整数（分）'],
    [{ ticketType: 1, price: 100, validDays: 0, name: '票' }, '有效天数至少1天'],
    [{ ticketType: 1, price: 100, validDays: 1, name: '' }, '名称不能为空'],
  ])('refuses %j in Chinese', async (body, msg) => {
    const res = await save(manager, body);
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain(msg);
  });
});
