import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ridership } from '../../src/shared/api';
import { buildApp } from '../../src/server/app';
import * as t from '../../src/server/db/schema';
import { type TestServer, startTestServer } from '../support/test-server';
import { skipWithoutPostgres } from '../support/test-db';
import { openEvents } from '../support/task-events';

/**
 * Export tasks with two server instances on one PostgreSQL database: each task is written by
 * exactly one of them, and the console connected to one hears of tasks the other ran (NOTIFY).
 * PGlite has one connection and one instance, so this is PostgreSQL's alone.
 */
const skip = skipWithoutPostgres('two instances claiming export tasks');

type Runtime = { tick(): Promise<void> };
const runtimeOf = (app: FastifyInstance) => (app as unknown as { exportsRuntime: Runtime }).exportsRuntime;

describe.skipIf(skip)('two instances, one queue', () => {
  let a: TestServer;
  let b: FastifyInstance;
  let bUrl: string;
  beforeAll(async () => {
    // Instance A is the test server; B a second app on the same database, both driven by hand.
    a = await startTestServer({}, { jobs: false });
    b = await buildApp({ db: a.database.db, database: a.database, config: a.config, clock: a.clock, jobs: false });
    bUrl = await b.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('every task is claimed by one instance only, however the two race', async () => {
    const tokens = await Promise.all(['manager', 'admin', 'agent'].map((login) => a.login(login)));
    const day = (offset: number) => new Date(a.clock.now().getTime() + 8 * 3600_000 + offset * 86_400_000).toISOString().slice(0, 10);
    const ids: number[] = [];
    for (const token of tokens) {
      for (let i = 0; i < 3; i++) {
        const res = await a.call(ridership.ridershipExport, { token, query: { startDate: day(-20 - i), endDate: day(0) } });
        expect(res.body.code, res.body.msg).toBe(1);
        ids.push(res.body.data.id);
      }
    }
    // Both instances look for work at once, several times over.
    await Promise.all([runtimeOf(a.app).tick(), runtimeOf(b).tick(), runtimeOf(a.app).tick(), runtimeOf(b).tick()]);
    const rows = await a.database.db.select().from(t.exportTasks).where(inArray(t.exportTasks.id, ids));
    expect(rows.map((r) => r.phase)).toEqual(ids.map(() => 'done'));
    // One claim each (attempts counts claims), and one file each: no task was written twice.
    expect(rows.map((r) => r.attempts)).toEqual(ids.map(() => 1));
    const pieces = (await a.database.db.execute(sql`select task_id, count(*)::int as n, count(distinct seq)::int as d from export_file_chunks where task_id in ${sql.raw(`(${ids.join(',')})`)} group by task_id`)) as unknown as { rows: { task_id: number; n: number; d: number }[] };
    expect(pieces.rows.length).toBe(ids.length);
    for (const p of pieces.rows) expect(p.n).toBe(p.d);
  });

  it("a console connected to one instance hears of a task the other ran", async () => {
    const token = await a.login('manager');
    // The stream is opened on B; the task is asked for and run on A.
    const events = await openEvents({ url: bUrl }, token);
    expect((await events.next()).type).toBe('tasks');
    const day = new Date(a.clock.now().getTime() + 8 * 3600_000).toISOString().slice(0, 10);
    const created = await a.call(ridership.ridershipExport, { token, query: { startDate: day, endDate: day } });
    await runtimeOf(a.app).tick();
    const phases: string[] = [];
    for (;;) {
      const e = await events.next();
      if (e.type === 'task' && e.task.id === created.body.data.id) phases.push(e.task.phase);
      if (phases.at(-1) === 'done') break;
    }
    expect(phases[0]).toBe('queued');
    expect(phases.at(-1)).toBe('done');
    const [row] = await a.database.db.select().from(t.exportTasks).where(eq(t.exportTasks.id, created.body.data.id));
    expect(row!.phase).toBe('done');
    events.close();
  });
});
