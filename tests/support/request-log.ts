import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { saveToken } from '../../src/client/lib/session-store';
import type { TestServer } from './test-server';

/** One request as the real server received it: what the console put on the wire. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
}

export interface RequestLog {
  readonly seen: SeenRequest[];
  /** Requests to paths ending with `suffix` (e.g. `/user/query/msg`). */
  to(suffix: string, method?: string): SeenRequest[];
  clear(): void;
  stop(): void;
}

/**
 * Listens beside Fastify on the test server's own HTTP server: it only reads the method, URL and
 * headers, so the server answers exactly as it would without it.
 */
export function recordRequests(server: TestServer): RequestLog {
  const seen: SeenRequest[] = [];
  const listener = (req: IncomingMessage) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: { ...req.headers } });
  };
  server.app.server.on('request', listener);
  return {
    seen,
    to: (suffix, method) => seen.filter((r) => r.path.endsWith(suffix) && (!method || r.method === method)),
    clear: () => {
      seen.length = 0;
    },
    stop: () => {
      server.app.server.off('request', listener);
    },
  };
}

/**
 * Logs `login` in on the real server and stores the token the way the console does after its
 * login call, so the next render starts signed in. Each call replaces the account's older session.
 */
export async function signIn(server: TestServer, login: string): Promise<string> {
  const token = await server.login(login);
  saveToken(token, server.config.tokenTtlSeconds);
  return token;
}
