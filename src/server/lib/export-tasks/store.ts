import { Readable } from 'node:stream';
import { and, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { exportTask, isAllowed } from '../../../shared/api';
import { type ExportTask, type TaskPhase, EXPORT_OPEN_PER_USER } from '../../../shared/api/export-task';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { audit } from '../audit';
import { fail, notFound } from '../errors';
import { listService } from '../list';
import { iso } from '../sql';
import type { AnyExportKind } from './kind';

export type TaskRow = typeof t.exportTasks.$inferSelect;
const x = t.exportTasks;

const STATUS: Record<TaskPhase | 'deleted', number> = { queued: 0, running: 0, done: 1, failed: 2, cancelled: 2, expired: 3, deleted: 3 };

export const taskDto = (r: TaskRow): ExportTask => ({
  id: r.id,
  kind: r.kind,
  title: r.title,
  fileName: r.fileName,
  status: STATUS[r.phase as TaskPhase] ?? 2,
  phase: r.phase as TaskPhase,
  rowsDone: r.rowsDone,
  rowsTotal: r.rowsTotal,
  fileSize: r.fileSize,
  error: r.error,
  createdDate: iso(r.createdAt),
  finishedDate: r.finishedAt ? iso(r.finishedAt) : null,
  expiresDate: r.expiresAt ? iso(r.expiresAt) : null,
});

const isOpen = (r: TaskRow) => r.phase === 'queued' || r.phase === 'running';

/**
 * Puts a task in the queue with its audit row, in one transaction. The account's row is locked
 * first so that two clicks at once cannot both slip under the per-account limit.
 */
export async function createTask(deps: AppDeps, a: AuthContext, kind: AnyExportKind, params: unknown, title: string, fileName: string): Promise<ExportTask> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    await tx.select({ id: t.users.id }).from(t.users).where(eq(t.users.id, a.user.id)).for('update');
    const [open] = await tx
      .select({ n: count() })
      .from(x)
      .where(and(eq(x.userId, a.user.id), inArray(x.phase, ['queued', 'running'])));
    if ((open?.n ?? 0) >= EXPORT_OPEN_PER_USER) throw fail(`已有${EXPORT_OPEN_PER_USER}个导出任务在进行，请等它们完成后再导出`);
    const [row] = await tx
      .insert(x)
      .values({ kind: kind.id, title, fileName, params: params as object, userId: a.user.id, districtScope: a.districtScope, phase: 'queued', createdAt: now })
      .returning();
    await audit(tx, a.actor, { type: kind.operation, targetDistrictId: a.districtScope, target: `export/${row!.id}`, summary: `导出任务：${title}`, after: { taskId: row!.id, params } }, now);
    return taskDto(row!);
  });
}

/** 下载中心's list: the account's own tasks, newest first; deleted ones are in none. */
const taskList = listService({
  endpoint: exportTask.taskList,
  select: (db) => db.select().from(x),
  count: (db) => db.select({ n: count() }).from(x),
  scope: (a: Pick<AuthContext, 'districtScope' | 'user'>) => eq(x.userId, a.user.id),
  base: ne(x.phase, 'deleted'),
  filters: {},
  // Ids follow creation: the id is the creation order, ties and all.
  sorts: { createdDate: x.id },
  order: { column: x.id, dir: 'desc' },
  key: { column: x.id, of: (r) => r.id },
  dto: (r) => taskDto(r),
});

export const listTasks = (deps: AppDeps, a: AuthContext, q: { page: number; size: number; sort?: `createdDate,${'asc' | 'desc'}` | undefined }) => taskList.page(deps, a, q);

/** The open and the latest tasks of an account: what the download centre shows on connect. */
export async function recentTasks(db: Db, userId: number, limit = 50): Promise<ExportTask[]> {
  const rows = await db
    .select()
    .from(x)
    .where(and(eq(x.userId, userId), ne(x.phase, 'deleted')))
    .orderBy(desc(x.id))
    .limit(limit);
  return rows.map(taskDto);
}

/** Another account's task is "not found", not "forbidden": its existence is nobody else's business. */
async function ownTask(db: Db, a: AuthContext, id: number, lock: boolean): Promise<TaskRow> {
  const q = db.select().from(x).where(and(eq(x.id, id), eq(x.userId, a.user.id), ne(x.phase, 'deleted')));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw notFound('导出任务不存在');
  return row;
}

export async function cancelTask(deps: AppDeps, a: AuthContext, id: number): Promise<ExportTask> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await ownTask(tx, a, id, true);
    if (!isOpen(row)) throw fail('任务已结束，无需取消');
    // The worker sees the phase change at its next heartbeat and stops; its pieces go now.
    const [after] = await tx.update(x).set({ phase: 'cancelled', error: '已取消', finishedAt: now }).where(eq(x.id, id)).returning();
    await tx.delete(t.exportFileChunks).where(eq(t.exportFileChunks.taskId, id));
    await audit(tx, a.actor, { type: 'EXPORT_CANCEL', targetDistrictId: row.districtScope, target: `export/${id}`, summary: `取消导出：${row.title}` }, now);
    return taskDto(after!);
  });
}

/** Deleting a task that is still open cancels it too; its file goes either way. */
export async function deleteTask(deps: AppDeps, a: AuthContext, id: number): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const row = await ownTask(tx, a, id, true);
    await tx
      .update(x)
      .set({ phase: 'deleted', finishedAt: row.finishedAt ?? now })
      .where(eq(x.id, id));
    await tx.delete(t.exportFileChunks).where(eq(t.exportFileChunks.taskId, id));
    await audit(tx, a.actor, { type: 'EXPORT_DELETE', targetDistrictId: row.districtScope, target: `export/${id}`, summary: `删除导出任务：${row.title}` }, now);
  });
}

/**
 * A finished task's file, a piece at a time from the database. Refused when it is not ready, has
 * expired, or the account no longer holds what the export needed.
 */
export async function openDownload(deps: AppDeps, a: AuthContext, id: number, kinds: ReadonlyMap<string, AnyExportKind>) {
  const row = await ownTask(deps.db, a, id, false);
  const kind = kinds.get(row.kind);
  if (!kind || !isAllowed(kind.permission, a)) throw fail('当前账号已无权下载该文件');
  // The account's reach now, not when it asked: an area's file is for those who still see that area.
  const reach = a.user.openDistrict ? null : a.user.districtId;
  if (reach !== null && row.districtScope !== reach) throw fail('当前账号已无权下载该文件');
  if (row.phase === 'expired' || (row.expiresAt && row.expiresAt <= deps.clock.now())) throw fail('文件已过期，请重新导出');
  if (row.phase !== 'done') throw fail(isOpen(row) ? '文件尚未生成完成' : '任务未生成文件');
  await audit(deps.db, a.actor, { type: 'EXPORT_DOWNLOAD', targetDistrictId: row.districtScope, target: `export/${id}`, summary: `下载导出文件：${row.fileName}` }, deps.clock.now());
  const [pieces] = await deps.db.select({ n: count() }).from(t.exportFileChunks).where(eq(t.exportFileChunks.taskId, id));
  const total = pieces?.n ?? 0;
  async function* chunks() {
    for (let seq = 0; seq < total; seq++) {
      const [c] = await deps.db
        .select({ data: t.exportFileChunks.data })
        .from(t.exportFileChunks)
        .where(and(eq(t.exportFileChunks.taskId, id), eq(t.exportFileChunks.seq, seq)));
      // Expired or deleted under the download: end with an error rather than a short file.
      if (!c) throw new Error(`export ${id} piece ${seq} is gone`);
      yield c.data;
    }
  }
  // One piece ahead at most: a slow client does not make the server hold the file.
  return { fileName: row.fileName, size: row.fileSize, stream: Readable.from(chunks(), { highWaterMark: 1 }) };
}

/** Files past their time are removed; the tasks stay listed as 已过期. */
export async function expireTasks(db: Db, now: Date): Promise<TaskRow[]> {
  const rows = await db
    .update(x)
    .set({ phase: 'expired' })
    .where(and(eq(x.phase, 'done'), sql`${x.expiresAt} < ${now}`))
    .returning();
  if (rows.length) await db.delete(t.exportFileChunks).where(inArray(t.exportFileChunks.taskId, rows.map((r) => r.id)));
  return rows;
}
