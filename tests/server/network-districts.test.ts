import { and, asc, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Msg, type Endpoint } from '../../src/shared/api';
import { CONTRACT_MODULES } from '../../src/shared/api/contract';
import * as t from '../../src/server/db/schema';
import { businessRows } from '../support/business-rows';
import { type CallOptions, type TestServer, startTestServer } from '../support/test-server';

/**
 * District refusals, every network endpoint: the 徐汇区 manager (a planner there) reaching into
 * another district, by a record id of that district or by naming it in the districtId header, is
 * refused 403 `当前用户没有权限操作该区域` and nothing changes.
 */
let s: TestServer;
let manager: string;
const foreign = { district: 0, station: 0, station2: 0, openVersion: 0, passedVersion: 0, line: 0, lineStop: 0, route: 0, subLine: 0, subLineStop: 0 };

beforeAll(async () => {
  s = await startTestServer();
  manager = await s.login('manager');
  const db = s.database.db;
  const [xuhui] = await db.select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
  const [other] = await db.select().from(t.districts).where(ne(t.districts.id, xuhui!.id)).orderBy(asc(t.districts.id)).limit(1);
  foreign.district = other!.id;
  const stations = await db.select().from(t.stations).where(eq(t.stations.districtId, other!.id)).orderBy(asc(t.stations.id)).limit(2);
  [foreign.station, foreign.station2] = [stations[0]!.id, stations[1]!.id];
  const [open] = await db.select().from(t.lineVersions).where(and(eq(t.lineVersions.districtId, other!.id), eq(t.lineVersions.status, 0)));
  foreign.openVersion = open!.id;
  const now = new Date();
  const [passed] = await db.insert(t.lineVersions).values({ districtId: other!.id, name: '外区待上线', status: 2, createdAt: now, updatedAt: now }).returning();
  foreign.passedVersion = passed!.id;
  const [line] = await db.select().from(t.busLines).where(eq(t.busLines.versionId, open!.id)).orderBy(asc(t.busLines.id)).limit(1);
  foreign.line = line!.id;
  const [stop] = await db.select().from(t.lineStations).where(eq(t.lineStations.lineId, line!.id)).limit(1);
  foreign.lineStop = stop!.id;
  const [route] = await db.select().from(t.lineRoutes).where(eq(t.lineRoutes.lineId, line!.id)).limit(1);
  foreign.route = route!.id;
  const [detail] = await db.insert(t.lineDetails).values({ lineId: line!.id, name: '外区区间', direction: 0, createdAt: now, updatedAt: now }).returning();
  foreign.subLine = detail!.id;
  const [ds] = await db.insert(t.lineDetailStations).values({ detailId: detail!.id, seq: 0, stationId: stop!.stationId }).returning();
  foreign.subLineStop = ds!.id;
});
afterAll(() => s.close());

const f = foreign;
/** Each network endpoint aimed at the other district: by a record of it, or by its id in the districtId header. */
const AIMED: Record<string, () => CallOptions> = {
  'station.list': () => ({ district: f.district }),
  'station.save': () => ({ body: { id: f.station, name: '越界修改', lng: 121.4, lat: 31.2 } }),
  'station.updateState': () => ({ body: { id: f.station, state: 0, fromStatus: 1 } }),
  'station.qrByStation': () => ({ query: { stationId: f.station } }),
  'station.qrInit': () => ({ district: f.district }),
  'station.qrSurplus': () => ({ district: f.district }),
  'stationQr.page': () => ({ district: f.district }),
  'station.mergePreview': () => ({ query: { stationId: f.station, mergeStationId: f.station2 } }),
  'station.merge': () => ({ query: { stationId: f.station, mergeStationId: f.station2 } }),
  'station.listExcludeLine': () => ({ query: { lineId: f.line, direction: '0' } }),
  'station.listIncludeLine': () => ({ query: { lineId: f.line } }),
  'stationQr.export': () => ({ district: f.district }),
  'version.page': () => ({ district: f.district }),
  'version.info': () => ({ query: { id: f.passedVersion } }),
  'version.add': () => ({ body: { name: '越界版本' }, district: f.district }),
  'version.updateStatus': () => ({ body: { id: f.openVersion, status: 5, fromStatus: 0 } }),
  'version.setOnlineTime': () => ({ body: { id: f.passedVersion, onlineAt: '2099-01-01T08:00:00+08:00' } }),
  'version.delete': () => ({ body: { id: f.openVersion, fromStatus: 0 } }),
  'version.diff': () => ({ query: { id: f.openVersion } }),
  'busLine.list': () => ({ query: { versionId: f.openVersion } }),
  'busLine.save': () => ({ body: { id: f.line, code: 'X', name: '越界' } }),
  'busLine.disable': () => ({ body: { id: f.line } }),
  'busLine.info': () => ({ query: { id: f.line } }),
  'busLine.delete': () => ({ body: { id: f.line } }),
  'busLineRoute.list': () => ({ query: { lineId: f.line } }),
  'busLineRoute.save': () => ({ body: { lineId: f.line, direction: 0, points: [[121.4, 31.2], [121.41, 31.21]] } }),
  'busLineRoute.deleteBatch': () => ({ body: { ids: [f.route] } }),
  'busLineStation.info': () => ({ query: { lineId: f.line, direction: '0' } }),
  'busLineStation.save': () => ({ body: { lineId: f.line, direction: 0, stationIds: [] } }),
  'busLineStation.delete': () => ({ body: { id: f.lineStop } }),
  'busLineDetail.list': () => ({ query: { lineId: f.line } }),
  'busLineDetail.save': () => ({ body: { lineId: f.line, name: '越界子线路', direction: 0 } }),
  'busLineDetail.info': () => ({ query: { id: f.subLine } }),
  'busLineDetail.delete': () => ({ body: { id: f.subLine } }),
  'busLineDetail.setAllOn': () => ({ body: { id: f.subLine } }),
  'busLineDetailStation.save': () => ({ body: { detailId: f.subLine, stationIds: [] } }),
  'busLineDetailStation.info': () => ({ query: { detailId: f.subLine } }),
  'busLineDetailStation.delete': () => ({ body: { id: f.subLineStop } }),
};

// 帮助中心 lives in the version module but is no part of the network: its docs are scoped on their own (tests/server/help.test.ts).
const network: Endpoint[] = CONTRACT_MODULES.filter((m) => ['station', 'version', 'bus'].includes(m.id)).flatMap((m) => [...m.endpoints]).filter((e) => !e.id.startsWith('help.'));

describe('another district’s network, as the 徐汇区 manager', () => {
  it('the table aims every network endpoint', () => {
    expect(Object.keys(AIMED).sort()).toEqual(network.map((e) => e.id).sort());
  });

  it.each(network.map((e) => [e.id, e] as const))('%s is refused 403 and changes nothing', async (id, e) => {
    const before = await businessRows(s.database.db);
    const stations = await s.database.db.select().from(t.stations).orderBy(asc(t.stations.id));
    const versions = await s.database.db.select().from(t.lineVersions).orderBy(asc(t.lineVersions.id));
    const res = await s.call(e, { ...AIMED[id]!(), token: manager });
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body).toEqual({ code: 403, msg: Msg.foreignDistrict, data: null });
    expect(await businessRows(s.database.db)).toEqual(before);
    expect(await s.database.db.select().from(t.stations).orderBy(asc(t.stations.id))).toEqual(stations);
    expect(await s.database.db.select().from(t.lineVersions).orderBy(asc(t.lineVersions.id))).toEqual(versions);
  });
});
