import { asc, eq, isNotNull } from 'drizzle-orm';
import { bulkInsert } from '../../db/seed/bulk';
import * as t from '../../db/schema';
import type { SeedContext, SeedGenerator } from '../../db/seed/context';
import { shanghaiDate } from '../../../shared/domain/time';

const PRODUCTS: [name: string, ticketType: number, price: number, validDays: number][] = [
  ['单次优惠票', 1, 100, 1],
  ['学生月票', 2, 3_000, 30],
  ['敬老月票', 2, 2_000, 30],
  ['通勤月票', 2, 9_000, 30],
  ['年票', 3, 80_000, 365],
];

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/**
 * Discount-card products per district, and their orders on held cards (read from the rider
 * module's tables, seeded first): mostly paid, some unpaid, some refunded, each refund with its
 * ledger row.
 */
async function seedDiscounts({ db, rng, now, profile }: SeedContext): Promise<void> {
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000);
  const orderCount = profile.name === 'demo' ? 12_000 : 120;
  const districts = (await db.select({ id: t.districts.id }).from(t.districts).orderBy(asc(t.districts.id))).map((d) => d.id);
  await bulkInsert(
    db,
    'discount_products',
    ['district_id', 'name', 'ticket_type', 'price', 'status', 'valid_days', 'description', 'created_at', 'updated_at'],
    districts.flatMap((d) => PRODUCTS.map(([name, type, price, days], k) => [d, name, type, price, k === 3 && d % 3 === 0 ? 0 : 1, days, `${name}，有效期 ${days} 天`, at(400), at(rng.int(1, 300))])),
  );
  const products = await db.select().from(t.discountProducts).orderBy(asc(t.discountProducts.id));
  const buyers = await db
    .select({ id: t.busCards.id, riderId: t.busCards.riderId, districtId: t.busCards.districtId })
    .from(t.busCards)
    .where(isNotNull(t.busCards.riderId))
    .orderBy(asc(t.busCards.id))
    .limit(orderCount * 2);
  const orders: (string | number | Date | null)[][] = [];
  for (let i = 0; i < orderCount; i++) {
    const c = rng.pick(buyers);
    const p = rng.pick(products.filter((x) => x.districtId === c.districtId));
    const created = at(rng.int(0, 365));
    const roll = rng.next();
    const status = roll < 0.85 ? 1 : roll < 0.95 ? 0 : 2;
    orders.push([`DC${shanghaiDate(created).replaceAll('-', '')}${pad(i, 7)}`, p.id, c.id, c.riderId, c.districtId, p.price, status, status ? new Date(created.getTime() + 60_000) : null, status === 2 ? new Date(created.getTime() + 3 * 86_400_000) : null, created]);
  }
  // Every district with orders has a refunded one (its detail and ledger row are part of the demo),
  // however few orders a small profile draws: the district's first paid order, refunded 3 days on.
  const seen = new Set(orders.filter((o) => o[6] === 2).map((o) => o[4]));
  for (const o of orders) {
    if (o[6] !== 1 || seen.has(o[4])) continue;
    seen.add(o[4]);
    o[6] = 2;
    o[8] = new Date((o[9] as Date).getTime() + 3 * 86_400_000);
  }
  await bulkInsert(db, 'discount_orders', ['order_no', 'product_id', 'card_id', 'rider_id', 'district_id', 'amount', 'pay_status', 'paid_at', 'refunded_at', 'created_at'], orders);
  const refunded = await db.select().from(t.discountOrders).where(eq(t.discountOrders.payStatus, 2)).orderBy(asc(t.discountOrders.id));
  await bulkInsert(db, 'refunds', ['order_id', 'amount', 'idempotency_key', 'reason', 'operator_id', 'created_at'], refunded.map((o) => [o.id, o.amount, `seed-${o.orderNo}`, rng.pick(['乘客申请退款', '重复购买', '卡片已挂失']), null, o.refundedAt]));
}

export const discountDemoSeed: SeedGenerator[] = [{ name: 'discount-orders', run: seedDiscounts }];
