import { type SQL, and, count, desc, asc, eq, getTableColumns, gte, lte, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { ridership, toPage } from '../../../shared/api';
import type { AppDeps, AuthContext } from '../../context';
import * as t from '../../db/schema';
import { notFound } from '../../lib/errors';
import { type ListContext, listService } from '../../lib/list';
import { paged } from '../../lib/paging';
import { assertInScope, inScope } from '../../lib/scope';
import { iso } from '../../lib/sql';

type RecordQuery = z.output<typeof ridership.recordSummary.query>;
type Scope = Pick<AuthContext, 'districtScope'>;
type RecordPageQuery = z.output<typeof ridership.recordList.query>;
type DayQuery = z.output<typeof ridership.ridershipTotal.query>;
type DayPageQuery = z.output<typeof ridership.ridershipPage.query>;

const r = t.rideRecords;
const d = t.dayTakeBusTotals;

const recordDto = (x: typeof r.$inferSelect) => ({
  id: x.id,
  rideDate: iso(x.rideAt),
  districtId: x.districtId,
  lineCode: x.lineCode,
  lineName: x.lineName,
  busName: x.busName,
  direction: x.direction,
  stationName: x.stationName,
  cardNo: x.cardNo,
  cardCategory: x.cardCategory,
  ticketType: x.ticketType,
  amount: x.amount,
  payStatus: x.payStatus,
  rechargeStatus: x.rechargeStatus,
});

/** 乘车记录: the area's rides by card, line, bus, ticket type, payment and time, newest first. */
export const recordList = listService({
  endpoint: ridership.recordList,
  select: (db) => db.select().from(r),
  count: (db) => db.select({ n: count() }).from(r),
  scope: r.districtId,
  filters: {
    cardNo: (cardNo) => eq(r.cardNo, cardNo),
    lineCode: (lineCode) => eq(r.lineCode, lineCode),
    busName: (busName) => eq(r.busName, busName),
    ticketType: (ticketType) => eq(r.ticketType, ticketType),
    payStatus: (payStatus) => eq(r.payStatus, payStatus),
    // The range prunes partitions: only the months it touches are read.
    startTime: (from) => gte(r.rideAt, new Date(from)),
    endTime: (to) => lte(r.rideAt, new Date(to)),
  },
  sorts: { rideDate: r.rideAt, amount: r.amount },
  order: { column: r.rideAt, dir: 'desc' },
  key: { column: r.id, of: (x) => x.id },
  dto: (x, _ctx: ListContext<Scope>) => recordDto(x),
});

/** 乘车记录: a card's rides come from its index, whatever the months. */
export async function pageRecords(deps: AppDeps, a: AuthContext, q: RecordPageQuery) {
  if (!q.cardNo) return recordList.page(deps, a, q);
  // A card's page reads every ride of the card anyway (its index entries in each month, then
  // the top of them), so the total comes from that same read: one query, not a second scan of
  // every month on another connection (the benchmark's p99 at 10 million rides, README decision 96).
  const cond = recordList.where(deps, a, q);
  const rows = await deps.db
    .select({ ...getTableColumns(r), total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(r)
    .where(cond)
    .orderBy(...recordList.order(q.sort))
    .limit(q.size)
    .offset(q.page * q.size);
  // Past the last page there is no row to carry the total.
  const total = rows[0]?.total ?? (q.page > 0 ? ((await deps.db.select({ n: count() }).from(r).where(cond))[0]?.n ?? 0) : 0);
  return toPage(rows.map(recordDto), total, q.page, q.size);
}

export async function recordSummary(deps: AppDeps, a: AuthContext, q: RecordQuery) {
  const [s] = await deps.db
    .select({
      rides: sql<number>`count(*)::int`,
      amount: sql<number>`coalesce(sum(${r.amount}), 0)::bigint`,
      paid: sql<number>`count(*) filter (where ${r.payStatus} = 1)::int`,
      unpaid: sql<number>`count(*) filter (where ${r.payStatus} = 0)::int`,
      refunded: sql<number>`count(*) filter (where ${r.payStatus} = 2)::int`,
    })
    .from(r)
    .where(recordList.where(deps, a, q));
  return { rides: Number(s?.rides ?? 0), amount: Number(s?.amount ?? 0), paid: Number(s?.paid ?? 0), unpaid: Number(s?.unpaid ?? 0), refunded: Number(s?.refunded ?? 0) };
}

/** The payment order behind one ride. */
export async function recordOrder(deps: AppDeps, a: AuthContext, id: number) {
  const [x] = await deps.db.select().from(r).where(eq(r.id, id)).limit(1);
  if (!x) throw notFound('乘车记录不存在');
  assertInScope(a, x.districtId);
  return { ...recordDto(x), orderNo: x.orderNo, payChannel: x.payChannel, paidDate: x.paidAt ? iso(x.paidAt) : null };
}

export function dayWhere(a: Pick<AuthContext, 'districtScope'>, q: DayQuery): SQL | undefined {
  return and(inScope(a, d.districtId), gte(d.day, q.startDate), lte(d.day, q.endDate), q.lineCode ? eq(d.lineCode, q.lineCode) : undefined, q.busName ? eq(d.busName, q.busName) : undefined);
}

/** The lines with ridership in the area, by code (the newest name of each). */
export async function lineCodes(deps: AppDeps, a: AuthContext) {
  const rows = await deps.db
    .select({ lineCode: d.lineCode, lineName: sql<string>`max(${d.lineName})` })
    .from(d)
    .where(inScope(a, d.districtId))
    .groupBy(d.lineCode)
    .orderBy(sql`length(${d.lineCode})`, d.lineCode);
  return rows.map((x) => ({ lineCode: x.lineCode, lineName: x.lineName }));
}

export async function busNames(deps: AppDeps, a: AuthContext, lineCode: string | undefined) {
  const rows = await deps.db
    .selectDistinct({ busName: d.busName })
    .from(d)
    .where(and(inScope(a, d.districtId), lineCode ? eq(d.lineCode, lineCode) : undefined))
    .orderBy(d.busName);
  return rows.map((x) => x.busName);
}

export async function ridershipTotal(deps: AppDeps, a: AuthContext, q: DayQuery) {
  const cond = dayWhere(a, q);
  const byTicket = await deps.db
    .select({ ticketType: d.ticketType, rides: sql<number>`sum(${d.rides})::int`, amount: sql<number>`sum(${d.amount})::bigint` })
    .from(d)
    .where(cond)
    .groupBy(d.ticketType)
    .orderBy(d.ticketType);
  const byDay = await deps.db
    .select({ day: d.day, rides: sql<number>`sum(${d.rides})::int`, amount: sql<number>`sum(${d.amount})::bigint` })
    .from(d)
    .where(cond)
    .groupBy(d.day)
    .orderBy(d.day);
  const byTicketType = byTicket.map((x) => ({ ticketType: x.ticketType, rides: Number(x.rides), amount: Number(x.amount) }));
  return {
    rides: byTicketType.reduce((n, x) => n + x.rides, 0),
    amount: byTicketType.reduce((n, x) => n + x.amount, 0),
    byTicketType,
    byDay: byDay.map((x) => ({ day: x.day, rides: Number(x.rides), amount: Number(x.amount) })),
  };
}

/** 每日客流: one row per day × line × bus, the ticket types side by side. */
export async function ridershipPage(deps: AppDeps, a: AuthContext, q: DayPageQuery) {
  const cond = dayWhere(a, q);
  const rides = sql<number>`sum(${d.rides})::int`;
  const order = q.sort === 'rides,desc' ? [desc(rides)] : q.sort === 'rides,asc' ? [asc(rides)] : q.sort === 'day,asc' ? [asc(d.day)] : [desc(d.day)];
  return paged(
    q,
    async (limit, offset) =>
      (
        await deps.db
          .select({
            day: d.day,
            lineCode: d.lineCode,
            lineName: sql<string>`max(${d.lineName})`,
            busName: d.busName,
            rides,
            amount: sql<number>`sum(${d.amount})::bigint`,
            single: sql<number>`coalesce(sum(${d.rides}) filter (where ${d.ticketType} = 1), 0)::int`,
            monthly: sql<number>`coalesce(sum(${d.rides}) filter (where ${d.ticketType} = 2), 0)::int`,
            yearly: sql<number>`coalesce(sum(${d.rides}) filter (where ${d.ticketType} = 3), 0)::int`,
          })
          .from(d)
          .where(cond)
          .groupBy(d.day, d.lineCode, d.busName)
          .orderBy(...order, asc(d.lineCode), asc(d.busName))
          .limit(limit)
          .offset(offset)
      ).map((x) => ({ ...x, rides: Number(x.rides), amount: Number(x.amount), single: Number(x.single), monthly: Number(x.monthly), yearly: Number(x.yearly) })),
    async () => {
      const groups = deps.db.select({ one: sql`1` }).from(d).where(cond).groupBy(d.day, d.lineCode, d.busName).as('g');
      return deps.db.select({ n: count() }).from(groups);
    },
  );
}
