import { randomUUID } from 'node:crypto';
import type { ExportTask } from '../../../shared/api';
import type { Clock } from '../../config';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import { type HubTransport, TaskHub } from './hub';
import type { AnyExportKind } from './kind';
import { createTask } from './store';
import { type StreamLimits, StreamRegistry } from './streams';
import { createWorker } from './worker';

export type { AnyExportKind, ExportKind, ExportScope } from './kind';
export { TaskHub } from './hub';
export type { StreamSlot } from './streams';

export interface ExportRuntimeOptions {
  clock: Clock;
  kinds: readonly AnyExportKind[];
  /** The app's deps (built after the runtime, which they hold): what a task's rows are read with. */
  deps: () => AppDeps;
  /** The requests' database; exports use `workerDb` when there is one. */
  db: Db;
  /** A connection of the exports' own (PostgreSQL); absent: they share `db` (PGlite has one connection). */
  workerDb?: () => Promise<{ db: Db; close(): Promise<void> }>;
  transport: HubTransport | null;
  /** How many event streams a session, an account and the instance may hold. */
  streams: StreamLimits;
  ttlMs: number;
  staleMs: number;
  heartbeatMs?: number;
  /** Off: tasks wait until `tick()` is called (tests that drive the queue by hand). */
  autoRun: boolean;
  log: (msg: string, err?: unknown) => void;
}

/**
 * The download centre's moving parts on one instance: the kinds the modules offer, the hub that
 * tells consoles, and the worker. Built once per app; the routes reach it through `deps.exports`.
 */
export function createExportRuntime(o: ExportRuntimeOptions) {
  const instanceId = randomUUID();
  const kinds = new Map(o.kinds.map((k) => [k.id, k] as const));
  const hub = new TaskHub(instanceId, o.transport, o.log);
  let workerDb: Promise<{ db: Db; close(): Promise<void> }> | null = null;
  const own = () => (workerDb ??= o.workerDb ? o.workerDb() : Promise.resolve({ db: o.db, close: async () => undefined }));
  const worker = createWorker({
    instanceId,
    clock: o.clock,
    hub,
    kinds,
    deps: o.deps,
    db: async () => (await own()).db,
    beatDb: o.db,
    heartbeatMs: o.heartbeatMs ?? 1_000,
    staleMs: o.staleMs,
    maxAttempts: 3,
    ttlMs: o.ttlMs,
    log: o.log,
  });
  return {
    instanceId,
    kinds,
    hub,
    /** The event streams this instance holds (the caps on them). */
    streams: new StreamRegistry(o.streams),
    /** The timed look for work (also what picks up tasks of instances that died). */
    tick: worker.tick,
    start: () => hub.start(),
    async close() {
      await worker.close();
      await hub.stop();
      if (workerDb) await (await workerDb).close();
    },
    /** Queues a task of a declared kind for the account, tells its consoles and wakes the worker. */
    async enqueue(deps: AppDeps, a: AuthContext, kind: string, params: unknown, title: string, fileName: string): Promise<ExportTask> {
      const k = kinds.get(kind);
      if (!k) throw new Error(`export kind ${kind} is not declared by any module`);
      const task = await createTask(deps, a, k, params, title, fileName);
      hub.publish(a.user.id, { type: 'task', task });
      if (o.autoRun) void worker.tick();
      return task;
    },
  };
}

export type ExportRuntime = ReturnType<typeof createExportRuntime>;
