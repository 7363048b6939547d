import * as exportTask from '../../shared/api/export-task';
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
  /** The server gave this console's stream to a newer one of the account (another tab). */
  replaced: boolean;
  /** A stream of this sign-in was up before: one opening now may have missed others' changes. */
  heard: boolean;
}

export const taskStore = createStore<TasksState>({ tasks: [], live: false, replaced: false, heard: false });
/** Opens the centre; the layout owns the dialog and sets this. */
export const downloadCentreOpen = createStore(false);

let following = false;
let stopFollowing: (() => void) | null = null;
/** Bumped by every stop: work begun for an earlier session (a resume in flight) does not restart it. */
let generation = 0;
/** The listener that takes a replaced stream back when the tab is shown again, while one waits. */
let takeBackWhenShown: (() => void) | null = null;

/**
 * Follows the account's tasks from now until `stopTasks()` (the layout's end: logout). The stream is
 * opened only when there is something to follow (an export asked for, the centre opened, a task
 * still running at sign-in): most of the day an operator exports nothing, and the server holds no
 * connection for them.
 */
export function ensureFollowingTasks(): void {
  if (following) return;
  following = true;
  const mine = generation;
  void import('./task-stream').then((m) => {
    if (following && mine === generation && !stopFollowing) stopFollowing = m.followTasks((why) => streamStopped(mine, why));
  });
}

/**
 * The server refused the stream (the session is over) or gave it to another tab: the next ensure
 * may try again. A tab that lost its stream takes it back when it is shown again, once per showing:
 * two tabs never take it from each other by themselves.
 */
function streamStopped(of: number, why: 'refused' | 'replaced'): void {
  if (of !== generation) return;
  following = false;
  stopFollowing = null;
  if (why !== 'replaced') return;
  taskStore.set((prev) => ({ ...prev, replaced: true }));
  // One listener at a time, whatever the number of replacements: the last one's generation counts.
  if (takeBackWhenShown) document.removeEventListener('visibilitychange', takeBackWhenShown);
  const shown = () => {
    if (document.visibilityState !== 'visible') return;
    document.removeEventListener('visibilitychange', shown);
    takeBackWhenShown = null;
    if (of === generation && taskStore.get().replaced) ensureFollowingTasks();
  };
  takeBackWhenShown = shown;
  document.addEventListener('visibilitychange', shown);
}

/** Sign-out: the stream ends, and nothing of this account's tasks stays on screen. */
export function stopTasks(): void {
  generation++;
  if (takeBackWhenShown) document.removeEventListener('visibilitychange', takeBackWhenShown);
  takeBackWhenShown = null;
  following = false;
  stopFollowing?.();
  stopFollowing = null;
  taskStore.set({ tasks: [], live: false, replaced: false, heard: false });
  downloadCentreOpen.set(false);
}

/** At sign-in (or F5): a task still under way from before is followed again, so its toast comes. */
export async function resumeTasks(): Promise<void> {
  const mine = generation;
  try {
    const page = await api.call(exportTask.taskList, { query: { size: 20 } }, { silent: true });
    if (mine === generation && page.content.some(isOpenTask)) ensureFollowingTasks();
  } catch {
    // Not worth a toast: the centre connects when it is opened.
  }
}

