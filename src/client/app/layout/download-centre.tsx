import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { exportTask } from '../../../shared/api';
import { type ExportTask, TASK_PHASE_LABELS, isOpenTask } from '../../../shared/api/export-task';
import { formatDateTime } from '../../../shared/domain/time';
import { Button } from '../../components/button';
import { Modal } from '../../components/modal';
import { api } from '../../lib/api-client';
import { ensureFollowingTasks, taskStore } from '../../lib/export-tasks';
import { downloadTask } from '../../lib/task-stream';
import { useStore } from '../../lib/store';

const PHASE_STYLE: Record<ExportTask['phase'], string> = {
  queued: 'text-gray-700',
  running: 'text-[var(--theme-strong)]',
  done: 'text-green-800',
  failed: 'text-red-700',
  cancelled: 'text-gray-600',
  expired: 'text-gray-600',
};

const size = (bytes: number | null) => (bytes === null ? '' : bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/** Where a task stands, in words a screen reader says too. */
function progressText(t: ExportTask): string {
  if (t.phase === 'running') return t.rowsTotal ? `${t.rowsDone.toLocaleString('zh-CN')} / ${t.rowsTotal.toLocaleString('zh-CN')} 行` : '正在统计行数';
  if (t.phase === 'done') return `${t.rowsDone.toLocaleString('zh-CN')} 行 · ${size(t.fileSize)}${t.expiresDate ? ` · 保留至 ${formatDateTime(t.expiresDate, 'MM-DD HH:mm')}` : ''}`;
  if (t.phase === 'failed') return t.error ?? '';
  if (t.phase === 'expired') return '文件已删除，请重新导出';
  return '';
}

/**
 * 下载中心: the account's export tasks, live from the server's event stream. Each task's buttons are
 * in the Tab order; ↑/↓ (j/k) move between tasks, Delete removes the task in hand, c cancels one
 * still running; Enter on 下载 saves the file; Esc closes.
 */
export function DownloadCentre({ open, onClose }: { open: boolean; onClose(): void }) {
  const { tasks, live, replaced } = useStore(taskStore);
  const listRef = useRef<HTMLUListElement>(null);
  const firstDone = tasks.find((t) => t.phase === 'done')?.id;

  const cancel = (t: ExportTask) => void api.call(exportTask.taskCancel, { params: { id: t.id } }).catch(() => undefined);
  const remove = (t: ExportTask) => void api.call(exportTask.taskDelete, { params: { id: t.id } }).catch(() => undefined);
  // The task in hand finishing puts its 下载 in hand: Enter then saves the file. Every finish is
  // also said in the status line (toasts keep quiet while the centre is open).
  const phases = useRef(new Map<number, ExportTask['phase']>());
  const [said, setSaid] = useState('');
  // After Delete, focus waits for the task to leave the list (the server's event), then takes the next.
  const refocusAt = useRef<number | null>(null);
  useEffect(() => {
    const row = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('li[data-task]');
    const finished = tasks.filter((t) => !isOpenTask(t) && phases.current.has(t.id) && isOpenTask({ phase: phases.current.get(t.id)! }));
    // In hand: the finished task's own row has focus, or nothing does yet (关闭, where it starts).
    const idle = document.activeElement === closeRef.current || document.activeElement === document.body;
    const inHand = finished.find((t) => t.phase === 'done' && (idle || row?.dataset.task === String(t.id)));
    if (inHand) listRef.current?.querySelector<HTMLElement>(`li[data-task="${inHand.id}"] [data-download]`)?.focus();
    const last = finished.at(-1);
    if (last) setSaid(`${TASK_PHASE_LABELS[last.phase]}：${last.title}`);
    if (refocusAt.current !== null && !tasks.some((t) => String(t.id) === row?.dataset.task)) {
      const at = Math.min(refocusAt.current, tasks.length - 1);
      refocusAt.current = null;
      if (at >= 0) focusRow(at);
      else closeRef.current?.focus();
    }
    phases.current = new Map(tasks.map((t) => [t.id, t.phase]));
  }, [tasks]);
  const closeRef = useRef<HTMLButtonElement>(null);
  const focusRow = (i: number) => listRef.current?.querySelector<HTMLElement>(`li[data-index="${i}"] button`)?.focus();

  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const row = (e.target as HTMLElement).closest<HTMLElement>('li[data-index]');
    if (!row) return;
    const i = Number(row.dataset.index);
    const task = tasks[i];
    if (!task) return;
    const go = (to: number) => {
      e.preventDefault();
      focusRow(Math.max(0, Math.min(tasks.length - 1, to)));
    };
    if (e.key === 'ArrowDown' || e.key === 'j') go(i + 1);
    else if (e.key === 'ArrowUp' || e.key === 'k') go(i - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(tasks.length - 1);
    else if (e.key === 'Delete' && !isOpenTask(task)) {
      e.preventDefault();
      refocusAt.current = i;
      remove(task);
    } else if (e.key === 'c' && isOpenTask(task)) {
      e.preventDefault();
      cancel(task);
    }
  };

  return (
    <Modal
      open={open}
      title="下载中心"
      onClose={onClose}
      width="max-w-2xl"
      footer={
        // Focus starts on the newest file's 下载, or here when there is none: never on 取消.
        <Button ref={closeRef} data-autofocus={tasks.some((t) => t.phase === 'done') ? undefined : true} onClick={onClose}>
          关闭
        </Button>
      }
    >
      <p role="status" className="sr-only">
        {said}
      </p>
      <p className="mb-2 text-xs text-gray-600">
        导出在后台生成，完成后会提示下载，到期前可随时下载。<Key>↑</Key>/<Key>↓</Key> 换任务，<Key>Enter</Key> 下载，<Key>c</Key> 取消，<Key>Delete</Key> 删除
        {!live && !replaced && <span className="ml-2 text-amber-800">· 正在连接服务器…</span>}
      </p>
      {!live && replaced && (
        // Another tab of this account took the stream: this one waits rather than take it back by itself.
        <p className="mb-2 flex items-center gap-2 text-xs text-amber-800">
          进度已转到本账号的另一个窗口，此处暂停更新。
          <Button variant="text" className="py-0.5 text-xs" onClick={() => ensureFollowingTasks()}>
            在此继续更新
          </Button>
        </p>
      )}
      {tasks.length === 0 ? (
        <p className="py-10 text-center text-sm text-gray-600">还没有导出任务。在列表页按“导出”，或在命令面板中选择导出命令。</p>
      ) : (
        <ul ref={listRef} aria-label="导出任务" onKeyDown={onKeyDown} className="max-h-[60vh] divide-y divide-gray-100 overflow-y-auto rounded border border-gray-200">
          {tasks.map((t, i) => {
            const percent = t.rowsTotal ? Math.min(100, Math.round((t.rowsDone / t.rowsTotal) * 100)) : 0;
            return (
              <li key={t.id} data-index={i} data-task={t.id} className="flex flex-col gap-1 px-3 py-2 text-sm focus-within:bg-gray-50 sm:flex-row sm:items-center sm:gap-3">
                <div className="min-w-0 flex-1">
                  <div className="truncate font-medium text-gray-900" title={t.title}>
                    {t.title}
                  </div>
                  <div className="flex flex-wrap gap-x-3 text-xs text-gray-600">
                    <span className={PHASE_STYLE[t.phase]}>{TASK_PHASE_LABELS[t.phase]}</span>
                    <span>{progressText(t)}</span>
                    <span className="tabular-nums">提交于 {formatDateTime(t.createdDate, 'MM-DD HH:mm')}</span>
                  </div>
                  {t.phase === 'running' && (
                    <div role="progressbar" aria-label={`${t.title} 进度`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="mt-1 h-1.5 overflow-hidden rounded bg-gray-200">
                      <div className="h-full bg-[var(--theme)] transition-[width]" style={{ width: `${percent}%` }} />
                    </div>
                  )}
                </div>
                <div className="flex shrink-0 gap-2">
                  {t.phase === 'done' && (
                    <Button variant="primary" data-download aria-label={`下载 ${t.fileName}`} data-autofocus={t.id === firstDone ? true : undefined} onClick={() => void downloadTask(t)}>
                      下载
                    </Button>
                  )}
                  {isOpenTask(t) ? (
                    <Button aria-label={`取消 ${t.title}`} onClick={() => cancel(t)}>
                      取消
                    </Button>
                  ) : (
                    <Button aria-label={`删除 ${t.title}`} onClick={() => remove(t)}>
                      删除
                    </Button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Modal>
  );
}

const Key = ({ children }: { children: string }) => <kbd className="rounded border border-gray-300 px-1">{children}</kbd>;
