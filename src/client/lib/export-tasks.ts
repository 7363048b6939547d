import { exportTask } from '../../shared/api';
import { type ExportTask, isOpenTask } from '../../shared/api/export-task';
import { api } from './api-client';
import { createStore } from './store';

/**
 * The download centre's state, in the shell: the account's export tasks and whether the centre is
 * open. What keeps them current (the server's event stream, the toasts) is `task-stream.ts`,
 * fetched the first time there is something to follow.
 */

export interface TasksState {
  tasks: ExportTask[];
  /** Whether the stream is up (the centre says "正在连接服务器" otherwise). */
  live: boolean;
}

export const taskStore = createStore<TasksState>({ tasks: [], live: false });
/** Opens the centre; the layout owns the dialog and sets this. */
export const downloadCentreOpen = createStore(false);

let following = false;
let stopFollowing: (() => void) | null = null;

/**
 * Follows the account's tasks from now until `stopTasks()` (the layout's end: logout). The stream is
 * opened only when there is something to follow (an export asked for, the centre opened, a task
 * still running at sign-in): most of the day an operator exports nothing, and the server holds no
 * connection for them.
 */
export function ensureFollowingTasks(): void {
  if (following) return;
  following = true;
  void import('./task-stream').then((m) => {
    if (following && !stopFollowing) stopFollowing = m.followTasks();
  });
}

export function stopTasks(): void {
  following = false;
  stopFollowing?.();
  stopFollowing = null;
  taskStore.set({ tasks: [], live: false });
}

/** At sign-in (or F5): a task still under way from before is followed again, so its toast comes. */
export async function resumeTasks(): Promise<void> {
  try {
    const page = await api.call(exportTask.taskList, { query: { size: 20 } }, { silent: true });
    if (page.content.some(isOpenTask)) ensureFollowingTasks();
  } catch {
    // Not worth a toast: the centre connects when it is opened.
  }
}

