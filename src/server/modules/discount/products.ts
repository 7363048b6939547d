import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { discount } from '../../../shared/api';
import { PRODUCT_STATE } from '../../../shared/api/discount';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { audit } from '../../lib/audit';
import { fail, notFound } from '../../lib/errors';
import { listService } from '../../lib/list';
import { assertInScope } from '../../lib/scope';
import { moveStatus } from '../../lib/transition';
import { checkVersion, nextVersion, updateVersioned } from '../../lib/row-version';
import { contains, iso } from '../../lib/sql';

type Filters = z.output<typeof discount.productTotal.query>;
type PageQuery = z.output<typeof discount.productPage.query>;
type SaveBody = z.output<typeof discount.productSave.body>;

const orders = sql<number>`(select count(*)::int from ${t.discountOrders} o where o.product_id = ${t.discountProducts.id})`;
const select = (db: Db) => db.select({ p: t.discountProducts, districtName: t.districts.name, orders }).from(t.discountProducts).leftJoin(t.districts, eq(t.districts.id, t.discountProducts.districtId));
type Row = { p: typeof t.discountProducts.$inferSelect; districtName: string | null; orders: number };
const dto = ({ p, districtName, orders: n }: Row) => ({
  id: p.id,
  districtId: p.districtId,
  districtName,
  name: p.name,
  ticketType: p.ticketType,
  price: p.price,
  status: PRODUCT_STATE.schema.parse(p.status),
  validDays: p.validDays,
  description: p.description,
  orders: Number(n),
  updatedDate: iso(p.updatedAt),
  rowVersion: p.rowVersion,
});

/** 规则设置: the area's products by name, ticket type and sale; deleted ones (kept for their orders' history) are in no list. */
const productList = listService({
  endpoint: discount.productPage,
  select,
  count: (db) => db.select({ n: count() }).from(t.discountProducts),
  scope: t.discountProducts.districtId,
  base: isNull(t.discountProducts.deletedAt),
  filters: {
    name: (name) => contains(t.discountProducts.name, name),
    ticketType: (ticketType) => eq(t.discountProducts.ticketType, ticketType),
    status: (status) => eq(t.discountProducts.status, status),
  },
  sorts: { updatedDate: t.discountProducts.updatedAt, price: t.discountProducts.price },
  order: { column: t.discountProducts.updatedAt, dir: 'desc' },
  key: { column: t.discountProducts.id, of: (r) => r.p.id },
  dto,
});

export const pageProducts = (deps: AppDeps, a: AuthContext, q: PageQuery) => productList.page(deps, a, q);

export async function productTotals(deps: AppDeps, a: AuthContext, q: Filters) {
  const [r] = await deps.db
    .select({ total: count(), onSale: sql<number>`count(*) filter (where ${t.discountProducts.status} = 1)::int` })
    .from(t.discountProducts)
    .where(productList.where(deps, a, q));
  const total = r?.total ?? 0;
  return { total, onSale: Number(r?.onSale ?? 0), offSale: total - Number(r?.onSale ?? 0) };
}

async function load(db: Db, a: AuthContext, id: number, lock = false) {
  const base = db.select().from(t.discountProducts).where(and(eq(t.discountProducts.id, id), isNull(t.discountProducts.deletedAt)));
  const [p] = lock ? await base.for('update') : await base;
  if (!p) throw notFound('优惠卡不存在');
  assertInScope(a, p.districtId);
  return p;
}

const row = async (db: Db, id: number) => dto((await select(db).where(eq(t.discountProducts.id, id)))[0]!);

export async function productById(deps: AppDeps, a: AuthContext, id: number) {
  await load(deps.db, a, id);
  return row(deps.db, id);
}

export async function saveProduct(deps: AppDeps, a: AuthContext, body: SaveBody) {
  const now = deps.clock.now();
  const values = { name: body.name, ticketType: body.ticketType, price: body.price, validDays: body.validDays, description: body.description ?? null, updatedAt: now };
  return deps.db.transaction(async (tx) => {
    if (body.id === undefined) {
      if (a.districtScope === null) throw fail('请先选择区域再新增优惠卡');
      const [created] = await tx.insert(t.discountProducts).values({ ...values, districtId: a.districtScope, status: 0, createdAt: now }).returning({ id: t.discountProducts.id });
      const after = await row(tx, created!.id);
      await audit(tx, a.actor, { type: 'DISCOUNT_CARD_SAVE', targetDistrictId: a.districtScope, target: `discount-card/${after.id}`, summary: `新增优惠卡「${after.name}」（未上架）`, after }, now);
      return after;
    }
    const p = await load(tx, a, body.id, true);
    const before = await row(tx, p.id);
    await updateVersioned(tx, { table: t.discountProducts, key: t.discountProducts.id, id: p.id, version: body.rowVersion, set: values, current: () => before });
    const after = await row(tx, p.id);
    await audit(tx, a.actor, { type: 'DISCOUNT_CARD_SAVE', targetDistrictId: p.districtId, target: `discount-card/${p.id}`, summary: `修改优惠卡「${after.name}」`, before, after }, now);
    return after;
  });
}

/** 上架/下架: a guarded move of the product's sale status, audited with the rows before and after. */
export async function setStatus(deps: AppDeps, a: AuthContext, q: { id: number; status: 0 | 1; rowVersion?: number | undefined }) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const p = await load(tx, a, q.id, true);
    const what = `优惠卡「${p.name}」`;
    await checkVersion(p, q.rowVersion, () => row(tx, p.id));
    if (p.status === q.status) throw fail(`${what}已经${q.status ? '上架' : '下架'}`);
    const before = await row(tx, p.id);
    await moveStatus(tx, { flow: PRODUCT_STATE, table: t.discountProducts, key: t.discountProducts.id, id: p.id, status: t.discountProducts.status, to: q.status, set: { status: q.status, updatedAt: now }, what, version: { column: t.discountProducts.rowVersion, sent: q.rowVersion, current: () => before } });
    const after = await row(tx, p.id);
    await audit(tx, a.actor, { type: 'DISCOUNT_CARD_STATUS', targetDistrictId: p.districtId, target: `discount-card/${p.id}`, summary: `${what}${q.status ? '上架' : '下架'}`, before, after }, now);
    return after;
  });
}

/** A product nobody bought is deleted; one with orders is kept for their history and refused here. */
export async function deleteProduct(deps: AppDeps, a: AuthContext, id: number) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const p = await load(tx, a, id, true);
    const before = await row(tx, p.id);
    if (before.orders > 0) throw fail(`优惠卡「${p.name}」已有 ${before.orders} 笔订单，不能删除，请改为下架`);
    await tx.update(t.discountProducts).set({ deletedAt: now, status: 0, updatedAt: now, rowVersion: nextVersion(t.discountProducts.rowVersion) }).where(eq(t.discountProducts.id, p.id));
    await audit(tx, a.actor, { type: 'DISCOUNT_CARD_DELETE', targetDistrictId: p.districtId, target: `discount-card/${p.id}`, summary: `删除优惠卡「${p.name}」`, before }, now);
    return { id: p.id };
  });
}
