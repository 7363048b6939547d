import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { CUSTOM_CHECKER, CUSTOM_READ, CUSTOM_REFUNDER } from '../../../../shared/api/custom-bus/buttons';
import { type CustomOrder, customOrderExport, customOrderPageByBody, customOrderTotalByBody, customTicketCheck } from '../../../../shared/api/custom-bus/orders';
import { ORDER_STATUS, TICKET_TYPE } from '../../../../shared/api/custom-bus/states';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { choiceFilter, flowFilter, textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { api } from '../../../lib/api-client';
import { useAllowed } from '../../../lib/permission';
import { toast } from '../../../lib/toast';
import { customOrderDetailPath, customOrderPhone } from '../order-paths';

const DIRECTION: Record<number, string> = { 0: '上行', 1: '下行' };

const columns: ListColumn<typeof customOrderPageByBody>[] = [
  { id: 'orderNo', header: '订单号', fixed: true, cell: (o) => <span className="font-medium tabular-nums text-gray-800">{o.orderNo}</span> },
  { id: 'line', header: '线路', cell: (o) => `${o.lineNo} ${o.lineName}（${DIRECTION[o.direction] ?? ''}）` },
  { id: 'ticketType', header: '票种', cell: (o) => TICKET_TYPE[o.ticketType] },
  { id: 'departDate', header: '乘车日期', cell: (o) => (o.departDateTime ? formatDateTime(o.departDateTime, 'YYYY-MM-DD HH:mm') : `${o.month ?? ''} 月票`), className: 'tabular-nums' },
  { id: 'riderPhone', header: '手机号', cell: (o) => o.riderPhone ?? '—', className: 'tabular-nums' },
  { id: 'seats', header: '座位', align: 'right', cell: (o) => o.seats, className: 'tabular-nums' },
  { id: 'amount', header: '金额（元）', sort: 'amount', align: 'right', cell: (o) => fenToYuan(o.amount), className: 'tabular-nums' },
  { id: 'refundedAmount', header: '已退（元）', align: 'right', cell: (o) => (o.refundedAmount ? fenToYuan(o.refundedAmount) : '—'), className: 'tabular-nums' },
  { id: 'status', header: '状态', cell: (o) => <FlowBadge flow={ORDER_STATUS} code={o.status} /> },
  { id: 'createdDate', header: '下单时间', sort: 'createdDate', cell: (o) => formatDateTime(o.createdDate), className: 'tabular-nums' },
];

/**
 * 订单记录 (ListOrderRecord): the area's 定制公交 orders by number, the rider's phone (held in memory,
 * sent in the body), line, the day ridden, status and ticket type, with the summary line; Enter opens
 * the detail, `r` the detail with 退票 open; 验票 by ticket number in the toolbar; 导出 is a task of the
 * download centre (phones masked).
 */
export function CustomOrderPage() {
  const [, navigate] = useLocation();
  const list = useResourceList({
    endpoint: customOrderPageByBody,
    record: 'custom-order',
    filters: {
      orderNo: textFilter('订单号'),
      phone: textFilter('手机号', { placeholder: '完整11位手机号' }),
      startDate: textFilter('乘车日期从', { placeholder: 'YYYY-MM-DD' }),
      endDate: textFilter('至', { placeholder: 'YYYY-MM-DD' }),
      status: flowFilter(ORDER_STATUS),
      ticketType: choiceFilter('票种', [
        { value: '1', label: '单次票' },
        { value: '2', label: '月票' },
      ]),
    },
    privateFilters: ['phone'],
    summary: listSummary(
      customOrderTotalByBody,
      '定制订单合计',
      (t) => `共 ${t.orders} 笔 ${t.tickets} 张票，实收 ${fenToYuan(t.paidAmount)} 元 · 已核销 ${t.checked} 张 · 已退票 ${t.refundedTickets} 张 ${fenToYuan(t.refundedAmount)} 元`,
    ),
  });
  // The palette's 查定制订单 ‹手机号› hands the phone over in memory.
  const handed = customOrderPhone.useHandOff();
  const { setFilters } = list.table;
  const applied = useRef<object | null>(null);
  useEffect(() => {
    if (!handed || applied.current === handed) return;
    applied.current = handed;
    setFilters({ phone: handed.q, orderNo: '' });
  }, [handed, setFilters]);
  // The export takes no phone (it would sit in the task's address).
  const { phone: _phone, ...exportFilters } = list.filterQuery as Record<string, string>;
  const exporter = useExportAction({ on: ['customBus', 'order-record', 'export'], endpoint: customOrderExport, filters: exportFilters });
  const actions = useRowActions<CustomOrder>(
    [
      { id: 'view', label: '详情', hotkey: 'v', primary: true, permission: CUSTOM_READ, open: (o) => navigate(customOrderDetailPath(o.id)) },
      { id: 'refund', label: '退票', hotkey: 'r', danger: true, permission: CUSTOM_REFUNDER, when: (o) => o.status === 1 || o.status === 3, open: (o) => navigate(customOrderDetailPath(o.id, true)) },
    ],
    (o) => `订单 ${o.orderNo}`,
  );
  return (
    <ScreenSection title="订单记录">
      <ResourceTable
        list={list}
        actions={actions}
        id="customOrder.page"
        label="定制订单列表"
        columns={columns}
        rowKey={(o) => o.id}
        emptyText={list.table.filters.phone ? '暂无数据：手机号需完整输入 11 位' : '暂无数据'}
        toolbar={
          <div className="flex flex-wrap items-center gap-2">
            <CheckBox />
            <ExportButton action={exporter} label="导出" title="导出当前条件的定制订单（手机号已脱敏，后台生成，完成后在下载中心下载）" />
          </div>
        }
      />
    </ScreenSection>
  );
}

/** 验票 by ticket number (a scan types it and presses Enter): 1 → 2 once, inside the check window. */
function CheckBox() {
  const allowed = useAllowed(CUSTOM_CHECKER);
  const [no, setNo] = useState('');
  const [busy, setBusy] = useState(false);
  if (!allowed) return null;
  const submit = () => {
    const ticketNo = no.trim();
    if (!ticketNo || busy) return;
    setBusy(true);
    api
      .call(customTicketCheck, { body: { ticketNo } })
      .then((r) => {
        toast.success(`车票 ${r.ticket.ticketNo} 验票成功（订单 ${r.orderNo}）`);
        setNo('');
      })
      // The refusal (未到验票时间…, 车票已核销) is in the toast.
      .catch(() => undefined)
      .finally(() => setBusy(false));
  };
  return (
    <form
      className="flex items-center gap-1"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label className="sr-only" htmlFor="custom-check-ticket">
        验票票号
      </label>
      <input id="custom-check-ticket" value={no} maxLength={40} onChange={(e) => setNo(e.target.value)} placeholder="验票：输入或扫描票号" className="h-8 w-48 rounded border border-gray-300 px-2 text-sm focus:outline-2 focus:outline-[var(--theme)]" />
      <Button type="submit" disabled={busy || !no.trim()}>
        验票
      </Button>
    </form>
  );
}
