import { and, asc, eq, notInArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { station } from '../../../shared/api';
import type { AppDeps, AuthContext } from '../../context';
import * as t from '../../db/schema';
import { notFound } from '../../lib/errors';
import { assertInScope } from '../../lib/scope';
import { contains } from '../../lib/sql';
import { selectStations, stationColumns, stationDto } from './service';

/** The station pickers of the line screens: what a direction of a line has, and what it could add. */

type ExcludeQuery = z.output<typeof station.stationListExcludeLine.query>;
type IncludeQuery = z.output<typeof station.stationListIncludeLine.query>;

/** A picker never needs more: a district has a few hundred stops; a name narrows the rest. */
const PICKER_LIMIT = 2_000;

async function lineDistrict(deps: AppDeps, a: AuthContext, lineId: number) {
  const [row] = await deps.db.select({ districtId: t.lineVersions.districtId }).from(t.busLines).innerJoin(t.lineVersions, eq(t.lineVersions.id, t.busLines.versionId)).where(eq(t.busLines.id, lineId));
  if (!row) throw notFound('线路不存在');
  assertInScope(a, row.districtId);
  return row.districtId;
}

export async function stationsNotOnLine(deps: AppDeps, a: AuthContext, q: ExcludeQuery) {
  const districtId = await lineDistrict(deps, a, q.lineId);
  const onLine = deps.db.select({ id: t.lineStations.stationId }).from(t.lineStations).where(and(eq(t.lineStations.lineId, q.lineId), eq(t.lineStations.direction, q.direction)));
  const rows = await selectStations(deps.db)
    .where(and(eq(t.stations.districtId, districtId), notInArray(t.stations.id, onLine), q.name ? contains(t.stations.name, q.name) : undefined))
    .orderBy(asc(t.stations.name), asc(t.stations.id))
    .limit(PICKER_LIMIT);
  return rows.map(stationDto);
}

export async function stationsOnLine(deps: AppDeps, a: AuthContext, q: IncludeQuery) {
  await lineDistrict(deps, a, q.lineId);
  const rows = await deps.db
    .select({ ...stationColumns, direction: t.lineStations.direction, seq: t.lineStations.seq })
    .from(t.lineStations)
    .innerJoin(t.stations, eq(t.stations.id, t.lineStations.stationId))
    .leftJoin(t.districts, eq(t.districts.id, t.stations.districtId))
    .where(and(eq(t.lineStations.lineId, q.lineId), q.direction === undefined ? undefined : eq(t.lineStations.direction, q.direction)))
    .orderBy(asc(t.lineStations.direction), asc(t.lineStations.seq));
  return rows.map((r) => ({ ...stationDto(r), direction: r.direction, seq: r.seq }));
}
