import { LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { type EChartsType, init, use as installParts } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { BuildChart } from './chart';

/*
 * ECharts from its parts: two chart types, three components and the SVG renderer (sharp at any
 * zoom, no canvas needed, and no larger than the canvas one). This module is reached only through
 * `Chart`'s lazy import, so no screen without a chart downloads it.
 */
installParts([LineChart, PieChart, GridComponent, TooltipComponent, LegendComponent, SVGRenderer]);

/** Below this width a chart draws its phone layout: fewer labels, the legend under the pie. */
const NARROW = 480;

/** The theme colour the user picked (settings panel), as the layout publishes it. */
function themeColour(el: HTMLElement): string {
  const v = getComputedStyle(el).getPropertyValue('--theme-strong').trim();
  return /^#[0-9a-f]{6}$/i.test(v) ? v : '#1668dc';
}

/**
 * One ECharts instance in a box that follows its container's size. When the library cannot draw
 * here (no layout engine, a failed init) the box says so and the screen's words carry the figures.
 */
export function EChartsBox({ build, unavailable }: { build: BuildChart; unavailable: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const [failed, setFailed] = useState(false);
  const [narrow, setNarrow] = useState(false);
  const [colour, setColour] = useState('#1668dc');
  // Bumped when the instance comes to be, so the option is set on it.
  const [born, setBorn] = useState(0);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // Drawn only once the box has a size: a screen cached behind another tab is display:none, and a
    // chart started at 0 × 0 draws nothing (and says so in the console).
    const fit = () => {
      if (!el.clientWidth || !el.clientHeight) return;
      setNarrow(el.clientWidth < NARROW);
      if (chart.current) return chart.current.resize();
      try {
        chart.current = init(el, null, { renderer: 'svg', locale: 'ZH' });
      } catch {
        return setFailed(true);
      }
      setColour(themeColour(el));
      setBorn((n) => n + 1);
    };
    fit();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(fit);
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  const option = useMemo(() => build(narrow, colour), [build, narrow, colour]);
  useEffect(() => {
    if (!born) return;
    try {
      chart.current?.setOption({ animation: !window.matchMedia?.('(prefers-reduced-motion: reduce)').matches, ...option }, { notMerge: true });
    } catch {
      setFailed(true);
    }
  }, [option, born]);

  return (
    <>
      <div ref={box} className="absolute inset-0" />
      {failed && <p className="absolute inset-0 grid place-items-center p-4 text-center text-sm text-gray-600">{unavailable}</p>}
    </>
  );
}
