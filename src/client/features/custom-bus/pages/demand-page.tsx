import { useState } from 'react';
import { useLocation } from 'wouter';
import { CUSTOM_DEMAND_HANDLER, CUSTOM_READ } from '../../../../shared/api/custom-bus/buttons';
import { type Demand, customDemandExport, customDemandPage, customDemandTotal } from '../../../../shared/api/custom-bus/demand';
import { DEMAND_STATE } from '../../../../shared/api/custom-bus/states';
import { formatDateTime } from '../../../../shared/domain/time';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { choiceFilter, flowFilter, textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { DemandDetailDialog, HandleDemandDialog, ToLineDialog, windowText } from '../components/demand-dialogs';
import { DemandHeat } from '../components/demand-heat';
import { recordPath } from '../demand-paths';

/** Supporters against the threshold: the number and a bar, the words say whether it is reached. */
function Support({ d }: { d: Demand }) {
  const share = Math.min(100, Math.round((d.supporters * 100) / Math.max(1, d.threshold)));
  return (
    <span className="inline-flex items-center gap-2 tabular-nums" title={d.supporters >= d.threshold ? '已达开通门槛' : '未达开通门槛'}>
      {d.supporters}/{d.threshold}
      <span aria-hidden className="inline-block h-1.5 w-12 rounded bg-gray-200">
        <span className={`block h-1.5 rounded ${d.supporters >= d.threshold ? 'bg-green-600' : 'bg-amber-500'}`} style={{ width: `${share}%` }} />
      </span>
      {d.supporters >= d.threshold && <span className="text-xs text-green-700">达标</span>}
    </span>
  );
}

const columns: ListColumn<typeof customDemandPage>[] = [
  { id: 'route', header: '起点 → 终点', fixed: true, cell: (d) => <span className="font-medium text-gray-800">{`${d.fromName} → ${d.toName}`}</span> },
  { id: 'districtName', header: '区域', cell: (d) => d.districtName ?? '—', hiddenByDefault: true },
  { id: 'window', header: '去程时段', cell: (d) => windowText(d), className: 'tabular-nums' },
  { id: 'distanceM', header: '距离（公里）', sort: 'distanceM', align: 'right', cell: (d) => (d.distanceM / 1000).toFixed(1), className: 'tabular-nums' },
  { id: 'supporters', header: '报名/门槛', sort: 'supporters', cell: (d) => <Support d={d} /> },
  { id: 'state', header: '状态', cell: (d) => <FlowBadge flow={DEMAND_STATE} code={d.state} /> },
  { id: 'line', header: '开通线路', cell: (d) => (d.lineNo ? `${d.lineNo} ${d.lineName ?? ''}` : '—') },
  { id: 'reply', header: '回复', cell: (d) => d.reply || '—', hiddenByDefault: true },
  { id: 'createdDate', header: '提交时间', sort: 'createdDate', cell: (d) => formatDateTime(d.createdDate, 'YYYY-MM-DD HH:mm'), className: 'tabular-nums' },
];

/**
 * 定制列表 (ListCustom): aggregated rider demand by area, state and threshold, with its summary and
 * export; on a row v 详情 (riders and ★ how many later bought), h 处理, g 生成线路 (★ 需求成线), r 报名记录;
 * below, the heat map of the submissions with 生成线路 per cluster.
 */
export function DemandPage() {
  const [, navigate] = useLocation();
  const list = useResourceList({
    endpoint: customDemandPage,
    record: 'custom-demand',
    filters: {
      name: textFilter('区域名称', { placeholder: '起点或终点' }),
      state: flowFilter(DEMAND_STATE),
      reached: choiceFilter('开通门槛', [
        { value: '1', label: '已达标' },
        { value: '0', label: '未达标' },
      ]),
    },
    summary: listSummary(customDemandTotal, '定制需求统计', (t) => `共 ${t.total} 条需求 · 未开通 ${t.open} · 已开通 ${t.opened} · 暂不开通 ${t.declined} · 达标 ${t.reached} · 报名 ${t.supporters} 人`),
  });
  const exporter = useExportAction({ on: ['customBus', 'custom-list', 'export'], endpoint: customDemandExport, filters: list.filterQuery });
  const [viewing, setViewing] = useState<Demand | null>(null);
  const [handling, setHandling] = useState<Demand | null>(null);
  const [making, setMaking] = useState<Demand | null>(null);
  const actions = useRowActions<Demand>(
    [
      { id: 'view', label: '详情', hotkey: 'v', primary: true, permission: CUSTOM_READ, open: setViewing },
      { id: 'handle', label: '处理', hotkey: 'h', permission: CUSTOM_DEMAND_HANDLER, when: (d) => d.state !== 1, open: setHandling },
      { id: 'toLine', label: '生成线路', hotkey: 'g', permission: CUSTOM_DEMAND_HANDLER, when: (d) => d.state === 0, open: setMaking },
      { id: 'records', label: '报名记录', hotkey: 'r', permission: CUSTOM_READ, open: (d) => navigate(recordPath(d.id)) },
    ],
    (d) => `需求 ${d.fromName} → ${d.toName}`,
  );
  return (
    <ScreenSection title="定制列表">
      <ResourceTable
        list={list}
        actions={actions}
        id="customDemand.page"
        label="定制需求列表"
        columns={columns}
        rowKey={(d) => d.id}
        emptyText="暂无定制需求"
        toolbar={<ExportButton action={exporter} label="导出" title="导出当前条件的定制需求（后台生成，完成后在下载中心下载）" />}
      />
      <DemandHeat />
      {viewing && <DemandDetailDialog id={viewing.id} onClose={() => setViewing(null)} />}
      {handling && <HandleDemandDialog demand={handling} onClose={() => setHandling(null)} />}
      {making && <ToLineDialog source={{ demand: making }} onClose={() => setMaking(null)} />}
    </ScreenSection>
  );
}
