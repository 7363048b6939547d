import { useMemo } from 'react';
import { type CustomSummaryRow, customSummaryExport, customSummaryPage, customSummaryTotal } from '../../../../shared/api/custom-bus/demand';
import { fenToYuan } from '../../../../shared/domain/money';
import { addDays, shanghaiDate } from '../../../../shared/domain/time';
import { CHART_STYLE, Chart, type ChartOption } from '../../../components/charts/chart';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { choiceFilter, optionsFrom, textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { ScreenSection } from '../../../components/screen-section';

/** ‰ as a percentage, or — without seats. */
export const loadText = (permille: number | null) => (permille === null ? '—' : `${(permille / 10).toFixed(1)}%`);

/** A load under half is worth a look (a line to thin out), over 95% one to add seats to: said in words, not colour alone. */
function Load({ permille }: { permille: number | null }) {
  if (permille === null) return <span className="text-gray-500">—</span>;
  const tone = permille < 500 ? 'text-amber-700' : permille >= 950 ? 'text-green-700' : 'text-gray-900';
  const note = permille < 500 ? '（偏低）' : permille >= 950 ? '（满载）' : '';
  return (
    <span className={`tabular-nums ${tone}`}>
      {loadText(permille)}
      {note && <span className="text-xs">{note}</span>}
    </span>
  );
}

const columns: ListColumn<typeof customSummaryPage>[] = [
  { id: 'day', header: '日期', sort: 'day', fixed: true, cell: (r) => r.day, className: 'tabular-nums' },
  { id: 'line', header: '线路', cell: (r) => `${r.lineNo} ${r.lineName}` },
  { id: 'classes', header: '班次', align: 'right', cell: (r) => r.classes, className: 'tabular-nums' },
  { id: 'seats', header: '发行座位', align: 'right', cell: (r) => r.seats, className: 'tabular-nums' },
  { id: 'sold', header: '售出', align: 'right', cell: (r) => r.sold, className: 'tabular-nums' },
  { id: 'loadRate', header: '上座率', sort: 'loadRate', align: 'right', cell: (r) => <Load permille={r.loadRate} /> },
  { id: 'checked', header: '已核销', align: 'right', cell: (r) => r.checked, className: 'tabular-nums' },
  { id: 'noShows', header: '未乘车', align: 'right', cell: (r) => r.noShows, className: 'tabular-nums' },
  { id: 'refunds', header: '退票（张）', align: 'right', cell: (r) => r.refunds, className: 'tabular-nums' },
  { id: 'refundAmount', header: '退款（元）', align: 'right', cell: (r) => fenToYuan(r.refundAmount), className: 'tabular-nums', hiddenByDefault: true },
  { id: 'revenue', header: '实收（元）', sort: 'revenue', align: 'right', cell: (r) => fenToYuan(r.revenue), className: 'tabular-nums' },
];

/** The page's rows by day (all lines of the page together): load and revenue for the chart. */
function byDay(rows: readonly CustomSummaryRow[]) {
  const days = new Map<string, { seats: number; kept: number; revenue: number }>();
  for (const r of rows) {
    const d = days.get(r.day) ?? { seats: 0, kept: 0, revenue: 0 };
    d.seats += r.seats;
    d.kept += r.loadRate === null ? 0 : Math.round((r.loadRate * r.seats) / 1000);
    d.revenue += r.revenue;
    days.set(r.day, d);
  }
  return [...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, d]) => ({ day, load: d.seats ? Math.round((d.kept * 1000) / d.seats) / 10 : null, revenue: d.revenue / 100 }));
}

function LoadChart({ rows }: { rows: readonly CustomSummaryRow[] }) {
  const days = useMemo(() => byDay(rows), [rows]);
  const build = useMemo(
    () =>
      (narrow: boolean, colour: string): ChartOption => ({
        color: [colour, '#d97706'],
        textStyle: { fontFamily: CHART_STYLE.font, color: CHART_STYLE.text },
        grid: { left: 4, right: narrow ? 8 : 16, top: 28, bottom: 4, outerBoundsMode: 'same', outerBoundsContain: 'all' },
        tooltip: { trigger: 'axis', confine: true },
        legend: { top: 0, data: ['上座率（%）', '实收（元）'] },
        xAxis: { type: 'category', data: days.map((d) => d.day.slice(5)), axisLabel: { color: CHART_STYLE.axis, hideOverlap: true } },
        yAxis: [
          { type: 'value', name: '%', max: 100, axisLabel: { color: CHART_STYLE.axis } },
          { type: 'value', name: '元', axisLabel: { color: CHART_STYLE.axis } },
        ],
        series: [
          { name: '上座率（%）', type: 'line', data: days.map((d) => d.load) },
          { name: '实收（元）', type: 'line', yAxisIndex: 1, data: days.map((d) => d.revenue), lineStyle: { type: 'dashed' } },
        ],
      }),
    [days],
  );
  if (days.length < 2) return null;
  const loads = days.filter((d) => d.load !== null);
  const low = loads.length ? loads.reduce((a, b) => (b.load! < a.load! ? b : a)) : null;
  const label = `本页 ${days.length} 天的上座率与实收趋势图${low ? `；上座率最低 ${low.day} ${low.load}%` : ''}。每天的数字见上方表格。`;
  return <Chart label={label} build={build} className="mt-4 h-64" unavailable="图表无法显示，数字见上方表格。" />;
}

/**
 * 定制汇总 (CustomSummary): per line and Shanghai day of departure, classes, seats issued, sold, load
 * (seats kept ÷ issued), checked, no-shows, refunds and revenue (paid − refunded); the summary line
 * over the whole filter, the export as a download-centre task, and the page's trend below.
 */
export function CustomSummaryPage() {
  const list = useResourceList({
    endpoint: customSummaryPage,
    filters: {
      lineId: choiceFilter(
        '线路',
        // The lines that ran in the last 90 days, from the summary itself.
        optionsFrom(
          customSummaryPage,
          (page) => [...new Map(page.content.map((r) => [r.lineId, { value: String(r.lineId), label: `${r.lineNo} ${r.lineName}` }])).values()],
          () => ({ query: { page: 0, size: 1000, startDate: addDays(shanghaiDate(), -89) } }),
        ),
      ),
      startDate: textFilter('开始日期', { placeholder: '默认近30天' }),
      endDate: textFilter('结束日期', { placeholder: 'YYYY-MM-DD' }),
    },
    summary: listSummary(
      customSummaryTotal,
      '定制汇总合计',
      (t) =>
        `${t.lines} 条线路 ${t.days} 天 · 班次 ${t.classes} · 座位 ${t.seats} · 售出 ${t.sold} · 上座率 ${loadText(t.loadRate)} · 核销 ${t.checked} · 未乘车 ${t.noShows} · 退票 ${t.refunds} 张 ${fenToYuan(t.refundAmount)} 元 · 实收 ${fenToYuan(t.revenue)} 元`,
    ),
  });
  const exporter = useExportAction({ on: ['customBus', 'summary', 'export'], endpoint: customSummaryExport, filters: list.filterQuery });
  return (
    <ScreenSection title="定制汇总">
      <ResourceTable
        list={list}
        id="customSummary.page"
        label="定制线路日汇总"
        columns={columns}
        rowKey={(r) => `${r.day}-${r.lineId}`}
        emptyText="所选日期内没有班次"
        toolbar={<ExportButton action={exporter} label="导出" title="导出当前条件的定制汇总（后台生成，完成后在下载中心下载）" />}
      />
      <LoadChart rows={list.rows} />
    </ScreenSection>
  );
}
