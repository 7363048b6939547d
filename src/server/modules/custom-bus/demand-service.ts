import { and, count, eq, gte, inArray, lte, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import * as api from '../../../shared/api/custom-bus/demand';
import { DEMAND_RECORD_STATUS, DEMAND_STATE } from '../../../shared/api/custom-bus/states';
import { SNAP_M, WINDOW_S, cellCentre, distanceM, hhmm } from '../../../shared/custom/demand-grid';
import { maskInText, maskPhone } from '../../../shared/domain/mask';
import { addDays, shanghaiDate, shanghaiDateTime, shanghaiMidnight } from '../../../shared/domain/time';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { audit } from '../../lib/audit';
import { fail, failOn, isUniqueViolation, notFound } from '../../lib/errors';
import { defineExport, listRows } from '../../lib/export-definition';
import { type ListContext, listService } from '../../lib/list';
import { assertInScope } from '../../lib/scope';
import { contains, iso } from '../../lib/sql';
import { moveStatus } from '../../lib/transition';
import { customClasses, customDemandRecords, customDemands, customLineStops, customLines, customStations } from './schema';
import { saleWindow } from './classes-service';
import { customBaseOf } from '../custom-setting/read';

type DemandStateCode = (typeof DEMAND_STATE.codes)[number];
const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const num = (v: unknown) => Number(v ?? 0);

// ---------------------------------------------------------------- 定制列表

const demandColumns = { d: customDemands, districtName: t.districts.name, lineNo: customLines.lineNo, lineName: customLines.name };
type DemandSelected = { d: typeof customDemands.$inferSelect; districtName: string | null; lineNo: string | null; lineName: string | null };

const selectDemands = (db: Db) =>
  db.select(demandColumns).from(customDemands).leftJoin(t.districts, eq(t.districts.id, customDemands.districtId)).leftJoin(customLines, eq(customLines.id, customDemands.lineId));

const demandDto = (r: DemandSelected) => ({
  id: r.d.id,
  districtId: r.d.districtId,
  districtName: r.districtName,
  fromName: r.d.fromName,
  fromLng: r.d.fromLng,
  fromLat: r.d.fromLat,
  fromRadiusM: r.d.fromRadiusM,
  toName: r.d.toName,
  toLng: r.d.toLng,
  toLat: r.d.toLat,
  toRadiusM: r.d.toRadiusM,
  goFrom: r.d.goFrom,
  goTo: r.d.goTo,
  backFrom: r.d.backFrom,
  backTo: r.d.backTo,
  distanceM: r.d.distanceM,
  supporters: r.d.supporters,
  threshold: r.d.threshold,
  state: DEMAND_STATE.schema.parse(r.d.state),
  lineId: r.d.lineId,
  lineNo: r.lineNo,
  lineName: r.lineName,
  reply: r.d.reply,
  handledDate: r.d.handledAt ? iso(r.d.handledAt) : null,
  createdDate: iso(r.d.createdAt),
  updatedDate: iso(r.d.updatedAt),
  rowVersion: r.d.rowVersion,
});
export type DemandDto = ReturnType<typeof demandDto>;

/** 定制列表: the area's demands by an area's name, state, line and whether they reached their threshold; most supported first. */
const demandList = listService({
  endpoint: api.customDemandPage,
  select: selectDemands,
  count: (db) => db.select({ n: count() }).from(customDemands),
  scope: customDemands.districtId,
  filters: {
    name: (name) => or(contains(customDemands.fromName, name), contains(customDemands.toName, name)),
    state: (state) => eq(customDemands.state, state),
    lineId: (lineId) => eq(customDemands.lineId, lineId),
    reached: (r) => (r === '1' ? sql`${customDemands.supporters} >= ${customDemands.threshold}` : sql`${customDemands.supporters} < ${customDemands.threshold}`),
  },
  sorts: { supporters: customDemands.supporters, createdDate: customDemands.createdAt, distanceM: customDemands.distanceM },
  order: { column: customDemands.supporters, dir: 'desc' },
  key: { column: customDemands.id, of: (r) => r.d.id },
  dto: (r) => demandDto(r),
});

export const pageDemands = (deps: AppDeps, a: AuthContext, q: z.output<typeof api.customDemandPage.query>) => demandList.page(deps, a, q);

export async function demandTotals(deps: AppDeps, a: AuthContext, q: z.output<typeof api.customDemandTotal.query>) {
  const d = customDemands;
  const rows = await deps.db
    .select({
      state: d.state,
      n: count(),
      supporters: sql<number>`coalesce(sum(${d.supporters}), 0)`.mapWith(Number),
      reached: sql<number>`count(*) filter (where ${d.supporters} >= ${d.threshold})`.mapWith(Number),
    })
    .from(d)
    .where(demandList.where(deps, a, { ...q, state: undefined }))
    .groupBy(d.state);
  const of = (s: number) => rows.find((r) => r.state === s)?.n ?? 0;
  const sum = (k: 'n' | 'supporters' | 'reached') => rows.reduce((s, r) => s + r[k], 0);
  return { total: sum('n'), open: of(0), opened: of(1), declined: of(2), supporters: sum('supporters'), reached: sum('reached') };
}

export const demandsExport = defineExport({
  id: 'customBus.demands',
  permission: api.customDemandExport.permission,
  sheet: '定制列表',
  columns: [
    { header: '需求ID', width: 8, cell: (d: DemandDto) => d.id },
    { header: '区域', width: 10, cell: (d) => d.districtName },
    { header: '起点', width: 18, cell: (d) => d.fromName },
    { header: '终点', width: 18, cell: (d) => d.toName },
    { header: '去程时段', width: 12, cell: (d) => `${hhmm(d.goFrom)}–${hhmm(d.goTo)}` },
    { header: '返程时段', width: 12, cell: (d) => (d.backFrom === null || d.backTo === null ? '' : `${hhmm(d.backFrom)}–${hhmm(d.backTo)}`) },
    { header: '距离（公里）', width: 10, cell: (d) => Math.round(d.distanceM / 100) / 10 },
    { header: '报名人数', width: 8, cell: (d) => d.supporters },
    { header: '开通门槛', width: 8, cell: (d) => d.threshold },
    { header: '状态', width: 8, cell: (d) => DEMAND_STATE.label(d.state) },
    { header: '开通线路', width: 14, cell: (d) => (d.lineNo ? `${d.lineNo} ${d.lineName ?? ''}` : '') },
    // A reply is free text: a phone typed into it is masked as in the audit log.
    { header: '回复', width: 24, cell: (d) => maskInText(d.reply) },
    { header: '提交时间', width: 20, cell: (d) => shanghaiDateTime(d.createdDate) },
  ],
  rows: listRows(demandList),
  audit: { operation: 'CUSTOM_EXPORT' },
});
export const demandExportTitle = (q: z.output<typeof api.customDemandExport.query>) => ['定制列表', q.state !== undefined ? DEMAND_STATE.label(q.state) : ''].filter(Boolean).join(' ');

async function loadDemand(db: Db, id: number) {
  const [r] = await selectDemands(db).where(eq(customDemands.id, id));
  if (!r) throw notFound('定制需求不存在');
  return demandDto(r);
}

/** The demand with its riders and ★ how many of them later bought on the line it was opened as. */
export async function demandById(deps: AppDeps, a: AuthContext, id: number) {
  const d = await loadDemand(deps.db, id);
  assertInScope(a, d.districtId);
  const [rec] = rowsOf<{ records: number; riders: number }>(
    await deps.db.execute(sql`select count(*)::int as records, count(distinct rider_id)::int as riders from custom_demand_records where demand_id = ${id}`),
  );
  let buyers = 0;
  let buyerOrders = 0;
  if (d.lineId !== null) {
    const [b] = rowsOf<{ buyers: number; orders: number }>(
      await deps.db.execute(sql`select count(distinct o.rider_id)::int as buyers, count(*)::int as orders from custom_orders o
        where o.line_id = ${d.lineId} and o.pay_status in (1, 2) and o.rider_id in (select rider_id from custom_demand_records where demand_id = ${id})`),
    );
    buyers = num(b?.buyers);
    buyerOrders = num(b?.orders);
  }
  return { ...d, records: num(rec?.records), riders: num(rec?.riders), buyers, buyerOrders };
}

const belowThreshold = (d: { supporters: number; threshold: number }) => `报名人数未达开通门槛（${d.supporters}/${d.threshold}），请填写开通说明`;

/**
 * 处理: 0 → 1 开通 with a line of the demand's own district (and an 开通说明 when it is below its
 * threshold), 0 → 2 暂不开通 with a reply, 2 → 0 重新打开. One guarded move from the state the
 * operator saw, audited in its transaction.
 */
export async function handleDemand(deps: AppDeps, a: AuthContext, body: z.output<typeof api.customDemandHandle.body>) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(customDemands).where(eq(customDemands.id, body.id)).for('update');
    if (!row) throw notFound('定制需求不存在');
    assertInScope(a, row.districtId);
    const what = `定制需求「${row.fromName}→${row.toName}」`;
    const allowed = row.state === body.fromState && DEMAND_STATE.can(row.state as DemandStateCode, body.toState);
    let line: typeof customLines.$inferSelect | undefined;
    if (allowed && body.toState === 1) {
      if (body.lineId === undefined) throw failOn('lineId', '请选择开通的线路');
      [line] = await tx.select().from(customLines).where(eq(customLines.id, body.lineId));
      if (!line) throw failOn('lineId', '线路不存在');
      if (line.districtId !== row.districtId) throw failOn('lineId', '开通线路须与需求属于同一区域');
      if (row.supporters < row.threshold && !body.reply) throw failOn('reply', belowThreshold(row));
    }
    if (allowed && body.toState === 2 && !body.reply) throw failOn('reply', '请填写暂不开通的原因');
    const set =
      body.toState === 1
        ? { state: 1, lineId: line?.id ?? null, reply: body.reply, handledBy: a.user.id, handledAt: now, updatedAt: now }
        : body.toState === 2
          ? { state: 2, lineId: null, reply: body.reply, handledBy: a.user.id, handledAt: now, updatedAt: now }
          : { state: 0, lineId: null, updatedAt: now, ...(body.reply ? { reply: body.reply } : {}) };
    const before = await loadDemand(tx, row.id);
    await moveStatus(tx, {
      flow: DEMAND_STATE,
      table: customDemands,
      key: customDemands.id,
      id: row.id,
      status: customDemands.state,
      from: body.fromState,
      to: body.toState,
      set,
      what,
      version: { column: customDemands.rowVersion, sent: body.rowVersion, current: () => loadDemand(tx, row.id) },
    });
    const after = await loadDemand(tx, row.id);
    const verb = body.toState === 1 ? `开通（线路 ${line?.lineNo ?? ''}）` : body.toState === 2 ? '暂不开通' : '重新打开';
    await audit(
      tx,
      a.actor,
      {
        type: 'CUSTOM_DEMAND_HANDLE',
        targetDistrictId: row.districtId,
        target: `custom-demand/${row.id}`,
        summary: `${what}${verb}${body.reply ? `：${body.reply}` : ''}`,
        before: { state: before.state, lineId: before.lineId, reply: before.reply },
        after: { state: after.state, lineId: after.lineId, reply: after.reply },
      },
      now,
    );
    return after;
  });
}

/** 开通's choice: the district's lines (not deleted), the ones whose ends lie nearest the demand's areas first. */
export async function candidateLines(deps: AppDeps, a: AuthContext, id: number) {
  const d = await loadDemand(deps.db, id);
  assertInScope(a, d.districtId);
  const start = alias(customStations, 'start_station');
  const end = alias(customStations, 'end_station');
  const rows = await deps.db
    .select({ l: customLines, start: { name: start.name, lng: start.lng, lat: start.lat }, end: { name: end.name, lng: end.lng, lat: end.lat } })
    .from(customLines)
    .leftJoin(start, eq(start.id, customLines.startStationId))
    .leftJoin(end, eq(end.id, customLines.endStationId))
    .where(eq(customLines.districtId, d.districtId))
    .limit(500);
  const from = { lng: d.fromLng, lat: d.fromLat };
  const to = { lng: d.toLng, lat: d.toLat };
  const lines = rows
    .map((r) => ({
      id: r.l.id,
      lineNo: r.l.lineNo,
      name: r.l.name,
      status: r.l.status,
      departTime: r.l.departTime,
      startName: r.start?.name ?? null,
      endName: r.end?.name ?? null,
      fromM: r.start ? distanceM(from, r.start) : null,
      toM: r.end ? distanceM(r.end, to) : null,
    }))
    .sort((x, y) => (x.fromM ?? 1e9) + (x.toM ?? 1e9) - ((y.fromM ?? 1e9) + (y.toM ?? 1e9)) || x.id - y.id)
    .slice(0, 50);
  return { lines };
}

// ---------------------------------------------------------------- 定制记录

const recordColumns = { r: customDemandRecords, phoneEnc: t.riders.phoneEnc };
type RecordSelected = { r: typeof customDemandRecords.$inferSelect; phoneEnc: string | null };

const selectRecords = (db: Db) => db.select(recordColumns).from(customDemandRecords).leftJoin(t.riders, eq(t.riders.id, customDemandRecords.riderId));

/** A submission as lists show it: the phone masked, the points as their 500 m cells' centres (never the sealed point). */
const recordDto = (deps: Pick<AppDeps, 'pii'>, x: RecordSelected) => ({
  id: x.r.id,
  districtId: x.r.districtId,
  demandId: x.r.demandId,
  riderId: x.r.riderId,
  riderPhone: x.phoneEnc ? maskPhone(deps.pii.decrypt(x.phoneEnc)) : null,
  homeName: x.r.homeName,
  homeCell: x.r.homeCell,
  home: cellCentre(x.r.homeCell),
  workName: x.r.workName,
  workCell: x.r.workCell,
  work: cellCentre(x.r.workCell),
  goTime: x.r.goTime,
  backTime: x.r.backTime,
  status: DEMAND_RECORD_STATUS.schema.parse(x.r.status),
  createdDate: iso(x.r.createdAt),
});
export type RecordDto = ReturnType<typeof recordDto>;

const recordList = listService({
  endpoint: api.customDemandRecordPage,
  select: selectRecords,
  count: (db) => db.select({ n: count() }).from(customDemandRecords),
  scope: customDemandRecords.districtId,
  filters: {
    demandId: (demandId) => eq(customDemandRecords.demandId, demandId),
    status: (status) => eq(customDemandRecords.status, status),
    area: (area) => or(contains(customDemandRecords.homeName, area), contains(customDemandRecords.workName, area)),
    startTime: (from) => gte(customDemandRecords.createdAt, new Date(from)),
    endTime: (to) => lte(customDemandRecords.createdAt, new Date(to)),
  },
  sorts: { createdDate: customDemandRecords.createdAt, goTime: customDemandRecords.goTime },
  order: { column: customDemandRecords.createdAt, dir: 'desc' },
  key: { column: customDemandRecords.id, of: (x) => x.r.id },
  dto: (x, { deps }: ListContext) => recordDto(deps, x),
});

export const pageRecords = (deps: AppDeps, a: AuthContext, q: z.output<typeof api.customDemandRecordPage.query>) => recordList.page(deps, a, q);

export async function recordTotals(deps: AppDeps, a: AuthContext, q: z.output<typeof api.customDemandRecordTotal.query>) {
  const r = customDemandRecords;
  const [x] = await deps.db
    .select({
      total: count(),
      riders: sql<number>`count(distinct ${r.riderId})`.mapWith(Number),
      waiting: sql<number>`count(*) filter (where ${r.status} = 0)`.mapWith(Number),
      matched: sql<number>`count(*) filter (where ${r.status} = 1)`.mapWith(Number),
      notified: sql<number>`count(*) filter (where ${r.status} = 2)`.mapWith(Number),
    })
    .from(r)
    .where(recordList.where(deps, a, q));
  return { total: x?.total ?? 0, riders: x?.riders ?? 0, waiting: x?.waiting ?? 0, matched: x?.matched ?? 0, notified: x?.notified ?? 0 };
}

const centreText = (p: { lng: number; lat: number } | null) => (p ? `${p.lng.toFixed(4)},${p.lat.toFixed(4)}` : '');

export const recordsExport = defineExport({
  id: 'customBus.demandRecords',
  permission: api.customDemandRecordExport.permission,
  sheet: '定制记录',
  columns: [
    { header: '记录ID', width: 8, cell: (r: RecordDto) => r.id },
    { header: '需求ID', width: 8, cell: (r) => r.demandId ?? '' },
    { header: '手机号', width: 14, mask: 'phone', cell: (r) => r.riderPhone },
    { header: '家庭区域', width: 16, cell: (r) => r.homeName },
    { header: '家庭位置（500米网格中心）', width: 22, cell: (r) => centreText(r.home) },
    { header: '单位区域', width: 16, cell: (r) => r.workName },
    { header: '单位位置（500米网格中心）', width: 22, cell: (r) => centreText(r.work) },
    { header: '出发时间', width: 8, cell: (r) => hhmm(r.goTime) },
    { header: '返程时间', width: 8, cell: (r) => (r.backTime === null ? '' : hhmm(r.backTime)) },
    { header: '状态', width: 8, cell: (r) => DEMAND_RECORD_STATUS.label(r.status) },
    { header: '提交时间', width: 20, cell: (r) => shanghaiDateTime(r.createdDate) },
  ],
  rows: listRows(recordList),
  audit: { operation: 'CUSTOM_EXPORT' },
});
export const recordExportTitle = (q: z.output<typeof api.customDemandRecordExport.query>) => ['定制记录', q.status !== undefined ? DEMAND_RECORD_STATUS.label(q.status) : ''].filter(Boolean).join(' ');

// ---------------------------------------------------------------- ★ heat and snapping

type Point = { lng: number; lat: number };
export type Snap = z.output<typeof api.snapRow>;

/**
 * The nearest enabled 定制站点 or regular stop of the district within SNAP_M of a point: a bounding
 * box first (an index-friendly range), then the true distance. A 定制站点 wins a tie within 100 m of
 * the nearest stop (it is already in the network).
 */
export async function snapPoint(db: Db, districtId: number, p: Point): Promise<Snap | null> {
  const dLat = SNAP_M / 111_320;
  const dLng = SNAP_M / (111_320 * Math.cos((p.lat * Math.PI) / 180));
  const box = (lng: unknown, lat: unknown) => sql`${lng} between ${p.lng - dLng} and ${p.lng + dLng} and ${lat} between ${p.lat - dLat} and ${p.lat + dLat}`;
  const custom = await db
    .select({ id: customStations.id, name: customStations.name, lng: customStations.lng, lat: customStations.lat })
    .from(customStations)
    .where(and(eq(customStations.districtId, districtId), eq(customStations.status, 1), box(customStations.lng, customStations.lat)));
  const bus = await db
    .select({ id: t.stations.id, name: t.stations.name, lng: t.stations.lng, lat: t.stations.lat })
    .from(t.stations)
    .where(and(eq(t.stations.districtId, districtId), eq(t.stations.state, 1), box(t.stations.lng, t.stations.lat)));
  const rank = (xs: { id: number; name: string; lng: number; lat: number }[], kind: Snap['kind']) =>
    xs
      .map((s) => ({ kind, id: s.id, name: s.name, lng: s.lng, lat: s.lat, distanceM: distanceM(p, s) }))
      .filter((s) => s.distanceM <= SNAP_M)
      .sort((x, y) => x.distanceM - y.distanceM || x.id - y.id)[0] ?? null;
  const c = rank(custom, 'custom');
  const b = rank(bus, 'bus');
  if (c && (!b || c.distanceM <= b.distanceM + 100)) return c;
  return b;
}

type ClusterRaw = { district_id: number; home_cell: string; work_cell: string; win: number; supporters: number; median: number; home_name: string; work_name: string; demand_id: number | null };

/** Records grouped by home cell × work cell × 30-minute window, biggest first: one grouped statement. */
async function readClusters(db: Db, where: ReturnType<typeof sql>, minSupporters: number, limit: number) {
  return rowsOf<ClusterRaw>(
    await db.execute(sql`select r.district_id, r.home_cell, r.work_cell, (r.go_time / ${WINDOW_S}) * ${WINDOW_S} as win, count(*)::int as supporters,
        percentile_disc(0.5) within group (order by r.go_time) as median,
        mode() within group (order by r.home_name) as home_name, mode() within group (order by r.work_name) as work_name,
        mode() within group (order by r.demand_id) as demand_id
      from custom_demand_records r where ${where}
      group by r.district_id, r.home_cell, r.work_cell, win having count(*) >= ${minSupporters}
      order by supporters desc, r.district_id, r.home_cell, r.work_cell, win limit ${limit}`),
  );
}

type Station = { id: number; name: string; lng: number; lat: number; districtId: number };

/** The nearest of the loaded stations within SNAP_M, a 定制站点 winning a tie within 100 m (as snapPoint). */
function nearest(custom: readonly Station[], bus: readonly Station[], districtId: number, p: Point): Snap | null {
  const rank = (xs: readonly Station[], kind: Snap['kind']) => {
    let best: Snap | null = null;
    for (const s of xs) {
      if (s.districtId !== districtId) continue;
      const d = distanceM(p, s);
      if (d <= SNAP_M && (!best || d < best.distanceM || (d === best.distanceM && s.id < best.id))) best = { kind, id: s.id, name: s.name, lng: s.lng, lat: s.lat, distanceM: d };
    }
    return best;
  };
  const c = rank(custom, 'custom');
  const b = rank(bus, 'bus');
  if (c && (!b || c.distanceM <= b.distanceM + 100)) return c;
  return b;
}

/**
 * The heat map's clusters with both ends snapped: the enabled stations of the clusters' districts
 * read once (two queries, whatever the number of clusters), the nearest found here.
 */
async function clusterDtos(db: Db, raw: readonly ClusterRaw[]) {
  const districts = [...new Set(raw.map((r) => num(r.district_id)))];
  if (!districts.length) return [];
  const custom = await db
    .select({ id: customStations.id, name: customStations.name, lng: customStations.lng, lat: customStations.lat, districtId: customStations.districtId })
    .from(customStations)
    .where(and(inArray(customStations.districtId, districts), eq(customStations.status, 1)));
  const bus = await db
    .select({ id: t.stations.id, name: t.stations.name, lng: t.stations.lng, lat: t.stations.lat, districtId: t.stations.districtId })
    .from(t.stations)
    .where(and(inArray(t.stations.districtId, districts), eq(t.stations.state, 1)));
  return raw.map((r) => {
    const home = cellCentre(r.home_cell)!;
    const work = cellCentre(r.work_cell)!;
    const districtId = num(r.district_id);
    return {
      districtId,
      homeCell: r.home_cell,
      workCell: r.work_cell,
      window: num(r.win),
      supporters: num(r.supporters),
      homeName: r.home_name ?? '',
      workName: r.work_name ?? '',
      home,
      work,
      distanceM: distanceM(home, work),
      medianGoTime: num(r.median),
      homeSnap: nearest(custom, bus, districtId, home),
      workSnap: nearest(custom, bus, districtId, work),
      demandId: r.demand_id === null ? null : num(r.demand_id),
    };
  });
}

/** ★ 需求热力: the submissions still to serve (待匹配 and 已匹配) clustered, with the stations each end would snap to. */
export async function heat(deps: AppDeps, a: AuthContext, q: z.output<typeof api.customDemandHeat.query>) {
  const area = a.districtScope === null ? sql`true` : sql`r.district_id = ${a.districtScope}`;
  const one = q.demandId === undefined ? sql`true` : sql`r.demand_id = ${q.demandId}`;
  const raw = await readClusters(deps.db, sql`${area} and ${one} and r.status in (0, 1)`, q.minSupporters, q.limit);
  return { clusters: await clusterDtos(deps.db, raw) };
}

// ---------------------------------------------------------------- ★ 需求成线

type ToLineBody = z.output<typeof api.customDemandToLine.body>;

/** A regular stop becomes a 定制站点 of the district (linked to it) the first time a line uses it. */
async function customStationFor(tx: Db, districtId: number, s: Snap, now: Date): Promise<number> {
  if (s.kind === 'custom') return s.id;
  const [linked] = await tx
    .select({ id: customStations.id })
    .from(customStations)
    .where(and(eq(customStations.districtId, districtId), eq(customStations.busStationId, s.id)))
    .limit(1);
  if (linked) return linked.id;
  const name = s.name.slice(0, 20);
  const [same] = await tx
    .select({ id: customStations.id })
    .from(customStations)
    .where(and(eq(customStations.districtId, districtId), eq(customStations.name, name)));
  if (same) return same.id;
  const [made] = await tx.insert(customStations).values({ districtId, name, address: '', lng: s.lng, lat: s.lat, busStationId: s.id, status: 1, createdAt: now, updatedAt: now }).returning({ id: customStations.id });
  return made!.id;
}

const FIVE_MIN = 300;
/** An average door-to-door speed of 25 km/h, plus 10 minutes at the stops. */
const travelSeconds = (m: number) => Math.round((m / (25_000 / 3600) + 600) / 60) * 60;
/** Weekdays (Mon–Fri) of the 7 days from `start`. */
const weekdaysFrom = (start: string) =>
  Array.from({ length: 7 }, (_, i) => addDays(start, i)).filter((d) => {
    const w = new Date(`${d}T00:00:00Z`).getUTCDay();
    return w >= 1 && w <= 5;
  });

/**
 * ★ 需求成线: from a heat cluster or a demand, in one transaction, a draft line (草稿) whose 上行 runs
 * from the station the home end snaps to to the one the work end snaps to, leaving at the window's
 * median go time (to 5 minutes); its two stops; its first week of classes (Mon–Fri, 待售, the line's
 * default seats); and the demand linked to it (已开通). Refused when either end has no station
 * within 1 km, so no line is drawn to nowhere.
 */
export async function toLine(deps: AppDeps, a: AuthContext, body: ToLineBody) {
  const now = deps.clock.now();
  const tomorrow = addDays(shanghaiDate(now), 1);
  const startDate = body.startDate ?? tomorrow;
  if (startDate < tomorrow) throw failOn('startDate', '首班日期不能早于明天');
  if (startDate > addDays(tomorrow, 60)) throw failOn('startDate', '首班日期不能晚于60天后');
  return deps.db.transaction(async (tx) => {
    let demand: typeof customDemands.$inferSelect | undefined;
    if (body.demandId !== undefined) {
      [demand] = await tx.select().from(customDemands).where(eq(customDemands.id, body.demandId)).for('update');
      if (!demand) throw notFound('定制需求不存在');
      assertInScope(a, demand.districtId);
      if (demand.state !== 0) throw fail(`该需求${DEMAND_STATE.label(demand.state as DemandStateCode)}，不能再生成线路`);
      if (demand.supporters < demand.threshold && !body.reply) throw failOn('reply', belowThreshold(demand));
    }
    const c = body.cluster;
    if (c) {
      assertInScope(a, c.districtId);
      if (demand && demand.districtId !== c.districtId) throw failOn('demandId', '需求与聚类不在同一区域');
    }
    const districtId = c?.districtId ?? demand!.districtId;
    let from: Point;
    let to: Point;
    let depart: number;
    let names: [string, string];
    if (c) {
      const [r] = await readClusters(
        tx,
        sql`r.district_id = ${c.districtId} and r.home_cell = ${c.homeCell} and r.work_cell = ${c.workCell} and r.go_time >= ${c.window} and r.go_time < ${c.window + WINDOW_S} and r.status in (0, 1)`,
        1,
        1,
      );
      if (!r) throw failOn('cluster', '该聚类已没有待服务的报名记录');
      from = cellCentre(c.homeCell)!;
      to = cellCentre(c.workCell)!;
      depart = num(r.median);
      names = [r.home_name || '家庭区域', r.work_name || '单位区域'];
    } else {
      const d = demand!;
      from = { lng: d.fromLng, lat: d.fromLat };
      to = { lng: d.toLng, lat: d.toLat };
      const [m] = rowsOf<{ median: number | null }>(
        await tx.execute(sql`select percentile_disc(0.5) within group (order by go_time) as median from custom_demand_records where demand_id = ${d.id} and go_time between ${d.goFrom} and ${d.goTo}`),
      );
      depart = m?.median === null || m?.median === undefined ? Math.round((d.goFrom + d.goTo) / 2) : num(m.median);
      names = [d.fromName, d.toName];
    }
    depart = Math.min(Math.round(depart / FIVE_MIN) * FIVE_MIN, 86_400 - FIVE_MIN);
    const [homeSnap, workSnap] = [await snapPoint(tx, districtId, from), await snapPoint(tx, districtId, to)];
    if (!homeSnap) throw fail(`起点「${names[0]}」1公里内没有可用站点，不能生成线路`);
    if (!workSnap) throw fail(`终点「${names[1]}」1公里内没有可用站点，不能生成线路`);
    if (homeSnap.kind === workSnap.kind && homeSnap.id === workSnap.id) throw fail('起点与终点吸附到同一站点，不能生成线路');
    const [taken] = await tx
      .select({ id: customLines.id })
      .from(customLines)
      .where(and(eq(customLines.districtId, districtId), eq(customLines.lineNo, body.lineNo)));
    if (taken) throw failOn('lineNo', `线路编号${body.lineNo}已存在`);
    const startId = await customStationFor(tx, districtId, homeSnap, now);
    const endId = await customStationFor(tx, districtId, workSnap, now);
    const travel = Math.min(travelSeconds(distanceM(homeSnap, workSnap)), 720 * 60);
    const arrive = Math.min(depart + travel, 86_399);
    const [line] = await tx
      .insert(customLines)
      .values({
        districtId,
        lineNo: body.lineNo,
        name: body.name,
        direction: 0,
        startStationId: startId,
        endStationId: endId,
        departTime: depart,
        arriveTime: arrive,
        originalPrice: body.price,
        discountType: 1,
        price: body.price,
        ticketTypes: [1, 2],
        defaultSeats: body.seats,
        status: 0,
        demandId: demand?.id ?? null,
        remark: '需求成线生成',
        createdBy: a.user.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw failOn('lineNo', `线路编号${body.lineNo}已存在`);
        throw err;
      });
    const l = line!;
    await tx.insert(customLineStops).values([
      { lineId: l.id, direction: 0, seq: 1, stationId: startId, offsetMin: 0, mode: 1 },
      { lineId: l.id, direction: 0, seq: 2, stationId: endId, offsetMin: Math.max(1, Math.round((arrive - depart) / 60)), mode: 2 },
    ]);
    // The sale window the district's base settings give every class (as 班次管理 computes it).
    const base = await customBaseOf(tx, districtId);
    const classes = weekdaysFrom(startDate)
      .map((day) => {
        const departAt = new Date(shanghaiMidnight(day).getTime() + depart * 1000);
        return { day, departAt, ...saleWindow(base, day, departAt) };
      })
      .filter((x) => x.saleCloseAt.getTime() > now.getTime())
      .map((x) => ({
        districtId,
        lineId: l.id,
        direction: 0,
        departDate: x.day,
        departTime: depart,
        departAt: x.departAt,
        arriveAt: new Date(x.departAt.getTime() + Math.max(arrive - depart, 60) * 1000),
        publish: body.seats,
        stock: body.seats,
        price: body.price,
        // A draft line's classes wait (待售); the sale job opens them in their window once the line is 已上架.
        saleOpenAt: x.saleOpenAt,
        saleCloseAt: x.saleCloseAt,
        status: 0,
        createdBy: a.user.id,
        createdAt: now,
        updatedAt: now,
      }));
    if (classes.length) await tx.insert(customClasses).values(classes);
    let linked = null;
    if (demand) {
      await tx
        .update(customDemands)
        .set({ state: 1, lineId: l.id, reply: body.reply || demand.reply, handledBy: a.user.id, handledAt: now, updatedAt: now, rowVersion: sql`${customDemands.rowVersion} + 1` })
        .where(and(eq(customDemands.id, demand.id), eq(customDemands.state, 0)));
      linked = await loadDemand(tx, demand.id);
    }
    const stops = [homeSnap, workSnap];
    await audit(
      tx,
      a.actor,
      {
        type: 'CUSTOM_DEMAND_TO_LINE',
        targetDistrictId: districtId,
        target: `custom-line/${l.id}`,
        summary: `需求成线：${demand ? `需求 #${demand.id} ` : ''}${c ? `聚类 ${c.homeCell}→${c.workCell} ${hhmm(c.window)} ` : ''}生成草稿线路 ${l.lineNo}「${l.name}」，${hhmm(depart)} 发车，首周 ${classes.length} 个班次`,
        after: { lineId: l.id, lineNo: l.lineNo, departTime: depart, stops: stops.map((s) => ({ kind: s.kind, id: s.id, name: s.name })), classes: classes.length, demandId: demand?.id ?? null },
      },
      now,
    );
    return { lineId: l.id, lineNo: l.lineNo, name: l.name, departTime: depart, stops, classes: classes.length, demand: linked };
  });
}
