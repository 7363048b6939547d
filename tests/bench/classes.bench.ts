import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import * as t from '../../src/server/db/schema';
import { addDays, shanghaiDate } from '../../src/shared/domain/time';
import { fixtureCar, fixtureDriver, fixtureLine } from '../support/custom-bus-fixture';
import { type Client, createClient, expectOk } from './lib';
import { login } from './login.bench';
import type { BenchServer } from './server';

/**
 * 批量排班 at its largest (second wave §5): one line, 62 days, every weekday, 10 departures a day
 * (06:00–19:30, 90 minutes apart on a one-hour leg) with a car and a driver — 620 classes. The dry
 * run (every conflict check: slots, the past, the car's and the driver's clashes, the fleet's papers)
 * and the real run (the same checks under the car and driver row locks, 620 rows and one audit row
 * in one transaction), as the super user over HTTP. Each run is on a line, car and driver of its
 * own (a real run on the same line would be refused whole).
 */
const TIMES = ['06:00', '07:30', '09:00', '10:30', '12:00', '13:30', '15:00', '16:30', '18:00', '19:30'];
const RUNS = 5;
const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function scheduleOnce(client: Client, token: string, server: BenchServer, districtId: number, dryRun: boolean) {
  const f = { db: server.db, pii: server.pii, now: new Date() };
  const { line } = await fixtureLine(f, districtId, { departTime: 6 * 3600, arriveTime: 7 * 3600, defaultSeats: 45 });
  const car = await fixtureCar(f, districtId, { inspectionUntil: addDays(shanghaiDate(), 400) });
  const driver = await fixtureDriver(f, districtId, { licenceUntil: addDays(shanghaiDate(), 400) });
  const from = addDays(shanghaiDate(), 1);
  const body = { lineId: line.id, dateFrom: from, dateTo: addDays(from, 61), weekdays: [1, 2, 3, 4, 5, 6, 7], times: TIMES, publish: 45, carId: car.id, driverId: driver.id, dryRun };
  const t0 = performance.now();
  const data = expectOk(await client.request('POST', '/buscodepc/fyapi/customClasses/batchSave', { token, json: body }), `batchSave dryRun=${dryRun}`) as { slots: number; conflicts: unknown[]; ids: number[] };
  const took = performance.now() - t0;
  if (data.slots !== 620 || data.conflicts.length || data.ids.length !== (dryRun ? 0 : 620)) throw new Error(`batchSave: ${data.slots} slots, ${data.conflicts.length} conflicts, ${data.ids.length} written`);
  return took;
}

export async function classesSection(server: BenchServer, log: (msg: string) => void): Promise<string[]> {
  const client = createClient(server.url, 1);
  try {
    const token = await login(client, 'admin');
    const [district] = await server.db.select({ id: t.districts.id }).from(t.districts).where(eq(t.districts.name, '徐汇区'));
    const rows: string[] = [];
    for (const dryRun of [true, false]) {
      log(`bench: 批量排班 62 days × 10 times, ${dryRun ? 'dry run' : 'real run'} ×${RUNS}...`);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(await scheduleOnce(client, token, server, district!.id, dryRun));
      rows.push(`| ${dryRun ? 'dry run (conflicts listed, nothing written)' : 'real run (620 classes + 1 audit row, one transaction)'} | 620 | ${RUNS} | ${ms(median(times))} | ${ms(Math.max(...times))} |`);
    }
    return [
      `批量排班 (定制公交 班次): one line, 62 days × 10 departures a day with a car and a driver, over HTTP as the super user (${server.kind}).`,
      '',
      '| run | classes | runs | median ms | max ms |',
      '|---|---:|---:|---:|---:|',
      ...rows,
      '',
    ];
  } finally {
    client.close();
  }
}
