import { sql } from 'drizzle-orm';
import type { SeedContext } from '../../db/seed/context';

/**
 * 定制订单 (second wave §5, §13): orders and tickets made by the database from the classes the classes
 * part seeded (`insert … select`, decision 96), so the demo's ≈45,000 tickets cost one statement each
 * for seats, orders, tickets and refunds. Deterministic: every choice is a hash of the class and seat.
 *
 * Each class whose sale has opened is sold to 60–95%; seats are grouped into orders of 1 and 2; on
 * lines that sell 月票, the first two seats of every class of a month are two 月票 orders. Past classes'
 * tickets are checked (验票) but for 3% no-shows; ~2.5% of single tickets are refunded by the rider at
 * a time that falls in each refundable band of the order's ladder; cancelled classes' tickets are all
 * refunded in full. Each class's stock, held and sold are then set from its tickets.
 */
export async function seedOrders(ctx: SeedContext): Promise<void> {
  const now = ctx.now;
  await ctx.db.transaction(async (tx) => {
    const run = (q: ReturnType<typeof sql>) => tx.execute(q);
    // The rows reference what the seed itself wrote: a superuser (PGlite's, the tests') skips the per-row
    // foreign-key triggers for this transaction alone, as db/seed/bulk.ts does.
    const su = ((await run(sql`select current_setting('is_superuser') as su`)) as unknown as { rows: { su: string }[] }).rows[0]?.su;
    if (su === 'on') await run(sql`set local session_replication_role = replica`);
    await run(sql`create temp table cs_rider on commit drop as select id, row_number() over (order by id) as n from riders order by id limit 12000`);
    await run(sql`create unique index on cs_rider (n)`);
    const riders = Number(((await run(sql`select count(*)::int as riders from cs_rider`)) as unknown as { rows: { riders: number }[] }).rows[0]?.riders ?? 0);
    if (!riders) return;
    // The seats sold: k = 1 … load × publish on each class whose sale opened.
    await run(sql`create temp table cs_seat on commit drop as
      select c.id as classes_id, c.district_id, c.line_id, c.direction, c.depart_date, c.depart_at, c.arrive_at, c.price, c.status, c.car_id, c.cancelled_at, k,
        case when k <= 2 and 2 = any(l.ticket_types) then 'M:' || c.line_id || ':' || c.direction || ':' || to_char(c.depart_date, 'YYYY-MM') || ':' || c.depart_time || ':' || k
             else 'S:' || c.id || ':' || (((k - 1) / 3) * 2 + case when (k - 1) % 3 = 0 then 0 else 1 end) end as okey
      from custom_classes c join custom_lines l on l.id = c.line_id
      cross join lateral generate_series(1, floor(c.publish * (60 + abs(hashtext('load' || c.id)) % 36) / 100.0)::int) k
      where c.status in (1, 2, 3, 4) and c.sale_open_at <= ${now} and not exists (select 1 from custom_tickets x where x.classes_id = c.id)`);
    await run(sql`create temp table cs_order on commit drop as
      select (select coalesce(max(id), 0) from custom_orders) + row_number() over (order by min(s.depart_at), s.okey) as id, s.okey,
        min(s.district_id) as district_id, min(s.line_id) as line_id, min(s.direction) as direction,
        case when s.okey like 'S:%' then min(s.classes_id) end as classes_id,
        case when s.okey like 'M:%' then to_char(min(s.depart_date), 'YYYY-MM') end as month,
        case when s.okey like 'M:%' then 2 else 1 end as ticket_type,
        case when s.okey like 'M:%' then 1 else count(*) end as seats,
        sum(s.price)::int as amount,
        least(min(s.depart_at) - make_interval(hours => 2 + abs(hashtext('c' || s.okey)) % 100), ${now}::timestamptz - interval '10 minutes') as created_at,
        (select r.id from cs_rider r where r.n = 1 + abs(hashtext('r' || s.okey)) % ${riders}) as rider_id
      from cs_seat s group by s.okey`);
    await run(sql`create index on cs_order (okey)`);
    await run(sql`analyze cs_seat`);
    await run(sql`analyze cs_order`);
    await run(sql`create temp table cs_rule on commit drop as select id, district_id, status, effective_at from custom_refund_rules where status in (2, 3)`);
    await run(sql`alter table cs_order add column order_no text, add column rule_version_id int, add column agreement_version int`);
    await run(sql`update cs_order o set order_no = 'CB' || to_char(o.created_at at time zone 'Asia/Shanghai', 'YYMMDDHH24MISS') || lpad(o.id::text, 7, '0'),
      rule_version_id = coalesce(
        (select r.id from cs_rule r where r.district_id = o.district_id and r.effective_at <= o.created_at order by r.effective_at desc limit 1),
        (select r.id from cs_rule r where r.district_id = o.district_id and r.status = 2)),
      agreement_version = (select a.row_version from agreements a where a.district_id = o.district_id and a.code = 'custom-bus')`);
    // Tickets: state by the class (cancelled → refunded in full; past → checked but 3% no-shows) and a
    // rider refund on ~2.5% of single tickets, at a moment in one of the ladder's refundable bands.
    await run(sql`create temp table cs_ticket on commit drop as
      select (select coalesce(max(id), 0) from custom_tickets) + row_number() over (order by o.id, s.depart_at, s.k) as id,
        o.id as order_id, o.order_no, o.district_id, o.rule_version_id, s.classes_id, s.price as amount, s.depart_at, s.arrive_at, s.status as c_status, s.car_id, s.cancelled_at,
        o.order_no || lpad((row_number() over (partition by o.id order by s.depart_at, s.k))::text, 3, '0') as ticket_no, o.created_at,
        case when s.status = 4 then 'cancel'
             when o.ticket_type = 1 and abs(hashtext('rf' || s.classes_id || ':' || s.k)) % 1000 < 25 then 'refund'
             when s.depart_at < ${now} and abs(hashtext('ns' || s.classes_id || ':' || s.k)) % 100 < 3 then 'noshow'
             when s.depart_at < ${now} then 'checked' else 'paid' end as fate,
        (array[25, 60, 150, 600, 1500, 3000])[1 + abs(hashtext('m' || s.classes_id || ':' || s.k)) % 6] as minutes_before,
        abs(hashtext('ck' || s.classes_id || ':' || s.k)) % 25 as check_min
      from cs_seat s join cs_order o on o.okey = s.okey`);
    await run(sql`alter table cs_ticket add column refunded_at timestamptz, add column refund int`);
    // A refund's moment: its band's time before departure, never before the order nor after now.
    await run(sql`update cs_ticket x set refunded_at = greatest(x.created_at + interval '1 minute', least(x.depart_at - make_interval(mins => x.minutes_before), ${now}::timestamptz - interval '1 minute'))
      where x.fate = 'refund'`);
    await run(sql`update cs_ticket x set fate = 'checked' where x.fate = 'refund' and x.refunded_at >= x.depart_at - interval '20 minutes'`);
    await run(sql`update cs_ticket x set refund = x.amount - (
        select least(x.amount, greatest(round(x.amount * (r ->> 'feeRate')::int / 1000.0)::int, case when (r ->> 'feeRate')::int > 0 then (r ->> 'minFee')::int else 0 end))
        from jsonb_array_elements(coalesce((select rows from custom_refund_rules where id = x.rule_version_id),
          '[{"fromMin":0,"toMin":20,"refundable":0,"feeRate":0,"minFee":0},{"fromMin":20,"toMin":120,"refundable":1,"feeRate":200,"minFee":0},{"fromMin":120,"toMin":1440,"refundable":1,"feeRate":100,"minFee":0},{"fromMin":1440,"toMin":null,"refundable":1,"feeRate":0,"minFee":0}]'::jsonb)) r
        where floor(extract(epoch from (x.depart_at - x.refunded_at)) / 60) >= (r ->> 'fromMin')::int
          and (r ->> 'toMin' is null or floor(extract(epoch from (x.depart_at - x.refunded_at)) / 60) < (r ->> 'toMin')::int)
          and (r ->> 'refundable')::int = 1 limit 1)
      where x.fate = 'refund'`);
    // A ladder whose band at that moment did not refund: the ticket was kept.
    await run(sql`update cs_ticket set fate = case when depart_at < ${now} then 'checked' else 'paid' end, refunded_at = null, refund = 0 where fate = 'refund' and refund is null`);
    await run(sql`update cs_ticket set refunded_at = greatest(created_at + interval '1 minute', least(coalesce(cancelled_at, ${now}::timestamptz - interval '1 hour'), ${now}::timestamptz)), refund = amount where fate = 'cancel'`);

    await run(sql`insert into custom_orders (id, order_no, district_id, rider_id, line_id, direction, classes_id, month, ticket_type, seats, amount, refunded_amount, pay_status, status, rule_version_id, agreement_version, hold_until, paid_at, created_at, updated_at)
      select o.id, o.order_no, o.district_id, o.rider_id, o.line_id, o.direction, o.classes_id, o.month, o.ticket_type, o.seats, o.amount,
        coalesce(t.refunded, 0), case when t.kept = 0 then 2 else 1 end, case when t.kept = 0 then 4 when t.refunded > 0 then 3 else 1 end,
        o.rule_version_id, o.agreement_version, o.created_at + interval '2 minutes', o.created_at + interval '1 minute', o.created_at, coalesce(t.last_refund, o.created_at + interval '1 minute')
      from cs_order o join (select order_id, coalesce(sum(refund), 0)::int as refunded, count(*) filter (where fate not in ('refund', 'cancel'))::int as kept, max(refunded_at) as last_refund from cs_ticket group by order_id) t on t.order_id = o.id`);
    await run(sql`insert into custom_tickets (id, order_id, classes_id, ticket_no, state, amount, refunded_amount, refunded_at, checked_at, check_plate_no, check_method, created_at, updated_at)
      select x.id, x.order_id, x.classes_id, x.ticket_no,
        case x.fate when 'cancel' then 3 when 'refund' then 3 when 'checked' then 2 else 1 end, x.amount, coalesce(x.refund, 0), x.refunded_at,
        case when x.fate = 'checked' then x.depart_at - make_interval(mins => x.check_min) end,
        case when x.fate = 'checked' then (select plate_no from custom_cars where id = x.car_id) end,
        case when x.fate = 'checked' then case when x.check_min % 10 = 0 then 2 else 1 end end,
        x.created_at, coalesce(x.refunded_at, case when x.fate = 'checked' then x.depart_at - make_interval(mins => x.check_min) end, x.created_at)
      from cs_ticket x`);
    await run(sql`insert into money_refunds (kind, order_id, item_id, district_id, order_no, amount, reason, idempotency_key, out_refund_no, state, channel_refund_no, attempts, created_at, settled_at)
      select 'custom', x.order_id, x.id, x.district_id, x.order_no, x.refund, case when x.fate = 'cancel' then '班次取消：车辆故障' else '乘客申请退票' end,
        'seed-' || x.ticket_no, 'RFCB' || x.id, 1, 'CHCB' || x.id, 1, x.refunded_at, x.refunded_at
      from cs_ticket x where x.fate in ('refund', 'cancel')`);
    // Each class's seats from its tickets (a refund before departure put its seat back on sale).
    await run(sql`update custom_classes c set sold = coalesce(s.n, 0), held = 0, stock = c.publish - coalesce(s.n, 0)
      from (select c2.id, (select count(*)::int from custom_tickets x where x.classes_id = c2.id and x.state in (1, 2)) as n from custom_classes c2 where c2.id in (select classes_id from cs_seat)) s where s.id = c.id`);
    await run(sql`select setval(pg_get_serial_sequence('custom_orders', 'id'), greatest((select coalesce(max(id), 0) from custom_orders), 1))`);
    await run(sql`select setval(pg_get_serial_sequence('custom_tickets', 'id'), greatest((select coalesce(max(id), 0) from custom_tickets), 1))`);
  });
}
