import { and, eq, gte, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/shared/api/custom-bus/classes';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { createRng } from '../../src/server/db/seed/rng';
import { createPii } from '../../src/server/lib/pii';
import { seedClasses } from '../../src/server/modules/custom-bus/classes-seed';
import { runSaleJob, saleWindow } from '../../src/server/modules/custom-bus/classes-service';
import { customClasses } from '../../src/server/modules/custom-bus/schema';
import { addDays, shanghaiDate } from '../../src/shared/domain/time';
import { DAY, MINUTE } from '../support/clock';
import { type CustomFixture, fixtureCar, fixtureClass, fixtureDriver, fixtureLine, fixturePaidOrder } from '../support/custom-bus-fixture';
import { exportThroughTask } from '../support/export-task';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/** 班次管理 against the real server: roles, scope, input, every refusal with nothing changed, audit rows, the sale job, the seed. */
let s: TestServer;
let admin: string;
let manager: string;
let viewer: string;
let agent: string;
let xuhui: number;
let huangpu: number;

const db = () => s.database.db;
const pii = createPii(TEST_PII_KEY);
const f = (): CustomFixture => ({ db: db(), pii, now: s.clock.now() });
const deps = () => ({ db: db(), clock: s.clock, pii }) as unknown as AppDeps;
const today = () => shanghaiDate(s.clock.now());
const day = (n: number) => addDays(today(), n);

beforeAll(async () => {
  s = await startTestServer();
  [admin, manager, viewer, agent] = (await Promise.all(['admin', 'manager', 'viewer', 'agent'].map((u) => s.login(u)))) as [string, string, string, string];
  const districts = await db().select().from(t.districts);
  xuhui = districts.find((d) => d.name === '徐汇区')!.id;
  huangpu = districts.find((d) => d.name === '黄浦区')!.id;
});
afterAll(() => s.close());

const audits = (type: string, target?: string) =>
  db()
    .select()
    .from(t.sysLog)
    .where(and(eq(t.sysLog.operationType, type), target ? eq(t.sysLog.target, target) : undefined));
const stored = async (id: number) => (await db().select().from(customClasses).where(eq(customClasses.id, id)))[0]!;
const classesOfLine = (lineId: number) => db().select().from(customClasses).where(eq(customClasses.lineId, lineId));
const batch = (token: string, body: unknown) => s.call(api.classesBatchSave, { token, body });
const assign = (token: string, body: unknown) => s.call(api.classesAssign, { token, body });
const move = (token: string, body: unknown) => s.call(api.classesUpdateStatus, { token, body });
const save = (token: string, body: unknown) => s.call(api.classesSave, { token, body });

/** Next Monday–Friday (from tomorrow on): the batch form's 下周一至五. */
function nextWeek() {
  const wd = new Date(`${today()}T00:00:00Z`).getUTCDay() || 7;
  const monday = day(8 - wd);
  return { dateFrom: monday, dateTo: addDays(monday, 4), weekdays: [1, 2, 3, 4, 5] };
}

describe('the seed generator (classesSeed) over fixture lines, cars and drivers', () => {
  it('classes 45 days back (已发车) and 15 ahead, 10 cancelled, cars and drivers without a clash, seats within the car', async () => {
    // A district of its own: the demo seed already gave the city's districts their lines and classes.
    const [own] = await db().insert(t.districts).values({ name: '排班测试区', code: 'seed-classes-test' }).returning();
    const third = own!.id;
    const lines = [
      (await fixtureLine(f(), third, { direction: -1, returnDepartTime: 17 * 3600 + 1800, returnArriveTime: 18 * 3600 + 1800 })).line,
      (await fixtureLine(f(), third, { departTime: 7 * 3600, arriveTime: 8 * 3600 + 600 })).line,
      (await fixtureLine(f(), third, { departTime: 7 * 3600 + 900, arriveTime: 8 * 3600 })).line,
    ];
    await fixtureCar(f(), third, { seats: 33 });
    await fixtureCar(f(), third);
    await fixtureCar(f(), third, { status: 2 });
    await fixtureDriver(f(), third);
    await fixtureDriver(f(), third);
    const started = Date.now();
    const { classes } = await seedClasses(db(), s.clock.now(), createRng(7), { districtId: third });
    expect(Date.now() - started).toBeLessThan(5_000);
    const rows = await db().select().from(customClasses).where(eq(customClasses.districtId, third));
    expect(rows).toHaveLength(classes);
    // 4 legs a day (too few lines for weekdays alone to reach 2,000), three of them in the morning on
    // two cars and two drivers: ahead, the third waits for 排班; behind, it never ran (a class that left
    // had its car and driver).
    const perDay = (pick: (d: string) => boolean) => {
      const n = new Map<string, number>();
      for (const r of rows) if (pick(r.departDate)) n.set(r.departDate, (n.get(r.departDate) ?? 0) + 1);
      return [...n.values()];
    };
    expect(perDay((d) => d < today())).toEqual(Array(45).fill(3));
    expect(perDay((d) => d > today())).toEqual(Array(14).fill(4));
    expect(rows.filter((r) => r.status === 3).every((r) => r.carId !== null && r.driverId !== null)).toBe(true);
    expect(rows.filter((r) => r.departAt > s.clock.now() && r.status !== 4).some((r) => r.carId === null)).toBe(true);
    expect(new Set(rows.map((r) => r.lineId))).toEqual(new Set(lines.map((l) => l.id)));
    const now = s.clock.now();
    expect(rows.filter((r) => r.departDate < today()).every((r) => r.status === 3)).toBe(true);
    expect(rows.filter((r) => r.departAt > now).every((r) => r.status !== 3)).toBe(true);
    expect(rows.filter((r) => r.status === 4)).toHaveLength(10);
    expect(rows.filter((r) => r.status === 4).every((r) => r.departDate > today() && !!r.cancelReason)).toBe(true);
    expect(Math.min(...rows.map((r) => r.departDate.localeCompare(day(-45))))).toBe(0);
    expect(rows.reduce((m, r) => (r.departDate > m ? r.departDate : m), '')).toBe(day(14));
    expect(rows.every((r) => r.stock + r.held + r.sold === r.publish && r.saleOpenAt < r.saleCloseAt && r.saleCloseAt < r.departAt)).toBe(true);
    // No car and no driver on two overlapping live classes.
    const clashes = await db().execute(sql`select count(*)::int as n from custom_classes a join custom_classes b on a.id < b.id and a.status <> 4 and b.status <> 4
      and a.depart_at < b.arrive_at and b.depart_at < a.arrive_at and (a.car_id = b.car_id or a.driver_id = b.driver_id) where a.district_id = ${third}`);
    expect((clashes as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
    const overSeats = await db().execute(sql`select count(*)::int as n from custom_classes c join custom_cars k on k.id = c.car_id where c.district_id = ${third} and c.publish > k.seats`);
    expect((overSeats as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
    expect(rows.some((r) => r.carId !== null)).toBe(true);
  });
});

describe('班次管理: the list, its summary and export, roles and scope', () => {
  it('a manager reads the district’s classes only; the viewer has no menu, the agent reads; a foreign class is refused', async () => {
    const { line } = await fixtureLine(f(), xuhui);
    const mine = await fixtureClass(f(), line, 3);
    const { line: far } = await fixtureLine(f(), huangpu);
    const foreign = await fixtureClass(f(), far, 3);
    const page = (await s.call(api.classesPage, { token: manager, query: { size: 1000 } })).body.data;
    expect(page.content.some((c) => c.id === mine.id)).toBe(true);
    expect(page.content.every((c) => c.districtId === xuhui)).toBe(true);
    expect((await s.call(api.classesPage, { token: viewer })).status).toBe(403);
    expect((await s.call(api.classesTotal, { token: viewer })).status).toBe(403);
    expect((await s.call(api.classesById, { token: viewer, query: { id: mine.id } })).status).toBe(403);
    // 客服坐席组 reads 定制公交 (a rider calls about a class) but schedules nothing.
    expect((await s.call(api.classesById, { token: agent, query: { id: mine.id } })).body.data.id).toBe(mine.id);
    expect((await s.call(api.classesById, { token: agent, query: { id: foreign.id } })).status).toBe(403);
    expect((await s.call(api.classesById, { token: manager, query: { id: foreign.id } })).status).toBe(403);
    expect((await s.call(api.classesById, { token: admin, query: { id: foreign.id } })).body.data.id).toBe(foreign.id);
    const car = await fixtureCar(f(), huangpu);
    expect((await assign(manager, { id: foreign.id, carId: car.id, driverId: null })).status).toBe(403);
    expect((await move(manager, { id: foreign.id, fromStatus: 1, toStatus: 2 })).status).toBe(403);
    expect((await batch(manager, { lineId: far.id, ...nextWeek(), times: ['07:30'], publish: 40, dryRun: true })).status).toBe(403);
    expect(await stored(foreign.id)).toMatchObject({ status: 1, carId: null });
  });

  it('filters by line, day window, status, car and driver; answers seats, plate and driver; refuses a window over 62 days', async () => {
    const { line } = await fixtureLine(f(), xuhui);
    const car = await fixtureCar(f(), xuhui);
    const driver = await fixtureDriver(f(), xuhui, { name: '王师傅' });
    const a = await fixtureClass(f(), line, 2, { carId: car.id, driverId: driver.id });
    const b = await fixtureClass(f(), line, 5, { status: 2 });
    const q = (query: Record<string, string | number>) => s.call(api.classesPage, { token: manager, query: { size: 100, ...query } });
    expect((await q({ lineId: line.id })).body.data.content.map((c) => c.id)).toEqual([a.id, b.id]);
    expect((await q({ lineId: line.id, dateFrom: day(3), dateTo: day(10) })).body.data.content.map((c) => c.id)).toEqual([b.id]);
    expect((await q({ lineId: line.id, status: 2 })).body.data.content.map((c) => c.id)).toEqual([b.id]);
    const byCar = (await q({ carId: car.id })).body.data.content;
    expect(byCar.map((c) => c.id)).toEqual([a.id]);
    expect(byCar[0]).toMatchObject({ plateNo: car.plateNo, carSeats: car.seats, driverName: '王师傅', publish: 45, stock: 45, sold: 0, held: 0, time: '07:30', lineNo: line.lineNo });
    expect((await q({ driverId: driver.id })).body.data.content.map((c) => c.id)).toEqual([a.id]);
    const wide = await q({ dateFrom: day(0), dateTo: day(62) });
    expect(wide.body.code).not.toBe(1);
    expect(wide.body.msg).toContain('62');
    expect((await q({ dateFrom: day(5), dateTo: day(1) })).body.code).not.toBe(1);
    expect((await q({ dateFrom: '2026-02-30' })).body.code).not.toBe(1);
    expect((await q({ status: 9 })).body.code).not.toBe(1);
    expect((await q({ sort: 'hack,asc' })).body.code).not.toBe(1);
  });

  it('the summary counts the filtered classes by status with seats and load; the export is a 下载中心 task of the same rows', async () => {
    const { line } = await fixtureLine(f(), xuhui);
    const a = await fixtureClass(f(), line, 2, { publish: 40 });
    await fixturePaidOrder(f(), a, { seats: 4 });
    await fixtureClass(f(), line, 3, { publish: 20, status: 0 });
    await fixtureClass(f(), line, 4, { publish: 10, status: 4, cancelReason: '测试' });
    const total = (await s.call(api.classesTotal, { token: manager, query: { lineId: line.id } })).body.data;
    expect(total).toMatchObject({ classes: 3, seats: 60, sold: 4, stock: 56, held: 0, loadRate: 67, pending: 1, onSale: 1, cancelled: 1, departed: 0, unassigned: 2 });
    const { sheet } = await exportThroughTask(s, api.classesExport, manager, { lineId: line.id });
    expect(sheet.rows).toHaveLength(4);
    expect(sheet.rows[0]).toContain('发车日期');
    expect(sheet.rows.slice(1).map((r) => r[0])).toEqual([String(a.id), expect.any(String), expect.any(String)]);
  });

  it('the detail lists the passengers’ tickets with the riders’ phones masked, and the checks', async () => {
    const { line } = await fixtureLine(f(), xuhui);
    const c = await fixtureClass(f(), line, 1);
    const { tickets } = await fixturePaidOrder(f(), c, { seats: 2 });
    await db().execute(sql`update custom_tickets set state = 2, checked_at = now(), check_plate_no = '沪A12345', check_method = 1 where id = ${tickets[0]!.id}`);
    const res = (await s.call(api.classesById, { token: manager, query: { id: c.id } })).body.data;
    expect(res.passengers).toHaveLength(2);
    expect(res).toMatchObject({ checked: 1, unchecked: 1, sold: 2 });
    expect(res.passengers.every((p) => p.riderPhone === null || /^\d{3}\*{4}\d{4}$/.test(p.riderPhone))).toBe(true);
    expect(res.passengers.some((p) => p.riderPhone !== null)).toBe(true);
    expect(res.passengers[0]).toMatchObject({ state: 2, checkPlateNo: '沪A12345', checkMethod: 1 });
    expect((await s.call(api.classesById, { token: manager, query: { id: 'x' } })).body.code).not.toBe(1);
    expect((await s.call(api.classesById, { token: manager, query: { id: 99_999_999 } })).body.code).not.toBe(1);
  });
});

describe('the car/driver exclusion constraints (migration 0022)', () => {
  it('exist on this database too (PGlite loads btree_gist): a direct overlapping insert for one car is refused', async () => {
    const names = await db().execute(sql`select conname from pg_constraint where conname in ('custom_classes_car_overlap_ex', 'custom_classes_driver_overlap_ex') order by 1`);
    expect((names as unknown as { rows: { conname: string }[] }).rows.map((r) => r.conname)).toEqual(['custom_classes_car_overlap_ex', 'custom_classes_driver_overlap_ex']);
    const car = await fixtureCar(f(), xuhui);
    const { line: a } = await fixtureLine(f(), xuhui);
    const { line: b } = await fixtureLine(f(), xuhui);
    await fixtureClass(f(), a, 9, { carId: car.id });
    await expect(fixtureClass(f(), b, 9, { departTime: 8 * 3600, carId: car.id })).rejects.toThrow();
  });
});

describe('批量排班 (batchSave)', () => {
  it('a dry run lists what it would make and writes nothing; the real run writes every class with one audit row', async () => {
    const { line } = await fixtureLine(f(), xuhui);
    const body = { lineId: line.id, ...nextWeek(), times: ['08:00', '07:30'], publish: 45 };
    const dry = await batch(manager, { ...body, dryRun: true });
    expect(dry.body.data).toEqual({ dryRun: true, slots: 10, conflicts: [], ids: [] });
    expect(await classesOfLine(line.id)).toHaveLength(0);
    const before = (await audits('CUSTOM_CLASSES_BATCH')).length;
    const real = await batch(manager, { ...body, dryRun: false });
    expect(real.body.code, real.body.msg).toBe(1);
    expect(real.body.data.ids).toHaveLength(10);
    const rows = await classesOfLine(line.id);
    expect(rows).toHaveLength(10);
    expect(rows.every((r) => r.publish === 45 && r.stock === 45 && r.price === line.price && r.districtId === xuhui)).toBe(true);
    expect(new Set(rows.map((r) => r.departTime))).toEqual(new Set([7 * 3600 + 1800, 8 * 3600]));
    // The district's base settings (defaults: 7 days ahead at 12:00, closing 10 minutes before).
    const r0 = rows.find((r) => r.departDate === body.dateFrom && r.departTime === 7 * 3600 + 1800)!;
    expect(r0.saleCloseAt.getTime()).toBe(r0.departAt.getTime() - 10 * MINUTE);
    expect(r0.saleOpenAt).toEqual(saleWindow({ saleDaysAhead: 7, saleOpenTime: 12 * 3600, stopSaleMinBefore: 10 }, r0.departDate, r0.departAt).saleOpenAt);
    expect(r0.arriveAt.getTime() - r0.departAt.getTime()).toBe(3600_000);
    const after = await audits('CUSTOM_CLASSES_BATCH', `custom-line/${line.id}`);
    expect(after).toHaveLength(1);
    expect((await audits('CUSTOM_CLASSES_BATCH')).length).toBe(before + 1);
    expect(after[0]!.summary).toContain('共10个班次');
  });

  it('the dry run lists EVERY conflict per slot (taken, past, car and driver clashes, fleet problems); the real run then writes nothing', async () => {
    const { line } = await fixtureLine(f(), xuhui);
    const { line: other } = await fixtureLine(f(), xuhui, { name: '别的线路' });
    const car = await fixtureCar(f(), xuhui, { seats: 30, inspectionUntil: day(2) });
    const driver = await fixtureDriver(f(), xuhui, { licenceUntil: day(1) });
    // The line's 07:30 on day 2 is taken; the car runs another line 08:00 on day 3; the driver too on day 4.
    await fixtureClass(f(), line, 2);
    await fixtureClass(f(), other, 3, { departTime: 8 * 3600, carId: car.id });
    await fixtureClass(f(), other, 4, { departTime: 8 * 3600, driverId: driver.id });
    // From yesterday (its 07:30 surely past) to day 4.
    const body = { lineId: line.id, dateFrom: day(-1), dateTo: day(4), weekdays: [1, 2, 3, 4, 5, 6, 7], times: ['07:30'], publish: 45, carId: car.id, driverId: driver.id };
    const dry = (await batch(manager, { ...body, dryRun: true })).body.data;
    expect(dry.slots).toBe(6);
    const of = (d: string) => dry.conflicts.find((c) => c.date === d)?.reasons ?? [];
    expect(of(day(-1))).toContain('发车时间不能早于当前时间');
    expect(of(day(1))).not.toContain('发车时间不能早于当前时间');
    expect(of(day(2))).toContain(`该线路${day(2)} 07:30已有班次`);
    expect(of(day(3))).toContain(`车辆${car.plateNo}在${day(3)} 08:00已有班次（别的线路），时间冲突`);
    expect(of(day(4))).toContain('该司机在该时段已有班次');
    // Capacity on every day; the licence lapses after day 1, the inspection after day 2.
    expect(dry.conflicts).toHaveLength(6);
    expect(dry.conflicts.every((c) => c.reasons.includes('发行数量不能超过车辆核载座位数（30）'))).toBe(true);
    expect(of(day(1))).not.toContain('司机驾驶证已过期，不能排班');
    expect(of(day(2))).toContain('司机驾驶证已过期，不能排班');
    expect(of(day(2))).not.toContain('车辆年检已过期，不能排班');
    expect(of(day(3))).toContain('车辆年检已过期，不能排班');
    const before = (await classesOfLine(line.id)).length;
    const logs = (await audits('CUSTOM_CLASSES_BATCH')).length;
    const real = await batch(manager, { ...body, dryRun: false });
    expect(real.body.code).not.toBe(1);
    expect(real.body.msg).toContain('冲突');
    expect((real.body.data as { conflicts: unknown[] }).conflicts).toHaveLength(6);
    expect(await classesOfLine(line.id)).toHaveLength(before);
    expect((await audits('CUSTOM_CLASSES_BATCH')).length).toBe(logs);
  });

  it('the batch’s own slots clash for one car (07:30 and 08:00 on a one-hour leg); a car under repair is refused', async () => {
    const { line } = await fixtureLine(f(), xuhui);
    const car = await fixtureCar(f(), xuhui, { status: 2 });
    const dry = (await batch(manager, { lineId: line.id, ...nextWeek(), times: ['07:30', '08:00'], publish: 40, carId: car.id, dryRun: true })).body.data;
    const eight = dry.conflicts.filter((c) => c.time === '08:00');
    expect(eight).toHaveLength(5);
    expect(eight[0]!.reasons.some((r) => r.startsWith(`车辆${car.plateNo}在`) && r.endsWith('时间冲突'))).toBe(true);
    expect(dry.conflicts.filter((c) => c.time === '07:30').every((c) => c.reasons.includes('车辆维修中，不能排班'))).toBe(true);
  });

  it('refuses over 62 days, an empty or malformed body, a foreign car, a viewer and an agent — writing nothing', async () => {
    const { line } = await fixtureLine(f(), xuhui);
    const good = { lineId: line.id, ...nextWeek(), times: ['07:30'], publish: 40, dryRun: false };
    const long = await batch(manager, { ...good, dateFrom: day(1), dateTo: day(63) });
    expect(long.body.code).not.toBe(1);
    expect(long.body.msg).toContain('批量排班一次最多62天');
    for (const bad of [
      {},
      { ...good, times: [] },
      { ...good, times: ['7:3'] },
      { ...good, times: ['07:30', '07:30'] },
      { ...good, times: Array.from({ length: 30 }, (_, i) => `${String(i % 24).padStart(2, '0')}:${String(i).padStart(2, '0')}`) },
      { ...good, weekdays: [] },
      { ...good, weekdays: [8] },
      { ...good, publish: 81 },
      { ...good, publish: -1 },
      { ...good, dateFrom: 'tomorrow' },
      { ...good, dateTo: addDays(good.dateFrom, -1) },
      { ...good, lineId: 'x'.repeat(300) },
      { ...good, dryRun: 'yes' },
    ]) {
      const res = await batch(manager, bad);
      expect(res.body.code, JSON.stringify(bad).slice(0, 80)).not.toBe(1);
    }
    const foreignCar = await fixtureCar(f(), huangpu);
    const res = await batch(manager, { ...good, carId: foreignCar.id });
    expect(res.body.code).not.toBe(1);
    expect(res.body.msg).toContain('车辆不存在');
    expect((await batch(viewer, good)).status).toBe(403);
    expect((await batch(agent, good)).status).toBe(403);
    expect(await classesOfLine(line.id)).toHaveLength(0);
  });

  it('two real runs over the same slots: the second is refused whole (该线路…已有班次) and writes nothing more', async () => {
    const { line } = await fixtureLine(f(), xuhui);
    const body = { lineId: line.id, ...nextWeek(), times: ['07:30'], publish: 40, dryRun: false };
    expect((await batch(manager, body)).body.code).toBe(1);
    const again = await batch(manager, { ...body, times: ['07:30', '09:00'] });
    expect(again.body.code).not.toBe(1);
    expect(again.body.msg).toContain('已有班次');
    expect(await classesOfLine(line.id)).toHaveLength(5);
  });
});

describe('one class: saveOrUpdate', () => {
  it('adds a class; refuses the past and a taken slot; an edit keeps publish ≥ sold + held and ≤ the car’s seats', async () => {
    const { line } = await fixtureLine(f(), xuhui);
    const created = await save(manager, { lineId: line.id, departDate: day(3), departTime: '09:15', publish: 30 });
    expect(created.body.code, created.body.msg).toBe(1);
    const c = created.body.data;
    expect(c).toMatchObject({ time: '09:15', publish: 30, stock: 30, price: line.price });
    expect(await audits('CUSTOM_CLASSES_SAVE', `custom-classes/${c.id}`)).toHaveLength(1);
    const past = await save(manager, { lineId: line.id, departDate: day(-1), departTime: '09:15', publish: 30 });
    expect(past.body.msg).toBe('发车时间不能早于当前时间');
    const twice = await save(manager, { lineId: line.id, departDate: day(3), departTime: '09:15', publish: 30 });
    expect(twice.body.msg).toBe(`该线路${day(3)} 09:15已有班次`);

    const row = await stored(c.id);
    await fixturePaidOrder(f(), row, { seats: 3 });
    await db().update(customClasses).set({ held: 2, stock: row.stock - 2 }).where(eq(customClasses.id, c.id));
    const low = await save(manager, { id: c.id, lineId: line.id, departDate: day(3), departTime: '09:15', publish: 4 });
    expect(low.body.msg).toBe('发行数量不能少于已售和锁定的座位数（5）');
    const moved = await save(manager, { id: c.id, lineId: line.id, departDate: day(4), departTime: '09:15', publish: 30 });
    expect(moved.body.msg).toBe('已有乘客购票的班次不能修改日期、时刻和票价');
    const car = await fixtureCar(f(), xuhui, { seats: 33 });
    await db().update(customClasses).set({ carId: car.id }).where(eq(customClasses.id, c.id));
    const over = await save(manager, { id: c.id, lineId: line.id, departDate: day(3), departTime: '09:15', publish: 34 });
    expect(over.body.msg).toBe('发行数量不能超过车辆核载座位数（33）');
    const unchanged = await stored(c.id);
    expect(unchanged).toMatchObject({ publish: 30, stock: 25, sold: 3, held: 2, departDate: day(3) });
    const ok = await save(manager, { id: c.id, lineId: line.id, departDate: day(3), departTime: '09:15', publish: 5, rowVersion: unchanged.rowVersion });
    expect(ok.body.data).toMatchObject({ publish: 5, stock: 0, sold: 3, held: 2 });
    const stale = await save(manager, { id: c.id, lineId: line.id, departDate: day(3), departTime: '09:15', publish: 6, rowVersion: unchanged.rowVersion });
    expect(stale.body.code).not.toBe(1);
    expect((await stored(c.id)).publish).toBe(5);
    expect((await save(viewer, { lineId: line.id, departDate: day(5), departTime: '09:15', publish: 30 })).status).toBe(403);
    expect((await save(manager, { lineId: line.id, departDate: day(5), departTime: '25:00', publish: 30 })).body.code).not.toBe(1);
  });
});

describe('开售 / 停售 / 恢复 (update/status)', () => {
  it('0→1, 1→2, 2→1 before saleCloseAt with an audit row each; other moves and a stale fromStatus refused', async () => {
    const { line } = await fixtureLine(f(), xuhui);
    const c = await fixtureClass(f(), line, 3, { status: 0 });
    const open = await move(manager, { id: c.id, fromStatus: 0, toStatus: 1 });
    expect(open.body.data.status).toBe(1);
    expect((await move(manager, { id: c.id, fromStatus: 0, toStatus: 1 })).body.code).not.toBe(1);
    expect((await move(manager, { id: c.id, fromStatus: 1, toStatus: 2 })).body.data.status).toBe(2);
    expect((await move(manager, { id: c.id, fromStatus: 2, toStatus: 1 })).body.data.status).toBe(1);
    expect(await audits('CUSTOM_CLASSES_STATUS', `custom-classes/${c.id}`)).toHaveLength(3);
    const cancel = await move(manager, { id: c.id, fromStatus: 1, toStatus: 4 });
    expect(cancel.body.msg).toContain('取消班次');
    expect((await move(manager, { id: c.id, fromStatus: 1, toStatus: 3 })).body.code).not.toBe(1);
    expect((await move(viewer, { id: c.id, fromStatus: 1, toStatus: 2 })).status).toBe(403);
    expect((await move(agent, { id: c.id, fromStatus: 1, toStatus: 2 })).status).toBe(403);
    expect((await move(manager, { id: c.id })).body.code).not.toBe(1);
    expect((await stored(c.id)).status).toBe(1);
  });

  it('恢复 after saleCloseAt is refused', async () => {
    const { line } = await fixtureLine(f(), xuhui);
    const c = await fixtureClass(f(), line, 3, { status: 2 });
    await db().update(customClasses).set({ saleCloseAt: new Date(s.clock.now().getTime() - MINUTE), saleOpenAt: new Date(s.clock.now().getTime() - DAY) }).where(eq(customClasses.id, c.id));
    const res = await move(manager, { id: c.id, fromStatus: 2, toStatus: 1 });
    expect(res.body.msg).toBe('已过停售时间，不能恢复售票');
    expect((await stored(c.id)).status).toBe(2);
  });
});

describe('排班 (assign)', () => {
  it('assigns a car and a driver with an audit row; refuses a car or a driver busy at an overlapping time, a lapsed licence, too few seats', async () => {
    const { line } = await fixtureLine(f(), xuhui);
    const { line: other } = await fixtureLine(f(), xuhui, { name: '冲突线路' });
    const car = await fixtureCar(f(), xuhui);
    const driver = await fixtureDriver(f(), xuhui);
    const a = await fixtureClass(f(), line, 2);
    const b = await fixtureClass(f(), other, 2, { departTime: 8 * 3600 });
    const ok = await assign(manager, { id: a.id, carId: car.id, driverId: driver.id });
    expect(ok.body.code, ok.body.msg).toBe(1);
    expect(ok.body.data).toMatchObject({ carId: car.id, driverId: driver.id, plateNo: car.plateNo });
    expect(await audits('CUSTOM_CLASSES_ASSIGN', `custom-classes/${a.id}`)).toHaveLength(1);
    const carBusy = await assign(manager, { id: b.id, carId: car.id, driverId: null });
    expect(carBusy.body.msg).toBe(`车辆${car.plateNo}在${day(2)} 07:30已有班次（${line.name}），时间冲突`);
    const driverBusy = await assign(manager, { id: b.id, carId: null, driverId: driver.id });
    expect(driverBusy.body.msg).toBe('该司机在该时段已有班次');
    const lapsed = await fixtureDriver(f(), xuhui, { licenceUntil: day(1) });
    expect((await assign(manager, { id: b.id, carId: null, driverId: lapsed.id })).body.msg).toBe('司机驾驶证已过期，不能排班');
    const small = await fixtureCar(f(), xuhui, { seats: 20 });
    expect((await assign(manager, { id: b.id, carId: small.id, driverId: null })).body.msg).toBe('发行数量不能超过车辆核载座位数（20）');
    const old = await fixtureCar(f(), xuhui, { inspectionUntil: day(-1) });
    expect((await assign(manager, { id: b.id, carId: old.id, driverId: null })).body.msg).toBe('车辆年检已过期，不能排班');
    const repair = await fixtureCar(f(), xuhui, { status: 2 });
    expect((await assign(manager, { id: b.id, carId: repair.id, driverId: null })).body.msg).toBe('车辆维修中，不能排班');
    expect(await stored(b.id)).toMatchObject({ carId: null, driverId: null });
    expect(await audits('CUSTOM_CLASSES_ASSIGN', `custom-classes/${b.id}`)).toHaveLength(0);
    // A cancelled class frees the car.
    await db().update(customClasses).set({ status: 4 }).where(eq(customClasses.id, a.id));
    expect((await assign(manager, { id: b.id, carId: car.id, driverId: driver.id })).body.code).toBe(1);
  });

  it('refuses a departed class, a foreign car, malformed bodies, viewer and agent', async () => {
    const { line } = await fixtureLine(f(), xuhui);
    const car = await fixtureCar(f(), xuhui);
    const gone = await fixtureClass(f(), line, 2, { status: 3 });
    expect((await assign(manager, { id: gone.id, carId: car.id, driverId: null })).body.msg).toBe('班次已发车，不能排班');
    const c = await fixtureClass(f(), line, 3);
    const foreign = await fixtureCar(f(), huangpu);
    expect((await assign(manager, { id: c.id, carId: foreign.id, driverId: null })).body.msg).toContain('车辆不存在');
    for (const bad of [{}, { id: c.id }, { id: c.id, carId: 'a', driverId: null }, { id: -1, carId: car.id, driverId: null }]) expect((await assign(manager, bad)).body.code).not.toBe(1);
    expect((await assign(viewer, { id: c.id, carId: car.id, driverId: null })).status).toBe(403);
    expect((await assign(agent, { id: c.id, carId: car.id, driverId: null })).status).toBe(403);
    expect(await stored(c.id)).toMatchObject({ carId: null });
  });
});

describe('the job classes.sale', () => {
  it('0→1 at saleOpenAt, 1→2 at saleCloseAt, 1/2→3 at departAt; a summary audit row per run; each row once', async () => {
    const { line } = await fixtureLine(f(), xuhui);
    const now = s.clock.now();
    const c = await fixtureClass(f(), line, 2, { status: 0, saleOpenAt: new Date(now.getTime() + 30 * MINUTE) });
    const base = (await stored(c.id)).departAt.getTime();
    try {
      await runSaleJob(deps());
      expect((await stored(c.id)).status).toBe(0);
      s.clock.set(new Date(now.getTime() + 31 * MINUTE));
      const opened = await runSaleJob(deps());
      expect(opened.open).toContain(c.id);
      expect((await stored(c.id)).status).toBe(1);
      expect((await runSaleJob(deps())).open).not.toContain(c.id);
      s.clock.set(new Date(base - 5 * MINUTE));
      expect((await runSaleJob(deps())).close).toContain(c.id);
      expect((await stored(c.id)).status).toBe(2);
      s.clock.set(new Date(base + MINUTE));
      const departed = await runSaleJob(deps());
      expect(departed.depart).toContain(c.id);
      expect((await stored(c.id)).status).toBe(3);
      const rows = await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'CUSTOM_CLASSES_DEPART'), gte(t.sysLog.createdAt, new Date(base))));
      expect(rows.some((r) => (r.after as { ids: number[] }).ids.includes(c.id))).toBe(true);
    } finally {
      s.clock.set(new Date());
    }
  });
});
