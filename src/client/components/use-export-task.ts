import { useRef, useState } from 'react';
import type { Endpoint, QueryOf } from '../../shared/api';
import type { ActionRef } from '../../shared/modules';
import type { ExportTask } from '../../shared/api/export-task';
import { api } from '../lib/api-client';
import type { CallArgs, CallInput } from '../lib/http';
import { addTask, announceQueued } from '../lib/task-stream';
import { useScreenAction } from '../lib/screen-action';

/**
 * 导出 as a task of the download centre: asks the server for the export of the screen's filters,
 * lists it at once and offers to open the centre; the file comes when it is ready, wherever the
 * user is by then. Also what the palette's `?action=export` (`on`: the page's declared action) runs
 * on the screen.
 */
export function useExportTask<E extends Endpoint>(on: ActionRef, endpoint: E, query: QueryOf<E>) {
  const [starting, setStarting] = useState(false);
  // A ref, not the state: a double click or a repeating Enter lands before the next render.
  const busy = useRef(false);
  const run = async (): Promise<ExportTask | null> => {
    if (busy.current) return null;
    busy.current = true;
    setStarting(true);
    try {
      return await startExportTask(endpoint, query);
    } catch {
      // The refusal is in the toast.
      return null;
    } finally {
      busy.current = false;
      setStarting(false);
    }
  };
  useScreenAction(on, () => void run());
  return { starting, run };
}

/** The same, outside a screen (a palette command). */
export async function startExportTask<E extends Endpoint>(endpoint: E, query: QueryOf<E>): Promise<ExportTask> {
  const input: CallInput = { query };
  const task = (await api.call(endpoint, ...([input] as CallArgs<E>))) as ExportTask;
  addTask(task);
  announceQueued(task);
  return task;
}
