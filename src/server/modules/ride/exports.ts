import { type SQL, and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { ridership } from '../../../shared/api';
import { cardCategoryLabel, payStatusLabel, ticketTypeLabel } from '../../../shared/api/card';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { type ExportColumn, type ExportReader, defineExport, keysetRows } from '../../lib/export-definition';
import { RIDES_READ } from '../../../shared/api/ridership';
import { dayWhere, recordList } from './service';
import { shanghaiDate, shanghaiDateTime } from '../../../shared/domain/time';

/**
 * What 乘车记录管理 exports as tasks: ride records (all, or staff cards only) and daily ridership.
 * Each batch is one short keyset query in the table's own order, so a million rows never mean one
 * long transaction or an OFFSET that grows.
 */

type RecordQuery = z.output<typeof ridership.recordExport.query>;
type DayQuery = z.output<typeof ridership.ridershipExport.query>;
type Ride = typeof t.rideRecords.$inferSelect & { cursorAt: string };

const r = t.rideRecords;
const d = t.dayTakeBusTotals;
const yuan = (fen: number) => Math.round(fen) / 100;

async function countUpTo(db: Db, from: SQL, limit: number): Promise<number> {
  const res = (await db.execute(sql`select count(*)::int as n from (select 1 from ${from} limit ${limit + 1}) x`)) as unknown as { rows: { n: number }[] };
  return Number(res.rows[0]?.n ?? 0);
}

const RECORD_COLUMNS: ExportColumn<Ride>[] = [
  { header: '乘车时间', width: 20, cell: (x) => shanghaiDateTime(x.rideAt) },
  { header: '线路编号', width: 10, cell: (x) => x.lineCode },
  { header: '线路名称', width: 14, cell: (x) => x.lineName },
  { header: '车辆', width: 12, cell: (x) => x.busName },
  { header: '方向', width: 6, cell: (x) => (x.direction === 0 ? '上行' : '下行') },
  { header: '站点', width: 16, cell: (x) => x.stationName },
  { header: '卡号', width: 20, cell: (x) => x.cardNo },
  { header: '卡类别', width: 14, cell: (x) => cardCategoryLabel(x.cardCategory) },
  { header: '票种', width: 8, cell: (x) => ticketTypeLabel(x.ticketType) },
  { header: '金额（元）', width: 10, cell: (x) => yuan(x.amount) },
  { header: '支付状态', width: 10, cell: (x) => payStatusLabel(x.payStatus) },
  { header: '充值状态', width: 10, cell: (x) => (x.rechargeStatus === 1 ? '已充值' : '未充值') },
  { header: '订单号', width: 24, cell: (x) => x.orderNo },
  { header: '支付渠道', width: 12, cell: (x) => x.payChannel },
];

function recordExportOf(id: string, sheet: string, staffOnly: boolean) {
  // The list's own filters and scope; the export's order is the table's (time, id), not the list's sort.
  const where = ({ deps, scope }: ExportReader, q: RecordQuery) => and(recordList.where(deps, scope, q), staffOnly ? eq(r.cardCategory, ridership.EMPLOYEE_CARD_CATEGORY) : undefined);
  return defineExport({
    id,
    permission: RIDES_READ,
    sheet,
    columns: RECORD_COLUMNS,
    rows: keysetRows({
      count: (reader, q: RecordQuery, limit) => countUpTo(reader.deps.db, sql`${r} where ${where(reader, q) ?? sql`true`}`, limit),
      read: (reader, q, after: { at: string; id: number } | null, limit): PromiseLike<Ride[]> =>
        reader.deps.db
          .select({ ...getTableColumns(r), cursorAt: sql<string>`${r.rideAt}::text` })
          .from(r)
          // The plain bound on ride_at lets any index on (…, ride_at) start at the cursor (the row
          // comparison alone is only understood by the primary key's): no batch rereads the ones before.
          .where(and(where(reader, q), after ? sql`${r.rideAt} >= ${after.at}::timestamptz and (${r.rideAt}, ${r.id}) > (${after.at}::timestamptz, ${after.id})` : undefined))
          .orderBy(asc(r.rideAt), asc(r.id))
          .limit(limit),
      // The cursor's time is the database's own text: a JS Date would drop microseconds and repeat rows.
      cursor: (x) => ({ at: x.cursorAt, id: x.id }),
    }),
    audit: { operation: 'RIDE_EXPORT' },
  });
}

export const recordsExport = recordExportOf('ride.records', '乘车记录', false);
export const employeeRecordsExport = recordExportOf('ride.employeeRecords', '员工乘车记录', true);

type DayRow = { day: string; lineCode: string; lineName: string; busName: string; rides: number; single: number; monthly: number; yearly: number; amount: number };

export const ridershipExport = defineExport({
  id: 'ride.ridership',
  permission: RIDES_READ,
  sheet: '每日客流',
  columns: [
    { header: '日期', width: 12, cell: (x: DayRow) => x.day },
    { header: '线路编号', width: 10, cell: (x) => x.lineCode },
    { header: '线路名称', width: 14, cell: (x) => x.lineName },
    { header: '车辆', width: 12, cell: (x) => x.busName },
    { header: '客流（人次）', width: 12, cell: (x) => Number(x.rides) },
    { header: '单次票', width: 10, cell: (x) => Number(x.single) },
    { header: '月票', width: 10, cell: (x) => Number(x.monthly) },
    { header: '年票', width: 10, cell: (x) => Number(x.yearly) },
    { header: '金额（元）', width: 12, cell: (x) => yuan(Number(x.amount)) },
  ],
  rows: keysetRows({
    count: ({ deps, scope }, q: DayQuery, limit) => countUpTo(deps.db, sql`(select 1 from ${d} where ${dayWhere(scope, q) ?? sql`true`} group by ${d.day}, ${d.lineCode}, ${d.busName}) g`, limit),
    read: ({ deps, scope }, q, after: { day: string; line: string; bus: string } | null, limit): PromiseLike<DayRow[]> =>
      deps.db
        .select({
          day: d.day,
          lineCode: d.lineCode,
          lineName: sql<string>`max(${d.lineName})`,
          busName: d.busName,
          rides: sql<number>`sum(${d.rides})::int`,
          single: sql<number>`coalesce(sum(${d.rides}) filter (where ${d.ticketType} = 1), 0)::int`,
          monthly: sql<number>`coalesce(sum(${d.rides}) filter (where ${d.ticketType} = 2), 0)::int`,
          yearly: sql<number>`coalesce(sum(${d.rides}) filter (where ${d.ticketType} = 3), 0)::int`,
          amount: sql<number>`sum(${d.amount})::bigint`,
        })
        .from(d)
        .where(and(dayWhere(scope, q), after ? sql`${d.day} >= ${after.day}::date and (${d.day}, ${d.lineCode}, ${d.busName}) > (${after.day}::date, ${after.line}, ${after.bus})` : undefined))
        .groupBy(d.day, d.lineCode, d.busName)
        .orderBy(asc(d.day), asc(d.lineCode), asc(d.busName))
        .limit(limit),
    cursor: (x) => ({ day: x.day, line: x.lineCode, bus: x.busName }),
  }),
  audit: { operation: 'RIDERSHIP_EXPORT' },
});

/** How a task names its filters: title and file name. */
export function recordTaskTitle(what: string, q: RecordQuery): string {
  const parts = [what];
  if (q.startTime && q.endTime) parts.push(`${shanghaiDate(q.startTime)}至${shanghaiDate(q.endTime)}`);
  if (q.cardNo) parts.push(`卡${q.cardNo}`);
  if (q.lineCode) parts.push(`线路${q.lineCode}`);
  if (q.busName) parts.push(q.busName);
  return parts.join(' ');
}

export function ridershipTaskTitle(q: DayQuery): string {
  return ['每日客流', `${q.startDate}至${q.endDate}`, q.lineCode ? `线路${q.lineCode}` : '全部线路', q.busName ?? ''].filter(Boolean).join(' ');
}
