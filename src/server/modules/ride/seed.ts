import { and, asc, eq, sql } from 'drizzle-orm';
import { bulkInsert } from '../../db/seed/bulk';
import * as t from '../../db/schema';
import type { SeedContext, SeedGenerator } from '../../db/seed/context';
import { ensureRidePartitions } from '../../lib/ride-partitions';
import { EMPLOYEE_CARD_CATEGORY } from '../../../shared/api/ridership';
import { DAY_MS, addDays, shanghaiDate, shanghaiMidnight } from '../../../shared/domain/time';

/**
 * Demo rides (issue 12): raw ride records for the last 30 whole Shanghai days and today so far, at
 * a realistic shape (weekday and weekend, morning and evening peaks, a few busy lines), and the
 * daily ridership of the 90 whole days before today: the days with records are aggregated from
 * them by SQL (so they agree), the 60 before from the same model. Whole days, not "the last 90
 * including today": at 02:00 in Shanghai today has no rides yet, and a screen's last 90 whole days
 * must all have data at any hour. Modest by default, for a quick first start; deterministic from SEED.
 */

const RAW_DAYS = 30;
const AGGREGATE_DAYS = 90;
const CHANNELS = ['乘车码', '交通卡', '银联闪付', '数字人民币'];
/** Share of each hour's rides in a weekday: peaks at 7–9 and 17–19. */
const HOUR_WEIGHTS = [0, 0, 0, 0, 0, 1, 4, 10, 12, 7, 5, 5, 6, 5, 5, 5, 6, 10, 11, 7, 5, 4, 2, 1];
const HOUR_TOTAL = HOUR_WEIGHTS.reduce((a, b) => a + b, 0);

/** The Shanghai day `back` days before `now`'s: when it begins, and its `YYYY-MM-DD`. */
function shanghaiDay(now: Date, back: number): { start: number; label: string } {
  const label = addDays(shanghaiDate(now), -back);
  return { start: shanghaiMidnight(label).getTime(), label };
}

const isWeekend = (label: string) => [0, 6].includes(new Date(`${label}T00:00:00Z`).getUTCDay());

/** A staff card: 3101 99, the district, a number; the card centre does not issue them. */
const staffCardNo = (districtId: number, k: number) => `310199${String(districtId).padStart(4, '0')}${String(k + 1).padStart(6, '0')}`;

/** Students and seniors ride on passes; the others mostly pay single fares. */
function ticketFor(rng: SeedContext['rng'], category: number): number {
  if (category === 4 || category === 5) return rng.next() < 0.85 ? 2 : 1;
  const r = rng.next();
  return r < 0.75 ? 1 : r < 0.95 ? 2 : 3;
}

/** The lines of the online version, the ones buses ride: every ride generator starts from them. */
export function onlineLines(db: SeedContext['db']) {
  return db
    .select({ id: t.busLines.id, code: t.busLines.code, name: t.busLines.name, districtId: t.lineVersions.districtId })
    .from(t.busLines)
    .innerJoin(t.lineVersions, eq(t.lineVersions.id, t.busLines.versionId))
    .where(eq(t.lineVersions.status, 3))
    .orderBy(asc(t.busLines.id));
}

async function seedRides(ctx: SeedContext): Promise<void> {
  const { db, rng, now } = ctx;
  const small = ctx.profile.name === 'small';
  const lines = await onlineLines(db);
  if (!lines.length) return;
  const stops = await db
    .select({ lineId: t.lineStations.lineId, name: t.stations.name })
    .from(t.lineStations)
    .innerJoin(t.stations, eq(t.stations.id, t.lineStations.stationId))
    .where(and(eq(t.lineStations.direction, 0)))
    .orderBy(asc(t.lineStations.lineId), asc(t.lineStations.seq));
  const stopsOf = new Map<number, string[]>();
  for (const s of stops) stopsOf.set(s.lineId, [...(stopsOf.get(s.lineId) ?? []), s.name]);
  const cards = await db.select({ no: t.busCards.cardNo, category: t.busCards.category, districtId: t.busCards.districtId }).from(t.busCards).where(eq(t.busCards.state, 1)).orderBy(asc(t.busCards.id)).limit(small ? 600 : 8_000);
  const cardsOf = new Map<number, typeof cards>();
  for (const c of cards) cardsOf.set(c.districtId, [...(cardsOf.get(c.districtId) ?? []), c]);

  const busesPerLine = small ? 2 : 3;
  const perBusDay = small ? 3 : 4;
  // A few busy lines (every 12th runs three times the rides), the rest around the base.
  const buses = lines.flatMap((l, i) =>
    Array.from({ length: busesPerLine }, (_, b) => ({ line: l, name: `沪B-${l.code.padStart(3, '0')}${String(b + 1).padStart(2, '0')}`, busy: i % 12 === 0 ? 3 : 0.6 + rng.next() * 0.8 })),
  );

  await ensureRidePartitions(db, new Date(shanghaiDay(now, RAW_DAYS).start), new Date(now.getTime() + 62 * DAY_MS));
  const rows: (string | number | null)[][] = [];
  let seq = 0;
  for (let back = RAW_DAYS; back >= 0; back--) {
    const day = shanghaiDay(now, back);
    const factor = isWeekend(day.label) ? 0.65 : 1;
    for (const bus of buses) {
      const pool = cardsOf.get(bus.line.districtId) ?? cards;
      const names = stopsOf.get(bus.line.id) ?? [];
      const n = Math.round(perBusDay * bus.busy * factor * (0.8 + rng.next() * 0.4));
      for (let k = 0; k < n; k++) {
        let hour = 0;
        for (let r = rng.next() * HOUR_TOTAL; hour < 23 && r >= HOUR_WEIGHTS[hour]!; hour++) r -= HOUR_WEIGHTS[hour]!;
        const at = day.start + hour * 3600_000 + rng.int(0, 3599) * 1000;
        if (at > now.getTime()) continue;
        const picked = pool[rng.int(0, pool.length - 1)]!;
        // Every 33rd ride is a driver or a conductor on a staff card (员工卡, free), without a draw
        // of its own so the rest of the demo stays as it was.
        const staff = seq % 33 === 32;
        const card = staff ? { no: staffCardNo(bus.line.districtId, seq % 40), category: EMPLOYEE_CARD_CATEGORY } : picked;
        const ticketType = ticketFor(rng, card.category);
        const r = rng.next();
        const payStatus = r < 0.015 ? 0 : r < 0.02 ? 2 : 1;
        seq++;
        rows.push([
          new Date(at).toISOString(),
          bus.line.districtId,
          bus.line.code,
          bus.line.name,
          bus.name,
          rng.int(0, 1),
          names.length ? names[rng.int(0, names.length - 1)]! : null,
          card.no,
          card.category,
          ticketType,
          ticketType === 1 && !staff ? 200 : 0,
          payStatus,
          rng.next() < 0.95 ? 1 : 0,
          `R${day.label.replaceAll('-', '')}${String(seq).padStart(8, '0')}`,
          CHANNELS[rng.int(0, CHANNELS.length - 1)]!,
          payStatus === 0 ? null : new Date(at + rng.int(1, 30) * 1000).toISOString(),
        ]);
      }
    }
  }
  await bulkInsert(db, 'ride_records', ['ride_at', 'district_id', 'line_code', 'line_name', 'bus_name', 'direction', 'station_name', 'card_no', 'card_category', 'ticket_type', 'amount', 'pay_status', 'recharge_status', 'order_no', 'pay_channel', 'paid_at'], rows);
  // The 60 whole days before: the same model, as daily totals only (their raw records are not kept).
  const totals: (string | number)[][] = [];
  for (let back = AGGREGATE_DAYS; back > RAW_DAYS; back--) {
    const day = shanghaiDay(now, back);
    const factor = isWeekend(day.label) ? 0.65 : 1;
    for (const bus of buses) {
      const n = Math.round(perBusDay * bus.busy * factor * (0.8 + rng.next() * 0.4));
      const single = Math.round(n * 0.6);
      const monthly = Math.round(n * 0.3);
      const yearly = n - single - monthly;
      for (const [ticketType, category, rides] of [
        [1, 6, single],
        [2, 5, monthly],
        [3, 2, yearly],
      ] as const) {
        if (rides > 0) totals.push([day.label, bus.line.districtId, bus.line.code, bus.line.name, bus.name, ticketType, category, rides, ticketType === 1 ? rides * 200 : 0]);
      }
    }
  }
  // Loaded first, into the empty table, so the load writes no WAL (db/seed/bulk.ts).
  await bulkInsert(db, 'day_take_bus_totals', ['day', 'district_id', 'line_code', 'line_name', 'bus_name', 'ticket_type', 'card_category', 'rides', 'amount'], totals);
  // The days with records: from the records themselves, so the two always agree.
  await db.execute(sql`
    insert into day_take_bus_totals (day, district_id, line_code, line_name, bus_name, ticket_type, card_category, rides, amount)
    select (ride_at at time zone 'Asia/Shanghai')::date, district_id, line_code, min(line_name), bus_name, ticket_type, card_category, count(*), sum(amount)
    from ride_records group by 1, 2, 3, 5, 6, 7`);
}

export const rideDemoSeed: readonly SeedGenerator[] = [{ name: 'rides', run: seedRides }];
