import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pgLib from 'pg';
import { systemClock } from '../../src/server/config';
import { type Db, openDatabase } from '../../src/server/db/connection';
import { PROFILES } from '../../src/server/db/seed';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { buySingle } from '../../src/server/modules/custom-bus/rider-side';
import { customClasses } from '../../src/server/modules/custom-bus/schema';
import { runSeed } from '../../src/server/seed-runner';
import { fixtureClass, fixtureLine } from '../support/custom-bus-fixture';

/**
 * 定制公交's seat race on PostgreSQL (issue 23): how many buys a second the guarded
 * `stock = stock − n where stock >= n` sustains when buyers pile onto few classes, and how long 200
 * buyers for the last 10 seats take to settle. A fresh database with the small city; the rider
 * side's `buySingle` called straight (it is a service function, not a console call), on the pool
 * the server uses.
 */

export interface SeatFigures {
  rows: { name: string; attempts: number; sold: number; seconds: number; perSecond: number; oversold: number }[];
}

async function race(db: Db, classes: { id: number }[], riders: number[], attempts: number, concurrency: number) {
  const deps = { db, clock: systemClock };
  let next = 0;
  let sold = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < attempts; i = next++) {
        try {
          await buySingle(deps, { riderId: riders[i % riders.length]!, classesId: classes[i % classes.length]!.id, seats: 1 });
          sold++;
        } catch {
          // 余票不足 or the rider's limit: a refusal is an answer too.
        }
      }
    }),
  );
  return { sold, seconds: (performance.now() - started) / 1000 };
}

export async function benchSeats(postgresUrl: string, log: (msg: string) => void): Promise<SeatFigures> {
  const name = `bench_seats_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pgLib.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  const pii = createPii(randomBytes(32));
  try {
    log('seats bench: migrating and seeding the small city...');
    await database.migrate(() => runSeed({ db: database.db, now: systemClock.now(), seed: 1, demo: true, profile: PROFILES.small, passwordMaxAgeDays: 90, pii }).then(() => undefined));
    const db = database.db;
    const [district] = await db.select().from(t.districts).limit(1);
    const riders = (await db.select({ id: t.riders.id }).from(t.riders).limit(2000)).map((r) => r.id);
    const f = { db, pii, now: systemClock.now() };
    const { line } = await fixtureLine(f, district!.id);
    const rows: SeatFigures['rows'] = [];
    const check = async (ids: number[]) => {
      let over = 0;
      for (const id of ids) {
        const [c] = await db.select().from(customClasses).where(eq(customClasses.id, id));
        if (c!.stock < 0 || c!.stock + c!.held + c!.sold !== c!.publish) over++;
      }
      return over;
    };
    // 200 buyers for the last 10 seats, all at once.
    const last = await fixtureClass(f, line, 1, { publish: 45, stock: 10, sold: 35 });
    const a = await race(db, [last], riders, 200, 200);
    rows.push({ name: '200 buyers, last 10 seats, all at once', attempts: 200, sold: a.sold, seconds: a.seconds, perSecond: 200 / a.seconds, oversold: await check([last.id]) });
    // Sustained: 4,000 attempts over 40 classes of 45 seats (1,800 seats), 16 at a time.
    const many = [];
    for (let d = 2; d < 42; d++) many.push(await fixtureClass(f, line, d, { publish: 45, stock: 45 }));
    const b = await race(db, many, riders, 4000, 16);
    rows.push({ name: '4,000 buys over 40 classes × 45 seats, 16 at a time', attempts: 4000, sold: b.sold, seconds: b.seconds, perSecond: 4000 / b.seconds, oversold: await check(many.map((c) => c.id)) });
    // Contended: 2,000 attempts on one class of 80 seats, 32 at a time (most refused once it sells out).
    const one = await fixtureClass(f, line, 43, { publish: 80, stock: 80 });
    const c = await race(db, [one], riders, 2000, 32);
    rows.push({ name: '2,000 buys on one class of 80 seats, 32 at a time', attempts: 2000, sold: c.sold, seconds: c.seconds, perSecond: 2000 / c.seconds, oversold: await check([one.id]) });
    return { rows };
  } finally {
    await database.close();
    const dropper = new pgLib.Client({ connectionString: postgresUrl });
    await dropper.connect();
    await dropper.query(`drop database if exists "${name}" with (force)`);
    await dropper.end();
  }
}

export function seatsTable(f: SeatFigures): string[] {
  return [
    '| race (PostgreSQL, buySingle) | attempts | sold | seconds | attempts/s | oversold classes |',
    '|---|---:|---:|---:|---:|---:|',
    ...f.rows.map((r) => `| ${r.name} | ${r.attempts} | ${r.sold} | ${r.seconds.toFixed(2)} | ${r.perSecond.toFixed(0)} | ${r.oversold} |`),
  ];
}
