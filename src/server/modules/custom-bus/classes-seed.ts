import { and, asc, eq, gte, ne } from 'drizzle-orm';
import type { Db } from '../../db/connection';
import type { Rng } from '../../db/seed/rng';
import { addDays, shanghaiDate } from '../../../shared/domain/time';
import { customBaseOf } from '../custom-setting/read';
import { type SaleBase, saleWindow, slotInstants, statusAt } from './classes-service';
import { customCars, customClasses, customDrivers, customLines } from './schema';

/** Days of classes behind today (all departed) and ahead of it (today included). */
export const SEED_PAST_DAYS = 45;
export const SEED_AHEAD_DAYS = 15;
export const SEED_TARGET = 2_000;
export const SEED_CANCELLED = 10;
const TURNAROUND_MS = 30 * 60_000;
/** [from, to) in epoch ms: a class and its turnaround. */
type Span = [number, number];
const isFree = (busy: Map<number, Span[]>, id: number, [from, to]: Span) => !(busy.get(id) ?? []).some(([f, t]) => f < to && from < t);
const book = (busy: Map<number, Span[]>, id: number, span: Span) => busy.set(id, [...(busy.get(id) ?? []), span]);
const CANCEL_REASONS = ['道路施工，线路临时停运', '恶劣天气停运', '报名人数不足，班次取消', '车辆调度调整'];

/**
 * ≈2,000 classes over the 45 days behind and the 15 ahead of `now`, for every line the network part
 * seeded that is not a draft (a 往返 line both legs) at the line's own times; weekends are skipped
 * when the weekdays alone reach the target (commuter lines). Cars and drivers are handed out per day
 * in departure order to the first one free again (no clash by construction); the car's seats cap
 * the class's. A few classes ahead stay without a car or a driver (排班's work), 10 ahead are
 * cancelled. Seats are all free: the orders part sells them after this runs.
 */
export async function seedClasses(db: Db, now: Date, rng: Rng, opts: { districtId?: number; pastDays?: number; aheadDays?: number } = {}) {
  const { pastDays = SEED_PAST_DAYS, aheadDays = SEED_AHEAD_DAYS } = opts;
  const scope = opts.districtId;
  const lines = await db
    .select()
    .from(customLines)
    .where(and(ne(customLines.status, 0), scope ? eq(customLines.districtId, scope) : undefined))
    .orderBy(asc(customLines.id));
  if (!lines.length) return { classes: 0 };
  const today = shanghaiDate(now);
  const cars = await db
    .select()
    .from(customCars)
    .where(and(eq(customCars.status, 1), gte(customCars.inspectionUntil, addDays(today, aheadDays)), gte(customCars.insuranceUntil, addDays(today, aheadDays)), scope ? eq(customCars.districtId, scope) : undefined))
    .orderBy(asc(customCars.id));
  const drivers = await db
    .select()
    .from(customDrivers)
    .where(and(eq(customDrivers.status, 1), gte(customDrivers.licenceUntil, addDays(today, aheadDays)), scope ? eq(customDrivers.districtId, scope) : undefined))
    .orderBy(asc(customDrivers.id));
  const bases = new Map<number, SaleBase>();
  for (const districtId of new Set(lines.map((l) => l.districtId))) bases.set(districtId, await customBaseOf(db, districtId));

  const legs = lines.flatMap((l) => (l.direction === -1 ? [0, 1] : [l.direction]).map((direction) => ({ line: l, direction: direction as 0 | 1 })));
  const days = Array.from({ length: pastDays + aheadDays }, (_, i) => addDays(today, i - pastDays));
  const weekday = (d: string) => new Date(`${d}T00:00:00Z`).getUTCDay() % 6 !== 0;
  const useDays = legs.length * days.filter(weekday).length >= SEED_TARGET ? days.filter(weekday) : days;
  // Enough legs for the target (a big city seeds more lines than 2,000 classes need).
  const perDay = Math.max(1, Math.ceil(SEED_TARGET / useDays.length));
  const used = legs.slice(0, Math.min(legs.length, perDay));

  type Insert = typeof customClasses.$inferInsert;
  const rows: Insert[] = [];
  // What the cars and drivers already drive (none in a new demo city; a test's own classes when a
  // test seeds into a district it has used), so the seed never clashes with it either.
  const carBusy = new Map<number, Span[]>();
  const driverBusy = new Map<number, Span[]>();
  const live = await db
    .select({ carId: customClasses.carId, driverId: customClasses.driverId, departAt: customClasses.departAt, arriveAt: customClasses.arriveAt, lineId: customClasses.lineId, direction: customClasses.direction, departDate: customClasses.departDate, departTime: customClasses.departTime })
    .from(customClasses)
    .where(and(ne(customClasses.status, 4), scope ? eq(customClasses.districtId, scope) : undefined));
  const slot = (lineId: number, direction: number, day: string, seconds: number) => `${lineId}:${direction}:${day}:${seconds}`;
  const taken = new Set(live.map((c) => slot(c.lineId, c.direction, c.departDate, c.departTime)));
  for (const c of live) {
    const span: Span = [c.departAt.getTime(), c.arriveAt.getTime() + TURNAROUND_MS];
    if (c.carId) book(carBusy, c.carId, span);
    if (c.driverId) book(driverBusy, c.driverId, span);
  }
  for (const day of useDays) {
    const future = day >= today;
    const dayRows = used
      .filter(({ line }) => !future || line.status === 1)
      .map(({ line, direction }) => {
        const seconds = direction === 1 && line.direction === -1 ? line.returnDepartTime! : line.departTime;
        return { line, direction, seconds, ...slotInstants(line, direction, day, seconds) };
      })
      .filter((c) => !taken.has(slot(c.line.id, c.direction, day, c.seconds)))
      .sort((a, b) => a.departAt.getTime() - b.departAt.getTime());
    // Per district, the first car and driver free over the class and 30 minutes' turnaround.
    for (const s of dayRows) {
      const span: Span = [s.departAt.getTime(), s.arriveAt.getTime() + TURNAROUND_MS];
      const car = cars.find((c) => c.districtId === s.line.districtId && isFree(carBusy, c.id, span));
      const driver = drivers.find((d) => d.districtId === s.line.districtId && isFree(driverBusy, d.id, span));
      // About one class in 12 ahead still waits for its car and driver.
      const leave = s.departAt > now && rng.int(1, 12) === 1;
      const carId = !leave && car ? car.id : null;
      const driverId = !leave && driver ? driver.id : null;
      // A class that has left had a car and a driver: where the fleet was short, it never ran.
      if (s.departAt <= now && (!carId || !driverId)) continue;
      if (carId) book(carBusy, carId, span);
      if (driverId) book(driverBusy, driverId, span);
      const publish = Math.min(s.line.defaultSeats, carId ? car!.seats : 80);
      const w = saleWindow(bases.get(s.line.districtId)!, day, s.departAt);
      rows.push({
        districtId: s.line.districtId,
        lineId: s.line.id,
        direction: s.direction,
        departDate: day,
        departTime: s.seconds,
        departAt: s.departAt,
        arriveAt: s.arriveAt,
        publish,
        stock: publish,
        price: s.line.price,
        ...w,
        carId,
        driverId,
        // An off-sale line's classes do not sell (下架 stops them): 停售 where they would be on sale.
        status: s.departAt <= now ? 3 : s.line.status === 1 ? statusAt(w, now) : statusAt(w, now) === 0 ? 0 : 2,
        createdBy: null,
        createdAt: new Date(Math.min(w.saleOpenAt.getTime(), now.getTime()) - 86_400_000),
        updatedAt: now,
      });
    }
  }
  // 10 of the classes ahead cancelled (tomorrow onwards, spread out).
  const ahead = rows.filter((r) => r.departDate > today && r.status !== 3);
  for (let k = 0; k < Math.min(SEED_CANCELLED, ahead.length); k++) {
    const r = ahead[Math.floor((k * ahead.length) / SEED_CANCELLED)]!;
    Object.assign(r, { status: 4, cancelReason: CANCEL_REASONS[k % CANCEL_REASONS.length], cancelledAt: now });
  }
  for (let i = 0; i < rows.length; i += 1_000) await db.insert(customClasses).values(rows.slice(i, i + 1_000));
  return { classes: rows.length };
}
