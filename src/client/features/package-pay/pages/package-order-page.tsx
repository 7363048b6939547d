import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { PACKAGE_ORDER_STATUS, PACKAGE_READ, PACKAGE_REFUNDER, type PackageOrder, packageOrderExport, packageOrderPageByBody, packageOrderTotalByBody, packagePage } from '../../../../shared/api/package-pay';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { choiceFilter, flowFilter, optionsFrom, textFilter, timeFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { PackageRefundDialog } from '../components/refund-dialog';
import { orderDetailPath, orderPhone } from '../paths';

const columns: ListColumn<typeof packageOrderPageByBody>[] = [
  { id: 'orderNo', header: '订单号', fixed: true, cell: (o) => <span className="font-medium tabular-nums text-gray-800">{o.orderNo}</span> },
  { id: 'packageName', header: '套餐', cell: (o) => o.packageName },
  { id: 'riderPhone', header: '手机号', cell: (o) => o.riderPhone ?? '—', className: 'tabular-nums' },
  { id: 'amount', header: '金额（元）', sort: 'amount', align: 'right', cell: (o) => fenToYuan(o.amount), className: 'tabular-nums' },
  { id: 'used', header: '已用 / 次数', align: 'right', cell: (o) => `${o.usedRides} / ${o.rides}`, className: 'tabular-nums' },
  { id: 'status', header: '状态', cell: (o) => <FlowBadge flow={PACKAGE_ORDER_STATUS} code={o.status} /> },
  { id: 'expireDate', header: '到期时间', cell: (o) => (o.expireDate ? formatDateTime(o.expireDate, 'YYYY-MM-DD HH:mm') : '—'), className: 'tabular-nums' },
  { id: 'refundAmount', header: '退款（元）', align: 'right', cell: (o) => (o.refundAmount ? fenToYuan(o.refundAmount) : '—'), className: 'tabular-nums', hiddenByDefault: true },
  { id: 'createdDate', header: '下单时间', sort: 'createdDate', cell: (o) => formatDateTime(o.createdDate), className: 'tabular-nums' },
];

/**
 * 套餐订单 (ListPackageOrder): the area's orders by number, the rider's phone (held in memory, sent in
 * the body), package, status and time; Enter opens the detail, `r` the refund; 导出 is a task of the
 * download centre (phones masked).
 */
export function PackageOrderPage() {
  const [, navigate] = useLocation();
  const list = useResourceList({
    endpoint: packageOrderPageByBody,
    record: 'package-order',
    filters: {
      orderNo: textFilter('订单号'),
      phone: textFilter('手机号', { placeholder: '完整11位手机号' }),
      packageId: choiceFilter('套餐', optionsFrom(packagePage, (page) => page.content.map((p) => ({ value: String(p.id), label: p.name })), () => ({ query: { page: 0, size: 200 } }))),
      status: flowFilter(PACKAGE_ORDER_STATUS),
      startTime: timeFilter('下单时间从'),
      endTime: timeFilter('至', { endOfDay: true }),
    },
    privateFilters: ['phone'],
    summary: listSummary(
      packageOrderTotalByBody,
      '套餐订单合计',
      (t) => `共 ${t.orders} 笔，实收 ${fenToYuan(t.paidAmount)} 元 · 生效中 ${t.active} 笔 · 已退款 ${t.refunded} 笔 ${fenToYuan(t.refundAmount)} 元 · 已用 ${t.usedRides} 次`,
    ),
  });
  // The palette's 查套餐订单 ‹手机号› hands the phone over in memory.
  const handed = orderPhone.useHandOff();
  const { setFilters } = list.table;
  const applied = useRef<object | null>(null);
  useEffect(() => {
    if (!handed || applied.current === handed) return;
    applied.current = handed;
    setFilters({ phone: handed.q, orderNo: '' });
  }, [handed, setFilters]);
  // The export takes no phone (it would sit in the task's address).
  const { phone: _phone, ...exportFilters } = list.filterQuery as Record<string, string>;
  const exporter = useExportAction({ on: ['packagePay', 'package-order', 'export'], endpoint: packageOrderExport, filters: exportFilters });
  const [refunding, setRefunding] = useState<PackageOrder | null>(null);
  const actions = useRowActions<PackageOrder>(
    [
      { id: 'view', label: '详情', hotkey: 'v', primary: true, permission: PACKAGE_READ, open: (o) => navigate(orderDetailPath(o.id)) },
      { id: 'refund', label: '退款', hotkey: 'r', danger: true, permission: PACKAGE_REFUNDER, when: (o) => o.status === 1, open: setRefunding },
    ],
    (o) => `订单 ${o.orderNo}`,
  );
  return (
    <ScreenSection title="套餐订单">
      <ResourceTable
        list={list}
        actions={actions}
        id="packageOrder.page"
        label="套餐订单列表"
        columns={columns}
        rowKey={(o) => o.id}
        emptyText={list.table.filters.phone ? '暂无数据：手机号需完整输入 11 位' : '暂无数据'}
        toolbar={<ExportButton action={exporter} label="导出" title="导出当前条件的套餐订单（手机号已脱敏，后台生成，完成后在下载中心下载）" />}
      />
      {refunding && <PackageRefundDialog orderId={refunding.id} onClose={() => setRefunding(null)} onDone={() => setRefunding(null)} />}
    </ScreenSection>
  );
}
