import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { pagePath } from '../../../../shared/modules';
import * as api from '../../../../shared/api/recharge';
import { RECHARGE_PAY_STATUS, RECHARGE_STATUS, RECONCILE_KIND, RECONCILE_STATUS, type RechargeOrder, WRITE_STATE } from '../../../../shared/api/recharge';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { type ExportAction, ExportButton, useExportAction } from '../../../components/resource/export-action';
import { flowFilter, textFilter, timeFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { api as http } from '../../../lib/api-client';
import { useRevalidate } from '../../../lib/revalidate';
import { useScreenAction } from '../../../lib/screen-action';
import { toast } from '../../../lib/toast';
import { useApi } from '../../../lib/use-api';
import { useCurrentUser } from '../../../lib/current-user';
import { RechargeDetail } from '../components/recharge-detail';
import { type OrderRef, RechargeRefundDialog, ResolveDialog } from '../components/recharge-dialogs';

const ageOf = (at: string | null, now: number) => {
  if (!at) return '—';
  const min = Math.floor((now - Date.parse(at)) / 60_000);
  return min < 60 ? `${min} 分钟` : min < 1440 ? `${Math.floor(min / 60)} 小时` : `${Math.floor(min / 1440)} 天`;
};

const columns: ListColumn<typeof api.rechargePageByBody>[] = [
  { id: 'orderNo', header: '订单号', fixed: true, cell: (o) => <span className="tabular-nums">{o.orderNo}</span> },
  { id: 'cardNo', header: '卡号', cell: (o) => <span className="tabular-nums">{o.cardNo}</span> },
  { id: 'riderPhone', header: '手机号', cell: (o) => o.riderPhone ?? '—', className: 'tabular-nums' },
  { id: 'amount', header: '金额（元）', sort: 'amount', align: 'right', cell: (o) => fenToYuan(o.amount), className: 'tabular-nums' },
  { id: 'payStatus', header: '支付状态', cell: (o) => <FlowBadge flow={RECHARGE_PAY_STATUS} code={o.payStatus} /> },
  { id: 'writeState', header: '圈存状态', cell: (o) => <FlowBadge flow={WRITE_STATE} code={o.writeState} /> },
  { id: 'age', header: '写卡已过', cell: (o) => (o.writeState === 4 ? ageOf(o.writeStartedDate, Date.now()) : '—'), className: 'tabular-nums' },
  { id: 'district', header: '区域', cell: (o) => o.districtName ?? '—', hiddenByDefault: true },
  { id: 'createdDate', header: '下单时间', sort: 'createdDate', cell: (o) => formatDateTime(o.createdDate), className: 'tabular-nums' },
];

const refOf = (o: RechargeOrder): OrderRef => ({ id: o.id, orderNo: o.orderNo, cardNo: o.cardNo, riderPhone: o.riderPhone, amount: o.amount, districtName: o.districtName });

type Open =
  | { kind: 'detail'; id: number }
  | { kind: 'resolve'; order: OrderRef; toState: 2 | 3; centreTxnNo: string | null; back: boolean }
  | { kind: 'refund'; order: OrderRef; back: boolean }
  | null;

type Tab = 'orders' | 'reconcile';

/** ★ 圈存日对账: the open disagreements of the centre's settlement and our orders, newest day first. */
/** The worklist's filters: the open items (or all), of a settlement day (or every day). */
interface ReconcileView {
  all: boolean;
  day: string;
}
const reconcileFilters = (v: ReconcileView) => ({ ...(v.all ? {} : { status: '0' }), ...(v.day ? { day: v.day } : {}) });

function ReconcileList({ view, onView, exporter, onOrder }: { view: ReconcileView; onView(v: ReconcileView): void; exporter: ExportAction; onOrder(orderNo: string): void }) {
  const { all, day } = view;
  const filters = reconcileFilters(view);
  const items = useApi(api.rechargeReconcilePage, { query: { size: 200, ...filters } });
  const total = useApi(api.rechargeReconcileTotal, { query: filters });
  const rows = items.data?.content ?? [];
  const t = total.data;
  const kind = (code: number) => t?.byKind[String(code)] ?? { count: 0, open: 0, orderAmount: 0, centreAmount: 0 };
  return (
    <section aria-label="圈存日对账" className="rounded bg-white p-4">
      <div className="mb-2 flex flex-wrap items-start gap-3 text-sm">
        <span className="text-gray-700">卡中心清算文件与充值订单每日核对：已付未圈、圈存未付、金额不符须逐笔处理（退款、补查或联系卡中心）。</span>
        <label className="ml-auto flex shrink-0 items-center gap-1 whitespace-nowrap">
          清算日
          <input type="date" aria-label="清算日" className="h-7 rounded border border-gray-300 px-1" value={day} onChange={(e) => onView({ ...view, day: e.target.value })} />
        </label>
        <label className="flex shrink-0 items-center gap-1 whitespace-nowrap">
          <input type="checkbox" checked={all} onChange={(e) => onView({ ...view, all: e.target.checked })} />
          含已消除
        </label>
        <ExportButton action={exporter} label="导出对账差异" />
      </div>
      {t && (
        <p role="status" aria-label="圈存日对账合计" className="mb-2 text-sm text-gray-700 tabular-nums">
          {`共 ${t.total} 笔（待处理 ${t.open}） · 已付未圈 ${kind(1).count} 笔 ${fenToYuan(kind(1).orderAmount)} 元 · 圈存未付 ${kind(2).count} 笔 ${fenToYuan(kind(2).centreAmount)} 元 · 金额不符 ${kind(3).count} 笔（订单 ${fenToYuan(kind(3).orderAmount)} 元 / 卡中心 ${fenToYuan(kind(3).centreAmount)} 元）`}
        </p>
      )}
      {/* Wide on a phone: the table scrolls in its own box, each cell on one line (the note may wrap). */}
      <div className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-[var(--theme)]" tabIndex={0} role="region" aria-label="圈存日对账差异（可横向滚动）">
        <table aria-label="圈存日对账差异" className="w-full text-sm [&_td]:px-2 [&_td]:whitespace-nowrap [&_th]:px-2 [&_th]:whitespace-nowrap">
          <thead>
            <tr className="border-b text-left text-gray-600">
              <th className="py-1">清算日</th>
              <th>差异类型</th>
              <th>订单号</th>
              <th>卡号</th>
              <th className="text-right">订单金额</th>
              <th className="text-right">卡中心金额</th>
              <th>说明</th>
              <th>状态</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} className="border-b">
                <td className="py-1 tabular-nums">{r.day}</td>
                <td>
                  <FlowBadge flow={RECONCILE_KIND} code={r.kind} />
                </td>
                <td>
                  <button type="button" className="tabular-nums text-[var(--theme)] underline" onClick={() => onOrder(r.orderNo)}>
                    {r.orderNo}
                  </button>
                </td>
                <td className="tabular-nums">{r.cardNo}</td>
                <td className="text-right tabular-nums">{r.orderAmount === null ? '—' : fenToYuan(r.orderAmount)}</td>
                <td className="text-right tabular-nums">{r.centreAmount === null ? '—' : fenToYuan(r.centreAmount)}</td>
                <td className="!whitespace-normal min-w-[14rem]">{r.note}</td>
                <td>
                  <FlowBadge flow={RECONCILE_STATUS} code={r.status} />
                </td>
              </tr>
            ))}
            {!rows.length && (
              <tr>
                <td colSpan={8} className="py-4 text-center text-gray-500">
                  {items.isLoading ? '加载中…' : '暂无差异'}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/**
 * NFC充值记录 (ListRecharge): the area's top-ups with their summary; the 可疑 queue (oldest first) is
 * the same list on 可疑; Enter opens an order's detail with the phone's attempts beside the card
 * centre's record, where y / n settle a 可疑 order and the next one opens; 补查, 退款, 导出, and
 * ★ 圈存日对账's worklist in its own tab.
 */
export function RechargePage() {
  const me = useCurrentUser().data?.aId;
  const refundable = (o: RechargeOrder) => api.refundableBy(o, me);
  const list = useResourceList({
    endpoint: api.rechargePageByBody,
    record: 'recharge',
    filters: {
      orderNo: textFilter('订单号', { maxLength: 40 }),
      cardNo: textFilter('卡号', { maxLength: 16 }),
      phone: textFilter('手机号', { maxLength: 11, placeholder: '完整手机号' }),
      writeState: flowFilter(WRITE_STATE),
      payStatus: flowFilter(RECHARGE_PAY_STATUS),
      rechargeStatus: flowFilter(RECHARGE_STATUS),
      startTime: timeFilter('开始时间'),
      endTime: timeFilter('结束时间', { endOfDay: true }),
    },
    privateFilters: ['phone'],
    summary: listSummary(api.rechargeTotalByBody, 'NFC充值统计', (t) => {
      const w = (c: number) => t.byWriteState[String(c)] ?? { count: 0, amount: 0 };
      const s = t.suspectByAge;
      return `共 ${t.total.count} 笔 ${fenToYuan(t.total.amount)} 元 · 写卡成功 ${w(2).count} 笔 ${fenToYuan(w(2).amount)} 元 · 写卡失败 ${w(3).count} · 可疑 ${w(4).count}（1小时内 ${s.underHour} · 24小时内 ${s.underDay} · 超24小时 ${s.overDay}） · 待写卡 ${w(0).count} · 写卡中 ${w(1).count} · 已关闭 ${w(5).count} · 已退款 ${t.refunded.count} 笔 ${fenToYuan(t.refunded.amount)} 元 · 对账差异待处理 ${t.reconcileOpen}`;
    }),
  });
  const { table } = list;
  const [tab, setTab] = useState<Tab>('orders');
  const [open, setOpen] = useState<Open>(null);
  // The phone stays out of the export's address (a task's filters are stored): the export has no phone filter.
  const { phone: _phone, ...exportFilters } = list.filterQuery as Record<string, string>;
  const exporter = useExportAction({ on: ['recharge', 'recharge', 'export'], endpoint: api.rechargeExport, filters: exportFilters as never, refusal: list.refusal });
  // Here, not in the worklist's tab: the palette's 导出圈存日对账 runs from any tab (the open items, or the tab's filters).
  const [reconcileView, setReconcileView] = useState<ReconcileView>({ all: false, day: '' });
  const reconcileExporter = useExportAction({ on: ['recharge', 'recharge', 'reconcile-export'], endpoint: api.rechargeReconcileExport, filters: reconcileFilters(reconcileView) });
  const revalidate = useRevalidate();

  const rows = list.rows;
  const queue = table.filters.writeState === '4';
  const [, navigate] = useLocation();
  // One address for filter and sort together (two setters in a row would each write from the same old one).
  const showSuspects = () => {
    setTab('orders');
    navigate(pagePath('recharge', 'recharge', { query: { writeState: 4, sort: 'createdDate,asc' } }), { replace: true });
  };
  const showAll = () => {
    setTab('orders');
    if (queue) navigate(pagePath('recharge', 'recharge'), { replace: true });
  };
  const findOrder = (orderNo: string, then: (o: RechargeOrder) => void) =>
    http
      .call(api.rechargePage, { query: { orderNo, size: 1 } })
      .then((page) => {
        const o = page.content[0];
        if (!o) return toast.error(`没有找到充值订单 ${orderNo}（仅能查询当前区域的订单）`);
        then(o);
      })
      .catch(() => undefined);

  // After the action's own address change (it drops `action`), or that change would undo the filters.
  // Arriving by the queue's chord (g q, the palette's 可疑订单), the oldest order takes the focus:
  // Enter opens it, y / n settle it, without a j first.
  const focusHead = useRef(false);
  useScreenAction(['recharge', 'recharge', 'suspect'], () => {
    focusHead.current = true;
    setTimeout(showSuspects, 0);
  });
  useScreenAction(['recharge', 'recharge', 'reconcile'], () => setTab('reconcile'));
  useScreenAction(['recharge', 'recharge', 'resolve'], (args) => {
    const orderNo = args.get('orderNo')?.trim();
    if (orderNo) void findOrder(orderNo, (o) => (o.writeState === 4 ? setOpen({ kind: 'detail', id: o.id }) : (toast.info(`订单 ${o.orderNo} 为${WRITE_STATE.label(o.writeState)}，不是可疑订单`), setOpen({ kind: 'detail', id: o.id }))));
  });
  useScreenAction(['recharge', 'recharge', 'refund'], (args) => {
    const orderNo = args.get('orderNo')?.trim();
    if (orderNo) void findOrder(orderNo, (o) => (refundable(o) ? setOpen({ kind: 'refund', order: refOf(o), back: false }) : setOpen({ kind: 'detail', id: o.id })));
  });

  useEffect(() => {
    if (!focusHead.current || !queue || rows[0]?.writeState !== 4) return;
    focusHead.current = false;
    requestAnimationFrame(() => document.querySelector<HTMLElement>('main table[aria-label="可疑订单队列"] tbody tr[tabindex]')?.focus());
  }, [queue, rows]);

  const requery = (o: Pick<RechargeOrder, 'id' | 'orderNo'>) =>
    http
      .call(api.rechargeRequery, { body: { id: o.id } })
      .then((r) => {
        (r.resolved ? toast.success : toast.info)(`补查 ${o.orderNo}：${r.message}`);
        void revalidate(api.rechargeRequery);
      })
      .catch(() => undefined);

  /** After a 核实 in the queue: the next 可疑 order (the one below, else the first) opens. */
  const nextAfter = (id: number) => {
    if (!queue) return null;
    const i = rows.findIndex((r) => r.id === id);
    const rest = rows.filter((r) => r.id !== id && r.writeState === 4);
    return (i >= 0 ? rows.slice(i + 1).find((r) => r.writeState === 4) : undefined) ?? rest[0] ?? null;
  };

  const actions = useRowActions<RechargeOrder>(
    [
      { id: 'detail', label: '详情', primary: true, permission: api.rechargeMsg.permission, open: (o) => setOpen({ kind: 'detail', id: o.id }) },
      // 补查 answers what the centre said (a toast of its own), so it is an open action, not a call's fixed toast.
      { id: 'requery', label: '补查', hotkey: 'b', permission: api.RECHARGE_RESOLVER, when: (o) => o.writeState === 1 || o.writeState === 4, open: (o) => void requery(o) },
      { id: 'loaded', label: '核实已到账', hotkey: 'y', permission: api.RECHARGE_RESOLVER, when: (o) => o.writeState === 4, open: (o) => setOpen({ kind: 'resolve', order: refOf(o), toState: 2, centreTxnNo: null, back: false }) },
      { id: 'not-loaded', label: '核实未到账', hotkey: 'n', permission: api.RECHARGE_RESOLVER, when: (o) => o.writeState === 4, open: (o) => setOpen({ kind: 'resolve', order: refOf(o), toState: 3, centreTxnNo: null, back: false }) },
      { id: 'refund', label: '退款', hotkey: 'r', danger: true, permission: api.RECHARGE_REFUNDER, when: refundable, open: (o) => setOpen({ kind: 'refund', order: refOf(o), back: false }) },
    ],
    (o) => o.orderNo,
  );

  const position = open?.kind === 'detail' && queue ? (() => {
    const i = rows.findIndex((r) => r.id === open.id);
    return i >= 0 ? `${i + 1} / ${list.result.data?.totalElements ?? rows.length}` : undefined;
  })() : undefined;

  return (
    <ScreenSection title="NFC充值记录">
      <div role="tablist" aria-label="NFC充值" className="mb-3 flex gap-2">
        <Button role="tab" aria-selected={tab === 'orders' && !queue} variant={tab === 'orders' && !queue ? 'primary' : 'default'} onClick={showAll}>
          充值记录
        </Button>
        <Button role="tab" aria-selected={tab === 'orders' && queue} variant={tab === 'orders' && queue ? 'primary' : 'default'} onClick={showSuspects}>
          可疑队列
        </Button>
        <Button role="tab" aria-selected={tab === 'reconcile'} variant={tab === 'reconcile' ? 'primary' : 'default'} onClick={() => setTab('reconcile')}>
          圈存日对账
        </Button>
      </div>
      {tab === 'reconcile' ? (
        <ReconcileList
          view={reconcileView}
          onView={setReconcileView}
          exporter={reconcileExporter}
          onOrder={(orderNo) => {
            setTab('orders');
            table.setFilters({ writeState: '', orderNo });
          }}
        />
      ) : (
        <ResourceTable
          list={list}
          actions={actions}
          id="recharge.page"
          label={queue ? '可疑订单队列' : 'NFC充值记录列表'}
          columns={columns}
          rowKey={(o) => o.id}
          activateHint={queue ? '按 Enter 查看写卡记录与卡中心记录，Y/N 核实' : '按 Enter 查看订单详情'}
          emptyText={queue ? '没有可疑订单' : table.filters.orderNo || table.filters.cardNo ? '暂无数据：订单号和卡号需完整输入' : '暂无数据'}
          toolbar={<ExportButton action={exporter} />}
        />
      )}
      {open?.kind === 'detail' && (
        <RechargeDetail
          id={open.id}
          position={position}
          onClose={() => setOpen(null)}
          onRequery={(o) => void requery(o)}
          onResolve={(o, toState, centreTxnNo) => setOpen({ kind: 'resolve', order: refOf(o), toState, centreTxnNo, back: true })}
          onRefund={(o) => setOpen({ kind: 'refund', order: refOf(o), back: true })}
        />
      )}
      {open?.kind === 'resolve' && (
        <ResolveDialog
          order={open.order}
          toState={open.toState}
          centreTxnNo={open.centreTxnNo}
          onClose={() => setOpen(open.back ? { kind: 'detail', id: open.order.id } : null)}
          onDone={() => {
            const next = nextAfter(open.order.id);
            setOpen(next ? { kind: 'detail', id: next.id } : null);
          }}
        />
      )}
      {open?.kind === 'refund' && <RechargeRefundDialog order={open.order} onClose={() => setOpen(open.back ? { kind: 'detail', id: open.order.id } : null)} onDone={() => setOpen(null)} />}
    </ScreenSection>
  );
}
