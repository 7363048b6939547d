import { and, asc, count, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import * as net from '../../../shared/api/custom-bus/network';
import { LEG_LABEL, derivedPrice, legsOf, toHhmm, toSeconds } from '../../../shared/api/custom-bus/network';
import { DISCOUNT_TYPE, LINE_DIRECTION, LINE_STATUS, STATION_STATUS, STOP_MODE, TICKET_TYPE } from '../../../shared/api/custom-bus/states';
import { fenToYuan } from '../../../shared/domain/money';
import { shanghaiDateTime } from '../../../shared/domain/time';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { audit } from '../../lib/audit';
import { fail, failOn, isUniqueViolation, notFound } from '../../lib/errors';
import { defineExport, listRows } from '../../lib/export-definition';
import { listService } from '../../lib/list';
import { checkVersion, nextVersion, staleEdit } from '../../lib/row-version';
import { assertInScope } from '../../lib/scope';
import { contains, iso } from '../../lib/sql';
import { moveStatus } from '../../lib/transition';
import { customClasses, customDemands, customLinePaths, customLineStops, customLines, customOrders, customStations, customTickets } from './schema';

/**
 * 定制站点、定制线路与轨迹 (second wave §5). Every change is one transaction with its audit row; edits
 * carry the row version the operator saw; a line's path is saved a whole leg at a time and bumps the
 * line's version, so an editor open on the line learns of it.
 */

type Scope = Pick<AuthContext, 'districtScope'>;
const yuan = (fen: number | null) => (fen === null ? '' : fen / 100);

// ---------------------------------------------------------------- stations

/** Lines using a station: as a stop of a path, or as their start or end. */
const linesUsing = (stationId: SQL) =>
  sql<number>`(select count(distinct l.id)::int from custom_lines l where l.start_station_id = ${stationId} or l.end_station_id = ${stationId} or exists (select 1 from custom_line_stops s where s.line_id = l.id and s.station_id = ${stationId}))`.mapWith(Number);
type SQL = ReturnType<typeof sql>;
/** Qualified by hand: drizzle leaves a lone table's columns unqualified, and inside a subquery `id` would be the subquery's. */
const STATION_ID = sql.raw('"custom_stations"."id"');
const LINE_ID = sql.raw('"custom_lines"."id"');

const stationColumns = {
  s: customStations,
  districtName: t.districts.name,
  busStationName: t.stations.name,
  lines: linesUsing(STATION_ID),
};
type StationSelected = { s: typeof customStations.$inferSelect; districtName: string | null; busStationName: string | null; lines: number };

const selectStations = (db: Db) =>
  db.select(stationColumns).from(customStations).leftJoin(t.districts, eq(t.districts.id, customStations.districtId)).leftJoin(t.stations, eq(t.stations.id, customStations.busStationId));

const stationDto = (r: StationSelected) => ({
  id: r.s.id,
  districtId: r.s.districtId,
  districtName: r.districtName,
  name: r.s.name,
  address: r.s.address,
  lng: r.s.lng,
  lat: r.s.lat,
  busStationId: r.s.busStationId,
  busStationName: r.busStationName,
  status: STATION_STATUS.schema.parse(r.s.status),
  lines: r.lines,
  createdDate: iso(r.s.createdAt),
  updatedDate: iso(r.s.updatedAt),
  rowVersion: r.s.rowVersion,
});
export type StationDto = ReturnType<typeof stationDto>;

const stationList = listService({
  endpoint: net.stationPage,
  select: selectStations,
  count: (db) => db.select({ n: count() }).from(customStations),
  scope: customStations.districtId,
  filters: {
    name: (name) => or(contains(customStations.name, name), contains(customStations.address, name)),
    status: (status) => eq(customStations.status, status),
    linked: (linked) => (linked === 'true' ? sql`${customStations.busStationId} is not null` : sql`${customStations.busStationId} is null`),
  },
  sorts: { name: customStations.name, createdDate: customStations.createdAt, lines: linesUsing(STATION_ID) },
  order: { column: customStations.id, dir: 'desc' },
  key: { column: customStations.id, of: (r) => r.s.id },
  dto: (r) => stationDto(r),
});

export const pageStations = (deps: AppDeps, a: AuthContext, q: z.output<typeof net.stationPage.query>) => stationList.page(deps, a, q);

export async function stationTotals(deps: AppDeps, a: AuthContext, q: z.output<typeof net.stationTotal.query>) {
  const s = customStations;
  const [r] = await deps.db
    .select({
      total: count(),
      enabled: sql<number>`count(*) filter (where ${s.status} = 1)`.mapWith(Number),
      linked: sql<number>`count(*) filter (where ${s.busStationId} is not null)`.mapWith(Number),
      used: sql<number>`count(*) filter (where exists (select 1 from custom_line_stops x where x.station_id = ${STATION_ID}) or exists (select 1 from custom_lines l where l.start_station_id = ${STATION_ID} or l.end_station_id = ${STATION_ID}))`.mapWith(Number),
    })
    .from(s)
    .where(stationList.where(deps, a, { ...q, status: undefined }));
  const total = r?.total ?? 0;
  return { total, enabled: r?.enabled ?? 0, disabled: total - (r?.enabled ?? 0), linked: r?.linked ?? 0, used: r?.used ?? 0 };
}

type StationFilters = z.output<typeof net.stationExport.query>;
export const stationsExport = defineExport({
  id: 'customBus.stations',
  permission: net.stationExport.permission,
  sheet: '定制站点',
  columns: [
    { header: '站点ID', width: 8, cell: (s: StationDto) => s.id },
    { header: '站点名称', width: 18, cell: (s) => s.name },
    { header: '地址', width: 24, cell: (s) => s.address },
    { header: '区域', width: 10, cell: (s) => s.districtName },
    { header: '经度', width: 12, cell: (s) => s.lng },
    { header: '纬度', width: 12, cell: (s) => s.lat },
    { header: '关联公交站点', width: 16, cell: (s) => s.busStationName ?? '' },
    { header: '使用线路数', width: 10, cell: (s) => s.lines },
    { header: '状态', width: 8, cell: (s) => STATION_STATUS.label(s.status) },
    { header: '更新时间', width: 20, cell: (s) => shanghaiDateTime(s.updatedDate) },
  ],
  rows: listRows(stationList, (q: StationFilters) => q),
  audit: { operation: 'CUSTOM_EXPORT' },
});
export const stationExportTitle = (q: StationFilters) => ['定制站点', q.status !== undefined ? STATION_STATUS.label(q.status) : ''].filter(Boolean).join(' ');

async function loadStation(db: Db, id: number) {
  const [r] = await selectStations(db).where(eq(customStations.id, id));
  if (!r) throw notFound('站点不存在');
  return stationDto(r);
}

async function lockStation(tx: Db, a: Scope, id: number) {
  const [row] = await tx.select().from(customStations).where(eq(customStations.id, id)).for('update');
  if (!row) throw notFound('站点不存在');
  assertInScope(a, row.districtId);
  return row;
}

/** The first line (by its number) using a station, for the refusals that name it. */
async function lineUsing(db: Db, stationId: number, onlyListed = false) {
  const [l] = await db
    .select({ name: customLines.name, lineNo: customLines.lineNo })
    .from(customLines)
    .where(
      and(
        or(eq(customLines.startStationId, stationId), eq(customLines.endStationId, stationId), sql`exists (select 1 from custom_line_stops x where x.line_id = ${LINE_ID} and x.station_id = ${stationId})`),
        onlyListed ? eq(customLines.status, 1) : undefined,
      ),
    )
    .orderBy(asc(customLines.lineNo))
    .limit(1);
  return l ?? null;
}

const stationNameTaken = (name: string) => failOn('name', `站点名称「${name}」已存在`);

export async function saveStation(deps: AppDeps, a: AuthContext, body: z.output<typeof net.stationSave.body>) {
  const now = deps.clock.now();
  try {
    return await deps.db.transaction(async (tx) => {
      const existing = body.id === undefined ? null : await lockStation(tx, a, body.id);
      const districtId = existing?.districtId ?? a.districtScope ?? body.districtId;
      if (!districtId) throw failOn('districtId', '请选择站点所属区域');
      if (body.busStationId) {
        const [stop] = await tx.select({ districtId: t.stations.districtId }).from(t.stations).where(eq(t.stations.id, body.busStationId));
        if (!stop) throw failOn('busStationId', '关联的公交站点不存在');
        if (stop.districtId !== districtId) throw failOn('busStationId', '关联的公交站点须与定制站点属于同一区域');
      }
      const fields = { name: body.name, address: body.address, lng: body.lng, lat: body.lat, busStationId: body.busStationId ?? null };
      if (!existing) {
        const [row] = await tx
          .insert(customStations)
          .values({ ...fields, districtId, status: 1, createdAt: now, updatedAt: now })
          .returning({ id: customStations.id });
        const after = await loadStation(tx, row!.id);
        await audit(tx, a.actor, { type: 'CUSTOM_STATION_SAVE', targetDistrictId: districtId, target: `customStation/${row!.id}`, summary: `新增定制站点「${body.name}」`, after }, now);
        return after;
      }
      const before = await loadStation(tx, existing.id);
      await checkVersion(existing, body.rowVersion, () => before);
      await tx
        .update(customStations)
        .set({ ...fields, updatedAt: now, rowVersion: nextVersion(customStations.rowVersion) })
        .where(eq(customStations.id, existing.id));
      const after = await loadStation(tx, existing.id);
      await audit(tx, a.actor, { type: 'CUSTOM_STATION_SAVE', targetDistrictId: districtId, target: `customStation/${existing.id}`, summary: `编辑定制站点「${body.name}」`, before, after }, now);
      return after;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw stationNameTaken(body.name);
    throw err;
  }
}

/** 启用 / 停用: a station a listed line stops at stays in service (riders are sold tickets to it). */
export async function updateStationStatus(deps: AppDeps, a: AuthContext, body: z.output<typeof net.stationUpdateStatus.body>) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockStation(tx, a, body.id);
    const what = `站点「${row.name}」`;
    if (body.toStatus === 0 && row.status === 1 && body.fromStatus === 1) {
      const l = await lineUsing(tx, row.id, true);
      if (l) throw fail(`站点正被已上架线路「${l.name}」使用，不能停用，请先下架线路`);
    }
    const { from } = await moveStatus(tx, {
      flow: STATION_STATUS,
      table: customStations,
      key: customStations.id,
      id: row.id,
      status: customStations.status,
      from: body.fromStatus,
      to: body.toStatus,
      set: { status: body.toStatus, updatedAt: now },
      what,
      version: { column: customStations.rowVersion, sent: body.rowVersion, current: () => loadStation(tx, row.id) },
    });
    const after = await loadStation(tx, row.id);
    await audit(tx, a.actor, { type: 'CUSTOM_STATION_STATUS', targetDistrictId: row.districtId, target: `customStation/${row.id}`, summary: `${body.toStatus === 1 ? '启用' : '停用'}${what}`, before: { status: from }, after: { status: after.status } }, now);
    return after;
  });
}

export async function deleteStation(deps: AppDeps, a: AuthContext, id: number) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockStation(tx, a, id);
    const l = await lineUsing(tx, id);
    if (l) throw fail(`站点已被线路「${l.name}」使用，不能删除`);
    const before = await loadStation(tx, id);
    await tx.delete(customStations).where(eq(customStations.id, id));
    await audit(tx, a.actor, { type: 'CUSTOM_STATION_DELETE', targetDistrictId: row.districtId, target: `customStation/${id}`, summary: `删除定制站点「${row.name}」`, before }, now);
    return { id };
  });
}

// ---------------------------------------------------------------- lines

const startStation = alias(customStations, 'start_station');
const endStation = alias(customStations, 'end_station');
const stopsOf = (leg: 0 | 1) => sql<number>`(select count(*)::int from custom_line_stops x where x.line_id = ${LINE_ID} and x.direction = ${leg})`.mapWith(Number);

const lineColumns = {
  l: customLines,
  districtName: t.districts.name,
  startStationName: startStation.name,
  endStationName: endStation.name,
  upStops: stopsOf(0),
  downStops: stopsOf(1),
  orders: sql<number>`(select count(*)::int from custom_orders o where o.line_id = ${LINE_ID})`.mapWith(Number),
};
type LineSelected = { l: typeof customLines.$inferSelect; districtName: string | null; startStationName: string | null; endStationName: string | null; upStops: number; downStops: number; orders: number };

const selectLines = (db: Db) =>
  db
    .select(lineColumns)
    .from(customLines)
    .leftJoin(t.districts, eq(t.districts.id, customLines.districtId))
    .leftJoin(startStation, eq(startStation.id, customLines.startStationId))
    .leftJoin(endStation, eq(endStation.id, customLines.endStationId));

const lineDto = (r: LineSelected) => ({
  id: r.l.id,
  districtId: r.l.districtId,
  districtName: r.districtName,
  lineNo: r.l.lineNo,
  name: r.l.name,
  direction: r.l.direction as -1 | 0 | 1,
  startStationId: r.l.startStationId,
  startStationName: r.startStationName,
  endStationId: r.l.endStationId,
  endStationName: r.endStationName,
  departTime: toHhmm(r.l.departTime),
  arriveTime: toHhmm(r.l.arriveTime),
  returnDepartTime: r.l.returnDepartTime === null ? null : toHhmm(r.l.returnDepartTime),
  returnArriveTime: r.l.returnArriveTime === null ? null : toHhmm(r.l.returnArriveTime),
  originalPrice: r.l.originalPrice,
  discountType: r.l.discountType as 1 | 2 | 3,
  discountRate: r.l.discountRate,
  discountPrice: r.l.discountPrice,
  price: r.l.price,
  ticketTypes: [...r.l.ticketTypes].sort(),
  defaultSeats: r.l.defaultSeats,
  status: LINE_STATUS.schema.parse(r.l.status),
  sort: r.l.sort,
  demandId: r.l.demandId,
  remark: r.l.remark,
  upStops: r.upStops,
  downStops: r.downStops,
  orders: r.orders,
  createdDate: iso(r.l.createdAt),
  updatedDate: iso(r.l.updatedAt),
  rowVersion: r.l.rowVersion,
});
export type LineDto = ReturnType<typeof lineDto>;

const lineList = listService({
  endpoint: net.linePage,
  select: selectLines,
  count: (db) => db.select({ n: count() }).from(customLines),
  scope: customLines.districtId,
  filters: {
    keyword: (k) => or(contains(customLines.lineNo, k), contains(customLines.name, k)),
    status: (status) => eq(customLines.status, status),
    direction: (d) => eq(customLines.direction, Number(d)),
    stationId: (sid) => or(eq(customLines.startStationId, sid), eq(customLines.endStationId, sid), sql`exists (select 1 from custom_line_stops x where x.line_id = ${LINE_ID} and x.station_id = ${sid})`),
  },
  sorts: { sort: customLines.sort, lineNo: customLines.lineNo, price: customLines.price, createdDate: customLines.createdAt },
  order: { column: customLines.sort, dir: 'asc' },
  key: { column: customLines.id, of: (r) => r.l.id },
  dto: (r) => lineDto(r),
});

export const pageLines = (deps: AppDeps, a: AuthContext, q: z.output<typeof net.linePage.query>) => lineList.page(deps, a, q);

export async function lineTotals(deps: AppDeps, a: AuthContext, q: z.output<typeof net.lineTotal.query>) {
  const l = customLines;
  const [r] = await deps.db
    .select({
      total: count(),
      draft: sql<number>`count(*) filter (where ${l.status} = 0)`.mapWith(Number),
      onSale: sql<number>`count(*) filter (where ${l.status} = 1)`.mapWith(Number),
      offSale: sql<number>`count(*) filter (where ${l.status} = 2)`.mapWith(Number),
      roundTrip: sql<number>`count(*) filter (where ${l.direction} = -1)`.mapWith(Number),
    })
    .from(l)
    .where(lineList.where(deps, a, { ...q, status: undefined }));
  return { total: r?.total ?? 0, draft: r?.draft ?? 0, onSale: r?.onSale ?? 0, offSale: r?.offSale ?? 0, roundTrip: r?.roundTrip ?? 0 };
}

type LineFilters = z.output<typeof net.lineExport.query>;
const discountText = (l: LineDto) => (l.discountType === 2 ? `${(l.discountRate ?? 0) / 100}折` : DISCOUNT_TYPE[l.discountType]);
export const linesExport = defineExport({
  id: 'customBus.lines',
  permission: net.lineExport.permission,
  sheet: '定制线路',
  columns: [
    { header: '线路ID', width: 8, cell: (l: LineDto) => l.id },
    { header: '线路编号', width: 10, cell: (l) => l.lineNo },
    { header: '线路名称', width: 18, cell: (l) => l.name },
    { header: '区域', width: 10, cell: (l) => l.districtName },
    { header: '方向', width: 8, cell: (l) => LINE_DIRECTION[String(l.direction) as keyof typeof LINE_DIRECTION] },
    { header: '起点站', width: 16, cell: (l) => l.startStationName ?? '' },
    { header: '终点站', width: 16, cell: (l) => l.endStationName ?? '' },
    { header: '出发时间', width: 8, cell: (l) => l.departTime },
    { header: '到达时间', width: 8, cell: (l) => l.arriveTime },
    { header: '返程出发', width: 8, cell: (l) => l.returnDepartTime ?? '' },
    { header: '返程到达', width: 8, cell: (l) => l.returnArriveTime ?? '' },
    { header: '原价（元）', width: 10, cell: (l) => yuan(l.originalPrice) },
    { header: '优惠', width: 10, cell: (l) => discountText(l) },
    { header: '售价（元）', width: 10, cell: (l) => yuan(l.price) },
    { header: '票种', width: 12, cell: (l) => l.ticketTypes.map((x) => TICKET_TYPE[x as 1 | 2]).join('、') },
    { header: '默认座位', width: 8, cell: (l) => l.defaultSeats },
    { header: '上行站数', width: 8, cell: (l) => l.upStops },
    { header: '下行站数', width: 8, cell: (l) => l.downStops },
    { header: '状态', width: 8, cell: (l) => LINE_STATUS.label(l.status) },
    { header: '排序', width: 6, cell: (l) => l.sort },
    { header: '备注', width: 20, cell: (l) => l.remark },
    { header: '更新时间', width: 20, cell: (l) => shanghaiDateTime(l.updatedDate) },
  ],
  rows: listRows(lineList, (q: LineFilters) => q),
  audit: { operation: 'CUSTOM_EXPORT' },
});
export const lineExportTitle = (q: LineFilters) => ['定制线路', q.status !== undefined ? LINE_STATUS.label(q.status) : ''].filter(Boolean).join(' ');

async function loadLine(db: Db, id: number) {
  const [r] = await selectLines(db).where(eq(customLines.id, id));
  if (!r) throw notFound('线路不存在');
  return lineDto(r);
}

export async function lineById(deps: AppDeps, a: AuthContext, id: number) {
  const l = await loadLine(deps.db, id);
  assertInScope(a, l.districtId);
  return l;
}

async function lockLine(tx: Db, a: Scope, id: number) {
  const [row] = await tx.select().from(customLines).where(eq(customLines.id, id)).for('update');
  if (!row) throw notFound('线路不存在');
  assertInScope(a, row.districtId);
  return row;
}

/** Stations of the line's district, each found (the refusal names the field). */
async function assertStations(tx: Db, districtId: number, ids: { field: string; label: string; id: number }[]) {
  const found = await tx
    .select({ id: customStations.id, districtId: customStations.districtId })
    .from(customStations)
    .where(inArray(customStations.id, ids.map((x) => x.id)));
  for (const x of ids) {
    const s = found.find((f) => f.id === x.id);
    if (!s) throw failOn(x.field, `${x.label}不存在`);
    if (s.districtId !== districtId) throw failOn(x.field, `${x.label}不属于线路所在区域`);
  }
}

/** Sold, not yet departed: tickets waiting for payment or paid on a class still to run. */
async function soldAhead(db: Db, lineId: number, now: Date) {
  const [r] = await db
    .select({ n: count() })
    .from(customTickets)
    .innerJoin(customClasses, eq(customClasses.id, customTickets.classesId))
    .where(and(eq(customClasses.lineId, lineId), inArray(customClasses.status, [0, 1, 2]), sql`${customClasses.departAt} > ${now}`, inArray(customTickets.state, [0, 1])));
  return r?.n ?? 0;
}
const SOLD_AHEAD = '线路仍有已售出的未发车班次，请先取消班次';

export async function saveLine(deps: AppDeps, a: AuthContext, body: z.output<typeof net.lineSave.body>) {
  const now = deps.clock.now();
  const fields = {
    lineNo: body.lineNo.toUpperCase(),
    name: body.name,
    direction: body.direction,
    startStationId: body.startStationId,
    endStationId: body.endStationId,
    departTime: toSeconds(body.departTime),
    arriveTime: toSeconds(body.arriveTime),
    returnDepartTime: body.direction === -1 && body.returnDepartTime ? toSeconds(body.returnDepartTime) : null,
    returnArriveTime: body.direction === -1 && body.returnArriveTime ? toSeconds(body.returnArriveTime) : null,
    originalPrice: body.originalPrice,
    discountType: body.discountType,
    discountRate: body.discountType === 2 ? (body.discountRate ?? null) : null,
    discountPrice: body.discountType === 3 ? (body.discountPrice ?? null) : null,
    price: derivedPrice(body),
    ticketTypes: [...body.ticketTypes].sort(),
    defaultSeats: body.defaultSeats,
    sort: body.sort,
    remark: body.remark,
  };
  try {
    return await deps.db.transaction(async (tx) => {
      const existing = body.id === undefined ? null : await lockLine(tx, a, body.id);
      const districtId = existing?.districtId ?? a.districtScope ?? body.districtId;
      if (!districtId) throw failOn('districtId', '请选择线路所属区域');
      await assertStations(tx, districtId, [
        { field: 'startStationId', label: '起点站', id: body.startStationId },
        { field: 'endStationId', label: '终点站', id: body.endStationId },
      ]);
      if (!existing) {
        const [row] = await tx
          .insert(customLines)
          .values({ ...fields, districtId, status: 0, createdBy: a.user.id, createdAt: now, updatedAt: now })
          .returning({ id: customLines.id });
        const after = await loadLine(tx, row!.id);
        await audit(tx, a.actor, { type: 'CUSTOM_LINE_SAVE', targetDistrictId: districtId, target: `customLine/${row!.id}`, summary: `新增定制线路 ${fields.lineNo}「${body.name}」：${LINE_DIRECTION[String(body.direction) as keyof typeof LINE_DIRECTION]} ${fenToYuan(fields.price)}元`, after }, now);
        return after;
      }
      const before = await loadLine(tx, existing.id);
      await checkVersion(existing, body.rowVersion, () => before);
      // A listed line's legs are what riders bought: changing which it runs waits for 下架.
      if (existing.status === 1 && existing.direction !== body.direction) throw failOn('direction', '已上架线路不能修改方向，请先下架');
      await tx
        .update(customLines)
        .set({ ...fields, updatedAt: now, rowVersion: nextVersion(customLines.rowVersion) })
        .where(eq(customLines.id, existing.id));
      // A leg the line no longer runs loses its stops and path.
      const dropped = legsOf(existing.direction).filter((d) => !legsOf(body.direction).includes(d));
      if (dropped.length) {
        await tx.delete(customLineStops).where(and(eq(customLineStops.lineId, existing.id), inArray(customLineStops.direction, dropped)));
        await tx.delete(customLinePaths).where(and(eq(customLinePaths.lineId, existing.id), inArray(customLinePaths.direction, dropped)));
      }
      const after = await loadLine(tx, existing.id);
      await audit(tx, a.actor, { type: 'CUSTOM_LINE_SAVE', targetDistrictId: districtId, target: `customLine/${existing.id}`, summary: `编辑定制线路 ${fields.lineNo}「${body.name}」`, before, after }, now);
      return after;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw failOn('lineNo', `线路编号「${fields.lineNo}」已存在`);
    throw err;
  }
}

/**
 * 上架 needs every leg it runs to have a path of at least 2 stops; 下架 waits while tickets are sold
 * on classes still to run (they are cancelled and refunded in 班次管理 first).
 */
export async function updateLineStatus(deps: AppDeps, a: AuthContext, body: z.output<typeof net.lineUpdateStatus.body>) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockLine(tx, a, body.id);
    const what = `线路「${row.name}」`;
    if (row.status === body.fromStatus && LINE_STATUS.can(row.status as 0 | 1 | 2, body.toStatus)) {
      if (body.toStatus === 1) {
        const stops = await tx.select({ direction: customLineStops.direction, n: count() }).from(customLineStops).where(eq(customLineStops.lineId, row.id)).groupBy(customLineStops.direction);
        for (const leg of legsOf(row.direction)) if ((stops.find((s) => s.direction === leg)?.n ?? 0) < 2) throw fail(`上架前请先设置${LEG_LABEL[leg]}轨迹（至少2个站点）`);
      }
      if (body.toStatus === 2 && (await soldAhead(tx, row.id, now)) > 0) throw fail(SOLD_AHEAD);
    }
    const { from } = await moveStatus(tx, {
      flow: LINE_STATUS,
      table: customLines,
      key: customLines.id,
      id: row.id,
      status: customLines.status,
      from: body.fromStatus,
      to: body.toStatus,
      set: { status: body.toStatus, updatedAt: now },
      what,
      version: { column: customLines.rowVersion, sent: body.rowVersion, current: () => loadLine(tx, row.id) },
    });
    // 下架 stops the line's sale in the same step: its 售票中 classes → 停售 (audited). 上架 does not
    // reopen them: which ones sell again is the operator's 恢复 in 班次管理; 待售 ones open by the job.
    if (body.toStatus === 2) {
      const stopped = await tx
        .update(customClasses)
        .set({ status: 2, updatedAt: now })
        .where(and(eq(customClasses.lineId, row.id), eq(customClasses.status, 1)))
        .returning({ id: customClasses.id });
      if (stopped.length) {
        const ids = stopped.map((x) => x.id).sort((x, y) => x - y);
        await audit(tx, a.actor, { type: 'CUSTOM_CLASSES_STATUS', targetDistrictId: row.districtId, target: ids.length === 1 ? `custom-classes/${ids[0]}` : `customLine/${row.id}`, summary: `线路「${row.name}」下架，${ids.length}个售票中班次停售`, before: { status: 1 }, after: { status: 2, ids } }, now);
      }
    }
    const after = await loadLine(tx, row.id);
    const verb = body.toStatus === 1 ? (from === 2 ? '重新上架' : '上架') : '下架';
    await audit(tx, a.actor, { type: 'CUSTOM_LINE_STATUS', targetDistrictId: row.districtId, target: `customLine/${row.id}`, summary: `${verb}${what}${body.reason ? `：${body.reason}` : ''}`, before: { status: from }, after: { status: after.status } }, now);
    return after;
  });
}

/** 删除: a draft or an off-sale line that never sold; its unsold classes go with it. */
export async function deleteLine(deps: AppDeps, a: AuthContext, id: number) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockLine(tx, a, id);
    if (row.status === 1) throw fail('已上架线路不能删除，请先下架');
    if ((await soldAhead(tx, id, now)) > 0) throw fail(SOLD_AHEAD);
    const [orders] = await tx.select({ n: count() }).from(customOrders).where(eq(customOrders.lineId, id));
    if ((orders?.n ?? 0) > 0) throw fail('该线路已有订单，不能删除，请保持下架');
    const [demand] = await tx.select({ id: customDemands.id }).from(customDemands).where(eq(customDemands.lineId, id)).limit(1);
    if (demand) throw fail('该线路已关联定制需求，不能删除');
    const before = await loadLine(tx, id);
    await tx.delete(customClasses).where(eq(customClasses.lineId, id));
    await tx.delete(customLines).where(and(eq(customLines.id, id), ne(customLines.status, 1)));
    await audit(tx, a.actor, { type: 'CUSTOM_LINE_DELETE', targetDistrictId: row.districtId, target: `customLine/${id}`, summary: `删除定制线路 ${row.lineNo}「${row.name}」`, before }, now);
    return { id };
  });
}

// ---------------------------------------------------------------- paths

async function legsOfLine(db: Db, line: LineDto) {
  const stops = await db
    .select({ x: customLineStops, name: customStations.name, lng: customStations.lng, lat: customStations.lat, status: customStations.status })
    .from(customLineStops)
    .innerJoin(customStations, eq(customStations.id, customLineStops.stationId))
    .where(eq(customLineStops.lineId, line.id))
    .orderBy(customLineStops.direction, customLineStops.seq);
  const paths = await db.select().from(customLinePaths).where(eq(customLinePaths.lineId, line.id));
  return legsOf(line.direction).map((direction) => {
    const path = paths.find((p) => p.direction === direction);
    return {
      direction,
      stops: stops
        .filter((s) => s.x.direction === direction)
        .map((s, i) => ({ stationId: s.x.stationId, name: s.name, lng: s.lng, lat: s.lat, stationStatus: STATION_STATUS.schema.parse(s.status), seq: i + 1, offsetMin: s.x.offsetMin, mode: s.x.mode as 0 | 1 | 2 })),
      points: (path?.points ?? []) as [number, number][],
      updatedDate: path ? iso(path.updatedAt) : null,
    };
  });
}

export async function linePath(deps: AppDeps, a: AuthContext, lineId: number) {
  const line = await lineById(deps, a, lineId);
  return { line, legs: await legsOfLine(deps.db, line) };
}

/**
 * A leg's whole ordered stop list and its drawn path, replacing the saved ones: at least 2 stops,
 * each once, of the line's district, reached at strictly increasing minutes (the first at 0 is not
 * required: a leg may start later than the line's time). The line's version moves with it.
 */
export async function savePath(deps: AppDeps, a: AuthContext, body: z.output<typeof net.linePathSave.body>) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockLine(tx, a, body.lineId);
    if (body.rowVersion !== undefined && row.rowVersion !== body.rowVersion) {
      // Read in this transaction: another connection would wait on the lock held here.
      const line = await loadLine(tx, row.id);
      throw staleEdit({ line, legs: await legsOfLine(tx, line) });
    }
    if (!legsOf(row.direction).includes(body.direction)) throw failOn('direction', `该线路没有${LEG_LABEL[body.direction]}方向`);
    if (body.stops.length < 2) throw failOn('stops', '线路至少需要2个站点');
    for (let i = 1; i < body.stops.length; i++) if (body.stops[i]!.offsetMin <= body.stops[i - 1]!.offsetMin) throw failOn('stops', '站点到达时间须依次递增');
    if (body.points.length === 1) throw failOn('points', '轨迹至少需要2个点，或不画轨迹');
    const ids = body.stops.map((s) => s.stationId);
    const stations = await tx.select({ id: customStations.id, name: customStations.name, districtId: customStations.districtId }).from(customStations).where(inArray(customStations.id, ids));
    const seen = new Set<number>();
    for (const sid of ids) {
      const s = stations.find((x) => x.id === sid);
      if (!s || s.districtId !== row.districtId) throw failOn('stops', `站点（ID ${sid}）不存在或不属于线路所在区域`);
      if (seen.has(sid)) throw failOn('stops', `站点「${s.name}」重复`);
      seen.add(sid);
    }
    const before = await legsOfLine(tx, await loadLine(tx, row.id));
    await tx.delete(customLineStops).where(and(eq(customLineStops.lineId, row.id), eq(customLineStops.direction, body.direction)));
    await tx.insert(customLineStops).values(body.stops.map((s, i) => ({ lineId: row.id, direction: body.direction, seq: i + 1, stationId: s.stationId, offsetMin: s.offsetMin, mode: s.mode })));
    await tx.delete(customLinePaths).where(and(eq(customLinePaths.lineId, row.id), eq(customLinePaths.direction, body.direction)));
    if (body.points.length) await tx.insert(customLinePaths).values({ lineId: row.id, direction: body.direction, points: body.points, updatedAt: now });
    await tx
      .update(customLines)
      .set({ updatedAt: now, rowVersion: nextVersion(customLines.rowVersion) })
      .where(eq(customLines.id, row.id));
    const line = await loadLine(tx, row.id);
    const legs = await legsOfLine(tx, line);
    const leg = (l: typeof legs) => l.find((x) => x.direction === body.direction);
    const brief = (l: ReturnType<typeof leg>) => (l ? { stops: l.stops.map((s) => `${s.name}+${s.offsetMin}${s.mode ? STOP_MODE[s.mode] : ''}`), points: l.points.length } : null);
    await audit(
      tx,
      a.actor,
      { type: 'CUSTOM_LINE_PATH_SAVE', targetDistrictId: row.districtId, target: `customLine/${row.id}`, summary: `保存定制线路「${row.name}」${LEG_LABEL[body.direction]}轨迹：${body.stops.length}站 ${body.points.length}个轨迹点`, before: brief(leg(before)), after: brief(leg(legs)) },
      now,
    );
    return { line, legs };
  });
}
