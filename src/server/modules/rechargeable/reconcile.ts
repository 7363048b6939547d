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
 * ★ 每日轧账 (second wave §9): two proofs per wallet, each one set-based pass (hash aggregates of the
 * ledger and the orders joined to the wallets, no per-wallet loop), so a million wallets fit the
 * minute:
 * 1. Σ ledger deltas = the wallet's principal and gift;
 * 2. paid − refunded (orders) − consumed + adjusted (ledger) = the wallet's principal.
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

type Break = { walletId: number; riderPhone: string; principal: number; gift: number; ledgerPrincipal: number; ledgerGift: number; ordersPrincipal: number; firstBadLedgerId: number | null; firstBadAt: string | null };

export async function reconcileWallets(deps: Pick<AppDeps, 'db' | 'pii'>, districtId: number | null): Promise<{ wallets: number; principal: number; gift: number; brokenCount: number; broken: Break[] }> {
  const db = deps.db;
  const inDistrict = districtId === null ? sql`true` : sql`w.district_id = ${districtId}`;
  const ledgerScope = districtId === null ? sql`true` : sql`district_id = ${districtId}`;
  const [totals] = rowsOf<{ wallets: number; principal: string; gift: string }>(
    await db.execute(sql`select count(*)::int as wallets, coalesce(sum(principal), 0)::bigint as principal, coalesce(sum(gift), 0)::bigint as gift from wallets w where ${inDistrict}`),
  );
  const found = rowsOf<{ wallet_id: number; principal: number; gift: number; lp: string; lg: string; op: string; phone_enc: string; n: number }>(
    await db.execute(sql`
      with l as (
        select wallet_id,
               sum(principal_delta) as lp,
               sum(gift_delta) as lg,
               sum(principal_delta) filter (where type in (3, 5)) as moved
        from wallet_ledger where ${ledgerScope} group by wallet_id
      ), o as (
        select wallet_id, sum(pay_amount) - sum(refund_amount) as net
        from wallet_orders where status in (1, 2) and ${ledgerScope} group by wallet_id
      ), b as materialized (
        select w.id as wallet_id, w.principal, w.gift, w.rider_id,
               coalesce(l.lp, 0) as lp, coalesce(l.lg, 0) as lg,
               coalesce(o.net, 0) + coalesce(l.moved, 0) as op
        from wallets w left join l on l.wallet_id = w.id left join o on o.wallet_id = w.id
        where ${inDistrict}
          and (w.principal <> coalesce(l.lp, 0) or w.gift <> coalesce(l.lg, 0) or w.principal <> coalesce(o.net, 0) + coalesce(l.moved, 0))
      )
      select b.wallet_id, b.principal, b.gift, b.lp::bigint as lp, b.lg::bigint as lg, b.op::bigint as op, r.phone_enc, count(*) over ()::int as n
      from b join riders r on r.id = b.rider_id
      order by b.wallet_id
      limit ${SHOWN}`),
  );
  const brokenCount = found[0]?.n ?? 0;
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
    wallets: totals?.wallets ?? 0,
    principal: Number(totals?.principal ?? 0),
    gift: Number(totals?.gift ?? 0),
    brokenCount,
    broken: found.map((f) => ({
      walletId: f.wallet_id,
      riderPhone: maskPhone(deps.pii.decrypt(f.phone_enc)),
      principal: f.principal,
      gift: f.gift,
      ledgerPrincipal: Number(f.lp),
      ledgerGift: Number(f.lg),
      ordersPrincipal: Number(f.op),
      firstBadLedgerId: firstBad.get(f.wallet_id)?.id ?? null,
      firstBadAt: firstBad.has(f.wallet_id) ? iso(firstBad.get(f.wallet_id)!.at) : null,
    })),
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

/** GET wallet/reconcile: the proofs now, over the operator's area, with the board and the last nightly run. */
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
    broken: result.broken,
    liability,
    lastRun: last ? { day: last.day, wallets: last.wallets, broken: last.broken, ranDate: iso(last.ranAt), ms: last.ms } : null,
  };
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
    await tx.insert(walletReconcileRuns).values({ day, wallets: r.wallets, broken: r.brokenCount, principal: r.principal, gift: r.gift, breaks: r.broken, ms, ranAt: now });
    await audit(
      tx,
      SYSTEM_ACTOR,
      { type: 'WALLET_RECONCILE', targetDistrictId: null, target: `wallet-reconcile/${day}`, summary: r.brokenCount ? `每日轧账 ${day}：${r.wallets} 个钱包，${r.brokenCount} 个不平` : `每日轧账 ${day}：${r.wallets} 个钱包全部平衡`, after: { wallets: r.wallets, broken: r.brokenCount, principal: r.principal, gift: r.gift, ms } },
      now,
    );
    return { day, broken: r.brokenCount, ms };
  });
}
