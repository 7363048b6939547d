import { and, eq, sql } from 'drizzle-orm';
import { EXPORT_MAX_ROWS } from '../../../shared/api/export-task';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { isDatabaseUnavailable } from '../errors';
import { type Cell, xlsxStream } from '../xlsx';
import type { ExportReader } from '../export-definition';
import type { AnyExportKind, ExportScope } from './kind';
import type { TaskRow } from './store';
import type { WorkerOptions } from './worker';

const x = t.exportTasks;
/** Pieces of the file as stored: big enough for few rows, small enough to hold one in memory. */
const PIECE_BYTES = 1 << 20;

class Stop extends Error {
  constructor(readonly why: 'cancelled' | 'shutdown') {
    super(why);
  }
}

/** One claimed task as it runs: what every step of it needs to know and to say. */
interface Run {
  db: Db;
  o: WorkerOptions;
  task: TaskRow;
  /** The task is still this instance's, running: every write of the run is guarded by it. */
  mine: ReturnType<typeof and>;
  publish(row: TaskRow): void;
  /** Rows written so far (the heartbeat carries it). */
  done: number;
  /** The heartbeat found the task cancelled or taken by another instance. */
  lost: boolean;
  /** The server is closing. */
  closing(): boolean;
}

/**
 * Writes one claimed task's file into the database, piece by piece, and settles the task: done,
 * failed, cancelled (its pieces dropped) or, when the server closes, back in the queue.
 */
export async function runTask(db: Db, o: WorkerOptions, task: TaskRow, publish: (row: TaskRow) => void, closing: () => boolean): Promise<void> {
  const run: Run = { db, o, task, publish, closing, done: 0, lost: false, mine: and(eq(x.id, task.id), eq(x.claimedBy, o.instanceId), eq(x.phase, 'running')) };
  const stopBeating = startHeartbeat(run);
  try {
    await writeTask(run);
  } catch (err) {
    await settleStopped(run, err);
  } finally {
    await stopBeating();
  }
}

/**
 * The heartbeat runs on a timer, on the requests' connection: a long count or batch on the export's
 * own connection does not make the task look abandoned. It also carries the progress, and finds out
 * when the task was cancelled (or, after a stall, taken by another instance).
 */
function startHeartbeat(run: Run): () => Promise<void> {
  const { o, task } = run;
  let beating: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    beating = o.beatDb
      .update(x)
      .set({ rowsDone: run.done, heartbeatAt: sql`now()` })
      .where(run.mine)
      .returning()
      .then(
        ([row]) => (row ? run.publish(row) : void (run.lost = true)),
        (err: unknown) => o.log(`export ${task.id} heartbeat failed`, err),
      );
  }, o.heartbeatMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await beating;
  };
}

/** Pieces go only when no other instance is writing the task now (cancelled, deleted, or ours). */
const dropPieces = ({ db, task, o }: Run) =>
  db.execute(sql`delete from export_file_chunks where task_id = ${task.id} and not exists (select 1 from export_tasks where id = ${task.id} and phase = 'running' and claimed_by <> ${o.instanceId})`);

async function writeTask(run: Run): Promise<void> {
  const { db, o, task } = run;
  const kind = o.kinds.get(task.kind);
  if (!kind) throw new Error(`unknown export kind ${task.kind}`);
  const scope: ExportScope = { districtScope: task.districtScope };
  const reader = { deps: { ...o.deps(), db }, scope };
  // A task taken up again starts over: the pieces of the interrupted attempt go first.
  await dropPieces(run);
  const total = await kind.count(reader, task.params as never, EXPORT_MAX_ROWS);
  if (total > EXPORT_MAX_ROWS) {
    const [row] = await db
      .update(x)
      .set({ phase: 'failed', error: `超过${EXPORT_MAX_ROWS / 10_000}万行，请缩小范围后再导出`, finishedAt: o.clock.now(), rowsTotal: total })
      .where(run.mine)
      .returning();
    if (row) run.publish(row);
    return;
  }
  const [counted] = await db.update(x).set({ rowsTotal: total, heartbeatAt: sql`now()` }).where(run.mine).returning();
  if (!counted) throw new Stop('cancelled');
  run.publish(counted);
  const size = await writePieces(run, xlsxStream({ sheet: kind.sheet, columns: kind.columns, rows: boundedRows(run, kind, reader) }));
  const now = o.clock.now();
  const [finished] = await db
    .update(x)
    .set({ phase: 'done', rowsDone: run.done, fileSize: size, finishedAt: now, expiresAt: new Date(now.getTime() + o.ttlMs), claimedBy: null })
    .where(run.mine)
    .returning();
  if (!finished) throw new Stop('cancelled');
  run.publish(finished);
}

/** The kind's rows, at most EXPORT_MAX_ROWS, stopping between batches when the run must stop. */
async function* boundedRows(run: Run, kind: AnyExportKind, reader: ExportReader): AsyncGenerator<readonly Cell[]> {
  for await (const batch of kind.cells(reader, run.task.params as never)) {
    if (run.closing()) throw new Stop('shutdown');
    if (run.lost) throw new Stop('cancelled');
    // Rides added while the file is written do not push it past its bound.
    const room = EXPORT_MAX_ROWS - run.done;
    yield* batch.length > room ? batch.slice(0, room) : batch;
    run.done += Math.min(batch.length, room);
    if (room <= batch.length) return;
  }
}

/** Stores the file in pieces of about PIECE_BYTES; returns its size. */
async function writePieces(run: Run, file: unknown): Promise<number> {
  const { db, task, o } = run;
  let seq = 0;
  let size = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (!pendingBytes) return;
    const data = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    // A piece is written only while the task is still this instance's; the row is locked meanwhile,
    // so another instance cannot claim it between the check and the write.
    const res = (await db.execute(sql`
      insert into export_file_chunks (task_id, seq, data)
      select id, ${seq++}, ${data}::bytea from export_tasks where id = ${task.id} and claimed_by = ${o.instanceId} and phase = 'running' for share`)) as unknown as { rowCount?: number | null; affectedRows?: number };
    if (!(res.rowCount ?? res.affectedRows ?? 0)) {
      run.lost = true;
      throw new Stop('cancelled');
    }
    size += data.length;
  };
  for await (const chunk of file as AsyncIterable<Buffer>) {
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes >= PIECE_BYTES) await flush();
  }
  await flush();
  return size;
}

/** A run that did not finish: cancelled (pieces dropped), shut down (back in the queue) or failed. */
async function settleStopped(run: Run, err: unknown): Promise<void> {
  const { db, o, task } = run;
  const stop = err instanceof Stop ? err : null;
  if (stop?.why === 'cancelled') {
    await dropPieces(run);
    return;
  }
  if (stop?.why === 'shutdown') {
    // Back in the queue for whichever instance is up next; a clean stop is not an attempt.
    const [back] = await db
      .update(x)
      .set({ phase: 'queued', claimedBy: null, heartbeatAt: null, rowsDone: 0, attempts: sql`greatest(${x.attempts} - 1, 0)` })
      .where(run.mine)
      .returning();
    if (back) {
      await dropPieces(run);
      run.publish(back);
    }
    return;
  }
  // Without the database the task cannot be marked: its heartbeat ages and another run takes it up.
  if (isDatabaseUnavailable(err)) throw err;
  o.log(`export ${task.id} failed`, err);
  const [failed] = await db.update(x).set({ phase: 'failed', error: '导出失败：服务内部错误，请重试', finishedAt: o.clock.now(), claimedBy: null }).where(run.mine).returning();
  if (failed) {
    await dropPieces(run);
    run.publish(failed);
  }
}
