import { useState } from 'react';
import { useLocation } from 'wouter';
import { type SubLine, busLine } from '../../../../shared/api';
import { LINE_STATE, directionLabel } from '../../../../shared/api/bus-line';
import { formatDateTime } from '../../../../shared/domain/time';
import { pagePath } from '../../../../shared/modules';
import { Button } from '../../../components/button';
import { Modal, ModalActions } from '../../../components/modal';
import { textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, useResourceList } from '../../../components/resource/resource-list';
import { callAction, useRowActions } from '../../../components/resource/row-actions';
import { ScreenSection } from '../../../components/screen-section';
import { useDistrictNames } from '../../../lib/district-name';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { SubLineFields, useSubLineForm } from '../components/sub-line-form';

const columns: ListColumn<typeof busLine.busLineDetailList>[] = [
  { id: 'name', header: '子线路', sort: 'name', fixed: true, cell: (d) => <span className="font-medium text-gray-900">{d.name}</span> },
  { id: 'line', header: '所属线路', cell: (d) => `${d.lineName}（${d.lineCode}）` },
  { id: 'direction', header: '方向', cell: (d) => directionLabel(d.direction) },
  { id: 'stops', header: '停靠站数', align: 'right', cell: (d) => (d.allStationsOn ? `全部（${d.stops}）` : d.stops), className: 'tabular-nums' },
  { id: 'state', header: '状态', cell: (d) => LINE_STATE.label(d.state ? 1 : 0) },
  { id: 'updatedDate', header: '更新时间', sort: 'updatedDate', cell: (d) => formatDateTime(d.updatedDate), className: 'tabular-nums', hiddenByDefault: true },
];

/**
 * The row actions of 子线路列表. Editing and deleting depend on the version the list shows (only an
 * open one is edited), which the rows do not carry: the page's closures, not a feature-level resource.
 */
function useSubLineActions(editable: boolean, edit: (d: SubLine) => void) {
  const [, navigate] = useLocation();
  const districtNames = useDistrictNames();
  const district = (d: SubLine) => districtNames(d.districtId) ?? '本区域';
  return useRowActions<SubLine>(
    [
      { id: 'stations', label: '站点', primary: true, permission: busLine.busLineDetailInfo.permission, open: (d) => navigate(pagePath('bus', 'sub-line-station', { query: { id: d.id } })) },
      { id: 'edit', label: '编辑', hotkey: 'e', permission: busLine.busLineDetailSave.permission, when: () => editable, open: edit },
      callAction({
        id: 'delete',
        label: '删除',
        hotkey: 'd',
        danger: true,
        permission: busLine.busLineDetailDelete.permission,
        when: () => editable,
        endpoint: busLine.busLineDetailDelete,
        input: (d) => ({ body: { id: d.id } }),
        done: (d) => `已删除子线路「${d.name}」（${district(d)} · ${d.lineName}）`,
        confirm: {
          title: (d) => `删除子线路「${d.name}」（${district(d)}）`,
          irreversible: true,
          body: (d) => (
            <>
              确定删除 <b>{district(d)}</b> 线路「{d.lineName}」的子线路 <b>「{d.name}」</b>吗？子线路和它的停靠站点会被删除，所属线路不受影响。
            </>
          ),
        },
      }),
    ],
    (d) => d.name,
  );
}

/** 子线路列表 (ListSubLine): the sub-lines of the area's current version, or of one line (`?lineId=`). */
export function SubLineListPage() {
  const list = useResourceList({ endpoint: busLine.busLineDetailList, filters: { name: textFilter('名称', { placeholder: '子线路或线路，如 49' }) }, linkFilters: ['lineId', 'versionId'] });
  const [, navigate] = useLocation();
  const canEdit = useAllowed(busLine.busLineDetailSave.permission);
  const editable = list.result.data?.version?.status === 0;
  const [editing, setEditing] = useState<SubLine | null>(null);
  const actions = useSubLineActions(editable, setEditing);
  const lineId = list.table.filters.lineId;
  const addPath = pagePath('bus', 'add-sub-line', { query: { lineId } });
  useScreenAction(['bus', 'sub-list', 'add'], () => canEdit && editable && navigate(addPath));
  return (
    <ScreenSection title="子线路列表">
      {lineId && (
        <p className="mb-3 flex items-center gap-2 text-sm text-gray-700">
          只显示一条线路的子线路
          <Button variant="text" onClick={() => list.table.setFilters({ lineId: '' })}>
            显示全部
          </Button>
        </p>
      )}
      <ResourceTable
        list={list}
        actions={actions}
        id="bus.sub-lines"
        label="子线路列表"
        columns={columns}
        rowKey={(d) => d.id}
        activateHint="按 Enter 查看停靠站点"
        toolbar={
          canEdit && (
            <Button variant="primary" className="h-8" disabled={!editable} title={!editable ? '该区域没有开放编辑的版本' : undefined} onClick={() => navigate(addPath)}>
              ＋ 新增子线路
            </Button>
          )
        }
      />
      {/* Saving refetches the list by its tags (useContractForm). */}
      {editing && <EditSubLineDialog row={editing} onClose={() => setEditing(null)} onSaved={() => setEditing(null)} />}
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
