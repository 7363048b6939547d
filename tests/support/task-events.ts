import { expect } from 'vitest';
import { exportTask } from '../../src/shared/api';
import type { TaskEvent } from '../../src/shared/api/export-task';

/** Reads the task event stream as the console does: fetch with the bearer header, `data:` lines. */
export async function openEvents(server: { url: string }, token: string) {
  const controller = new AbortController();
  const res = await fetch(`${server.url}${exportTask.taskEvents.path}`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const queue: TaskEvent[] = [];
  const waiter: { wake: (() => void) | null } = { wake: null };
  let resolveEnded: (v: string) => void = () => undefined;
  const ended = new Promise<string>((r) => (resolveEnded = r));
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
          if (data) queue.push(JSON.parse(data) as TaskEvent);
          waiter.wake?.();
        }
      }
    } catch {
      // aborted
    }
    resolveEnded('ended');
    waiter.wake?.();
  })();
  return {
    ended,
    async next(): Promise<TaskEvent> {
      for (let i = 0; i < 600 && !queue.length; i++) await new Promise<void>((r) => ((waiter.wake = r), setTimeout(r, 100)));
      const e = queue.shift();
      if (!e) throw new Error('no event came');
      return e;
    },
    close: () => controller.abort(),
  };
}
