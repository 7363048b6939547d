import { useState } from 'react';
import { type QueryOf, ridership } from '../../../../shared/api';
import { ticketTypeLabel } from '../../../../shared/api/card';
import type { RidershipRow } from '../../../../shared/api/ridership';
import { fenToYuan } from '../../../../shared/domain/money';
import { type Column, DataTable, type TableResult } from '../../../components/data-table';
import { ScreenSection } from '../../../components/screen-section';
import { useFilterQuery } from '../../../components/table-state';
import { useListScreen } from '../../../components/use-list-screen';
import { Button } from '../../../components/button';
import { useExportTask } from '../../../components/use-export-task';
import { useApi } from '../../../lib/use-api';
import { type RidershipFilterKey, RidershipFilters } from '../components/ridership-filters';
import { RidershipCharts } from '../components/ridership-charts';
import { dailyAverage, lastCompleteDays, refusalOf, shapeOnly, useEffectiveTable } from '../components/ride-range';

const FILTER_KEYS = ['startDate', 'endDate', 'lineCode', 'busName'] as const satisfies readonly RidershipFilterKey[];
const DEFAULT_DAYS = 30;
const PAGE_SCHEMA = shapeOnly(ridership.ridershipPage.query);
const NOTHING: TableResult<RidershipRow> = { data: undefined, error: undefined, isLoading: false, mutate: () => undefined };

const percent = (part: number, whole: number) => (whole ? `${((part / whole) * 100).toFixed(1)}%` : '0%');

/**
 * 乘车统计 (OrderTotal): daily ridership of the area over a range of days (the last 30 by default,
 * a year at most), of one line or bus when chosen: the totals, the trend and the ticket types drawn,
 * and the day × line × bus table. The palette's 查看线路客流 lands here with `?lineCode=`.
 */
export function OrderTotalPage() {
  const { table: fromUrl } = useListScreen<RidershipFilterKey, RidershipRow>({ filters: FILTER_KEYS, schema: PAGE_SCHEMA });
  const [month] = useState(() => lastCompleteDays(DEFAULT_DAYS));
  const f = fromUrl.filters;
  const table = useEffectiveTable(fromUrl, { ...f, startDate: f.startDate || month.start, endDate: f.endDate || month.end });
  const { startDate, endDate, lineCode } = table.filters;

  const filterQuery = useFilterQuery(table.filters);
  const refusal = refusalOf(ridership.ridershipTotal.query, filterQuery);
  // Sent only once refusalOf found the filters (the dates with them) good by the contract's own schema.
  const totals = useApi(ridership.ridershipTotal, refusal ? null : { query: filterQuery as QueryOf<typeof ridership.ridershipTotal> });
  const rows = useApi(ridership.ridershipPage, refusal ? null : { query: table.query as QueryOf<typeof ridership.ridershipPage> });
  const exporter = useExportTask(['order', 'order-total', 'export'], ridership.ridershipExport, filterQuery as QueryOf<typeof ridership.ridershipExport>);
  const lines = useApi(ridership.ridershipLineCodes, {});
  const buses = useApi(ridership.ridershipBusNames, { query: lineCode ? { lineCode } : {} });

  const columns: Column<RidershipRow>[] = [
    { id: 'day', header: '日期', fixed: true, sort: 'day', cell: (r) => r.day, className: 'tabular-nums' },
    { id: 'line', header: '线路', cell: (r) => r.lineName },
    { id: 'busName', header: '车辆', cell: (r) => r.busName },
    { id: 'rides', header: '乘车人次', align: 'right', sort: 'rides', cell: (r) => r.rides },
    { id: 'single', header: ticketTypeLabel(1), align: 'right', cell: (r) => r.single },
    { id: 'monthly', header: ticketTypeLabel(2), align: 'right', cell: (r) => r.monthly },
    { id: 'yearly', header: ticketTypeLabel(3), align: 'right', cell: (r) => r.yearly },
    { id: 'amount', header: '金额（元）', align: 'right', cell: (r) => fenToYuan(r.amount) },
  ];

  // While new filters load, the last figures stay, dimmed (as the table's rows do), rather than blinking out.
  const t = totals.data;
  const average = dailyAverage(startDate, endDate, t?.byDay);
  const lineName = lineCode ? (lines.data?.find((l) => l.lineCode === lineCode)?.lineName ?? lineCode) : '全部线路';
  const scope = `${startDate} 至 ${endDate}，${lineName}${table.filters.busName ? ` ${table.filters.busName}` : ''}`;

  return (
    <ScreenSection title="乘车统计">
      <div className="flex flex-col gap-3">
        <RidershipFilters values={table.filters} lines={lines.data ?? []} buses={buses.data ?? []} onApply={table.setFilters} onReset={table.reset} />
        {refusal ? (
          <p role="alert" className="rounded border border-orange-200 bg-orange-50 px-3 py-2 text-sm text-orange-800">
            {refusal}
          </p>
        ) : (
          <section aria-label="客流合计" aria-busy={totals.isValidating || undefined} className="rounded bg-white p-3 shadow-sm sm:p-4">
            <p className="mb-2 text-xs text-gray-600">{scope}</p>
            {totals.error && !t ? (
              <p role="alert" className="text-sm text-red-600">
                加载失败：{totals.error instanceof Error ? totals.error.message : '请求出错'}
              </p>
            ) : (
              <>
                <dl className={`grid grid-cols-3 gap-2 transition-opacity ${totals.isValidating && t ? 'opacity-60' : ''}`}>
                  <Figure term="乘车人次" value={t ? String(t.rides) : '…'} />
                  <Figure term="金额（元）" value={t ? fenToYuan(t.amount) : '…'} />
                  <Figure term={average.partial ? '日均人次（不含今日）' : '日均人次'} value={t ? average.text : '…'} />
                </dl>
                {t && t.rides > 0 && (
                  <p className="mt-2 text-xs text-gray-600">
                    {t.byTicketType.map((s) => `${ticketTypeLabel(s.ticketType)} ${s.rides} 人次（${percent(s.rides, t.rides)}）`).join(' · ')}
                  </p>
                )}
              </>
            )}
          </section>
        )}
        {!refusal && t && (
          // The charts' library loads on first use (Chart's lazy part): the totals and the table show meanwhile.
          <RidershipCharts start={startDate} end={endDate} byDay={t.byDay} byTicketType={t.byTicketType} />
        )}
        <DataTable
          id="ride.ridership"
          label="每日客流"
          columns={columns}
          rowKey={(r) => `${r.day}|${r.lineCode}|${r.busName}`}
          result={refusal ? NOTHING : rows}
          state={table}
          emptyText={refusal ? '请修改查询条件' : '暂无数据'}
          toolbar={
            <>
              <h3 className="text-sm font-medium text-gray-800">每日客流</h3>
              <Button className="h-8" disabled={!!refusal || exporter.starting} onClick={() => void exporter.run()} title="导出当前条件的每日客流（后台生成，完成后在下载中心下载）">
                {exporter.starting ? '提交中…' : '导出'}
              </Button>
            </>
          }
        />
      </div>
    </ScreenSection>
  );
}

function Figure({ term, value }: { term: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-gray-600">{term}</dt>
      <dd className="truncate text-lg font-semibold text-gray-900 tabular-nums sm:text-2xl">{value}</dd>
    </div>
  );
}

