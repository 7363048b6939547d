import { count, sql } from 'drizzle-orm';
import { planned } from '../../db/seed/ahead';
import { bulkInsert, continueIds } from '../../db/seed/bulk';
import { isCopyText } from '../../db/seed/copy-text';
import { DAY_MS, type SeedContext, type SeedGenerator } from '../../db/seed/context';
import * as t from '../../db/schema';
import { ORDER_COLUMNS, REFUND_COLUMNS, USAGE_COLUMNS, orderWriter, packageOrdersPlan, seedPackages, volumes } from './seed-plan';
import { packages } from './schema';

/**
 * 套餐: the 12 packages, the plan's bulk of orders (seed-plan.ts), then the recent orders on real rides:
 * the last 30 days' ride records of riders' cards, each rider's rides paid by one order bought a day or
 * two before the first (≈6,000 orders, ≈14,000 usages in the demo). Then what each package sold.
 */
async function seedPackageOrders(ctx: SeedContext): Promise<void> {
  const { db, rng, now, profile } = ctx;
  const demo = profile.name === 'demo';
  const v = volumes(demo);
  const [riders] = await db.select({ n: count() }).from(t.riders);
  if ((riders?.n ?? 0) < v.riders) throw new Error(`package orders are planned for riders 1–${v.riders}, the database has ${riders?.n ?? 0}`);
  const made = seedPackages(now, profile.districts);
  const [admin] = await db.select({ id: t.users.id }).from(t.users).where(sql`${t.users.login} = 'admin'`);
  await db.insert(packages).values(made.map((p) => ({ ...p, createdBy: admin?.id ?? null })));
  await continueIds(db, 'packages');

  const bulk = await planned(packageOrdersPlan, ctx);
  await bulkInsert(db, 'package_orders', ORDER_COLUMNS, bulk.orders);
  await bulkInsert(db, 'package_usages', USAGE_COLUMNS, bulk.usages);
  await bulkInsert(db, 'money_refunds', REFUND_COLUMNS, bulk.refunds);
  const size = (rows: typeof bulk.orders) => (isCopyText(rows) ? rows.count : rows.length);

  // The recent orders on real rides, ids after the plan's.
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY_MS);
  const pool = (
    (await db.execute(sql`select r.id, r.ride_at, r.line_code, r.bus_name, r.amount, c.rider_id from ride_records r join bus_cards c on c.card_no = r.card_no
      where r.ride_at >= ${at(30)} and r.ride_at < ${at(1)} and c.rider_id is not null and r.amount > 0 order by r.ride_at, r.id limit ${v.recent * 3}`)) as unknown as {
      rows: { id: number | string; ride_at: string | Date; line_code: string; bus_name: string; amount: number; rider_id: number }[];
    }
  ).rows;
  const byRider = new Map<number, typeof pool>();
  for (const r of pool) byRider.set(r.rider_id, [...(byRider.get(r.rider_id) ?? []), r]);
  const usageStart = size(bulk.usages) + 1;
  const w = orderWriter(rng, now, { order: size(bulk.orders) + 1, usage: usageStart });
  const open = made.filter((p) => p.status === 1 && p.saleEnd.getTime() > now.getTime() && !p.lineScope && p.stock === null);
  let recent = 0;
  for (const [riderId, rs] of byRider) {
    if (recent >= v.recent) break;
    recent++;
    const first = new Date(rs[0]!.ride_at);
    // A few rides each (≈40,000 usages in all): the first ones after the purchase.
    const rides = rs.slice(0, 4).map((r) => ({ id: Number(r.id), at: new Date(r.ride_at), line: r.line_code, bus: r.bus_name, fare: r.amount }));
    w.push(rng.pick(open), { riderId, created: new Date(first.getTime() - rng.int(1, 2) * DAY_MS), paid: true, refund: false, rides });
  }
  // Fewer riders rode lately than the recent orders wanted: the rest are bought in the last month and
  // ridden on made-up rides, so the total stays the design's.
  for (; recent < v.recent; recent++) w.push(rng.pick(open), { riderId: rng.int(1, v.riders), created: at(rng.int(2, 30)), paid: true, refund: false });
  // Two waiting for payment right now (the close job's next work).
  for (let k = 0; k < 2; k++) w.push(open[0]!, { riderId: k + 1, created: new Date(now.getTime() - (k + 1) * 60_000), paid: false, refund: false });
  await bulkInsert(db, 'package_orders', ORDER_COLUMNS, w.orders);
  await bulkInsert(db, 'package_usages', USAGE_COLUMNS, w.usages);
  await continueIds(db, 'package_orders');
  await continueIds(db, 'package_usages');
  // What each package sold (paid orders), the plan's and the recent ones.
  await db.execute(sql`update packages p set sold = s.n from (select package_id, count(*)::int as n from package_orders where pay_status in (1, 2) group by 1) s where s.package_id = p.id`);
}

export const packageDemoSeed: SeedGenerator[] = [{ name: 'packages', run: seedPackageOrders }];
