import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { and, count, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { station } from '../../../shared/api';
import { STATION_QR_PAGE, STATION_STATE } from '../../../shared/api/station';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { audit } from '../../lib/audit';
import { fail, isUniqueViolation, notFound } from '../../lib/errors';
import { listService } from '../../lib/list';
import { assertInScope, inScope } from '../../lib/scope';
import { contains, iso } from '../../lib/sql';
import { moveStatus } from '../../lib/transition';
import { updateVersioned } from '../../lib/row-version';
import { defineExport, listRows, sendExport } from '../../lib/export-definition';

type ListQuery = z.output<typeof station.stationList.query>;
type SaveBody = z.output<typeof station.stationSave.body>;
type StateBody = z.output<typeof station.stationUpdateState.body>;
type QrPageQuery = z.output<typeof station.stationQrPage.query>;

export const stationColumns = { station: t.stations, districtName: t.districts.name };

export const stationDto = (r: { station: typeof t.stations.$inferSelect; districtName: string | null }) => ({
  id: r.station.id,
  districtId: r.station.districtId,
  districtName: r.districtName,
  name: r.station.name,
  lng: r.station.lng,
  lat: r.station.lat,
  state: r.station.state === 0 ? (0 as const) : (1 as const),
  qrCode: r.station.qrCode,
  updatedDate: iso(r.station.updatedAt),
  rowVersion: r.station.rowVersion,
});

export const selectStations = (db: Db) => db.select(stationColumns).from(t.stations).leftJoin(t.districts, eq(t.districts.id, t.stations.districtId));

/** 站点列表: the chosen area's stations by name, state and whether they have a QR code. */
export const stationList = listService({
  endpoint: station.stationList,
  select: selectStations,
  count: (db) => db.select({ n: count() }).from(t.stations),
  scope: t.stations.districtId,
  filters: {
    name: (name) => contains(t.stations.name, name),
    state: (state) => eq(t.stations.state, state),
    hasQr: (hasQr) => (hasQr ? isNotNull(t.stations.qrCode) : isNull(t.stations.qrCode)),
  },
  sorts: { name: t.stations.name, updatedDate: t.stations.updatedAt },
  order: { column: t.stations.id, dir: 'asc' },
  key: { column: t.stations.id, of: (r) => r.station.id },
  dto: (r) => stationDto(r),
});

export const listStations = (deps: AppDeps, a: AuthContext, q: ListQuery) => stationList.page(deps, a, q);

async function loadStation(db: Db, id: number) {
  const [row] = await selectStations(db).where(eq(t.stations.id, id));
  if (!row) throw notFound('站点不存在');
  return row;
}

/** One station as the contract shows it. */
export const stationById = async (db: Db, id: number) => stationDto(await loadStation(db, id));

export async function saveStation(deps: AppDeps, a: AuthContext, body: SaveBody) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const values = { name: body.name, lng: body.lng, lat: body.lat, state: body.state, updatedAt: now };
    if (body.id) {
      const [before] = await tx.select().from(t.stations).where(eq(t.stations.id, body.id)).for('update');
      if (!before) throw notFound('站点不存在');
      assertInScope(a, before.districtId);
      await updateVersioned(tx, { table: t.stations, key: t.stations.id, id: body.id, version: body.rowVersion, set: values, current: async () => stationDto(await loadStation(tx, before.id)) });
      const after = await loadStation(tx, body.id);
      await audit(tx, a.actor, { type: 'STATION_SAVE', targetDistrictId: before.districtId, target: `station/${before.id}`, summary: `修改站点「${after.station.name}」`, before: stationDto({ station: before, districtName: after.districtName }), after: stationDto(after) }, now);
      return stationDto(after);
    }
    // A station belongs to one district: an account on 全部区域 chooses it first (the area header).
    if (a.districtScope === null) throw fail('请先选择区域再新增站点');
    const [created] = await tx.insert(t.stations).values({ ...values, districtId: a.districtScope, createdAt: now }).returning({ id: t.stations.id });
    const after = await loadStation(tx, created!.id);
    await audit(tx, a.actor, { type: 'STATION_SAVE', targetDistrictId: a.districtScope, target: `station/${created!.id}`, summary: `新增站点「${after.station.name}」`, after: stationDto(after) }, now);
    return stationDto(after);
  });
}

/**
 * 启用 / 停用: the state alone, from the one the operator saw, through the status flow (row lock,
 * stale check, guarded update) with its audit row in the same transaction. The name and place are
 * left as they are now: a switch (or its 撤销) never writes back a name someone has since changed.
 */
export async function updateStationState(deps: AppDeps, a: AuthContext, body: StateBody) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(t.stations).where(eq(t.stations.id, body.id)).for('update');
    if (!row) throw notFound('站点不存在');
    assertInScope(a, row.districtId);
    const before = await loadStation(tx, body.id);
    const what = `站点「${row.name}」`;
    await moveStatus(tx, {
      flow: STATION_STATE,
      table: t.stations,
      key: t.stations.id,
      id: body.id,
      status: t.stations.state,
      from: body.fromStatus,
      to: body.state,
      set: { state: body.state, updatedAt: now },
      what,
      // On or off: a row that is no longer as the operator saw it is already where they wanted it.
      stale: `${what}已被他人${STATION_STATE.label(body.state)}，请刷新后查看`,
      version: { column: t.stations.rowVersion, sent: body.rowVersion, current: () => stationDto(before) },
    });
    const after = await loadStation(tx, body.id);
    await audit(tx, a.actor, { type: 'STATION_SAVE', targetDistrictId: row.districtId, target: `station/${row.id}`, summary: `${STATION_STATE.label(body.state)}站点「${row.name}」`, before: stationDto(before), after: stationDto(after) }, now);
    return stationDto(after);
  });
}

/** Lower-case letters and digits without look-alikes (0/o, 1/l/i): read aloud or typed from a print. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** `s` and 9 random characters: 31⁹ ≈ 2.6·10¹³ codes, far inside a mini-program scene's 32. */
export function newQrCode(): string {
  const bytes = randomBytes(9);
  return `s${[...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join('')}`;
}

const qrDto = (s: { id: number; name: string; qrCode: string }) => ({
  stationId: s.id,
  stationName: s.name,
  qrCode: s.qrCode,
  content: `${STATION_QR_PAGE}?scene=${s.qrCode}`,
});

/**
 * Gives each listed station without a code one, in bulk (500 per statement). A collision between
 * random codes (odds ~10⁻¹³ per pair) fails the unique index and so the whole transaction, which
 * `withCodeRetry` runs again with fresh codes: no savepoint per row.
 */
async function assignCodes(db: Db, ids: readonly number[], now: Date): Promise<number> {
  let done = 0;
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const values = sql.join(chunk.map((id) => sql`(${id}::int, ${newQrCode()})`), sql`, `);
    const res = await db.execute(
      sql`update stations set qr_code = v.code, updated_at = ${now} from (values ${values}) as v(id, code) where stations.id = v.id and stations.qr_code is null`,
    );
    done += Number((res as { rowCount?: number; affectedRows?: number }).rowCount ?? (res as { affectedRows?: number }).affectedRows ?? 0);
  }
  return done;
}

async function withCodeRetry<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt < 2 && isUniqueViolation(err)) continue;
      throw err;
    }
  }
}

export async function qrByStation(deps: AppDeps, a: AuthContext, stationId: number) {
  const now = deps.clock.now();
  return withCodeRetry(() => deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(t.stations).where(eq(t.stations.id, stationId)).for('update');
    if (!row) throw notFound('站点不存在');
    assertInScope(a, row.districtId);
    if (row.qrCode) return qrDto({ id: row.id, name: row.name, qrCode: row.qrCode });
    // Asked for a station that has none yet: it gets one now, like 生成二维码 for one station.
    await assignCodes(tx, [row.id], now);
    const [fresh] = await tx.select().from(t.stations).where(eq(t.stations.id, stationId));
    await audit(tx, a.actor, { type: 'STATION_QR_INIT', targetDistrictId: row.districtId, target: `station/${row.id}`, summary: `生成站点二维码「${row.name}」`, after: { count: 1 } }, now);
    return qrDto({ id: row.id, name: row.name, qrCode: fresh!.qrCode! });
  }));
}

export async function qrInit(deps: AppDeps, a: AuthContext) {
  const now = deps.clock.now();
  return withCodeRetry(() => deps.db.transaction(async (tx) => {
    const missing = await tx
      .select({ id: t.stations.id })
      .from(t.stations)
      .where(and(inScope(a, t.stations.districtId), isNull(t.stations.qrCode)))
      .orderBy(t.stations.id)
      .for('update');
    const generated = await assignCodes(tx, missing.map((m) => m.id), now);
    if (generated) {
      await audit(tx, a.actor, { type: 'STATION_QR_INIT', targetDistrictId: a.districtScope, target: null, summary: `生成站点二维码 ${generated} 个`, after: { count: generated } }, now);
    }
    return { generated };
  }));
}

export async function qrSurplus(deps: AppDeps, a: AuthContext) {
  const [row] = await deps.db
    .select({ total: count(), withCode: count(t.stations.qrCode) })
    .from(t.stations)
    .where(inScope(a, t.stations.districtId));
  const total = row?.total ?? 0;
  return { surplus: total - (row?.withCode ?? 0), total };
}

/** 站点二维码: the area's stations that have a code, by name. */
const qrList = listService({
  endpoint: station.stationQrPage,
  select: (db) => db.select({ id: t.stations.id, name: t.stations.name, qrCode: t.stations.qrCode }).from(t.stations),
  count: (db) => db.select({ n: count() }).from(t.stations),
  scope: t.stations.districtId,
  base: isNotNull(t.stations.qrCode),
  filters: { name: (name) => contains(t.stations.name, name) },
  sorts: { name: t.stations.name },
  order: { column: t.stations.id, dir: 'asc' },
  key: { column: t.stations.id, of: (r) => r.id },
  dto: (r) => qrDto({ id: r.id, name: r.name, qrCode: r.qrCode ?? '' }),
});

export const qrPage = (deps: AppDeps, a: AuthContext, q: QrPageQuery) => qrList.page(deps, a, q);

/** 导出站点二维码 (the spec's direct file): the list's stations that have a code, in id order. */
export const qrExportDef = defineExport({
  id: 'station.qr',
  permission: station.stationQrExport.permission,
  sheet: '站点二维码',
  columns: [
    { header: '站点ID', width: 10, cell: (r: ReturnType<typeof stationDto>) => r.id },
    { header: '站点名称', width: 28, cell: (r) => r.name },
    { header: '区域', width: 12, cell: (r) => r.districtName },
    { header: '二维码', width: 14, cell: (r) => r.qrCode },
    { header: '二维码内容', width: 40, cell: (r) => `${STATION_QR_PAGE}?scene=${r.qrCode}` },
    { header: '经度', width: 12, cell: (r) => r.lng },
    { header: '纬度', width: 12, cell: (r) => r.lat },
  ],
  rows: listRows(stationList, (q: { name?: string | undefined }) => ({ name: q.name, hasQr: true })),
  audit: { operation: 'STATION_QR_EXPORT', summary: (q) => `导出站点二维码${q.name ? `（站点名称含「${q.name}」）` : ''}`, after: () => undefined },
});

export const qrExport = (deps: AppDeps, a: AuthContext, q: { name?: string | undefined }, reply: FastifyReply) => sendExport(deps, a, qrExportDef, q, reply);
