import { useState } from 'react';
import * as api from '../../../../shared/api/card-verify';
import { VERIFY_CATEGORY } from '../../../../shared/api/card-verify';
import { Button } from '../../../components/button';
import { FlowBadge } from '../../../components/resource/status-badge';
import { api as http } from '../../../lib/api-client';
import { useAllowed } from '../../../lib/permission';
import { useRevalidate } from '../../../lib/revalidate';
import { toast } from '../../../lib/toast';
import { useApi } from '../../../lib/use-api';

export const RADAR_SPANS = [7, 30, 60, 90] as const;

/**
 * ★ 到期雷达: the cards whose check runs out in the next days, per week, with the riders who rode in
 * the last 30 days first (they will notice a suspended discount at the gate), one batch reminder (a
 * subscribe message; each card once per due date) and the weekly workload the queue should expect.
 */
export function DueRadar({ days, onDays }: { days: number; onDays(days: number): void }) {
  const [category, setCategory] = useState('');
  const [activeOnly, setActiveOnly] = useState(false);
  const radar = useApi(api.verifyDueRadar, { query: { days, ...(category ? { category } : {}) } });
  const canRemind = useAllowed(api.CARD_VERIFY_AUDITOR);
  const revalidate = useRevalidate();
  const [busy, setBusy] = useState(false);
  const r = radar.data;
  const remind = async () => {
    setBusy(true);
    try {
      const sent = await http.call(api.verifyDueRemind, { body: { days, ...(category ? { category: category as '4' | '5' } : {}), ...(activeOnly ? { activeOnly } : {}) } });
      toast.success(`已发送验卡到期提醒 ${sent.sent} 张卡${sent.skipped ? `（${sent.skipped} 张已提醒过）` : ''}`);
      void revalidate(api.verifyDueRemind);
    } catch {
      // The refusal is in the toast.
    } finally {
      setBusy(false);
    }
  };
  const maxDue = Math.max(1, ...(r?.weeks.map((w) => w.due) ?? [1]));
  return (
    <section aria-label="到期雷达" className="rounded bg-white p-4">
      <div className="mb-3 flex flex-wrap items-center gap-3 text-sm">
        <span className="text-gray-700">未来到期的验卡（按周），近30天乘车的活跃乘客优先；提醒经订阅消息发送，每张卡每个到期日只发一次。</span>
        <label className="ml-auto flex items-center gap-1 whitespace-nowrap">
          范围
          <select aria-label="到期范围" className="h-7 rounded border border-gray-300 px-1" value={days} onChange={(e) => onDays(Number(e.target.value))}>
            {RADAR_SPANS.map((d) => (
              <option key={d} value={d}>
                近{d}天
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-1 whitespace-nowrap">
          卡类型
          <select aria-label="卡类型" className="h-7 rounded border border-gray-300 px-1" value={category} onChange={(e) => setCategory(e.target.value)}>
            {VERIFY_CATEGORY.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        {canRemind && (
          <>
            <label className="flex items-center gap-1 whitespace-nowrap">
              <input type="checkbox" checked={activeOnly} onChange={(e) => setActiveOnly(e.target.checked)} />
              仅活跃乘客
            </label>
            <Button variant="primary" disabled={busy || !r?.totalDue} onClick={() => void remind()}>
              {busy ? '发送中…' : `批量提醒（${activeOnly ? (r?.activeDue ?? 0) : (r?.totalDue ?? 0)} 张）`}
            </Button>
          </>
        )}
      </div>
      {r && (
        <p role="status" aria-label="到期雷达合计" className="mb-2 text-sm text-gray-700 tabular-nums">
          {`近${r.days}天到期 ${r.totalDue} 张 · 活跃乘客 ${r.activeDue} 张 · 已提醒 ${r.reminded} 张 · 续验率 ${(r.renewalRate / 10).toFixed(1)}%（近90天）`}
        </p>
      )}
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="每周到期与审核工作量（可横向滚动）">
        <table aria-label="每周到期与审核工作量" className="w-full text-sm [&_td]:px-2 [&_th]:px-2 [&_th]:whitespace-nowrap">
          <thead>
            <tr className="border-b text-left text-gray-600">
              <th className="py-1">周（起）</th>
              <th className="text-right">到期</th>
              <th className="text-right">活跃</th>
              <th className="text-right">已提醒</th>
              <th className="text-right">预计申请</th>
              <th className="text-right">审核工时</th>
              <th className="w-1/3">
                <span className="sr-only">到期分布</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(r?.weeks ?? []).map((w) => (
              <tr key={w.weekStart} className="border-b">
                <td className="py-1 tabular-nums">{w.weekStart}</td>
                <td className="text-right tabular-nums">{w.due}</td>
                <td className="text-right tabular-nums">{w.active}</td>
                <td className="text-right tabular-nums">{w.reminded}</td>
                <td className="text-right tabular-nums">{w.forecast}</td>
                <td className="text-right tabular-nums">{w.reviewerHours} 小时</td>
                <td>
                  <div aria-hidden className="h-2 rounded bg-[var(--theme,#2563eb)]" style={{ width: `${(w.due / maxDue) * 100}%` }} />
                </td>
              </tr>
            ))}
            {!r?.weeks.length && (
              <tr>
                <td colSpan={7} className="py-4 text-center text-gray-500">
                  {radar.isLoading ? '加载中…' : '暂无到期'}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <h3 className="mb-1 mt-4 text-sm font-medium text-gray-800">到期卡片（活跃乘客优先，前200张）</h3>
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="到期卡片（可横向滚动）">
        <table aria-label="到期卡片" className="w-full text-sm [&_td]:px-2 [&_td]:whitespace-nowrap [&_th]:px-2 [&_th]:whitespace-nowrap">
          <thead>
            <tr className="border-b text-left text-gray-600">
              <th className="py-1">卡号</th>
              <th>卡类型</th>
              <th>持卡人</th>
              <th>手机号</th>
              <th>到期日</th>
              <th className="text-right">近30天乘车</th>
              <th>提醒</th>
            </tr>
          </thead>
          <tbody>
            {(r?.items ?? []).map((i) => (
              <tr key={`${i.cardNo}-${i.validUntil}`} className="border-b">
                <td className="py-1 tabular-nums">{i.cardNo}</td>
                <td>
                  <FlowBadge flow={VERIFY_CATEGORY} code={i.cardCategory} />
                </td>
                <td>{i.name}</td>
                <td className="tabular-nums">{i.phone}</td>
                <td className="tabular-nums">{i.validUntil}</td>
                <td className="text-right tabular-nums">{i.rides30d}</td>
                <td>{i.reminded ? '已提醒' : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
