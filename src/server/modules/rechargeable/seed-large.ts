import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/connection';

/**
 * Benchmark volumes of stored value (`npm run seed -- --profile large`, issue 22): a million wallets
 * and ten million ledger rows on PostgreSQL, made inside the database (`insert … select` over
 * `generate_series`), so no row crosses the wire.
 *
 * It REPLACES: wallets, their orders, ledger and adjustments go by TRUNCATE (the ledger's
 * append-only trigger refuses UPDATE and DELETE, not TRUNCATE) and the wallet refunds of the shared
 * refund ledger with them; a second run gives the same volume. The demo's plans stay.
 *
 * Consistent by construction, so ★ 每日轧账 passes on it: a wallet buys one plan again and again and
 * rides one fare; its history is segments of [充值 (type 1), 赠送 (type 2, when the plan gives),
 * then ⌊amount / fare⌋ rides (type 3)], each segment leaving the principal no lower than it found
 * it. With one fare per wallet the after-values are a closed formula of the row's position (no
 * window over ten million rows), every balance stays ≥ 0, Σ ledger = the wallet and paid orders −
 * rides = the principal. Each segment's 充值 is a paid order (已到账).
 *
 * Wallets need riders (one each, unique): beyond the demo's, synthetic riders are added once and
 * kept (phone_idx `large-N`, which no blind index ever equals, so a phone lookup never lands on
 * one; their sealed phone is a demo rider's, so lists decrypt and mask it as for anyone).
 *
 * Rows are written in time order (ids follow created_at, as the services write them), and without
 * the tables' secondary indexes and foreign keys, which are rebuilt once at the end from their own
 * definitions (pg_get_indexdef / pg_get_constraintdef): one sorted pass each instead of ten million
 * random inserts.
 */

export interface LargeWalletsOptions {
  wallets: number;
  ledger: number;
  /** Seeds the database's random(): the same value gives the same wallets. */
  seed: number;
  now: Date;
  bigMemory: boolean;
  log: (msg: string) => void;
}

export interface LargeWalletsResult {
  wallets: number;
  ledger: number;
  orders: number;
  /** Synthetic riders added by this run (0 when an earlier run left them). */
  ridersAdded: number;
  /** The busiest wallets' ledger rows (the ones a bench pages through). */
  heavyRows: number;
  ms: number;
}

/** A million wallets and ten million ledger rows on PostgreSQL, a tenth of each on PGlite (as rides). */
export function largeWalletDefaults(kind: 'pglite' | 'postgres', wallets?: number): Pick<LargeWalletsOptions, 'wallets' | 'ledger' | 'bigMemory'> {
  const w = wallets ?? (kind === 'postgres' ? 1_000_000 : 100_000);
  return { wallets: w, ledger: w * 10, bigMemory: kind === 'postgres' };
}

/** One wallet in this many is a heavy rider: the rows beyond the others' share are theirs. */
const HEAVY_EVERY = 1_000;
/** The active plans' (amount, gift) in fen, by weight, as the demo sells them. */
const PLANS = [
  [5_000, 0, 35],
  [10_000, 500, 25],
  [20_000, 1_500, 20],
  [30_000, 3_000, 12],
  [50_000, 6_000, 8],
] as const;
const FARES = [100, 150, 200, 200, 200, 300];

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const fmt = (n: number) => n.toLocaleString('en');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Replaces every wallet, wallet order, ledger row and adjustment with the large volume. */
export async function loadLargeWallets(db: Db, opts: LargeWalletsOptions): Promise<LargeWalletsResult> {
  const started = performance.now();
  if (opts.ledger < opts.wallets * 3) throw new Error('ledger rows must be at least three per wallet');
  const now = opts.now.toISOString();
  let result: Omit<LargeWalletsResult, 'ms'> = { wallets: 0, ledger: 0, orders: 0, ridersAdded: 0, heavyRows: 0 };
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const run = (q: string) => tx.execute(sql.raw(q));
    const one = async <T>(q: string) => rowsOf<T>(await run(q))[0]!;
    if (opts.bigMemory) {
      await run(`set local work_mem = '256MB'`);
      await run(`set local maintenance_work_mem = '512MB'`);
    }
    await tx.execute(sql`select setseed(${((opts.seed + 22) % 1_000_000) / 1_000_000})`);
    let t0 = performance.now();

    // Riders: one per wallet. Synthetic ones copy a demo rider's district and sealed phone.
    const have = await one<{ riders: number; synth: number }>(`select count(*)::int as riders, count(*) filter (where phone_idx like 'large-%')::int as synth from riders`);
    const add = Math.max(0, opts.wallets - have.riders);
    if (add > 0) {
      await run(`create temp table seed_rider_tpl on commit drop as
        select (row_number() over (order by id) - 1)::int as k, district_id, phone_enc from riders where phone_idx not like 'large-%'`);
      const tpl = await one<{ n: number }>(`select count(*)::int as n from seed_rider_tpl`);
      if (!tpl.n) throw new Error('没有乘客：先生成演示城市');
      await run(`insert into riders (district_id, phone_enc, phone_idx, real_name, state, created_at, updated_at)
        select t.district_id, t.phone_enc, 'large-' || g, 0, 1, timestamptz '${now}' - interval '400 days', timestamptz '${now}' - interval '400 days'
        from generate_series(${have.synth + 1}, ${have.synth + add}) g join seed_rider_tpl t on t.k = g % ${tpl.n}`);
    }
    opts.log(`wallets: ${fmt(add)} synthetic riders added in ${secs(performance.now() - t0)} (${fmt(have.riders + add)} riders)`);

    // Replace, never add.
    t0 = performance.now();
    await run(`truncate wallet_ledger, wallet_adjustments, wallet_orders, wallets restart identity`);
    await run(`delete from money_refunds where kind = 'wallet'`);
    const plans = rowsOf<{ id: number; amount: number; gift_amount: number; name: string }>(await run(`select id, amount, gift_amount, name from recharge_plans where status = 1 order by amount`));
    const planOf = (amount: number) => plans.find((p) => p.amount === amount);

    // Each wallet: its rider, plan (by weight), fare, rows, first and last moment. Rows: 1 + ⌊u²·22⌋
    // (a mean near 8), then what is left of the total goes to one wallet in HEAVY_EVERY.
    const weights = PLANS.reduce((a, p) => a + p[2], 0);
    const planCase = (col: 0 | 1 | 'id') => {
      let acc = 0;
      const arms = PLANS.map(([amount, gift, w]) => {
        acc += w;
        const v = col === 'id' ? (planOf(amount)?.id ?? 'null') : col === 0 ? amount : gift;
        return `when u_plan < ${acc / weights} then ${v}`;
      });
      return `case ${arms.join(' ')} else ${col === 'id' ? (planOf(PLANS[0][0])?.id ?? 'null') : col === 0 ? PLANS[0][0] : 0} end`;
    };
    await run(`create temp table seed_w (w int primary key, rider_id int not null, district_id int not null, a int not null, g int not null, plan_id int,
        fare int not null, len int not null, n int not null, first_at timestamptz not null, span_s float8 not null, segs int not null default 0, order_base int not null default 0) on commit drop`);
    await run(`insert into seed_w (w, rider_id, district_id, a, g, plan_id, fare, len, n, first_at, span_s)
      select w, rider_id, district_id, a, g, plan_id, fare, 1 + (g > 0)::int + a / fare, n,
        timestamptz '${now}' - (365 * 86400 * (0.1 + 0.9 * u_start)) * interval '1 second', 0
      from (
        select w, rider_id, district_id, ${planCase(0)} as a, ${planCase(1)} as g, ${planCase('id')} as plan_id,
          (array[${FARES.join(', ')}])[1 + floor(u_fare * ${FARES.length})::int] as fare, 1 + floor(u_n * u_n * 22)::int as n, u_start
        from (
          select (row_number() over (order by id))::int as w, id as rider_id, district_id, random() as u_plan, random() as u_fare, random() as u_n, random() as u_start
          from (select id, district_id from riders order by id limit ${opts.wallets}) r
          offset 0
        ) x
      ) y`);
    // A wallet's rows must not end between an order's 充值 and its 赠送: the order would claim a gift
    // the wallet never received, which the reconcile's gift proof reports (27,701 of 200,000 did).
    const cut = `g > 0 and (n - 1) % len = 0`;
    await run(`update seed_w set n = n + 1 where ${cut}`);
    const base = await one<{ wallets: number; rows: string }>(`select count(*)::int as wallets, sum(n)::bigint as rows from seed_w`);
    if (base.wallets < opts.wallets) throw new Error(`only ${base.wallets} riders for ${opts.wallets} wallets`);
    const heavy = Math.max(1, Math.floor(opts.wallets / HEAVY_EVERY));
    const left = opts.ledger - Number(base.rows);
    if (left < 0) throw new Error('too few ledger rows for the wallets');
    const each = Math.floor(left / heavy);
    await run(`update seed_w set n = n + ${each} + case when w = ${HEAVY_EVERY} then ${left - each * heavy} else 0 end where w % ${HEAVY_EVERY} = 0`);
    // The heavy wallets again (a row fewer: the ledger may fall short of its target by at most one row each).
    await run(`update seed_w set n = n - 1 where w % ${HEAVY_EVERY} = 0 and ${cut}`);
    // Rows spread evenly from the wallet's first moment to an hour ago; segments and order ids.
    await run(`update seed_w set span_s = extract(epoch from (timestamptz '${now}' - interval '1 hour' - first_at)), segs = (n - 1) / len + 1`);
    await run(`update seed_w s set order_base = x.base from (select w, (sum(segs) over (order by w) - segs)::int as base from seed_w) x where x.w = s.w`);
    await run('analyze seed_w');
    const sums = await one<{ rows: string; orders: string }>(`select sum(n)::bigint as rows, sum(segs)::bigint as orders from seed_w`);
    opts.log(`wallets: ${fmt(opts.wallets)} wallets planned (${fmt(Number(sums.rows))} ledger rows, ${fmt(Number(sums.orders))} orders, ${heavy} heavy wallets of ~${fmt(each)} rows) in ${secs(performance.now() - t0)}`);

    // Without secondary indexes and foreign keys while loading; rebuilt below from their definitions.
    const tables = `'wallets', 'wallet_orders', 'wallet_ledger'`;
    const fks = rowsOf<{ tbl: string; name: string; def: string }>(
      await run(`select conrelid::regclass::text as tbl, conname as name, pg_get_constraintdef(oid) as def from pg_constraint where contype = 'f' and conrelid::regclass::text in (${tables})`),
    );
    const idx = rowsOf<{ name: string; def: string }>(
      await run(`select i.indexname as name, i.indexdef as def from pg_indexes i
        where i.schemaname = current_schema() and i.tablename in (${tables})
          and not exists (select 1 from pg_constraint c where c.conname = i.indexname and c.contype = 'p')`),
    );
    for (const f of fks) await run(`alter table "${f.tbl}" drop constraint "${f.name}"`);
    for (const i of idx) await run(`drop index "${i.name}"`);

    // Position p of wallet w: segment s = p / len, k = p % len; k = 0 充值, k = 1 赠送 (gift plans),
    // else ride j. `prior` is the principal the earlier segments left.
    const at = (p: string) => `(w.first_at + (w.span_s * (${p} + 1) / (w.n + 1)) * interval '1 second')`;
    t0 = performance.now();
    await run(`insert into wallets (id, rider_id, district_id, principal, gift, status, version, created_at, updated_at)
      select w.w, w.rider_id, w.district_id, f.pa, f.ga, 1, w.n, w.first_at - interval '30 minutes', ${at('(w.n - 1)')}
      from seed_w w cross join lateral (${afterOf('w.n - 1')}) f
      order by w.w`);
    await run(`insert into wallet_orders (id, order_no, district_id, rider_id, wallet_id, plan_id, snapshot, pay_amount, gift_amount, pay_status, status, principal_after, created_at, paid_at)
      select w.order_base + s + 1, 'W' || to_char(${at('s * w.len')} at time zone 'Asia/Shanghai', 'YYYYMMDDHH24MISS') || lpad((w.order_base + s + 1)::text, 8, '0'),
        w.district_id, w.rider_id, w.w, w.plan_id,
        jsonb_build_object('name', case when w.g > 0 then '充' || (w.a / 100) || '送' || (w.g / 100) || '元' else '充' || (w.a / 100) || '元' end, 'amount', w.a, 'giftAmount', w.g),
        w.a, w.g, 1, 1, s * (w.a - (w.len - 1 - (w.g > 0)::int) * w.fare) + w.a,
        ${at('s * w.len')} - interval '1 minute', ${at('s * w.len')}
      from seed_w w cross join generate_series(0, w.segs - 1) s
      order by 1`);
    opts.log(`wallets: wallets and orders written in ${secs(performance.now() - t0)}`);

    t0 = performance.now();
    const [{ seq } = { seq: 'wallet_ledger_id_seq' }] = rowsOf<{ seq: string }>(await run(`select pg_get_serial_sequence('wallet_ledger', 'id') as seq`));
    const ins = (await run(`insert into wallet_ledger (id, wallet_id, district_id, type, principal_delta, gift_delta, principal_after, gift_after, ref_kind, ref_id, created_at)
      select nextval('${seq}'), x.w, x.district_id, x.type, x.dp, x.dg, x.pa, x.ga, x.ref_kind, x.ref_id, x.at from (
        select w.w, w.district_id, ${at('p')} as at, p, f.*,
          case when p % w.len = 0 then 1 when w.g > 0 and p % w.len = 1 then 2 else 3 end as type,
          case when p % w.len = 0 then w.a when w.g > 0 and p % w.len = 1 then 0 else -w.fare end as dp,
          case when w.g > 0 and p % w.len = 1 then w.g else 0 end as dg,
          case when w.g > 0 and p % w.len = 1 or p % w.len = 0 then 'order' else 'ride' end as ref_kind,
          case when w.g > 0 and p % w.len = 1 or p % w.len = 0 then (w.order_base + p / w.len + 1)::text else 'L' || w.w || '-' || p end as ref_id
        from seed_w w cross join generate_series(0, w.n - 1) p cross join lateral (${afterOf('p')}) f
        order by 3, 1, 4
      ) x`)) as unknown as { rowCount?: number; affectedRows?: number };
    const written = ins.rowCount ?? ins.affectedRows ?? 0;
    opts.log(`wallets: ${fmt(written)} ledger rows written in ${secs(performance.now() - t0)}`);

    t0 = performance.now();
    for (const i of idx) await run(i.def);
    const t1 = performance.now();
    for (const f of fks) await run(`alter table "${f.tbl}" add constraint "${f.name}" ${f.def}`);
    for (const table of ['wallets', 'wallet_orders']) await run(`select setval(pg_get_serial_sequence('${table}', 'id'), coalesce(max(id), 0) + 1, false) from ${table}`);
    opts.log(`wallets: ${idx.length} indexes rebuilt in ${secs(t1 - t0)}, ${fks.length} foreign keys checked in ${secs(performance.now() - t1)}`);
    const heavyRows = await one<{ n: number }>(`select max(n)::int as n from seed_w`);
    result = { wallets: opts.wallets, ledger: written, orders: Number(sums.orders), ridersAdded: add, heavyRows: heavyRows.n };
  });
  const t0 = performance.now();
  for (const table of ['riders', 'wallets', 'wallet_orders', 'wallet_ledger']) await db.execute(sql.raw(`vacuum (analyze) ${table}`));
  opts.log(`wallets: vacuum + analyze ${secs(performance.now() - t0)}`);
  return { ...result, ms: performance.now() - started };
}

/**
 * The principal and gift after position `p` of wallet `w` (seed_w's columns), in closed form: s whole
 * segments before it each left a − rides·fare of principal and g of gift; within its segment, the
 * 充值 adds a, the 赠送 adds g and each ride so far takes a fare.
 */
function afterOf(p: string): string {
  const rides = `(w.len - 1 - (w.g > 0)::int)`;
  const s = `((${p}) / w.len)`;
  const k = `((${p}) % w.len)`;
  const giftRow = `(w.g > 0)::int`;
  return `select ${s} * (w.a - ${rides} * w.fare) + w.a - greatest(0, ${k} - ${giftRow}) * w.fare as pa,
    ${s} * w.g + case when w.g > 0 and ${k} >= 1 then w.g else 0 end as ga`;
}
