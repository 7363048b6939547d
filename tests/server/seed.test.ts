import { createPii } from '../../src/server/lib/pii';
import { TEST_PII_KEY } from '../support/test-server';
import { asc } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/connection';
import * as t from '../../src/server/db/schema';
import { PROFILES } from '../../src/server/db/seed';
import { runSeed } from '../../src/server/seed-runner';
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
});
