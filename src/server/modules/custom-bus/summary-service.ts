import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { toPage } from '../../../shared/api';
import * as api from '../../../shared/api/custom-bus/demand';
import { DAY_MS, addDays, shanghaiDate } from '../../../shared/domain/time';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import { failOn } from '../../lib/errors';
import { computedRows, defineExport, yuanCell } from '../../lib/export-definition';

/**
 * 定制汇总: per line and Shanghai day of departure, what its classes issued, sold, carried and took
 * in. Everything is counted on the class's day (a refund on the day its class ran, not the day the
 * money went back), so a row's load, no-shows and revenue speak of the same departures.
 */

type Scope = Pick<AuthContext, 'districtScope'>;
type Filters = z.output<typeof api.customSummaryTotal.query>;
type PageQuery = z.output<typeof api.customSummaryPage.query>;
export type SummaryDto = z.output<typeof api.customSummaryRow>;

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const num = (v: unknown) => Number(v ?? 0);
const permille = (part: number, whole: number) => (whole > 0 ? Math.round((part * 1000) / whole) : null);

/** The days asked for (Shanghai, inclusive), the last 30 without them; at most 366. */
function dayRange(now: Date, q: Filters) {
  const end = q.endDate ?? shanghaiDate(now);
  const start = q.startDate ?? addDays(end, -29);
  if (start > end) throw failOn('startDate', '开始日期不能晚于结束日期');
  if (Date.parse(end) - Date.parse(start) > 366 * DAY_MS) throw failOn('startDate', '日期范围不能超过366天');
  return { start, end };
}

/**
 * The per-(line, day) rows as one grouped statement: the classes of the range (by the
 * (district, day) or (line, day) index), their tickets aggregated per class (tickets by class
 * index), each ticket's refund rows found by the ledger's unique (kind, order, item) index.
 * Cancelled classes count no seats but keep their sales and refunds (their money moved).
 */
function perLineDay(now: Date, a: Scope, q: Filters): SQL {
  const { start, end } = dayRange(now, q);
  const area = a.districtScope === null ? sql`true` : sql`c.district_id = ${a.districtScope}`;
  const one = q.lineId === undefined ? sql`true` : sql`c.line_id = ${q.lineId}`;
  return sql`
    c as (select c.id, c.line_id, c.depart_date, c.publish, c.status, c.depart_at <= ${now} as departed
          from custom_classes c where c.depart_date between ${start} and ${end} and ${area} and ${one}),
    k as (select t.classes_id,
            count(*) filter (where t.state in (1, 2, 3))::int as sold,
            count(*) filter (where t.state in (1, 2))::int as kept,
            count(*) filter (where t.state = 2)::int as checked,
            count(*) filter (where t.state = 1)::int as unchecked,
            coalesce(sum(t.amount) filter (where t.state in (1, 2, 3)), 0)::bigint as paid,
            count(r.id)::int as refunds,
            coalesce(sum(r.amount), 0)::bigint as refund_amount
          from c join custom_tickets t on t.classes_id = c.id
          left join money_refunds r on r.kind = 'custom' and r.order_id = t.order_id and r.item_id = t.id
          group by t.classes_id),
    g as (select c.line_id, c.depart_date as day,
            count(*) filter (where c.status <> 4)::int as classes,
            coalesce(sum(c.publish) filter (where c.status <> 4), 0)::int as seats,
            coalesce(sum(k.sold), 0)::int as sold,
            coalesce(sum(k.kept) filter (where c.status <> 4), 0)::int as kept,
            coalesce(sum(k.checked), 0)::int as checked,
            coalesce(sum(k.unchecked) filter (where c.departed and c.status <> 4), 0)::int as no_shows,
            coalesce(sum(k.refunds), 0)::int as refunds,
            coalesce(sum(k.refund_amount), 0)::bigint as refund_amount,
            coalesce(sum(k.paid), 0)::bigint as paid
          from c left join k on k.classes_id = c.id group by c.line_id, c.depart_date)`;
}

type Raw = { day: string; line_id: number; line_no: string; name: string; classes: number; seats: number; sold: number; kept: number; checked: number; no_shows: number; refunds: number; refund_amount: string; paid: string; n?: number };

const dto = (r: Raw): SummaryDto => {
  const refundAmount = num(r.refund_amount);
  return {
    day: String(r.day).slice(0, 10),
    lineId: num(r.line_id),
    lineNo: r.line_no,
    lineName: r.name,
    classes: num(r.classes),
    seats: num(r.seats),
    sold: num(r.sold),
    loadRate: permille(num(r.kept), num(r.seats)),
    checked: num(r.checked),
    noShows: num(r.no_shows),
    refunds: num(r.refunds),
    refundAmount,
    revenue: num(r.paid) - refundAmount,
  };
};

const ORDERS = {
  day: sql`g.day`,
  loadRate: sql`(g.kept::float / nullif(g.seats, 0))`,
  revenue: sql`(g.paid - g.refund_amount)`,
} as const;

async function read(db: Db, ctes: SQL, sort: string | undefined, limit: number, offset: number) {
  const [field, dir] = (sort ?? 'day,desc').split(',') as [keyof typeof ORDERS, string];
  const by = ORDERS[field] ?? ORDERS.day;
  const d = dir === 'asc' ? sql`asc nulls first` : sql`desc nulls last`;
  const res = await db.execute(sql`with ${ctes}
    select to_char(g.day, 'YYYY-MM-DD') as day, g.line_id, l.line_no, l.name, g.classes, g.seats, g.sold, g.kept, g.checked, g.no_shows,
           g.refunds, g.refund_amount, g.paid, count(*) over ()::int as n
    from g join custom_lines l on l.id = g.line_id
    order by ${by} ${d}, g.day desc, l.sort, g.line_id limit ${limit} offset ${offset}`);
  return rowsOf<Raw>(res);
}

export async function summaryPage(deps: AppDeps, a: AuthContext, q: PageQuery) {
  const rows = await read(deps.db, perLineDay(deps.clock.now(), a, q), q.sort, q.size, q.page * q.size);
  // The window count rides on the page's rows; past the last page it takes a count of its own.
  const total = rows.length ? num(rows[0]!.n) : q.page === 0 ? 0 : num(rowsOf<{ n: number }>(await deps.db.execute(sql`with ${perLineDay(deps.clock.now(), a, q)} select count(*)::int as n from g`))[0]?.n);
  return toPage(rows.map(dto), total, q.page, q.size);
}

export async function summaryTotal(deps: AppDeps, a: AuthContext, q: Filters) {
  const [r] = rowsOf<Record<string, string | number | null>>(
    await deps.db.execute(sql`with ${perLineDay(deps.clock.now(), a, q)}
      select count(distinct g.line_id)::int as lines, count(distinct g.day)::int as days, coalesce(sum(classes), 0) as classes, coalesce(sum(seats), 0) as seats,
        coalesce(sum(sold), 0) as sold, coalesce(sum(kept), 0) as kept, coalesce(sum(checked), 0) as checked, coalesce(sum(no_shows), 0) as no_shows,
        coalesce(sum(refunds), 0) as refunds, coalesce(sum(refund_amount), 0) as refund_amount, coalesce(sum(paid), 0) as paid from g`),
  );
  const refundAmount = num(r?.refund_amount);
  return {
    lines: num(r?.lines),
    days: num(r?.days),
    classes: num(r?.classes),
    seats: num(r?.seats),
    sold: num(r?.sold),
    loadRate: permille(num(r?.kept), num(r?.seats)),
    checked: num(r?.checked),
    noShows: num(r?.no_shows),
    refunds: num(r?.refunds),
    refundAmount,
    revenue: num(r?.paid) - refundAmount,
  };
}

const pct = (permille: number | null) => (permille === null ? '' : `${(permille / 10).toFixed(1)}%`);

export const summaryExport = defineExport({
  id: 'customBus.summary',
  permission: api.customSummaryExport.permission,
  sheet: '定制汇总',
  columns: [
    { header: '日期', width: 12, cell: (r: SummaryDto) => r.day },
    { header: '线路编号', width: 10, cell: (r) => r.lineNo },
    { header: '线路名称', width: 16, cell: (r) => r.lineName },
    { header: '班次', width: 8, cell: (r) => r.classes },
    { header: '发行座位', width: 10, cell: (r) => r.seats },
    { header: '售出', width: 8, cell: (r) => r.sold },
    { header: '上座率', width: 8, cell: (r) => pct(r.loadRate) },
    { header: '已核销', width: 8, cell: (r) => r.checked },
    { header: '未乘车', width: 8, cell: (r) => r.noShows },
    { header: '退票（张）', width: 10, cell: (r) => r.refunds },
    { header: '退款金额（元）', width: 12, cell: (r) => yuanCell(r.refundAmount) },
    { header: '实收（元）', width: 12, cell: (r) => yuanCell(r.revenue) },
  ],
  // At most 366 days × the area's lines: computed whole.
  rows: computedRows(async ({ deps, scope }, q: Filters) => (await read(deps.db, perLineDay(deps.clock.now(), scope, q), 'day,desc', 1_000_000, 0)).map(dto)),
  audit: { operation: 'CUSTOM_EXPORT' },
});

export const summaryExportTitle = (q: Filters) => ['定制汇总', q.startDate && q.endDate ? `${q.startDate}至${q.endDate}` : ''].filter(Boolean).join(' ');
