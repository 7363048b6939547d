import { addDays, shanghaiDate, shanghaiMidnight } from '../../../shared/domain/time';
import type { PlanInput, SeedPlan } from '../../db/seed/ahead';
import { demoDistricts } from '../../db/seed/city';
import type { Literal, Rows } from '../../db/seed/copy-text';
import type { Rng } from '../../db/seed/rng';
import type { PackageSnapshot } from './schema';

/**
 * 套餐 (second wave §7, §13): the 12 packages and the bulk of their orders, rides and refunds, made from
 * the plan's input alone (on the seed's worker at a first start, db/seed/ahead.ts). Riders are the
 * rider plan's ids 1…n; the packages take ids 1–12; orders, usages and ledger rows get their ids here.
 * The recent orders on real ride records are the generator's (it reads the rides), after these.
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

const DAY_MS = 86_400_000;
const pad = (n: number, w: number) => String(n).padStart(w, '0');

export interface SeedPackage {
  id: number;
  districtId: number;
  name: string;
  price: number;
  originalPrice: number;
  rides: number;
  validDays: number;
  lineScope: string[] | null;
  dailyLimit: number;
  perUserLimit: number;
  saleStart: Date;
  saleEnd: Date;
  stock: number | null;
  status: number;
  sort: number;
  description: string;
  createdAt: Date;
  updatedAt: Date;
}

/** The 12 packages, the same wherever they are made: ids 1–12 in the first three districts. */
export function seedPackages(now: Date, districtCount: number): SeedPackage[] {
  const districts = demoDistricts(districtCount).map((d) => d.id);
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY_MS);
  return TEMPLATES.map(([name, price, rides, validDays, fare, kind, dailyLimit], i) => ({
    id: i + 1,
    districtId: districts[i % Math.min(3, districts.length)]!,
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
    saleEnd: kind === 'past' ? at(i === 10 ? 90 : 40) : new Date(now.getTime() + (kind === 'limited' ? 30 : 365) * DAY_MS),
    // The limited package sold out (its sales below stop at LIMITED_SOLD).
    stock: kind === 'limited' ? 0 : null,
    status: kind === 'draft' ? 0 : kind === 'off' ? 2 : 1,
    sort: i + 1,
    description: `${name}：${(price / 100).toFixed(2)}元 ${rides}次，自支付起${validDays}天内有效`,
    createdAt: at(200),
    updatedAt: at(1 + ((i * 37) % 100)),
  }));
}

export const ORDER_COLUMNS = ['id', 'order_no', 'district_id', 'rider_id', 'package_id', 'snapshot', 'amount', 'rides', 'used_rides', 'pay_status', 'status', 'paid_at', 'effective_at', 'expire_at', 'closed_at', 'refund_amount', 'refunded_at', 'agreement_version', 'created_at', 'updated_at'] as const;
export const USAGE_COLUMNS = ['id', 'order_id', 'ride_record_id', 'ride_at', 'line_code', 'bus_no', 'single_fare', 'created_at'] as const;
export const REFUND_COLUMNS = ['kind', 'order_id', 'item_id', 'district_id', 'order_no', 'amount', 'reason', 'idempotency_key', 'out_refund_no', 'state', 'channel_refund_no', 'attempts', 'created_at', 'settled_at'] as const;

export interface RideOfOrder {
  id: number | null;
  at: Date;
  line: string;
  bus: string;
  fare: number;
}

/** The volumes by profile: the plan's share of the orders, the riders it draws from, the recent orders on real rides. */
export const volumes = (demo: boolean) => ({ planned: demo ? 14_000 : 30, riders: demo ? 12_000 : 60, recent: demo ? 6_000 : 10, limitedSold: demo ? 200 : 4 });

/**
 * Writes orders, their usages and refunds into row lists, ids continuing from `first`: what the plan
 * and the generator (the recent orders on real rides) both use, so the two kinds of order are alike.
 */
export function orderWriter(rng: Rng, now: Date, first: { order: number; usage: number }) {
  const orders: Literal[][] = [];
  const usages: Literal[][] = [];
  const refunds: Literal[][] = [];
  let orderId = first.order - 1;
  let usageId = first.usage - 1;
  const sold = new Map<number, number>();
  // Rides per order, on average ≈2 (the design's 40,000 for 20,000 orders): most packages go partly unused.
  const useShare = 0.053;
  const push = (p: SeedPackage, o: { riderId: number; created: Date; paid: boolean; refund: boolean; useAll?: boolean; rides?: RideOfOrder[] }) => {
    const id = ++orderId;
    const nowMs = now.getTime();
    const paidAt = o.paid ? new Date(o.created.getTime() + 60_000) : null;
    const expireAt = paidAt ? shanghaiMidnight(addDays(shanghaiDate(paidAt), p.validDays)) : null;
    const active = !!expireAt && expireAt.getTime() > nowMs;
    let rides = o.rides ?? [];
    if (paidAt && !o.rides) {
      const end = Math.min(nowMs, expireAt!.getTime());
      const span = end - paidAt.getTime();
      const want = o.useAll ? p.rides : Math.min(p.rides, Math.round(p.rides * useShare * rng.next() * 2 * (active ? span / (p.validDays * DAY_MS) : 1)));
      rides = Array.from({ length: want }, () => ({
        id: null,
        at: new Date(paidAt.getTime() + rng.int(0, Math.max(1, span - 60_000))),
        line: p.lineScope ? rng.pick(p.lineScope) : String(rng.int(1, 120)),
        bus: `沪B${pad(rng.int(10_000, 99_999), 5)}`,
        fare: p.lineScope ? 200 : rng.pick([200, 200, 200, 300]),
      })).sort((a, b) => a.at.getTime() - b.at.getTime());
    }
    rides = rides.slice(0, p.rides);
    const used = rides.length;
    const status = !paidAt ? (nowMs - o.created.getTime() > 15 * 60_000 ? 5 : 0) : used >= p.rides ? 2 : o.refund ? 4 : active ? 1 : 3;
    const usedFare = rides.reduce((s, r) => s + r.fare, 0);
    const refundAmount = status === 4 ? (used === 0 ? p.price : Math.max(0, p.price - usedFare)) : 0;
    const lastRide = rides.at(-1)?.at.getTime() ?? paidAt?.getTime() ?? o.created.getTime();
    const refundedAt = status === 4 ? new Date(Math.min(nowMs - 60_000, lastRide + rng.int(1, 48) * 3_600_000)) : null;
    const snapshot: PackageSnapshot = { name: p.name, price: p.price, originalPrice: p.originalPrice, rides: p.rides, validDays: p.validDays, lineScope: p.lineScope, dailyLimit: p.dailyLimit };
    const orderNo = `PK${shanghaiDate(o.created).replaceAll('-', '')}${pad(id, 8)}`;
    orders.push([
      id,
      orderNo,
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
      // The area's 套餐协议 as seeded (version 1).
      paidAt || status === 0 || status === 5 ? 1 : null,
      o.created,
      refundedAt ?? rides.at(-1)?.at ?? paidAt ?? o.created,
    ]);
    for (const r of rides) usages.push([++usageId, id, r.id, r.at, r.line, r.bus, r.fare, r.at]);
    // Refunded orders' ledger rows, settled (退款成功) as the channel answered then.
    if (status === 4) refunds.push(['package', id, 0, p.districtId, orderNo, refundAmount, '乘客申请退款', `seed-${orderNo}`, `RFPK${id}`, 1, `CHPK${id}`, 1, refundedAt, refundedAt]);
    if (paidAt) sold.set(p.id, (sold.get(p.id) ?? 0) + 1);
  };
  return { push, orders, usages, refunds, sold };
}

/** The bulk: orders over six months (the small profile's few over the last weeks, cycling through every outcome). */
export const packageOrdersPlan: SeedPlan<{ orders: Rows; usages: Rows; refunds: Rows }> = {
  name: 'packagePay/orders',
  make({ rng, now, profile }: PlanInput) {
    const demo = profile.name === 'demo';
    const v = volumes(demo);
    const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY_MS);
    const sellable = seedPackages(now, profile.districts).filter((p) => p.status !== 0);
    const w = orderWriter(rng, now, { order: 1, usage: 1 });
    let made = 0;
    while (made < v.planned) {
      // Six months in the demo; the small profile's few orders keep to the last weeks, so some are still active.
      const created = at(rng.int(1, (demo ? 180 : 25) * 24 * 60) / (24 * 60));
      const candidates = sellable.filter((p) => p.saleStart.getTime() <= created.getTime() && p.saleEnd.getTime() > created.getTime());
      if (!candidates.length) continue;
      const p = rng.pick(candidates);
      if (p.stock !== null && (w.sold.get(p.id) ?? 0) >= v.limitedSold) continue;
      const roll = demo ? rng.next() : [0.01, 0.07, 0.5, 0.95, 0.5][made % 5]!;
      w.push(p, { riderId: rng.int(1, v.riders), created, paid: roll > 0.05, refund: roll > 0.05 && roll < 0.09, useAll: roll > 0.94 && roll < 0.96 });
      made++;
    }
    return { orders: w.orders, usages: w.usages, refunds: w.refunds };
  },
};
