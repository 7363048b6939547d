import { useEffect, useMemo, useState } from 'react';
import type { z } from 'zod';
import { activityEffect, activityEffectExport, activitySimulate } from '../../../../shared/api/activity';
import { fenToYuan } from '../../../../shared/domain/money';
import { type ChartOption, CHART_STYLE, Chart } from '../../../components/charts/chart';
import { Modal } from '../../../components/modal';
import { DetailList } from '../../../components/resource/detail-list';
import { Button } from '../../../components/button';
import { startExportTask } from '../../../components/resource/export-action';
import { api } from '../../../lib/api-client';
import { useApi } from '../../../lib/use-api';

type SimulateBody = z.input<typeof activitySimulate.body>;
type SimulateResult = z.output<typeof activitySimulate.response>;

const UNAVAILABLE = '图表无法显示，每天的数字见下方表格。';

/** Days as a line chart: one or two series of yuan per day, and an optional flat line (the budget). */
function DayChart({ label, days, series, flat }: { label: string; days: readonly string[]; series: { name: string; values: readonly number[] }[]; flat?: { name: string; value: number } }) {
  const build = useMemo(
    () =>
      (narrow: boolean, colour: string): ChartOption => ({
        color: [colour, '#d97706', '#dc2626'],
        textStyle: { fontFamily: CHART_STYLE.font, color: CHART_STYLE.text },
        grid: { left: 4, right: narrow ? 8 : 16, top: 28, bottom: 4, outerBoundsMode: 'same', outerBoundsContain: 'all' },
        tooltip: { trigger: 'axis', confine: true },
        legend: { top: 0, data: [...series.map((s) => s.name), ...(flat ? [flat.name] : [])] },
        xAxis: { type: 'category', data: days.map((d) => d.slice(5)), axisLabel: { color: CHART_STYLE.axis, hideOverlap: true } },
        yAxis: { type: 'value', name: '元', axisLabel: { color: CHART_STYLE.axis } },
        series: [
          ...series.map((s) => ({ name: s.name, type: 'line' as const, data: s.values.map((x) => x / 100) })),
          ...(flat ? [{ name: flat.name, type: 'line' as const, symbol: 'none', lineStyle: { type: 'dashed' as const }, data: days.map(() => flat.value / 100) }] : []),
        ],
      }),
    [days, series, flat],
  );
  return <Chart label={label} build={build} className="mb-4 h-56" unavailable={UNAVAILABLE} />;
}

/**
 * ★ 活动预演's result: the draft over the last 30 days of real rides — riders reached, rides, cost per
 * day (chart and table), the day the budget runs out, and where a running activity meets it, who
 * takes the rides. Read by a POST that only reads (the draft is a body).
 */
export function SimulateDialog({ title, body, onClose }: { title: string; body: SimulateBody; onClose(): void }) {
  const [result, setResult] = useState<SimulateResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.call(activitySimulate, { body: body as z.output<typeof activitySimulate.body> }, { silent: true }).then(
      (r) => live && setResult(r),
      (e: unknown) => live && setError(e instanceof Error ? e.message : '预演失败，请重试'),
    );
    return () => {
      live = false;
    };
  }, [body]);
  return (
    <Modal open title={title} width="max-w-3xl" onClose={onClose}>
      {!result && !error && <p role="status">正在用近30天的真实乘车记录预演…</p>}
      {error && (
        <p role="alert" className="rounded bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      )}
      {result && <SimulateResultView r={result} />}
    </Modal>
  );
}

function SimulateResultView({ r }: { r: SimulateResult }) {
  const days = useMemo(() => r.days.map((d) => d.day), [r]);
  const series = useMemo(() => [{ name: '每日成本', values: r.days.map((d) => d.costFen) }, { name: '累计成本', values: r.days.map((d) => d.cumulativeFen) }], [r]);
  const flat = useMemo(() => ({ name: '预算', value: r.budgetFen }), [r]);
  const lost = r.overlaps.reduce((n, o) => n + o.otherWins, 0);
  const runsOut = r.exhaustDate
    ? `预计 ${r.exhaustDate} 预算用完（约 ${r.budgetDays} 天）`
    : r.budgetDays
      ? `预算可用约 ${r.budgetDays} 天，活动结束前用不完`
      : lost
        ? `近30天没有产生优惠：命中的 ${lost} 笔乘车都由优先级更高的进行中活动享受`
        : '近30天没有产生优惠';
  return (
    <div>
      <p className="mb-3 text-sm text-gray-700">
        以 {r.from} 至 {r.to} 的真实乘车记录预演（当前区域，按现有优惠限制与进行中的活动计算）。
      </p>
      <div className="mb-4 rounded border border-gray-200 bg-gray-50 px-3 py-2">
        <DetailList
          layout="summary"
          items={[
            { term: '覆盖乘客', value: <span className="tabular-nums">{r.riders} 人</span> },
            { term: '优惠笔数', value: <span className="tabular-nums">{r.rides} 笔</span> },
            { term: '30天成本', value: <span className="tabular-nums">{fenToYuan(r.costFen)} 元</span> },
            { term: '预算', value: <span className="tabular-nums">{fenToYuan(r.budgetFen)} 元</span> },
          ]}
        />
        <p className={`mt-2 text-sm ${r.exhaustDate || r.exhaustedOnDay ? 'font-medium text-red-700' : 'text-gray-700'}`}>
          {runsOut}
          {r.exhaustedOnDay ? `；按近30天的量，第 ${r.exhaustedOnDay} 天即超出预算` : ''}
        </p>
      </div>
      <DayChart label={`近30天每日优惠成本与累计成本图，预算 ${fenToYuan(r.budgetFen)} 元；${runsOut}。每天的数字见下方表格。`} days={days} series={series} flat={flat} />
      {r.overlaps.length > 0 && (
        <table className="mb-4 w-full text-sm" aria-label="与进行中活动的重叠">
          <caption className="mb-1 text-left font-medium text-gray-800">与进行中活动的重叠</caption>
          <thead>
            <tr className="text-left text-gray-600">
              <th className="py-1">活动</th>
              <th>优先级</th>
              <th className="text-right">重叠笔数</th>
              <th className="text-right">本活动胜出</th>
              <th className="text-right">对方胜出</th>
              <th className="text-right">叠加</th>
            </tr>
          </thead>
          <tbody>
            {r.overlaps.map((o) => (
              <tr key={o.activityId} className="border-t border-gray-100">
                <td className="py-1">{o.name}</td>
                <td className="tabular-nums">{o.priority}</td>
                <td className="text-right tabular-nums">{o.rides}</td>
                <td className="text-right tabular-nums">{o.draftWins}</td>
                <td className="text-right tabular-nums">{o.otherWins}</td>
                <td className="text-right tabular-nums">{o.stacked}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <DayTable label="预演每日成本" rows={r.days.map((d) => ({ day: d.day, riders: d.riders, rides: d.rides, fen: d.costFen }))} money="成本（元）" />
    </div>
  );
}

function DayTable({ label, rows, money }: { label: string; rows: { day: string; riders: number; rides: number; fen: number }[]; money: string }) {
  return (
    // A scrolling box the keyboard reaches (Tab, then the arrows), named as its table.
    <div className="max-h-64 overflow-auto focus-visible:outline-2 focus-visible:outline-[var(--theme)]" tabIndex={0} role="region" aria-label={label}>
      <table className="w-full text-sm" aria-label={label}>
        <thead className="sticky top-0 bg-white">
          <tr className="text-left text-gray-600">
            <th className="py-1">日期</th>
            <th className="text-right">乘客（卡）</th>
            <th className="text-right">优惠笔数</th>
            <th className="text-right">{money}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((d) => (
            <tr key={d.day} className="border-t border-gray-100">
              <td className="py-1 tabular-nums">{d.day}</td>
              <td className="text-right tabular-nums">{d.riders}</td>
              <td className="text-right tabular-nums">{d.rides}</td>
              <td className="text-right tabular-nums">{fenToYuan(d.fen)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** 活动效果: per day of the last N days, the cards reached, rides and discount given; its export. */
export function EffectDialog({ id, days: initialDays, onClose }: { id: number; days: number; onClose(): void }) {
  const [days, setDays] = useState(initialDays);
  const res = useApi(activityEffect, { query: { id, days } });
  const [exporting, setExporting] = useState(false);
  // A task of 下载中心 for these days (its toast says so); one at a time.
  const exportDays = () => {
    if (exporting) return;
    setExporting(true);
    startExportTask(activityEffectExport, { id, days })
      .catch(() => undefined)
      .finally(() => setExporting(false));
  };
  const r = res.data;
  const dayList = useMemo(() => (r ? r.days.map((d) => d.day) : []), [r]);
  const series = useMemo(() => (r ? [{ name: '每日优惠', values: r.days.map((d) => d.discountFen) }] : []), [r]);
  return (
    <Modal open title={`活动效果${r ? ` · ${r.activity.name}` : ''}`} width="max-w-3xl" onClose={onClose}>
      <div className="mb-3 flex flex-wrap items-center gap-2 text-sm">
        <span className="text-gray-700">时间范围</span>
        {[7, 14, 30, 60, 90].map((n) => (
          <button key={n} type="button" aria-pressed={days === n} onClick={() => setDays(n)} className={`rounded border px-2 py-0.5 ${days === n ? 'border-[var(--theme)] text-[var(--theme-strong)]' : 'border-gray-300 text-gray-700'}`}>
            近{n}天
          </button>
        ))}
        <span className="flex-1" />
        <Button className="h-8" disabled={exporting} onClick={exportDays}>
          导出 Excel
        </Button>
      </div>
      {!r && !res.error && <p role="status">加载中…</p>}
      {res.error && (
        <p role="alert" className="text-sm text-red-700">
          {res.error instanceof Error ? res.error.message : '加载失败'}
        </p>
      )}
      {r && (
        <>
          <div className="mb-4 rounded border border-gray-200 bg-gray-50 px-3 py-2">
            <DetailList
              layout="summary"
              items={[
                { term: `近${days}天乘客`, value: <span className="tabular-nums">{r.riders} 人</span> },
                { term: '优惠笔数', value: <span className="tabular-nums">{r.rides} 笔</span> },
                { term: '优惠金额', value: <span className="tabular-nums">{fenToYuan(r.discountFen)} 元</span> },
                { term: '预算已用', value: <span className="tabular-nums">{fenToYuan(r.activity.usedFen)} / {fenToYuan(r.activity.budgetFen)} 元</span> },
              ]}
            />
          </div>
          <DayChart label={`近${days}天每日优惠金额图，合计 ${fenToYuan(r.discountFen)} 元。每天的数字见下方表格。`} days={dayList} series={series} />
          <DayTable label="活动效果每日明细" rows={r.days.map((d) => ({ day: d.day, riders: d.riders, rides: d.rides, fen: d.discountFen }))} money="优惠（元）" />
        </>
      )}
    </Modal>
  );
}
