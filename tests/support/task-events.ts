import http from 'node:http';
import { expect } from 'vitest';
import { exportTask } from '../../src/shared/api';
import type { TaskEvent } from '../../src/shared/api/export-task';

/** Reads the task event stream as the console does: fetch with the bearer header, `data:` lines. */
export async function openEvents(server: { url: string }, token: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(`${server.url}${exportTask.taskEvents.path}`, { headers: { ...headers, authorization: `Bearer ${token}` }, signal: controller.signal });
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
    /** Every event read so far and not taken by `next` (a look without waiting). */
    pending: (): readonly TaskEvent[] => queue,
    async next(): Promise<TaskEvent> {
      for (let i = 0; i < 600 && !queue.length; i++) await new Promise<void>((r) => ((waiter.wake = r), setTimeout(r, 100)));
      const e = queue.shift();
      if (!e) throw new Error('no event came');
      return e;
    },
    close: () => controller.abort(),
  };
}

/** A stream opened over a socket of its own, from a given local address (127.0.0.x). */
export interface RawEvents {
  status: number;
  /** Every event so far, in order, `closed` included. */
  events: TaskEvent[];
  /** Pings heard so far (the server sends one every `pingMs`: a clock of its own). */
  pings(): number;
  /** Waits until `n` pings have come, up to `ms`; throws otherwise. */
  untilPings(n: number, ms?: number): Promise<void>;
  /** Resolves when the server ended the stream (or it was closed here). */
  ended: Promise<void>;
  isEnded(): boolean;
  /** Waits until an event matches, up to `ms`; throws otherwise. */
  until(match: (e: TaskEvent) => boolean, ms?: number): Promise<TaskEvent>;
  close(): void;
}

/**
 * Opens the task event stream as a console would, over node:http so the source address can be
 * chosen (the per-address cap, floods from several addresses). Answers that are no stream (503)
 * come back with their status and no events.
 */
export function openRawEvents(server: { url: string }, token: string, from = '127.0.0.1'): Promise<RawEvents> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port: Number(port), path: exportTask.taskEvents.path, localAddress: from, agent: false, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        const events: TaskEvent[] = [];
        let pings = 0;
        const waiters = new Set<() => void>();
        let ended = false;
        let markEnded: () => void = () => undefined;
        const endedP = new Promise<void>((r) => (markEnded = r));
        const waitFor = async (ok: () => boolean, ms: number, what: () => string) => {
          const deadline = Date.now() + ms;
          while (!ok()) {
            if (ended || Date.now() > deadline) throw new Error(`${what()} (${ended ? 'stream ended' : 'timed out'})`);
            await new Promise<void>((r) => {
              const wake = () => (waiters.delete(wake), r());
              waiters.add(wake);
              setTimeout(wake, 100);
            });
          }
        };
        const finish = () => {
          ended = true;
          markEnded();
          waiters.forEach((w) => w());
        };
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let at: number;
          while ((at = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            if (block === ': ping') pings++;
            const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
            if (data) events.push(JSON.parse(data) as TaskEvent);
          }
          waiters.forEach((w) => w());
        });
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', () => undefined);
        resolve({
          status: res.statusCode ?? 0,
          events,
          pings: () => pings,
          ended: endedP,
          isEnded: () => ended,
          async until(match, ms = 10_000) {
            await waitFor(() => events.some(match), ms, () => `no such event came: ${JSON.stringify(events.map((e) => e.type))}`);
            return events.find(match)!;
          },
          untilPings: (n, ms = 10_000) => waitFor(() => pings >= n, ms, () => `${pings} pings of ${n} came`),
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
  });
}
