import { useMemo, useState } from 'react';
import { type Station, station } from '../../../../shared/api';
import { STATION_STATES } from '../../../../shared/api/station';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { type Column, DataTable } from '../../../components/data-table';
import type { FilterDef } from '../../../components/filter-bar';
import { ScreenSection } from '../../../components/screen-section';
import { useListScreen } from '../../../components/use-list-screen';
import { useNoAreaChosen, useStations } from '../api';
import { MergeDialog } from '../components/merge-dialog';
import { StationDialog } from '../components/station-dialog';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { StationMapPanel } from '../components/station-map-panel';

const FILTER_KEYS = ['name', 'state', 'hasQr'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

/** 站点 (ListStation): the chosen area's stations, shared by all its line versions. */
export function StationPage() {
  const screen = useListScreen<FilterKey, Station>({
    filters: FILTER_KEYS,
    schema: station.stationList.query,
    edit: { permission: station.stationSave.permission, rowName: (s) => s.name },
  });
  const { table, editing } = screen;
  const stations = useStations(table.query);
  const noArea = useNoAreaChosen();
  const canMerge = useAllowed(station.stationMerge.permission);
  const [merging, setMerging] = useState<readonly [number, number] | null>(null);
  const [mapOpen, setMapOpen] = useState(() => window.matchMedia?.('(min-width: 1280px)').matches ?? false);
  const [picked, setPicked] = useState<number | null>(null);
  const rows = useMemo(() => stations.data?.content ?? [], [stations.data]);
  // The palette's 合并站点 lands here with both stations chosen.
  useScreenAction(['station', 'station', 'merge'],
    (args) => {
      const keep = Number(args.get('keep'));
      const merge = Number(args.get('merge'));
      if (canMerge && keep > 0 && merge > 0 && keep !== merge) setMerging([keep, merge]);
    },
    ['keep', 'merge'],
  );
  const filters = useMemo<FilterDef<FilterKey>[]>(
    () => [
      { key: 'name', label: '站点名称', type: 'text', placeholder: '如 人民广场', maxLength: 40 },
      {
        key: 'state',
        label: '状态',
        type: 'select',
        options: [
          { value: '', label: '全部' },
          { value: '1', label: '启用' },
          { value: '0', label: '停用' },
        ],
      },
      {
        key: 'hasQr',
        label: '二维码',
        type: 'select',
        options: [
          { value: '', label: '全部' },
          { value: 'true', label: '已生成' },
          { value: 'false', label: '未生成' },
        ],
      },
    ],
    [],
  );
  const columns: Column<Station>[] = [
    { id: 'name', header: '站点名称', sort: 'name', fixed: true, cell: (s) => <span className="font-medium text-gray-800">{s.name}</span> },
    { id: 'district', header: '区域', cell: (s) => s.districtName ?? '—' },
    { id: 'lng', header: '经度', align: 'right', cell: (s) => s.lng.toFixed(6), className: 'tabular-nums' },
    { id: 'lat', header: '纬度', align: 'right', cell: (s) => s.lat.toFixed(6), className: 'tabular-nums' },
    {
      id: 'state',
      header: '状态',
      cell: (s) => <span className={`rounded px-1.5 py-0.5 text-xs ${s.state ? 'bg-green-50 text-green-700' : 'bg-gray-100 text-gray-600'}`}>{STATION_STATES[s.state]}</span>,
    },
    { id: 'qr', header: '二维码', cell: (s) => (s.qrCode ? <code className="text-xs">{s.qrCode}</code> : <span className="text-gray-500">未生成</span>) },
    { id: 'updatedDate', header: '更新时间', sort: 'updatedDate', cell: (s) => formatDateTime(s.updatedDate), className: 'tabular-nums' },
    ...(screen.actionsColumn ? [screen.actionsColumn] : []),
  ];
  return (
    <ScreenSection title="站点">
      <div className="flex flex-col gap-3 xl:flex-row xl:items-start">
        <div className="min-w-0 flex-1">
          <DataTable
            id="station.list"
            label="站点列表"
            columns={columns}
            rowKey={(s) => s.id}
            result={stations}
            state={table}
            filters={filters}
            {...screen.rowActivation}
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
                {screen.canAdd && (
                  <Button variant="primary" className="h-8" onClick={screen.add} disabled={noArea} title={noArea ? '请先在顶部选择区域' : undefined}>
                    ＋ 新增
                  </Button>
                )}
                {screen.canAdd && noArea && <span className="text-xs text-gray-600">新增站点前请先在顶部选择区域</span>}
              </>
            }
          />
        </div>
        {mapOpen && (
          <StationMapPanel
            rows={rows}
            picked={picked}
            onPick={setPicked}
            canMove={screen.canEdit}
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
          row={editing.mode === 'edit' ? editing.row : null}
          onClose={screen.close}
          onSaved={() => {
            screen.close();
            void stations.mutate();
          }}
        />
      )}
    </ScreenSection>
  );
}
