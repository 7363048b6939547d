import http from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * A small load loop over loopback: node:http with a keep-alive agent (one socket per worker),
 * so the client costs as little as it can on the event loop it shares with the server.
 */

export interface Client {
  request(method: string, path: string, init?: { token?: string; json?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: string }>;
  close(): void;
}

export function createClient(baseUrl: string, sockets: number): Client {
  const base = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  return {
    request(method, path, init = {}) {
      const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
      if (init.token) headers.authorization = `Bearer ${init.token}`;
      const body = init.json === undefined ? undefined : JSON.stringify(init.json);
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(body));
      }
      return new Promise((resolve, reject) => {
        const req = http.request({ host: base.hostname, port: base.port, path, method, headers, agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}

export interface Measurement {
  name: string;
  requests: number;
  concurrency: number;
  /** Per-request latencies in milliseconds, sorted. */
  latencies: number[];
  wallMs: number;
}

/**
 * Runs `total` calls of `once` with `concurrency` workers pulling from one counter, after
 * `warmup` uncounted calls. `once` throws when the answer is not the expected one: a benchmark of
 * error answers would measure the wrong thing.
 */
export async function measure(
  name: string,
  opts: { total: number; concurrency: number; warmup: number },
  once: () => Promise<void>,
): Promise<Measurement> {
  for (let i = 0; i < opts.warmup; i++) await once();
  const latencies: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < opts.total) {
      next++;
      const t0 = performance.now();
      await once();
      latencies.push(performance.now() - t0);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  const wallMs = performance.now() - start;
  latencies.sort((a, b) => a - b);
  return { name, requests: latencies.length, concurrency: opts.concurrency, latencies, wallMs };
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

/** Checks the envelope: HTTP 200 and `code: 1`. */
export function expectOk(res: { status: number; body: string }, what: string): unknown {
  let parsed: { code?: unknown; msg?: unknown; data?: unknown };
  try {
    parsed = JSON.parse(res.body) as typeof parsed;
  } catch {
    throw new Error(`${what}: HTTP ${res.status}, not JSON: ${res.body.slice(0, 200)}`);
  }
  if (res.status !== 200 || parsed.code !== 1) throw new Error(`${what}: HTTP ${res.status}, code ${String(parsed.code)}: ${String(parsed.msg)}`);
  return parsed.data;
}
