import { useLocation } from 'wouter';
import { type BusLine, busLine } from '../../../../shared/api';
import { LINE_STATE, directionLabel } from '../../../../shared/api/bus-line';
import { VERSION_STATE, type VersionStatus } from '../../../../shared/api/line-version';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { pagePath } from '../../../../shared/modules';
import { Button } from '../../../components/button';
import { flowFilter, textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, useResourceList } from '../../../components/resource/resource-list';
import { useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { useNoAreaChosen } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';

const columns: ListColumn<typeof busLine.busLineList>[] = [
  { id: 'code', header: '编号', sort: 'code', fixed: true, cell: (l) => <span className="font-medium tabular-nums text-gray-900">{l.code}</span> },
  { id: 'name', header: '名称', sort: 'name', cell: (l) => l.name },
  { id: 'direction', header: '方向', cell: (l) => `${directionLabel(l.direction)}${l.isLoop ? ' · 环线' : ''}` },
  { id: 'terminals', header: '起点 — 终点', cell: (l) => l.terminals ?? <span className="text-gray-500">未设站点</span>, className: 'max-w-72 truncate' },
  { id: 'stops', header: '站数（上/下）', align: 'right', cell: (l) => `${l.upStops} / ${l.downStops}`, className: 'tabular-nums' },
  { id: 'hours', header: '运营时间', cell: (l) => (l.firstBus || l.lastBus ? `${l.firstBus ?? '—'}–${l.lastBus ?? '—'}` : '—'), className: 'tabular-nums', hiddenByDefault: true },
  { id: 'fare', header: '票价（元）', align: 'right', cell: (l) => fenToYuan(l.fare), className: 'tabular-nums', hiddenByDefault: true },
  { id: 'subLines', header: '子线路', align: 'right', cell: (l) => l.subLines, className: 'tabular-nums' },
  { id: 'state', header: '状态', cell: (l) => <FlowBadge flow={LINE_STATE} code={l.state} /> },
  { id: 'updatedDate', header: '更新时间', sort: 'updatedDate', cell: (l) => formatDateTime(l.updatedDate), className: 'tabular-nums', hiddenByDefault: true },
];

/**
 * 线路列表 (ListBusLine): the lines of the area's open version (or its online one when none is
 * open, or the version in `?versionId=`). Enter opens a line; 新增 goes to 新增线路.
 */
export function LineListPage() {
  const list = useResourceList({
    endpoint: busLine.busLineList,
    record: 'line',
    filters: { name: textFilter('线路', { placeholder: '编号或名称，如 49' }), state: flowFilter(LINE_STATE) },
    linkFilters: ['versionId'],
  });
  const [, navigate] = useLocation();
  const actions = useRowActions<BusLine>(
    [
      { id: 'open', label: '详情', primary: true, permission: busLine.busLineInfoCall.permission, open: (l) => navigate(pagePath('bus', 'bus-line', { query: { id: l.id } })) },
      { id: 'path', label: '轨迹', hotkey: 't', permission: busLine.busLineRouteList.permission, open: (l) => navigate(pagePath('bus', 'line-path', { query: { id: l.id } })) },
    ],
    (l) => l.name,
  );
  const canAdd = useAllowed(busLine.busLineSave.permission);
  const noArea = useNoAreaChosen();
  const version = list.result.data?.version ?? null;
  useScreenAction(['bus', 'list', 'add'], () => canAdd && navigate(pagePath('bus', 'add-bus-line')));
  const editable = version?.status === 0;
  return (
    <ScreenSection title="线路列表">
      {version && (
        <p className={`mb-3 rounded px-3 py-2 text-sm ${editable ? 'bg-blue-50 text-blue-800' : 'bg-gray-50 text-gray-700'}`}>
          {editable ? '正在编辑' : '正在查看'}版本「{version.name}」（{VERSION_STATE.label(version.status as VersionStatus)}）
          {!editable && '：该区域没有开放编辑的版本，线路只读'}
        </p>
      )}
      <ResourceTable
        list={list}
        actions={actions}
        id="bus.lines"
        label="线路列表"
        columns={columns}
        rowKey={(l) => l.id}
        activateHint="按 Enter 查看线路"
        emptyText={list.table.filters.name ? '暂无数据：没有编号或名称包含该文字的线路' : '暂无数据'}
        toolbar={
          canAdd && (
            <Button variant="primary" className="h-8" onClick={() => navigate(pagePath('bus', 'add-bus-line'))} disabled={noArea || !editable} title={noArea ? '请先在顶部选择区域' : !editable ? '该区域没有开放编辑的版本' : undefined}>
              ＋ 新增线路
            </Button>
          )
        }
      />
    </ScreenSection>
  );
}
