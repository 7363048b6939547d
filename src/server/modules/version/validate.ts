import { and, asc, eq, inArray } from 'drizzle-orm';
import { MAX_STOP_OFFSET_M } from '../../../shared/api/bus-line';
import type { VersionProblem } from '../../../shared/api/line-version';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { distanceToPath } from '../../../shared/domain/geo';

const DIRECTION_LABEL: Record<number, string> = { 0: '上行', 1: '下行' };

/**
 * The blocking problems of a version (submitting needs none): every running line serves each of its
 * directions with at least two stops, never the same stop twice in a row, only stations in service,
 * and within 300 m of its path where one is drawn.
 */
export async function validateVersion(db: Db, versionId: number): Promise<VersionProblem[]> {
  const lines = await db.select().from(t.busLines).where(and(eq(t.busLines.versionId, versionId), eq(t.busLines.state, 1))).orderBy(asc(t.busLines.code));
  if (!lines.length) return [{ lineId: null, lineName: null, direction: null, msg: '版本中没有运营中的线路' }];
  const ids = lines.map((l) => l.id);
  const stops = await db
    .select({ lineId: t.lineStations.lineId, direction: t.lineStations.direction, seq: t.lineStations.seq, stationId: t.stations.id, name: t.stations.name, state: t.stations.state, lng: t.stations.lng, lat: t.stations.lat })
    .from(t.lineStations)
    .innerJoin(t.stations, eq(t.stations.id, t.lineStations.stationId))
    .where(inArray(t.lineStations.lineId, ids))
    .orderBy(asc(t.lineStations.lineId), asc(t.lineStations.direction), asc(t.lineStations.seq));
  const routes = await db.select().from(t.lineRoutes).where(inArray(t.lineRoutes.lineId, ids));
  const problems: VersionProblem[] = [];
  for (const line of lines) {
    for (const direction of line.direction === -1 ? [0, 1] : [line.direction]) {
      const where = `${line.name}${DIRECTION_LABEL[direction] ?? ''}`;
      const say = (msg: string) => problems.push({ lineId: line.id, lineName: line.name, direction, msg: `${where}：${msg}` });
      const seq = stops.filter((s) => s.lineId === line.id && s.direction === direction);
      if (seq.length < 2) say(`站点少于2个（现有 ${seq.length} 个）`);
      else if (line.isLoop && seq[0]!.stationId !== seq.at(-1)!.stationId) say(`环线的末站应回到首站「${seq[0]!.name}」`);
      seq.forEach((s, i) => {
        if (i > 0 && seq[i - 1]!.stationId === s.stationId) say(`第 ${i + 1} 站「${s.name}」与上一站相同`);
        if (s.state !== 1) say(`站点「${s.name}」已停用`);
      });
      const path = routes.find((r) => r.lineId === line.id && r.direction === direction)?.points;
      if (path && path.length >= 2) {
        for (const s of seq) {
          const off = distanceToPath([s.lng, s.lat], path);
          if (off > MAX_STOP_OFFSET_M) say(`站点「${s.name}」离线路轨迹 ${Math.round(off)} 米，超过 ${MAX_STOP_OFFSET_M} 米`);
        }
      }
    }
  }
  return problems;
}
