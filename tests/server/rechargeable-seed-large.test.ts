import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPii } from '../../src/server/lib/pii';
import { reconcileWallets } from '../../src/server/modules/rechargeable/reconcile';
import { loadLargeWallets } from '../../src/server/modules/rechargeable/seed-large';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/** The benchmark's large wallet load (`seed --profile large`), at a small volume: what it writes must reconcile, all four proofs. */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { jobs: false });
});
afterAll(() => s?.close());

describe('seed --profile large: the wallets', () => {
  it('3,000 wallets and 30,000 ledger rows with no broken wallet (no order claims a gift its wallet never received)', async () => {
    const load = await loadLargeWallets(s.database.db, { wallets: 3_000, ledger: 30_000, seed: 7, now: s.clock.now(), bigMemory: false, log: () => {} });
    expect(load.wallets).toBe(3_000);
    expect(load.ledger).toBeGreaterThan(29_900);
    const rec = await reconcileWallets({ db: s.database.db, pii: createPii(TEST_PII_KEY) }, null);
    expect(rec.wallets).toBe(3_000);
    expect(rec.broken.map((b) => b.failed.join())).toEqual([]);
    expect(rec.brokenCount).toBe(0);
  });
});
