import { useState } from 'react';
import { useLocation } from 'wouter';
import { type ClassesRow, classesAssign, classesById, classesExport, classesOptions, classesPage, classesTotal, classesUpdateStatus } from '../../../../shared/api/custom-bus/classes';
import { CUSTOM_CLASSES_CANCELLER, CUSTOM_CLASSES_EDITOR, CUSTOM_DISPATCHER } from '../../../../shared/api/custom-bus/buttons';
import { customClassesCancel } from '../../../../shared/api/custom-bus/orders';
import { CLASSES_STATUS, TICKET_STATE } from '../../../../shared/api/custom-bus/states';
import { fenToYuan } from '../../../../shared/domain/money';
import { addDays, formatDateTime, shanghaiDate } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { Field } from '../../../components/field';
import { SelectField } from '../../../components/form-controls';
import { Modal } from '../../../components/modal';
import { DetailList } from '../../../components/resource/detail-list';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { type FilterField, choiceFilter, flowFilter, optionsFrom, textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { callAction, useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { api } from '../../../lib/api-client';
import { useAllowed } from '../../../lib/permission';
import { toast } from '../../../lib/toast';
import { useApi } from '../../../lib/use-api';
import { classesAddPath } from '../classes-paths';

const DIRECTION = ['上行', '下行'];
const hm = (at: string) => formatDateTime(at, 'HH:mm');

const columns: ListColumn<typeof classesPage>[] = [
  // Arrival rides with the departure: one column fewer, so the row's actions fit at 1440 px.
  {
    id: 'departAt',
    header: '发车 → 到达',
    sort: 'departAt',
    fixed: true,
    cell: (c) => (
      <span className="whitespace-nowrap tabular-nums">
        <span className="font-medium text-gray-800">{`${c.departDate} ${c.time}`}</span>
        <span className="text-gray-600">{` → ${hm(c.arriveAt)}`}</span>
      </span>
    ),
  },
  { id: 'line', header: '线路', cell: (c) => `${c.lineNo} ${c.lineName}` },
  { id: 'direction', header: '方向', cell: (c) => DIRECTION[c.direction] ?? '' },
  { id: 'seats', header: '座位 已售/锁定/余票', align: 'right', cell: (c) => `${c.publish} · ${c.sold}/${c.held}/${c.stock}`, className: 'tabular-nums' },
  { id: 'sold', header: '上座率', sort: 'sold', align: 'right', cell: (c) => (c.publish ? `${Math.round((c.sold * 100) / c.publish)}%` : '—'), className: 'tabular-nums' },
  { id: 'price', header: '票价（元）', align: 'right', cell: (c) => fenToYuan(c.price), className: 'tabular-nums' },
  { id: 'car', header: '车辆', cell: (c) => c.plateNo ?? <span className="text-orange-700">未排车</span> },
  { id: 'driver', header: '司机', cell: (c) => c.driverName ?? <span className="text-orange-700">未排司机</span> },
  { id: 'status', header: '状态', cell: (c) => <FlowBadge flow={CLASSES_STATUS} code={c.status} /> },
  { id: 'sale', header: '售票时间', cell: (c) => `${formatDateTime(c.saleOpenAt, 'MM-DD HH:mm')} 至 ${formatDateTime(c.saleCloseAt, 'MM-DD HH:mm')}`, className: 'tabular-nums', hiddenByDefault: true },
  { id: 'createdDate', header: '创建时间', sort: 'createdDate', cell: (c) => formatDateTime(c.createdDate), className: 'tabular-nums', hiddenByDefault: true },
];

const lineFilter: FilterField<typeof classesPage> = choiceFilter('线路', optionsFrom(classesOptions, (d) => d.lines.map((l) => ({ value: String(l.id), label: `${l.lineNo} ${l.name}` }))));
const carFilter: FilterField<typeof classesPage> = choiceFilter('车辆', optionsFrom(classesOptions, (d) => d.cars.map((c) => ({ value: String(c.id), label: c.plateNo }))));
const driverFilter: FilterField<typeof classesPage> = choiceFilter('司机', optionsFrom(classesOptions, (d) => d.drivers.map((x) => ({ value: String(x.id), label: x.name }))));

const move = (c: ClassesRow, toStatus: ClassesRow['status']) => ({ body: { id: c.id, fromStatus: c.status, toStatus, rowVersion: c.rowVersion } });
const named = (c: ClassesRow) => `「${c.lineName}」${c.departDate} ${c.time}`;

/** 开售 / 停售 / 恢复 (calls), 排班 and 详情 (the page's dialogs). */
function useClassesActions(assign: (c: ClassesRow) => void, detail: (c: ClassesRow) => void, cancel: (c: ClassesRow) => void) {
  return useRowActions<ClassesRow>(
    [
      { id: 'detail', label: '详情', hotkey: 'v', primary: true, permission: classesById.permission, open: detail },
      { id: 'assign', label: '排班', hotkey: 'a', permission: CUSTOM_DISPATCHER, when: (c) => c.status <= 2, open: assign },
      callAction({
        id: 'open',
        label: '开售',
        hotkey: 'o',
        permission: CUSTOM_CLASSES_EDITOR,
        when: (c) => c.status === 0,
        endpoint: classesUpdateStatus,
        input: (c) => move(c, 1),
        done: (c) => `班次${named(c)}已开售`,
        confirm: { title: '开售班次', body: (c) => <p>确定现在开售班次{named(c)}（{c.publish}座，{fenToYuan(c.price)}元）吗？开售后乘客即可购票。</p> },
      }),
      callAction({
        id: 'stop',
        label: '停售',
        hotkey: 's',
        danger: true,
        permission: CUSTOM_CLASSES_EDITOR,
        when: (c) => c.status === 1,
        endpoint: classesUpdateStatus,
        input: (c) => move(c, 2),
        done: (c) => `班次${named(c)}已停售`,
        undo: { input: (c, moved) => ({ body: { id: c.id, fromStatus: 2 as const, toStatus: 1 as const, rowVersion: moved.rowVersion } }), done: (c) => `已撤销：班次${named(c)}恢复售票` },
      }),
      callAction({
        id: 'resume',
        label: '恢复售票',
        hotkey: 'r',
        permission: CUSTOM_CLASSES_EDITOR,
        when: (c) => c.status === 2 && Date.parse(c.saleCloseAt) > Date.now(),
        endpoint: classesUpdateStatus,
        input: (c) => move(c, 1),
        done: (c) => `班次${named(c)}已恢复售票`,
      }),
      // 取消: every paid ticket refunded in full; its own dialog shows what will be refunded and asks why.
      { id: 'cancel', label: '取消班次', hotkey: 'c', danger: true, permission: CUSTOM_CLASSES_CANCELLER, when: (c) => c.status <= 2 && Date.parse(c.departAt) > Date.now(), open: cancel },
    ],
    (c) => named(c),
  );
}

/** 班次管理 (ListClasses): the area's dated classes with seats and dispatch; 开售/停售/恢复, 排班, 详情; 新增班次 opens the batch form. */
/** A whole day typed (a half-typed one is left for the guard to name). */
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

export function ClassesPage() {
  const [, navigate] = useLocation();
  const canAdd = useAllowed(CUSTOM_CLASSES_EDITOR);
  const [assigning, setAssigning] = useState<ClassesRow | null>(null);
  const [viewing, setViewing] = useState<ClassesRow | null>(null);
  const [cancelling, setCancelling] = useState<ClassesRow | null>(null);
  const list = useResourceList({
    endpoint: classesPage,
    record: 'custom-classes',
    filters: { lineId: lineFilter, dateFrom: textFilter('开始日期', { placeholder: 'YYYY-MM-DD', maxLength: 10 }), dateTo: textFilter('结束日期', { placeholder: 'YYYY-MM-DD', maxLength: 10 }), status: flowFilter(CLASSES_STATUS), carId: carFilter, driverId: driverFilter },
    // Without dates: today and the next 13 days (the dispatcher's horizon); at most 62 days.
    // One end typed: the other is 61 days from it, so the query always sends both (the server bounds it the same way).
    effective: (f) =>
      f.dateFrom && f.dateTo
        ? f
        : f.dateFrom
          ? { ...f, dateTo: DAY_RE.test(f.dateFrom) ? addDays(f.dateFrom, 61) : f.dateFrom }
          : f.dateTo
            ? { ...f, dateFrom: DAY_RE.test(f.dateTo) ? addDays(f.dateTo, -61) : f.dateTo }
            : { ...f, dateFrom: shanghaiDate(new Date()), dateTo: addDays(shanghaiDate(new Date()), 13) },
    guard: { schema: classesTotal.query, hint: () => '（日期范围最多62天）' },
    summary: listSummary(
      classesTotal,
      '班次统计',
      (t) => `共 ${t.classes} 个班次 · 售票中 ${t.onSale} · 待售 ${t.pending} · 停售 ${t.stopped} · 已发车 ${t.departed} · 已取消 ${t.cancelled} · 座位 ${t.seats} · 已售 ${t.sold} · 上座率 ${t.loadRate === null ? '—' : `${(t.loadRate / 10).toFixed(1)}%`} · 未排班 ${t.unassigned}`,
    ),
  });
  const exporter = useExportAction({ on: ['customBus', 'classes', 'export'], endpoint: classesExport, filters: list.filterQuery });
  const actions = useClassesActions(setAssigning, setViewing, setCancelling);
  return (
    <ScreenSection title="班次管理">
      <ResourceTable
        list={list}
        actions={actions}
        id="customClasses.page"
        label="班次列表"
        columns={columns}
        rowKey={(c) => c.id}
        toolbar={
          <>
            <ExportButton action={exporter} />
            {canAdd && (
              <Button className="h-8" variant="primary" onClick={() => navigate(classesAddPath())}>
                新增班次
              </Button>
            )}
          </>
        }
      />
      {assigning && <AssignDialog row={assigning} onClose={() => setAssigning(null)} />}
      {viewing && <ClassesDetailDialog id={viewing.id} onClose={() => setViewing(null)} />}
      {cancelling && <CancelClassesDialog row={cancelling} onClose={() => setCancelling(null)} />}
    </ScreenSection>
  );
}

/** 排班: a car and a driver of the class's area; the server refuses clashes and lapsed papers in its words. */
function AssignDialog({ row, onClose }: { row: ClassesRow; onClose(): void }) {
  const options = useApi(classesOptions, {});
  const [carId, setCarId] = useState(row.carId ? String(row.carId) : '');
  const [driverId, setDriverId] = useState(row.driverId ? String(row.driverId) : '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const cars = (options.data?.cars ?? []).filter((c) => c.districtId === row.districtId);
  const drivers = (options.data?.drivers ?? []).filter((d) => d.districtId === row.districtId);
  const submit = () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    api
      .call(classesAssign, { body: { id: row.id, carId: carId ? Number(carId) : null, driverId: driverId ? Number(driverId) : null, rowVersion: row.rowVersion } }, { silent: true })
      .then((c) => {
        toast.success(`已排班${named(c)}：${c.plateNo ?? '未排车'} · ${c.driverName ?? '未排司机'}`);
        onClose();
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : '排班失败'))
      .finally(() => setBusy(false));
  };
  return (
    <Modal
      open
      title={`排班 · ${row.lineName} ${row.departDate} ${row.time}`}
      onClose={onClose}
      onSubmit={submit}
      dirty={carId !== (row.carId ? String(row.carId) : '') || driverId !== (row.driverId ? String(row.driverId) : '')}
      footer={
        <>
          <Button onClick={onClose} hotkey="Esc">
            取消
          </Button>
          <Button type="submit" variant="primary" hotkey="Ctrl+Enter" disabled={busy}>
            {busy ? '保存中…' : '确定'}
          </Button>
        </>
      }
    >
      <p className="mb-3 text-sm text-gray-600">
        {formatDateTime(row.departAt, 'HH:mm')}–{formatDateTime(row.arriveAt, 'HH:mm')}，发行 {row.publish} 座。
      </p>
      <SelectField label="车辆" autoFocus value={carId} onChange={(e) => setCarId(e.target.value)} placeholder="不排车" options={cars.map((c) => ({ value: String(c.id), label: `${c.plateNo}（${c.seats}座${c.status === 2 ? '，维修中' : ''}）` }))} />
      <SelectField label="司机" value={driverId} onChange={(e) => setDriverId(e.target.value)} placeholder="不排司机" options={drivers.map((d) => ({ value: String(d.id), label: `${d.name}${d.status === 2 ? '（请假）' : ''}` }))} />
      {error && (
        <p role="alert" className="mt-2 rounded bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </Modal>
  );
}

/**
 * 取消班次: the class, its paid tickets (已支付 and 已核销) and the full refund they get, a required
 * reason. The request's key is made when the dialog opens, so a retry after a lost answer (a second
 * Ctrl+Enter) is the same cancel, never a second one.
 */
function CancelClassesDialog({ row, onClose }: { row: ClassesRow; onClose(): void }) {
  const detail = useApi(classesById, { query: { id: row.id } });
  const [key] = useState(() => crypto.randomUUID());
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const c = detail.data?.id === row.id ? detail.data : undefined;
  const paid = (c?.passengers ?? []).filter((p) => p.state === 1 || p.state === 2);
  const total = paid.reduce((sum, p) => sum + p.amount, 0);
  const submit = () => {
    if (busy) return;
    const why = reason.trim();
    if (why.length < 2) {
      setError('请填写取消原因（至少2个字）');
      return;
    }
    setBusy(true);
    setError(null);
    api
      .call(customClassesCancel, { body: { id: row.id, reason: why, idempotencyKey: key } }, { silent: true })
      .then((r) => {
        toast.success(r.replayed ? `班次${named(row)}此前已取消` : `班次${named(row)}已取消，退票 ${r.refundedTickets} 张，全额退款 ${fenToYuan(r.refundedAmount)} 元`);
        onClose();
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : '取消班次失败'))
      .finally(() => setBusy(false));
  };
  return (
    <Modal
      open
      title={`取消班次 · ${row.lineName} ${row.departDate} ${row.time}`}
      onClose={onClose}
      onSubmit={submit}
      dirty={!!reason}
      footer={
        <>
          <Button onClick={onClose} hotkey="Esc">
            返回
          </Button>
          <Button type="submit" variant="danger" hotkey="Ctrl+Enter" disabled={busy || !c}>
            {busy ? '取消中…' : `取消班次并退款 ${fenToYuan(total)} 元`}
          </Button>
        </>
      }
    >
      <DetailList
        items={[
          { term: '班次', value: `${row.lineNo} ${row.lineName}（${DIRECTION[row.direction] ?? ''}）${row.departDate} ${row.time}` },
          { term: '已购车票', value: c ? `${paid.length} 张（已核销 ${c.checked} 张）` : detail.error ? '加载失败' : '加载中…' },
          { term: '全额退款', value: c ? `${fenToYuan(total)} 元` : '—' },
        ]}
      />
      <p className="my-3 text-sm text-gray-600">取消后班次停止售票，所有已购车票（含已核销）全额退款，未支付的订单关闭。此操作不可撤销。</p>
      <Field label="取消原因" required autoFocus maxLength={100} placeholder="如 车辆故障" value={reason} onChange={(e) => setReason(e.target.value)} error={error} />
    </Modal>
  );
}

/** 班次详情: the class, its passengers' tickets (phones masked by the server) and the checks. */
function ClassesDetailDialog({ id, onClose }: { id: number; onClose(): void }) {
  const detail = useApi(classesById, { query: { id } });
  const c = detail.data?.id === id ? detail.data : undefined;
  return (
    <Modal open title="班次详情" onClose={onClose} width="max-w-3xl" footer={<Button onClick={onClose} hotkey="Esc">关闭</Button>}>
      {!c ? (
        <p role="status" className="text-sm text-gray-700">
          {detail.error ? (detail.error instanceof Error ? detail.error.message : '班次不存在') : '加载中…'}
        </p>
      ) : (
        <>
          <DetailList
            items={[
              { term: '线路', value: `${c.lineNo} ${c.lineName}（${DIRECTION[c.direction] ?? ''}）` },
              { term: '发车', value: `${c.departDate} ${c.time}，约 ${hm(c.arriveAt)} 到达` },
              { term: '状态', value: <FlowBadge flow={CLASSES_STATUS} code={c.status} /> },
              { term: '座位', value: `发行 ${c.publish} · 已售 ${c.sold} · 锁定 ${c.held} · 余票 ${c.stock}` },
              { term: '票价', value: `${fenToYuan(c.price)} 元` },
              { term: '车辆 / 司机', value: `${c.plateNo ?? '未排车'} / ${c.driverName ?? '未排司机'}` },
              { term: '售票时间', value: `${formatDateTime(c.saleOpenAt)} 至 ${formatDateTime(c.saleCloseAt)}` },
              { term: '验票', value: `已核销 ${c.checked} · 未核销 ${c.unchecked}` },
              ...(c.cancelReason ? [{ term: '取消原因', value: c.cancelReason }] : []),
            ]}
          />
          <h4 className="mt-4 mb-2 text-sm font-medium text-gray-800">乘客车票（{c.passengers.length}）</h4>
          {c.passengers.length === 0 ? (
            <p className="text-sm text-gray-600">暂无乘客购票。</p>
          ) : (
            // A scrolling box: focusable, so the keyboard scrolls it too (axe scrollable-region-focusable).
            <div className="max-h-72 overflow-auto rounded focus-visible:outline-2 focus-visible:outline-[var(--theme)]" tabIndex={0} role="region" aria-label="乘客车票列表">
              <table className="w-full text-left text-sm" aria-label="乘客车票">
                <thead className="text-gray-600">
                  <tr>
                    <th className="py-1 pr-2 font-normal">车票号</th>
                    <th className="py-1 pr-2 font-normal">订单号</th>
                    <th className="py-1 pr-2 font-normal">乘客手机</th>
                    <th className="py-1 pr-2 font-normal">状态</th>
                    <th className="py-1 pr-2 font-normal">验票</th>
                  </tr>
                </thead>
                <tbody>
                  {c.passengers.map((p) => (
                    <tr key={p.ticketNo} className="border-t border-gray-100">
                      <td className="py-1 pr-2 tabular-nums">{p.ticketNo}</td>
                      <td className="py-1 pr-2 tabular-nums">{p.orderNo}</td>
                      <td className="py-1 pr-2 tabular-nums">{p.riderPhone ?? '—'}</td>
                      <td className="py-1 pr-2">
                        <FlowBadge flow={TICKET_STATE} code={p.state} />
                      </td>
                      <td className="py-1 pr-2 tabular-nums">{p.checkedAt ? `${formatDateTime(p.checkedAt, 'HH:mm')} ${p.checkPlateNo ?? ''} ${p.checkMethod === 1 ? '扫码' : p.checkMethod === 2 ? '人工' : ''}` : '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </Modal>
  );
}
