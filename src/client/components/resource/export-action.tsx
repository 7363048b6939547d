import { useRef, useState } from 'react';
import type { Endpoint } from '../../../shared/api';
import type { ExportTask } from '../../../shared/api/export-task';
import type { ActionRef } from '../../../shared/modules';
import { formatDateTime } from '../../../shared/domain/time';
import { api } from '../../lib/api-client';
import type { CallArgs, CallInput, FiltersOf } from '../../lib/http';
import { saveFile } from '../../lib/save-file';
import { useScreenAction } from '../../lib/screen-action';
import { addTask, announceQueued, downloadWhenDone } from '../../lib/task-stream';
import { toast } from '../../lib/toast';
import { Button } from '../button';
import type { ListRefusal } from './resource-list';

export interface ExportDecl<E extends Endpoint> {
  /** The palette's `?action=` that runs it on the screen (the page's declared action). */
  on: ActionRef;
  /**
   * A task endpoint (answers a task of 下载中心: the file comes when it is ready) or the spec's
   * direct file (`file: true`: saved at once). The endpoint says which; the screen does not.
   */
  endpoint: E;
  /** The screen's filters, as the endpoint takes them (a body form's in its body). */
  filters: FiltersOf<E>;
  /** A direct file: the name it is saved under (before its time) and the toast once saved. */
  file?: { name: string; done: string };
  /**
   * The list's refusal of these filters (its `guard`, a range too long): the button is disabled and
   * the palette's `?action=export` says the refusal and sends nothing.
   */
  refusal?: ListRefusal | null;
}

const inputOf = <E extends Endpoint>(endpoint: E, filters: FiltersOf<E>): CallInput => (endpoint.bodyFormOf ? { body: filters } : { query: filters });

/** A task of 下载中心 for these filters, listed at once (also what a palette command runs off a screen). */
export async function startExportTask<E extends Endpoint>(endpoint: E, filters: FiltersOf<E>): Promise<ExportTask> {
  const task = (await api.call(endpoint, ...([inputOf(endpoint, filters)] as CallArgs<E>))) as ExportTask;
  addTask(task);
  announceQueued(task);
  return task;
}

/**
 * A task asked for from the palette by someone who wants the file now (`2026-10 10路`): it is
 * listed in 下载中心 as any other, and saved by itself when done.
 */
export async function exportAndDownload<E extends Endpoint>(endpoint: E, filters: FiltersOf<E>): Promise<ExportTask> {
  const task = await startExportTask(endpoint, filters);
  downloadWhenDone(task);
  return task;
}

async function saveExport<E extends Endpoint>(decl: ExportDecl<E>) {
  const blob = (await api.call(decl.endpoint, ...([inputOf(decl.endpoint, decl.filters)] as CallArgs<E>))) as Blob;
  const name = decl.file?.name ?? decl.endpoint.title.replace(/^导出/, '');
  saveFile(blob, `${name}-${formatDateTime(new Date(), 'YYYYMMDD-HHmm')}.xlsx`);
  toast.success(decl.file?.done ?? '已导出');
}

/**
 * A list's 导出, declared once: the toolbar button and the palette's `?action=export` run the same
 * call, as a task or a direct file as the endpoint says; one at a time (a double click or a
 * repeating Enter asks once).
 */
export function useExportAction<E extends Endpoint>(decl: ExportDecl<E>) {
  const [busy, setBusy] = useState(false);
  // A ref, not the state: a double click lands before the next render.
  const running = useRef(false);
  const run = async (): Promise<void> => {
    if (running.current) return;
    if (decl.refusal) {
      toast.error(`无法导出：${decl.refusal.message}`);
      return;
    }
    running.current = true;
    setBusy(true);
    try {
      if (decl.endpoint.file) await saveExport(decl);
      else await startExportTask(decl.endpoint, decl.filters);
    } catch {
      // The refusal is in the toast.
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  useScreenAction(decl.on, () => void run());
  return { busy, run, task: !decl.endpoint.file, refused: !!decl.refusal };
}

export type ExportAction = ReturnType<typeof useExportAction>;

/** The toolbar's 导出 button of an export action. */
export function ExportButton({ action, label = '导出 Excel', disabled = false, title }: { action: ExportAction; label?: string; disabled?: boolean; title?: string }) {
  return (
    <Button className="h-8" disabled={disabled || action.busy || action.refused} onClick={() => void action.run()} title={title}>
      {action.busy ? (action.task ? '提交中…' : '导出中…') : label}
    </Button>
  );
}
