import { getTableName, sql } from 'drizzle-orm';
import type { Db } from './db/connection';
import * as t from './db/schema';
import { type Ahead, FRAME_TABLES, PROFILES, type SeedContext, type SeedGenerator, type SeedProfile, baseGenerators, demoGenerators } from './db/seed';
import { createStream } from './db/seed/rng';
import type { Pii } from './lib/pii';
import { SERVER_MODULES } from './modules';
import type { ServerModule } from './modules/module';

/**
 * The seed, composed above the modules: the frame's generators, then each module's, in the order
 * their `seed.dependsOn` gives. Each part draws from its own stream (`createStream(SEED, id)`), so
 * adding, removing or reordering a module leaves every other module's demo data as it was
 * (tests/server/seed-isolation.test.ts).
 */

export interface SeedOptions {
  db: Db;
  now: Date;
  seed: number;
  demo: boolean;
  profile?: SeedProfile;
  passwordMaxAgeDays: number;
  /** The app's own (same key), so it can read what the seed encrypted. */
  pii: Pii;
  /** The modules to seed; the app's own by default (tests add or take away). */
  modules?: readonly ServerModule[];
  /** Steps after every module's, on a stream of their own (tests: a fixture on top of the city). */
  extraGenerators?: SeedGenerator[];
  /** Plans already being made on the seed's worker (boot.ts, at a first start). */
  ahead?: Ahead;
}

/**
 * Every table has one owner, a module or the frame: a table claimed twice would be seeded (and
 * shaped) from two places. Refuses the start otherwise.
 */
export function checkTableOwners(modules: readonly ServerModule[]): void {
  const owner = new Map<string, string>(FRAME_TABLES.map((tb) => [getTableName(tb), 'the frame']));
  for (const m of modules) {
    for (const tb of m.tables) {
      const name = getTableName(tb);
      const other = owner.get(name);
      if (other) throw new Error(`table ${name} is claimed by ${other} and by module ${m.id}: a table has one owner (ServerModule.tables)`);
      owner.set(name, `module ${m.id}`);
    }
  }
}

/**
 * The modules in seeding order: each after those it depends on, otherwise in list order (so a
 * module added to the list moves no other). An unknown id or a cycle refuses the start.
 */
export function seedOrder(modules: readonly ServerModule[]): ServerModule[] {
  const byId = new Map(modules.map((m) => [m.id as string, m]));
  for (const m of modules) {
    for (const dep of m.seed?.dependsOn ?? []) {
      if (!byId.has(dep)) throw new Error(`module ${m.id}'s seed depends on ${dep}, which is not a server module`);
    }
  }
  const done = new Set<string>();
  const order: ServerModule[] = [];
  while (order.length < modules.length) {
    // The first module in list order whose dependencies are all seeded.
    const next = modules.find((m) => !done.has(m.id) && (m.seed?.dependsOn ?? []).every((d) => done.has(d)));
    if (!next) {
      const stuck = modules.filter((m) => !done.has(m.id)).map((m) => `${m.id} → ${(m.seed?.dependsOn ?? []).join(', ')}`);
      throw new Error(`the modules' seed dependencies form a cycle: ${stuck.join('; ')}`);
    }
    done.add(next.id);
    order.push(next);
  }
  return order;
}

interface Part {
  stream: string;
  generators: readonly SeedGenerator[];
}

async function runParts(parts: readonly Part[], base: Omit<SeedContext, 'rng'>): Promise<void> {
  for (const part of parts) {
    const ctx: SeedContext = { ...base, rng: createStream(base.seed, part.stream) };
    for (const g of part.generators) {
      const started = performance.now();
      await g.run(ctx);
      // SEED_TIMING=1: where a first start's seconds go, generator by generator (the start's budget).
      if (process.env.SEED_TIMING === '1') process.stderr.write(`seed ${part.stream}/${g.name}: ${Math.round(performance.now() - started)} ms\n`);
    }
  }
}

/**
 * The bulk loads drop and rebuild indexes (db/seed/bulk.ts): a rebuild that went wrong would leave
 * an index invalid and every query on it a scan, with nothing failing. Refuses the seed instead.
 */
async function assertIndexesValid(db: Db): Promise<void> {
  const res = (await db.execute(sql`select x.indexrelid::regclass::text as name from pg_index x join pg_class c on c.oid = x.indrelid join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and not x.indisvalid`)) as unknown as { rows: { name: string }[] };
  if (res.rows.length) throw new Error(`the seed left invalid indexes: ${res.rows.map((r) => r.name).join(', ')}`);
}

/** Base data always; the demo city only on an empty database and only when asked. */
export async function runSeed(opts: SeedOptions): Promise<{ seededDemo: boolean }> {
  const modules = opts.modules ?? SERVER_MODULES;
  checkTableOwners(modules);
  const ordered = seedOrder(modules);
  const ctx = { db: opts.db, now: opts.now, profile: opts.profile ?? PROFILES.demo, passwordMaxAgeDays: opts.passwordMaxAgeDays, pii: opts.pii, seed: opts.seed, ahead: opts.ahead };
  const parts = (kind: 'base' | 'demo'): Part[] => ordered.map((m) => ({ stream: m.id, generators: m.seed?.[kind] ?? [] }));
  await runParts([{ stream: 'frame', generators: baseGenerators }, ...parts('base')], ctx);
  if (!opts.demo) return { seededDemo: false };
  const [row] = await opts.db.select({ n: sql<number>`count(*)::int` }).from(t.districts);
  if ((row?.n ?? 0) > 0) return { seededDemo: false };
  await opts.db.transaction(async (tx) => {
    const demo = [{ stream: 'frame', generators: demoGenerators }, ...parts('demo'), { stream: 'extra', generators: opts.extraGenerators ?? [] }];
    await runParts(demo, { ...ctx, db: tx as unknown as Db });
    await assertIndexesValid(tx as unknown as Db);
  });
  // Fresh statistics for the tables just filled: without them the planner guesses (it read all
  // 200,000 cards by primary key for one rider's cards, 160 ms instead of 2). A sample of 9,000
  // rows a table (target 30) instead of 30,000 tells these plans apart as well at a third of the cost.
  await opts.db.transaction(async (tx) => {
    await tx.execute(sql`set local default_statistics_target = 30`);
    await tx.execute(sql`analyze`);
  });
  return { seededDemo: true };
}
