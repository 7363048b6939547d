import type { TooltipComponentFormatterCallbackParams as TooltipParams } from 'echarts';
import { useMemo } from 'react';
import { ticketTypeLabel } from '../../../../shared/api/card';
import { fenToYuan } from '../../../../shared/domain/money';
import { CHART_STYLE, Chart, type ChartOption } from '../../../components/charts/chart';
import { textTooltip } from '../../../lib/text-node';
import { addDays, daysBetween, shanghaiToday } from './ride-range';

export interface DayPoint {
  day: string;
  rides: number;
  amount: number;
}

export interface TicketSlice {
  ticketType: number;
  rides: number;
  amount: number;
}

interface RidershipChartsProps {
  start: string;
  end: string;
  byDay: readonly DayPoint[];
  byTicketType: readonly TicketSlice[];
}

/** Fixed colours for the ticket types, told apart by their labels as well (never colour alone). */
const TICKET_COLOURS = ['#2563eb', '#d97706', '#059669'];
const { text: TEXT, axis: AXIS, font: FONT } = CHART_STYLE;

/** Every day of the range, a day without rides at 0: a gap is news, not a missing point. */
export function fillDays(start: string, end: string, byDay: readonly DayPoint[]): DayPoint[] {
  const n = Math.min(daysBetween(start, end), 400);
  const known = new Map(byDay.map((d) => [d.day, d]));
  return Array.from({ length: n }, (_, i) => {
    const day = addDays(start, i);
    return known.get(day) ?? { day, rides: 0, amount: 0 };
  });
}

const percent = (part: number, whole: number) => (whole ? `${((part / whole) * 100).toFixed(1)}%` : '0%');

/** The trend in words, for screen readers (the chart is an image to them); the table below holds every figure. */
export function trendSummary(start: string, end: string, days: readonly DayPoint[]): string {
  if (!days.length) return `每日乘车人次趋势图：${start} 至 ${end} 没有数据。`;
  const total = days.reduce((n, d) => n + d.rides, 0);
  const max = days.reduce((a, b) => (b.rides > a.rides ? b : a));
  const min = days.reduce((a, b) => (b.rides < a.rides ? b : a));
  return `每日乘车人次趋势图：${start} 至 ${end} 共 ${days.length} 天，合计 ${total} 人次，日均 ${Math.round(total / days.length)} 人次；最高 ${max.day} ${max.rides} 人次，最低 ${min.day} ${min.rides} 人次。每天的数字见下方每日客流表。`;
}

export function ticketSummary(slices: readonly TicketSlice[]): string {
  const total = slices.reduce((n, s) => n + s.rides, 0);
  if (!total) return '按票种的乘车人次：没有数据。';
  return `按票种的乘车人次：${slices.map((s) => `${ticketTypeLabel(s.ticketType)} ${s.rides} 人次（${percent(s.rides, total)}），金额 ${fenToYuan(s.amount)} 元`).join('；')}。`;
}

function trendOption(days: readonly DayPoint[], narrow: boolean, colour: string): ChartOption {
  const today = shanghaiToday();
  return {
    color: [colour],
    textStyle: { fontFamily: FONT, color: TEXT },
    // The box holds the axis labels and the axis name too, whatever their length.
    grid: { left: 4, right: narrow ? 12 : 20, top: 12, bottom: 4, outerBoundsMode: 'same', outerBoundsContain: 'all' },
    tooltip: {
      trigger: 'axis',
      confine: true,
      formatter: textTooltip((params: TooltipParams) => {
        const p = Array.isArray(params) ? params[0] : params;
        const d = days[p?.dataIndex ?? -1];
        // Today is still under way: its low figure is not a drop.
        return d ? [`${d.day}${d.day === today ? '（今日，截至目前）' : ''}`, `乘车 ${d.rides} 人次`, `金额 ${fenToYuan(d.amount)} 元`] : [];
      }),
    },
    xAxis: {
      type: 'category',
      data: days.map((d) => d.day.slice(5)),
      boundaryGap: false,
      axisLabel: { color: AXIS, fontSize: narrow ? 11 : 12, hideOverlap: true },
      axisLine: { lineStyle: { color: '#d1d5db' } },
    },
    yAxis: {
      type: 'value',
      name: '人次',
      nameTextStyle: { color: AXIS, align: 'right' },
      axisLabel: { color: AXIS, fontSize: narrow ? 11 : 12 },
      splitLine: { lineStyle: { color: '#eef0f3' } },
    },
    series: [
      {
        type: 'line',
        name: '乘车人次',
        data: days.map((d) => d.rides),
        smooth: true,
        showSymbol: days.length <= 31,
        symbolSize: 5,
        lineStyle: { width: 2 },
        areaStyle: { opacity: 0.08 },
      },
    ],
  };
}

function ticketOption(slices: readonly TicketSlice[], narrow: boolean): ChartOption {
  const total = slices.reduce((n, s) => n + s.rides, 0);
  return {
    color: TICKET_COLOURS,
    textStyle: { fontFamily: FONT, color: TEXT },
    tooltip: { trigger: 'item', confine: true, formatter: textTooltip((p: TooltipParams) => (Array.isArray(p) ? [] : [p.name, `${Number(p.value)} 人次（${percent(Number(p.value), total)}）`])) },
    legend: { bottom: 0, icon: 'circle', itemWidth: 10, itemHeight: 10, textStyle: { color: TEXT, fontSize: 12 } },
    series: [
      {
        type: 'pie',
        name: '票种',
        radius: narrow ? ['36%', '62%'] : ['40%', '66%'],
        center: ['50%', '44%'],
        avoidLabelOverlap: true,
        label: { color: TEXT, fontSize: narrow ? 11 : 12, formatter: (p) => `${p.name}\n${percent(Number(p.value), total)}` },
        labelLine: { length: 6, length2: 6 },
        data: slices.map((s) => ({ name: ticketTypeLabel(s.ticketType), value: s.rides })),
      },
    ],
  };
}

const UNAVAILABLE = '图表无法显示，数据见下方每日客流表。';

/** 乘车统计's two charts: rides per day over the range, and the share of each ticket type. */
export function RidershipCharts({ start, end, byDay, byTicketType }: RidershipChartsProps) {
  const days = useMemo(() => fillDays(start, end, byDay), [start, end, byDay]);
  const buildTrend = useMemo(() => (narrow: boolean, colour: string) => trendOption(days, narrow, colour), [days]);
  const buildTickets = useMemo(() => (narrow: boolean) => ticketOption(byTicketType, narrow), [byTicketType]);
  return (
    <div className="grid gap-3 lg:grid-cols-3">
      <figure className="min-w-0 rounded bg-white p-3 shadow-sm sm:p-4 lg:col-span-2">
        <figcaption className="text-sm font-medium text-gray-800">每日乘车人次</figcaption>
        <Chart label={trendSummary(start, end, days)} build={buildTrend} className="h-64 sm:h-72" unavailable={UNAVAILABLE} />
      </figure>
      <figure className="min-w-0 rounded bg-white p-3 shadow-sm sm:p-4">
        <figcaption className="text-sm font-medium text-gray-800">票种构成（人次）</figcaption>
        <Chart label={ticketSummary(byTicketType)} build={buildTickets} className="h-64 sm:h-72" unavailable={UNAVAILABLE} />
      </figure>
    </div>
  );
}
