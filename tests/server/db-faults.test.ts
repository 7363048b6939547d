import { like, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, Msg, auth, system } from '../../src/shared/api';
import * as t from '../../src/server/db/schema';
import { type TcpProxy, startTcpProxy } from '../support/tcp-proxy';
import { postgresUrl, skipWithoutPostgres } from '../support/test-db';
import { type TestServer, startTestServer } from '../support/test-server';

/**
 * PostgreSQL going away under write load (backends terminated, the server restarting): the process
 * must survive, answer the 503 envelope meanwhile, recover by itself within 2 s and lose no write it
 * acknowledged. Only on PostgreSQL: PGlite lives inside the process.
 */
const QUERY_TIMEOUT_MS = 1_000;

describe.skipIf(skipWithoutPostgres('database fault tests (terminated backends, outage, stall)'))('database faults under write load (PostgreSQL)', () => {
  let s: TestServer;
  let proxy: TcpProxy;
  let admin: pg.Client;
  let districtId: number;
  let token: string;

  beforeAll(async () => {
    const target = new URL(postgresUrl ?? 'postgres://127.0.0.1:5432');
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    // The app reaches PostgreSQL through the proxy, so the test can also cut the network.
    s = await startTestServer(
      {},
      { route: (url) => Object.assign(new URL(url), { host: `127.0.0.1:${proxy.port}` }), queryTimeoutMs: QUERY_TIMEOUT_MS },
    );
    admin = new pg.Client({ connectionString: postgresUrl });
    admin.on('error', () => undefined);
    await admin.connect();
    token = await s.login('admin');
    const page = await s.call(system.districtPage, { token, query: { page: 0, size: 1 } });
    districtId = page.body.data.content[0]?.id ?? 1;
  });
  afterAll(async () => {
    await admin?.end();
    await s?.close();
    await proxy?.close();
  });

  /** 8 writers saving agreements until stopped; every answer is recorded with its time. */
  function writeLoad(prefix: string) {
    const acked: string[] = [];
    const answers: { at: number; ok: boolean; status: number; code: number; msg: string }[] = [];
    let running = true;
    const writer = async (w: number) => {
      for (let n = 0; running; n++) {
        const code = `${prefix}${w}_${n}`;
        try {
          const res = await s.call(system.agreementSave, { token, district: districtId, body: { code, title: '故障测试', content: code } });
          answers.push({ at: Date.now(), ok: res.body.code === Code.OK, status: res.status, code: res.body.code, msg: res.body.msg });
          if (res.body.code === Code.OK) acked.push(code);
        } catch (err) {
          // A reset socket or a non-JSON answer: the server failed to answer in the envelope.
          answers.push({ at: Date.now(), ok: false, status: 0, code: -1, msg: String(err) });
        }
      }
    };
    const done = Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));
    return {
      acked,
      answers,
      async stop() {
        running = false;
        await done;
      },
    };
  }

  /** Time from `since` to the first acknowledged write that started after it. */
  const recoveryMs = (answers: { at: number; ok: boolean }[], since: number) => {
    const first = answers.find((a) => a.ok && a.at > since);
    return first ? first.at - since : Number.POSITIVE_INFINITY;
  };

  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('survives backends terminated mid-transaction and a 1.5 s outage, recovers within 2 s, loses no acknowledged write', async () => {
    const load = writeLoad('f');
    await pause(800);
    expect(load.acked.length).toBeGreaterThan(0);

    // The app's connections live in a database of their own: only they are terminated.
    const current = await s.database.db.execute<{ d: string }>(sql`select current_database() as d`);
    const dbName = (current as unknown as { rows: { d: string }[] }).rows[0]?.d;
    expect(dbName).toMatch(/^t_/);
    const killed: number[] = [];
    const faults: number[] = [];
    for (let round = 0; round < 3; round++) {
      const r = await admin.query<{ n: number }>(
        'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [dbName],
      );
      killed.push(r.rows[0]?.n ?? 0);
      faults.push(Date.now());
      await pause(1_200);
    }

    // A restart: every connection dropped and new ones refused for 1.5 s.
    const outageStart = Date.now();
    await proxy.down(1_500);
    const outageEnd = Date.now();
    await pause(2_500);
    await load.stop();

    expect(killed.every((n) => n > 0)).toBe(true);
    const recoveries = faults.map((f) => recoveryMs(load.answers, f));
    const afterOutage = recoveryMs(load.answers, outageEnd);
    console.log(
      `[db-faults] ${load.answers.length} writes answered, ${load.acked.length} acknowledged; backends killed per round ${killed.join('/')}; ` +
        `recovery after terminate ${recoveries.map((r) => `${r} ms`).join(', ')}; after the ${outageEnd - outageStart} ms outage ${afterOutage} ms`,
    );
    for (const r of [...recoveries, afterOutage]) expect(r).toBeLessThanOrEqual(2_000);

    // Every failure was the 503 envelope: no reset socket, no 500.
    const failures = load.answers.filter((a) => !a.ok);
    expect(failures.length).toBeGreaterThan(0);
    for (const f of failures) expect({ status: f.status, code: f.code, msg: f.msg }).toEqual({ status: 503, code: 503, msg: Msg.unavailable });

    // Nothing acknowledged was lost.
    const stored = await s.database.db.select({ code: t.agreements.code }).from(t.agreements).where(like(t.agreements.code, 'f%'));
    const storedCodes = new Set(stored.map((r) => r.code));
    const lost = load.acked.filter((c) => !storedCodes.has(c));
    expect(lost).toEqual([]);

    // No pool slot leaked: more concurrent writes than the pool has connections all go through.
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => s.call(system.agreementSave, { token, district: districtId, body: { code: `after_${i}`, title: '故障后', content: 'x' } })),
    );
    expect(burst.map((r) => r.body.code)).toEqual(Array(20).fill(Code.OK));
    // Nothing is checked out once every request has been answered: a leaked client would be.
    const stats = s.database.poolStats?.();
    expect(stats && stats.total - stats.idle).toBe(0);
    expect((await s.call(auth.currentUser, { token })).body.code).toBe(Code.OK);
  });

  it('a network that stops answering (nothing reset) costs one query timeout, then heals', async () => {
    const stall = proxy.stall(QUERY_TIMEOUT_MS * 3);
    await pause(50);
    const started = Date.now();
    const [read, write] = await Promise.all([
      s.call(auth.currentUser, { token }),
      s.call(system.agreementSave, { token, district: districtId, body: { code: 'stalled', title: '网络停顿', content: 'x' } }),
    ]);
    const took = Date.now() - started;
    expect(read.body).toEqual({ code: 503, msg: Msg.unavailable, data: null });
    expect(write.body).toEqual({ code: 503, msg: Msg.unavailable, data: null });
    // One timeout for the read; the write's transaction fails at once after its first one.
    expect(took).toBeLessThan(QUERY_TIMEOUT_MS * 2.5);
    await stall;
    // Back: the stalled connections' late answers must not be read as anybody else's.
    const after = await Promise.all(
      Array.from({ length: 12 }, (_, i) => s.call(system.agreementSave, { token, district: districtId, body: { code: `healed_${i}`, title: '恢复', content: 'x' } })),
    );
    expect(after.map((r) => r.body.code)).toEqual(Array(12).fill(Code.OK));
    const stats = s.database.poolStats?.();
    expect(stats && stats.total - stats.idle).toBe(0);
    const stored = await s.database.db.select({ code: t.agreements.code }).from(t.agreements).where(like(t.agreements.code, 'healed_%'));
    expect(stored).toHaveLength(12);
  });

  it('a database that stays away answers 503 in the envelope, not a hang or a crash', async () => {
    const outage = proxy.down(1_000);
    await pause(50);
    const res = await s.call(auth.currentUser, { token });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ code: 503, msg: Msg.unavailable, data: null });
    await outage;
    await pause(100);
    expect((await s.call(auth.currentUser, { token })).body.code).toBe(Code.OK);
  });
});
