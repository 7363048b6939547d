import { useLocation } from 'wouter';
import { CUSTOM_FLEET_EDITOR } from '../../../../shared/api/custom-bus/buttons';
import { type Car, carExport, carPage, carTotal, carUpdateStatus } from '../../../../shared/api/custom-bus/fleet';
import { CAR_STATUS } from '../../../../shared/api/custom-bus/states';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { choiceFilter, flowFilter, textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { callAction, useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { useAllowed } from '../../../lib/permission';
import { ExpiryCell } from '../components/expiry-badge';
import { carEditPath } from '../fleet-paths';

const columns: ListColumn<typeof carPage>[] = [
  { id: 'plateNo', header: '车牌号', fixed: true, sort: 'plateNo', cell: (c) => <span className="font-medium tabular-nums text-gray-800">{c.plateNo}</span> },
  { id: 'seats', header: '座位数', sort: 'seats', align: 'right', cell: (c) => c.seats, className: 'tabular-nums' },
  { id: 'model', header: '车型', cell: (c) => c.model || '—' },
  { id: 'company', header: '所属公司', cell: (c) => c.company || '—' },
  { id: 'status', header: '状态', cell: (c) => <FlowBadge flow={CAR_STATUS} code={c.status} /> },
  { id: 'inspectionUntil', header: '年检有效期', sort: 'inspectionUntil', cell: (c) => <ExpiryCell until={c.inspectionUntil} days={c.inspectionDays} /> },
  { id: 'insuranceUntil', header: '保险有效期', sort: 'insuranceUntil', cell: (c) => <ExpiryCell until={c.insuranceUntil} days={c.insuranceDays} /> },
  { id: 'futureClasses', header: '未发车班次', align: 'right', cell: (c) => c.futureClasses, className: 'tabular-nums' },
  { id: 'district', header: '区域', cell: (c) => c.districtName ?? '—', hiddenByDefault: true },
  { id: 'createdDate', header: '创建时间', sort: 'createdDate', cell: (c) => formatDateTime(c.createdDate), className: 'tabular-nums', hiddenByDefault: true },
];

const move = (c: Car, toStatus: Car['status']) => ({ body: { id: c.id, fromStatus: c.status, toStatus, rowVersion: c.rowVersion } });
const ahead = (c: Car) => (c.futureClasses > 0 ? `该车还有 ${c.futureClasses} 个未发车班次，需先改派车辆。` : '');

/** 编辑, 维修, 恢复可用, 停用: the status flow's moves, each the same call the palette makes. */
function useCarActions(edit: (c: Car) => void) {
  return useRowActions<Car>(
    [
      { id: 'edit', label: '编辑', hotkey: 'e', primary: true, permission: CUSTOM_FLEET_EDITOR, open: edit },
      callAction({
        id: 'repair',
        label: '维修',
        hotkey: 'm',
        permission: CUSTOM_FLEET_EDITOR,
        when: (c) => CAR_STATUS.can(c.status, 2),
        endpoint: carUpdateStatus,
        input: (c) => move(c, 2),
        done: (c) => `车辆${c.plateNo}已改为维修`,
        confirm: { title: '车辆维修', closeOnRefusal: true, body: (c) => <p>确定将车辆 {c.plateNo} 改为「维修」吗？维修中的车辆不能排班。{ahead(c)}</p> },
      }),
      callAction({
        id: 'restore',
        label: '恢复可用',
        hotkey: 'a',
        permission: CUSTOM_FLEET_EDITOR,
        when: (c) => CAR_STATUS.can(c.status, 1),
        endpoint: carUpdateStatus,
        input: (c) => move(c, 1),
        done: (c) => `车辆${c.plateNo}已恢复可用`,
      }),
      callAction({
        id: 'disable',
        label: '停用',
        hotkey: 'd',
        danger: true,
        permission: CUSTOM_FLEET_EDITOR,
        when: (c) => CAR_STATUS.can(c.status, 0),
        endpoint: carUpdateStatus,
        input: (c) => move(c, 0),
        done: (c) => `车辆${c.plateNo}已停用`,
        confirm: { title: '停用车辆', closeOnRefusal: true, body: (c) => <p>确定停用车辆 {c.plateNo} 吗？停用后不能排班，可再恢复可用。{ahead(c)}</p> },
      }),
    ],
    (c) => `车辆 ${c.plateNo}`,
  );
}

/**
 * 车辆管理 (ListCar): the area's cars with their 年检 and 保险 warnings (已过期, N天后到期) and the
 * 30天内到期 filter; 新增车辆 opens the form page; 导出 is a task of the download centre.
 */
export function CarPage() {
  const [, navigate] = useLocation();
  const canEdit = useAllowed(CUSTOM_FLEET_EDITOR);
  const list = useResourceList({
    endpoint: carPage,
    record: 'custom-car',
    filters: { plateNo: textFilter('车牌号', { placeholder: '如 沪A12345 或其中几位' }), company: textFilter('所属公司'), status: flowFilter(CAR_STATUS), expiring: choiceFilter('到期提醒', [{ value: 'true', label: '30天内到期（含已过期）' }]) },
    summary: listSummary(carTotal, '车辆统计', (t) => `共 ${t.total} 辆 · 可用 ${t.available}（${t.seats} 座）· 维修 ${t.repair} · 停用 ${t.disabled} · 30天内到期 ${t.expiring} · 已过期 ${t.expired}`),
  });
  const exporter = useExportAction({ on: ['customBus', 'car', 'export'], endpoint: carExport, filters: list.filterQuery });
  const actions = useCarActions((c) => navigate(carEditPath(c.id)));
  return (
    <ScreenSection title="车辆管理">
      <ResourceTable
        list={list}
        actions={actions}
        id="customCar.page"
        label="车辆列表"
        columns={columns}
        rowKey={(c) => c.id}
        toolbar={
          <>
            <ExportButton action={exporter} />
            {canEdit && (
              <Button className="h-8" variant="primary" onClick={() => navigate(carEditPath())}>
                新增车辆
              </Button>
            )}
          </>
        }
      />
    </ScreenSection>
  );
}
