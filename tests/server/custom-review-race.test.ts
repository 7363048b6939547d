import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/shared/api/custom-bus/classes';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { customClasses } from '../../src/server/modules/custom-bus/schema';
import { type CustomFixture, fixtureCar, fixtureClass, fixtureDriver, fixtureLine } from '../support/custom-bus-fixture';
import { skipWithoutPostgres } from '../support/test-db';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/**
 * 编辑班次 against 排班 of the same class on PostgreSQL: both take the car and the driver before the
 * class, so neither waits on the other's lock in the opposite order (a deadlock, answered 服务内部错误).
 */
describe.skipIf(skipWithoutPostgres('编辑班次 and 排班 of one class at once'))('on PostgreSQL', () => {
  let s: TestServer;
  let admin: string;
  let manager: string;
  let area: number;
  const db = () => s.database.db;
  const pii = createPii(TEST_PII_KEY);
  const f = (): CustomFixture => ({ db: db(), pii, now: s.clock.now() });

  beforeAll(async () => {
    s = await startTestServer();
    [admin, manager] = (await Promise.all(['admin', 'manager'].map((u) => s.login(u)))) as [string, string];
    area = (await db().select().from(t.districts)).find((d) => d.name === '徐汇区')!.id;
  });
  afterAll(() => s?.close());

  it('an edit that moves the class and a dispatch of it, at once: both answered, every round, no deadlock', async () => {
    for (let round = 0; round < 12; round++) {
      const car = await fixtureCar(f(), area);
      const driver = await fixtureDriver(f(), area);
      const { line } = await fixtureLine(f(), area);
      const c = await fixtureClass(f(), line, 3 + round, { carId: car.id, driverId: driver.id });
      const answers = await Promise.all([
        s.call(api.classesSave, { token: admin, body: { id: c.id, lineId: line.id, direction: 0, departDate: c.departDate, departTime: '07:35', publish: 40 } }),
        s.call(api.classesAssign, { token: manager, body: { id: c.id, carId: car.id, driverId: driver.id } }),
      ]);
      expect(answers.map((r) => r.body.code), answers.map((r) => r.body.msg).join(' / ')).toEqual([1, 1]);
      const [after] = await db().select().from(customClasses).where(eq(customClasses.id, c.id));
      expect(after).toMatchObject({ departTime: 7 * 3600 + 35 * 60, publish: 40, carId: car.id, driverId: driver.id });
    }
  });
});
