import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, exportTask, ridership } from '../../src/shared/api';
import type { TaskEvent } from '../../src/shared/api/export-task';
import * as t from '../../src/server/db/schema';
import { DEMO_PASSWORD } from '../../src/server/db/seed/context';
import { menuCatalogue, menuItemIds } from '../../src/shared/modules';
import { type TestServer, startTestServer } from '../support/test-server';
import { readXlsx } from '../support/xlsx-read';
import { HOUR } from '../support/clock';
import { buildApp } from '../../src/server/app';
import { openEvents } from '../support/task-events';
import { settledTask } from '../support/export-task';
import { CONTRACT_MODULES } from '../../src/shared/api/contract';

/**
 * The download centre (issue 12): exports as tasks, their files, cancel, expiry, recovery after an
 * instance stops or dies, and the live event stream. Runs on PGlite and again on PostgreSQL;
 * the two-instance claim is in exports-pg.test.ts.
 */
let s: TestServer;
let manager: string;
let admin: string;
const db = () => s.database.db;
const rows = <T>(res: unknown) => (res as { rows: T[] }).rows;

beforeAll(async () => {
  s = await startTestServer();
  [manager, admin] = await Promise.all([s.login('manager'), s.login('admin')]);
});
afterAll(() => s.close());

const week = () => {
  const end = s.clock.now();
  return { startTime: new Date(end.getTime() - 7 * 86_400_000).toISOString(), endTime: end.toISOString() };
};

/** The task once it is no longer open (the support's poll of the list). */
const settled = (token: string, id: number) => settledTask(s, token, id);

async function download(token: string, id: number) {
  const res = await s.call(exportTask.taskDownload, { token, params: { id } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { res, sheet: await readXlsx(res.file!) };
}

describe('exporting ride records', () => {
  it('runs as a task: the file holds every record of the filters, in order, with the header the screen shows', async () => {
    const [line] = rows<{ code: string }>(await db().execute(sql`select line_code as code from ride_records where district_id = ${await managerDistrict()} group by 1 order by count(*) desc limit 1`));
    const query = { ...week(), lineCode: line!.code };
    const created = await s.call(ridership.recordExport, { token: manager, query });
    expect(created.body.code, created.body.msg).toBe(1);
    expect(created.body.data).toMatchObject({ status: 0, phase: 'queued', kind: 'ride.records' });
    expect(created.body.data.title).toContain(`线路${line!.code}`);
    const done = await settled(manager, created.body.data.id);
    expect(done).toMatchObject({ status: 1, phase: 'done' });

    const summary = await s.call(ridership.recordSummary, { token: manager, query });
    expect(summary.body.data.rides).toBeGreaterThan(0);
    expect(done.rowsTotal).toBe(summary.body.data.rides);
    expect(done.rowsDone).toBe(summary.body.data.rides);
    expect(done.expiresDate).not.toBeNull();

    const { res, sheet } = await download(manager, done.id);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(decodeURIComponent(res.headers.get('content-disposition')!)).toContain(done.fileName);
    expect(Number(res.headers.get('content-length'))).toBe(done.fileSize);
    expect(sheet.sheetName).toBe('乘车记录');
    expect(sheet.rows[0]!.slice(0, 3)).toEqual(['乘车时间', '线路编号', '线路名称']);
    const body = sheet.rows.slice(1);
    expect(body.length).toBe(summary.body.data.rides);
    expect(new Set(body.map((r) => r[1]))).toEqual(new Set([line!.code]));
    const times = body.map((r) => r[0]!);
    expect([...times].sort()).toEqual(times);
    // The newest record of the file is the newest of the list, in Shanghai time.
    const newest = await s.call(ridership.recordList, { token: manager, query: { ...query, size: 1 } });
    const shanghai = new Date(Date.parse(newest.body.data.content[0]!.rideDate) + 8 * HOUR).toISOString().slice(0, 19).replace('T', ' ');
    expect(times[times.length - 1]).toBe(shanghai);

    const audits = await db().select().from(t.sysLog).where(eq(t.sysLog.target, `export/${done.id}`));
    expect(audits.map((a) => a.operationType).sort()).toEqual(['EXPORT_DOWNLOAD', 'RIDE_EXPORT']);
  });

  it('escapes what a spreadsheet would run as a formula, and keeps the district scope of the account', async () => {
    const [ride] = await db().select().from(t.rideRecords).where(eq(t.rideRecords.districtId, (await managerDistrict()))).limit(1);
    await db().update(t.rideRecords).set({ stationName: '=HYPERLINK("http://evil.example","点我")' }).where(and(eq(t.rideRecords.id, ride!.id), eq(t.rideRecords.rideAt, ride!.rideAt)));
    const created = await s.call(ridership.recordExport, { token: manager, query: { cardNo: ride!.cardNo } });
    const done = await settled(manager, created.body.data.id);
    const { sheet } = await download(manager, done.id);
    const cell = sheet.rows.slice(1).find((r) => r[5]?.includes('HYPERLINK'));
    expect(cell?.[5]).toBe('\'=HYPERLINK("http://evil.example","点我")');
    // The manager's file holds only the manager's district, whatever the card rode elsewhere.
    const [inScope] = rows<{ n: number }>(await db().execute(sql`select count(*)::int as n from ride_records where card_no = ${ride!.cardNo} and district_id = ${await managerDistrict()}`));
    expect(sheet.rows.length - 1).toBe(inScope!.n);
  });

  it('exports staff rides alone under employee_record, and daily ridership row for row with its page', async () => {
    const staff = await s.call(ridership.employeeRecordExport, { token: admin, query: week() });
    const ridershipQuery = { startDate: isoDay(-29), endDate: isoDay(0) };
    const daily = await s.call(ridership.ridershipExport, { token: admin, query: ridershipQuery });
    const [staffDone, dailyDone] = await Promise.all([settled(admin, staff.body.data.id), settled(admin, daily.body.data.id)]);

    const staffSheet = (await download(admin, staffDone.id)).sheet;
    const [staffRides] = rows<{ n: number }>(await db().execute(sql`select count(*)::int as n from ride_records where card_category = 7 and ride_at >= ${week().startTime}::timestamptz and ride_at <= ${week().endTime}::timestamptz`));
    expect(staffRides!.n).toBeGreaterThan(0);
    expect(staffSheet.rows.length - 1).toBe(staffRides!.n);
    expect(new Set(staffSheet.rows.slice(1).map((r) => r[7]))).toEqual(new Set(['员工卡']));

    const dailySheet = (await download(admin, dailyDone.id)).sheet;
    const page = await s.call(ridership.ridershipPage, { token: admin, query: { ...ridershipQuery, size: 1 } });
    const total = await s.call(ridership.ridershipTotal, { token: admin, query: ridershipQuery });
    expect(dailySheet.rows.length - 1).toBe(page.body.data.totalElements);
    expect(dailySheet.rows.slice(1).reduce((n, r) => n + Number(r[4]), 0)).toBe(total.body.data.rides);
  });
});

describe('refusals', () => {
  it('refuses an account without 乘车记录管理 (403), another area (403), a range over 31 days and a missing range, in Chinese, creating nothing', async () => {
    const before = await taskCount();
    const [viewer] = await db().select().from(t.users).where(eq(t.users.login, 'viewer'));
    const [group] = await db().insert(t.roleGroups).values({ name: '只看站点导出组', description: '没有乘车记录', createdAt: s.clock.now(), updatedAt: s.clock.now() }).returning();
    await db().insert(t.roleGroupItems).values(menuItemIds(menuCatalogue(CONTRACT_MODULES), ['station']).map((itemId) => ({ groupId: group!.id, itemId })));
    await db().insert(t.users).values({ ...viewer!, id: undefined, login: 'noexports', firstName: '无导出', groupId: group!.id });
    const token = await s.login('noexports', DEMO_PASSWORD);
    for (const e of [ridership.recordExport, ridership.employeeRecordExport]) expect((await s.call(e, { token, query: week() })).status).toBe(403);
    expect((await s.call(ridership.ridershipExport, { token, query: { startDate: isoDay(-3), endDate: isoDay(0) } })).status).toBe(403);

    const long = await s.call(ridership.recordExport, { token: manager, query: { startTime: new Date(Date.parse(week().endTime) - 40 * 86_400_000).toISOString(), endTime: week().endTime } });
    expect(long.status).toBe(400);
    expect(long.body.msg).toContain('时间范围不能超过31天');
    const none = await s.call(ridership.recordExport, { token: manager });
    expect(none.body.msg).toContain('请选择时间范围');
    const year = await s.call(ridership.ridershipExport, { token: manager, query: { startDate: '2025-01-01', endDate: '2026-06-01' } });
    expect(year.body.msg).toContain('日期范围不能超过366天');
    // A district account asking under another area's header is refused before anything is queued.
    const [other] = await db().select().from(t.districts).where(sql`${t.districts.id} <> ${await managerDistrict()}`).limit(1);
    const foreign = await s.call(ridership.ridershipExport, { token: manager, district: other!.id, query: { startDate: isoDay(-3), endDate: isoDay(0) } });
    expect(foreign.status).toBe(403);
    expect(await taskCount()).toBe(before);
  });

  it("another account's task is not found for download, cancel or delete; a finished task cannot be cancelled", async () => {
    const created = await s.call(ridership.ridershipExport, { token: manager, query: { startDate: isoDay(-2), endDate: isoDay(0) } });
    const done = await settled(manager, created.body.data.id);
    const agent = await s.login('agent');
    for (const [e, method] of [[exportTask.taskDownload, 'download'], [exportTask.taskCancel, 'cancel'], [exportTask.taskDelete, 'delete']] as const) {
      const res = await s.call(e, { token: agent, params: { id: done.id } });
      expect(res.body.msg, method).toBe('导出任务不存在');
    }
    const again = await s.call(exportTask.taskCancel, { token: manager, params: { id: done.id } });
    expect(again.body.msg).toBe('任务已结束，无需取消');
    const list = await s.call(exportTask.taskList, { token: agent });
    expect(list.body.data.content.map((x) => x.id)).not.toContain(done.id);
  });

  it('answers 401 to the event stream without a session', async () => {
    const res = await fetch(`${s.url}${exportTask.taskEvents.path}`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: number }).code).toBe(401);
  });
});

describe('the queue, driven by hand', () => {
  let q: TestServer;
  let token: string;
  beforeAll(async () => {
    q = await startTestServer({}, { jobs: false });
    token = await q.login('manager');
  });
  afterAll(() => q.close());
  const deps = () => runtimeOf(q);
  const ask = async () => (await q.call(ridership.ridershipExport, { token, query: { startDate: isoDay(-6), endDate: isoDay(0) } })).body;

  it('lets one account have three open tasks, refuses a fourth in Chinese, and a cancelled task never runs', async () => {
    const first = await ask();
    await ask();
    await ask();
    const fourth = await ask();
    expect(fourth.code).not.toBe(1);
    expect(fourth.msg).toContain('已有3个导出任务在进行');
    const cancelled = await q.call(exportTask.taskCancel, { token, params: { id: first.data.id } });
    expect(cancelled.body.data).toMatchObject({ phase: 'cancelled', status: 2, error: '已取消' });
    await deps().tick();
    const list = (await q.call(exportTask.taskList, { token, query: { size: 10 } })).body.data.content;
    expect(list.find((x) => x.id === first.data.id)?.phase).toBe('cancelled');
    expect(list.filter((x) => x.phase === 'done').length).toBe(2);
    const [pieces] = rows<{ n: number }>(await q.database.db.execute(sql`select count(*)::int as n from export_file_chunks where task_id = ${first.data.id}`));
    expect(pieces!.n).toBe(0);
    expect((await q.call(exportTask.taskDownload, { token, params: { id: first.data.id } })).body.msg).toBe('任务未生成文件');
  });

  it('takes up a task whose instance died mid-file (stale heartbeat) and writes it whole; fails it after three attempts', async () => {
    const a = (await ask()).data;
    const b = (await ask()).data;
    const old = new Date(q.clock.now().getTime() - 10 * 60_000);
    // What a killed instance leaves: running, its claim, an old heartbeat, half a file.
    await q.database.db.update(t.exportTasks).set({ phase: 'running', claimedBy: 'dead-instance', heartbeatAt: old, attempts: 1, rowsDone: 123 }).where(eq(t.exportTasks.id, a.id));
    await q.database.db.insert(t.exportFileChunks).values({ taskId: a.id, seq: 0, data: Buffer.from('half a file') });
    await q.database.db.update(t.exportTasks).set({ phase: 'running', claimedBy: 'dead-instance', heartbeatAt: old, attempts: 3 }).where(eq(t.exportTasks.id, b.id));
    await deps().tick();
    const list = (await q.call(exportTask.taskList, { token, query: { size: 20 } })).body.data.content;
    const ra = list.find((x) => x.id === a.id)!;
    const rb = list.find((x) => x.id === b.id)!;
    expect(ra.phase).toBe('done');
    expect(rb).toMatchObject({ phase: 'failed', status: 2, error: '导出多次中断，已停止，请重新导出' });
    const file = await q.call(exportTask.taskDownload, { token, params: { id: a.id } });
    const sheet = await readXlsx(file.file!);
    expect(sheet.rows.length - 1).toBe(ra.rowsTotal);
    const [row] = await q.database.db.select().from(t.exportTasks).where(eq(t.exportTasks.id, a.id));
    expect(row!.attempts).toBe(2);
    // A task whose heartbeat is fresh belongs to a live instance and is left alone.
    const c = (await ask()).data;
    await q.database.db.update(t.exportTasks).set({ phase: 'running', claimedBy: 'live-instance', heartbeatAt: q.clock.now(), attempts: 1 }).where(eq(t.exportTasks.id, c.id));
    await deps().tick();
    const [still] = await q.database.db.select().from(t.exportTasks).where(eq(t.exportTasks.id, c.id));
    expect(still).toMatchObject({ phase: 'running', claimedBy: 'live-instance' });
    await q.call(exportTask.taskDelete, { token, params: { id: c.id } });
  });

  it('removes a file when its time is up: the task reads 已过期 and the download is refused', async () => {
    const a = (await ask()).data;
    await deps().tick();
    expect((await q.call(exportTask.taskDownload, { token, params: { id: a.id } })).status).toBe(200);
    q.clock.advance(q.config.exports.ttlMs + 1);
    await deps().tick();
    // A day later the session has long gone idle: sign in again.
    token = await q.login('manager');
    const res = await q.call(exportTask.taskDownload, { token, params: { id: a.id } });
    expect(res.body.msg).toBe('文件已过期，请重新导出');
    const [pieces] = rows<{ n: number }>(await q.database.db.execute(sql`select count(*)::int as n from export_file_chunks where task_id = ${a.id}`));
    expect(pieces!.n).toBe(0);
    const list = (await q.call(exportTask.taskList, { token, query: { size: 30 } })).body.data.content;
    expect(list.find((x) => x.id === a.id)).toMatchObject({ phase: 'expired', status: 3 });
  });

  it('delete hides a task from the list and writes an audit row', async () => {
    const a = (await ask()).data;
    expect((await q.call(exportTask.taskDelete, { token, params: { id: a.id } })).body.code).toBe(1);
    const list = (await q.call(exportTask.taskList, { token, query: { size: 50 } })).body.data.content;
    expect(list.map((x) => x.id)).not.toContain(a.id);
    const audits = await q.database.db.select().from(t.sysLog).where(eq(t.sysLog.target, `export/${a.id}`));
    expect(audits.map((x) => x.operationType).sort()).toEqual(['EXPORT_DELETE', 'RIDERSHIP_EXPORT']);
  });
});

describe('a server that stops mid-export', () => {
  it('puts the running task back in the queue, without its half file and without counting an attempt; the next instance writes it whole', async () => {
    const first = await startTestServer({}, { jobs: false });
    const database = first.database;
    // Enough rides of one line that the file takes a few heartbeats to write.
    await database.db.execute(sql`
      insert into ride_records (ride_at, district_id, line_code, line_name, bus_name, direction, station_name, card_no, card_category, ticket_type, amount, pay_status, recharge_status, order_no, pay_channel, paid_at)
      select ${first.clock.now()}::timestamptz - (g * interval '10 second'), (select min(id) from districts), 'STOP1', '停机测试线', '沪B-STOP', 0, null, '3101' || lpad(g::text, 12, '0'), 1, 1, 200, 1, 1, 'S' || g, '乘车码', null
      from generate_series(1, 60000) g`);
    const token = await first.login('admin');
    const end = first.clock.now();
    const created = await first.call(ridership.recordExport, { token, query: { lineCode: 'STOP1', startTime: new Date(end.getTime() - 8 * 86_400_000).toISOString(), endTime: end.toISOString() } });
    const id = created.body.data.id;
    const run = runtimeOf(first).tick();
    // Running and part way through: then the server closes (SIGTERM's path).
    for (let i = 0; i < 200; i++) {
      const [row] = await database.db.select().from(t.exportTasks).where(eq(t.exportTasks.id, id));
      if (row?.phase === 'running' && row.rowsDone > 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const closing = first.app.close();
    await run;
    await closing;
    const [back] = await database.db.select().from(t.exportTasks).where(eq(t.exportTasks.id, id));
    expect(back).toMatchObject({ phase: 'queued', claimedBy: null, rowsDone: 0, attempts: 0 });
    const [pieces] = rows<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from export_file_chunks where task_id = ${id}`));
    expect(pieces!.n).toBe(0);
    // The instance that starts next takes it up and finishes it.
    const next = await buildApp({ db: database.db, database, config: first.config, clock: first.clock, jobs: false });
    try {
      await (next as unknown as { exportsRuntime: Runtime }).exportsRuntime.tick();
      const [done] = await database.db.select().from(t.exportTasks).where(eq(t.exportTasks.id, id));
      expect(done).toMatchObject({ phase: 'done', rowsDone: 60000, attempts: 1 });
    } finally {
      await next.close();
      await database.close();
    }
  }, 60_000);
});

describe('cancelling a task under way', () => {
  it('stops it at its next heartbeat: 已取消, no file, and the worker goes on to the next task', async () => {
    const c = await startTestServer({}, { jobs: false });
    try {
      await c.database.db.execute(sql`
        insert into ride_records (ride_at, district_id, line_code, line_name, bus_name, direction, station_name, card_no, card_category, ticket_type, amount, pay_status, recharge_status, order_no, pay_channel, paid_at)
        select ${c.clock.now()}::timestamptz - (g * interval '10 second'), (select min(id) from districts), 'CANCEL1', '取消测试线', '沪B-CXL', 0, null, '3101' || lpad(g::text, 12, '0'), 1, 1, 200, 1, 1, 'C' || g, '乘车码', null
        from generate_series(1, 60000) g`);
      const token = await c.login('admin');
      const end = c.clock.now();
      const query = { lineCode: 'CANCEL1', startTime: new Date(end.getTime() - 8 * 86_400_000).toISOString(), endTime: end.toISOString() };
      const big = (await c.call(ridership.recordExport, { token, query })).body.data;
      const small = (await c.call(ridership.ridershipExport, { token, query: { startDate: isoDay(-1), endDate: isoDay(0) } })).body.data;
      const run = runtimeOf(c).tick();
      for (let i = 0; i < 200; i++) {
        const [row] = await c.database.db.select().from(t.exportTasks).where(eq(t.exportTasks.id, big.id));
        if (row?.phase === 'running' && row.rowsDone > 0) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      const cancelled = await c.call(exportTask.taskCancel, { token, params: { id: big.id } });
      expect(cancelled.body.data).toMatchObject({ phase: 'cancelled', status: 2 });
      await run;
      const [after] = await c.database.db.select().from(t.exportTasks).where(eq(t.exportTasks.id, big.id));
      expect(after!.phase).toBe('cancelled');
      expect(after!.rowsDone).toBeLessThan(60000);
      const [pieces] = rows<{ n: number }>(await c.database.db.execute(sql`select count(*)::int as n from export_file_chunks where task_id = ${big.id}`));
      expect(pieces!.n).toBe(0);
      const [next] = await c.database.db.select().from(t.exportTasks).where(eq(t.exportTasks.id, small.id));
      expect(next!.phase).toBe('done');
    } finally {
      await c.close();
    }
  }, 60_000);
});

describe('the event stream', () => {
  it('sends the task list on connect, then every change of a new task up to its file', async () => {
    const token = await s.login('manager');
    const events = await openEvents(s, token);
    const first = await events.next();
    expect(first.type).toBe('tasks');
    const created = await s.call(ridership.ridershipExport, { token, query: { startDate: isoDay(-9), endDate: isoDay(0) } });
    const seen: TaskEvent[] = [];
    for (;;) {
      const e = await events.next();
      seen.push(e);
      if (e.type === 'task' && e.task.id === created.body.data.id && e.task.phase === 'done') break;
    }
    const phases = seen.flatMap((e) => (e.type === 'task' && e.task.id === created.body.data.id ? [e.task.phase] : []));
    expect(phases[0]).toBe('queued');
    expect(phases).toContain('running');
    expect(phases[phases.length - 1]).toBe('done');
    await s.call(exportTask.taskDelete, { token, params: { id: created.body.data.id } });
    const removed = await events.next();
    expect(removed).toEqual({ type: 'removed', id: created.body.data.id });
    events.close();
  });

  it('ends when the session is logged out (checked with each ping)', async () => {
    const p = await startTestServer({ exports: { ...s.config.exports, pingMs: 200 } });
    try {
      const token = await p.login('manager');
      const events = await openEvents(p, token);
      await events.next();
      await p.call(auth.logout, { token });
      const ended = await Promise.race([events.ended, new Promise((r) => setTimeout(() => r('open'), 5_000))]);
      expect(ended).toBe('ended');
    } finally {
      await p.close();
    }
  });
});

// ---- helpers ----

async function managerDistrict(): Promise<number> {
  const [m] = await db().select().from(t.users).where(eq(t.users.login, 'manager'));
  return m!.districtId!;
}

async function taskCount(): Promise<number> {
  const [n] = rows<{ n: number }>(await db().execute(sql`select count(*)::int as n from export_tasks`));
  return n!.n;
}

/** A Shanghai day relative to the test clock's today. */
function isoDay(offset: number): string {
  return new Date(s.clock.now().getTime() + 8 * HOUR + offset * 86_400_000).toISOString().slice(0, 10);
}

type Runtime = { tick(): Promise<void> };
function runtimeOf(server: TestServer): Runtime {
  return (server.app as unknown as { exportsRuntime: Runtime }).exportsRuntime;
}
