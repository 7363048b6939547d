import type { LineSeriesOption, PieSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { Suspense, lazy } from 'react';

/** What a chart can be given: the parts `echarts-box.tsx` installs (a new chart type goes in both). */
export type ChartOption = ComposeOption<LineSeriesOption | PieSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption>;

/** Builds a chart's option for the box's width (narrow: its phone layout) and the theme colour the user picked. */
export type BuildChart = (narrow: boolean, colour: string) => ChartOption;

/** The console's chart text: its font, body and axis colours. */
export const CHART_STYLE = {
  font: 'system-ui, -apple-system, "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif',
  text: '#374151',
  axis: '#6b7280',
} as const;

// The chart library is the heaviest thing on a screen that draws one: it arrives on first use, and
// the screen's figures (its summary, its table) show while it loads.
const EChartsBox = lazy(() => import('./echarts-box').then((m) => ({ default: m.EChartsBox })));

interface ChartProps {
  /** The chart in words: screen readers read this, not the drawing (the box is an image named by it). */
  label: string;
  /** Memoise it (useMemo): a new function redraws the chart. */
  build: BuildChart;
  /** The box's size, e.g. `h-64 sm:h-72`: the chart fills it and follows its size. */
  className: string;
  /** Said in the box when the library cannot draw here: where the figures are instead. */
  unavailable: string;
}

/** One ECharts chart, the library loaded the first time a screen shows one. */
export function Chart({ label, build, className, unavailable }: ChartProps) {
  return (
    <div role="img" aria-label={label} className={`relative ${className}`}>
      <Suspense fallback={<p className="absolute inset-0 grid place-items-center text-sm text-gray-600">图表加载中…</p>}>
        <EChartsBox build={build} unavailable={unavailable} />
      </Suspense>
    </div>
  );
}
