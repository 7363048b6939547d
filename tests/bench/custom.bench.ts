import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import * as demand from '../../src/shared/api/custom-bus/demand';
import { addDays, shanghaiDate } from '../../src/shared/domain/time';
import { type Client, type Measurement, createClient, expectOk, measure, percentile } from './lib';
import { login } from './login.bench';
import type { BenchServer } from './server';

/**
 * 定制汇总 over a year of classes: 24 lines, two departures a weekday each for 365 days (≈12,500
 * classes), 5-seat orders filling ~80% of 45 seats (≈450,000 tickets, some checked, some unused,
 * 1 in 20 refunded with its ledger row), written by `insert … select` into the bench's database;
 * then the summary's page and total over the whole year as the super user (every district).
 */
type Opts = { total: number; concurrency: number; warmup: number };
// Each call aggregates the whole year (≈0.4 M tickets): fewer calls than the lists' rows.
export const CUSTOM_READS: Opts = { total: 40, concurrency: 2, warmup: 3 };

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
const fmt = (n: number) => n.toLocaleString('en');
const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const query = (q: Record<string, string | number>) => new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString();

/** The year of classes, orders, tickets and refunds, in six statements. */
export async function loadCustomYear(server: BenchServer, now = new Date()): Promise<{ classes: number; tickets: number; ms: number }> {
  const t0 = performance.now();
  const db = server.db;
  const today = shanghaiDate(now);
  const first = addDays(today, -364);
  await db.execute(sql`insert into custom_stations (district_id, name, lng, lat, status, created_at, updated_at)
    select d.id, '汇总压测站' || g, 121.4 + g * 0.01, 31.2, 1, ${now}, ${now} from (select min(id) as id from districts) d, generate_series(1, 2) g`);
  await db.execute(sql`insert into custom_lines (district_id, line_no, name, direction, start_station_id, end_station_id, depart_time, arrive_time, original_price, price, ticket_types, default_seats, status, created_at, updated_at)
    select s.district_id, 'YB' || g, '汇总压测线' || g, 0, s.a, s.b, 27000, 30600, 1200, 1000, '{1}', 45, 1, ${now}, ${now}
    from (select district_id, min(id) as a, max(id) as b from custom_stations where name like '汇总压测站%' group by district_id) s, generate_series(1, 24) g`);
  await db.execute(sql`insert into custom_classes (district_id, line_id, direction, depart_date, depart_time, depart_at, arrive_at, publish, stock, sold, price, sale_open_at, sale_close_at, status, created_at, updated_at)
    select l.district_id, l.id, 0, d::date, tm, (d::date + make_interval(secs => tm)) at time zone 'Asia/Shanghai', (d::date + make_interval(secs => tm + 3600)) at time zone 'Asia/Shanghai',
      45, 10, 35, 1000, ${now}::timestamptz - interval '400 days', (d::date + make_interval(secs => tm - 600)) at time zone 'Asia/Shanghai', 3, ${now}, ${now}
    from custom_lines l, generate_series(${first}::date, ${today}::date, interval '1 day') d, unnest(array[27000, 28800]) tm
    where l.line_no like 'YB%' and extract(isodow from d) < 6`);
  const riders = rowsOf<{ id: number }>(await db.execute(sql`select min(id) as id from riders`))[0]!.id;
  await db.execute(sql`insert into custom_orders (order_no, district_id, rider_id, line_id, direction, classes_id, ticket_type, seats, amount, pay_status, status, hold_until, paid_at, created_at, updated_at)
    select 'YB' || c.id || '-' || g, c.district_id, ${riders}, c.line_id, 0, c.id, 1, 5, 5000, 1, 1, c.sale_open_at, c.sale_open_at, c.sale_open_at, c.sale_open_at
    from custom_classes c, generate_series(1, 7) g where c.line_id in (select id from custom_lines where line_no like 'YB%')`);
  await db.execute(sql`insert into custom_tickets (order_id, classes_id, ticket_no, state, amount, refunded_amount, checked_at, check_method, created_at, updated_at)
    select o.id, o.classes_id, o.order_no || '-' || g, case when (o.id + g) % 20 = 0 then 3 when (o.id + g) % 9 = 0 then 1 else 2 end, 1000,
      case when (o.id + g) % 20 = 0 then 1000 else 0 end, case when (o.id + g) % 20 = 0 or (o.id + g) % 9 = 0 then null else o.paid_at end,
      case when (o.id + g) % 20 = 0 or (o.id + g) % 9 = 0 then null else 1 end, o.paid_at, o.paid_at
    from custom_orders o, generate_series(1, 5) g where o.order_no like 'YB%'`);
  await db.execute(sql`insert into money_refunds (kind, order_id, item_id, district_id, order_no, amount, reason, idempotency_key, out_refund_no, state, created_at)
    select 'custom', t.order_id, t.id, o.district_id, o.order_no, 1000, '压测退票', 'yb-' || t.id, 'yb-' || t.id, 1, t.created_at
    from custom_tickets t join custom_orders o on o.id = t.order_id where t.state = 3 and o.order_no like 'YB%'`);
  for (const table of ['custom_classes', 'custom_tickets', 'custom_orders', 'money_refunds']) await db.execute(sql.raw(`analyze ${table}`));
  const [n] = rowsOf<{ classes: number; tickets: number }>(
    await db.execute(sql`select (select count(*)::int from custom_classes) as classes, (select count(*)::int from custom_tickets) as tickets`),
  );
  return { classes: n!.classes, tickets: n!.tickets, ms: performance.now() - t0 };
}

async function benchSummary(client: Client, token: string, opts: Opts): Promise<Measurement[]> {
  const today = shanghaiDate();
  const year = { startDate: addDays(today, -364), endDate: today };
  const get = async (path: string, q: Record<string, string | number>, what: string) => expectOk(await client.request('GET', `${path}?${query(q)}`, { token }), what);
  return [
    await measure('customSummary.page (a year, 20 rows by day)', opts, async () => {
      const d = (await get(demand.customSummaryPage.path, { ...year, page: 0, size: 20 }, '定制汇总')) as { content: unknown[] };
      if (d.content.length !== 20) throw new Error('定制汇总: not a full page');
    }),
    await measure('customSummary.page (a year, by load)', opts, async () => void (await get(demand.customSummaryPage.path, { ...year, page: 0, size: 20, sort: 'loadRate,asc' }, '定制汇总'))),
    await measure('customSummary.total (a year)', opts, async () => void (await get(demand.customSummaryTotal.path, year, '定制汇总合计'))),
  ];
}

/** The section's lines for the report: the volume, the load time and the table. */
export async function customSection(server: BenchServer, opts: Opts, log: (msg: string) => void): Promise<string[]> {
  log('bench: loading a year of 定制公交 classes...');
  const load = await loadCustomYear(server);
  log(`bench: 定制汇总 over ${fmt(load.classes)} classes, ${fmt(load.tickets)} tickets...`);
  const client = createClient(server.url, opts.concurrency);
  try {
    const rows = await benchSummary(client, await login(client, 'admin'), opts);
    return [
      `定制汇总 over a year of classes (${server.kind}: ${fmt(load.classes)} classes, ${fmt(load.tickets)} tickets with their refunds, loaded in ${(load.ms / 1000).toFixed(1)} s), as the super user:`,
      '',
      '| call | n | concurrency | p50 ms | p95 ms | p99 ms |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...rows.map((m) => `| \`${m.name}\` | ${m.requests} | ${m.concurrency} | ${ms(percentile(m.latencies, 50))} | ${ms(percentile(m.latencies, 95))} | ${ms(percentile(m.latencies, 99))} |`),
      '',
    ];
  } finally {
    client.close();
  }
}
