import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import type { TaskRow } from './store';
import type { WorkerOptions } from './worker';

const x = t.exportTasks;

/**
 * Heartbeats are stamped and judged by the database's clock, never an instance's: a server whose
 * clock runs ahead must not see every live task as stale.
 */
const staleBefore = (staleMs: number) => sql`now() - make_interval(secs => ${staleMs / 1000})`;

/**
 * Takes the next task for this instance: one `update … where id = (select … for update skip
 * locked)`, so two instances never take the same one. A stale task (its instance died) is taken
 * again, unless it has been interrupted `maxAttempts` times: then it is failed, its pieces dropped.
 */
export async function claimTask(db: Db, o: WorkerOptions, publish: (row: TaskRow) => void): Promise<TaskRow | null> {
  const now = o.clock.now();
  const stale = staleBefore(o.staleMs);
  const gaveUp = await db
    .update(x)
    .set({ phase: 'failed', error: '导出多次中断，已停止，请重新导出', finishedAt: now, claimedBy: null })
    .where(and(eq(x.phase, 'running'), sql`${x.heartbeatAt} < ${stale}`, sql`${x.attempts} >= ${o.maxAttempts}`))
    .returning();
  for (const r of gaveUp) {
    await db.delete(t.exportFileChunks).where(eq(t.exportFileChunks.taskId, r.id));
    publish(r);
  }
  const claimed = (await db.execute(sql`
    update export_tasks set phase = 'running', claimed_by = ${o.instanceId}, heartbeat_at = now(), attempts = attempts + 1,
      started_at = coalesce(started_at, ${now}), rows_done = 0, rows_total = null
    where id = (
      select id from export_tasks
      where phase = 'queued' or (phase = 'running' and heartbeat_at < ${stale} and attempts < ${o.maxAttempts})
      order by id limit 1 for update skip locked)
    returning id`)) as unknown as { rows: { id: number }[] };
  const id = claimed.rows[0]?.id;
  if (id === undefined) return null;
  const [row] = await db.select().from(x).where(eq(x.id, Number(id)));
  return row ?? null;
}
