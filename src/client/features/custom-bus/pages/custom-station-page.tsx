import { useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import { station } from '../../../../shared/api';
import { CUSTOM_LINE_EDITOR } from '../../../../shared/api/custom-bus/buttons';
import { type CustomStation, STATION_ADDRESS_MAX, STATION_NAME_MAX, stationDelete, stationExport, stationPage, stationSave, stationTotal, stationUpdateStatus } from '../../../../shared/api/custom-bus/network';
import { STATION_STATUS } from '../../../../shared/api/custom-bus/states';
import { metresBetween } from '../../../../shared/domain/geo';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { Field } from '../../../components/field';
import { FormError, SelectField } from '../../../components/form-controls';
import { LazyMap } from '../../../components/map/lazy-map';
import { Modal, ModalActions } from '../../../components/modal';
import { RecordChangedNotice } from '../../../components/record-changed-notice';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { flowFilter, textFilter, yesNoFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { callAction, useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { StaleNote } from '../../../components/stale-note';
import { useNoAreaChosen } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { useApi } from '../../../lib/use-api';
import { useContractForm } from '../../../lib/use-contract-form';
import { lineListPath } from '../network-paths';

const columns: ListColumn<typeof stationPage>[] = [
  { id: 'name', header: '站点名称', sort: 'name', fixed: true, cell: (s) => <span className="font-medium text-gray-800">{s.name}</span> },
  { id: 'address', header: '地址', cell: (s) => s.address || '—' },
  { id: 'busStation', header: '关联公交站点', cell: (s) => s.busStationName ?? <span className="text-gray-500">未关联</span> },
  { id: 'lines', header: '使用线路', sort: 'lines', align: 'right', cell: (s) => s.lines, className: 'tabular-nums' },
  { id: 'status', header: '状态', cell: (s) => <FlowBadge flow={STATION_STATUS} code={s.status} /> },
  { id: 'lng', header: '经度', align: 'right', cell: (s) => s.lng.toFixed(6), className: 'tabular-nums', hiddenByDefault: true },
  { id: 'lat', header: '纬度', align: 'right', cell: (s) => s.lat.toFixed(6), className: 'tabular-nums', hiddenByDefault: true },
  { id: 'district', header: '区域', cell: (s) => s.districtName ?? '—', hiddenByDefault: true },
  { id: 'createdDate', header: '创建时间', sort: 'createdDate', cell: (s) => formatDateTime(s.createdDate), className: 'tabular-nums', hiddenByDefault: true },
];

/** The row actions of 定制站点: 编辑, 启用/停用 (taken back with 撤销), 删除 an unused one, 线路 through it. */
function useStationActions(edit: (s: CustomStation) => void, lines: (s: CustomStation) => void) {
  return useRowActions<CustomStation>(
    [
      { id: 'edit', label: '编辑', hotkey: 'e', primary: true, permission: CUSTOM_LINE_EDITOR, open: edit },
      callAction({
        id: 'status',
        label: (s) => (s.status === 1 ? '停用' : '启用'),
        hotkey: 's',
        permission: CUSTOM_LINE_EDITOR,
        endpoint: stationUpdateStatus,
        input: (s) => ({ body: { id: s.id, fromStatus: s.status, toStatus: s.status === 1 ? (0 as const) : (1 as const), rowVersion: s.rowVersion } }),
        done: (s) => `已${s.status === 1 ? '停用' : '启用'}站点「${s.name}」`,
        undo: { input: (s, moved) => ({ body: { id: s.id, fromStatus: moved.status, toStatus: s.status, rowVersion: moved.rowVersion } }), done: (s) => `已撤销：站点「${s.name}」恢复${STATION_STATUS.label(s.status)}` },
      }),
      { id: 'lines', label: '线路', hotkey: 'l', permission: stationPage.permission, when: (s) => s.lines > 0, open: lines },
      callAction({
        id: 'delete',
        label: '删除',
        hotkey: 'd',
        danger: true,
        permission: CUSTOM_LINE_EDITOR,
        when: (s) => s.lines === 0,
        endpoint: stationDelete,
        input: (s) => ({ query: { id: s.id } }),
        done: (s) => `已删除站点「${s.name}」`,
        confirm: { title: '删除定制站点', irreversible: true, body: (s) => <p>确定删除定制站点「{s.name}」吗？删除后不能恢复。</p> },
      }),
    ],
    (s) => s.name,
  );
}

type Editing = { row: CustomStation | null } | null;

/** 定制站点 (ListCustomStation): the area's stations of 定制公交, on a map beside the list when wide. */
export function CustomStationPage() {
  const [, navigate] = useLocation();
  const list = useResourceList({
    endpoint: stationPage,
    record: 'customStation',
    filters: { name: textFilter('站点名称', { placeholder: '名称或地址' }), status: flowFilter(STATION_STATUS), linked: yesNoFilter('关联公交站点', '已关联', '未关联') },
    summary: listSummary(stationTotal, '定制站点统计', (t) => `共 ${t.total} 个站点 · 启用 ${t.enabled} · 停用 ${t.disabled} · 关联公交站点 ${t.linked} · 有线路使用 ${t.used}`),
  });
  const { rows, result } = list;
  const exporter = useExportAction({ on: ['customBus', 'custom-station', 'export'], endpoint: stationExport, filters: list.filterQuery });
  const [editing, setEditing] = useState<Editing>(null);
  const actions = useStationActions(
    (row) => setEditing({ row }),
    (s) => navigate(lineListPath({ stationId: s.id })),
  );
  const canAdd = useAllowed(CUSTOM_LINE_EDITOR);
  const noArea = useNoAreaChosen();
  useScreenAction(['customBus', 'custom-station', 'add'], () => {
    if (canAdd) setEditing({ row: null });
  });
  const [mapOpen, setMapOpen] = useState(() => window.matchMedia?.('(min-width: 1280px)').matches ?? false);
  const [picked, setPicked] = useState<number | null>(null);
  const points = useMemo(() => rows.map((s) => ({ id: s.id, name: s.name, lng: s.lng, lat: s.lat, muted: s.status !== 1 })), [rows]);
  return (
    <ScreenSection title="定制站点">
      <div className="flex flex-col gap-3 xl:flex-row xl:items-start">
        <div className="min-w-0 flex-1">
          <ResourceTable
            list={list}
            actions={actions}
            id="customStation.page"
            label="定制站点列表"
            columns={columns}
            rowKey={(s) => s.id}
            onCurrentRow={(s) => setPicked(s?.id ?? null)}
            cursorKey={mapOpen ? picked : undefined}
            toolbar={
              <>
                <Button className="h-8" aria-pressed={mapOpen} onClick={() => setMapOpen((v) => !v)}>
                  {mapOpen ? '隐藏地图' : '显示地图'}
                </Button>
                <ExportButton action={exporter} />
                {canAdd && (
                  <Button variant="primary" className="h-8" onClick={() => setEditing({ row: null })} disabled={noArea} title={noArea ? '请先在顶部选择区域' : undefined}>
                    新增定制站点
                  </Button>
                )}
              </>
            }
          />
        </div>
        {mapOpen && (
          <div className="xl:sticky xl:top-2 xl:w-[40%]">
            <LazyMap label="本页定制站点" className="h-[50vh] xl:h-[70vh]" points={points} selectedId={picked} onSelect={setPicked} />
          </div>
        )}
      </div>
      {editing && (
        <StationDialog
          row={editing.row}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void result.mutate();
          }}
        />
      )}
    </ScreenSection>
  );
}

const valuesOf = (s: CustomStation) => ({ name: s.name, address: s.address, lng: String(s.lng), lat: String(s.lat), busStationId: s.busStationId ? String(s.busStationId) : '' });
const parseNumber = (v: string) => (v.trim() === '' ? Number.NaN : Number(v.trim()));

/**
 * 新增 / 编辑定制站点: coordinates typed (or pasted as "经度, 纬度") or dragged on the small map
 * (Shift+arrows move it); 关联公交站点 offers the area's regular stops nearest to the coordinates.
 */
function StationDialog({ row, onClose, onSaved }: { row: CustomStation | null; onClose(): void; onSaved(): void }) {
  const form = useContractForm(stationSave, {
    initial: row ? valuesOf(row) : { name: '', address: '', lng: '', lat: '', busStationId: '' },
    toInput: (v) => ({ body: { ...(row ? { id: row.id } : {}), name: v.name, address: v.address, lng: parseNumber(v.lng), lat: parseNumber(v.lat), busStationId: v.busStationId ? Number(v.busStationId) : null } }),
    success: (saved) => (row ? `已保存定制站点「${saved.name}」` : `已新增定制站点「${saved.name}」`),
    onSaved,
    stale: { version: row?.rowVersion, valuesOf },
  });
  const { values, errors, set, setValues } = form;
  const stops = useApi(station.stationList, { query: { page: 0, size: 1000, state: '1' } });
  const lng = parseNumber(values.lng);
  const lat = parseNumber(values.lat);
  const placed = Number.isFinite(lng) && Number.isFinite(lat);
  const nearest = useMemo(() => {
    const all = (stops.data?.content ?? []).filter((s) => !row || s.districtId === row.districtId);
    const withDistance = all.map((s) => ({ s, m: placed ? metresBetween([lng, lat], [s.lng, s.lat]) : 0 }));
    if (placed) withDistance.sort((a, b) => a.m - b.m);
    const shown = withDistance.slice(0, 20);
    const current = values.busStationId && !shown.some((x) => String(x.s.id) === values.busStationId) ? withDistance.find((x) => String(x.s.id) === values.busStationId) : undefined;
    return [...(current ? [current] : []), ...shown];
  }, [stops.data, placed, lng, lat, row, values.busStationId]);
  const onLng = (text: string) => {
    const pair = /^\s*(\d+(?:\.\d+)?)\s*[,，\s]\s*(\d+(?:\.\d+)?)\s*$/.exec(text);
    if (pair?.[1] && pair[2]) setValues((v) => ({ ...v, lng: pair[1]!, lat: pair[2]! }));
    else set('lng', text);
  };
  const points = useMemo(() => (placed ? [{ id: row?.id ?? 0, name: values.name || '新站点', lng, lat }] : []), [placed, lng, lat, values.name, row]);
  return (
    <Modal
      open
      title={row ? `编辑定制站点 · ${row.name}` : '新增定制站点'}
      onClose={onClose}
      dirty={form.dirty}
      width="max-w-2xl"
      onSubmit={() => void form.submit()}
      footer={<ModalActions onCancel={onClose} busy={form.busy} />}
    >
      <RecordChangedNotice kind="customStation" id={row?.id} />
      <FormError>{errors['']}</FormError>
      <Field label="站点名称" required autoFocus maxLength={STATION_NAME_MAX} value={values.name} onChange={(e) => set('name', e.target.value)} error={errors.name} note={<StaleNote form={form} field="name" />} hint={`最多${STATION_NAME_MAX}字，同一区域内不重复`} />
      <Field label="地址" maxLength={STATION_ADDRESS_MAX} value={values.address} onChange={(e) => set('address', e.target.value)} error={errors.address} note={<StaleNote form={form} field="address" />} />
      <Field label="经度" required inputMode="decimal" value={values.lng} onChange={(e) => onLng(e.target.value)} error={errors.lng} note={<StaleNote form={form} field="lng" />} hint="GCJ-02，如 121.473700；可粘贴“经度, 纬度”" />
      <Field label="纬度" required inputMode="decimal" value={values.lat} onChange={(e) => set('lat', e.target.value)} error={errors.lat} note={<StaleNote form={form} field="lat" />} hint="如 31.230400" />
      <SelectField
        label="关联公交站点"
        options={[{ value: '', label: '不关联' }, ...nearest.map(({ s, m }) => ({ value: String(s.id), label: placed ? `${s.name}（${Math.round(m)} 米）` : s.name }))]}
        value={values.busStationId}
        onChange={(e) => set('busStationId', e.target.value)}
        error={errors.busStationId}
        hint="与常规公交共用站台时关联；按离坐标由近到远列出本区域的站点"
      />
      {placed && (
        <LazyMap
          label="站点位置"
          className="h-56"
          points={points}
          selectedId={row?.id ?? 0}
          onMovePoint={(_id, x, y) => setValues((v) => ({ ...v, lng: x.toFixed(6), lat: y.toFixed(6) }))}
        />
      )}
    </Modal>
  );
}
