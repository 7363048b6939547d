import { type SQL, and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { ridership } from '../../../shared/api';
import { cardCategoryLabel, payStatusLabel, ticketTypeLabel } from '../../../shared/api/card';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { type ExportScope, defineExportKind } from '../../lib/export-tasks';
import { RIDES_READ } from '../../../shared/api/ridership';
import { dayWhere, recordWhere } from './service';
import { shanghaiDate, shanghaiDateTime } from '../../../shared/domain/time';

/**
 * What 乘车记录管理 exports as tasks: ride records (all, or staff cards only) and daily ridership.
 * Each batch is one short keyset query in the table's own order, so a million rows never mean one
 * long transaction or an OFFSET that grows.
 */

type RecordQuery = z.output<typeof ridership.recordExport.query>;
type DayQuery = z.output<typeof ridership.ridershipExport.query>;

const BATCH = 1_000;
const r = t.rideRecords;
const d = t.dayTakeBusTotals;
const yuan = (fen: number) => Math.round(fen) / 100;

async function countUpTo(db: Db, from: SQL, limit: number): Promise<number> {
  const res = (await db.execute(sql`select count(*)::int as n from (select 1 from ${from} limit ${limit + 1}) x`)) as unknown as { rows: { n: number }[] };
  return Number(res.rows[0]?.n ?? 0);
}

function recordKind(kind: string, sheet: string, staffOnly: boolean) {
  const where = (scope: ExportScope, q: RecordQuery) => and(recordWhere(scope, q), staffOnly ? eq(r.cardCategory, ridership.EMPLOYEE_CARD_CATEGORY) : undefined);
  return defineExportKind<RecordQuery>({
    kind,
    permission: RIDES_READ,
    operation: 'RIDE_EXPORT',
    sheet,
    columns: [
      { title: '乘车时间', width: 20 },
      { title: '线路编号', width: 10 },
      { title: '线路名称', width: 14 },
      { title: '车辆', width: 12 },
      { title: '方向', width: 6 },
      { title: '站点', width: 16 },
      { title: '卡号', width: 20 },
      { title: '卡类别', width: 14 },
      { title: '票种', width: 8 },
      { title: '金额（元）', width: 10 },
      { title: '支付状态', width: 10 },
      { title: '充值状态', width: 10 },
      { title: '订单号', width: 24 },
      { title: '支付渠道', width: 12 },
    ],
    count: (db, scope, q, limit) => countUpTo(db, sql`${r} where ${where(scope, q) ?? sql`true`}`, limit),
    async *batches(db, scope, q) {
      // The cursor's time is the database's own text: a JS Date would drop microseconds and repeat rows.
      let after: { at: string; id: number } | null = null;
      for (;;) {
        const rows: (typeof r.$inferSelect & { cursorAt: string })[] = await db
          .select({ ...getTableColumns(r), cursorAt: sql<string>`${r.rideAt}::text` })
          .from(r)
          // The plain bound on ride_at lets any index on (…, ride_at) start at the cursor (the row
          // comparison alone is only understood by the primary key's): no batch rereads the ones before.
          .where(and(where(scope, q), after ? sql`${r.rideAt} >= ${after.at}::timestamptz and (${r.rideAt}, ${r.id}) > (${after.at}::timestamptz, ${after.id})` : undefined))
          .orderBy(asc(r.rideAt), asc(r.id))
          .limit(BATCH);
        if (!rows.length) return;
        yield rows.map((x) => [
          shanghaiDateTime(x.rideAt),
          x.lineCode,
          x.lineName,
          x.busName,
          x.direction === 0 ? '上行' : '下行',
          x.stationName,
          x.cardNo,
          cardCategoryLabel(x.cardCategory),
          ticketTypeLabel(x.ticketType),
          yuan(x.amount),
          payStatusLabel(x.payStatus),
          x.rechargeStatus === 1 ? '已充值' : '未充值',
          x.orderNo,
          x.payChannel,
        ]);
        const last: { cursorAt: string; id: number } = rows[rows.length - 1]!;
        after = { at: last.cursorAt, id: last.id };
        if (rows.length < BATCH) return;
      }
    },
  });
}

export const recordsExport = recordKind('ride.records', '乘车记录', false);
export const employeeRecordsExport = recordKind('ride.employeeRecords', '员工乘车记录', true);

export const ridershipExport = defineExportKind<DayQuery>({
  kind: 'ride.ridership',
  permission: RIDES_READ,
  operation: 'RIDERSHIP_EXPORT',
  sheet: '每日客流',
  columns: [
    { title: '日期', width: 12 },
    { title: '线路编号', width: 10 },
    { title: '线路名称', width: 14 },
    { title: '车辆', width: 12 },
    { title: '客流（人次）', width: 12 },
    { title: '单次票', width: 10 },
    { title: '月票', width: 10 },
    { title: '年票', width: 10 },
    { title: '金额（元）', width: 12 },
  ],
  count: (db, scope, q, limit) => countUpTo(db, sql`(select 1 from ${d} where ${dayWhere(scope, q) ?? sql`true`} group by ${d.day}, ${d.lineCode}, ${d.busName}) g`, limit),
  async *batches(db, scope, q) {
    let after: { day: string; line: string; bus: string } | null = null;
    for (;;) {
      const rows: { day: string; lineCode: string; lineName: string; busName: string; rides: number; single: number; monthly: number; yearly: number; amount: number }[] = await db
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
        .limit(BATCH);
      if (!rows.length) return;
      yield rows.map((x) => [x.day, x.lineCode, x.lineName, x.busName, Number(x.rides), Number(x.single), Number(x.monthly), Number(x.yearly), yuan(Number(x.amount))]);
      const last: { day: string; lineCode: string; busName: string } = rows[rows.length - 1]!;
      after = { day: last.day, line: last.lineCode, bus: last.busName };
      if (rows.length < BATCH) return;
    }
  },
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

/** A file name from a title: spaces to dashes, nothing a file system would refuse. */
export const fileNameOf = (title: string) => `${title.replace(/[\\/:*?"<>|]/g, '_').replace(/\s+/g, '-')}.xlsx`;
