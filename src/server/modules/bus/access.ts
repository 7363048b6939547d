import { and, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { busLine } from '../../../shared/api';
import { VERSION_STATE, type VersionStatus } from '../../../shared/api/line-version';
import { isAllowed } from '../../../shared/api/permissions';
import type { AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { fail, notFound } from '../../lib/errors';
import { assertInScope, inScope } from '../../lib/scope';

/**
 * Who may edit what, written once for every line call: a line belongs to a version of a district;
 * only an open version (0) is edited, and only by a planner of that district.
 */

export type LineRow = typeof t.busLines.$inferSelect;
export type VersionRow = typeof t.lineVersions.$inferSelect;

/** Planners: whoever may save a line may edit the rest of the open network. */
export const isPlanner = (a: AuthContext) => isAllowed(busLine.busLineSave.permission, a);
export const canEdit = (a: AuthContext, v: Pick<VersionRow, 'status'>) => v.status === 0 && isPlanner(a);

const statusLabel = (s: number) => VERSION_STATE.label(s as VersionStatus);

export async function loadLine(db: Db, a: AuthContext, lineId: number): Promise<{ line: LineRow; version: VersionRow }> {
  const [row] = await db.select({ line: t.busLines, version: t.lineVersions }).from(t.busLines).innerJoin(t.lineVersions, eq(t.lineVersions.id, t.busLines.versionId)).where(eq(t.busLines.id, lineId));
  if (!row) throw notFound('线路不存在');
  assertInScope(a, row.version.districtId);
  return row;
}

export function assertOpen(v: VersionRow): void {
  if (v.status !== 0) throw fail(`版本「${v.name}」${statusLabel(v.status)}，不能修改（只能修改开放编辑的版本）`);
}

/**
 * Locks a line for a change inside `tx`: the line row for update (two saves of its stops never
 * interleave) and its version for share, so a submit waits for the edit and an edit after a
 * submit sees the new status and is refused.
 */
export async function lockEditableLine(tx: Db, a: AuthContext, lineId: number) {
  const [line] = await tx.select().from(t.busLines).where(eq(t.busLines.id, lineId)).for('update');
  if (!line) throw notFound('线路不存在');
  const [version] = await tx.select().from(t.lineVersions).where(eq(t.lineVersions.id, line.versionId)).for('share');
  assertInScope(a, version!.districtId);
  assertOpen(version!);
  return { line, version: version! };
}

/** The open version of the request's district: where new lines go. */
export async function openVersionForNewLine(db: Db, a: AuthContext): Promise<VersionRow> {
  if (a.districtScope === null) throw fail('请先选择区域再新增线路');
  const [v] = await db.select().from(t.lineVersions).where(and(eq(t.lineVersions.districtId, a.districtScope), eq(t.lineVersions.status, 0))).for('share');
  if (!v) throw fail('该区域没有开放编辑的版本，请先在版本管理中新增版本');
  return v;
}

/**
 * The versions a list shows without a versionId: per district in scope, its open version, or its
 * online one where none is open (what planners work on, else what runs).
 */
export function currentVersions(a: AuthContext): SQL {
  const noneOpen = sql`not exists (select 1 from line_versions o where o.district_id = ${t.lineVersions.districtId} and o.status = 0)`;
  return and(inScope(a, t.lineVersions.districtId), or(eq(t.lineVersions.status, 0), and(eq(t.lineVersions.status, 3), noneOpen)))!;
}

/** Resolves a list's versions: the one asked for (in scope) or the current ones. */
export async function listVersions(db: Db, a: AuthContext, versionId: number | undefined): Promise<VersionRow[]> {
  if (versionId !== undefined) {
    const [v] = await db.select().from(t.lineVersions).where(eq(t.lineVersions.id, versionId));
    if (!v) throw notFound('版本不存在');
    assertInScope(a, v.districtId);
    return [v];
  }
  return db.select().from(t.lineVersions).where(currentVersions(a));
}

export const versionRef = (v: VersionRow | undefined) => (v ? { id: v.id, name: v.name, status: v.status } : null);

/**
 * Locks the stations a write is about to reference (`for key share`, in id order) before any stop
 * row is deleted: a merge locks its stations first and then rewrites stop rows, so taking the same
 * locks first means one waits for the other instead of the two deadlocking.
 */
export async function lockStations(db: Db, ids: readonly number[]) {
  if (!ids.length) return [];
  return db
    .select({ id: t.stations.id, districtId: t.stations.districtId })
    .from(t.stations)
    .where(inArray(t.stations.id, [...new Set(ids)]))
    .orderBy(t.stations.id)
    .for('key share');
}

/** Station ids that exist in `districtId` (locked as `lockStations`); anything else is refused by its position. */
export async function assertStationsOfDistrict(db: Db, districtId: number, ids: readonly number[]): Promise<void> {
  const found = await lockStations(db, ids);
  const ok = new Map(found.map((s) => [s.id, s.districtId]));
  const bad = ids.findIndex((id) => ok.get(id) !== districtId);
  if (bad >= 0) throw fail(ok.has(ids[bad]!) ? `第 ${bad + 1} 站不属于本区域` : `第 ${bad + 1} 站不存在（站点ID ${ids[bad]}）`);
}
