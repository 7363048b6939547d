import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, discount, exportTask, ridership, station, system } from '../../src/shared/api';
import type { TaskEvent } from '../../src/shared/api/export-task';
import { buildApp } from '../../src/server/app';
import { type TestServer, startTestServer } from '../support/test-server';
import { openEvents } from '../support/task-events';
import { onPostgres } from '../support/test-db';
import { CHANGE_CHANNEL } from '../../src/server/lib/changes';
import { and, eq, gt, sql } from 'drizzle-orm';
import * as t from '../../src/server/db/schema';

/**
 * The live console (issue 21 item 5): a change committed through instance A reaches the event
 * streams held on instance B (PostgreSQL NOTIFY between two apps on one database; on PGlite two apps
 * on one embedded database hear its own NOTIFY), within 2 s, and only for accounts that may read the
 * record's district; a console's own change is said to be its own.
 */

type Events = Awaited<ReturnType<typeof openEvents>>;
type Change = Extract<TaskEvent, { type: 'change' }>;

/** Waits for the next change event, skipping task events; none within `ms` is a failure. */
async function nextChange(events: Events, ms = 2_000): Promise<Change> {
  const deadline = Date.now() + ms;
  for (;;) {
    const e = await Promise.race([events.next(), new Promise<null>((r) => setTimeout(r, Math.max(0, deadline - Date.now()), null))]);
    if (!e) throw new Error(`no change within ${ms} ms`);
    if (e.type === 'change') return e;
  }
}

describe('committed changes on the event stream, across instances', () => {
  let a: TestServer;
  let b: FastifyInstance;
  let bUrl: string;
  beforeAll(async () => {
    a = await startTestServer({}, { jobs: false });
    b = await buildApp({ db: a.database.db, database: a.database, config: a.config, clock: a.clock, jobs: false });
    bUrl = await b.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('reaches a stream on the other instance within 2 s, by district, and tells a console its own', async () => {
    const [admin, manager] = await Promise.all([a.login('admin'), a.login('manager')]);
    const managersStation = (await a.call(station.stationList, { token: manager, query: { page: 0, size: 1 } })).body.data.content[0]!;
    const districts = (await a.call(system.districtPage, { token: admin, query: { page: 0, size: 50 } })).body.data.content;
    const other = districts.find((d) => d.id !== managersStation.districtId)!;
    const othersStation = (await a.call(station.stationList, { token: admin, district: other.id, query: { page: 0, size: 1 } })).body.data.content[0]!;
    expect(othersStation.districtId).toBe(other.id);

    // Streams on B: the super user (every district) as console "admin-console", the manager (徐汇区 only).
    const adminEvents = await openEvents({ url: bUrl }, admin, { 'x-console-id': 'admin-console-1' });
    const managerEvents = await openEvents({ url: bUrl }, manager, { 'x-console-id': 'manager-console-1' });
    expect((await adminEvents.next()).type).toBe('tasks');
    expect((await managerEvents.next()).type).toBe('tasks');

    // Another district's station changed through A: the super user hears it, the manager does not.
    const rename = (s: typeof managersStation, name: string, consoleId: string) =>
      a.call(station.stationSave, { token: admin, district: s.districtId, headers: { 'x-console-id': consoleId }, body: { id: s.id, name, lng: s.lng, lat: s.lat, state: s.state } });
    let res = await rename(othersStation, `${othersStation.name}甲`, 'another-console');
    expect(res.body.code, res.body.msg).toBe(1);
    let sent = Date.now();
    const heard = await nextChange(adminEvents);
    expect(Date.now() - sent).toBeLessThan(2_000);
    expect(heard).toMatchObject({ type: 'change', tags: ['station'], kind: 'station', id: String(othersStation.id), by: 'admin', own: false });

    // The manager's district's station changed by the super user from this very console.
    res = await rename(managersStation, `${managersStation.name}乙`, 'admin-console-1');
    expect(res.body.code, res.body.msg).toBe(1);
    sent = Date.now();
    const toManager = await nextChange(managerEvents);
    expect(Date.now() - sent).toBeLessThan(2_000);
    expect(toManager).toMatchObject({ kind: 'station', id: String(managersStation.id), by: 'admin', own: false });
    // Changes are told in commit order: the manager never heard of the other district's station.
    expect(managerEvents.pending().filter((e) => e.type === 'change')).toEqual([]);
    // The super user's console hears its own change as its own (nothing to mark as someone else's).
    expect(await nextChange(adminEvents)).toMatchObject({ kind: 'station', id: String(managersStation.id), own: true });

    // A refused change commits nothing and tells nobody.
    res = await a.call(station.stationSave, { token: manager, headers: { 'x-console-id': 'x-console-2' }, body: { id: othersStation.id, name: '越权', lng: 121.4, lat: 31.2, state: 1 } });
    expect(res.body.code).not.toBe(1);
    // A read that audits (an export asked for) changes no record, and an account's own task (deleted)
    // is its own news, told by the task hub to it alone.
    const task = await a.call(ridership.ridershipExport, { token: manager, query: { startDate: '2026-11-01', endDate: '2026-11-02' } });
    expect(task.body.code, task.body.msg).toBe(1);
    expect((await a.call(exportTask.taskDelete, { token: manager, params: { id: task.body.data.id } })).body.code).toBe(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(adminEvents.pending().filter((e) => e.type === 'change')).toEqual([]);
    expect(managerEvents.pending().filter((e) => e.type === 'change')).toEqual([]);
    adminEvents.close();
    managerEvents.close();
  });

  it('上架/下架, a GET in the spec, is a change all the same: told on the stream', async () => {
    const manager = await a.login('manager');
    const events = await openEvents({ url: bUrl }, manager);
    expect((await events.next()).type).toBe('tasks');
    const [product] = (await a.call(discount.productPage, { token: manager, query: { page: 0, size: 1, status: '1' } })).body.data.content;
    const res = await a.call(discount.productStatus, { token: manager, query: { id: product!.id, status: '0' } });
    expect(res.body.code, res.body.msg).toBe(1);
    expect(await nextChange(events)).toMatchObject({ type: 'change', by: 'manager' });
    events.close();
  });

  it('a refusal written to the log (a refund above the amount without the password) tells nobody: nothing changed', async () => {
    const manager = await a.login('manager');
    const [me] = await a.database.db.select().from(t.users).where(eq(t.users.login, 'manager'));
    const [order] = await a.database.db
      .select()
      .from(t.discountOrders)
      .where(and(eq(t.discountOrders.districtId, me!.districtId!), eq(t.discountOrders.payStatus, 1), gt(t.discountOrders.amount, a.config.refundPasswordAboveFen)))
      .limit(1);
    const events = await openEvents({ url: bUrl }, manager);
    expect((await events.next()).type).toBe('tasks');
    const res = await a.call(discount.discountOrderRefund, { token: manager, body: { id: order!.id, reason: '乘客来电申请退款', idempotencyKey: 'live-refusal-0001' } });
    expect(res.body.code).toBe(0);
    await new Promise((r) => setTimeout(r, 700));
    expect(events.pending().filter((e) => e.type === 'change')).toEqual([]);
    events.close();
  });

  it('a record of no district (a role group) is told to district accounts that may read it, without who changed it', async () => {
    const [admin, manager] = await Promise.all([a.login('admin'), a.login('manager')]);
    const events = await openEvents({ url: bUrl }, manager);
    expect((await events.next()).type).toBe('tasks');
    const [group] = await a.database.db.select().from(t.roleGroups).limit(1);
    const res = await a.call(account.groupUpdate, { token: admin, query: { id: group!.id, description: '全市共用的角色组（已更新）' } });
    expect(res.body.code, res.body.msg).toBe(1);
    expect(await nextChange(events)).toMatchObject({ type: 'change', by: null, own: false });
    events.close();
  });

  it('a stream ends at the next ping once its account was moved to another district or its role group changed: it filtered by the old ones', async () => {
    const p = await startTestServer({ exports: { ...a.config.exports, pingMs: 200 } }, { jobs: false });
    try {
      const token = await p.login('manager');
      const events = await openEvents(p, token);
      expect((await events.next()).type).toBe('tasks');
      // Unchanged, it stays open over several pings.
      await new Promise((r) => setTimeout(r, 700));
      expect(await Promise.race([events.ended.then(() => 'ended'), Promise.resolve('open')])).toBe('open');
      // Moved (what 编辑账号 stores: another district, the row's version raised).
      const [other] = await p.database.db.select().from(t.districts).where(eq(t.districts.name, '黄浦区'));
      await p.database.db.update(t.users).set({ districtId: other!.id, rowVersion: sql`${t.users.rowVersion} + 1` }).where(eq(t.users.login, 'manager'));
      const ended = await Promise.race([events.ended.then(() => 'ended'), new Promise((r) => setTimeout(() => r('open'), 5_000))]);
      expect(ended).toBe('ended');
    } finally {
      await p.close();
    }
  });

  it.skipIf(!onPostgres)('a lost LISTEN connection comes back and tells every stream to refetch what it shows (resync)', async () => {
    const admin = await a.login('admin');
    const events = await openEvents({ url: bUrl }, admin);
    expect((await events.next()).type).toBe('tasks');
    // Both instances' LISTEN connections for changes are cut; each connects again after 1 s.
    await a.database.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike ${'listen "' + CHANGE_CHANNEL + '"'}`);
    const deadline = Date.now() + 5_000;
    let e: TaskEvent | null = null;
    while (e?.type !== 'resync' && Date.now() < deadline) e = await Promise.race([events.next(), new Promise<null>((r) => setTimeout(r, Math.max(0, deadline - Date.now()), null))]);
    expect(e?.type).toBe('resync');
    events.close();
  });
});
