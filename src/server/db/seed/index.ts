import type { Pii } from '../../lib/pii';
import { sql } from 'drizzle-orm';
import { MODULES, menuCatalogue } from '../../../shared/api';
import { SERVER_MODULES } from '../../modules';
import type { Db } from '../connection';
import * as t from '../schema';
import { CITY, DISTRICTS } from './city';
import { PROFILES, type SeedContext, type SeedGenerator, type SeedProfile } from './context';
import { createRng } from './rng';

export { DEMO_PASSWORD, PROFILES, type SeedContext, type SeedGenerator, type SeedProfile } from './context';
export { GROUPS } from '../../modules/user/seed';

/** The menu catalogue, from the modules' manifests (src/shared/modules). */
const catalogue = () => menuCatalogue(MODULES);

/** The frame's reference data, upserted at every start before the modules' own. */
export const baseGenerators: SeedGenerator[] = [
  {
    name: 'auth-items',
    async run({ db }) {
      // One statement for the whole catalogue: `excluded` is the row that was about to be inserted.
      await db
        .insert(t.authItems)
        .values(catalogue())
        .onConflictDoUpdate({
          target: t.authItems.id,
          set: {
            parentId: sql`excluded.parent_id`,
            name: sql`excluded.name`,
            path: sql`excluded.path`,
            para: sql`excluded.para`,
            type: sql`excluded.type`,
            sort: sql`excluded.sort`,
          },
        });
    },
  },
];

/** The frame's part of the demo city (districts, city centre); the modules add theirs after it. */
export const demoGenerators: SeedGenerator[] = [
  {
    name: 'city',
    async run({ db, profile }) {
      await db.insert(t.appConfig).values([
        { key: 'cityCenter', value: CITY },
        { key: 'qrCode', value: null },
      ]);
      await db.insert(t.districts).values(DISTRICTS.slice(0, profile.districts).map((d, i) => ({ ...d, sort: i + 1 })));
    },
  },
];

export interface SeedOptions {
  db: Db;
  now: Date;
  seed: number;
  demo: boolean;
  profile?: SeedProfile;
  passwordMaxAgeDays: number;
  /** The app's own (same key), so it can read what the seed encrypted. */
  pii: Pii;
  extraGenerators?: SeedGenerator[];
}

/** The modules' own seed steps, after the frame's (menus; the demo city's districts). */
const moduleSeeds = (kind: 'base' | 'demo') => SERVER_MODULES.flatMap((m) => m.seed?.[kind] ?? []);

/** Base data always; the demo city only on an empty database and only when asked. */
export async function runSeed(opts: SeedOptions): Promise<{ seededDemo: boolean }> {
  const ctx: SeedContext = {
    db: opts.db,
    rng: createRng(opts.seed),
    now: opts.now,
    profile: opts.profile ?? PROFILES.demo,
    passwordMaxAgeDays: opts.passwordMaxAgeDays,
    pii: opts.pii,
  };
  for (const g of [...baseGenerators, ...moduleSeeds('base')]) await g.run(ctx);
  if (!opts.demo) return { seededDemo: false };
  const [row] = await opts.db.select({ n: sql<number>`count(*)::int` }).from(t.districts);
  if ((row?.n ?? 0) > 0) return { seededDemo: false };
  await opts.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx as unknown as Db };
    for (const g of [...demoGenerators, ...moduleSeeds('demo'), ...(opts.extraGenerators ?? [])]) await g.run(txCtx);
  });
  // Fresh statistics for the tables just filled: without them the planner guesses (it read all
  // 200,000 cards by primary key for one rider's cards, 160 ms instead of 2).
  await opts.db.execute(sql`analyze`);
  return { seededDemo: true };
}
