import { and, asc, count, eq, inArray, lte, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { lineVersion as api } from '../../../shared/api';
import { VERSION_STATE, type VersionStatus } from '../../../shared/api/line-version';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { type Actor, audit } from '../../lib/audit';
import { fail, isUniqueViolation, notFound } from '../../lib/errors';
import { listService } from '../../lib/list';
import { assertInScope } from '../../lib/scope';
import { moveStatus } from '../../lib/transition';
import { checkVersion, nextVersion, updateVersioned } from '../../lib/row-version';
import { iso } from '../../lib/sql';
import { validateVersion } from './validate';

type PageQuery = z.output<typeof api.versionPage.query>;
type AddBody = z.output<typeof api.versionAdd.body>;
type StatusBody = z.output<typeof api.versionUpdateStatus.body>;
type OnlineBody = z.output<typeof api.versionSetOnlineTime.body>;
type DeleteBody = z.output<typeof api.versionDelete.body>;

const lineCount = sql<number>`(select count(*)::int from ${t.busLines} where ${t.busLines.versionId} = ${t.lineVersions.id})`;
const columns = { v: t.lineVersions, districtName: t.districts.name, lineCount };

const dto = (r: { v: typeof t.lineVersions.$inferSelect; districtName: string | null; lineCount: number }) => ({
  id: r.v.id,
  districtId: r.v.districtId,
  districtName: r.districtName,
  name: r.v.name,
  status: r.v.status as VersionStatus,
  onlineAt: r.v.onlineAt ? iso(r.v.onlineAt) : null,
  wentOnlineAt: r.v.wentOnlineAt ? iso(r.v.wentOnlineAt) : null,
  remark: r.v.remark,
  lineCount: Number(r.lineCount),
  createdDate: iso(r.v.createdAt),
  updatedDate: iso(r.v.updatedAt),
  rowVersion: r.v.rowVersion,
});

const select = (db: Db) => db.select(columns).from(t.lineVersions).leftJoin(t.districts, eq(t.districts.id, t.lineVersions.districtId));

async function load(db: Db, id: number) {
  const [row] = await select(db).where(eq(t.lineVersions.id, id));
  if (!row) throw notFound('版本不存在');
  return dto(row);
}

/** 线网版本: the area's versions, newest first, by status. */
export const versionList = listService({
  endpoint: api.versionPage,
  select,
  count: (db) => db.select({ n: count() }).from(t.lineVersions),
  scope: t.lineVersions.districtId,
  filters: { status: (status) => eq(t.lineVersions.status, status) },
  sorts: { createdDate: t.lineVersions.createdAt, status: t.lineVersions.status },
  order: { column: t.lineVersions.createdAt, dir: 'desc' },
  key: { column: t.lineVersions.id, of: (r) => r.v.id },
  dto: (r) => dto(r),
});

export const pageVersions = (deps: AppDeps, a: AuthContext, q: PageQuery) => versionList.page(deps, a, q);

/** One version of the area by id, in any status. */
export async function versionById(deps: AppDeps, a: AuthContext, id: number) {
  const v = await load(deps.db, id);
  assertInScope(a, v.districtId);
  return v;
}

/** A new version starts as a copy of the district's online network (lines, stops, paths, sub-lines). */
export async function copyNetwork(db: Db, fromVersionId: number, toVersionId: number, now: Date): Promise<number> {
  const lines = await db.select().from(t.busLines).where(eq(t.busLines.versionId, fromVersionId)).orderBy(asc(t.busLines.id));
  if (!lines.length) return 0;
  // One statement for all lines, matched back by their code (unique within a version).
  const created = await db
    .insert(t.busLines)
    .values(lines.map(({ id: _id, versionId: _v, ...rest }) => ({ ...rest, versionId: toVersionId, createdAt: now, updatedAt: now })))
    .returning({ id: t.busLines.id, code: t.busLines.code });
  const newId = new Map(created.map((c) => [c.code, c.id]));
  const lineMap = new Map(lines.map((l) => [l.id, newId.get(l.code)!]));
  const pairs = sql.join([...lineMap].map(([o, n]) => sql`(${o}::int, ${n}::int)`), sql`, `);
  await db.execute(sql`insert into line_stations (line_id, direction, seq, station_id) select m.n, s.direction, s.seq, s.station_id from line_stations s join (values ${pairs}) as m(o, n) on s.line_id = m.o`);
  await db.execute(sql`insert into line_routes (line_id, direction, points) select m.n, r.direction, r.points from line_routes r join (values ${pairs}) as m(o, n) on r.line_id = m.o`);
  // Variants are few (a line's 区间 or 大站快车) and have no key to match by: one at a time.
  const details = await db.select().from(t.lineDetails).where(inArray(t.lineDetails.lineId, [...lineMap.keys()])).orderBy(asc(t.lineDetails.id));
  for (const { id, lineId, ...rest } of details) {
    const [n] = await db.insert(t.lineDetails).values({ ...rest, lineId: lineMap.get(lineId)!, createdAt: now, updatedAt: now }).returning({ id: t.lineDetails.id });
    await db.execute(sql`insert into line_detail_stations (detail_id, seq, station_id) select ${n!.id}, seq, station_id from line_detail_stations where detail_id = ${id}`);
  }
  return lineMap.size;
}

export async function addVersion(deps: AppDeps, a: AuthContext, body: AddBody) {
  const now = deps.clock.now();
  if (a.districtScope === null) throw fail('请先选择区域再新增版本');
  const district = a.districtScope;
  try {
    return await deps.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(t.lineVersions)
        .values({ districtId: district, name: body.name, remark: body.remark ?? null, status: 0, createdBy: a.actor.id, createdAt: now, updatedAt: now })
        .returning({ id: t.lineVersions.id });
      const [online] = await tx.select({ id: t.lineVersions.id }).from(t.lineVersions).where(and(eq(t.lineVersions.districtId, district), eq(t.lineVersions.status, 3)));
      const copied = online ? await copyNetwork(tx, online.id, created!.id, now) : 0;
      const after = await load(tx, created!.id);
      await audit(tx, a.actor, { type: 'VERSION_ADD', targetDistrictId: district, target: `version/${after.id}`, summary: `新增版本「${after.name}」，复制线路 ${copied} 条`, after }, now);
      return after;
    });
  } catch (err) {
    // The partial unique index, not only this code, keeps one open version per district.
    if (isUniqueViolation(err)) throw fail('该区域已有开放编辑的版本，请先提交或作废它');
    throw err;
  }
}

async function lockVersion(db: Db, a: AuthContext, id: number) {
  const [v] = await db.select().from(t.lineVersions).where(eq(t.lineVersions.id, id)).for('update');
  if (!v) throw notFound('版本不存在');
  assertInScope(a, v.districtId);
  return v;
}

const label = (s: number) => VERSION_STATE.label(s as VersionStatus);

/**
 * A version without a line is no network: going online would leave its district with none. It is
 * refused at each step towards online (submit, pass, the online time) and again by the go-live job.
 */
async function hasLines(db: Db, versionId: number): Promise<boolean> {
  const [row] = await db.select({ id: t.busLines.id }).from(t.busLines).where(eq(t.busLines.versionId, versionId)).limit(1);
  return !!row;
}
const NO_LINES = (step: string) => `版本中没有线路，不能${step}`;

/**
 * A person's status move: the flow decides which moves exist (moveStatus: row lock, the flow's
 * refusal, the guarded update); towards online a version must also have lines, and submitting
 * checks the whole network. Those checks run only for a move the flow allows, so a refused move
 * reads as the flow's refusal, whatever the network.
 */
export async function updateStatus(deps: AppDeps, a: AuthContext, body: StatusBody) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const v = await lockVersion(tx, a, body.id);
    const from = v.status as VersionStatus;
    const what = `版本「${v.name}」`;
    // A version saved or moved since the operator saw it is refused before anything else is checked.
    await checkVersion(v, body.rowVersion, () => load(tx, v.id));
    // Only a move that will be made is checked against the network: a stale or refused one reads as such.
    if (from === body.fromStatus && VERSION_STATE.can(from, body.status)) {
      if ((body.status === 1 || body.status === 2) && !(await hasLines(tx, v.id))) throw fail(NO_LINES(body.status === 1 ? '提交审核' : '审核通过'));
      if (body.status === 1) {
        const problems = await validateVersion(tx, v.id);
        if (problems.length) throw fail(`${what}有 ${problems.length} 个问题，不能提交审核：${problems[0]!.msg}${problems.length > 1 ? ' 等' : ''}`, { problems });
      }
    }
    const before = await load(tx, v.id);
    await moveStatus(tx, {
      flow: VERSION_STATE,
      table: t.lineVersions,
      key: t.lineVersions.id,
      id: v.id,
      status: t.lineVersions.status,
      from: body.fromStatus,
      to: body.status,
      set: { status: body.status, remark: body.remark ?? v.remark, updatedAt: now, ...(body.status === 0 || body.status === 5 ? { onlineAt: null } : {}) },
      what,
      // The row is locked since lockVersion: `from` is what it is now.
      stale: `${what}已被他人改为「${label(from)}」，请刷新后查看`,
      version: { column: t.lineVersions.rowVersion, sent: body.rowVersion, current: () => before },
    });
    const after = await load(tx, v.id);
    await audit(tx, a.actor, { type: 'VERSION_STATUS', targetDistrictId: v.districtId, target: `version/${v.id}`, summary: `${what}${label(from)} → ${label(body.status)}${body.remark ? `：${body.remark}` : ''}`, before, after }, now);
    return after;
  });
}

export async function setOnlineTime(deps: AppDeps, a: AuthContext, body: OnlineBody) {
  const now = deps.clock.now();
  const at = new Date(body.onlineAt);
  if (at.getTime() <= now.getTime()) throw fail('上线时间必须晚于当前时间');
  return deps.db.transaction(async (tx) => {
    const v = await lockVersion(tx, a, body.id);
    await checkVersion(v, body.rowVersion, () => load(tx, v.id));
    if (v.status !== 2) throw fail(`只有审核通过的版本可以设置上线时间（「${v.name}」为${label(v.status)}）`);
    if (!(await hasLines(tx, v.id))) throw fail(NO_LINES('设置上线时间'));
    const before = await load(tx, v.id);
    await updateVersioned(tx, { table: t.lineVersions, key: t.lineVersions.id, id: v.id, version: body.rowVersion, set: { onlineAt: at, updatedAt: now }, current: () => before });
    const after = await load(tx, v.id);
    await audit(tx, a.actor, { type: 'VERSION_ONLINE_TIME', targetDistrictId: v.districtId, target: `version/${v.id}`, summary: `版本「${v.name}」将于 ${body.onlineAt} 上线`, before, after }, now);
    return after;
  });
}

/** 删除版本 voids it (status 5): a version's history stays readable; only 0, 1 and 2 can be voided. */
export const deleteVersion = (deps: AppDeps, a: AuthContext, body: DeleteBody) => updateStatus(deps, a, { id: body.id, status: 5, fromStatus: body.fromStatus, remark: '删除', rowVersion: body.rowVersion });

const SYSTEM_ACTOR: Actor = { id: null, login: 'system', districtId: null, ip: null };

/**
 * The go-live job: each passed version whose time has come goes online, the district's old online
 * version offline, in one transaction. `for update skip locked` hands each due version to exactly one
 * server instance; the status check under the lock makes a second run a no-op.
 *
 * A due version without lines (passed before passing checked for them, or emptied since) does not
 * go online: the district keeps its network. It stays passed with its time cleared, so it is held
 * once (one audit row saying why) instead of being looked at again every run; a planner voids it
 * and builds a new version. Voiding it here instead would be a decision no person made.
 */
export async function takeDueVersionsOnline(deps: AppDeps): Promise<number[]> {
  const done: number[] = [];
  for (;;) {
    const now = deps.clock.now();
    const taken = await deps.db.transaction(async (tx) => {
      const [due] = await tx
        .select()
        .from(t.lineVersions)
        .where(and(eq(t.lineVersions.status, 2), lte(t.lineVersions.onlineAt, now)))
        .orderBy(t.lineVersions.onlineAt, t.lineVersions.id)
        .limit(1)
        .for('update', { skipLocked: true });
      if (!due) return null;
      if (!(await hasLines(tx, due.id))) {
        const before = await load(tx, due.id);
        await tx.update(t.lineVersions).set({ onlineAt: null, updatedAt: now, rowVersion: nextVersion(t.lineVersions.rowVersion) }).where(eq(t.lineVersions.id, due.id));
        const after = await load(tx, due.id);
        await audit(
          tx,
          SYSTEM_ACTOR,
          { type: 'VERSION_ONLINE_HELD', targetDistrictId: due.districtId, target: `version/${due.id}`, summary: `版本「${due.name}」（${after.districtName ?? '未知区域'}）中没有线路，未上线：已取消上线时间，原线网继续运行`, before, after, result: 0 },
          now,
        );
        return { id: due.id, online: false };
      }
      const old = await tx
        .update(t.lineVersions)
        .set({ status: 4, updatedAt: now, rowVersion: nextVersion(t.lineVersions.rowVersion) })
        .where(and(eq(t.lineVersions.districtId, due.districtId), eq(t.lineVersions.status, 3)))
        .returning({ id: t.lineVersions.id, name: t.lineVersions.name });
      await tx.update(t.lineVersions).set({ status: 3, wentOnlineAt: now, updatedAt: now, rowVersion: nextVersion(t.lineVersions.rowVersion) }).where(eq(t.lineVersions.id, due.id));
      await audit(tx, SYSTEM_ACTOR, { type: 'VERSION_ONLINE', targetDistrictId: due.districtId, target: `version/${due.id}`, summary: `版本「${due.name}」已上线${old[0] ? `，「${old[0].name}」下线` : ''}`, after: { online: due.id, offline: old[0]?.id ?? null } }, now);
      return { id: due.id, online: true };
    });
    if (taken === null) return done;
    if (taken.online) done.push(taken.id);
  }
}
