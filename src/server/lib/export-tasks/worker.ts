import { and, eq, sql } from 'drizzle-orm';
import { EXPORT_MAX_ROWS } from '../../../shared/api/export-task';
import type { Clock } from '../../config';
import type { Db } from '../../db/connection';
import type { AppDeps } from '../../context';
import * as t from '../../db/schema';
import { isDatabaseUnavailable } from '../errors';
import { type Cell, xlsxStream } from '../xlsx';
import type { TaskHub } from './hub';
import type { AnyExportKind, ExportScope } from './kind';
import { type TaskRow, expireTasks, taskDto } from './store';

const x = t.exportTasks;
/** Pieces of the file as stored: big enough for few rows, small enough to hold one in memory. */
const PIECE_BYTES = 1 << 20;

export interface WorkerOptions {
  instanceId: string;
  clock: Clock;
  hub: TaskHub;
  kinds: ReadonlyMap<string, AnyExportKind>;
  /** The app's deps: a task's rows are read with them, on the exports' own connection. */
  deps: () => AppDeps;
  /** The connection exports read and write on (PostgreSQL: one of their own, not the requests' pool). */
  db: () => Promise<Db>;
  /** Where the heartbeat goes: the requests' pool, free while the export's own connection is busy with a long query. */
  beatDb: Db;
  /** How often a running task proves it is alive and checks whether it was cancelled. */
  heartbeatMs: number;
  /** A running task whose heartbeat is older than this lost its instance: it is taken up again. */
  staleMs: number;
  /** A task interrupted this many times is failed instead of tried again. */
  maxAttempts: number;
  ttlMs: number;
  log: (msg: string, err?: unknown) => void;
}

class Stop extends Error {
  constructor(readonly why: 'cancelled' | 'shutdown') {
    super(why);
  }
}

/**
 * Runs export tasks one at a time on this instance. A claim is one `update … where id = (select …
 * for update skip locked)`: two instances never take the same task, and a task whose instance died
 * (heartbeat too old) is taken again from the start. Closing puts the running task back in the queue.
 */
export function createWorker(o: WorkerOptions) {
  let running: Promise<void> | null = null;
  let again = false;
  let closing = false;

  const publish = (row: TaskRow) => o.hub.publish(row.userId, { type: 'task', task: taskDto(row) });

  // Heartbeats are stamped and judged by the database's clock, never an instance's: a server whose
  // clock runs ahead must not see every live task as stale.
  const staleBefore = sql`now() - make_interval(secs => ${o.staleMs / 1000})`;

  async function claim(db: Db): Promise<TaskRow | null> {
    const now = o.clock.now();
    const gaveUp = await db
      .update(x)
      .set({ phase: 'failed', error: '导出多次中断，已停止，请重新导出', finishedAt: now, claimedBy: null })
      .where(and(eq(x.phase, 'running'), sql`${x.heartbeatAt} < ${staleBefore}`, sql`${x.attempts} >= ${o.maxAttempts}`))
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
        where phase = 'queued' or (phase = 'running' and heartbeat_at < ${staleBefore} and attempts < ${o.maxAttempts})
        order by id limit 1 for update skip locked)
      returning id`)) as unknown as { rows: { id: number }[] };
    const id = claimed.rows[0]?.id;
    if (id === undefined) return null;
    const [row] = await db.select().from(x).where(eq(x.id, Number(id)));
    return row ?? null;
  }

  async function run(db: Db, task: TaskRow): Promise<void> {
    const mine = and(eq(x.id, task.id), eq(x.claimedBy, o.instanceId), eq(x.phase, 'running'));
    const kind = o.kinds.get(task.kind);
    const scope: ExportScope = { districtScope: task.districtScope };
    const reader = { deps: { ...o.deps(), db }, scope };
    let done = 0;
    let lost = false;
    // The heartbeat runs on a timer, on the requests' connection: a long count or batch on the
    // export's own connection does not make the task look abandoned. It also carries the progress,
    // and finds out when the task was cancelled (or, after a stall, taken by another instance).
    let beating: Promise<void> = Promise.resolve();
    const timer = setInterval(() => {
      beating = o.beatDb
        .update(x)
        .set({ rowsDone: done, heartbeatAt: sql`now()` })
        .where(mine)
        .returning()
        .then(
          ([row]) => (row ? publish(row) : void (lost = true)),
          (err: unknown) => o.log(`export ${task.id} heartbeat failed`, err),
        );
    }, o.heartbeatMs);
    timer.unref();
    /** Between batches: stop when the server closes or the task is no longer this instance's. */
    const check = () => {
      if (closing) throw new Stop('shutdown');
      if (lost) throw new Stop('cancelled');
    };
    // A piece is written only while the task is still this instance's; the row is locked meanwhile,
    // so another instance cannot claim it between the check and the write.
    const writePiece = async (seq: number, data: Buffer) => {
      const res = (await db.execute(sql`
        insert into export_file_chunks (task_id, seq, data)
        select id, ${seq}, ${data}::bytea from export_tasks where id = ${task.id} and claimed_by = ${o.instanceId} and phase = 'running' for share`)) as unknown as { rowCount?: number | null; affectedRows?: number };
      if (!(res.rowCount ?? res.affectedRows ?? 0)) {
        lost = true;
        throw new Stop('cancelled');
      }
    };
    // Pieces go only when no other instance is writing the task now (cancelled, deleted, or ours).
    const dropPieces = () =>
      db.execute(sql`delete from export_file_chunks where task_id = ${task.id} and not exists (select 1 from export_tasks where id = ${task.id} and phase = 'running' and claimed_by <> ${o.instanceId})`);
    try {
      if (!kind) throw new Error(`unknown export kind ${task.kind}`);
      // A task taken up again starts over: the pieces of the interrupted attempt go first.
      await dropPieces();
      const total = await kind.count(reader, task.params as never, EXPORT_MAX_ROWS);
      if (total > EXPORT_MAX_ROWS) {
        const [row] = await db
          .update(x)
          .set({ phase: 'failed', error: `超过${EXPORT_MAX_ROWS / 10_000}万行，请缩小范围后再导出`, finishedAt: o.clock.now(), rowsTotal: total })
          .where(mine)
          .returning();
        if (row) publish(row);
        return;
      }
      const [counted] = await db.update(x).set({ rowsTotal: total, heartbeatAt: sql`now()` }).where(mine).returning();
      if (!counted) throw new Stop('cancelled');
      publish(counted);
      async function* rows(): AsyncGenerator<readonly Cell[]> {
        for await (const batch of kind!.cells(reader, task.params as never)) {
          check();
          // Rides added while the file is written do not push it past its bound.
          const room = EXPORT_MAX_ROWS - done;
          yield* batch.length > room ? batch.slice(0, room) : batch;
          done += Math.min(batch.length, room);
          if (room <= batch.length) return;
        }
      }
      const file = xlsxStream({ sheet: kind.sheet, columns: kind.columns, rows: rows() });
      let seq = 0;
      let size = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = async () => {
        if (!pendingBytes) return;
        const data = Buffer.concat(pending, pendingBytes);
        pending = [];
        pendingBytes = 0;
        await writePiece(seq++, data);
        size += data.length;
      };
      for await (const chunk of file as AsyncIterable<Buffer>) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= PIECE_BYTES) await flush();
      }
      await flush();
      const now = o.clock.now();
      const [finished] = await db
        .update(x)
        .set({ phase: 'done', rowsDone: done, fileSize: size, finishedAt: now, expiresAt: new Date(now.getTime() + o.ttlMs), claimedBy: null })
        .where(mine)
        .returning();
      if (!finished) throw new Stop('cancelled');
      publish(finished);
    } catch (err) {
      const stop = err instanceof Stop ? err : null;
      if (stop?.why === 'cancelled') {
        await dropPieces();
        return;
      }
      if (stop?.why === 'shutdown') {
        // Back in the queue for whichever instance is up next; a clean stop is not an attempt.
        const [back] = await db
          .update(x)
          .set({ phase: 'queued', claimedBy: null, heartbeatAt: null, rowsDone: 0, attempts: sql`greatest(${x.attempts} - 1, 0)` })
          .where(mine)
          .returning();
        if (back) {
          await dropPieces();
          publish(back);
        }
        return;
      }
      // Without the database the task cannot be marked: its heartbeat ages and another run takes it up.
      if (isDatabaseUnavailable(err)) throw err;
      o.log(`export ${task.id} failed`, err);
      const [failed] = await db.update(x).set({ phase: 'failed', error: '导出失败：服务内部错误，请重试', finishedAt: o.clock.now(), claimedBy: null }).where(mine).returning();
      if (failed) {
        await dropPieces();
        publish(failed);
      }
    } finally {
      clearInterval(timer);
      await beating;
    }
  }

  async function drain(): Promise<void> {
    const db = await o.db();
    for (const r of await expireTasks(db, o.clock.now())) publish(r);
    for (;;) {
      again = false;
      if (closing) return;
      const task = await claim(db);
      if (!task) {
        if (again) continue;
        return;
      }
      publish(task);
      await run(db, task);
    }
  }

  /** Looks for work now (a task was just asked for); a look already under way looks once more. */
  function tick(): Promise<void> {
    if (closing) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = drain()
      .catch((err: unknown) => o.log('export worker failed', err))
      .finally(() => (running = null));
    return running;
  }

  return {
    tick,
    async close() {
      closing = true;
      await running;
    },
  };
}
