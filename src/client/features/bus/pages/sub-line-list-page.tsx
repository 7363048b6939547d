import { useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import { type SubLine, busLine } from '../../../../shared/api';
import { LINE_STATE, directionLabel } from '../../../../shared/api/bus-line';
import { formatDateTime } from '../../../../shared/domain/time';
import { pagePath } from '../../../../shared/modules';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { type Column, DataTable } from '../../../components/data-table';
import type { FilterDef } from '../../../components/filter-bar';
import { Modal, ModalActions } from '../../../components/modal';
import { ScreenSection } from '../../../components/screen-section';
import { useTableState } from '../../../components/table-state';
import { toast } from '../../../lib/toast';
import { api } from '../../../lib/api-client';
import { useDistrictName } from '../../../lib/district-name';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { useSubLines } from '../api';
import { SubLineFields, useSubLineForm } from '../components/sub-line-form';

const FILTER_KEYS = ['name', 'lineId', 'versionId'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

/** 子线路列表 (ListSubLine): the sub-lines of the area's current version, or of one line (`?lineId=`). */
export function SubLineListPage() {
  const table = useTableState<FilterKey>({ filters: FILTER_KEYS, schema: busLine.busLineDetailList.query });
  const subLines = useSubLines(table.query);
  const [, navigate] = useLocation();
  const canEdit = useAllowed(busLine.busLineDetailSave.permission);
  const canDelete = useAllowed(busLine.busLineDetailDelete.permission);
  const editable = subLines.data?.version?.status === 0;
  const [editing, setEditing] = useState<SubLine | null>(null);
  const [deleting, setDeleting] = useState<SubLine | null>(null);
  const [busy, setBusy] = useState(false);
  const deletingDistrict = useDistrictName(deleting?.districtId) ?? '本区域';
  const lineId = table.filters.lineId;
  const addPath = pagePath('bus', 'add-sub-line', { query: { lineId } });
  useScreenAction(['bus', 'sub-list', 'add'], () => canEdit && editable && navigate(addPath));
  const filters = useMemo<FilterDef<FilterKey>[]>(() => [{ key: 'name', label: '名称', type: 'text', placeholder: '子线路或线路，如 49', maxLength: 40 }], []);
  const stations = (d: SubLine) => navigate(pagePath('bus', 'sub-line-station', { query: { id: d.id } }));
  const remove = async (d: SubLine) => {
    setBusy(true);
    try {
      await api.call(busLine.busLineDetailDelete, { body: { id: d.id } });
      toast.success(`已删除子线路「${d.name}」（${deletingDistrict} · ${d.lineName}）`);
      setDeleting(null);
      await subLines.mutate();
    } catch {
      // In the toast.
    } finally {
      setBusy(false);
    }
  };
  const columns: Column<SubLine>[] = [
    { id: 'name', header: '子线路', sort: 'name', fixed: true, cell: (d) => <span className="font-medium text-gray-900">{d.name}</span> },
    { id: 'line', header: '所属线路', cell: (d) => `${d.lineName}（${d.lineCode}）` },
    { id: 'direction', header: '方向', cell: (d) => directionLabel(d.direction) },
    { id: 'stops', header: '停靠站数', align: 'right', cell: (d) => (d.allStationsOn ? `全部（${d.stops}）` : d.stops), className: 'tabular-nums' },
    { id: 'state', header: '状态', cell: (d) => LINE_STATE.label(d.state ? 1 : 0) },
    { id: 'updatedDate', header: '更新时间', sort: 'updatedDate', cell: (d) => formatDateTime(d.updatedDate), className: 'tabular-nums', hiddenByDefault: true },
    {
      id: 'actions',
      header: '操作',
      fixed: true,
      cell: (d) => (
        <span className="flex gap-1">
          <Button variant="text" onClick={() => stations(d)} aria-label={`站点 ${d.name}`}>
            站点
          </Button>
          {canEdit && editable && (
            <Button variant="text" onClick={() => setEditing(d)} aria-label={`编辑 ${d.name}`}>
              编辑
            </Button>
          )}
          {canDelete && editable && (
            <Button variant="text" className="!text-red-700" onClick={() => setDeleting(d)} aria-label={`删除 ${d.name}`}>
              删除
            </Button>
          )}
        </span>
      ),
    },
  ];
  return (
    <ScreenSection title="子线路列表">
      {lineId && (
        <p className="mb-3 flex items-center gap-2 text-sm text-gray-700">
          只显示一条线路的子线路
          <Button variant="text" onClick={() => table.setFilters({ lineId: '' })}>
            显示全部
          </Button>
        </p>
      )}
      <DataTable
        id="bus.sub-lines"
        label="子线路列表"
        columns={columns}
        rowKey={(d) => d.id}
        result={subLines}
        state={table}
        filters={filters}
        onRowActivate={stations}
        activateHint="按 Enter 查看停靠站点"
        toolbar={
          canEdit && (
            <Button variant="primary" className="h-8" disabled={!editable} title={!editable ? '该区域没有开放编辑的版本' : undefined} onClick={() => navigate(addPath)}>
              ＋ 新增子线路
            </Button>
          )
        }
      />
      {editing && <EditSubLineDialog row={editing} onClose={() => setEditing(null)} onSaved={() => (setEditing(null), void subLines.mutate())} />}
      <ConfirmDialog open={!!deleting} irreversible danger title={`删除子线路「${deleting?.name ?? ''}」（${deletingDistrict}）`} confirmLabel="删除" busy={busy} onConfirm={() => deleting && void remove(deleting)} onClose={() => setDeleting(null)}>
        {deleting && (
          <>
            确定删除 <b>{deletingDistrict}</b> 线路「{deleting.lineName}」的子线路 <b>「{deleting.name}」</b>吗？子线路和它的停靠站点会被删除，所属线路不受影响。
          </>
        )}
      </ConfirmDialog>
    </ScreenSection>
  );
}

function EditSubLineDialog({ row, onClose, onSaved }: { row: SubLine; onClose(): void; onSaved(): void }) {
  const form = useSubLineForm(row, row.lineId, onSaved);
  return (
    <Modal open title={`编辑子线路 · ${row.name}`} onClose={onClose} dirty={form.dirty} onSubmit={() => void form.submit()} footer={<ModalActions onCancel={onClose} busy={form.busy} />}>
      <SubLineFields form={form} lineDirection={null} />
    </Modal>
  );
}
