import { and, eq } from 'drizzle-orm';
import type { Db } from '../../src/server/db/connection';
import * as t from '../../src/server/db/schema';
import type { Pii } from '../../src/server/lib/pii';
import * as cb from '../../src/server/modules/custom-bus/schema';
import { customRefundRules } from '../../src/server/modules/custom-setting/schema';
import { DEFAULT_LADDER, type LadderRow } from '../../src/shared/custom/refund-ladder';
import { DAY_MS, addDays, shanghaiDate, shanghaiMidnight } from '../../src/shared/domain/time';

/**
 * 定制公交 rows of a test's own, written straight into the tables (the rider side has no console
 * call): a district's two stations, a line between them, a car, a driver, a class on a day, paid
 * orders with their tickets. Each test file names what it needs; the server's own services are what
 * the tests then call over HTTP. Unique names come from `tag` so files never collide.
 */
let serial = 0;
/** A plate's five characters never hold I or O (PLATE_NO): a base-36 tail did now and then, and the save refused it. */
const PLATE_CHARS = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';
let plateSerial = Math.floor(Math.random() * PLATE_CHARS.length ** 4);
export const fixturePlate = () => `沪T${plateTail()}`;
const plateTail = () => {
  let n = plateSerial++;
  let tail = '';
  for (let i = 0; i < 5; i++, n = Math.floor(n / PLATE_CHARS.length)) tail = PLATE_CHARS[n % PLATE_CHARS.length]! + tail;
  return tail;
};
const uniq = (tag: string) => `${tag}${Date.now().toString(36).slice(-4)}${(serial++).toString(36)}`;

export interface CustomFixture {
  db: Db;
  pii: Pii;
  now: Date;
}

export async function fixtureStations(f: CustomFixture, districtId: number, n = 2, tag = '站') {
  const rows = Array.from({ length: n }, (_, i) => ({ districtId, name: uniq(tag).slice(0, 20), address: `测试路${i + 1}号`, lng: 121.4 + i * 0.01, lat: 31.2 + i * 0.01, createdAt: f.now, updatedAt: f.now }));
  return f.db.insert(cb.customStations).values(rows).returning();
}

/** A line (上行 only unless `over.direction` says) between two new stations, with its path of 2 stops. */
export async function fixtureLine(f: CustomFixture, districtId: number, over: Partial<typeof cb.customLines.$inferInsert> = {}) {
  const [a, b] = (await fixtureStations(f, districtId)) as [typeof cb.customStations.$inferSelect, typeof cb.customStations.$inferSelect];
  const [line] = await f.db
    .insert(cb.customLines)
    .values({
      districtId,
      lineNo: uniq('D').slice(0, 12),
      name: uniq('测试线').slice(0, 15),
      direction: 0,
      startStationId: a.id,
      endStationId: b.id,
      departTime: 7 * 3600 + 1800,
      arriveTime: 8 * 3600 + 1800,
      originalPrice: 1500,
      price: 1200,
      discountType: 3,
      discountPrice: 1200,
      ticketTypes: [1, 2],
      defaultSeats: 45,
      status: 1,
      createdAt: f.now,
      updatedAt: f.now,
      ...over,
    })
    .returning();
  const dirs = line!.direction === -1 ? [0, 1] : [line!.direction];
  for (const direction of dirs) {
    const [from, to] = direction === 0 ? [a, b] : [b, a];
    await f.db.insert(cb.customLineStops).values([
      { lineId: line!.id, direction, seq: 1, stationId: from.id, offsetMin: 0, mode: 1 },
      { lineId: line!.id, direction, seq: 2, stationId: to.id, offsetMin: 60, mode: 2 },
    ]);
  }
  return { line: line!, stations: [a, b] as const };
}

export async function fixtureCar(f: CustomFixture, districtId: number, over: Partial<typeof cb.customCars.$inferInsert> = {}) {
  const today = shanghaiDate(f.now);
  const [car] = await f.db
    .insert(cb.customCars)
    .values({ districtId, plateNo: fixturePlate(), seats: 49, model: '宇通ZK6107', company: '测试客运', inspectionUntil: addDays(today, 200), insuranceUntil: addDays(today, 200), createdAt: f.now, updatedAt: f.now, ...over })
    .returning();
  return car!;
}

export async function fixtureDriver(f: CustomFixture, districtId: number, over: Partial<typeof cb.customDrivers.$inferInsert> & { phone?: string; idNo?: string } = {}) {
  const { phone = `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`, idNo = `31010419800101${String(Math.floor(Math.random() * 1e4)).padStart(4, '0')}`, ...rest } = over;
  const [driver] = await f.db
    .insert(cb.customDrivers)
    .values({
      districtId,
      name: '测试司机',
      phoneEnc: f.pii.encrypt(phone),
      phoneIdx: f.pii.index('phone', phone),
      idEnc: f.pii.encrypt(idNo),
      idIdx: f.pii.index('citizen', idNo),
      licenceClass: 'A1',
      licenceUntil: addDays(shanghaiDate(f.now), 300),
      createdAt: f.now,
      updatedAt: f.now,
      ...rest,
    })
    .returning();
  return driver!;
}

/**
 * A class of `line` `daysAhead` Shanghai days from now at the line's depart time, on sale (status 1)
 * with `publish` seats all free unless `over` says otherwise.
 */
export async function fixtureClass(f: CustomFixture, line: typeof cb.customLines.$inferSelect, daysAhead = 2, over: Partial<typeof cb.customClasses.$inferInsert> = {}) {
  const departDate = addDays(shanghaiDate(f.now), daysAhead);
  const departTime = over.departTime ?? line.departTime;
  const departAt = new Date(shanghaiMidnight(departDate).getTime() + departTime * 1000);
  const publish = over.publish ?? 45;
  const [row] = await f.db
    .insert(cb.customClasses)
    .values({
      districtId: line.districtId,
      lineId: line.id,
      direction: line.direction === 1 ? 1 : 0,
      departDate,
      departTime,
      departAt,
      arriveAt: new Date(departAt.getTime() + Math.max(line.arriveTime - line.departTime, 600) * 1000),
      publish,
      stock: publish,
      price: line.price,
      saleOpenAt: new Date(f.now.getTime() - DAY_MS),
      saleCloseAt: new Date(departAt.getTime() - 10 * 60_000),
      status: 1,
      createdAt: f.now,
      updatedAt: f.now,
      ...over,
    })
    .returning();
  return row!;
}

/** The district's ladder in force (a new one from `rows`, DEFAULT_LADDER unless given). */
export async function fixtureLadder(f: CustomFixture, districtId: number, rows: readonly LadderRow[] = DEFAULT_LADDER, status = 2) {
  if (status === 2) await f.db.update(customRefundRules).set({ status: 3, updatedAt: f.now }).where(and(eq(customRefundRules.districtId, districtId), eq(customRefundRules.status, 2)));
  const [rule] = await f.db
    .insert(customRefundRules)
    .values({ districtId, rows: [...rows], status, effectiveAt: f.now, createdAt: f.now, updatedAt: f.now })
    .returning();
  return rule!;
}

/**
 * A paid 单次票 order of `seats` seats on `classes` by the district's `riderIndex`-th rider (or a given
 * rider id), its tickets 已支付, and the class's stock moved to sold: as the rider side leaves it.
 */
export async function fixturePaidOrder(f: CustomFixture, classes: typeof cb.customClasses.$inferSelect, opts: { seats?: number; riderId?: number; ruleVersionId?: number | null } = {}) {
  const seats = opts.seats ?? 1;
  const riderId = opts.riderId ?? (await f.db.select({ id: t.riders.id }).from(t.riders).where(eq(t.riders.districtId, classes.districtId)).limit(1))[0]?.id ?? (await f.db.select({ id: t.riders.id }).from(t.riders).limit(1))[0]!.id;
  const no = uniq('CB').toUpperCase();
  const [order] = await f.db
    .insert(cb.customOrders)
    .values({
      orderNo: no,
      districtId: classes.districtId,
      riderId,
      lineId: classes.lineId,
      direction: classes.direction,
      classesId: classes.id,
      ticketType: 1,
      seats,
      amount: classes.price * seats,
      payStatus: 1,
      status: 1,
      ruleVersionId: opts.ruleVersionId ?? null,
      holdUntil: new Date(f.now.getTime() + 120_000),
      paidAt: f.now,
      createdAt: f.now,
      updatedAt: f.now,
    })
    .returning();
  const tickets = await f.db
    .insert(cb.customTickets)
    .values(Array.from({ length: seats }, (_, i) => ({ orderId: order!.id, classesId: classes.id, ticketNo: `${no}-${i + 1}`, state: 1, amount: classes.price, createdAt: f.now, updatedAt: f.now })))
    .returning();
  const [c] = await f.db
    .update(cb.customClasses)
    .set({ stock: classes.stock - seats, sold: classes.sold + seats })
    .where(eq(cb.customClasses.id, classes.id))
    .returning();
  Object.assign(classes, c);
  return { order: order!, tickets };
}
