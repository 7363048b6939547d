import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/shared/api/custom-bus/classes';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { customClasses } from '../../src/server/modules/custom-bus/schema';
import { addDays, shanghaiDate } from '../../src/shared/domain/time';
import { type CustomFixture, fixtureCar, fixtureClass, fixtureDriver, fixtureLine } from '../support/custom-bus-fixture';
import { skipWithoutPostgres } from '../support/test-db';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/**
 * 排班's races on PostgreSQL (second wave §12, custom-dispatch): two dispatchers giving one car (or one
 * driver) overlapping classes at once → one assignment; two batch runs over the same slots → one set;
 * and the exclusion constraint holds even for a writer that skips the service's row locks.
 */
describe.skipIf(skipWithoutPostgres('dispatch races (one car, two dispatchers; two batches over one slot set)'))('on PostgreSQL', () => {
  let s: TestServer;
  let admin: string;
  let manager: string;
  let area: number;
  const db = () => s.database.db;
  const pii = createPii(TEST_PII_KEY);
  const f = (): CustomFixture => ({ db: db(), pii, now: s.clock.now() });
  const day = (n: number) => addDays(shanghaiDate(s.clock.now()), n);
  const msgOf = (r: PromiseSettledResult<{ body: { code: number; msg: string } }>) => (r.status === 'fulfilled' ? r.value.body.msg : String(r.reason));
  const won = (r: PromiseSettledResult<{ body: { code: number } }>) => r.status === 'fulfilled' && r.value.body.code === 1;

  beforeAll(async () => {
    s = await startTestServer();
    [admin, manager] = (await Promise.all(['admin', 'manager'].map((u) => s.login(u)))) as [string, string];
    area = (await db().select().from(t.districts)).find((d) => d.name === '徐汇区')!.id;
  });
  afterAll(() => s?.close());

  it('one car, overlapping classes, two dispatchers at once: exactly one assignment, every round', async () => {
    const car = await fixtureCar(f(), area);
    for (let round = 0; round < 8; round++) {
      const { line: a } = await fixtureLine(f(), area);
      const { line: b } = await fixtureLine(f(), area);
      const x = await fixtureClass(f(), a, 2 + round);
      const y = await fixtureClass(f(), b, 2 + round, { departTime: 8 * 3600 });
      const answers = await Promise.allSettled([
        s.call(api.classesAssign, { token: admin, body: { id: x.id, carId: car.id, driverId: null } }),
        s.call(api.classesAssign, { token: manager, body: { id: y.id, carId: car.id, driverId: null } }),
      ]);
      expect(answers.filter(won)).toHaveLength(1);
      expect(msgOf(answers.find((r) => !won(r))!)).toMatch(/车辆.*时间冲突/);
      const rows = await db().select().from(customClasses).where(sql`${customClasses.id} in (${x.id}, ${y.id})`);
      expect(rows.filter((r) => r.carId === car.id)).toHaveLength(1);
    }
  });

  it('one driver, two dispatchers at once: one assignment', async () => {
    const driver = await fixtureDriver(f(), area);
    const { line: a } = await fixtureLine(f(), area);
    const { line: b } = await fixtureLine(f(), area);
    const x = await fixtureClass(f(), a, 3);
    const y = await fixtureClass(f(), b, 3, { departTime: 8 * 3600 });
    const answers = await Promise.allSettled([
      s.call(api.classesAssign, { token: admin, body: { id: x.id, carId: null, driverId: driver.id } }),
      s.call(api.classesAssign, { token: manager, body: { id: y.id, carId: null, driverId: driver.id } }),
    ]);
    expect(answers.filter(won)).toHaveLength(1);
    expect(msgOf(answers.find((r) => !won(r))!)).toBe('该司机在该时段已有班次');
  });

  it('a writer that skips the row locks still cannot put one car on two overlapping classes (the exclusion constraint)', async () => {
    const car = await fixtureCar(f(), area);
    const { line: a } = await fixtureLine(f(), area);
    const { line: b } = await fixtureLine(f(), area);
    await fixtureClass(f(), a, 4, { carId: car.id });
    await expect(fixtureClass(f(), b, 4, { departTime: 8 * 3600, carId: car.id })).rejects.toThrow();
    // A cancelled class does not hold the car.
    await fixtureClass(f(), b, 4, { departTime: 8 * 3600, carId: car.id, status: 4 });
    // Back to back (arrive 08:30, next departs 08:30) is no overlap.
    await fixtureClass(f(), b, 4, { departTime: 8 * 3600 + 1800, carId: car.id });
  });

  it('two batch runs over the same slots at once: one set of classes, the other refused whole', async () => {
    const { line } = await fixtureLine(f(), area);
    const body = { lineId: line.id, dateFrom: day(20), dateTo: day(26), weekdays: [1, 2, 3, 4, 5, 6, 7], times: ['07:30', '09:00'], publish: 40, dryRun: false };
    const answers = await Promise.allSettled([s.call(api.classesBatchSave, { token: admin, body }), s.call(api.classesBatchSave, { token: manager, body })]);
    expect(answers.filter(won)).toHaveLength(1);
    expect(msgOf(answers.find((r) => !won(r))!)).toContain('已有班次');
    expect(await db().select().from(customClasses).where(eq(customClasses.lineId, line.id))).toHaveLength(14);
    expect(await db().select().from(t.sysLog).where(sql`${t.sysLog.operationType} = 'CUSTOM_CLASSES_BATCH' and ${t.sysLog.target} = ${`custom-line/${line.id}`}`)).toHaveLength(1);
  });

  it('two batches of different lines giving one car overlapping times: one wins', async () => {
    const car = await fixtureCar(f(), area);
    const { line: a } = await fixtureLine(f(), area);
    const { line: b } = await fixtureLine(f(), area);
    const of = (lineId: number, time: string) => ({ lineId, dateFrom: day(30), dateTo: day(32), weekdays: [1, 2, 3, 4, 5, 6, 7], times: [time], publish: 40, carId: car.id, dryRun: false });
    const answers = await Promise.allSettled([s.call(api.classesBatchSave, { token: admin, body: of(a.id, '07:30') }), s.call(api.classesBatchSave, { token: manager, body: of(b.id, '08:00') })]);
    expect(answers.filter(won)).toHaveLength(1);
    expect(msgOf(answers.find((r) => !won(r))!)).toContain('冲突');
    expect(await db().select().from(customClasses).where(eq(customClasses.carId, car.id))).toHaveLength(3);
  });
});
