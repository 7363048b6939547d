import { z } from 'zod';
import { BUSCODE, endpoint } from './endpoint';
import { id, timestamp } from './fields';
import { pageOf, pageQuery } from './paging';
import { type Permission, SELF } from './permissions';

/**
 * 下载中心 (spec §7 xls/async/* and xls/task-list): an export is a task that one server instance
 * runs in the background; its file is downloaded with the bearer token and expires. The calls that
 * create tasks belong to the modules whose data they export (`exportTaskEndpoint`); the task list and
 * what one does with a task are here, for every signed-in account on its own tasks.
 */

/** Spec §3 task status. */
export const TASK_STATUS = { 0: '进行中', 1: '已完成', 2: '生成失败', 3: '已删除' } as const;

/** Where a task is; spec §3's `status` is derived from it (queued/running 0, done 1, failed/cancelled 2, expired/deleted 3). */
export const TASK_PHASES = ['queued', 'running', 'done', 'failed', 'cancelled', 'expired'] as const;
export type TaskPhase = (typeof TASK_PHASES)[number];
export const TASK_PHASE_LABELS: Record<TaskPhase, string> = {
  queued: '排队中',
  running: '生成中',
  done: '已完成',
  failed: '生成失败',
  cancelled: '已取消',
  expired: '已过期',
};

/** Rows one task may hold: a sheet holds 1,048,576 rows, and a bigger file helps nobody. */
export const EXPORT_MAX_ROWS = 1_000_000;
/** Tasks one account may have waiting or running at once. */
export const EXPORT_OPEN_PER_USER = 3;

export const taskRow = z.object({
  id: z.number().int(),
  kind: z.string(),
  title: z.string(),
  fileName: z.string(),
  status: z.number().int(),
  phase: z.enum(TASK_PHASES),
  rowsDone: z.number().int(),
  /** Known once the task has counted its rows. */
  rowsTotal: z.number().int().nullable(),
  fileSize: z.number().int().nullable(),
  error: z.string().nullable(),
  createdDate: timestamp,
  finishedDate: timestamp.nullable(),
  expiresDate: timestamp.nullable(),
});
export type ExportTask = z.infer<typeof taskRow>;

/** A task is in the console's hands while queued or running. */
export const isOpenTask = (t: Pick<ExportTask, 'phase'>) => t.phase === 'queued' || t.phase === 'running';

/**
 * A call that starts an export of a module's data: same filters as its list, answers the new task
 * (GET, as spec §7 names them; it changes nothing but the caller's own task list).
 */
export function exportTaskEndpoint<Q extends z.ZodType>(def: { id: string; title: string; path: string; query: Q; permission: Permission }) {
  return endpoint({ ...def, method: 'GET', response: taskRow, timeoutMs: 15_000 });
}

export const taskList = endpoint({
  id: 'task.list',
  title: '下载中心',
  method: 'GET',
  path: `${BUSCODE}/xls/task-list`,
  query: pageQuery(['createdDate'] as const),
  response: pageOf(taskRow),
  permission: SELF,
});

/** The file of a finished task, streamed; the token is in the header, never in the address. */
export const taskDownload = endpoint({
  id: 'task.download',
  title: '下载导出文件',
  method: 'GET',
  path: `${BUSCODE}/xls/task/:id/download`,
  params: z.object({ id: id('任务ID') }),
  response: z.instanceof(Blob),
  permission: SELF,
  file: true,
  timeoutMs: 120_000,
});

export const taskCancel = endpoint({
  id: 'task.cancel',
  title: '取消导出',
  method: 'POST',
  path: `${BUSCODE}/xls/task/:id/cancel`,
  params: z.object({ id: id('任务ID') }),
  response: taskRow,
  permission: SELF,
});

export const taskDelete = endpoint({
  id: 'task.delete',
  title: '删除导出任务',
  method: 'DELETE',
  path: `${BUSCODE}/xls/task/:id`,
  params: z.object({ id: id('任务ID') }),
  response: z.null(),
  permission: SELF,
});

/**
 * The account's task changes as server-sent events (`text/event-stream`, not the envelope): a
 * `tasks` event with the open and recent tasks on connect, then a `task` event per change. The
 * console reads it with fetch and the bearer header (EventSource cannot send one).
 */
export const taskEvents = endpoint({
  id: 'task.events',
  title: '导出任务进度',
  method: 'GET',
  path: `${BUSCODE}/xls/task/events`,
  response: z.instanceof(Blob),
  permission: SELF,
  file: true,
  // To open the stream; once open it lasts as long as the session.
  timeoutMs: 10_000,
});

/**
 * Why the server ended a stream, sent as its last event: `replaced` means a newer stream of the same
 * session or account took its place (a later tab); the console then stays off until asked again
 * instead of reconnecting and replacing that tab's stream in turn.
 */
export const STREAM_CLOSE_REASONS = ['replaced'] as const;

/**
 * A record changed and committed: the resource tags whose reads are now stale, the record (`kind`
 * as the audit names it, `station`, and its id) when known, who (their login) and when, and `own`
 * when it was this very console's (tab's) call, which marks nothing as changed by someone else.
 */
/**
 * The header a console (one browser tab) sends with its calls and its event stream, a random id of
 * the tab: the stream tells that tab its own changes apart. It is never sent to anybody else.
 */
export const CONSOLE_HEADER = 'x-console-id';

export const recordChangeSchema = z.object({
  type: z.literal('change'),
  tags: z.array(z.string()),
  kind: z.string().nullable(),
  id: z.string().nullable(),
  by: z.string().nullable(),
  at: z.string(),
  own: z.boolean(),
});
export type RecordChange = z.infer<typeof recordChangeSchema>;

export const taskEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('tasks'), tasks: z.array(taskRow) }),
  z.object({ type: z.literal('task'), task: taskRow }),
  z.object({ type: z.literal('removed'), id: z.number().int() }),
  z.object({ type: z.literal('closed'), reason: z.enum(STREAM_CLOSE_REASONS) }),
  // The live console (issue 21): a committed change of a record the account may read.
  recordChangeSchema,
  // Changes may have been missed (the server's LISTEN reconnected): refetch what is shown.
  z.object({ type: z.literal('resync') }),
]);
export type TaskEvent = z.infer<typeof taskEventSchema>;
