import { useState } from 'react';
import { discount } from '../../../../shared/api';
import { type DiscountOrder, ORDER_PAY_STATE } from '../../../../shared/api/discount';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { CardNoLink } from '../../../business/desk/card-no-link';
import { RefundDialog } from '../../../business/desk/desk-dialogs';
import { type ListColumn, ResourceTable, useResourceList } from '../../../components/resource/resource-list';
import { useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { toast } from '../../../lib/toast';
import { api } from '../../../lib/api-client';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { useApi } from '../../../lib/use-api';
import { ticketTypeLabel } from '../../../../shared/api/card';
import { ORDER_FILTERS } from '../components/discount-filters';
import { OrderDetailDialog, type OrderRef } from '../components/order-detail-dialog';
import { useExport } from '../../../components/use-export';

const columns: ListColumn<typeof discount.discountOrderPage>[] = [
  { id: 'orderNo', header: '订单号', fixed: true, cell: (o) => <span className="tabular-nums">{o.orderNo}</span> },
  { id: 'productName', header: '产品', cell: (o) => o.productName },
  { id: 'ticketType', header: '票种', cell: (o) => ticketTypeLabel(o.ticketType) },
  { id: 'cardNo', header: '卡号', cell: (o) => <CardNoLink cardNo={o.cardNo} /> },
  { id: 'riderPhone', header: '手机号', cell: (o) => o.riderPhone ?? '—', className: 'tabular-nums' },
  { id: 'amount', header: '金额（元）', sort: 'amount', align: 'right', cell: (o) => fenToYuan(o.amount), className: 'tabular-nums' },
  { id: 'payStatus', header: '状态', cell: (o) => <FlowBadge flow={ORDER_PAY_STATE} code={o.payStatus} /> },
  { id: 'createdDate', header: '下单时间', sort: 'createdDate', cell: (o) => formatDateTime(o.createdDate), className: 'tabular-nums' },
  { id: 'paidDate', header: '支付时间', cell: (o) => formatDateTime(o.paidDate) || '—', className: 'tabular-nums', hiddenByDefault: true },
];

const refOf = (o: DiscountOrder): OrderRef => ({ id: o.id, orderNo: o.orderNo, amount: o.amount, cardNo: o.cardNo, riderPhone: o.riderPhone });
/** Only a paid order is refunded (its flow's one move). */
const refundable = (o: DiscountOrder) => ORDER_PAY_STATE.can(o.payStatus, 2);

/** One dialog at a time: the detail, or the refund started from it (Esc there returns to the detail). */
type Open = { kind: 'detail'; id: number } | { kind: 'refund'; order: OrderRef; back: boolean } | null;

/**
 * 特殊码列表 (ListSpecialCode): the area's discount-card orders, filtered, with their totals; Enter
 * opens an order's detail, where a paid one is refunded (once) by those who may; 导出 Excel exports
 * what the filters select. The palette's 订单退款 lands here with `?orderNo=…&action=refund`.
 */
export function SpecialCodeListPage() {
  const list = useResourceList({ endpoint: discount.discountOrderPage, record: 'discount-order', filters: ORDER_FILTERS });
  const { table } = list;
  const { filterQuery } = list;
  const totals = useApi(discount.discountOrderTotal, { query: filterQuery });
  const canRefund = useAllowed(discount.discountOrderRefund.permission);
  const [open, setOpen] = useState<Open>(null);
  const exporter = useExport(['specialCode', 'special-code-list', 'export'], discount.downloadOrder, filterQuery, '优惠卡订单', '已导出（手机号已脱敏）');

  // The palette's 订单退款: the order is found by its number; the refund opens only for a paid order.
  useScreenAction(['specialCode', 'special-code-list', 'refund'], (args) => {
    const orderNo = args.get('orderNo')?.trim();
    if (!orderNo) return;
    api
      .call(discount.discountOrderPage, { query: { orderNo, size: 1 } })
      .then((page) => {
        const o = page.content[0];
        if (!o) return toast.error(`没有找到订单 ${orderNo}（仅能查询当前区域的订单）`);
        if (!refundable(o) || !canRefund) {
          toast.info(o.payStatus === 2 ? `订单 ${o.orderNo} 已退款` : o.payStatus === 0 ? `订单 ${o.orderNo} 未支付，不能退款` : '没有订单退款权限');
          return setOpen({ kind: 'detail', id: o.id });
        }
        setOpen({ kind: 'refund', order: refOf(o), back: false });
      })
      .catch(() => undefined);
  });

  // The refund's tags have refetched the order's row, the totals and the detail already.
  const refunded = (id: number, back: boolean) => setOpen(back ? { kind: 'detail', id } : null);

  // The refund asks for a reason in its own dialog (and happens once): an open action, not a call.
  const actions = useRowActions<DiscountOrder>(
    [
      { id: 'detail', label: '详情', primary: true, permission: discount.discountOrderMsg.permission, open: (o) => setOpen({ kind: 'detail', id: o.id }) },
      { id: 'refund', label: '退款', hotkey: 'r', danger: true, permission: discount.discountOrderRefund.permission, when: refundable, open: (o) => setOpen({ kind: 'refund', order: refOf(o), back: false }) },
    ],
    (o) => o.orderNo,
  );

  const t = totals.data;
  return (
    <ScreenSection title="特殊码列表">
      {t && (
        <p className="mb-3 text-sm text-gray-700">
          共 {t.orders} 笔订单，已支付 {t.paid} 笔 {fenToYuan(t.paidAmount)} 元，已退款 {t.refunded} 笔 {fenToYuan(t.refundedAmount)} 元，未支付 {t.unpaid} 笔
        </p>
      )}
      <ResourceTable
        list={list}
        actions={actions}
        id="discount.orders"
        label="优惠卡订单列表"
        columns={columns}
        rowKey={(o) => o.id}
        activateHint="按 Enter 查看订单详情"
        emptyText={table.filters.orderNo || table.filters.cardNo ? '暂无数据：订单号和卡号需完整输入' : '暂无数据'}
        toolbar={
          <Button className="h-8" disabled={exporter.exporting} onClick={() => void exporter.run()}>
            {exporter.exporting ? '导出中…' : '导出 Excel'}
          </Button>
        }
      />
      {open?.kind === 'detail' && <OrderDetailDialog id={open.id} onClose={() => setOpen(null)} onRefund={(order) => setOpen({ kind: 'refund', order, back: true })} />}
      {open?.kind === 'refund' && (
        <RefundDialog
          order={open.order}
          onClose={() => setOpen(open.back ? { kind: 'detail', id: open.order.id } : null)}
          onDone={() => refunded(open.order.id, open.back)}
        />
      )}
    </ScreenSection>
  );
}
