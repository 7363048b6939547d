import { createPii } from '../../src/server/lib/pii';
import { TEST_PII_KEY } from '../support/test-server';
import { asc } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/connection';
import * as t from '../../src/server/db/schema';
import { PROFILES } from '../../src/server/db/seed';
import { runSeed } from '../../src/server/seed-runner';
import type { Db } from '../../src/server/db/connection';
import { bulkInsert } from '../../src/server/db/seed/bulk';
import { ensureRidePartitions } from '../../src/server/lib/ride-partitions';
import { sql } from 'drizzle-orm';
import { freshDatabase } from '../support/test-db';

const NOW = new Date('2026-11-01T00:00:00Z');

async function seeded(demo: boolean, seed = 42): Promise<Database> {
  const database = await freshDatabase();
  await database.migrate(async () => {
    await runSeed({ db: database.db, now: NOW, seed, demo, profile: PROFILES.small, passwordMaxAgeDays: 90, pii: createPii(TEST_PII_KEY) });
  });
  return database;
}

const snapshot = async (d: Database) => ({
  users: await d.db.select().from(t.users).orderBy(asc(t.users.id)),
  districts: await d.db.select().from(t.districts).orderBy(asc(t.districts.id)),
  agreements: await d.db.select().from(t.agreements).orderBy(asc(t.agreements.id)),
});

describe('seed', () => {
  it('is deterministic: the same seed value and anchor time give the same city', async () => {
    const a = await seeded(true);
    const b = await seeded(true);
    try {
      const [sa, sb] = [await snapshot(a), await snapshot(b)];
      expect(sa.users.length).toBe(5 + PROFILES.small.extraStaff);
      expect(sa).toEqual(sb);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('creates no account without demo mode, yet installs menus and role groups', async () => {
    const d = await seeded(false);
    try {
      expect(await d.db.select().from(t.users)).toEqual([]);
      expect((await d.db.select().from(t.authItems)).length).toBeGreaterThan(18);
      expect((await d.db.select().from(t.roleGroups)).map((g) => g.name)).toContain('超级管理员组');
    } finally {
      await d.close();
    }
  });

  it('does not seed the demo city twice', async () => {
    const d = await seeded(true);
    try {
      const first = await d.db.select().from(t.users);
      const again = await runSeed({ db: d.db, now: NOW, seed: 42, demo: true, profile: PROFILES.small, passwordMaxAgeDays: 90, pii: createPii(TEST_PII_KEY) });
      expect(again.seededDemo).toBe(false);
      expect(await d.db.select().from(t.users)).toHaveLength(first.length);
    } finally {
      await d.close();
    }
  });
  it('loads 20,000 rows with the indexes built once after: every index valid, every partition indexed', async () => {
    const d = await freshDatabase();
    try {
      await d.migrate();
      const indexes = async (table: string) =>
        ((await d.db.execute(sql`select indexname from pg_indexes where tablename = ${table} order by 1`)) as unknown as { rows: { indexname: string }[] }).rows.map((r) => r.indexname);
      const before = { totals: await indexes('day_take_bus_totals'), rides: await indexes('ride_records') };
      await d.db.transaction(async (tx) => {
        const db = tx as unknown as Db;
        await ensureRidePartitions(db, NOW, NOW);
        const day = NOW.toISOString().slice(0, 10);
        await bulkInsert(db, 'day_take_bus_totals', ['day', 'district_id', 'line_code', 'line_name', 'bus_name', 'ticket_type', 'card_category', 'rides', 'amount'],
          Array.from({ length: 20_000 }, (_, i) => [day, 1, `L${i}`, `${i}路`, '沪A-1', 1, 6, 3, 600]));
        await bulkInsert(db, 'ride_records', ['ride_at', 'district_id', 'line_code', 'line_name', 'bus_name', 'direction', 'station_name', 'card_no', 'card_category', 'ticket_type', 'amount', 'pay_status', 'recharge_status', 'order_no', 'pay_channel', 'paid_at'],
          Array.from({ length: 20_000 }, (_, i) => [NOW, 1, 'L1', '1路', '沪A-1', 0, '站', `3101${String(i).padStart(12, '0')}`, 6, 1, 200, 1, 0, `O${i}`, '乘车码', NOW]));
      });
      const invalid = (await d.db.execute(sql`select indexrelid::regclass::text as name from pg_index where not indisvalid`)) as unknown as { rows: unknown[] };
      expect(invalid.rows).toEqual([]);
      expect(await indexes('day_take_bus_totals')).toEqual(before.totals);
      expect(await indexes('ride_records')).toEqual(before.rides);
      // The month's partition carries an index for each of its parent's.
      const month = `ride_records_y${NOW.getUTCFullYear()}m${String(NOW.getUTCMonth() + 1).padStart(2, '0')}`;
      expect((await indexes(month)).length).toBe(before.rides.length);
      const count = (await d.db.execute(sql`select (select count(*) from ride_records)::int as rides, (select count(*) from day_take_bus_totals)::int as totals`)) as unknown as { rows: { rides: number; totals: number }[] };
      expect(count.rows[0]).toEqual({ rides: 20_000, totals: 20_000 });
    } finally {
      await d.close();
    }
  });
});
