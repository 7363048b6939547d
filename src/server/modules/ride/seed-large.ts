import { performance } from 'node:perf_hooks';
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { bulkInsert } from '../../db/seed/bulk';
import { createRng } from '../../db/seed/rng';
import { ensureRidePartitions, partitionName } from '../../lib/ride-partitions';
import { onlineLines } from './seed';

/**
 * Benchmark volumes of rides (`npm run seed -- --profile large`, README decision 96): millions of
 * ride records over a year, generated inside the database (`insert … select` over
 * `generate_series`), and the daily totals rebuilt from them. Only the hourly counts, the buses and
 * the districts' card pools come from here; every row is made by the database, so 10 million rows
 * never cross the wire.
 *
 * It REPLACES: all ride records and daily totals go first, so a second run gives the same volume,
 * never twice as much. Each month is loaded into a fresh table without indexes that is then attached
 * as the month's partition: the indexes are built once, sorted, instead of row by row.
 */

export interface LargeRidesOptions {
  /** Ride records to write in all. */
  rides: number;
  /** Days of records, ending with today (Shanghai). */
  days: number;
  /** Card numbers riding (the demo's cards in use, then generated 3101… numbers). */
  cards: number;
  /** Buses per online line. */
  busesPerLine: number;
  /** Seeds the hourly counts and the database's random(): the same value gives the same rides. */
  seed: number;
  now: Date;
  /** PostgreSQL: more memory for the joins and index builds of this transaction. */
  bigMemory: boolean;
  log: (msg: string) => void;
}

export interface LargeRidesResult {
  rides: number;
  totals: number;
  cards: number;
  buses: number;
  months: number;
  firstDay: string;
  lastDay: string;
  ms: number;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const SHANGHAI_MS = 8 * HOUR_MS;
/** Weekdays peak at 7–9 and 17–19; weekends ride later and flatter. */
const WEEKDAY_HOURS = [0, 0, 0, 0, 0, 1, 4, 10, 12, 7, 5, 5, 6, 5, 5, 5, 6, 10, 11, 7, 5, 4, 2, 1];
const WEEKEND_HOURS = [0, 0, 0, 0, 0, 1, 2, 4, 6, 7, 8, 8, 8, 8, 8, 8, 8, 8, 7, 6, 5, 4, 2, 1];
const WEEKEND_FACTOR = 0.65;
/** Whether the ride falls in a quieter season: Spring Festival (February), the summer holidays, National Day week. */
function seasonFactor(label: string): number {
  const [, m, d] = label.split('-').map(Number) as [number, number, number];
  if (m === 2) return 0.8;
  if (m === 7 || m === 8) return 0.92;
  if (m === 10 && d <= 7) return 0.75;
  return 1;
}

const label = (localMidnight: number) => new Date(localMidnight).toISOString().slice(0, 10);
const fmt = (n: number) => n.toLocaleString('en');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Volume defaults: 10 million rides on PostgreSQL, a tenth on PGlite (one process, one thread); a
 * card for every ten rides, so with the pool's skew the median card rides a handful of times a year
 * and the busiest few hundred.
 */
export function largeDefaults(kind: 'pglite' | 'postgres', rides = kind === 'postgres' ? 10_000_000 : 1_000_000): Pick<LargeRidesOptions, 'rides' | 'days' | 'cards' | 'busesPerLine' | 'bigMemory'> {
  return { rides, days: 365, cards: Math.round(rides / 10), busesPerLine: 4, bigMemory: kind === 'postgres' };
}

interface Hour {
  part: string;
  start: Date;
  /** Seconds of the hour a ride may fall in (the current hour: up to now). */
  span: number;
  n: number;
}

/** The rides of every hour in the range, exactly `total` in all (largest remainders), newest hour ending at `now`. */
function hourlyCounts(now: Date, days: number, total: number, seed: number): Hour[] {
  const rng = createRng(seed);
  const today = Math.floor((now.getTime() + SHANGHAI_MS) / DAY_MS) * DAY_MS;
  const slots: { part: string; start: number; span: number; w: number }[] = [];
  for (let back = days - 1; back >= 0; back--) {
    const local = today - back * DAY_MS;
    const day = label(local);
    const weekend = [0, 6].includes(new Date(local).getUTCDay());
    const dayWeight = (weekend ? WEEKEND_FACTOR : 1) * seasonFactor(day) * (0.9 + rng.next() * 0.2);
    const mo = new Date(local);
    const part = partitionName({ y: mo.getUTCFullYear(), m: mo.getUTCMonth() + 1 });
    const hours = weekend ? WEEKEND_HOURS : WEEKDAY_HOURS;
    for (let h = 0; h < 24; h++) {
      const start = local - SHANGHAI_MS + h * HOUR_MS;
      const span = Math.min(3600, Math.floor((now.getTime() - start) / 1000));
      if (span <= 0 || hours[h] === 0) continue;
      slots.push({ part, start, span, w: (dayWeight * hours[h]! * span) / 3600 });
    }
  }
  const sum = slots.reduce((a, s) => a + s.w, 0);
  const exact = slots.map((s) => (s.w / sum) * total);
  const counts = exact.map(Math.floor);
  let left = total - counts.reduce((a, n) => a + n, 0);
  for (const i of exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0]).map(([, i]) => i)) {
    if (left-- <= 0) break;
    counts[i]!++;
  }
  return slots.map((s, i) => ({ part: s.part, start: new Date(s.start), span: s.span, n: counts[i]! })).filter((h) => h.n > 0);
}

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

/** Replaces every ride record and daily total with `opts.rides` records over `opts.days` days. */
export async function loadLargeRides(db: Db, opts: LargeRidesOptions): Promise<LargeRidesResult> {
  const started = performance.now();
  const rng = createRng(opts.seed);
  const lines = await onlineLines(db);
  if (!lines.length) throw new Error('没有在线线路：先生成演示城市');
  const stops = await db
    .select({ lineId: t.lineStations.lineId, name: t.stations.name })
    .from(t.lineStations)
    .innerJoin(t.stations, eq(t.stations.id, t.lineStations.stationId))
    .where(eq(t.lineStations.direction, 0))
    .orderBy(asc(t.lineStations.lineId), asc(t.lineStations.seq));
  const stopsOf = new Map<number, string[]>();
  for (const s of stops) stopsOf.set(s.lineId, [...(stopsOf.get(s.lineId) ?? []), s.name]);

  // Buses, each with a weight: every 12th line is busy (three times the rides), the rest vary.
  const buses = lines.flatMap((l, i) => {
    const weight = i % 12 === 0 ? 30 : Math.round(6 + rng.next() * 8);
    return Array.from({ length: opts.busesPerLine }, (_, b) => ({
      idx: i * opts.busesPerLine + b,
      districtId: l.districtId,
      code: l.code,
      name: l.name,
      bus: `沪B-${l.code.padStart(3, '0')}${String(b + 1).padStart(2, '0')}`,
      // U+001F between stop names: split back into an array by the database.
      stops: (stopsOf.get(l.id) ?? []).join('\u001f'),
      weight,
    }));
  });

  // The card pools, one per district that has lines: its own cards in use, then generated numbers
  // in proportion to the district's share of the rides, so a card rides about as often everywhere.
  const realCards = new Map(
    rowsOf<{ district_id: number; n: number }>(await db.execute(sql`select district_id, count(*)::int as n from bus_cards where state = 1 group by 1`)).map((r) => [r.district_id, r.n]),
  );
  const weightOf = new Map<number, number>();
  for (const b of buses) weightOf.set(b.districtId, (weightOf.get(b.districtId) ?? 0) + b.weight);
  const totalWeight = [...weightOf.values()].reduce((a, w) => a + w, 0);
  const realTotal = [...weightOf.keys()].reduce((a, d) => a + (realCards.get(d) ?? 0), 0);
  const synthTotal = Math.max(0, opts.cards - realTotal);
  let offset = 0;
  const districtPools = [...weightOf.entries()].map(([districtId, w]) => {
    const realN = realCards.get(districtId) ?? 0;
    const synthN = Math.round((synthTotal * w) / totalWeight);
    const row = [districtId, realN, synthN, offset];
    offset += synthN;
    return row;
  });

  const hours = hourlyCounts(opts.now, opts.days, opts.rides, opts.seed);
  const parts = [...new Set(hours.map((h) => h.part))];
  const firstDay = label(hours[0]!.start.getTime() + SHANGHAI_MS);
  const lastDay = label(hours.at(-1)!.start.getTime() + SHANGHAI_MS);
  opts.log(`rides: ${fmt(opts.rides)} records over ${opts.days} days (${firstDay} – ${lastDay}), ${buses.length} buses on ${lines.length} lines, ${fmt(realTotal + offset)} cards (${fmt(realTotal)} of the demo's)`);

  let totals = 0;
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const run = (q: string) => tx.execute(sql.raw(q));
    if (opts.bigMemory) {
      await run(`set local work_mem = '256MB'`);
      await run(`set local maintenance_work_mem = '512MB'`);
    }
    await tx.execute(sql`select setseed(${(opts.seed % 1_000_000) / 1_000_000})`);

    let t0 = performance.now();
    // Replace, never add: a second run gives the same volume.
    await run('truncate ride_records, day_take_bus_totals');
    await run(`create temp table seed_hours (part text not null, start timestamptz not null, span int not null, n int not null) on commit drop`);
    await bulkInsert(tx, 'seed_hours', ['part', 'start', 'span', 'n'], hours.map((h) => [h.part, h.start, h.span, h.n]));
    await run(`create temp table seed_buses (idx int primary key, district_id int not null, line_code text not null, line_name text not null, bus_name text not null, stops_joined text not null, weight int not null) on commit drop`);
    await bulkInsert(tx, 'seed_buses', ['idx', 'district_id', 'line_code', 'line_name', 'bus_name', 'stops_joined', 'weight'], buses.map((b) => [b.idx, b.districtId, b.code, b.name, b.bus, b.stops, b.weight]));
    await run(`create temp table seed_districts (district_id int primary key, real_n int not null, synth_n int not null, synth_offset int not null) on commit drop`);
    await bulkInsert(tx, 'seed_districts', ['district_id', 'real_n', 'synth_n', 'synth_offset'], districtPools);
    // One slot per unit of weight: a uniform slot number is a weighted bus.
    await run(`create temp table seed_slots on commit drop as
      select (row_number() over (order by b.idx, g) - 1)::int as slot, b.idx, b.district_id, b.line_code, b.line_name, b.bus_name,
        string_to_array(nullif(b.stops_joined, ''), chr(31)) as stops
      from seed_buses b, generate_series(1, b.weight) g`);
    await run(`alter table seed_slots add primary key (slot)`);
    // Card k of a district: the district's cards in use by id, then generated ones. Generated
    // numbers (3101 6…) never meet the demo's (3101 0000 2…); categories in the demo's mix.
    await run(`create temp table seed_cards (district_id int not null, k int not null, card_no text not null, category smallint not null, primary key (district_id, k)) on commit drop`);
    await run(`insert into seed_cards
      select c.district_id, (row_number() over (partition by c.district_id order by c.id) - 1)::int, c.card_no, c.category
      from bus_cards c join seed_districts d using (district_id) where c.state = 1`);
    await run(`insert into seed_cards
      select x.district_id, x.real_n + x.g - 1, '3101' || (600000000000 + (x.synth_offset + x.g)::bigint * 97 + floor(x.r1 * 97)::bigint)::text,
        case when x.r2 < 0.10 then 1 when x.r2 < 0.20 then 2 when x.r2 < 0.45 then 3 when x.r2 < 0.55 then 4 when x.r2 < 0.70 then 5 else 6 end
      from (select d.*, g, random() as r1, random() as r2 from seed_districts d, generate_series(1, d.synth_n) g offset 0) x`);
    await run(`create temp table seed_pool on commit drop as select district_id, count(*)::int as n from seed_cards group by 1`);
    await run('analyze seed_hours, seed_slots, seed_cards, seed_pool');
    const [{ slots } = { slots: 0 }] = rowsOf<{ slots: number }>(await tx.execute(sql`select count(*)::int as slots from seed_slots`));
    const [{ seq } = { seq: 'ride_records_id_seq' }] = rowsOf<{ seq: string }>(await tx.execute(sql`select pg_get_serial_sequence('ride_records', 'id') as seq`));
    opts.log(`rides: pools ready in ${secs(performance.now() - t0)} (${slots} bus slots)`);

    // Every month of the range gets its partition, as the server's job makes them.
    const first = hours[0]!.start;
    await ensureRidePartitions(tx, first, opts.now);

    let written = 0;
    for (const part of parts) {
      t0 = performance.now();
      const bound = rowsOf<{ bound: string }>(await tx.execute(sql`select pg_get_expr(c.relpartbound, c.oid) as bound from pg_class c where c.oid = to_regclass(${part})`))[0]?.bound;
      if (!bound) throw new Error(`partition ${part} missing`);
      // A fresh table without indexes, filled, then attached: attaching builds the partition's
      // indexes in one sorted pass each and checks the rows fit the month.
      await run(`alter table ride_records detach partition "${part}"`);
      await run(`drop table "${part}"`);
      await run(`create table "${part}" (like ride_records including defaults)`);
      // The random draws are made once per ride in the inner query (a volatile target list is never
      // pulled up), then joined to a weighted bus and to a card of the bus's district, the low
      // numbers of a pool riding most (a card's rank ~ u^1.5: the busiest few hundred a year, the
      // median a handful). Students and seniors ride on passes; others mostly pay single fares.
      await run(`insert into "${part}" (id, ride_at, district_id, line_code, line_name, bus_name, direction, station_name, card_no, card_category, ticket_type, amount, pay_status, recharge_status, order_no, pay_channel, paid_at)
        select y.id, y.at, s.district_id, s.line_code, s.line_name, s.bus_name, (y.u_dir < 0.5)::int,
          s.stops[1 + floor(y.u_stop * coalesce(array_length(s.stops, 1), 0))::int],
          c.card_no, c.category, tk.t, case when tk.t = 1 then 200 else 0 end, pay.s,
          (y.u_rc < 0.95)::int, 'R' || to_char(y.at at time zone 'Asia/Shanghai', 'YYYYMMDD') || lpad(y.id::text, 10, '0'),
          (array['乘车码', '交通卡', '银联闪付', '数字人民币'])[1 + floor(y.u_ch * 4)::int],
          case when pay.s = 0 then null else y.at + (1 + floor(y.u_paid * 30)::int) * interval '1 second' end
        from (
          select nextval('${seq}') as id, h.start + floor(random() * h.span) * interval '1 second' as at,
            floor(random() * ${slots})::int as slot, random() as u_card, random() as u_dir, random() as u_stop,
            random() as u_tk, random() as u_pay, random() as u_rc, random() as u_ch, random() as u_paid
          from seed_hours h, generate_series(1, h.n) g
          where h.part = '${part}'
          offset 0
        ) y
        join seed_slots s on s.slot = y.slot
        join seed_pool p on p.district_id = s.district_id
        join seed_cards c on c.district_id = s.district_id and c.k = least(p.n - 1, floor(p.n * power(y.u_card, 1.5))::int)
        cross join lateral (select case when c.category in (4, 5) then case when y.u_tk < 0.85 then 2 else 1 end
                                         else case when y.u_tk < 0.75 then 1 when y.u_tk < 0.95 then 2 else 3 end end as t) tk
        cross join lateral (select case when y.u_pay < 0.015 then 0 when y.u_pay < 0.02 then 2 else 1 end as s) pay`);
      const t1 = performance.now();
      await run(`alter table ride_records attach partition "${part}" ${bound}`);
      const t2 = performance.now();
      // The month's days from its records: days never straddle months, so month by month is exact.
      const inserted = (await run(`insert into day_take_bus_totals (day, district_id, line_code, line_name, bus_name, ticket_type, card_category, rides, amount)
        select (ride_at at time zone 'Asia/Shanghai')::date, district_id, line_code, min(line_name), bus_name, ticket_type, card_category, count(*), sum(amount)
        from "${part}" group by 1, 2, 3, 5, 6, 7`)) as unknown as { rowCount?: number; affectedRows?: number };
      const n = hours.filter((h) => h.part === part).reduce((a, h) => a + h.n, 0);
      const aggregated = inserted.rowCount ?? inserted.affectedRows ?? 0;
      written += n;
      totals += aggregated;
      opts.log(`rides: ${part} ${fmt(n)} records in ${secs(t1 - t0)}, indexes ${secs(t2 - t1)}, ${fmt(aggregated)} daily totals ${secs(performance.now() - t2)} (${fmt(written)} of ${fmt(opts.rides)}, ${secs(performance.now() - started)})`);
    }
  });
  // Statistics (and the visibility map, for index-only counts) for what was just written: per
  // partition, each a short statement, then the parent's own.
  const t0 = performance.now();
  for (const part of parts) await db.execute(sql.raw(`vacuum (analyze) "${part}"`));
  await db.execute(sql.raw('analyze ride_records'));
  await db.execute(sql.raw('vacuum (analyze) day_take_bus_totals'));
  opts.log(`rides: vacuum + analyze ${secs(performance.now() - t0)}`);
  return { rides: opts.rides, totals, cards: realTotal + offset, buses: buses.length, months: parts.length, firstDay, lastDay, ms: performance.now() - started };
}
