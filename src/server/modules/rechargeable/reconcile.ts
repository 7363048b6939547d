import { desc, sql } from 'drizzle-orm';
import { maskPhone } from '../../../shared/domain/mask';
import { addDays, shanghaiDate, shanghaiMidnight } from '../../../shared/domain/time';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import { audit } from '../../lib/audit';
import { iso } from '../../lib/sql';
import { SYSTEM_ACTOR } from './money';
import { walletReconcileRuns } from './schema';

/**
 * ★ 每日轧账 (second wave §9): four proofs per wallet, all in one set-based pass (hash aggregates of
 * the ledger, the orders and the refund ledger joined to the wallets, no per-wallet loop), so a
 * million wallets fit the minute:
 * 1. `ledger`: Σ ledger deltas = the wallet's principal and gift;
 * 2. `orders`: paid − refunded (orders) − consumed + adjusted (ledger) = the wallet's principal;
 * 3. `gift`: gift granted by its credited orders − gift clawed back (orders) + the gift the rides
 *    took and adjustments moved (ledger types 3 and 5) = the wallet's gift;
 * 4. `refunds`: what `money_refunds` recorded for its orders = what its type-4 rows took out
 *    (principal and, when the setting lets the gift be refunded, gift) + what its orders refunded at
 *    arrival say they gave back, so a refund paid without its ledger row or its order's say-so, or
 *    a ledger refund nobody paid out, is a break.
 * An order is credited when the pay notice put its money in the wallet (`principal_after` set): a
 * notice for a closed wallet or over the balance cap is refunded at arrival, with a refund row and
 * no ledger row, and gives no gift (proof 3 leaves it out; proof 2 nets it, paid = refunded; proof 4
 * takes its `refund_amount` for the ledger rows it does not have).
 * The broken wallets are found in a MATERIALIZED CTE, the LIMIT outside it: with the filter next to
 * `order by … limit`, PostgreSQL planned for the first 200 rows (merge joins over the ledger's
 * (wallet_id, id) index, one random heap page per ledger row) and, since a sound ledger has no broken
 * wallet, read them all that way: 46 s over 10,000,000 rows where the hash aggregate of a sequential
 * scan takes 11–15 s (issue 22's `npm run bench:money`).
 * For a wallet that fails, a window over its own rows finds the first whose running sum disagrees
 * with its after-values: where the history broke. The liability board is the ledger's running sum
 * at the end of each Shanghai day.
 */

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

/** How many broken wallets the answer lists (all are counted). */
const SHOWN = 200;

export type Proof = 'ledger' | 'orders' | 'gift' | 'refunds';

type Break = {
  walletId: number;
  riderPhone: string;
  principal: number;
  gift: number;
  ledgerPrincipal: number;
  ledgerGift: number;
  ordersPrincipal: number;
  ordersGift: number;
  refundsRecorded: number;
  /** The type-4 rows' amount plus what orders refunded at arrival gave back. */
  ledgerRefunded: number;
  failed: Proof[];
  firstBadLedgerId: number | null;
  firstBadAt: string | null;
};

/** Per district: its wallets and how many of them are broken (a district manager sees only theirs). */
export type DistrictFigures = { districtId: number; wallets: number; broken: number };

export async function reconcileWallets(
  deps: Pick<AppDeps, 'db' | 'pii'>,
  districtId: number | null,
  shown = SHOWN,
): Promise<{ wallets: number; principal: number; gift: number; brokenCount: number; broken: Break[]; districts: DistrictFigures[] }> {
  const db = deps.db;
  const inDistrict = districtId === null ? sql`true` : sql`w.district_id = ${districtId}`;
  const ledgerScope = districtId === null ? sql`true` : sql`district_id = ${districtId}`;
  const refundScope = districtId === null ? sql`true` : sql`m.district_id = ${districtId}`;
  const totals = rowsOf<{ district_id: number; wallets: number; principal: string; gift: string }>(
    await db.execute(sql`select district_id, count(*)::int as wallets, coalesce(sum(principal), 0)::bigint as principal, coalesce(sum(gift), 0)::bigint as gift from wallets w where ${inDistrict} group by district_id`),
  );
  const found = rowsOf<{
    wallet_id: number;
    principal: number;
    gift: number;
    lp: string;
    lg: string;
    op: string;
    og: string;
    rr: string;
    lr: string;
    phone_enc: string;
    n: number;
    per: Record<string, number> | null;
  }>(
    await db.execute(sql`
      with l as (
        select wallet_id,
               sum(principal_delta) as lp,
               sum(gift_delta) as lg,
               sum(principal_delta) filter (where type in (3, 5)) as moved,
               sum(gift_delta) filter (where type in (3, 5)) as gmoved,
               -sum(principal_delta + gift_delta) filter (where type = 4) as refunded
        from wallet_ledger where ${ledgerScope} group by wallet_id
      ), o as (
        select wallet_id, sum(pay_amount) - sum(refund_amount) as net,
               sum(gift_amount - gift_clawback) filter (where principal_after is not null) as gnet,
               sum(refund_amount) filter (where principal_after is null) as arrived
        from wallet_orders where status in (1, 2) and ${ledgerScope} group by wallet_id
      ), r as (
        select wo.wallet_id, sum(m.amount) as recorded
        from money_refunds m join wallet_orders wo on wo.id = m.order_id
        where m.kind = 'wallet' and ${refundScope}
        group by wo.wallet_id
      ), b as materialized (
        select w.id as wallet_id, w.district_id, w.principal, w.gift, w.rider_id,
               coalesce(l.lp, 0) as lp, coalesce(l.lg, 0) as lg,
               coalesce(o.net, 0) + coalesce(l.moved, 0) as op,
               coalesce(o.gnet, 0) + coalesce(l.gmoved, 0) as og,
               coalesce(r.recorded, 0) as rr, coalesce(l.refunded, 0) + coalesce(o.arrived, 0) as lr
        from wallets w left join l on l.wallet_id = w.id left join o on o.wallet_id = w.id left join r on r.wallet_id = w.id
        where ${inDistrict}
          and (w.principal <> coalesce(l.lp, 0) or w.gift <> coalesce(l.lg, 0)
            or w.principal <> coalesce(o.net, 0) + coalesce(l.moved, 0)
            or w.gift <> coalesce(o.gnet, 0) + coalesce(l.gmoved, 0)
            or coalesce(r.recorded, 0) <> coalesce(l.refunded, 0) + coalesce(o.arrived, 0))
      )
      select b.wallet_id, b.principal, b.gift, b.lp::bigint as lp, b.lg::bigint as lg, b.op::bigint as op, b.og::bigint as og,
             b.rr::bigint as rr, b.lr::bigint as lr, r.phone_enc, count(*) over ()::int as n,
             (select jsonb_object_agg(district_id, k) from (select district_id, count(*)::int as k from b group by district_id) d) as per
      from b join riders r on r.id = b.rider_id
      order by b.wallet_id
      limit ${shown}`),
  );
  const brokenCount = found[0]?.n ?? 0;
  const perDistrict = found[0]?.per ?? {};
  const firstBad = new Map<number, { id: number; at: Date }>();
  if (found.length) {
    const ids = sql.join(
      found.map((f) => sql`${f.wallet_id}`),
      sql`, `,
    );
    const bad = rowsOf<{ wallet_id: number; id: string; created_at: string | Date }>(
      await db.execute(sql`
        select distinct on (wallet_id) wallet_id, id, created_at from (
          select wallet_id, id, created_at, principal_after, gift_after,
                 sum(principal_delta) over w as rp, sum(gift_delta) over w as rg
          from wallet_ledger where wallet_id in (${ids})
          window w as (partition by wallet_id order by id)
        ) x
        where rp <> principal_after or rg <> gift_after
        order by wallet_id, id`),
    );
    for (const b of bad) firstBad.set(b.wallet_id, { id: Number(b.id), at: new Date(b.created_at) });
  }
  return {
    wallets: totals.reduce((n, t) => n + t.wallets, 0),
    principal: totals.reduce((n, t) => n + Number(t.principal), 0),
    gift: totals.reduce((n, t) => n + Number(t.gift), 0),
    brokenCount,
    districts: totals.map((t) => ({ districtId: t.district_id, wallets: t.wallets, broken: Number(perDistrict[String(t.district_id)] ?? 0) })).sort((a, b) => a.districtId - b.districtId),
    broken: found.map((f) => {
      const v = { lp: Number(f.lp), lg: Number(f.lg), op: Number(f.op), og: Number(f.og), rr: Number(f.rr), lr: Number(f.lr) };
      const failed: Proof[] = [];
      if (f.principal !== v.lp || f.gift !== v.lg) failed.push('ledger');
      if (f.principal !== v.op) failed.push('orders');
      if (f.gift !== v.og) failed.push('gift');
      if (v.rr !== v.lr) failed.push('refunds');
      return {
        walletId: f.wallet_id,
        riderPhone: maskPhone(deps.pii.decrypt(f.phone_enc)),
        principal: f.principal,
        gift: f.gift,
        ledgerPrincipal: v.lp,
        ledgerGift: v.lg,
        ordersPrincipal: v.op,
        ordersGift: v.og,
        refundsRecorded: v.rr,
        ledgerRefunded: v.lr,
        failed,
        firstBadLedgerId: firstBad.get(f.wallet_id)?.id ?? null,
        firstBadAt: firstBad.has(f.wallet_id) ? iso(firstBad.get(f.wallet_id)!.at) : null,
      };
    }),
  };
}

/** The stored-value liability at the end of each of the last `days` Shanghai days, principal and gift apart. */
export async function liabilityByDay(db: Db, districtId: number | null, today: string, days: number) {
  const first = addDays(today, -(days - 1));
  const from = shanghaiMidnight(first);
  const scope = districtId === null ? sql`true` : sql`district_id = ${districtId}`;
  const rows = rowsOf<{ day: string; principal: string; gift: string }>(
    await db.execute(sql`
      with d as (select generate_series(${first}::date, ${today}::date, interval '1 day')::date as day),
      opening as (select coalesce(sum(principal_delta), 0) as p, coalesce(sum(gift_delta), 0) as g from wallet_ledger where created_at < ${iso(from)} and ${scope}),
      per as (
        select (created_at at time zone 'Asia/Shanghai')::date as day, sum(principal_delta) as p, sum(gift_delta) as g
        from wallet_ledger where created_at >= ${iso(from)} and ${scope} group by 1
      )
      select to_char(d.day, 'YYYY-MM-DD') as day,
             (opening.p + sum(coalesce(per.p, 0)) over (order by d.day))::bigint as principal,
             (opening.g + sum(coalesce(per.g, 0)) over (order by d.day))::bigint as gift
      from d cross join opening left join per on per.day = d.day
      order by d.day`),
  );
  return rows.map((r) => ({ day: r.day, principal: Number(r.principal), gift: Number(r.gift) }));
}

/**
 * GET wallet/reconcile: the proofs now, over the operator's area, with the board and the last nightly
 * run. The run is city-wide; someone who works in one district reads that district's figures of it
 * (stored per district beside the totals), never the city's: a run stored before it kept them is
 * shown to them as none.
 */
export async function reconcileNow(deps: AppDeps, a: AuthContext, q: { days: number }) {
  const now = deps.clock.now();
  const result = await reconcileWallets(deps, a.districtScope);
  const liability = await liabilityByDay(deps.db, a.districtScope, shanghaiDate(now), q.days);
  const [last] = await deps.db.select().from(walletReconcileRuns).orderBy(desc(walletReconcileRuns.day)).limit(1);
  return {
    checkedDate: iso(now),
    wallets: result.wallets,
    principal: result.principal,
    gift: result.gift,
    brokenCount: result.brokenCount,
    broken: result.broken,
    liability,
    lastRun: last ? lastRunFor(last, a.districtScope) : null,
  };
}

function lastRunFor(last: typeof walletReconcileRuns.$inferSelect, districtId: number | null) {
  const run = { day: last.day, ranDate: iso(last.ranAt), ms: last.ms };
  if (districtId === null) return { ...run, wallets: last.wallets, broken: last.broken };
  if (!last.districts) return null;
  // A district without wallets that night is not in the list: none of its wallets, none broken.
  const mine = last.districts.find((d) => d.districtId === districtId);
  return { ...run, wallets: mine?.wallets ?? 0, broken: mine?.broken ?? 0 };
}

/**
 * The job wallet.reconcile: once per Shanghai day, after midnight, for the whole city. The day's row
 * is claimed under an advisory lock, so of several instances one runs it; its audit row says the
 * outcome (a break shows in the log as well as on the board).
 */
export async function nightlyReconcile(deps: Pick<AppDeps, 'db' | 'pii' | 'clock'>): Promise<{ day: string; broken: number; ms: number } | null> {
  const now = deps.clock.now();
  const day = addDays(shanghaiDate(now), -1);
  return deps.db.transaction(async (tx) => {
    const got = rowsOf<{ ok: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(7303, 1) as ok`));
    if (!got[0]?.ok) return null;
    const done = rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from wallet_reconcile_runs where day = ${day}::date`));
    if (done[0]?.n) return null;
    const started = Date.now();
    const r = await reconcileWallets({ db: tx, pii: deps.pii }, null);
    const ms = Date.now() - started;
    await tx.insert(walletReconcileRuns).values({ day, wallets: r.wallets, broken: r.brokenCount, principal: r.principal, gift: r.gift, breaks: r.broken, districts: r.districts, ms, ranAt: now });
    await audit(
      tx,
      SYSTEM_ACTOR,
      { type: 'WALLET_RECONCILE', targetDistrictId: null, target: `wallet-reconcile/${day}`, summary: r.brokenCount ? `每日轧账 ${day}：${r.wallets} 个钱包，${r.brokenCount} 个不平` : `每日轧账 ${day}：${r.wallets} 个钱包全部平衡`, after: { wallets: r.wallets, broken: r.brokenCount, principal: r.principal, gift: r.gift, ms } },
      now,
    );
    return { day, broken: r.brokenCount, ms };
  });
}
