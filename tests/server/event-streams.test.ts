import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, auth, exportTask, ridership } from '../../src/shared/api';
import { loadConfig } from '../../src/server/config';
import { type RawEvents, openRawEvents } from '../support/task-events';
import { type TestServer, startTestServer } from '../support/test-server';

/**
 * Issue 19 B9: the download centre's event streams hold their connection for as long as their
 * session lives, so they are counted: a few per session and per account (a newer one replaces the
 * oldest, which is told why), and all of them together against a share of the connections, so
 * ordinary calls always find one. Over real sockets, from several source addresses.
 */
let s: TestServer;
const defaults = loadConfig({});

beforeAll(async () => {
  // 60 connections in all: 15 for sockets still sending their request, 30 for streams.
  s = await startTestServer({ connections: { ...defaults.connections, maxConnections: 60, maxPendingConnections: 15, maxConnectionsPerIp: 0 }, exports: { ...defaults.exports, maxStreams: 30 } });
});
afterAll(() => s.close());

const streamsHeld = () => (s.app as unknown as { exportsRuntime: { streams: { size: number } } }).exportsRuntime.streams.size;
const replacedEvent = (e: { type: string }) => e.type === 'closed';

async function closeAll(streams: RawEvents[]) {
  streams.forEach((st) => st.close());
  await Promise.all(streams.map((st) => st.ended));
  await expect.poll(streamsHeld).toBe(0);
}

describe('event streams per session and per account', () => {
  it('a session holds at most 3: each further one replaces the oldest, which is told why and ended', async () => {
    const token = await s.login('viewer');
    const opened: RawEvents[] = [];
    for (let i = 0; i < 8; i++) {
      const st = await openRawEvents(s, token, `127.0.0.${2 + (i % 4)}`);
      expect(st.status).toBe(200);
      await st.until((e) => e.type === 'tasks');
      opened.push(st);
      // After each opening, exactly the newest three are open: the oldest went first.
      for (const old of opened.slice(0, -3)) await old.ended;
      expect(opened.flatMap((o, at) => (o.isEnded() ? [] : [at]))).toEqual(opened.map((_, at) => at).slice(-3));
    }
    for (const old of opened.slice(0, 5)) expect(old.events.at(-1)).toEqual({ type: 'closed', reason: 'replaced' });
    for (const live of opened.slice(-3)) expect(live.events.some(replacedEvent)).toBe(false);
    expect(streamsHeld()).toBe(3);
    await closeAll(opened);
  });

  it('two tabs of one console both stay open and both hear of a task', async () => {
    const token = await s.login('manager');
    const [a, b] = [await openRawEvents(s, token), await openRawEvents(s, token)];
    await Promise.all([a, b].map((st) => st.until((e) => e.type === 'tasks')));
    const created = await s.call(ridership.ridershipExport, { token, query: { startDate: '2026-01-01', endDate: '2026-01-07' } });
    expect(created.body.code, created.body.msg).toBe(Code.OK);
    for (const st of [a, b]) await st.until((e) => e.type === 'task' && e.task.id === created.body.data.id);
    expect([a.isEnded(), b.isEnded()]).toEqual([false, false]);
    await closeAll([a, b]);
  });

  it('an account holds at most 4 over its sessions: a new session replaces the older one’s oldest', async () => {
    const first = await s.login('agent');
    const older = [await openRawEvents(s, first), await openRawEvents(s, first), await openRawEvents(s, first)];
    await Promise.all(older.map((st) => st.until((e) => e.type === 'tasks')));
    // A new login; the older session's streams last until their next session check.
    const second = await s.login('agent');
    const newer = [await openRawEvents(s, second), await openRawEvents(s, second)];
    await Promise.all(newer.map((st) => st.until((e) => e.type === 'tasks')));
    await older[0]!.ended;
    expect(older[0]!.events.at(-1)).toEqual({ type: 'closed', reason: 'replaced' });
    expect([...older, ...newer].map((st) => st.isEnded())).toEqual([true, false, false, false, false]);
    expect(streamsHeld()).toBe(4);
    await closeAll([...older, ...newer]);
  });

  it('a token flooding streams from several addresses keeps 3, and other accounts’ calls and streams still get through', async () => {
    const token = await s.login('viewer');
    // 150 at once from 5 addresses, against 60 connections in all: without the caps the first 60
    // would hold every connection for as long as the session lives.
    const flood = await Promise.all(
      Array.from({ length: 150 }, (_, i) => openRawEvents(s, token, `127.0.0.${2 + (i % 5)}`).catch(() => null)),
    );
    const admitted = flood.filter((st): st is RawEvents => st !== null);
    await expect.poll(() => admitted.filter((st) => !st.isEnded()).length, { timeout: 10_000 }).toBe(3);
    expect(streamsHeld()).toBe(3);
    // Everyone else is served: a call, and a stream of their own.
    const admin = await s.login('admin');
    for (let i = 0; i < 5; i++) expect((await s.call(auth.currentUser, { token: admin })).body.code).toBe(Code.OK);
    const theirs = await openRawEvents(s, admin, '127.0.0.9');
    expect(theirs.status).toBe(200);
    await theirs.until((e) => e.type === 'tasks');
    await closeAll([...admitted, theirs]);
  }, 30_000);
});

describe('event streams of all accounts together', () => {
  it('beyond the instance’s share a new stream is refused with 503 and Retry-After, while calls go on and replacing still works', async () => {
    const p = await startTestServer({ exports: { ...defaults.exports, maxStreams: 4, streamsPerSession: 2 } });
    try {
      const [admin, manager, agent] = await Promise.all([p.login('admin'), p.login('manager'), p.login('agent')]);
      const held = [await openRawEvents(p, admin), await openRawEvents(p, admin), await openRawEvents(p, manager), await openRawEvents(p, manager)];
      await Promise.all(held.map((st) => st.until((e) => e.type === 'tasks')));
      const refused = await p.call(exportTask.taskEvents, { token: agent });
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ code: Code.UNAVAILABLE, msg: '服务器繁忙，请稍后再试', data: null });
      expect(refused.headers.get('retry-after')).toBe('30');
      expect((await p.call(auth.currentUser, { token: agent })).body.code).toBe(Code.OK);
      // A session's newer stream takes its oldest's place even when the instance is full.
      const again = await openRawEvents(p, manager);
      expect(again.status).toBe(200);
      await held[2]!.ended;
      expect(held[2]!.events.at(-1)).toEqual({ type: 'closed', reason: 'replaced' });
      // A stream that ends frees its place.
      const held4 = () => (p.app as unknown as { exportsRuntime: { streams: { size: number } } }).exportsRuntime.streams.size;
      expect(held4()).toBe(4);
      held[0]!.close();
      await expect.poll(held4).toBe(3);
      const agents = await openRawEvents(p, agent);
      expect(agents.status).toBe(200);
      for (const st of [...held, again, agents]) st.close();
    } finally {
      await p.close();
    }
  });
});
