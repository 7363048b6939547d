import { getTableName, isTable, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { ModuleId } from '../../src/shared/api';
import type { Database, Db } from '../../src/server/db/connection';
import * as schema from '../../src/server/db/schema';
import { FRAME_TABLES, PROFILES, type SeedGenerator } from '../../src/server/db/seed';
import { createPii } from '../../src/server/lib/pii';
import { SERVER_MODULES } from '../../src/server/modules';
import type { ServerModule } from '../../src/server/modules/module';
import { checkTableOwners, runSeed, seedOrder } from '../../src/server/seed-runner';
import { freshDatabase } from '../support/test-db';
import { TEST_PII_KEY } from '../support/test-server';

/**
 * One owner per table (issue 20): each module seeds only its own tables from its own random stream,
 * so adding a module (here a probe, first in the list, drawing numbers and writing a table of its
 * own) leaves every other module's demo data exactly as it was.
 */

const NOW = new Date('2026-11-01T00:00:00Z');
/** Each test seeds a city or two (a few seconds each, more on a busy machine). */
const SLOW = 180_000;
const ALL_TABLES = Object.values(schema).filter((v) => isTable(v)) as unknown as PgTable[];
const opened: Database[] = [];

afterAll(async () => {
  await Promise.all(opened.map((d) => d.close()));
});

async function seeded(modules: readonly ServerModule[], seed = 42): Promise<Database> {
  const database = await freshDatabase();
  opened.push(database);
  await database.migrate(async () => {
    await runSeed({ db: database.db, now: NOW, seed, demo: true, profile: PROFILES.small, passwordMaxAgeDays: 90, pii: createPii(TEST_PII_KEY), modules });
  });
  return database;
}

/**
 * md5 of a table's rows in a fixed order. Sealed columns (`*_enc`) are left out: each encryption
 * draws a fresh nonce, so they differ on every run; their blind indexes (`*_idx`) stand for them.
 */
async function digest(db: Db, table: string): Promise<string> {
  const cols = (await db.execute(sql`select column_name as c from information_schema.columns where table_schema = 'public' and table_name = ${table} and column_name not like '%\_enc' order by ordinal_position`)) as unknown as {
    rows: { c: string }[];
  };
  const list = cols.rows.map((r) => `"${r.c}"`).join(', ');
  const res = (await db.execute(sql.raw(`select md5(coalesce(string_agg(r::text, '|' order by r::text), '')) as d, count(*)::int as n from (select ${list} from "${table}") r`))) as unknown as {
    rows: { d: string; n: number }[];
  };
  return `${res.rows[0]?.n} rows ${res.rows[0]?.d}`;
}

async function digests(db: Db, tables: readonly PgTable[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const tb of tables) out[getTableName(tb)] = await digest(db, getTableName(tb));
  return out;
}

/** A module that is not there yet: it draws from its stream and writes a table of its own. */
const probe: ServerModule = {
  id: 'probe' as ModuleId,
  routes: () => undefined,
  tables: [],
  seed: {
    demo: [
      {
        name: 'probe',
        async run({ db, rng }) {
          const drawn = Array.from({ length: 5_000 }, () => rng.int(0, 1_000_000));
          await db.execute(sql`create table seed_probe (id serial primary key, n integer not null)`);
          await db.execute(sql.raw(`insert into seed_probe (n) values ${drawn.map((n) => `(${n})`).join(',')}`));
        },
      },
    ],
  },
};

describe('seed isolation', () => {
  const moduleTables = SERVER_MODULES.flatMap((m) => m.tables);

  it('adding a module leaves every other module\'s demo data unchanged', async () => {
    const before = await seeded(SERVER_MODULES);
    const after = await seeded([probe, ...SERVER_MODULES]);
    const [a, b] = [await digests(before.db, moduleTables), await digests(after.db, moduleTables)];
    // The city is not empty where it matters, so equal digests mean equal rows.
    for (const name of ['users', 'stations', 'bus_lines', 'riders', 'bus_cards', 'family_bindings', 'discount_orders', 'ride_records']) expect(a[name], name).not.toMatch(/^0 rows/);
    expect(b).toEqual(a);
    const probed = (await after.db.execute(sql`select count(*)::int as n from seed_probe`)) as unknown as { rows: { n: number }[] };
    expect(probed.rows[0]?.n).toBe(5_000);
  }, SLOW);

  it('another SEED gives another city (the digests can tell)', async () => {
    const [a, b] = await Promise.all([seeded(SERVER_MODULES, 42), seeded(SERVER_MODULES, 43)]);
    const [da, db] = [await digests(a.db, moduleTables), await digests(b.db, moduleTables)];
    expect(db.bus_cards).not.toBe(da.bus_cards);
    expect(db.stations).not.toBe(da.stations);
  }, SLOW);

  it('each module\'s seed writes only the tables it owns', async () => {
    const writes: Record<string, string[]> = {};
    const watched = SERVER_MODULES.map((m): ServerModule => {
      const watch = (g: SeedGenerator): SeedGenerator => ({
        name: g.name,
        async run(ctx) {
          const before = await digests(ctx.db, ALL_TABLES);
          await g.run(ctx);
          const after = await digests(ctx.db, ALL_TABLES);
          const changed = Object.keys(after).filter((k) => after[k] !== before[k]);
          writes[m.id] = [...(writes[m.id] ?? []), ...changed];
        },
      });
      return { ...m, seed: m.seed && { ...m.seed, demo: m.seed.demo?.map(watch), base: m.seed.base?.map(watch) } };
    });
    const database = await freshDatabase();
    opened.push(database);
    await database.migrate(() => runSeed({ db: database.db, now: NOW, seed: 42, demo: true, profile: PROFILES.small, passwordMaxAgeDays: 90, pii: createPii(TEST_PII_KEY), modules: watched }).then(() => undefined));
    // The shared refund ledger is the frame's; each money module seeds the rows of its own kind there.
    const LEDGER_KINDS: Record<string, string> = { packagePay: 'package', recharge: 'nfc', rechargeable: 'wallet', customBus: 'custom', handleCard: 'handle' };
    // The sealed images are the frame's too; each review module seeds the files of its own kind.
    const FILE_KINDS: Record<string, string> = { handleCard: 'handle', noticeReport: 'feedback', cardVerify: 'verify' };
    const files = (await database.db.execute(sql`select distinct kind from sealed_files`)) as unknown as { rows: { kind: string }[] };
    expect(files.rows.map((r) => r.kind).filter((k) => !Object.values(FILE_KINDS).includes(k))).toEqual([]);
    const kinds = (await database.db.execute(sql`select distinct kind from money_refunds`)) as unknown as { rows: { kind: string }[] };
    expect(kinds.rows.map((r) => r.kind).filter((k) => !Object.values(LEDGER_KINDS).includes(k))).toEqual([]);
    // The system log is the frame's too; 活动管理 seeds its activities' operate record there (a view over
    // the log's ACTIVITY_* rows), only rows of its own operation types.
    const LOG_TYPES: Record<string, RegExp> = { acitivity: /^ACTIVITY_/ };
    const types = (await database.db.execute(sql`select distinct operation_type as t from sys_log`)) as unknown as { rows: { t: string }[] };
    expect(types.rows.map((r) => r.t).filter((ty) => !Object.values(LOG_TYPES).some((re) => re.test(ty)))).toEqual([]);
    for (const m of SERVER_MODULES) {
      const own = [
        ...m.tables.map((tb) => getTableName(tb)),
        ...(LEDGER_KINDS[m.id] ? ['money_refunds'] : []),
        ...(FILE_KINDS[m.id] ? ['sealed_files'] : []),
        ...(LOG_TYPES[m.id] ? ['sys_log'] : []),
      ];
      expect((writes[m.id] ?? []).filter((name) => !own.includes(name)), m.id).toEqual([]);
    }
    expect(writes.rechargeable).toContain('money_refunds');
    expect(writes.packagePay).toContain('money_refunds');
    expect(writes.customBus).toContain('money_refunds');
    expect(writes.acitivity).toContain('sys_log');
    expect(writes.handleCard).toEqual(expect.arrayContaining(['money_refunds', 'sealed_files']));
    expect(writes.noticeReport).toContain('sealed_files');
    // The family and discount rows are their modules' own, no longer the rider seed's.
    expect(writes.callingCard).toContain('family_bindings');
    expect(writes.specialCode).toContain('discount_orders');
  }, SLOW);
});

describe('seed frame checks (runSeed makes them before it touches the database)', () => {
  const rider = SERVER_MODULES.find((m) => m.id === 'busUser')!;

  it('refuses a table claimed by two modules, or by a module and the frame', () => {
    expect(() => checkTableOwners(SERVER_MODULES)).not.toThrow();
    expect(() => checkTableOwners([...SERVER_MODULES, { ...probe, tables: [schema.busCards] }])).toThrow(/table bus_cards is claimed by module busUser and by module probe/);
    expect(() => checkTableOwners([...SERVER_MODULES, { ...probe, tables: [FRAME_TABLES[0]] }])).toThrow(/table sys_log is claimed by the frame/);
  });

  it('orders the modules after their dependencies, and refuses an unknown one and a cycle', () => {
    const order = seedOrder(SERVER_MODULES).map((m) => m.id);
    for (const m of SERVER_MODULES) for (const dep of m.seed?.dependsOn ?? []) expect(order.indexOf(dep), `${m.id} after ${dep}`).toBeLessThan(order.indexOf(m.id));
    expect(seedOrder([probe, ...SERVER_MODULES]).map((m) => m.id)).toEqual(['probe', ...order]);
    expect(() => seedOrder([...SERVER_MODULES, { ...probe, seed: { dependsOn: ['nowhere' as ModuleId] } }])).toThrow(/depends on nowhere/);
    const cyclic = SERVER_MODULES.map((m) => (m.id === 'busUser' ? { ...rider, seed: { ...rider.seed, dependsOn: ['order' as ModuleId] } } : m));
    expect(() => seedOrder(cyclic)).toThrow(/cycle: .*busUser → order/);
  });
});
