import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../src/server/context';
import { createPii } from '../../src/server/lib/pii';
import { liabilityByDay, reconcileWallets } from '../../src/server/modules/rechargeable/reconcile';
import { shanghaiDate } from '../../src/shared/domain/time';
import { skipWithoutPostgres } from '../support/test-db';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/**
 * ★ 每日轧账 at scale (second wave §9: 1,000,000 wallets in ≤ 60 s), on PostgreSQL only and only when
 * asked (WALLET_BENCH=1): loading a million wallets with three ledger rows each takes a while.
 * Three wallets are broken on purpose; the reconcile must find exactly them and point at the row.
 */
const asked = process.env.WALLET_BENCH === '1';
describe.skipIf(!asked || skipWithoutPostgres('wallet reconcile benchmark (1,000,000 wallets)'))('每日轧账 over 1,000,000 wallets', () => {
  let s: TestServer;
  let deps: AppDeps;
  const N = 1_000_000;

  beforeAll(async () => {
    // The load's statements run longer than the pool's 30 s; the reconcile itself is timed below.
    s = await startTestServer({}, { jobs: false, queryTimeoutMs: 600_000 });
    deps = { db: s.database.db, clock: s.clock, pii: createPii(TEST_PII_KEY) } as unknown as AppDeps;
    const db = s.database.db;
    // One real sealed phone for every bench rider (the broken rows' phones are decrypted and masked).
    await db.execute(sql`
      insert into riders (district_id, phone_enc, phone_idx, real_name, state, created_at, updated_at)
      select (select district_id from riders order by id limit 1), (select phone_enc from riders order by id limit 1), 'bench-' || g, 0, 1, now(), now()
      from generate_series(1, ${N}) g`);
    await db.execute(sql`
      insert into wallets (rider_id, district_id, principal, gift, status, version, created_at, updated_at)
      select id, district_id, 10000 - (id % 7) * 100, 500 - (id % 3) * 100, 1, 3, now(), now() from riders where phone_idx like 'bench-%'`);
    await db.execute(sql`
      insert into wallet_orders (order_no, district_id, rider_id, wallet_id, snapshot, pay_amount, gift_amount, pay_status, status, principal_after, created_at, paid_at)
      select 'B' || w.id, w.district_id, w.rider_id, w.id, '{}', 10000, 500, 1, 1, 10000, now() - interval '2 days', now() - interval '2 days'
      from wallets w join riders r on r.id = w.rider_id where r.phone_idx like 'bench-%'`);
    await db.execute(sql`
      insert into wallet_ledger (wallet_id, district_id, type, principal_delta, gift_delta, principal_after, gift_after, ref_kind, ref_id, created_at)
      select o.wallet_id, o.district_id, x.type, x.dp, x.dg, x.pa, x.ga, x.kind, x.ref, now() - interval '1 day' * x.days
      from wallet_orders o cross join lateral (values
        (1, 10000, 0, 10000, 0, 'order', o.id::text, 2),
        (2, 0, 500, 10000, 500, 'order', o.id::text, 2),
        (3, -(o.rider_id % 7) * 100, -(o.rider_id % 3) * 100, 10000 - (o.rider_id % 7) * 100, 500 - (o.rider_id % 3) * 100, 'ride', 'bench-' || o.id, 1)
      ) as x(type, dp, dg, pa, ga, kind, ref, days)
      where o.order_no like 'B%'`);
    await db.execute(sql`analyze wallets, wallet_orders, wallet_ledger`);
  }, 600_000);
  afterAll(() => s?.close());

  it('finds the three broken wallets among a million, pointing at the bad row, within 60 s; the board within seconds', async () => {
    const db = s.database.db;
    const ids = ((await db.execute(sql`select id from wallets order by id desc limit 3`)) as unknown as { rows: { id: number }[] }).rows.map((r) => r.id);
    // Two forged rows (their after-values do not follow), one wallet changed past the ledger.
    await db.execute(sql`insert into wallet_ledger (wallet_id, district_id, type, principal_delta, gift_delta, principal_after, gift_after, ref_kind, ref_id, created_at)
      select id, district_id, 5, 100, 0, 1, 1, 'adjust', 'forged-' || id, now() from wallets where id in (${ids[0]}, ${ids[1]})`);
    await db.execute(sql`update wallets set principal = principal + 1 where id = ${ids[2]}`);
    const started = performance.now();
    const r = await reconcileWallets(deps, null);
    const ms = performance.now() - started;
    const boardStarted = performance.now();
    const board = await liabilityByDay(db, null, shanghaiDate(s.clock.now()), 30);
    const boardMs = performance.now() - boardStarted;
    process.stdout.write(`\n[wallet bench] ${r.wallets} wallets reconciled in ${Math.round(ms)} ms, ${r.brokenCount} broken; liability board (30 days) in ${Math.round(boardMs)} ms\n`);
    expect(r.wallets).toBeGreaterThanOrEqual(N);
    expect(r.brokenCount).toBe(3);
    expect(r.broken.filter((b) => b.firstBadLedgerId !== null).map((b) => b.walletId).sort()).toEqual([ids[0], ids[1]].sort());
    expect(ms).toBeLessThan(60_000);
    expect(board).toHaveLength(30);
  }, 300_000);
});
