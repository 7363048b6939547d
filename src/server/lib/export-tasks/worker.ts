import type { Clock } from '../../config';
import type { Db } from '../../db/connection';
import type { AppDeps } from '../../context';
import { claimTask } from './claim';
import type { TaskHub } from './hub';
import type { AnyExportKind } from './kind';
import { runTask } from './run-task';
import { type TaskRow, expireTasks, taskDto } from './store';

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

/**
 * Runs export tasks one at a time on this instance. A claim is one `update … where id = (select …
 * for update skip locked)`: two instances never take the same task, and a task whose instance died
 * (heartbeat too old) is taken again from the start. Closing puts the running task back in the queue.
 * The claim is `claimTask`'s, a task's run (heartbeat, file pieces, how it ends) `runTask`'s.
 */
export function createWorker(o: WorkerOptions) {
  let running: Promise<void> | null = null;
  let again = false;
  let closing = false;

  const publish = (row: TaskRow) => o.hub.publish(row.userId, { type: 'task', task: taskDto(row) });

  async function drain(): Promise<void> {
    const db = await o.db();
    for (const r of await expireTasks(db, o.clock.now())) publish(r);
    for (;;) {
      again = false;
      if (closing) return;
      const task = await claimTask(db, o, publish);
      if (!task) {
        if (again) continue;
        return;
      }
      publish(task);
      await runTask(db, o, task, publish, () => closing);
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
