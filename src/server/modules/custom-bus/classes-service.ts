import { and, count, eq, gt, gte, inArray, lt, lte, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import * as api from '../../../shared/api/custom-bus/classes';
import { type BatchConflict, CLASSES_MAX_DAYS, daysBetween, secondsToTime } from '../../../shared/api/custom-bus/classes';
import { CLASSES_STATUS, TICKET_STATE } from '../../../shared/api/custom-bus/states';
import { fenToYuan } from '../../../shared/domain/money';
import { maskPhone } from '../../../shared/domain/mask';
import { addDays, shanghaiDate, shanghaiDateTime, shanghaiMidnight, timeOfDayToSeconds } from '../../../shared/domain/time';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { type Actor, audit } from '../../lib/audit';
import { fail, failOn, isUniqueViolation, notFound } from '../../lib/errors';
import { defineExport, listRows } from '../../lib/export-definition';
import { listService } from '../../lib/list';
import { checkVersion, nextVersion } from '../../lib/row-version';
import { assertInScope, inScope } from '../../lib/scope';
import { iso } from '../../lib/sql';
import { moveStatus } from '../../lib/transition';
import { customBaseOf } from '../custom-setting/read';
import { fleetProblems } from './fleet-service';
import { customCars, customClasses, customDrivers, customLines, customOrders, customTickets } from './schema';

type SaveBody = z.output<typeof api.classesSave.body>;
type BatchBody = z.output<typeof api.classesBatchSave.body>;
type StatusBody = z.output<typeof api.classesUpdateStatus.body>;
type AssignBody = z.output<typeof api.classesAssign.body>;
type Filters = z.output<typeof api.classesTotal.query>;
type ClassRow = typeof customClasses.$inferSelect;
type LineRow = typeof customLines.$inferSelect;
type Scope = Pick<AuthContext, 'districtScope'>;

const SYSTEM_ACTOR: Actor = { id: null, login: 'system', districtId: null, ip: null };
const MINUTE = 60_000;

// ---------------------------------------------------------------- reading

const columns = {
  c: customClasses,
  lineNo: customLines.lineNo,
  lineName: customLines.name,
  plateNo: customCars.plateNo,
  carSeats: customCars.seats,
  driverName: customDrivers.name,
};
type Selected = { c: ClassRow; lineNo: string; lineName: string; plateNo: string | null; carSeats: number | null; driverName: string | null };

const selectClasses = (db: Db) =>
  db
    .select(columns)
    .from(customClasses)
    .innerJoin(customLines, eq(customLines.id, customClasses.lineId))
    .leftJoin(customCars, eq(customCars.id, customClasses.carId))
    .leftJoin(customDrivers, eq(customDrivers.id, customClasses.driverId));

const classesDto = (r: Selected): api.ClassesRow => ({
  id: r.c.id,
  districtId: r.c.districtId,
  lineId: r.c.lineId,
  lineNo: r.lineNo,
  lineName: r.lineName,
  direction: r.c.direction,
  departDate: r.c.departDate,
  departTime: r.c.departTime,
  time: secondsToTime(r.c.departTime),
  departAt: iso(r.c.departAt),
  arriveAt: iso(r.c.arriveAt),
  publish: r.c.publish,
  stock: r.c.stock,
  held: r.c.held,
  sold: r.c.sold,
  price: r.c.price,
  saleOpenAt: iso(r.c.saleOpenAt),
  saleCloseAt: iso(r.c.saleCloseAt),
  carId: r.c.carId,
  plateNo: r.plateNo,
  carSeats: r.carSeats,
  driverId: r.c.driverId,
  driverName: r.driverName,
  status: CLASSES_STATUS.schema.parse(r.c.status),
  cancelReason: r.c.cancelReason,
  createdDate: iso(r.c.createdAt),
  updatedDate: iso(r.c.updatedAt),
  rowVersion: r.c.rowVersion,
});

/** 班次管理: the area's classes by line, day window, status, car and driver; by departure. */
const classesList = listService({
  endpoint: api.classesPage,
  select: selectClasses,
  count: (db) => db.select({ n: count() }).from(customClasses),
  scope: customClasses.districtId,
  filters: {
    lineId: (lineId) => eq(customClasses.lineId, lineId),
    dateFrom: (from) => gte(customClasses.departDate, from),
    dateTo: (to) => lte(customClasses.departDate, to),
    status: (status) => eq(customClasses.status, status),
    carId: (carId) => eq(customClasses.carId, carId),
    driverId: (driverId) => eq(customClasses.driverId, driverId),
  },
  sorts: { departAt: customClasses.departAt, sold: customClasses.sold, createdDate: customClasses.createdAt },
  order: { column: customClasses.departAt, dir: 'asc' },
  key: { column: customClasses.id, of: (r) => r.c.id },
  dto: (r) => classesDto(r),
});

/**
 * The 62-day window whatever is sent: the contract refuses a longer one when both ends are given; a
 * missing end is the other ±61 days (both missing: today and the next 61 days), so a page, its total
 * and its export are always bounded.
 */
export function boundedWindow<Q extends { dateFrom?: string | undefined; dateTo?: string | undefined }>(q: Q, now: Date): Q & { dateFrom: string; dateTo: string } {
  const span = CLASSES_MAX_DAYS - 1;
  const from = q.dateFrom ?? (q.dateTo ? addDays(q.dateTo, -span) : shanghaiDate(now));
  const to = q.dateTo ?? addDays(from, span);
  return { ...q, dateFrom: from, dateTo: to };
}

export const pageClasses = (deps: AppDeps, a: AuthContext, q: z.output<typeof api.classesPage.query>) => classesList.page(deps, a, boundedWindow(q, deps.clock.now()));

export async function classesTotals(deps: AppDeps, a: AuthContext, query: Filters) {
  const q = boundedWindow(query, deps.clock.now());
  const c = customClasses;
  const live = sql`${c.status} <> 4`;
  const [r] = await deps.db
    .select({
      classes: count(),
      seats: sql<number>`coalesce(sum(${c.publish}) filter (where ${live}), 0)`.mapWith(Number),
      held: sql<number>`coalesce(sum(${c.held}) filter (where ${live}), 0)`.mapWith(Number),
      sold: sql<number>`coalesce(sum(${c.sold}) filter (where ${live}), 0)`.mapWith(Number),
      stock: sql<number>`coalesce(sum(${c.stock}) filter (where ${live}), 0)`.mapWith(Number),
      pending: sql<number>`count(*) filter (where ${c.status} = 0)`.mapWith(Number),
      onSale: sql<number>`count(*) filter (where ${c.status} = 1)`.mapWith(Number),
      stopped: sql<number>`count(*) filter (where ${c.status} = 2)`.mapWith(Number),
      departed: sql<number>`count(*) filter (where ${c.status} = 3)`.mapWith(Number),
      cancelled: sql<number>`count(*) filter (where ${c.status} = 4)`.mapWith(Number),
      unassigned: sql<number>`count(*) filter (where ${c.status} in (0, 1, 2) and (${c.carId} is null or ${c.driverId} is null))`.mapWith(Number),
    })
    .from(c)
    .where(classesList.where(deps, a, q));
  const x = r ?? { classes: 0, seats: 0, held: 0, sold: 0, stock: 0, pending: 0, onSale: 0, stopped: 0, departed: 0, cancelled: 0, unassigned: 0 };
  return { ...x, loadRate: x.seats > 0 ? Math.round((x.sold * 1000) / x.seats) : null };
}

const DIRECTION_LABEL = ['上行', '下行'] as const;

export const classesExportKind = defineExport({
  id: 'customBus.classes',
  permission: api.classesExport.permission,
  sheet: '班次',
  columns: [
    { header: '班次ID', width: 8, cell: (c: api.ClassesRow) => c.id },
    { header: '线路编号', width: 10, cell: (c) => c.lineNo },
    { header: '线路名称', width: 16, cell: (c) => c.lineName },
    { header: '方向', width: 6, cell: (c) => DIRECTION_LABEL[c.direction] ?? '' },
    { header: '发车日期', width: 12, cell: (c) => c.departDate },
    { header: '发车时刻', width: 8, cell: (c) => c.time },
    { header: '到达时间', width: 20, cell: (c) => shanghaiDateTime(c.arriveAt) },
    { header: '发行座位', width: 8, cell: (c) => c.publish },
    { header: '已售', width: 6, cell: (c) => c.sold },
    { header: '锁定', width: 6, cell: (c) => c.held },
    { header: '余票', width: 6, cell: (c) => c.stock },
    { header: '票价（元）', width: 10, cell: (c) => c.price / 100 },
    { header: '车牌号', width: 10, cell: (c) => c.plateNo ?? '' },
    { header: '司机', width: 8, cell: (c) => c.driverName ?? '' },
    { header: '开售时间', width: 20, cell: (c) => shanghaiDateTime(c.saleOpenAt) },
    { header: '停售时间', width: 20, cell: (c) => shanghaiDateTime(c.saleCloseAt) },
    { header: '状态', width: 8, cell: (c) => CLASSES_STATUS.label(c.status) },
    { header: '取消原因', width: 16, cell: (c) => c.cancelReason ?? '' },
  ],
  rows: listRows(classesList, (q: Filters) => q),
  audit: { operation: 'CUSTOM_EXPORT' },
});

export const classesExportTitle = (q: Filters) => ['班次', q.dateFrom && q.dateTo ? `${q.dateFrom}至${q.dateTo}` : '', q.status !== undefined ? CLASSES_STATUS.label(q.status) : ''].filter(Boolean).join(' ');

async function loadClass(db: Db, id: number) {
  const [r] = await selectClasses(db).where(eq(customClasses.id, id));
  if (!r) throw notFound('班次不存在');
  return classesDto(r);
}

export async function classesById(deps: AppDeps, a: AuthContext, id: number) {
  const row = await loadClass(deps.db, id);
  assertInScope(a, row.districtId);
  const tickets = await deps.db
    .select({ k: customTickets, orderNo: customOrders.orderNo, phoneEnc: t.riders.phoneEnc })
    .from(customTickets)
    .innerJoin(customOrders, eq(customOrders.id, customTickets.orderId))
    .leftJoin(t.riders, eq(t.riders.id, customOrders.riderId))
    .where(eq(customTickets.classesId, id))
    .orderBy(customTickets.id);
  const passengers = tickets.map((r) => ({
    ticketNo: r.k.ticketNo,
    orderNo: r.orderNo,
    riderPhone: r.phoneEnc ? maskPhone(deps.pii.decrypt(r.phoneEnc)) : null,
    state: TICKET_STATE.schema.parse(r.k.state),
    amount: r.k.amount,
    refundedAmount: r.k.refundedAmount,
    checkedAt: r.k.checkedAt ? iso(r.k.checkedAt) : null,
    checkPlateNo: r.k.checkPlateNo,
    checkMethod: r.k.checkMethod,
  }));
  return { ...row, passengers, checked: passengers.filter((p) => p.state === 2).length, unchecked: passengers.filter((p) => p.state === 1).length };
}

// ---------------------------------------------------------------- times and windows

/** A leg's running time in seconds: the line's times of that direction (a leg past midnight wraps), at least 10 minutes. */
export function legSeconds(line: Pick<LineRow, 'direction' | 'departTime' | 'arriveTime' | 'returnDepartTime' | 'returnArriveTime'>, direction: 0 | 1) {
  const back = direction === 1 && line.direction === -1;
  const from = back ? (line.returnDepartTime ?? line.departTime) : line.departTime;
  const to = back ? (line.returnArriveTime ?? line.arriveTime) : line.arriveTime;
  const d = (to - from + 86_400) % 86_400;
  return Math.max(d, 600);
}

/** The instants a class of `line` on Shanghai day `date` at `seconds` departs and arrives. */
export function slotInstants(line: Parameters<typeof legSeconds>[0], direction: 0 | 1, date: string, seconds: number) {
  const departAt = new Date(shanghaiMidnight(date).getTime() + seconds * 1000);
  return { departAt, arriveAt: new Date(departAt.getTime() + legSeconds(line, direction) * 1000) };
}

export interface SaleBase {
  saleDaysAhead: number;
  saleOpenTime: number;
  stopSaleMinBefore: number;
}

/**
 * 定制公交设置's base settings decide a class's sale: it opens `saleDaysAhead` days before its day at
 * `saleOpenTime`, and closes `stopSaleMinBefore` minutes before departure. A window the settings
 * leave empty (opening after closing) opens a minute before it closes, so the check holds.
 */
export function saleWindow(base: SaleBase, date: string, departAt: Date) {
  const close = new Date(departAt.getTime() - base.stopSaleMinBefore * MINUTE);
  let open = new Date(shanghaiMidnight(addDays(date, -base.saleDaysAhead)).getTime() + base.saleOpenTime * 1000);
  if (open.getTime() >= close.getTime()) open = new Date(close.getTime() - MINUTE);
  return { saleOpenAt: open, saleCloseAt: close };
}

/** Where a new class starts: on sale when its window is open now, 停售 when it has passed, else 待售. */
export const statusAt = (w: { saleOpenAt: Date; saleCloseAt: Date }, now: Date) => (now < w.saleOpenAt ? 0 : now < w.saleCloseAt ? 1 : 2);

/** A class of a line not 已上架 (草稿, 已下架) waits 待售 whatever its window: the job opens it once the line is listed. */
export const startStatus = (line: { status: number }, w: { saleOpenAt: Date; saleCloseAt: Date }, now: Date) => (line.status === 1 ? statusAt(w, now) : 0);

/** Days of `from`..`to` whose ISO weekday (1 周一 … 7 周日) is in `weekdays`. */
export function daysOf(from: string, to: string, weekdays: readonly number[]) {
  const days: string[] = [];
  const want = new Set(weekdays);
  for (let d = from; d <= to; d = addDays(d, 1)) {
    const wd = new Date(`${d}T00:00:00Z`).getUTCDay() || 7;
    if (want.has(wd)) days.push(d);
  }
  return days;
}

// ---------------------------------------------------------------- clashes

interface Busy {
  id: number;
  departAt: Date;
  arriveAt: Date;
  departDate: string;
  departTime: number;
  lineName: string;
}

/** A car's or a driver's live classes touching [from, to), with their lines' names. */
async function busyOf(db: Db, column: 'car' | 'driver', ownerId: number, from: Date, to: Date, except?: number): Promise<Busy[]> {
  const col = column === 'car' ? customClasses.carId : customClasses.driverId;
  return db
    .select({ id: customClasses.id, departAt: customClasses.departAt, arriveAt: customClasses.arriveAt, departDate: customClasses.departDate, departTime: customClasses.departTime, lineName: customLines.name })
    .from(customClasses)
    .innerJoin(customLines, eq(customLines.id, customClasses.lineId))
    .where(and(eq(col, ownerId), ne(customClasses.status, 4), lt(customClasses.departAt, to), gt(customClasses.arriveAt, from), except ? ne(customClasses.id, except) : undefined))
    .orderBy(customClasses.departAt);
}

const overlaps = (a: { departAt: Date; arriveAt: Date }, b: { departAt: Date; arriveAt: Date }) => a.departAt.getTime() < b.arriveAt.getTime() && b.departAt.getTime() < a.arriveAt.getTime();
const carClash = (plate: string, b: Pick<Busy, 'departDate' | 'departTime' | 'lineName'>) => `车辆${plate}在${b.departDate} ${secondsToTime(b.departTime)}已有班次（${b.lineName}），时间冲突`;
const DRIVER_CLASH = '该司机在该时段已有班次';
const slotTaken = (date: string, time: string) => `该线路${date} ${time}已有班次`;
const PAST = '发车时间不能早于当前时间';

/** Exclusion-constraint violation (PostgreSQL's 23P01): the other dispatcher's assignment won. */
function exclusionOf(err: unknown): 'car' | 'driver' | null {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const x = e as { code?: unknown; constraint?: unknown; message?: unknown };
    if (x.code === '23P01') return String(x.constraint ?? x.message ?? '').includes('driver') ? 'driver' : 'car';
  }
  return null;
}

/** The car and the driver, locked (`for update`) so two schedulers of one car or one driver take turns, in the class's district. */
async function lockFleet(tx: Db, districtId: number, carId: number | null | undefined, driverId: number | null | undefined) {
  let car: typeof customCars.$inferSelect | null = null;
  let driver: typeof customDrivers.$inferSelect | null = null;
  if (carId) {
    [car = null] = await tx.select().from(customCars).where(eq(customCars.id, carId)).for('update');
    if (!car || car.districtId !== districtId) throw failOn('carId', '车辆不存在或不属于该线路的区域');
  }
  if (driverId) {
    [driver = null] = await tx.select().from(customDrivers).where(eq(customDrivers.id, driverId)).for('update');
    if (!driver || driver.districtId !== districtId) throw failOn('driverId', '司机不存在或不属于该线路的区域');
  }
  return { car, driver };
}

async function readFleet(db: Db, districtId: number, carId: number | null | undefined, driverId: number | null | undefined) {
  const car = carId ? ((await db.select().from(customCars).where(eq(customCars.id, carId)))[0] ?? null) : null;
  const driver = driverId ? ((await db.select().from(customDrivers).where(eq(customDrivers.id, driverId)))[0] ?? null) : null;
  if (carId && (!car || car.districtId !== districtId)) throw failOn('carId', '车辆不存在或不属于该线路的区域');
  if (driverId && (!driver || driver.districtId !== districtId)) throw failOn('driverId', '司机不存在或不属于该线路的区域');
  return { car, driver };
}

async function lineFor(db: Db, a: Scope, lineId: number, direction: 0 | 1) {
  const [line] = await db.select().from(customLines).where(eq(customLines.id, lineId));
  if (!line) throw failOn('lineId', '线路不存在');
  assertInScope(a, line.districtId);
  if (line.status === 2) throw failOn('lineId', '线路已下架，不能排班');
  if (line.direction !== -1 && line.direction !== direction) throw failOn('direction', `该线路只有${DIRECTION_LABEL[line.direction as 0 | 1]}方向`);
  return line;
}

// ---------------------------------------------------------------- batch scheduling

interface Slot {
  date: string;
  time: string;
  seconds: number;
  departAt: Date;
  arriveAt: Date;
}

/**
 * Every conflict of a batch, per slot: the line's slot taken, a departure in the past, the car's or
 * the driver's other classes (and the batch's own slots) overlapping, the fleet's problems on that
 * day. Reads only; called outside a transaction for the dry run and inside the writing one (after
 * the car and driver rows are locked) for the real run.
 */
async function conflictsOf(db: Db, line: LineRow, b: BatchBody, slots: Slot[], fleet: Awaited<ReturnType<typeof readFleet>>, now: Date): Promise<BatchConflict[]> {
  if (!slots.length) return [];
  const first = slots[0]!;
  const last = slots[slots.length - 1]!;
  const taken = new Set(
    (
      await db
        .select({ d: customClasses.departDate, s: customClasses.departTime })
        .from(customClasses)
        .where(and(eq(customClasses.lineId, line.id), eq(customClasses.direction, b.direction), ne(customClasses.status, 4), gte(customClasses.departDate, first.date), lte(customClasses.departDate, last.date)))
    ).map((r) => `${r.d} ${r.s}`),
  );
  const from = first.departAt;
  const to = slots.reduce((m, s) => (s.arriveAt > m ? s.arriveAt : m), last.arriveAt);
  const carBusy = fleet.car ? await busyOf(db, 'car', fleet.car.id, from, to) : [];
  const driverBusy = fleet.driver ? await busyOf(db, 'driver', fleet.driver.id, from, to) : [];
  const problemsByDay = new Map<string, string[]>();
  if (fleet.car || fleet.driver) {
    const problemsOn = (s: Slot) => fleetProblems(db, { carId: fleet.car?.id, driverId: fleet.driver?.id, departAt: s.departAt, arriveAt: s.arriveAt, departDate: s.date, publish: b.publish });
    // The fleet's problems only grow with the day (papers lapse; repair and seats do not depend on it):
    // the same on the first and the last day means the same on every day between, one check for all.
    const [head, tail] = [await problemsOn(first), await problemsOn(last)];
    const days = [...new Map(slots.map((s) => [s.date, s])).values()];
    if (head.join('\n') === tail.join('\n')) for (const s of days) problemsByDay.set(s.date, head);
    else for (const s of days) problemsByDay.set(s.date, await problemsOn(s));
  }
  const out: BatchConflict[] = [];
  slots.forEach((s, i) => {
    const reasons: string[] = [];
    if (taken.has(`${s.date} ${s.seconds}`)) reasons.push(slotTaken(s.date, s.time));
    if (s.departAt <= now) reasons.push(PAST);
    if (fleet.car) {
      const hit = carBusy.find((x) => overlaps(x, s));
      // The batch's own earlier slots hold the car too (07:30 and 08:00 on a 60-minute leg). Slots run
      // in departure order with one leg time, so the one before arrives last: only it can overlap.
      const self = i > 0 && overlaps(slots[i - 1]!, s) ? slots[i - 1] : undefined;
      if (hit) reasons.push(carClash(fleet.car.plateNo, hit));
      else if (self) reasons.push(carClash(fleet.car.plateNo, { departDate: self.date, departTime: self.seconds, lineName: line.name }));
    }
    if (fleet.driver && (driverBusy.some((x) => overlaps(x, s)) || (i > 0 && overlaps(slots[i - 1]!, s)))) reasons.push(DRIVER_CLASH);
    reasons.push(...(problemsByDay.get(s.date) ?? []));
    if (reasons.length) out.push({ date: s.date, time: s.time, reasons: [...new Set(reasons)] });
  });
  return out;
}

/**
 * 批量排班: the slots of a line's direction over ≤ 62 days × the chosen weekdays × the times. A dry
 * run answers every conflict and writes nothing; the real run locks the car and the driver, checks
 * again, and writes every class or none (one transaction, one CUSTOM_CLASSES_BATCH audit row). Two
 * batches over the same slots: the slot's unique index lets one commit; the other is refused whole.
 */
export async function batchSave(deps: AppDeps, a: AuthContext, b: BatchBody) {
  const now = deps.clock.now();
  if (daysBetween(b.dateFrom, b.dateTo) > CLASSES_MAX_DAYS) throw failOn('dateTo', `批量排班一次最多${CLASSES_MAX_DAYS}天`);
  const line = await lineFor(deps.db, a, b.lineId, b.direction);
  const price = b.price ?? line.price;
  const base = await customBaseOf(deps.db, line.districtId);
  const times = [...b.times].sort();
  const slots: Slot[] = daysOf(b.dateFrom, b.dateTo, b.weekdays).flatMap((date) =>
    times.map((time) => {
      const seconds = timeOfDayToSeconds(time);
      return { date, time, seconds, ...slotInstants(line, b.direction, date, seconds) };
    }),
  );
  if (!slots.length) throw failOn('weekdays', '所选日期范围内没有所选的星期');
  if (b.dryRun) {
    const fleet = await readFleet(deps.db, line.districtId, b.carId, b.driverId);
    return { dryRun: true, slots: slots.length, conflicts: await conflictsOf(deps.db, line, b, slots, fleet, now), ids: [] };
  }
  try {
    return await deps.db.transaction(async (tx) => {
      const fleet = await lockFleet(tx, line.districtId, b.carId, b.driverId);
      const conflicts = await conflictsOf(tx, line, b, slots, fleet, now);
      if (conflicts.length) throw fail(`有${conflicts.length}个班次存在冲突，未保存：${conflicts[0]!.date} ${conflicts[0]!.time} ${conflicts[0]!.reasons[0]}`, { conflicts });
      const rows = slots.map((s) => {
        const w = saleWindow(base, s.date, s.departAt);
        return {
          districtId: line.districtId,
          lineId: line.id,
          direction: b.direction,
          departDate: s.date,
          departTime: s.seconds,
          departAt: s.departAt,
          arriveAt: s.arriveAt,
          publish: b.publish,
          stock: b.publish,
          price,
          ...w,
          carId: fleet.car?.id ?? null,
          driverId: fleet.driver?.id ?? null,
          status: startStatus(line, w, now),
          createdBy: a.user.id,
          createdAt: now,
          updatedAt: now,
        };
      });
      const ids: number[] = [];
      for (let i = 0; i < rows.length; i += 500) ids.push(...(await tx.insert(customClasses).values(rows.slice(i, i + 500)).returning({ id: customClasses.id })).map((r) => r.id));
      await audit(
        tx,
        a.actor,
        {
          type: 'CUSTOM_CLASSES_BATCH',
          targetDistrictId: line.districtId,
          target: `custom-line/${line.id}`,
          summary: `批量排班「${line.name}」${DIRECTION_LABEL[b.direction]}：${b.dateFrom}至${b.dateTo}，${times.join('、')}，共${ids.length}个班次，每班${b.publish}座，票价${fenToYuan(price)}元${fleet.car ? `，车辆${fleet.car.plateNo}` : ''}${fleet.driver ? `，司机${fleet.driver.name}` : ''}`,
          after: { lineId: line.id, direction: b.direction, dateFrom: b.dateFrom, dateTo: b.dateTo, weekdays: b.weekdays, times, publish: b.publish, price, carId: fleet.car?.id ?? null, driverId: fleet.driver?.id ?? null, ids: [ids[0], ids[ids.length - 1]], count: ids.length },
        },
        now,
      );
      return { dryRun: false, slots: slots.length, conflicts: [], ids };
    });
  } catch (err) {
    throw translate(err, () => slotTaken(b.dateFrom === b.dateTo ? b.dateFrom : `${b.dateFrom}至${b.dateTo}`, times.join('、')), b.carId ?? null);
  }
}

/** A race lost to another writer, in the operator's words: a slot taken, or the car or driver taken (the exclusion constraint). */
function translate(err: unknown, slot: () => string, carId: number | null): unknown {
  if (isUniqueViolation(err)) return fail(slot());
  const ex = exclusionOf(err);
  if (ex === 'driver') return failOn('driverId', DRIVER_CLASH);
  if (ex === 'car') return failOn('carId', `车辆${carId ? `（ID ${carId}）` : ''}在该时段已有班次，时间冲突`);
  return err;
}

// ---------------------------------------------------------------- one class

async function lockClass(tx: Db, a: Scope, id: number) {
  const [row] = await tx.select().from(customClasses).where(eq(customClasses.id, id)).for('update');
  if (!row) throw notFound('班次不存在');
  assertInScope(a, row.districtId);
  return row;
}

/**
 * 新增/编辑一个班次. New: the slot free, not in the past. Edit (待售/售票中/停售 only): the seats never
 * below what is sold and held (发行数量不能少于已售和锁定的座位数), never above the car's; a class
 * anyone has bought keeps its day, time and price (the tickets say them).
 */
export async function saveClass(deps: AppDeps, a: AuthContext, b: SaveBody) {
  const now = deps.clock.now();
  const line = await lineFor(deps.db, a, b.lineId, b.direction);
  const seconds = timeOfDayToSeconds(b.departTime);
  const at = slotInstants(line, b.direction, b.departDate, seconds);
  const base = await customBaseOf(deps.db, line.districtId);
  const w = saleWindow(base, b.departDate, at.departAt);
  const price = b.price ?? line.price;
  try {
    return await deps.db.transaction(async (tx) => {
      if (b.id === undefined) {
        if (at.departAt <= now) throw failOn('departTime', PAST);
        const [row] = await tx
          .insert(customClasses)
          .values({ districtId: line.districtId, lineId: line.id, direction: b.direction, departDate: b.departDate, departTime: seconds, ...at, publish: b.publish, stock: b.publish, price, ...w, status: startStatus(line, w, now), createdBy: a.user.id, createdAt: now, updatedAt: now })
          .returning({ id: customClasses.id });
        const after = await loadClass(tx, row!.id);
        await audit(tx, a.actor, { type: 'CUSTOM_CLASSES_SAVE', targetDistrictId: line.districtId, target: `custom-classes/${row!.id}`, summary: `新增班次「${line.name}」${b.departDate} ${b.departTime}，${b.publish}座`, after }, now);
        return after;
      }
      // The car and driver first, then the class: the order 排班 keeps, so an edit and a dispatch of
      // the same class never wait on each other's locks (a deadlock on PostgreSQL). The class's car and
      // driver are peeked without a lock and checked again once the class is locked.
      const [peek] = await tx.select({ districtId: customClasses.districtId, carId: customClasses.carId, driverId: customClasses.driverId }).from(customClasses).where(eq(customClasses.id, b.id));
      if (!peek) throw notFound('班次不存在');
      assertInScope(a, peek.districtId);
      const { car, driver } = await lockFleet(tx, peek.districtId, peek.carId, peek.driverId);
      const row = await lockClass(tx, a, b.id);
      const before = await loadClass(tx, row.id);
      await checkVersion(row, b.rowVersion, () => before);
      if (row.carId !== peek.carId || row.driverId !== peek.driverId) throw fail('班次的车辆或司机刚被修改，请刷新后重试');
      if (row.status > 2) throw fail(`班次${CLASSES_STATUS.label(row.status as 3 | 4)}，不能修改`);
      if (row.lineId !== line.id || row.direction !== b.direction) throw failOn('lineId', '班次的线路和方向不能修改，请取消后重新排班');
      const moved = row.departDate !== b.departDate || row.departTime !== seconds;
      const taken = row.sold + row.held;
      if ((moved || price !== row.price) && taken > 0) throw fail('已有乘客购票的班次不能修改日期、时刻和票价');
      if (moved && at.departAt <= now) throw failOn('departTime', PAST);
      if (b.publish < taken) throw failOn('publish', `发行数量不能少于已售和锁定的座位数（${taken}）`);
      if (car && b.publish > car.seats) throw failOn('publish', `发行数量不能超过车辆核载座位数（${car.seats}）`);
      if (moved && (car || driver)) {
        const hit = car ? (await busyOf(tx, 'car', car.id, at.departAt, at.arriveAt, row.id))[0] : undefined;
        if (car && hit) throw failOn('departTime', carClash(car.plateNo, hit));
        if (driver && (await busyOf(tx, 'driver', driver.id, at.departAt, at.arriveAt, row.id)).length) throw failOn('departTime', DRIVER_CLASH);
      }
      await tx
        .update(customClasses)
        .set({ departDate: b.departDate, departTime: seconds, ...at, publish: b.publish, stock: b.publish - taken, price, ...(moved ? w : {}), updatedAt: now, rowVersion: nextVersion(customClasses.rowVersion) })
        .where(eq(customClasses.id, row.id));
      const after = await loadClass(tx, row.id);
      await audit(tx, a.actor, { type: 'CUSTOM_CLASSES_SAVE', targetDistrictId: row.districtId, target: `custom-classes/${row.id}`, summary: `编辑班次「${line.name}」${b.departDate} ${b.departTime}，${b.publish}座`, before, after }, now);
      return after;
    });
  } catch (err) {
    throw translate(err, () => slotTaken(b.departDate, b.departTime), null);
  }
}

/**
 * 开售 0→1, 停售 1→2, 恢复 2→1 (before saleCloseAt): the operator's moves; 已发车 is the job's and
 * 取消 has its own call with refunds.
 */
export async function updateClassStatus(deps: AppDeps, a: AuthContext, b: StatusBody) {
  const now = deps.clock.now();
  const allowed = (b.fromStatus === 0 && b.toStatus === 1) || (b.fromStatus === 1 && b.toStatus === 2) || (b.fromStatus === 2 && b.toStatus === 1);
  if (!allowed) throw failOn('toStatus', b.toStatus === 4 ? '取消班次请使用「取消班次」' : '只能开售、停售或恢复售票');
  return deps.db.transaction(async (tx) => {
    const row = await lockClass(tx, a, b.id);
    const what = `班次${row.departDate} ${secondsToTime(row.departTime)}`;
    if (row.status === b.fromStatus && b.toStatus === 1) {
      const [line] = await tx.select({ status: customLines.status }).from(customLines).where(eq(customLines.id, row.lineId));
      if (line?.status !== 1) throw fail('线路未上架，不能售票');
      if (row.departAt <= now) throw fail('班次已到发车时间，不能售票');
      if (row.saleCloseAt <= now) throw fail('已过停售时间，不能恢复售票');
    }
    const { from } = await moveStatus(tx, {
      flow: CLASSES_STATUS,
      table: customClasses,
      key: customClasses.id,
      id: row.id,
      status: customClasses.status,
      from: b.fromStatus,
      to: b.toStatus,
      set: { status: b.toStatus, updatedAt: now },
      what,
      version: { column: customClasses.rowVersion, sent: b.rowVersion, current: () => loadClass(tx, row.id) },
    });
    const after = await loadClass(tx, row.id);
    const verb = b.toStatus === 2 ? '停售' : from === 2 ? '恢复售票' : '开售';
    await audit(tx, a.actor, { type: 'CUSTOM_CLASSES_STATUS', targetDistrictId: row.districtId, target: `custom-classes/${row.id}`, summary: `${verb}「${after.lineName}」${what}`, before: { status: from }, after: { status: after.status } }, now);
    return after;
  });
}

/**
 * 排班: a car and a driver (either may be cleared with null) for a class not yet departed. The car and
 * the driver rows are locked first, so two dispatchers giving one car overlapping classes take turns
 * and the second sees the first's class; on PostgreSQL the exclusion constraints hold it too.
 */
export async function assignClass(deps: AppDeps, a: AuthContext, b: AssignBody) {
  const now = deps.clock.now();
  try {
    return await deps.db.transaction(async (tx) => {
      const [peek] = await tx.select({ districtId: customClasses.districtId }).from(customClasses).where(eq(customClasses.id, b.id));
      if (!peek) throw notFound('班次不存在');
      assertInScope(a, peek.districtId);
      const { car, driver } = await lockFleet(tx, peek.districtId, b.carId, b.driverId);
      const row = await lockClass(tx, a, b.id);
      const before = await loadClass(tx, row.id);
      await checkVersion(row, b.rowVersion, () => before);
      if (row.status > 2) throw fail(`班次${CLASSES_STATUS.label(row.status as 3 | 4)}，不能排班`);
      if (car) {
        const hit = (await busyOf(tx, 'car', car.id, row.departAt, row.arriveAt, row.id))[0];
        if (hit) throw failOn('carId', carClash(car.plateNo, hit));
      }
      if (driver && (await busyOf(tx, 'driver', driver.id, row.departAt, row.arriveAt, row.id)).length) throw failOn('driverId', DRIVER_CLASH);
      const problems = await fleetProblems(tx, { carId: car?.id, driverId: driver?.id, departAt: row.departAt, arriveAt: row.arriveAt, departDate: row.departDate, publish: row.publish });
      if (problems.length) throw fail(problems.join('；'), { problems });
      await tx
        .update(customClasses)
        .set({ carId: car?.id ?? null, driverId: driver?.id ?? null, updatedAt: now, rowVersion: nextVersion(customClasses.rowVersion) })
        .where(eq(customClasses.id, row.id));
      const after = await loadClass(tx, row.id);
      await audit(
        tx,
        a.actor,
        {
          type: 'CUSTOM_CLASSES_ASSIGN',
          targetDistrictId: row.districtId,
          target: `custom-classes/${row.id}`,
          summary: `排班「${after.lineName}」${row.departDate} ${after.time}：车辆${car?.plateNo ?? '无'}，司机${driver?.name ?? '无'}`,
          before: { carId: before.carId, driverId: before.driverId },
          after: { carId: after.carId, driverId: after.driverId },
        },
        now,
      );
      return after;
    });
  } catch (err) {
    throw translate(err, () => '班次时段冲突', b.carId);
  }
}

// ---------------------------------------------------------------- the job classes.sale

type Move = 'open' | 'close' | 'depart';

/**
 * One batch of one move, each row once by `for update skip locked` (instances share the work):
 * 0→1 at saleOpenAt, 1→2 at saleCloseAt, 1/2→3 at departAt. One audit row per district per batch
 * names the classes moved (a day's sale opens are scheduled outcomes, not decisions; a row per class
 * would bury the log).
 */
async function moveDue(deps: Pick<AppDeps, 'db' | 'clock'>, move: Move, batch = 500): Promise<number[]> {
  const now = deps.clock.now();
  const c = customClasses;
  // A class opens only while its line is 已上架: a draft or off-sale line's classes wait.
  const listed = inArray(c.lineId, deps.db.select({ id: customLines.id }).from(customLines).where(eq(customLines.status, 1)));
  const due = move === 'open' ? and(eq(c.status, 0), lte(c.saleOpenAt, now), listed) : move === 'close' ? and(eq(c.status, 1), lte(c.saleCloseAt, now)) : and(inArray(c.status, [1, 2]), lte(c.departAt, now));
  return deps.db.transaction(async (tx) => {
    const rows = await tx.select({ id: c.id, districtId: c.districtId, status: c.status }).from(c).where(due).orderBy(c.id).limit(batch).for('update', { skipLocked: true });
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id);
    const to = move === 'open' ? 1 : move === 'close' ? 2 : 3;
    await tx
      .update(c)
      .set({ status: to, updatedAt: now })
      .where(and(inArray(c.id, ids), due));
    const byDistrict = new Map<number, number[]>();
    for (const r of rows) byDistrict.set(r.districtId, [...(byDistrict.get(r.districtId) ?? []), r.id]);
    const verb = move === 'open' ? '到开售时间，开始售票' : move === 'close' ? '到停售时间，停止售票' : '已发车';
    for (const [districtId, list] of byDistrict) {
      await audit(
        tx,
        SYSTEM_ACTOR,
        { type: move === 'depart' ? 'CUSTOM_CLASSES_DEPART' : 'CUSTOM_CLASSES_STATUS', targetDistrictId: districtId, target: list.length === 1 ? `custom-classes/${list[0]}` : null, summary: `${list.length}个班次${verb}`, after: { status: to, ids: list } },
        now,
      );
    }
    return ids;
  });
}

/** The job classes.sale: every due move in turn (a class missed for a while opens, closes and departs in one run). */
export async function runSaleJob(deps: Pick<AppDeps, 'db' | 'clock'>) {
  const done: Record<Move, number[]> = { open: [], close: [], depart: [] };
  for (const move of ['open', 'close', 'depart'] as const) {
    for (let ids = await moveDue(deps, move); ids.length; ids = await moveDue(deps, move)) done[move].push(...ids);
  }
  return done;
}

// ---------------------------------------------------------------- options

/** The area's lines (not 已下架), cars and drivers, for the batch form, 排班 and the palette. */
export async function classesOptions(deps: AppDeps, a: AuthContext) {
  const lines = await deps.db
    .select({ id: customLines.id, districtId: customLines.districtId, lineNo: customLines.lineNo, name: customLines.name, direction: customLines.direction, departTime: customLines.departTime, returnDepartTime: customLines.returnDepartTime, defaultSeats: customLines.defaultSeats, price: customLines.price, status: customLines.status })
    .from(customLines)
    .where(and(ne(customLines.status, 2), inScope(a, customLines.districtId)))
    .orderBy(customLines.sort, customLines.lineNo);
  const cars = await deps.db
    .select({ id: customCars.id, districtId: customCars.districtId, plateNo: customCars.plateNo, seats: customCars.seats, status: customCars.status, inspectionUntil: customCars.inspectionUntil })
    .from(customCars)
    .where(and(ne(customCars.status, 0), inScope(a, customCars.districtId)))
    .orderBy(customCars.plateNo);
  const drivers = await deps.db
    .select({ id: customDrivers.id, districtId: customDrivers.districtId, name: customDrivers.name, status: customDrivers.status, licenceUntil: customDrivers.licenceUntil })
    .from(customDrivers)
    .where(and(ne(customDrivers.status, 0), inScope(a, customDrivers.districtId)))
    .orderBy(customDrivers.name, customDrivers.id);
  return { lines, cars, drivers };
}
