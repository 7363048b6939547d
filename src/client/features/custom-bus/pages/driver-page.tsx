import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { CUSTOM_FLEET_EDITOR } from '../../../../shared/api/custom-bus/buttons';
import { type Driver, LICENCE_CLASSES, driverExport, driverPageByBody, driverReveal, driverTotalByBody, driverUpdateStatus } from '../../../../shared/api/custom-bus/fleet';
import { DRIVER_STATUS } from '../../../../shared/api/custom-bus/states';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { choiceFilter, flowFilter, textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { callAction, useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { useAllowed } from '../../../lib/permission';
import { DriverRevealDialog } from '../components/driver-reveal-dialog';
import { ExpiryCell } from '../components/expiry-badge';
import { driverEditPath, driverPhone } from '../fleet-paths';

const columns: ListColumn<typeof driverPageByBody>[] = [
  // A staff name, in full (not a rider's).
  { id: 'name', header: '姓名', fixed: true, sort: 'name', cell: (d) => <span className="font-medium text-gray-800">{d.name}</span> },
  { id: 'phone', header: '手机号', cell: (d) => d.phone, className: 'tabular-nums' },
  { id: 'idNo', header: '身份证号（驾驶证号）', cell: (d) => d.idNo, className: 'tabular-nums' },
  { id: 'licenceClass', header: '准驾车型', cell: (d) => d.licenceClass },
  { id: 'licenceUntil', header: '驾驶证有效期', sort: 'licenceUntil', cell: (d) => <ExpiryCell until={d.licenceUntil} days={d.licenceDays} /> },
  { id: 'status', header: '状态', cell: (d) => <FlowBadge flow={DRIVER_STATUS} code={d.status} /> },
  { id: 'futureClasses', header: '未发车班次', align: 'right', cell: (d) => d.futureClasses, className: 'tabular-nums' },
  { id: 'district', header: '区域', cell: (d) => d.districtName ?? '—', hiddenByDefault: true },
  { id: 'createdDate', header: '创建时间', sort: 'createdDate', cell: (d) => formatDateTime(d.createdDate), className: 'tabular-nums', hiddenByDefault: true },
];

const move = (d: Driver, toStatus: Driver['status']) => ({ body: { id: d.id, fromStatus: d.status, toStatus, rowVersion: d.rowVersion } });
const ahead = (d: Driver) => (d.futureClasses > 0 ? `该司机还有 ${d.futureClasses} 个未发车班次，需先改派司机。` : '');

function useDriverActions(edit: (d: Driver) => void, reveal: (d: Driver) => void) {
  return useRowActions<Driver>(
    [
      { id: 'edit', label: '编辑', hotkey: 'e', primary: true, permission: CUSTOM_FLEET_EDITOR, open: edit },
      { id: 'reveal', label: '查看号码', fullLabel: '查看号码（身份证号与手机号）', hotkey: 'v', permission: driverReveal.permission, open: reveal },
      callAction({
        id: 'leave',
        label: '请假',
        hotkey: 'l',
        permission: CUSTOM_FLEET_EDITOR,
        when: (d) => DRIVER_STATUS.can(d.status, 2),
        endpoint: driverUpdateStatus,
        input: (d) => move(d, 2),
        done: (d) => `司机${d.name}已改为请假`,
        confirm: { title: '司机请假', closeOnRefusal: true, body: (d) => <p>确定将司机 {d.name} 改为「请假」吗？请假期间不能排班。{ahead(d)}</p> },
      }),
      callAction({
        id: 'duty',
        label: '恢复在岗',
        hotkey: 'a',
        permission: CUSTOM_FLEET_EDITOR,
        when: (d) => DRIVER_STATUS.can(d.status, 1),
        endpoint: driverUpdateStatus,
        input: (d) => move(d, 1),
        done: (d) => `司机${d.name}已恢复在岗`,
      }),
      callAction({
        id: 'disable',
        label: '停用',
        hotkey: 'd',
        danger: true,
        permission: CUSTOM_FLEET_EDITOR,
        when: (d) => DRIVER_STATUS.can(d.status, 0),
        endpoint: driverUpdateStatus,
        input: (d) => move(d, 0),
        done: (d) => `司机${d.name}已停用`,
        confirm: { title: '停用司机', closeOnRefusal: true, body: (d) => <p>确定停用司机 {d.name} 吗？停用后不能排班，可再恢复在岗。{ahead(d)}</p> },
      }),
    ],
    (d) => `司机 ${d.name}`,
  );
}

/**
 * 司机管理 (ListDriver): the area's drivers, phone and citizen id masked (a phone or id typed as a
 * filter is held in memory and sent in the body), the 驾驶证 warnings and the 30天内到期 filter; 查看号码
 * asks a reason; 导出 is a task of the download centre, masked.
 */
export function DriverPage() {
  const [, navigate] = useLocation();
  const canEdit = useAllowed(CUSTOM_FLEET_EDITOR);
  const list = useResourceList({
    endpoint: driverPageByBody,
    record: 'custom-driver',
    filters: {
      name: textFilter('姓名'),
      phone: textFilter('手机号', { placeholder: '完整11位手机号' }),
      idNo: textFilter('身份证号', { placeholder: '完整18位' }),
      licenceClass: choiceFilter('准驾车型', LICENCE_CLASSES.map((c) => ({ value: c, label: c }))),
      status: flowFilter(DRIVER_STATUS),
      expiring: choiceFilter('到期提醒', [{ value: 'true', label: '驾驶证30天内到期（含已过期）' }]),
    },
    privateFilters: ['phone', 'idNo'],
    summary: listSummary(driverTotalByBody, '司机统计', (t) => `共 ${t.total} 人 · 在岗 ${t.onDuty} · 请假 ${t.leave} · 停用 ${t.disabled} · 驾驶证30天内到期 ${t.expiring} · 已过期 ${t.expired}`),
  });
  // The palette's 查司机 ‹手机号› hands the phone over in memory.
  const handed = driverPhone.useHandOff();
  const { setFilters } = list.table;
  const applied = useRef<object | null>(null);
  useEffect(() => {
    if (!handed || applied.current === handed) return;
    applied.current = handed;
    setFilters({ phone: handed.q, name: '' });
  }, [handed, setFilters]);
  // The export takes no phone or id (they would sit in the task's address).
  const { phone: _phone, idNo: _idNo, ...exportFilters } = list.filterQuery as Record<string, string>;
  const exporter = useExportAction({ on: ['customBus', 'driver', 'export'], endpoint: driverExport, filters: exportFilters });
  const [revealing, setRevealing] = useState<Driver | null>(null);
  const actions = useDriverActions((d) => navigate(driverEditPath(d.id)), setRevealing);
  return (
    <ScreenSection title="司机管理">
      <ResourceTable
        list={list}
        actions={actions}
        id="customDriver.page"
        label="司机列表"
        columns={columns}
        rowKey={(d) => d.id}
        toolbar={
          <>
            <ExportButton action={exporter} />
            {canEdit && (
              <Button className="h-8" variant="primary" onClick={() => navigate(driverEditPath())}>
                新增司机
              </Button>
            )}
          </>
        }
      />
      {revealing && <DriverRevealDialog driver={revealing} onClose={() => setRevealing(null)} />}
    </ScreenSection>
  );
}
