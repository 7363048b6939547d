import { useEffect, useRef, useState } from 'react';
import * as api from '../../../../shared/api/handle-card';
import { APPLY_CATEGORY_OPTIONS, APPLY_STATUS, type HandleApply, applyCategoryLabel, deliveryLabel } from '../../../../shared/api/handle-card';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime, shanghaiDate } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { choiceFilter, flowFilter, textFilter, timeFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { callAction, useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { Modal, ModalActions } from '../../../components/modal';
import { Field } from '../../../components/field';
import { api as http } from '../../../lib/api-client';
import { useAllowed } from '../../../lib/permission';
import { useRevalidate } from '../../../lib/revalidate';
import { useScreenAction } from '../../../lib/screen-action';
import { toast } from '../../../lib/toast';
import { applyPhone } from '../apply-paths';
import { type ApplyRef, BatchApproveDialog, RejectDialog, ShipDialog, approve } from '../components/apply-dialogs';
import { ApplyDetail } from '../components/apply-detail';
import { ApplyQueue, type QueueStart } from '../components/apply-queue';

const columns: ListColumn<typeof api.applyPageByBody>[] = [
  { id: 'applyNo', header: '申请号', fixed: true, cell: (a) => <span className="tabular-nums">{a.applyNo}</span> },
  { id: 'category', header: '卡类型', cell: (a) => applyCategoryLabel(a.cardCategory) },
  { id: 'name', header: '申请人', cell: (a) => `${a.name}（${a.age}岁）` },
  { id: 'phone', header: '手机号', cell: (a) => a.phone, className: 'tabular-nums' },
  { id: 'idNo', header: '身份证号', cell: (a) => a.idNo, className: 'tabular-nums', hiddenByDefault: true },
  { id: 'precheck', header: '预检', cell: (a) => (a.precheckGreen ? <span className="text-green-700">全绿</span> : <span className="text-red-700">{a.precheckRed.join('、')}</span>) },
  { id: 'delivery', header: '领取', cell: (a) => deliveryLabel(a.delivery) },
  { id: 'fee', header: '工本费（元）', sort: 'fee', align: 'right', cell: (a) => fenToYuan(a.fee), className: 'tabular-nums' },
  {
    id: 'status',
    header: '状态',
    cell: (a) => (
      <>
        <FlowBadge flow={APPLY_STATUS} code={a.status} />
        {/* Another reviewer's live claim: the queue refuses it, so the list says so first. */}
        {a.claimByName && <span className="ml-1 text-xs text-orange-800">{a.claimByName}审核中</span>}
      </>
    ),
  },
  { id: 'cardNo', header: '卡号', cell: (a) => a.cardNo ?? '—', className: 'tabular-nums', hiddenByDefault: true },
  { id: 'district', header: '区域', cell: (a) => a.districtName ?? '—', hiddenByDefault: true },
  { id: 'createdDate', header: '申请时间', sort: 'createdDate', cell: (a) => formatDateTime(a.createdDate), className: 'tabular-nums' },
];

type Open = { kind: 'queue'; start: QueueStart } | { kind: 'detail'; id: number } | { kind: 'reject'; apply: ApplyRef; back: boolean } | { kind: 'ship'; apply: ApplyRef; back: boolean; tracking?: string } | { kind: 'batch' } | { kind: 'factory'; day: string } | null;

/** 导出制卡文件 ‹日期›: the day's approved cards for the factory (names unmasked, photos), a task of 下载中心. */
function FactoryDialog({ day, onClose, onRun }: { day: string; onClose(): void; onRun(day: string): void }) {
  const [value, setValue] = useState(day);
  const [error, setError] = useState<string | null>(null);
  const submit = () => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? onRun(value) : setError('制卡日期应为 YYYY-MM-DD'));
  return (
    <Modal open title="导出制卡文件" onClose={onClose} onSubmit={submit} footer={<ModalActions onCancel={onClose} submitLabel="导出" />}>
      <p className="mb-3 text-sm text-gray-700">导出该日审核通过的制卡数据（含持卡人姓名与照片，仅供制卡厂使用），导出记入系统日志。</p>
      <Field label="制卡日期" type="date" required autoFocus value={value} onChange={(e) => (setValue(e.target.value), setError(null))} error={error ?? undefined} />
    </Modal>
  );
}

/**
 * 办卡申请 (ListHandleCard): the area's applications by number, phone or id (held in memory, sent in the
 * body), type, status and precheck, with the summary line; Enter opens the detail with ★ 预检 and the
 * materials; `q` reviews a 待审核 one in the keyboard queue (审核队列 / 下一条办卡审核: Enter takes the next);
 * `a` 通过, `r` 驳回 (presets 1–9), `f` 制卡失败, `t` 录入快递单号 / 待领取, `c` 完成; the toolbar
 * has 批量通过预检全绿, 导出 and 导出制卡文件 (both tasks of 下载中心).
 */
export function HandleCardPage() {
  const list = useResourceList({
    endpoint: api.applyPageByBody,
    record: 'handle-card',
    filters: {
      applyNo: textFilter('申请号', { maxLength: 40 }),
      phone: textFilter('手机号', { maxLength: 11, placeholder: '完整11位手机号' }),
      idNo: textFilter('身份证号', { maxLength: 18, placeholder: '完整18位身份证号' }),
      cardCategory: choiceFilter('卡类型', APPLY_CATEGORY_OPTIONS),
      status: flowFilter(APPLY_STATUS),
      precheck: choiceFilter('预检', [
        { value: 'green', label: '全绿' },
        { value: 'red', label: '有红项' },
      ]),
      startTime: timeFilter('申请时间从'),
      endTime: timeFilter('至', { endOfDay: true }),
    },
    privateFilters: ['phone', 'idNo'],
    summary: listSummary(api.applyTotalByBody, '办卡申请统计', (t) => {
      const n = (s: number) => t.byStatus[String(s)] ?? 0;
      const pool = api.APPLY_CATEGORIES.map((c) => `${applyCategoryLabel(c)} ${t.poolFree[String(c)] ?? 0}`).join('、');
      return `共 ${t.total} 条 · 待审核 ${n(1)}（预检全绿 ${t.pendingGreen}，审核中 ${t.claimed}） · 制卡中 ${n(2)} · 已寄出/待领取 ${n(4)} · 已完成 ${n(5)} · 已驳回 ${n(3)} · 待支付 ${n(0)} · 已取消 ${n(6)} · 实收工本费 ${fenToYuan(t.feePaid)} 元 · 已退 ${fenToYuan(t.refunded)} 元 · 卡号池余量 ${pool}`;
    }),
  });
  const { table } = list;
  const [open, setOpen] = useState<Open>(null);
  const revalidate = useRevalidate();
  const canAudit = useAllowed(api.HANDLE_CARD_AUDITOR);
  const canFactory = useAllowed(api.HANDLE_CARD_FACTORY_EXPORTER);
  // The export takes neither phone nor id (a task's filters are stored with it).
  const { phone: _phone, idNo: _idNo, ...exportFilters } = list.filterQuery as Record<string, string>;
  const exporter = useExportAction({ on: ['handleCard', 'handle-card-list', 'export'], endpoint: api.applyExport, filters: exportFilters as never, refusal: list.refusal });
  const [factoryDay, setFactoryDay] = useState(() => shanghaiDate());
  const factory = useExportAction({ on: ['handleCard', 'handle-card-list', 'factory-export'], endpoint: api.applyFactoryExport, filters: { batchDate: factoryDay } });
  // The dialog runs the export after the chosen day is in its filters (the next render's action).
  const factoryRef = useRef(factory);
  factoryRef.current = factory;

  // The palette's 查办卡申请 ‹手机号› hands the phone over in memory.
  const handed = applyPhone.useHandOff();
  const { setFilters } = table;
  const applied = useRef<object | null>(null);
  useEffect(() => {
    if (!handed || applied.current === handed) return;
    applied.current = handed;
    setFilters({ phone: handed.q, applyNo: '', idNo: '' });
  }, [handed, setFilters]);

  const findApply = (applyNo: string, then: (a: HandleApply) => void) =>
    http
      .call(api.applyPage, { query: { applyNo, size: 1 } as never })
      .then((page) => {
        const a = page.content[0];
        if (!a) return toast.error(`没有找到办卡申请 ${applyNo}（仅能查询当前区域的申请）`);
        then(a);
      })
      .catch(() => undefined);

  // 下一条办卡审核 (the palette): the queue opens; Enter there takes the next 待审核.
  useScreenAction(['handleCard', 'handle-card-list', 'next'], () => canAudit && setOpen({ kind: 'queue', start: { kind: 'next' } }));
  useScreenAction(['handleCard', 'handle-card-list', 'batch-approve'], () => setOpen({ kind: 'batch' }));
  useScreenAction(['handleCard', 'handle-card-list', 'factory'], (args) => setOpen({ kind: 'factory', day: args.get('batchDate') ?? shanghaiDate() }), ['batchDate']);
  useScreenAction(
    ['handleCard', 'handle-card-list', 'ship'],
    (args) => {
      const applyNo = args.get('applyNo')?.trim();
      const tracking = args.get('trackingNo')?.trim() ?? '';
      if (applyNo)
        void findApply(applyNo, (a) => (a.status === 2 ? setOpen({ kind: 'ship', apply: a, back: false, tracking }) : (toast.info(`申请 ${a.applyNo} 为${APPLY_STATUS.label(a.status)}，不能录入快递单号`), setOpen({ kind: 'detail', id: a.id }))));
    },
    ['applyNo', 'trackingNo'],
  );
  useScreenAction(['handleCard', 'handle-card-list', 'find'], (args) => {
    const applyNo = args.get('applyNo')?.trim();
    if (applyNo) void findApply(applyNo, (a) => setOpen({ kind: 'detail', id: a.id }));
  }, ['applyNo']);

  const actions = useRowActions<HandleApply>(
    [
      { id: 'detail', label: '详情', primary: true, permission: api.applyMsg.permission, open: (a) => setOpen({ kind: 'detail', id: a.id }) },
      { id: 'review', label: '审核队列', hotkey: 'q', permission: api.HANDLE_CARD_AUDITOR, when: (a) => a.status === 1, open: (a) => setOpen({ kind: 'queue', start: { kind: 'review', id: a.id } }) },
      { id: 'approve', label: '通过', hotkey: 'a', permission: api.HANDLE_CARD_AUDITOR, when: (a) => a.status === 1, open: (a) => void approve(a, revalidate) },
      { id: 'reject', label: '驳回', hotkey: 'r', danger: true, permission: api.HANDLE_CARD_AUDITOR, when: (a) => a.status === 1, open: (a) => setOpen({ kind: 'reject', apply: a, back: false }) },
      { id: 'fail', label: '制卡失败', hotkey: 'f', danger: true, permission: api.HANDLE_CARD_AUDITOR, when: (a) => a.status === 2, open: (a) => setOpen({ kind: 'reject', apply: a, back: false }) },
      { id: 'ship', label: '录入快递单号', hotkey: 't', permission: api.HANDLE_CARD_SHIPPER, when: (a) => a.status === 2 && a.delivery === 2, open: (a) => setOpen({ kind: 'ship', apply: a, back: false }) },
      callAction({
        id: 'pickup',
        label: '待领取',
        hotkey: 'p',
        permission: api.HANDLE_CARD_SHIPPER,
        when: (a) => a.status === 2 && a.delivery === 1,
        endpoint: api.applyShip,
        input: (a) => ({ body: { id: a.id, pickupReady: true } }),
        done: (a) => `${a.applyNo} 卡片已到领取点，待领取`,
        confirm: { title: '待领取', body: (a) => <p>确认 {a.applyNo}（{a.name}）的卡片已送到 {a.deliveryTo}，可通知乘客领取？</p> },
      }),
      callAction({
        id: 'complete',
        label: '完成',
        hotkey: 'c',
        permission: api.HANDLE_CARD_SHIPPER,
        when: (a) => a.status === 4,
        endpoint: api.applyComplete,
        input: (a) => ({ body: { id: a.id } }),
        done: (a) => `${a.applyNo} 已完成`,
        confirm: { title: '办卡完成', body: (a) => <p>确认 {a.applyNo}（{a.name}）已收到或领取卡片 {a.cardNo}？</p> },
      }),
    ],
    (a) => `申请 ${a.applyNo}`,
  );

  return (
    <ScreenSection title="办卡申请">
      <ResourceTable
        list={list}
        actions={actions}
        id="handleCard.page"
        label="办卡申请列表"
        columns={columns}
        rowKey={(a) => a.id}
        activateHint="按 Enter 查看预检与材料，A 通过，R 驳回"
        emptyText={table.filters.phone || table.filters.idNo || table.filters.applyNo ? '暂无数据：申请号、手机号和身份证号需完整输入' : '暂无数据'}
        toolbar={
          <>
            {canAudit && (
              <Button variant="primary" onClick={() => setOpen({ kind: 'queue', start: { kind: 'next' } })} title="按 Enter 领取下一条待审核申请">
                审核队列
              </Button>
            )}
            {canAudit && (
              <Button onClick={() => setOpen({ kind: 'batch' })} title="通过当前区域预检全绿的待审核申请">
                批量通过预检全绿
              </Button>
            )}
            <ExportButton action={exporter} label="导出" title="导出当前条件的办卡申请（姓名、身份证号、手机号已脱敏，后台生成，完成后在下载中心下载）" />
            {canFactory && (
              <Button onClick={() => setOpen({ kind: 'factory', day: factoryDay })} title="导出某日审核通过的制卡文件（含姓名与照片）">
                导出制卡文件
              </Button>
            )}
          </>
        }
      />
      {open?.kind === 'queue' && <ApplyQueue start={open.start} onClose={() => setOpen(null)} />}
      {open?.kind === 'detail' && (
        <ApplyDetail
          id={open.id}
          onClose={() => setOpen(null)}
          onApprove={(a) => void approve(a, revalidate).then((ok) => ok && setOpen(null))}
          onReject={(a) => setOpen({ kind: 'reject', apply: a, back: true })}
          onShip={(a) => setOpen({ kind: 'ship', apply: a, back: true })}
        />
      )}
      {open?.kind === 'reject' && <RejectDialog apply={open.apply} onClose={() => setOpen(open.back ? { kind: 'detail', id: open.apply.id } : null)} onDone={() => setOpen(null)} />}
      {open?.kind === 'ship' && <ShipDialog apply={open.apply} initialTracking={open.tracking} onClose={() => setOpen(open.back ? { kind: 'detail', id: open.apply.id } : null)} onDone={() => setOpen(null)} />}
      {open?.kind === 'batch' && <BatchApproveDialog onClose={() => setOpen(null)} />}
      {open?.kind === 'factory' && (
        <FactoryDialog
          day={open.day}
          onClose={() => setOpen(null)}
          onRun={(day) => {
            setFactoryDay(day);
            setOpen(null);
            // After the day is in the action's filters.
            setTimeout(() => void factoryRef.current.run(), 0);
          }}
        />
      )}
    </ScreenSection>
  );
}
