import { type QueryOf, ridership } from '../../../../shared/api';
import { ticketTypeLabel } from '../../../../shared/api/card';
import { fenToYuan } from '../../../../shared/domain/money';
import { shapeOnly } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, useResourceList } from '../../../components/resource/resource-list';
import { ScreenSection } from '../../../components/screen-section';
import { Button } from '../../../components/button';
import { useExportTask } from '../../../components/use-export-task';
import { useApi } from '../../../lib/use-api';
import { RidershipFilters } from '../components/ridership-filters';
import { RidershipCharts } from '../components/ridership-charts';
import { dailyAverage, lastCompleteDays } from '../components/ride-range';

const DEFAULT_DAYS = 30;
// A range over the limit stays in the form, to be refused in words, instead of being dropped.
const PAGE_SCHEMA = shapeOnly(ridership.ridershipPage.query);

const columns: ListColumn<typeof ridership.ridershipPage>[] = [
  { id: 'day', header: '日期', fixed: true, sort: 'day', cell: (r) => r.day, className: 'tabular-nums' },
  { id: 'line', header: '线路', cell: (r) => r.lineName },
  { id: 'busName', header: '车辆', cell: (r) => r.busName },
  { id: 'rides', header: '乘车人次', align: 'right', sort: 'rides', cell: (r) => r.rides },
  { id: 'single', header: ticketTypeLabel(1), align: 'right', cell: (r) => r.single },
  { id: 'monthly', header: ticketTypeLabel(2), align: 'right', cell: (r) => r.monthly },
  { id: 'yearly', header: ticketTypeLabel(3), align: 'right', cell: (r) => r.yearly },
  { id: 'amount', header: '金额（元）', align: 'right', cell: (r) => fenToYuan(r.amount) },
];

const percent = (part: number, whole: number) => (whole ? `${((part / whole) * 100).toFixed(1)}%` : '0%');

/**
 * 乘车统计 (OrderTotal): daily ridership of the area over a range of days (the last 30 by default,
 * a year at most), of one line or bus when chosen: the totals, the trend and the ticket types drawn,
 * and the day × line × bus table. The palette's 查看线路客流 lands here with `?lineCode=`.
 */
export function OrderTotalPage() {
  // The page's own form sets the filters (days typed, a line picked by pinyin): none in the table's bar.
  const list = useResourceList({
    endpoint: ridership.ridershipPage,
    filters: {},
    linkFilters: ['startDate', 'endDate', 'lineCode', 'busName'],
    schema: PAGE_SCHEMA,
    // The last 30 whole days, each end where the address names none.
    effective: (f) => {
      const month = lastCompleteDays(DEFAULT_DAYS);
      return { ...f, startDate: f.startDate || month.start, endDate: f.endDate || month.end };
    },
    guard: { schema: ridership.ridershipTotal.query },
  });
  const { table, refusal, filterQuery } = list;
  const { startDate, endDate, lineCode } = table.filters;
  // Sent only once the guard found the filters (the dates with them) good by the contract's own schema.
  const totals = useApi(ridership.ridershipTotal, refusal ? null : { query: filterQuery as QueryOf<typeof ridership.ridershipTotal> });
  const exporter = useExportTask(['order', 'order-total', 'export'], ridership.ridershipExport, filterQuery as QueryOf<typeof ridership.ridershipExport>, refusal);
  const lines = useApi(ridership.ridershipLineCodes, {});
  const buses = useApi(ridership.ridershipBusNames, { query: lineCode ? { lineCode } : {} });

  // While new filters load, the last figures stay, dimmed (as the table's rows do), rather than blinking out.
  const t = totals.data;
  const average = dailyAverage(startDate, endDate, t?.byDay);
  const lineName = lineCode ? (lines.data?.find((l) => l.lineCode === lineCode)?.lineName ?? lineCode) : '全部线路';
  const scope = `${startDate} 至 ${endDate}，${lineName}${table.filters.busName ? ` ${table.filters.busName}` : ''}`;

  return (
    <ScreenSection title="乘车统计">
      <div className="flex flex-col gap-3">
        <RidershipFilters values={table.filters} lines={lines.data ?? []} buses={buses.data ?? []} onApply={table.setFilters} onReset={table.reset} />
        {/* A refusal is the table's to say (its alert); the figures and charts wait for good filters. */}
        {!refusal && (
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
        <ResourceTable
          list={list}
          id="ride.ridership"
          label="每日客流"
          columns={columns}
          rowKey={(r) => `${r.day}|${r.lineCode}|${r.busName}`}
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

