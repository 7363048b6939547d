import { expect } from 'vitest';
import { type Endpoint, exportTask } from '../../src/shared/api';
import type { ExportTask, taskRow } from '../../src/shared/api/export-task';
import type { z } from 'zod';
import type { TestServer } from './test-server';
import { readXlsx } from './xlsx-read';

/** Waits (polling the list, as a test may) until the task is no longer open. */
export async function settledTask(server: TestServer, token: string, id: number): Promise<ExportTask> {
  for (let i = 0; i < 300; i++) {
    const list = await server.call(exportTask.taskList, { token, query: { size: 50 } });
    const task = list.body.data.content.find((x) => x.id === id);
    if (task && task.phase !== 'queued' && task.phase !== 'running') return task;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`task ${id} never settled`);
}

/**
 * An export as the console makes one: the task asked for, waited for, its file downloaded with the
 * token and opened back. Returns the task's answer too, for what it says about the filters.
 */
export async function exportThroughTask(server: TestServer, e: Endpoint<z.ZodType, z.ZodType, z.ZodType, typeof taskRow>, token: string, query: Record<string, string | number> = {}) {
  const created = await server.call(e, { token, query });
  expect(created.body.code, JSON.stringify(created.body)).toBe(1);
  const task = await settledTask(server, token, created.body.data.id);
  expect(task.phase, task.error ?? '').toBe('done');
  const file = await server.call(exportTask.taskDownload, { token, params: { id: task.id } });
  expect(file.status).toBe(200);
  return { created: created.body, task, file: file.file!, sheet: await readXlsx(file.file!) };
}
