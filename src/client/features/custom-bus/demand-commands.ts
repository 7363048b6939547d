import { CUSTOM_DEMAND_HANDLER, CUSTOM_READ } from '../../../shared/api/custom-bus/buttons';
import { customDemandById, customDemandHandle, customDemandPage, customDemandToLine, customSummaryPage } from '../../../shared/api/custom-bus/demand';
import { addDays, shanghaiDate } from '../../../shared/domain/time';
import { yuanToFen } from '../../../shared/domain/money';
import type { ArgOption, Command } from '../../commands/types';
import { api } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { demandPath, summaryPath } from './demand-paths';

const GROUP = '定制公交';

/** The lines that ran in the last 90 days (from the summary itself), as palette choices. */
async function recentLines(): Promise<ArgOption[]> {
  const page = await api.call(customSummaryPage, { query: { page: 0, size: 1000, startDate: addDays(shanghaiDate(), -89) } }, { silent: true });
  const seen = new Map<number, ArgOption>();
  for (const r of page.content) if (!seen.has(r.lineId)) seen.set(r.lineId, { value: String(r.lineId), label: `${r.lineNo} ${r.lineName}`, keywords: [r.lineNo, r.lineName] });
  return [{ value: '', label: '全部线路' }, ...seen.values()];
}

/**
 * The area's demands in a state, as choices; the value carries what the next steps and the call need:
 * `id:state:rowVersion:supporters:threshold`.
 */
const demandsIn = (state: 0 | 2) => async (): Promise<ArgOption[]> => {
  const page = await api.call(customDemandPage, { query: { page: 0, size: 200, state: String(state) as '0' | '2', sort: 'supporters,desc' } }, { silent: true });
  return page.content.map((d) => ({
    value: `${d.id}:${d.state}:${d.rowVersion}:${d.supporters}:${d.threshold}`,
    label: `${d.fromName} → ${d.toName}（报名 ${d.supporters}/${d.threshold}）`,
    subtitle: d.districtName ?? undefined,
    keywords: [d.fromName, d.toName],
  }));
};
const parts = (v: string | undefined) => (v ?? '').split(':').map(Number) as [number, number, number, number, number];
const below = (v: string | undefined) => {
  const [, , , supporters, threshold] = parts(v);
  return supporters < threshold ? { supporters, threshold } : null;
};

export const demandCommands: readonly Command[] = [
  {
    // 上座率 ‹线路› ‹近N天›: the summary filtered to the line and the last N Shanghai days.
    id: 'customSummary.load',
    title: '上座率',
    group: GROUP,
    keywords: ['上座率', '定制汇总', 'shangzuolv', 'szl', 'dingzhi'],
    permission: CUSTOM_READ,
    page: summaryPath(),
    args: [
      { name: 'line', label: '选择线路', kind: 'choice', options: recentLines },
      { name: 'days', label: '近几天', kind: 'text', placeholder: '如 7、30（最多366）', validate: (v) => (/^\d{1,3}$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= 366 ? null : '请输入1–366之间的天数') },
    ],
    run: (ctx, a) => {
      const today = shanghaiDate();
      // The step validated it; anything else (a hotkey without the step) is the summary's default 30 days.
      const typed = Number((a.days ?? '').trim());
      const days = Number.isInteger(typed) && typed >= 1 && typed <= 366 ? typed : 30;
      ctx.navigate(summaryPath({ lineId: /^\d+$/.test(a.line ?? '') ? Number(a.line) : undefined, startDate: addDays(today, -(days - 1)), endDate: today }));
    },
  },
  {
    id: 'customDemand.decline',
    title: '暂不开通定制需求',
    group: GROUP,
    keywords: ['定制需求', '暂不开通', '处理', 'dingzhi', 'xuqiu'],
    permission: CUSTOM_DEMAND_HANDLER,
    page: demandPath(),
    args: [
      { name: 'demand', label: '选择未开通的需求', kind: 'choice', options: demandsIn(0) },
      { name: 'reply', label: '暂不开通的原因', kind: 'text', placeholder: '乘客可见，最多200字', validate: (v) => (!v.trim() ? '请填写暂不开通的原因' : v.trim().length > 200 ? '回复不能超过200个字符' : null) },
    ],
    run: (ctx, a) => {
      const [id, fromState, rowVersion] = parts(a.demand);
      api
        .call(customDemandHandle, { body: { id, fromState: fromState as 0, toState: 2, reply: a.reply!.trim(), rowVersion } })
        .then((d) => {
          toast.success(`定制需求「${d.fromName}→${d.toName}」已暂不开通`);
          ctx.changed(customDemandHandle);
          ctx.navigate(demandPath({ state: 2 }));
        })
        // The refusal is in the toast.
        .catch(() => undefined);
    },
  },
  {
    id: 'customDemand.reopen',
    title: '重新打开定制需求',
    group: GROUP,
    keywords: ['定制需求', '重新打开', '处理', 'dingzhi', 'xuqiu'],
    permission: CUSTOM_DEMAND_HANDLER,
    page: demandPath(),
    args: [{ name: 'demand', label: '选择暂不开通的需求', kind: 'choice', options: demandsIn(2) }],
    run: (ctx, a) => {
      const [id, fromState, rowVersion] = parts(a.demand);
      api
        .call(customDemandHandle, { body: { id, fromState: fromState as 2, toState: 0, rowVersion } })
        .then((d) => {
          toast.success(`定制需求「${d.fromName}→${d.toName}」已重新打开`);
          ctx.changed(customDemandHandle);
          ctx.navigate(demandPath({ state: 0 }));
        })
        .catch(() => undefined);
    },
  },
  {
    // ★ 需求成线 ‹需求› ‹线路编号› ‹票价› (‹开通说明› below the threshold): the draft line, its stops and first week, in one call.
    id: 'customDemand.toLine',
    title: '需求成线',
    group: GROUP,
    keywords: ['需求成线', '生成线路', '定制需求', 'xuqiuchengxian', 'xqcx'],
    permission: CUSTOM_DEMAND_HANDLER,
    page: demandPath(),
    args: [
      { name: 'demand', label: '选择未开通的需求', kind: 'choice', options: demandsIn(0) },
      { name: 'lineNo', label: '线路编号', kind: 'text', placeholder: '如 D201', validate: (v) => (/^[A-Za-z0-9-]{1,12}$/.test(v.trim()) ? null : '线路编号应为1–12位字母、数字或 -') },
      { name: 'price', label: '票价（元）', kind: 'text', placeholder: '如 8.50', validate: (v) => (yuanToFen(v.trim()) ? null : '请输入票价（元），如 8.50') },
      {
        name: 'reply',
        label: '开通说明',
        kind: 'text',
        optional: true,
        placeholder: '报名未达门槛时必填',
        validate: (v, values) => {
          const b = below(values.demand);
          return b && !v.trim() ? `报名人数未达开通门槛（${b.supporters}/${b.threshold}），请填写开通说明` : v.trim().length > 200 ? '开通说明不能超过200个字符' : null;
        },
      },
    ],
    run: (ctx, a) => {
      const [id] = parts(a.demand);
      const lineNo = a.lineNo!.trim();
      // The line is named after the demand's two ends, as the list's dialog proposes.
      api
        .call(customDemandById, { query: { id } }, { silent: true })
        .then((d) => api.call(customDemandToLine, { body: { demandId: id, lineNo, name: `${d.fromName.replace(/周边$/, '')}-${d.toName}`.slice(0, 15), price: yuanToFen(a.price!.trim())!, reply: (a.reply ?? '').trim() } }))
        .then((r) => {
          toast.success(`已生成草稿线路 ${r.lineNo}，首周 ${r.classes} 个班次（待售）`);
          ctx.changed(customDemandToLine);
          ctx.navigate(demandPath({ state: 1 }));
        })
        .catch(() => undefined);
    },
  },
];
