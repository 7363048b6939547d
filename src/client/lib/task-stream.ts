import { exportTask } from '../../shared/api';
import { CONSOLE_HEADER, type ExportTask, type TaskEvent, isOpenTask, taskEventSchema } from '../../shared/api/export-task';
import { dismiss, toast } from './toast';
import { api } from './api-client';
import { downloadCentreOpen, ensureFollowingTasks, taskStore } from './export-tasks';
import { saveFile } from './save-file';
import { readToken } from './session-store';
import { CONSOLE_ID } from './console-id';
import { applyChange, revalidateAll } from './live-changes';


/**
 * The account's export tasks kept current by the server's event stream (no polling), read over
 * fetch with the bearer header (EventSource cannot send one) and reconnecting by itself. A task
 * that finishes while the console is open says so in a toast with 下载, whatever screen is showing.
 * Loaded with the first export, the centre, or a task found running at sign-in.
 */

const byNewest = (a: ExportTask, b: ExportTask) => b.id - a.id;

function apply(event: Extract<TaskEvent, { type: 'tasks' | 'task' | 'removed' }>) {
  taskStore.set((prev) => {
    if (event.type === 'tasks') {
      // A list after a reconnect (or the first one, for a task asked for just before) may hold
      // news: a task this console saw open that has finished meanwhile.
      for (const t of event.tasks) {
        const before = prev.tasks.find((p) => p.id === t.id);
        if (before && isOpenTask(before) && !isOpenTask(t)) announce(t);
      }
      return { ...prev, tasks: [...event.tasks].sort(byNewest) };
    }
    if (event.type === 'removed') {
      wanted.delete(event.id);
      return { ...prev, tasks: prev.tasks.filter((t) => t.id !== event.id) };
    }
    const before = prev.tasks.find((t) => t.id === event.task.id);
    // The creation call's answer (queued) can arrive after the stream said the task was done: a
    // finished task never goes back to queued.
    if (before && !isOpenTask(before) && isOpenTask(event.task)) return prev;
    if (before && isOpenTask(before)) announce(event.task);
    const rest = prev.tasks.filter((t) => t.id !== event.task.id);
    return { ...prev, tasks: [...rest, event.task].sort(byNewest) };
  });
}

/**
 * The toasts about each task: "done" replaces "queued" rather than piling up, and opening the
 * centre (which lists them all) clears both.
 */
const queuedToasts = new Map<number, number>();
const doneToasts = new Map<number, number>();
downloadCentreOpen.subscribe(() => {
  if (!downloadCentreOpen.get()) return;
  for (const id of [...queuedToasts.values(), ...doneToasts.values()]) dismiss(id);
  queuedToasts.clear();
  doneToasts.clear();
});

/** Tasks this console asked for with the file wanted at once: saved when done, not offered. */
const wanted = new Set<number>();

/** Saves the task's file when it is done (or now, if it already is). */
export function downloadWhenDone(task: ExportTask): void {
  // As the stream has it now: it may have finished before its creation call answered.
  const now = taskStore.get().tasks.find((t) => t.id === task.id) ?? task;
  if (now.phase === 'done') {
    void downloadTask(now);
    toast.success(`导出完成，已开始下载：${now.title}`);
  } else if (isOpenTask(now)) wanted.add(task.id);
}

/** Says a task was queued, with 查看 to open the centre. */
export function announceQueued(task: ExportTask): void {
  queuedToasts.set(task.id, toast.action(`已加入下载中心：${task.title}`, { label: '查看', run: () => downloadCentreOpen.set(true) }));
}

/**
 * Only a change seen while open is news: a console that connects later just lists the result. With
 * the centre open the row itself says it, so no toast covers it.
 */
function announce(after: ExportTask) {
  const queued = queuedToasts.get(after.id);
  if (queued !== undefined && !isOpenTask(after)) {
    dismiss(queued);
    queuedToasts.delete(after.id);
  }
  if (!isOpenTask(after) && wanted.delete(after.id) && after.phase === 'done') {
    void downloadTask(after);
    toast.success(`导出完成，已开始下载：${after.title}`);
    return;
  }
  if (downloadCentreOpen.get()) return;
  if (after.phase === 'done') doneToasts.set(after.id, toast.action(`导出完成：${after.title}`, { label: '下载', run: () => void downloadTask(after) }));
  else if (after.phase === 'failed') toast.error(`导出失败：${after.title}（${after.error ?? '未知原因'}）`);
}

/** Saves a finished task's file: fetched with the token in the header, never in the address. */
export async function downloadTask(task: Pick<ExportTask, 'id' | 'fileName'>): Promise<void> {
  try {
    const file = (await api.call(exportTask.taskDownload, { params: { id: task.id } })) as Blob;
    saveFile(file, task.fileName);
  } catch {
    // The refusal (expired, gone) is in the toast.
  }
}

/** A task the console just asked for: shown at once, before the stream's echo. */
export function addTask(task: ExportTask): void {
  apply({ type: 'task', task });
  ensureFollowingTasks();
}

class Fatal extends Error {}
/** The server ended the stream for a newer one of this session or account (another tab). */
class Replaced extends Error {}
/** The server holds all the streams it may: try again when it says. */
class RetryLater extends Error {
  constructor(readonly ms: number) {
    super('busy');
  }
}

/** Why a stream stopped for good: the session is over, or another tab took its place. */
export type StreamStop = 'refused' | 'replaced';

/**
 * The stream itself; a refused stream (401: the session is over) stops for good, and the next
 * ordinary call brings the session notice. A stream the server replaced by another tab's stops too:
 * reconnecting would replace that tab's in turn, for ever; it starts again when asked (the centre,
 * an export, the tab shown again).
 */
export function followTasks(onStopped: (why: StreamStop) => void): () => void {
  const controller = new AbortController();
  // No area header: an account's tasks are its own whatever area it is looking at.
  const headers = (): Record<string, string> => {
    const h: Record<string, string> = { accept: 'text/event-stream', [CONSOLE_HEADER]: CONSOLE_ID };
    const token = readToken()?.token;
    if (token) h.authorization = `Bearer ${token}`;
    return h;
  };
  let replaced = false;
  // The SSE reader is fetched with the first stream, not with the shell: most sessions never need it.
  void import('@microsoft/fetch-event-source').then(({ fetchEventSource }) => {
    // Stopped while the reader was being fetched: fetchEventSource would not look at the signal.
    if (controller.signal.aborted) return;
    return fetchEventSource(exportTask.taskEvents.path, {
    headers: headers(),
    signal: controller.signal,
    // A download centre in a background tab still hears of its files.
    openWhenHidden: true,
    async onopen(res) {
      if (res.ok && res.headers.get('content-type')?.includes('text/event-stream')) {
        // Reconnected (or taken back from another tab): what others changed meanwhile was not heard.
        if (taskStore.get().heard) revalidateAll();
        taskStore.set((prev) => ({ ...prev, live: true, replaced: false, heard: true }));
        return;
      }
      if (res.status === 401 || res.status === 403) throw new Fatal(String(res.status));
      // Spread out, so consoles refused together do not all come back in the same second.
      if (res.status === 503) throw new RetryLater((Number(res.headers.get('retry-after')) || 30) * 1000 * (1 + Math.random() / 2));
      throw new Error(`event stream answered ${res.status}`);
    },
    onmessage(msg) {
      if (!msg.data) return;
      const parsed = taskEventSchema.safeParse(JSON.parse(msg.data));
      if (!parsed.success) return;
      const event = parsed.data;
      if (event.type === 'closed') replaced = true;
      else if (event.type === 'change') applyChange(event);
      else if (event.type === 'resync') revalidateAll();
      else apply(event);
    },
    onclose() {
      // The server ended the stream (restart, its session check): connect again, as after an error;
      // unless it said another tab took its place.
      taskStore.set((prev) => ({ ...prev, live: false }));
      throw replaced ? new Replaced() : new Error('closed');
    },
    onerror(err) {
      taskStore.set((prev) => ({ ...prev, live: false }));
      if (err instanceof Fatal || err instanceof Replaced) {
        onStopped(err instanceof Fatal ? 'refused' : 'replaced');
        throw err;
      }
      return err instanceof RetryLater ? err.ms : 3_000;
    },
  });
  }).catch(() => undefined);
  return () => controller.abort();
}
