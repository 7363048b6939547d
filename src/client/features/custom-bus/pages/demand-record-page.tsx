import { customDemandRecordExport, customDemandRecordPage, customDemandRecordTotal } from '../../../../shared/api/custom-bus/demand';
import { DEMAND_RECORD_STATUS } from '../../../../shared/api/custom-bus/states';
import { hhmm } from '../../../../shared/custom/demand-grid';
import { formatDateTime } from '../../../../shared/domain/time';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { flowFilter, textFilter, timeFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';

/** A point as the list may show it: the 500 m cell's centre, never the rider's own point. */
const cellText = (p: { lng: number; lat: number } | null) => (p ? `${p.lng.toFixed(4)}, ${p.lat.toFixed(4)}` : '—');

const columns: ListColumn<typeof customDemandRecordPage>[] = [
  { id: 'riderPhone', header: '手机号', fixed: true, cell: (r) => r.riderPhone ?? '—', className: 'tabular-nums' },
  {
    id: 'home',
    header: '家庭区域',
    cell: (r) => (
      <span>
        {r.homeName || '—'}
        <span className="block text-xs tabular-nums text-gray-500" title="500米网格中心">
          {cellText(r.home)}
        </span>
      </span>
    ),
  },
  {
    id: 'work',
    header: '单位区域',
    cell: (r) => (
      <span>
        {r.workName || '—'}
        <span className="block text-xs tabular-nums text-gray-500" title="500米网格中心">
          {cellText(r.work)}
        </span>
      </span>
    ),
  },
  { id: 'goTime', header: '出发时间', sort: 'goTime', cell: (r) => hhmm(r.goTime), className: 'tabular-nums' },
  { id: 'backTime', header: '返程时间', cell: (r) => (r.backTime === null ? '—' : hhmm(r.backTime)), className: 'tabular-nums' },
  { id: 'status', header: '状态', cell: (r) => <FlowBadge flow={DEMAND_RECORD_STATUS} code={r.status} /> },
  { id: 'demandId', header: '需求', cell: (r) => (r.demandId ? `#${r.demandId}` : '—'), className: 'tabular-nums' },
  { id: 'createdDate', header: '提交时间', sort: 'createdDate', cell: (r) => formatDateTime(r.createdDate, 'YYYY-MM-DD HH:mm'), className: 'tabular-nums' },
];

/**
 * 定制记录 (ListCustomRecord): each rider's submission, the phone masked and the home and work points
 * shown only as their 500 m cells' centres and area names (decision 83); by demand, status, area and
 * time, with its summary and its export (masked the same way).
 */
export function DemandRecordPage() {
  const list = useResourceList({
    endpoint: customDemandRecordPage,
    filters: {
      area: textFilter('区域名称', { placeholder: '家庭或单位区域' }),
      status: flowFilter(DEMAND_RECORD_STATUS),
      demandId: textFilter('需求ID'),
      startTime: timeFilter('提交时间从'),
      endTime: timeFilter('至', { endOfDay: true }),
    },
    summary: listSummary(customDemandRecordTotal, '定制记录统计', (t) => `共 ${t.total} 条 · ${t.riders} 位乘客 · 待匹配 ${t.waiting} · 已匹配 ${t.matched} · 已通知 ${t.notified}`),
  });
  const exporter = useExportAction({ on: ['customBus', 'custom-record', 'export'], endpoint: customDemandRecordExport, filters: list.filterQuery });
  return (
    <ScreenSection title="定制记录">
      <ResourceTable
        list={list}
        id="customDemand.recordPage"
        label="定制记录列表"
        columns={columns}
        rowKey={(r) => r.id}
        emptyText="暂无定制记录"
        toolbar={<ExportButton action={exporter} label="导出" title="导出当前条件的定制记录（手机号脱敏、位置为500米网格中心，后台生成，完成后在下载中心下载）" />}
      />
    </ScreenSection>
  );
}
