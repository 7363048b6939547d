import { useState } from 'react';
import { type Station, station } from '../../../../shared/api';
import { STATION_STATE } from '../../../../shared/api/station';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { FlowBadge } from '../../../components/resource/status-badge';
import { flowFilter, textFilter, yesNoFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, useResourceList } from '../../../components/resource/resource-list';
import { useResourceActions } from '../../../components/resource/row-actions';
import { ScreenSection } from '../../../components/screen-section';
import { useNoAreaChosen } from '../api';
import { MergeDialog } from '../components/merge-dialog';
import { StationDialog } from '../components/station-dialog';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { StationMapPanel } from '../components/station-map-panel';
import { stationActions } from '../station-actions';

const columns: ListColumn<typeof station.stationList>[] = [
  { id: 'name', header: '站点名称', sort: 'name', fixed: true, cell: (s) => <span className="font-medium text-gray-800">{s.name}</span> },
  { id: 'district', header: '区域', cell: (s) => s.districtName ?? '—' },
  { id: 'lng', header: '经度', align: 'right', cell: (s) => s.lng.toFixed(6), className: 'tabular-nums' },
  { id: 'lat', header: '纬度', align: 'right', cell: (s) => s.lat.toFixed(6), className: 'tabular-nums' },
  { id: 'state', header: '状态', cell: (s) => <FlowBadge flow={STATION_STATE} code={s.state} /> },
  { id: 'qr', header: '二维码', cell: (s) => (s.qrCode ? <code className="text-xs">{s.qrCode}</code> : <span className="text-gray-500">未生成</span>) },
  { id: 'updatedDate', header: '更新时间', sort: 'updatedDate', cell: (s) => formatDateTime(s.updatedDate), className: 'tabular-nums' },
];

type Editing = { row: Station | null } | null;

/** 站点 (ListStation): the chosen area's stations, shared by all its line versions. */
export function StationPage() {
  const list = useResourceList({
    endpoint: station.stationList,
    record: 'station',
    filters: {
      name: textFilter('站点名称', { placeholder: '如 人民广场' }),
      state: flowFilter(STATION_STATE),
      hasQr: yesNoFilter('二维码', '已生成', '未生成'),
    },
  });
  const { table, result: stations, rows } = list;
  const [editing, setEditing] = useState<Editing>(null);
  const actions = useResourceActions(stationActions, { edit: (row) => setEditing({ row }) }, { rows });
  const canAdd = useAllowed(station.stationSave.permission);
  useScreenAction(['station', 'station', 'add'], () => {
    if (canAdd) setEditing({ row: null });
  });
  const noArea = useNoAreaChosen();
  const canMerge = useAllowed(station.stationMerge.permission);
  const [merging, setMerging] = useState<readonly [number, number] | null>(null);
  const [mapOpen, setMapOpen] = useState(() => window.matchMedia?.('(min-width: 1280px)').matches ?? false);
  const [picked, setPicked] = useState<number | null>(null);
  // The palette's 合并站点 lands here with both stations chosen.
  useScreenAction(['station', 'station', 'merge'],
    (args) => {
      const keep = Number(args.get('keep'));
      const merge = Number(args.get('merge'));
      if (canMerge && keep > 0 && merge > 0 && keep !== merge) setMerging([keep, merge]);
    },
    ['keep', 'merge'],
  );
  return (
    <ScreenSection title="站点">
      <div className="flex flex-col gap-3 xl:flex-row xl:items-start">
        <div className="min-w-0 flex-1">
          <ResourceTable
            list={list}
            actions={actions}
            id="station.list"
            label="站点列表"
            columns={columns}
            rowKey={(s) => s.id}
            onCurrentRow={(s) => setPicked(s?.id ?? null)}
            cursorKey={mapOpen ? picked : undefined}
            selection={
              canMerge
                ? {
                    actions: (selected, clear) => (
                      <Button
                        className="h-8"
                        disabled={selected.length !== 2}
                        title={selected.length !== 2 ? '选择两个站点（空格或 x）' : undefined}
                        onClick={() => {
                          setMerging([selected[0]!.id, selected[1]!.id]);
                          clear();
                        }}
                      >
                        合并所选（{selected.length}/2）
                      </Button>
                    ),
                  }
                : undefined
            }
            emptyText={table.filters.name ? '暂无数据：没有名称包含该文字的站点' : '暂无数据'}
            toolbar={
              <>
                <Button className="h-8" aria-pressed={mapOpen} onClick={() => setMapOpen((v) => !v)}>
                  {mapOpen ? '隐藏地图' : '显示地图'}
                </Button>
                {canAdd && (
                  <Button variant="primary" className="h-8" onClick={() => setEditing({ row: null })} disabled={noArea} title={noArea ? '请先在顶部选择区域' : undefined}>
                    ＋ 新增
                  </Button>
                )}
                {canAdd && noArea && <span className="text-xs text-gray-600">新增站点前请先在顶部选择区域</span>}
              </>
            }
          />
        </div>
        {mapOpen && (
          <StationMapPanel
            rows={rows}
            picked={picked}
            onPick={setPicked}
            canMove={canAdd}
            onMoved={() => void stations.mutate()}
          />
        )}
      </div>
      {merging && (
        <MergeDialog
          pair={merging}
          onClose={() => setMerging(null)}
          onMerged={() => {
            setMerging(null);
            void stations.mutate();
          }}
        />
      )}
      {editing && (
        <StationDialog
          row={editing.row}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void stations.mutate();
          }}
        />
      )}
    </ScreenSection>
  );
}
