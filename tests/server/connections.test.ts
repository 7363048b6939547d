import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, auth } from '../../src/shared/api';
import { loadConfig } from '../../src/server/config';
import { type TestServer, startTestServer } from '../support/test-server';

/**
 * Slow clients (slowloris): sockets that send a head or a body a byte at a time, or connect and
 * send nothing, must be cut off after the configured timeouts and capped per address, while
 * everybody else keeps being served. Attackers connect from 127.0.0.2/.3, normal calls from .1.
 */
let s: TestServer;
const HOLD_MS = 1_000;

beforeAll(async () => {
  const defaults = loadConfig({});
  s = await startTestServer({
    connections: { ...defaults.connections, requestTimeoutMs: HOLD_MS, headersTimeoutMs: HOLD_MS, maxConnectionsPerIp: 20 },
  });
});
afterAll(() => s.close());

interface SlowSocket {
  received: () => string;
  closedAt: Promise<number>;
  stop(): void;
}

/** Connects from `from` and sends `head`, then one byte of `trickle` every 200 ms (never idle). */
function slowClient(from: string, head: string, trickle = 'x'.repeat(200)): SlowSocket {
  const { port } = new URL(s.url);
  const socket = net.connect({ host: '127.0.0.1', port: Number(port), localAddress: from });
  let data = '';
  let i = 0;
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => (data += d));
  socket.on('error', () => undefined);
  socket.write(head);
  const timer = setInterval(() => {
    if (!socket.writable || i >= trickle.length) return;
    socket.write(trickle[i++] ?? '');
  }, 200);
  const closedAt = new Promise<number>((resolve) =>
    socket.on('close', () => {
      clearInterval(timer);
      resolve(Date.now());
    }),
  );
  return { received: () => data, closedAt, stop: () => socket.destroy() };
}

const slowBody = 'POST /busline/api/authenticate HTTP/1.1\r\nHost: console\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"us';
const slowHead = 'GET /busline/api/account HTTP/1.1\r\nHost: console\r\nX-Slow: ';

describe('slow clients', () => {
  it('cuts off slow bodies and slow heads after the request timeout with a 408 envelope, while normal calls go on', async () => {
    const started = Date.now();
    const slow = [
      ...Array.from({ length: 12 }, () => slowClient('127.0.0.2', slowBody)),
      ...Array.from({ length: 6 }, () => slowClient('127.0.0.2', slowHead)),
    ];
    // While they hold their sockets, the console's own calls are served.
    const token = await s.login('viewer');
    for (let i = 0; i < 5; i++) {
      const res = await s.call(auth.currentUser, { token });
      expect(res.body.code).toBe(Code.OK);
    }
    const closed = await Promise.race([
      Promise.all(slow.map((c) => c.closedAt)),
      new Promise<null>((r) => setTimeout(() => r(null), HOLD_MS * 4)),
    ]);
    slow.forEach((c) => c.stop());
    expect(closed, 'every slow socket was closed by the server').not.toBeNull();
    const worst = Math.max(...(closed ?? [])) - started;
    console.log(`[connections] 18 slow sockets cut off after at most ${worst} ms (request timeout ${HOLD_MS} ms)`);
    expect(worst).toBeLessThan(HOLD_MS * 3);
    for (const c of slow) {
      const answer = c.received();
      // Cut off with the envelope where the socket could still be written to.
      if (answer) expect(answer).toMatch(/^HTTP\/1\.1 408[\s\S]*"code":408,"msg":"请求超时"/);
    }
    expect(slow.filter((c) => c.received().startsWith('HTTP/1.1 408')).length).toBeGreaterThan(0);
  });

  it('caps the connections one address may hold, and others are still served', async () => {
    const idle = Array.from({ length: 40 }, () => slowClient('127.0.0.3', '', ''));
    await new Promise((r) => setTimeout(r, 300));
    const closedEarly = await Promise.all(
      idle.map((c) => Promise.race([c.closedAt.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 50))])),
    );
    // Those over the cap of 20 were dropped on arrival; the other 20 wait for their timeout.
    expect(closedEarly.filter(Boolean).length).toBe(20);
    const res = await s.call(auth.currentUser);
    expect(res.status).toBe(401);
    idle.forEach((c) => c.stop());
  });
});
