import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ridership } from '../../src/shared/api';
import type { RidershipRow } from '../../src/shared/api/ridership';
import * as t from '../../src/server/db/schema';
import { DEMO_PASSWORD } from '../../src/server/db/seed/context';
import { ensureAhead, partitionName } from '../../src/server/lib/ride-partitions';
import { menuCatalogue, menuItemIds } from '../../src/shared/modules';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';
import { freshDatabase } from '../support/test-db';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { PROFILES } from '../../src/server/db/seed';
import { runSeed } from '../../src/server/seed-runner';
import { addDays, shanghaiDate } from '../../src/shared/domain/time';
import { createPii } from '../../src/server/lib/pii';
import { CONTRACT_MODULES } from '../../src/shared/api/contract';

/** Rides (issue 12, first step): the partitioned records, the daily totals kept from them, the read calls. */
let s: TestServer;
let manager: string;
let admin: string;
let xuhui: number;
const db = () => s.database.db;
const rows = <T>(res: unknown) => (res as { rows: T[] }).rows;

beforeAll(async () => {
  s = await startTestServer();
  [manager, admin] = await Promise.all([s.login('manager'), s.login('admin')]);
  xuhui = (await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区')))[0]!.id;
});
afterAll(() => s.close());

/** The last 30 Shanghai days, as the seed wrote them. */
const range = () => {
  const end = s.clock.now();
  return { startTime: new Date(end.getTime() - 30 * 86_400_000).toISOString(), endTime: end.toISOString() };
};

describe('the ride tables', () => {
  it('are partitioned by month; the seeded rides sit in month partitions, none in the default', async () => {
    const kind = rows<{ relkind: string }>(await db().execute(sql`select relkind from pg_class where relname = 'ride_records'`));
    expect(kind[0]?.relkind).toBe('p');
    const parts = rows<{ name: string }>(await db().execute(sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent where p.relname = 'ride_records' order by 1`)).map((r) => r.name);
    expect(parts).toContain('ride_records_default');
    expect(parts.filter((p) => /^ride_records_y\d{4}m\d{2}$/.test(p)).length).toBeGreaterThanOrEqual(2);
    const [all] = rows<{ n: number }>(await db().execute(sql`select count(*)::int as n from ride_records`));
    const [stray] = rows<{ n: number }>(await db().execute(sql`select count(*)::int as n from only ride_records_default`));
    expect(all!.n).toBeGreaterThan(100);
    expect(stray!.n).toBe(0);
  });

  it('keeps the daily totals equal to the records for every day that has records', async () => {
    const diff = rows<{ n: number }>(
      await db().execute(sql`
        with fromRecords as (
          select (ride_at at time zone 'Asia/Shanghai')::date as day, district_id, line_code, bus_name, ticket_type, card_category, count(*)::int as rides, sum(amount)::bigint as amount
          from ride_records group by 1, 2, 3, 4, 5, 6),
        kept as (select * from day_take_bus_totals where day >= (select min(day) from fromRecords))
        select count(*)::int as n from fromRecords f full join kept k using (day, district_id, line_code, bus_name, ticket_type, card_category)
        where f.rides is distinct from k.rides or f.amount is distinct from k.amount`),
    );
    expect(diff[0]!.n).toBe(0);
    const [days] = rows<{ n: number }>(await db().execute(sql`select count(distinct day)::int as n from day_take_bus_totals`));
    expect(days!.n).toBeGreaterThanOrEqual(90);
  });

  it('creates this month and the next two ahead, once, whichever instance runs it', async () => {
    const later = new Date(s.clock.now().getTime() + 200 * 86_400_000);
    const first = await Promise.all([ensureAhead(db(), later), ensureAhead(db(), later)]);
    expect(first.flat().length).toBeGreaterThanOrEqual(3);
    expect(await ensureAhead(db(), later)).toEqual([]);
    const local = new Date(later.getTime() + 8 * 3600_000);
    const name = partitionName({ y: local.getUTCFullYear(), m: local.getUTCMonth() + 1 });
    expect(rows<{ e: boolean }>(await db().execute(sql`select to_regclass(${name}) is not null as e`))[0]!.e).toBe(true);
  });
});

describe('query/record', () => {
  it('lists a card\'s rides newest first, with no time range needed; only the area\'s', async () => {
    const [ride] = await db().select().from(t.rideRecords).where(eq(t.rideRecords.districtId, xuhui)).limit(1);
    const res = await s.call(ridership.recordList, { token: manager, query: { cardNo: ride!.cardNo, size: 50 } });
    expect(res.body.code).toBe(1);
    const [n] = rows<{ n: number }>(await db().execute(sql`select count(*)::int as n from ride_records where card_no = ${ride!.cardNo} and district_id = ${xuhui}`));
    expect(res.body.data.totalElements).toBe(n!.n);
    const times = res.body.data.content.map((x) => Date.parse(x.rideDate));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(res.body.data.content.every((x) => x.cardNo === ride!.cardNo && x.districtId === xuhui)).toBe(true);
  });

  it('lists and sums a line\'s rides in a time range; the summary agrees with the table', async () => {
    const [ride] = await db().select().from(t.rideRecords).where(eq(t.rideRecords.districtId, xuhui)).limit(1);
    const q = { ...range(), lineCode: ride!.lineCode };
    const page = await s.call(ridership.recordList, { token: manager, query: { ...q, size: 5 } });
    const sum = await s.call(ridership.recordSummary, { token: manager, query: q });
    const [db1] = rows<{ n: number; amount: number }>(await db().execute(sql`select count(*)::int as n, coalesce(sum(amount), 0)::int as amount from ride_records where line_code = ${ride!.lineCode} and district_id = ${xuhui} and ride_at between ${q.startTime} and ${q.endTime}`));
    expect(page.body.data.totalElements).toBe(db1!.n);
    expect(sum.body.data).toMatchObject({ rides: db1!.n, amount: db1!.amount });
    expect(sum.body.data.paid + sum.body.data.unpaid + sum.body.data.refunded).toBe(db1!.n);
  });

  it('answers a ride\'s payment order; refuses another area\'s (403) and an unknown one (404)', async () => {
    const [own] = await db().select().from(t.rideRecords).where(eq(t.rideRecords.districtId, xuhui)).limit(1);
    const res = await s.call(ridership.recordOrder, { token: manager, params: { id: own!.id } });
    expect(res.body.data).toMatchObject({ id: own!.id, orderNo: own!.orderNo, payChannel: own!.payChannel });
    const [foreign] = await db().select().from(t.rideRecords).where(sql`${t.rideRecords.districtId} <> ${xuhui}`).limit(1);
    expect((await s.call(ridership.recordOrder, { token: manager, params: { id: foreign!.id } })).status).toBe(403);
    expect((await s.call(ridership.recordOrder, { token: manager, params: { id: 2_000_000_000 } })).body).toMatchObject({ code: 404, msg: '乘车记录不存在' });
  });

  it('refuses a query without a card or a time range, a range over 31 days, and an end before the start, in Chinese', async () => {
    const none = await s.call(ridership.recordList, { token: manager, query: {} });
    expect(none.status).toBe(400);
    expect(none.body.msg).toContain('请选择时间范围（或输入卡号）');
    const long = await s.call(ridership.recordSummary, { token: manager, query: { startTime: '2026-01-01T00:00:00+08:00', endTime: '2026-03-01T00:00:00+08:00' } });
    expect(long.body.msg).toContain('时间范围不能超过31天');
    const back = await s.call(ridership.recordList, { token: manager, query: { startTime: '2026-03-01T00:00:00+08:00', endTime: '2026-02-27T00:00:00+08:00' } });
    expect(back.body.msg).toContain('结束时间不能早于开始时间');
  });
});

describe('day-take-bus-total/pc', () => {
  /** The 90 whole Shanghai days before today: every one has data at any hour (at 02:00 today has none yet). */
  const days = () => {
    const yesterday = addDays(shanghaiDate(s.clock.now()), -1);
    return { startDate: addDays(yesterday, -89), endDate: yesterday };
  };

  it('names the area\'s lines and a line\'s buses', async () => {
    const lines = await s.call(ridership.ridershipLineCodes, { token: manager });
    const [expected] = rows<{ n: number }>(await db().execute(sql`select count(distinct line_code)::int as n from day_take_bus_totals where district_id = ${xuhui}`));
    expect(lines.body.data.length).toBe(expected!.n);
    const first = lines.body.data[0]!;
    const buses = await s.call(ridership.ridershipBusNames, { token: manager, query: { lineCode: first.lineCode } });
    expect(buses.body.data.length).toBeGreaterThan(0);
    expect(buses.body.data.every((b) => b.startsWith('沪B-'))).toBe(true);
  });

  it('totals 90 days by ticket type and by day, equal to the stored totals; the page adds up to them', async () => {
    const q = days();
    const total = await s.call(ridership.ridershipTotal, { token: manager, query: q });
    const [stored] = rows<{ rides: number; amount: number }>(await db().execute(sql`select sum(rides)::int as rides, sum(amount)::int as amount from day_take_bus_totals where district_id = ${xuhui} and day between ${q.startDate} and ${q.endDate}`));
    expect(total.body.data).toMatchObject({ rides: stored!.rides, amount: stored!.amount });
    expect(total.body.data.byTicketType.reduce((n, x) => n + x.rides, 0)).toBe(stored!.rides);
    expect(total.body.data.byDay.length).toBe(90);
    const all: RidershipRow[] = [];
    for (let page = 0; ; page++) {
      const res = await s.call(ridership.ridershipPage, { token: manager, query: { ...q, page, size: 1000 } });
      all.push(...res.body.data.content);
      if (page + 1 >= res.body.data.totalPages) break;
    }
    expect(all.reduce((n, x) => n + x.rides, 0)).toBe(stored!.rides);
    expect(all.every((x) => x.single + x.monthly + x.yearly === x.rides)).toBe(true);
  });

  it('refuses a range over a year or backwards, in Chinese', async () => {
    const long = await s.call(ridership.ridershipTotal, { token: manager, query: { startDate: '2024-01-01', endDate: '2026-01-01' } });
    expect(long.status).toBe(400);
    expect(long.body.msg).toContain('日期范围不能超过366天');
    const bad = await s.call(ridership.ridershipPage, { token: manager, query: { startDate: '2026-02-01', endDate: '2026-01-01' } });
    expect(bad.body.msg).toContain('结束日期不能早于开始日期');
  });
});

describe('who may read rides', () => {
  it('an account without 乘车记录管理 is refused every ride call (403); the super user reads every area', async () => {
    const [viewer] = await db().select().from(t.users).where(eq(t.users.login, 'viewer'));
    const [group] = await db().insert(t.roleGroups).values({ name: '只看站点组', description: '没有乘车记录', createdAt: s.clock.now(), updatedAt: s.clock.now() }).returning();
    await db().insert(t.roleGroupItems).values(menuItemIds(menuCatalogue(CONTRACT_MODULES), ['station']).map((itemId) => ({ groupId: group!.id, itemId })));
    await db().insert(t.users).values({ ...viewer!, id: undefined, login: 'stationonly', firstName: '只看站点', groupId: group!.id });
    const token = await s.login('stationonly', DEMO_PASSWORD);
    const [ride] = await db().select().from(t.rideRecords).limit(1);
    const calls = [
      s.call(ridership.recordList, { token, query: { cardNo: ride!.cardNo } }),
      s.call(ridership.recordSummary, { token, query: { cardNo: ride!.cardNo } }),
      s.call(ridership.recordOrder, { token, params: { id: ride!.id } }),
      s.call(ridership.ridershipLineCodes, { token }),
      s.call(ridership.ridershipBusNames, { token }),
      s.call(ridership.ridershipTotal, { token, query: { startDate: '2026-01-01', endDate: '2026-01-02' } }),
      s.call(ridership.ridershipPage, { token, query: { startDate: '2026-01-01', endDate: '2026-01-02' } }),
    ];
    expect((await Promise.all(calls)).map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 403, 403]);
    const lines = await s.call(ridership.ridershipLineCodes, { token: admin });
    const [all] = rows<{ n: number }>(await db().execute(sql`select count(distinct line_code)::int as n from day_take_bus_totals`));
    expect(lines.body.data.length).toBe(all!.n);
  });
});


describe('the month partitions of a database without the demo', () => {
  it('exist as soon as the server is ready: the job runs at start, not only hours later', async () => {
    const database = await freshDatabase();
    await database.migrate(() => runSeed({ db: database.db, now: new Date(), seed: 1, demo: false, profile: PROFILES.small, passwordMaxAgeDays: 90, pii: createPii(TEST_PII_KEY) }).then(() => undefined));
    const app = await buildApp({ db: database.db, config: { ...loadConfig({}), piiKey: TEST_PII_KEY, staticDir: '/nonexistent' }, clock: { now: () => new Date() } });
    try {
      await app.ready();
      const local = new Date(Date.now() + 8 * 3600_000);
      const name = partitionName({ y: local.getUTCFullYear(), m: local.getUTCMonth() + 1 });
      await expect.poll(async () => rows<{ e: boolean }>(await database.db.execute(sql`select to_regclass(${name}) is not null as e`))[0]!.e, { timeout: 5_000 }).toBe(true);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
