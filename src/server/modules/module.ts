import type { PgTable } from 'drizzle-orm/pg-core';
import type { ModuleId } from '../../shared/api';
import type { AppDeps } from '../context';
import type { AnyExportKind } from '../lib/export-tasks';
import type { ModuleSeed } from '../db/seed/context';
import type { Binder } from '../plugins/contract';
import type { LoginLimiter } from './shell/login-limits';

/** What the app hands every module when it binds its routes. */
export interface RouteContext {
  loginLimiter: LoginLimiter;
}

/**
 * A module's server side, exported from its folder's routes.ts and listed once in
 * modules/index.ts. It binds exactly the endpoints its manifest (src/shared/modules) declares: the
 * app refuses to start otherwise.
 */
export interface ServerModule {
  id: ModuleId;
  routes(b: Binder, deps: AppDeps, ctx: RouteContext): void;
  /**
   * The tables it owns: it alone seeds them, and no other module claims them (the seed runner
   * refuses a table claimed twice). Who owns what, at a glance.
   */
  tables: readonly PgTable[];
  /** Other modules' tables its services also write (besides the frame's `sys_log`); it never seeds them. */
  writes?: readonly PgTable[];
  /** Its part of the seed: `base` at every start, `demo` into an empty demo database, after `dependsOn`. */
  seed?: ModuleSeed;
  /**
   * Work on a timer (taking versions online): every instance runs it; the job itself makes sure each
   * piece of work is done once (row locks with SKIP LOCKED), so instances never need to agree.
   */
  jobs?: readonly ModuleJob[];
  /** What it offers to export as a task of the download centre (its routes enqueue them by kind). */
  exportKinds?: readonly AnyExportKind[];
}

export interface ModuleJob {
  name: string;
  everyMs: number;
  /** Also once as soon as the server is ready (work that must exist before the first request). */
  atStart?: boolean;
  run(deps: AppDeps): Promise<unknown>;
}
