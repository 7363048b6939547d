import { and, count, eq, gt, ne, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import * as fleet from '../../../shared/api/custom-bus/fleet';
import { EXPIRY_WARN_DAYS, isDriverIdNo, isMobile, normalisePlate } from '../../../shared/api/custom-bus/fleet';
import { CAR_STATUS, DRIVER_STATUS } from '../../../shared/api/custom-bus/states';
import type { StatusFlow } from '../../../shared/frame/status-flow';
import { maskCitizenId, maskPhone } from '../../../shared/domain/mask';
import { DAY_MS, addDays, shanghaiDate, shanghaiDateTime } from '../../../shared/domain/time';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { type OperationType, audit } from '../../lib/audit';
import { fail, failOn, notFound, uniqueOr } from '../../lib/errors';
import { type ExportScope, defineExport, listRows } from '../../lib/export-definition';
import { type ListContext, listService } from '../../lib/list';
import { checkVersion, nextVersion } from '../../lib/row-version';
import { assertInScope } from '../../lib/scope';
import { contains, iso } from '../../lib/sql';
import { moveStatus } from '../../lib/transition';
import { customCars, customClasses, customDrivers, customLines } from './schema';

type Scope = Pick<AuthContext, 'districtScope'>;
type CarFilters = z.output<typeof fleet.carTotal.query>;
type DriverFilters = z.output<typeof fleet.driverTotal.query>;
type DriverExportFilters = z.output<typeof fleet.driverExport.query>;

/** Whole days from `from` to `to` (both YYYY-MM-DD): negative when `to` is before. */
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
const digits = (s: string) => s.replace(/[\s-]/g, '');
const hhmm = (seconds: number) => `${String(Math.floor(seconds / 3600)).padStart(2, '0')}:${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}`;

/**
 * The classes a car or a driver is on that have not departed and are not cancelled (the design's
 * `departAt > now and status <> 4`): what a 维修 / 停用 / 请假 move would strand.
 */
async function futureClassesOf(db: Db, now: Date, by: 'car' | 'driver', id: number, limit = 5) {
  const col = by === 'car' ? customClasses.carId : customClasses.driverId;
  const where = and(eq(col, id), gt(customClasses.departAt, now), ne(customClasses.status, 4));
  const [n] = await db.select({ n: count() }).from(customClasses).where(where);
  const rows = await db
    .select({ id: customClasses.id, lineNo: customLines.lineNo, departDate: customClasses.departDate, departTime: customClasses.departTime })
    .from(customClasses)
    .innerJoin(customLines, eq(customLines.id, customClasses.lineId))
    .where(where)
    .orderBy(customClasses.departAt, customClasses.id)
    .limit(limit);
  return { total: n?.n ?? 0, first: rows.map((r) => ({ id: r.id, lineNo: r.lineNo, departDate: r.departDate, departTime: hhmm(r.departTime) })) };
}

/** How many future classes each car (or driver) is on, once per page or export batch. */
function futureCounts(ctx: ListContext<ExportScope>, by: 'car' | 'driver'): Promise<Map<number, number>> {
  const key = `future-${by}`;
  let p = ctx.memo.get(key) as Promise<Map<number, number>> | undefined;
  if (!p) {
    const col = by === 'car' ? customClasses.carId : customClasses.driverId;
    p = ctx.deps.db
      .select({ id: col, n: count() })
      .from(customClasses)
      .where(and(sql`${col} is not null`, gt(customClasses.departAt, ctx.deps.clock.now()), ne(customClasses.status, 4)))
      .groupBy(col)
      .then((rows) => new Map(rows.map((r) => [r.id!, r.n])));
    ctx.memo.set(key, p);
  }
  return p;
}

const classesList = (c: { total: number; first: { lineNo: string; departDate: string; departTime: string }[] }) =>
  `${c.first.map((x) => `${x.lineNo} ${x.departDate.slice(5)} ${x.departTime}`).join('、')}${c.total > c.first.length ? ` 等${c.total}个` : ''}`;

// ---------------------------------------------------------------- cars

const carColumns = { c: customCars, districtName: t.districts.name };
type CarSelected = { c: typeof customCars.$inferSelect; districtName: string | null };
const selectCars = (db: Db) => db.select(carColumns).from(customCars).leftJoin(t.districts, eq(t.districts.id, customCars.districtId));

const carDto = (r: CarSelected, today: string, futureClasses: number) => ({
  id: r.c.id,
  districtId: r.c.districtId,
  districtName: r.districtName,
  plateNo: r.c.plateNo,
  seats: r.c.seats,
  model: r.c.model,
  company: r.c.company,
  status: CAR_STATUS.schema.parse(r.c.status),
  inspectionUntil: r.c.inspectionUntil,
  insuranceUntil: r.c.insuranceUntil,
  inspectionDays: daysBetween(today, r.c.inspectionUntil),
  insuranceDays: daysBetween(today, r.c.insuranceUntil),
  futureClasses,
  createdDate: iso(r.c.createdAt),
  updatedDate: iso(r.c.updatedAt),
  rowVersion: r.c.rowVersion,
});
export type CarDto = ReturnType<typeof carDto>;

/** The last day a warning covers: today + 30 (Shanghai). */
const warnUntil = (deps: Pick<AppDeps, 'clock'>) => addDays(shanghaiDate(deps.clock.now()), EXPIRY_WARN_DAYS);

const carList = listService({
  endpoint: fleet.carPage,
  select: selectCars,
  count: (db) => db.select({ n: count() }).from(customCars),
  scope: customCars.districtId,
  filters: {
    plateNo: (plate) => contains(customCars.plateNo, normalisePlate(plate)),
    company: (company) => contains(customCars.company, company),
    status: (status) => eq(customCars.status, status),
    expiring: (on, _q, _a, deps) => (on ? sql`least(${customCars.inspectionUntil}, ${customCars.insuranceUntil}) <= ${warnUntil(deps)}::date` : undefined),
  },
  sorts: { plateNo: customCars.plateNo, seats: customCars.seats, inspectionUntil: customCars.inspectionUntil, insuranceUntil: customCars.insuranceUntil, createdDate: customCars.createdAt },
  order: { column: customCars.createdAt, dir: 'desc' },
  key: { column: customCars.id, of: (r) => r.c.id },
  dto: async (r, ctx: ListContext<ExportScope>) => carDto(r, shanghaiDate(ctx.deps.clock.now()), (await futureCounts(ctx, 'car')).get(r.c.id) ?? 0),
});

export const pageCars = (deps: AppDeps, a: AuthContext, q: z.output<typeof fleet.carPage.query>) => carList.page(deps, a, q);

export async function carTotals(deps: AppDeps, a: AuthContext, q: CarFilters) {
  const c = customCars;
  const today = shanghaiDate(deps.clock.now());
  const soonest = sql`least(${c.inspectionUntil}, ${c.insuranceUntil})`;
  const [r] = await deps.db
    .select({
      total: count(),
      available: sql<number>`count(*) filter (where ${c.status} = 1)`.mapWith(Number),
      repair: sql<number>`count(*) filter (where ${c.status} = 2)`.mapWith(Number),
      disabled: sql<number>`count(*) filter (where ${c.status} = 0)`.mapWith(Number),
      seats: sql<number>`coalesce(sum(${c.seats}) filter (where ${c.status} = 1), 0)`.mapWith(Number),
      expiring: sql<number>`count(*) filter (where ${soonest} <= ${warnUntil(deps)}::date and ${soonest} >= ${today}::date)`.mapWith(Number),
      expired: sql<number>`count(*) filter (where ${soonest} < ${today}::date)`.mapWith(Number),
    })
    .from(c)
    .where(carList.where(deps, a, { ...q, status: undefined }));
  return { total: r?.total ?? 0, available: r?.available ?? 0, repair: r?.repair ?? 0, disabled: r?.disabled ?? 0, seats: r?.seats ?? 0, expiring: r?.expiring ?? 0, expired: r?.expired ?? 0 };
}

/** 年检 / 保险 / 驾驶证 in words: 已过期, N天后到期 within the warning, else the date. */
export const expiryWords = (until: string, days: number) => (days < 0 ? `${until}（已过期）` : days <= EXPIRY_WARN_DAYS ? `${until}（${days === 0 ? '今天' : `${days}天后`}到期）` : until);

export const carsExport = defineExport({
  id: 'customBus.cars',
  permission: fleet.carExport.permission,
  sheet: '车辆',
  columns: [
    { header: '车辆ID', width: 8, cell: (c: CarDto) => c.id },
    { header: '车牌号', width: 12, cell: (c) => c.plateNo },
    { header: '区域', width: 10, cell: (c) => c.districtName },
    { header: '座位数', width: 8, cell: (c) => c.seats },
    { header: '车型', width: 14, cell: (c) => c.model },
    { header: '所属公司', width: 16, cell: (c) => c.company },
    { header: '状态', width: 8, cell: (c) => CAR_STATUS.label(c.status) },
    { header: '年检有效期', width: 22, cell: (c) => expiryWords(c.inspectionUntil, c.inspectionDays) },
    { header: '保险有效期', width: 22, cell: (c) => expiryWords(c.insuranceUntil, c.insuranceDays) },
    { header: '未发车班次', width: 10, cell: (c) => c.futureClasses },
    { header: '更新时间', width: 20, cell: (c) => shanghaiDateTime(c.updatedDate) },
  ],
  rows: listRows(carList, (q: CarFilters) => q),
  audit: { operation: 'CUSTOM_EXPORT' },
});

export const carExportTitle = (q: CarFilters) => ['车辆', q.status !== undefined ? CAR_STATUS.label(q.status) : '', q.expiring ? '30天内到期' : ''].filter(Boolean).join(' ');

async function loadCar(deps: Pick<AppDeps, 'clock'>, db: Db, id: number) {
  const [r] = await selectCars(db).where(eq(customCars.id, id));
  if (!r) throw notFound('车辆不存在');
  const now = deps.clock.now();
  const future = await futureClassesOf(db, now, 'car', id, 0);
  return carDto(r, shanghaiDate(now), future.total);
}

export async function carById(deps: AppDeps, a: AuthContext, id: number) {
  const c = await loadCar(deps, deps.db, id);
  assertInScope(a, c.districtId);
  return c;
}

async function lockCar(tx: Db, a: Scope, id: number) {
  const [row] = await tx.select().from(customCars).where(eq(customCars.id, id)).for('update');
  if (!row) throw notFound('车辆不存在');
  assertInScope(a, row.districtId);
  return row;
}

const PLATE_TAKEN = { field: 'plateNo', msg: '车牌号已存在' };

/**
 * 新增车辆 / 编辑车辆. A car's seats may not fall below what a class it is on already issues (the
 * scheduling rule 发行数量不能超过车辆核载座位数 read from the other side).
 */
export async function saveCar(deps: AppDeps, a: AuthContext, body: z.output<typeof fleet.carSave.body>) {
  const now = deps.clock.now();
  const fields = { plateNo: body.plateNo, seats: body.seats, model: body.model, company: body.company, inspectionUntil: body.inspectionUntil, insuranceUntil: body.insuranceUntil };
  return uniqueOr(PLATE_TAKEN, () =>
    deps.db.transaction(async (tx) => {
      const [taken] = await tx.select({ id: customCars.id }).from(customCars).where(eq(customCars.plateNo, body.plateNo));
      if (taken && taken.id !== body.id) throw failOn('plateNo', PLATE_TAKEN.msg);
      if (body.id === undefined) {
        const districtId = a.districtScope ?? body.districtId;
        if (!districtId) throw failOn('districtId', '请选择车辆所属区域');
        const [row] = await tx
          .insert(customCars)
          .values({ ...fields, districtId, status: 1, createdAt: now, updatedAt: now })
          .returning({ id: customCars.id });
        const after = await loadCar(deps, tx, row!.id);
        await audit(tx, a.actor, { type: 'CUSTOM_CAR_SAVE', targetDistrictId: districtId, target: `customCar/${row!.id}`, summary: `新增车辆 ${body.plateNo}（${body.seats}座）`, after }, now);
        return after;
      }
      const row = await lockCar(tx, a, body.id);
      const before = await loadCar(deps, tx, row.id);
      await checkVersion(row, body.rowVersion, () => before);
      if (body.seats < row.seats) {
        const [most] = await tx
          .select({ n: sql<number>`coalesce(max(${customClasses.publish}), 0)`.mapWith(Number) })
          .from(customClasses)
          .where(and(eq(customClasses.carId, row.id), gt(customClasses.departAt, now), ne(customClasses.status, 4)));
        if ((most?.n ?? 0) > body.seats) throw failOn('seats', `座位数不能少于已排班次的发行数量（${most!.n}）`);
      }
      await tx
        .update(customCars)
        .set({ ...fields, updatedAt: now, rowVersion: nextVersion(customCars.rowVersion) })
        .where(eq(customCars.id, row.id));
      const after = await loadCar(deps, tx, row.id);
      await audit(tx, a.actor, { type: 'CUSTOM_CAR_SAVE', targetDistrictId: row.districtId, target: `customCar/${row.id}`, summary: `编辑车辆 ${body.plateNo}`, before, after }, now);
      return after;
    }),
  );
}

/**
 * 可用 ⇄ 维修, either → 停用, 停用 → 可用. Going out of service (维修, 停用) is refused while the car is on
 * classes that have not departed: the refusal names them, and the dispatcher moves them to another
 * car first (排班), so no sold class is left on a car that will not come.
 */
export function updateCarStatus(deps: AppDeps, a: AuthContext, body: z.output<typeof fleet.carUpdateStatus.body>) {
  return moveFleetStatus(deps, a, body, {
    noun: '车辆',
    by: 'car',
    flow: CAR_STATUS,
    table: customCars,
    columns: { key: customCars.id, status: customCars.status, rowVersion: customCars.rowVersion },
    lock: lockCar,
    load: loadCar,
    name: (row) => row.plateNo,
    auditType: 'CUSTOM_CAR_STATUS',
    target: 'customCar',
  });
}

// ---------------------------------------------------------------- drivers

const driverColumns = { d: customDrivers, districtName: t.districts.name };
type DriverSelected = { d: typeof customDrivers.$inferSelect; districtName: string | null };
const selectDrivers = (db: Db) => db.select(driverColumns).from(customDrivers).leftJoin(t.districts, eq(t.districts.id, customDrivers.districtId));

const driverDto = (deps: Pick<AppDeps, 'pii'>, r: DriverSelected, today: string, futureClasses: number) => ({
  id: r.d.id,
  districtId: r.d.districtId,
  districtName: r.districtName,
  name: r.d.name,
  phone: maskPhone(deps.pii.decrypt(r.d.phoneEnc)),
  idNo: maskCitizenId(deps.pii.decrypt(r.d.idEnc)),
  licenceClass: fleet.driverRow.shape.licenceClass.parse(r.d.licenceClass),
  licenceUntil: r.d.licenceUntil,
  licenceDays: daysBetween(today, r.d.licenceUntil),
  status: DRIVER_STATUS.schema.parse(r.d.status),
  futureClasses,
  createdDate: iso(r.d.createdAt),
  updatedDate: iso(r.d.updatedAt),
  rowVersion: r.d.rowVersion,
});
export type DriverDto = ReturnType<typeof driverDto>;

const driverList = listService({
  endpoint: fleet.driverPage,
  select: selectDrivers,
  count: (db) => db.select({ n: count() }).from(customDrivers),
  scope: customDrivers.districtId,
  filters: {
    name: (name) => contains(customDrivers.name, name),
    phone: (phone, _q, _a, deps) => eq(customDrivers.phoneIdx, deps.pii.index('phone', digits(phone))),
    idNo: (idNo, _q, _a, deps) => eq(customDrivers.idIdx, deps.pii.index('citizen', digits(idNo))),
    licenceClass: (c) => eq(customDrivers.licenceClass, c),
    status: (status) => eq(customDrivers.status, status),
    expiring: (on, _q, _a, deps) => (on ? sql`${customDrivers.licenceUntil} <= ${warnUntil(deps)}::date` : undefined),
  },
  sorts: { name: customDrivers.name, licenceUntil: customDrivers.licenceUntil, createdDate: customDrivers.createdAt },
  order: { column: customDrivers.createdAt, dir: 'desc' },
  key: { column: customDrivers.id, of: (r) => r.d.id },
  dto: async (r, ctx: ListContext<ExportScope>) => driverDto(ctx.deps, r, shanghaiDate(ctx.deps.clock.now()), (await futureCounts(ctx, 'driver')).get(r.d.id) ?? 0),
});

export const pageDrivers = (deps: AppDeps, a: AuthContext, q: z.output<typeof fleet.driverPage.query>) => driverList.page(deps, a, q);

export async function driverTotals(deps: AppDeps, a: AuthContext, q: DriverFilters) {
  const d = customDrivers;
  const today = shanghaiDate(deps.clock.now());
  const [r] = await deps.db
    .select({
      total: count(),
      onDuty: sql<number>`count(*) filter (where ${d.status} = 1)`.mapWith(Number),
      leave: sql<number>`count(*) filter (where ${d.status} = 2)`.mapWith(Number),
      disabled: sql<number>`count(*) filter (where ${d.status} = 0)`.mapWith(Number),
      expiring: sql<number>`count(*) filter (where ${d.licenceUntil} <= ${warnUntil(deps)}::date and ${d.licenceUntil} >= ${today}::date)`.mapWith(Number),
      expired: sql<number>`count(*) filter (where ${d.licenceUntil} < ${today}::date)`.mapWith(Number),
    })
    .from(d)
    .where(driverList.where(deps, a, { ...q, status: undefined }));
  return { total: r?.total ?? 0, onDuty: r?.onDuty ?? 0, leave: r?.leave ?? 0, disabled: r?.disabled ?? 0, expiring: r?.expiring ?? 0, expired: r?.expired ?? 0 };
}

export const driversExport = defineExport({
  id: 'customBus.drivers',
  permission: fleet.driverExport.permission,
  sheet: '司机',
  columns: [
    { header: '司机ID', width: 8, cell: (d: DriverDto) => d.id },
    // A staff name, in full (the console's own drivers, not riders).
    { header: '姓名', width: 10, cell: (d) => d.name },
    { header: '手机号', width: 14, mask: 'phone', cell: (d) => d.phone },
    { header: '身份证号（驾驶证号）', width: 22, mask: 'citizenId', cell: (d) => d.idNo },
    { header: '区域', width: 10, cell: (d) => d.districtName },
    { header: '准驾车型', width: 8, cell: (d) => d.licenceClass },
    { header: '驾驶证有效期', width: 22, cell: (d) => expiryWords(d.licenceUntil, d.licenceDays) },
    { header: '状态', width: 8, cell: (d) => DRIVER_STATUS.label(d.status) },
    { header: '未发车班次', width: 10, cell: (d) => d.futureClasses },
    { header: '更新时间', width: 20, cell: (d) => shanghaiDateTime(d.updatedDate) },
  ],
  rows: listRows(driverList, (q: DriverExportFilters) => q),
  audit: { operation: 'CUSTOM_EXPORT' },
});

export const driverExportTitle = (q: DriverExportFilters) => ['司机', q.status !== undefined ? DRIVER_STATUS.label(q.status) : '', q.expiring ? '30天内到期' : ''].filter(Boolean).join(' ');

async function loadDriver(deps: Pick<AppDeps, 'clock' | 'pii'>, db: Db, id: number) {
  const [r] = await selectDrivers(db).where(eq(customDrivers.id, id));
  if (!r) throw notFound('司机不存在');
  const now = deps.clock.now();
  const future = await futureClassesOf(db, now, 'driver', id, 0);
  return driverDto(deps, r, shanghaiDate(now), future.total);
}

export async function driverById(deps: AppDeps, a: AuthContext, id: number) {
  const d = await loadDriver(deps, deps.db, id);
  assertInScope(a, d.districtId);
  return d;
}

async function lockDriver(tx: Db, a: Scope, id: number) {
  const [row] = await tx.select().from(customDrivers).where(eq(customDrivers.id, id)).for('update');
  if (!row) throw notFound('司机不存在');
  assertInScope(a, row.districtId);
  return row;
}

const ID_TAKEN = { field: 'idNo', msg: '该身份证号的司机已存在' };
/** An edit that leaves a sealed field as the list showed it (masked) or empty keeps it. */
const keeps = (v: string | undefined) => v === undefined || v === '' || v.includes('*');

/**
 * 新增司机 / 编辑司机: the phone and the citizen id are validated, sealed, and indexed; the id is unique
 * (one driver per person). An edit that does not retype them keeps the sealed values.
 */
export async function saveDriver(deps: AppDeps, a: AuthContext, body: z.output<typeof fleet.driverSave.body>) {
  const now = deps.clock.now();
  const creating = body.id === undefined;
  const phone = keeps(body.phone) ? null : digits(body.phone!);
  const idNo = keeps(body.idNo) ? null : digits(body.idNo!).toUpperCase();
  if (creating && phone === null) throw failOn('phone', '手机号不能为空');
  if (creating && idNo === null) throw failOn('idNo', '身份证号不能为空');
  if (phone !== null && !isMobile(phone)) throw failOn('phone', '手机号应为11位数字');
  if (idNo !== null && !isDriverIdNo(idNo)) throw failOn('idNo', '身份证号不正确');
  const sealed = {
    ...(phone !== null ? { phoneEnc: deps.pii.encrypt(phone), phoneIdx: deps.pii.index('phone', phone) } : {}),
    ...(idNo !== null ? { idEnc: deps.pii.encrypt(idNo), idIdx: deps.pii.index('citizen', idNo) } : {}),
  };
  const fields = { name: body.name, licenceClass: body.licenceClass, licenceUntil: body.licenceUntil, ...sealed };
  return uniqueOr(ID_TAKEN, () =>
    deps.db.transaction(async (tx) => {
      if (sealed.idIdx) {
        const [taken] = await tx.select({ id: customDrivers.id }).from(customDrivers).where(eq(customDrivers.idIdx, sealed.idIdx));
        if (taken && taken.id !== body.id) throw failOn('idNo', ID_TAKEN.msg);
      }
      if (creating) {
        const districtId = a.districtScope ?? body.districtId;
        if (!districtId) throw failOn('districtId', '请选择司机所属区域');
        const [row] = await tx
          .insert(customDrivers)
          .values({ ...fields, phoneEnc: sealed.phoneEnc!, phoneIdx: sealed.phoneIdx!, idEnc: sealed.idEnc!, idIdx: sealed.idIdx!, districtId, status: 1, createdAt: now, updatedAt: now })
          .returning({ id: customDrivers.id });
        const after = await loadDriver(deps, tx, row!.id);
        await audit(tx, a.actor, { type: 'CUSTOM_DRIVER_SAVE', targetDistrictId: districtId, target: `customDriver/${row!.id}`, summary: `新增司机 ${body.name}（${body.licenceClass}）`, after }, now);
        return after;
      }
      const row = await lockDriver(tx, a, body.id!);
      const before = await loadDriver(deps, tx, row.id);
      await checkVersion(row, body.rowVersion, () => before);
      await tx
        .update(customDrivers)
        .set({ ...fields, updatedAt: now, rowVersion: nextVersion(customDrivers.rowVersion) })
        .where(eq(customDrivers.id, row.id));
      const after = await loadDriver(deps, tx, row.id);
      const changed = [phone !== null ? '手机号' : '', idNo !== null ? '身份证号' : ''].filter(Boolean);
      await audit(tx, a.actor, { type: 'CUSTOM_DRIVER_SAVE', targetDistrictId: row.districtId, target: `customDriver/${row.id}`, summary: `编辑司机 ${body.name}${changed.length ? `（更新${changed.join('、')}）` : ''}`, before, after }, now);
      return after;
    }),
  );
}

/** 在岗 ⇄ 请假, either → 停用, 停用 → 在岗; leaving duty is refused while the driver has classes ahead (as a car's). */
export function updateDriverStatus(deps: AppDeps, a: AuthContext, body: z.output<typeof fleet.driverUpdateStatus.body>) {
  return moveFleetStatus(deps, a, body, {
    noun: '司机',
    by: 'driver',
    flow: DRIVER_STATUS,
    table: customDrivers,
    columns: { key: customDrivers.id, status: customDrivers.status, rowVersion: customDrivers.rowVersion },
    lock: lockDriver,
    load: loadDriver,
    name: (row) => row.name,
    auditType: 'CUSTOM_DRIVER_STATUS',
    target: 'customDriver',
  });
}

// ---------------------------------------------------------------- status moves (cars and drivers)

type FleetCode = 0 | 1 | 2;
/** Both endpoints take the same body: the record, the status seen and wanted, a reason, its version. */
type StatusBody = z.output<typeof fleet.carUpdateStatus.body> | z.output<typeof fleet.driverUpdateStatus.body>;

/** What a car's and a driver's status moves differ in; the rule, the messages and the audit are one. */
interface FleetKind<T extends PgTable, R extends { id: number; status: number; districtId: number }, D extends { status: number }> {
  /** The record's word in messages: 车辆 / 司机 (also 改派车辆 / 改派司机). */
  noun: '车辆' | '司机';
  /** Which of a class's columns holds it (futureClassesOf). */
  by: 'car' | 'driver';
  flow: StatusFlow<FleetCode>;
  table: T;
  columns: { key: AnyPgColumn; status: AnyPgColumn; rowVersion: AnyPgColumn };
  lock(tx: Db, a: Scope, id: number): Promise<R>;
  load(deps: AppDeps, db: Db, id: number): Promise<D>;
  /** How the record is told: its plate, its name. */
  name(row: R): string;
  auditType: OperationType;
  /** The audit target's prefix: `customCar/12`. */
  target: string;
}

async function moveFleetStatus<T extends PgTable, R extends { id: number; status: number; districtId: number }, D extends { status: number }>(deps: AppDeps, a: AuthContext, body: StatusBody, k: FleetKind<T, R, D>) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await k.lock(tx, a, body.id);
    const what = `${k.noun}${k.name(row)}`;
    if (body.toStatus !== 1 && row.status === body.fromStatus && k.flow.can(row.status as FleetCode, body.toStatus)) {
      const future = await futureClassesOf(tx, now, k.by, row.id);
      if (future.total > 0) throw fail(`${what}还有${future.total}个未发车班次（${classesList(future)}），请先改派${k.noun}后再改为「${k.flow.label(body.toStatus)}」`, { classes: future.first, total: future.total });
    }
    const { from } = await moveStatus(tx, {
      flow: k.flow,
      table: k.table,
      key: k.columns.key,
      id: row.id,
      status: k.columns.status,
      from: body.fromStatus,
      to: body.toStatus,
      // Both tables have these columns; over a generic table drizzle cannot tell.
      set: { status: body.toStatus, updatedAt: now } as PgUpdateSetSource<T>,
      what,
      version: { column: k.columns.rowVersion, sent: body.rowVersion, current: () => k.load(deps, tx, row.id) },
    });
    const after = await k.load(deps, tx, row.id);
    await audit(
      tx,
      a.actor,
      { type: k.auditType, targetDistrictId: row.districtId, target: `${k.target}/${row.id}`, summary: `${what}：${k.flow.label(from)} → ${k.flow.label(body.toStatus)}${body.reason ? `，原因：${body.reason}` : ''}`, before: { status: from }, after: { status: after.status, reason: body.reason ?? null } },
      now,
    );
    return after;
  });
}

/** The driver's phone and citizen id in clear: scoped, audited with the reason (never the values), no-store. */
export async function revealDriver(deps: AppDeps, a: AuthContext, body: z.output<typeof fleet.driverReveal.body>, setNoStore: () => void) {
  const [r] = await deps.db.select().from(customDrivers).where(eq(customDrivers.id, body.id));
  if (!r) throw notFound('司机不存在');
  assertInScope(a, r.districtId);
  await audit(deps.db, a.actor, { type: 'CUSTOM_DRIVER_REVEAL', targetDistrictId: r.districtId, target: `customDriver/${r.id}`, summary: `查看司机 ${r.name} 的身份证号与手机号，原因：${body.reason}`, after: { reason: body.reason } }, deps.clock.now());
  setNoStore();
  return { id: r.id, name: r.name, phone: deps.pii.decrypt(r.phoneEnc), idNo: deps.pii.decrypt(r.idEnc) };
}

// ---------------------------------------------------------------- for scheduling

export interface FleetAssignment {
  carId: number | null | undefined;
  driverId: number | null | undefined;
  departAt: Date;
  arriveAt: Date;
  /** The class's Shanghai day: an inspection, insurance or licence must cover it. */
  departDate: string;
  /** Seats the class issues: at most the car's. */
  publish: number;
}

/**
 * What keeps a car and a driver off a class, in the design's words (the classes part adds the time
 * clashes, which it owns): the car's status, inspection, insurance and seats; the driver's status and
 * licence. Dates are compared with the class's day, so a licence running out before the class is
 * refused now rather than on the morning. Empty when both may drive it.
 */
export async function fleetProblems(db: Db, q: FleetAssignment): Promise<string[]> {
  const out: string[] = [];
  if (q.carId) {
    const [car] = await db.select().from(customCars).where(eq(customCars.id, q.carId));
    if (!car) out.push('车辆不存在');
    else {
      if (car.status === 2) out.push('车辆维修中，不能排班');
      if (car.status === 0) out.push('车辆已停用，不能排班');
      if (car.inspectionUntil < q.departDate) out.push('车辆年检已过期，不能排班');
      if (car.insuranceUntil < q.departDate) out.push('车辆保险已过期，不能排班');
      if (q.publish > car.seats) out.push(`发行数量不能超过车辆核载座位数（${car.seats}）`);
    }
  }
  if (q.driverId) {
    const [driver] = await db.select().from(customDrivers).where(eq(customDrivers.id, q.driverId));
    if (!driver) out.push('司机不存在');
    else {
      if (driver.status === 2) out.push('司机请假中，不能排班');
      if (driver.status === 0) out.push('司机已停用，不能排班');
      if (driver.licenceUntil < q.departDate) out.push('司机驾驶证已过期，不能排班');
    }
  }
  return out;
}

/** The cars and drivers a scheduler may pick for a day (available, covered that day), for pickers. */
export async function usableFleet(db: Db, districtId: number, departDate: string) {
  const cars = await db
    .select({ id: customCars.id, plateNo: customCars.plateNo, seats: customCars.seats })
    .from(customCars)
    .where(and(eq(customCars.districtId, districtId), eq(customCars.status, 1), sql`${customCars.inspectionUntil} >= ${departDate}::date`, sql`${customCars.insuranceUntil} >= ${departDate}::date`))
    .orderBy(customCars.plateNo);
  const drivers = await db
    .select({ id: customDrivers.id, name: customDrivers.name })
    .from(customDrivers)
    .where(and(eq(customDrivers.districtId, districtId), eq(customDrivers.status, 1), sql`${customDrivers.licenceUntil} >= ${departDate}::date`))
    .orderBy(customDrivers.name);
  return { cars, drivers };
}
