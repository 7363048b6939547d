import { sql } from 'drizzle-orm';
import { planned } from '../../db/seed/ahead';
import { bulkInsert, continueIds } from '../../db/seed/bulk';
import type { SeedContext, SeedGenerator } from '../../db/seed/context';
import { createStream } from '../../db/seed/rng';
import { ORDER_COLUMNS, rechargeOrdersPlan } from './seed-plan';

/**
 * Demo NFC充值: the plan's orders (COPY), mapped onto cards in use, then their write attempts, the
 * card centre's loads and the refunds by `insert … select` (decision 96): one statement each, the
 * database doing the 20,000 rows' joins. A few disagreements are planted for 圈存日对账's worklist:
 * two refunded orders the card took all the same (圈存未付) and one load of another amount (金额不符).
 */
async function seedRecharge(ctx: SeedContext) {
  const { db } = ctx;
  const { orders, loadedSuspects } = await planned(rechargeOrdersPlan, ctx);
  // The plan's rows land in a bare temporary table, then go in with their cards in one insert … select:
  // each slot onto a card in use (已售), its number, district, holder and category. The count is a
  // constant, so the join is a hash join on one expression of each side.
  await db.execute(sql.raw(`create temp table recharge_seed_stage as select ${ORDER_COLUMNS.join(', ')} from recharge_orders with no data`));
  await bulkInsert(db, 'recharge_seed_stage', ORDER_COLUMNS, orders);
  const [inUse] = ((await db.execute(sql`select count(*)::int as n from bus_cards where state = 1`)) as unknown as { rows: { n: number }[] }).rows;
  const n = Math.max(1, Number(inUse?.n ?? 1));
  const cols = ORDER_COLUMNS.join(', ');
  const picked = ORDER_COLUMNS.map((c) =>
    c === 'card_id' ? 'c.id' : c === 'card_no' ? 'c.card_no' : c === 'district_id' ? 'c.district_id' : c === 'card_category' ? 'c.category' : c === 'card_inner_no' ? "upper(lpad(to_hex(822083584 + c.id), 8, '0'))" : `s.${c}`,
  ).join(', ');
  await db.execute(
    sql.raw(`insert into recharge_orders (${cols}, rider_id)
    select ${picked}, c.rider_id from recharge_seed_stage s
    join (select id, card_no, district_id, rider_id, category, (row_number() over (order by id) - 1) as k from bus_cards where state = 1) c on c.k = s.card_id % ${n}
    order by s.id`),
  );
  await db.execute(sql`drop table recharge_seed_stage`);
  await continueIds(db, 'recharge_orders');
  // The card centre's record of every load: the written orders, and the 可疑 ones the card took unconfirmed.
  // Made on the worker, the list arrives as COPY text: the plan's few names are drawn again here
  // (the same stream gives the same rows; 20,000 small rows take ~50 ms).
  const loaded = Array.isArray(loadedSuspects) ? loadedSuspects : rechargeOrdersPlan.make({ rng: createStream(ctx.seed, rechargeOrdersPlan.name), now: ctx.now, profile: ctx.profile, pii: ctx.pii }).loadedSuspects;
  const loadedNos = (Array.isArray(loaded) ? loaded : []).map((r) => String(r[0]));
  // The load of another amount (金额不符): one written order of three to five days ago. The ledger
  // takes no UPDATE (its guard), so the difference is planted as the row is written.
  const [odd] = ((await db.execute(sql`select id from recharge_orders where write_state = 2 and written_at > ${new Date(ctx.now.getTime() - 5 * 86_400_000)} and written_at < ${new Date(ctx.now.getTime() - 3 * 86_400_000)} order by id limit 1`)) as unknown as { rows: { id: number }[] }).rows;
  const oddId = odd?.id ?? 0;
  await db.execute(sql`
    insert into card_centre_loads (centre_txn_no, card_no, order_no, txn_seq, tac, amount, bef_bal, aft_bal, loaded_at, settle_day)
    select 'KZX' || to_char(coalesce(written_at, write_started_at + interval '20 seconds') at time zone 'Asia/Shanghai', 'YYYYMMDDHH24MISS') || lpad(id::text, 8, '0'),
      card_no, order_no, txn_seq, coalesce(tac, upper(substr(md5(order_no), 1, 8))), amount + case when id = ${oddId} then 1000 else 0 end, bef_bal, bef_bal + amount + case when id = ${oddId} then 1000 else 0 end,
      coalesce(written_at, write_started_at + interval '20 seconds'),
      to_char(coalesce(written_at, write_started_at + interval '20 seconds') at time zone 'Asia/Shanghai', 'YYYY-MM-DD')
    from recharge_orders where write_state = 2 or order_no = any(${`{${loadedNos.join(',')}}`}::text[])`);
  // Planted: two refunded orders of the last week the card took anyway (圈存未付), one load of another amount (金额不符).
  await db.execute(sql`
    insert into card_centre_loads (centre_txn_no, card_no, order_no, txn_seq, tac, amount, bef_bal, aft_bal, loaded_at, settle_day)
    select 'KZX' || to_char(write_started_at at time zone 'Asia/Shanghai', 'YYYYMMDDHH24MISS') || lpad(id::text, 8, '0'), card_no, order_no, txn_seq,
      upper(substr(md5(order_no), 1, 8)), amount, coalesce(bef_bal, 0), coalesce(bef_bal, 0) + amount, write_started_at + interval '15 seconds',
      to_char((write_started_at + interval '15 seconds') at time zone 'Asia/Shanghai', 'YYYY-MM-DD')
    from recharge_orders where pay_status = 2 and write_started_at > ${new Date(ctx.now.getTime() - 6 * 86_400_000)} and write_started_at < ${new Date(ctx.now.getTime() - 86_400_000)}
    order by id desc limit 2`);
  // Five failed orders were 可疑 once and settled 未到账 by the district manager: their refund is another person's.
  await db.execute(sql`
    update recharge_orders set resolved_by = (select id from users where login = 'manager'), resolved_at = suspect_at, resolution_note = '卡中心核对无此笔圈存记录',
      suspect_at = write_started_at + interval '5 minutes', fail_reason = '核实未到账：卡中心无圈存记录'
    where id in (select id from recharge_orders where write_state = 3 order by id desc limit 5)`);
  await db.execute(sql`update recharge_orders set resolved_at = suspect_at where resolved_by is not null and resolved_at is null`);
  // Each order's steps, as the phone and the system reported them.
  await db.execute(sql`
    insert into recharge_attempts (order_id, at, step, result, detail)
    select id, at, step, result, detail from (
      select id, paid_at as at, 'pay' as step, 1 as result, null::text as detail, 1 as o from recharge_orders where paid_at is not null
      union all select id, write_started_at, 'start', 1, null, 2 from recharge_orders where write_started_at is not null
      union all select id, written_at, 'confirm', 1, 'TAC ' || tac, 3 from recharge_orders where written_at is not null
      union all select id, write_started_at + interval '40 seconds', 'fail', 0, fail_reason, 3 from recharge_orders where fail_reason is not null
      union all select id, suspect_at, 'suspect', 0, '写卡5分钟未收到卡片确认', 4 from recharge_orders where suspect_at is not null
      union all select id, resolved_at, 'resolve', 0, '核实未到账：' || resolution_note, 5 from recharge_orders where resolved_by is not null
      union all select id, refunded_at, 'refund', 1, '退款 ' || (amount / 100) || ' 元', 6 from recharge_orders where refunded_at is not null
    ) s order by id, o`);
  // The refunds of the refunded half of the failed orders, settled (退款成功), in the shared ledger.
  await db.execute(sql`
    insert into money_refunds (kind, order_id, item_id, district_id, order_no, amount, reason, idempotency_key, out_refund_no, state, channel_refund_no, attempts, operator_id, created_at, settled_at)
    select 'nfc', r.id, 0, r.district_id, r.order_no, r.amount, '写卡失败，乘客申请退款', 'seed-nfc-' || r.id,
      'RF' || upper(substr(encode(sha256(convert_to('seed-nfc-' || r.id, 'UTF8')), 'hex'), 1, 30)), 1,
      'CH' || upper(substr(encode(sha256(convert_to('seed-nfc-' || r.id, 'UTF8')), 'hex'), 1, 20)), 1,
      (select u.id from users u where u.login = 'manager'), r.refunded_at, r.refunded_at
    from recharge_orders r where r.pay_status = 2`);
}

export const rechargeDemoSeed: SeedGenerator[] = [{ name: 'recharge-orders', run: seedRecharge }];
