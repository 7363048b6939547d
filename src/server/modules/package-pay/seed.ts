import { asc, eq, sql } from 'drizzle-orm';
import { addDays, shanghaiDate, shanghaiMidnight } from '../../../shared/domain/time';
import { bulkInsert, continueIds } from '../../db/seed/bulk';
import { DAY_MS, type SeedContext, type SeedGenerator } from '../../db/seed/context';
import * as t from '../../db/schema';
import { type PackageSnapshot, packages } from './schema';

/**
 * 套餐 (second wave §7, §13): 12 packages (5 on sale, one of them limited; 3 off sale; 2 drafts; 2 whose
 * sale window has passed), orders over 6 months (20,000 in the demo, 40 in the small profile) in every
 * status, and their rides (≈40,000 / ≈80): the last 30 days' rides are real ride records of the
 * buyer's cards where there are any, the rest are made on the area's lines.
 */

type Kind = 'sale' | 'limited' | 'off' | 'draft' | 'past';
const TEMPLATES: [name: string, price: number, rides: number, validDays: number, fare: number, kind: Kind, dailyLimit: number][] = [
  ['月度通勤22次', 3_000, 22, 30, 200, 'sale', 4],
  ['周卡10次', 1_600, 10, 7, 200, 'sale', 0],
  ['季度畅行66次', 8_400, 66, 90, 200, 'sale', 4],
  ['学生月卡40次', 4_000, 40, 30, 200, 'sale', 0],
  ['国庆限量20次', 2_000, 20, 30, 300, 'limited', 0],
  ['老年月卡30次', 2_400, 30, 30, 200, 'off', 0],
  ['夜班专线15次', 2_600, 15, 30, 200, 'off', 2],
  ['旧版月卡20次', 2_800, 20, 30, 200, 'off', 0],
  ['年度通勤500次', 60_000, 500, 366, 200, 'draft', 4],
  ['周末出游8次', 1_200, 8, 14, 200, 'draft', 0],
  ['暑期学生60次', 5_000, 60, 62, 200, 'past', 0],
  ['春节返乡10次', 1_500, 10, 15, 300, 'past', 0],
];

const pad = (n: number, w: number) => String(n).padStart(w, '0');

async function seedPackages({ db, rng, now, profile }: SeedContext): Promise<void> {
  const demo = profile.name === 'demo';
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY_MS);
  const districts = (await db.select({ id: t.districts.id }).from(t.districts).orderBy(asc(t.districts.sort), asc(t.districts.id))).map((d) => d.id);
  if (!districts.length) return;
  // The first three districts hold them (the demo's manager works in the second).
  const area = (i: number) => districts[i % Math.min(3, districts.length)]!;
  const [admin] = await db.select({ id: t.users.id }).from(t.users).where(eq(t.users.login, 'admin'));
  const made = TEMPLATES.map(([name, price, rides, validDays, fare, kind, dailyLimit], i) => ({
    id: i + 1,
    districtId: area(i),
    name,
    price,
    originalPrice: rides * fare,
    rides,
    validDays,
    // The night line's package is for two lines; the rest take every line.
    lineScope: name.startsWith('夜班') ? ['N1', 'N2'] : null,
    dailyLimit,
    perUserLimit: kind === 'limited' ? 1 : kind === 'sale' ? 2 : 0,
    saleStart: kind === 'past' ? at(200) : at(kind === 'limited' ? 60 : 190),
    saleEnd: kind === 'past' ? at(kind === 'past' && i === 10 ? 90 : 40) : new Date(now.getTime() + (kind === 'limited' ? 30 : 365) * DAY_MS),
    stock: kind === 'limited' ? 0 : null,
    sold: 0,
    status: kind === 'draft' ? 0 : kind === 'off' ? 2 : 1,
    sort: i + 1,
    description: `${name}：${(price / 100).toFixed(2)}元 ${rides}次，自支付起${validDays}天内有效`,
    createdBy: admin?.id ?? null,
    createdAt: at(200),
    updatedAt: at(rng.int(1, 100)),
  }));
  const lines = (await db.select({ code: t.busLines.code, fare: t.busLines.fare }).from(t.busLines).limit(60)).filter((l) => l.fare > 0);
  const lineOf = () => (lines.length ? rng.pick(lines) : { code: String(rng.int(1, 99)), fare: 200 });
  const riderRows = await db.select({ id: t.riders.id }).from(t.riders).orderBy(asc(t.riders.id)).limit(demo ? 12_000 : 60);
  const riders = riderRows.map((r) => r.id);
  if (!riders.length) {
    await db.insert(packages).values(made);
    await continueIds(db, 'packages');
    return;
  }
  // Real rides of the last 30 days by riders' cards: the recent orders' usages point at them.
  const recent = demo ? 6_000 : 10;
  const pool = (
    (await db.execute(sql`select r.id, r.ride_at, r.line_code, r.bus_name, r.amount, c.rider_id from ride_records r join bus_cards c on c.card_no = r.card_no
      where r.ride_at >= ${at(30)} and r.ride_at < ${at(1)} and c.rider_id is not null and r.amount > 0 order by r.ride_at, r.id limit ${recent * 3}`)) as unknown as { rows: unknown[] }
  ).rows as { id: number | string; ride_at: string | Date; line_code: string; bus_name: string; amount: number; rider_id: number }[];
  const byRider = new Map<number, typeof pool>();
  for (const r of pool) byRider.set(r.rider_id, [...(byRider.get(r.rider_id) ?? []), r]);

  // The orders' agreement: the area's 套餐协议 as it was when they were sold.
  const agreements = new Map((await db.select({ id: t.agreements.id, districtId: t.agreements.districtId, v: t.agreements.rowVersion }).from(t.agreements).where(eq(t.agreements.code, 'package'))).map((a) => [a.districtId, a]));
  const sellable = made.filter((p) => p.status !== 0);
  const orders: (string | number | Date | null)[][] = [];
  const usages: (string | number | Date | null)[][] = [];
  let usageId = 0;
  const orderCount = demo ? 20_000 : 40;
  // Rides per order, on average: ≈2 (the design's 40,000 for 20,000 orders): most packages go partly unused.
  const useShare = demo ? 0.053 : 0.1;
  const push = (o: { packageIdx: number; riderId: number; created: Date; paid: boolean; refund: boolean; useAll?: boolean; rides?: { id: number | null; at: Date; line: string; bus: string; fare: number }[] }) => {
    const p = sellable[o.packageIdx]!;
    const id = orders.length + 1;
    const nowMs = now.getTime();
    const paidAt = o.paid ? new Date(o.created.getTime() + 60_000) : null;
    const expireAt = paidAt ? shanghaiMidnight(addDays(shanghaiDate(paidAt), p.validDays)) : null;
    const active = !!expireAt && expireAt.getTime() > nowMs;
    let rides = o.rides ?? [];
    if (paidAt && !o.rides) {
      const end = Math.min(nowMs, expireAt!.getTime());
      const span = end - paidAt.getTime();
      const want = o.useAll ? p.rides : Math.min(p.rides, Math.round(p.rides * useShare * rng.next() * 2 * (active ? span / (p.validDays * DAY_MS) : 1)));
      rides = Array.from({ length: want }, () => {
        const l = lineOf();
        return { id: null, at: new Date(paidAt.getTime() + rng.int(0, Math.max(1, span - 60_000))), line: p.lineScope ? rng.pick(p.lineScope) : l.code, bus: `沪B${pad(rng.int(10_000, 99_999), 5)}`, fare: p.lineScope ? 200 : l.fare };
      }).sort((a, b) => a.at.getTime() - b.at.getTime());
    }
    rides = rides.slice(0, p.rides);
    const used = rides.length;
    const status = !paidAt ? (nowMs - o.created.getTime() > 15 * 60_000 ? 5 : 0) : used >= p.rides ? 2 : o.refund ? 4 : active ? 1 : 3;
    const usedFare = rides.reduce((s, r) => s + r.fare, 0);
    const refundAmount = status === 4 ? (used === 0 ? p.price : Math.max(0, p.price - usedFare)) : 0;
    const lastRide = rides.at(-1)?.at.getTime() ?? paidAt?.getTime() ?? o.created.getTime();
    const refundedAt = status === 4 ? new Date(Math.min(nowMs - 60_000, lastRide + rng.int(1, 48) * 3_600_000)) : null;
    const snapshot: PackageSnapshot = { name: p.name, price: p.price, originalPrice: p.originalPrice, rides: p.rides, validDays: p.validDays, lineScope: p.lineScope, dailyLimit: p.dailyLimit };
    orders.push([
      id,
      `PK${shanghaiDate(o.created).replaceAll('-', '')}${pad(id, 8)}`,
      p.districtId,
      o.riderId,
      p.id,
      JSON.stringify(snapshot),
      p.price,
      p.rides,
      used,
      status === 4 ? 2 : paidAt ? 1 : 0,
      status,
      paidAt,
      paidAt,
      expireAt,
      status === 5 ? new Date(o.created.getTime() + 15 * 60_000) : null,
      refundAmount,
      refundedAt,
      agreements.get(p.districtId)?.id ?? null,
      agreements.get(p.districtId) ? 1 : null,
      o.created,
      refundedAt ?? (rides.at(-1)?.at ?? paidAt ?? o.created),
    ]);
    for (const r of rides) usages.push([++usageId, id, r.id, r.at, r.line, r.bus, r.fare, r.at]);
    if (paidAt) p.sold += 1;
  };
  // The recent orders on real rides: one per rider of the pool, paid a day or two before the first.
  const open = sellable.map((p, i) => ({ p, i })).filter(({ p }) => p.status === 1 && p.saleEnd.getTime() > now.getTime() && !p.lineScope && p.stock === null);
  for (const [riderId, rs] of byRider) {
    if (orders.length >= recent) break;
    const { i } = rng.pick(open);
    const first = new Date(rs[0]!.ride_at);
    push({ packageIdx: i, riderId, created: new Date(first.getTime() - rng.int(1, 2) * DAY_MS), paid: true, refund: false, rides: rs.map((r) => ({ id: Number(r.id), at: new Date(r.ride_at), line: r.line_code, bus: r.bus_name, fare: r.amount })) });
  }
  // The rest over six months, on the packages sold then.
  const limitedIdx = sellable.findIndex((p) => p.stock !== null);
  while (orders.length < orderCount) {
    // Six months in the demo; the small profile's few orders keep to the last weeks, so some are still active.
    const created = at(rng.int(1, (demo ? 180 : 25) * 24 * 60) / (24 * 60));
    const candidates = sellable.map((p, i) => ({ p, i })).filter(({ p }) => p.saleStart.getTime() <= created.getTime() && p.saleEnd.getTime() > created.getTime());
    if (!candidates.length) continue;
    const { i } = rng.pick(candidates);
    // The limited package sold 200 in the demo (20 small) and then ran out.
    if (i === limitedIdx && sellable[i]!.sold >= (demo ? 200 : 4)) continue;
    // The small profile cycles through the outcomes so that each is there about twice.
    const roll = demo ? rng.next() : [0.01, 0.07, 0.5, 0.95, 0.5][orders.length % 5]!;
    push({ packageIdx: i, riderId: rng.pick(riders), created, paid: roll > 0.05, refund: roll > 0.05 && roll < 0.09, useAll: roll > 0.94 && roll < 0.96 });
  }
  // Two waiting for payment right now (the close job's next work).
  for (let k = 0; k < 2; k++) push({ packageIdx: open[0]!.i, riderId: riders[k % riders.length]!, created: new Date(now.getTime() - (k + 1) * 60_000), paid: false, refund: false });
  await db.insert(packages).values(made);
  await continueIds(db, 'packages');
  await bulkInsert(
    db,
    'package_orders',
    ['id', 'order_no', 'district_id', 'rider_id', 'package_id', 'snapshot', 'amount', 'rides', 'used_rides', 'pay_status', 'status', 'paid_at', 'effective_at', 'expire_at', 'closed_at', 'refund_amount', 'refunded_at', 'agreement_id', 'agreement_version', 'created_at', 'updated_at'],
    orders,
  );
  await continueIds(db, 'package_orders');
  await bulkInsert(db, 'package_usages', ['id', 'order_id', 'ride_record_id', 'ride_at', 'line_code', 'bus_no', 'single_fare', 'created_at'], usages);
  await continueIds(db, 'package_usages');
  // Refunded orders' ledger rows, settled (退款成功) as the channel answered then.
  await db.execute(sql`insert into money_refunds (kind, order_id, item_id, district_id, order_no, amount, reason, idempotency_key, out_refund_no, state, channel_refund_no, attempts, created_at, settled_at)
    select 'package', o.id, 0, o.district_id, o.order_no, o.refund_amount, '乘客申请退款', 'seed-' || o.order_no, 'RFPK' || o.id, 1, 'CHPK' || o.id, 1, o.refunded_at, o.refunded_at
    from package_orders o where o.status = 4`);
}

export const packageDemoSeed: SeedGenerator[] = [{ name: 'packages', run: seedPackages }];
