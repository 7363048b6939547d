import { useState } from 'react';
import { ORDER_STATUS, REFUNDER, type WalletOrder, orderExport, orderMsg, orderPage, orderRefund, orderTotal } from '../../../../shared/api/wallet';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { Field } from '../../../components/field';
import { FormError } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { DetailList } from '../../../components/resource/detail-list';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { flowFilter, textFilter, timeFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { api } from '../../../lib/api-client';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { toast } from '../../../lib/toast';
import { useApi } from '../../../lib/use-api';
import { useContractForm } from '../../../lib/use-contract-form';

const yuan = (fen: number) => fenToYuan(fen);

const columns: ListColumn<typeof orderPage>[] = [
  { id: 'orderNo', header: '订单号', fixed: true, cell: (o) => <span className="tabular-nums">{o.orderNo}</span> },
  { id: 'riderPhone', header: '手机号', cell: (o) => o.riderPhone, className: 'tabular-nums' },
  { id: 'planName', header: '档位', cell: (o) => o.planName },
  { id: 'payAmount', header: '充值（元）', sort: 'payAmount', align: 'right', cell: (o) => yuan(o.payAmount), className: 'tabular-nums' },
  { id: 'giftAmount', header: '赠送（元）', align: 'right', cell: (o) => yuan(o.giftAmount), className: 'tabular-nums' },
  { id: 'status', header: '状态', cell: (o) => <FlowBadge flow={ORDER_STATUS} code={o.status} /> },
  { id: 'refundAmount', header: '退款（元）', align: 'right', cell: (o) => (o.status === 2 ? yuan(o.refundAmount) : '—'), className: 'tabular-nums' },
  { id: 'createdDate', header: '下单时间', sort: 'createdDate', cell: (o) => formatDateTime(o.createdDate), className: 'tabular-nums' },
  { id: 'paidDate', header: '到账时间', cell: (o) => formatDateTime(o.paidDate) || '—', className: 'tabular-nums', hiddenByDefault: true },
];

type Open = { kind: 'detail'; id: number } | { kind: 'refund'; id: number } | null;

/**
 * 储值订单 (ListRechargeOrder): the area's top-up orders with their totals and a 下载中心 export; Enter
 * opens an order's detail, where 退款 pays back min(充值 − 已退, 本金) once and takes the order's gift
 * back. The palette's 储值退款 lands here with `?orderNo=…&action=refund`.
 */
export function RechargeOrderPage() {
  const list = useResourceList({
    endpoint: orderPage,
    record: 'wallet-order',
    filters: { orderNo: textFilter('订单号'), status: flowFilter(ORDER_STATUS), startTime: timeFilter('开始时间'), endTime: timeFilter('结束时间', { endOfDay: true }) },
    summary: listSummary(orderTotal, '储值订单合计', (t) => `共 ${t.orders} 笔 · 已到账 ${t.paid} 笔 ${yuan(t.paidAmount)} 元（赠送 ${yuan(t.giftAmount)} 元） · 已退款 ${t.refunded} 笔 ${yuan(t.refundAmount)} 元 · 待支付 ${t.unpaid} · 已关闭 ${t.closed}`),
  });
  const { filterQuery } = list;
  const canRefund = useAllowed(REFUNDER);
  const [open, setOpen] = useState<Open>(null);
  const exporter = useExportAction({ on: ['rechargeable', 'recharge-order', 'export'], endpoint: orderExport, filters: filterQuery });
  useScreenAction(['rechargeable', 'recharge-order', 'refund'], (args) => {
    const orderNo = args.get('orderNo')?.trim();
    if (!orderNo) return;
    api
      .call(orderPage, { query: { orderNo, size: 1 } })
      .then((page) => {
        const o = page.content[0];
        if (!o) return toast.error(`没有找到储值订单 ${orderNo}（仅能查询当前区域的订单）`);
        if (o.status !== 1 || !canRefund) {
          toast.info(o.status === 2 ? `订单 ${o.orderNo} 已退款` : o.status === 1 ? '没有储值退款权限' : `订单 ${o.orderNo} 未到账，不能退款`);
          return setOpen({ kind: 'detail', id: o.id });
        }
        setOpen({ kind: 'refund', id: o.id });
      })
      .catch(() => undefined);
  });
  const actions = useRowActions<WalletOrder>(
    [
      { id: 'detail', label: '详情', primary: true, permission: orderMsg.permission, open: (o) => setOpen({ kind: 'detail', id: o.id }) },
      { id: 'refund', label: '退款', hotkey: 'r', danger: true, permission: REFUNDER, when: (o) => o.status === 1, open: (o) => setOpen({ kind: 'refund', id: o.id }) },
    ],
    (o) => o.orderNo,
  );
  return (
    <ScreenSection title="储值订单">
      <ResourceTable list={list} actions={actions} id="rechargeable.orders" label="储值订单列表" columns={columns} rowKey={(o) => o.id} activateHint="按 Enter 查看订单详情" toolbar={<ExportButton action={exporter} />}>
        {open?.kind === 'detail' && <OrderDetail id={open.id} onClose={() => setOpen(null)} onRefund={() => setOpen({ kind: 'refund', id: open.id })} />}
        {open?.kind === 'refund' && <RefundDialog id={open.id} onClose={() => setOpen(null)} />}
      </ResourceTable>
    </ScreenSection>
  );
}

function OrderDetail({ id, onClose, onRefund }: { id: number; onClose(): void; onRefund(): void }) {
  const msg = useApi(orderMsg, { query: { id } });
  const canRefund = useAllowed(REFUNDER);
  const o = msg.data?.id === id ? msg.data : undefined;
  return (
    <Modal
      open
      title={o ? `储值订单 · ${o.orderNo}` : '储值订单'}
      onClose={onClose}
      width="max-w-xl"
      footer={
        <>
          <Button onClick={onClose} hotkey="Esc" autoFocus>
            关闭
          </Button>
          {o && o.status === 1 && canRefund && (
            <Button variant="danger" onClick={onRefund}>
              退款
            </Button>
          )}
        </>
      }
    >
      {!o ? (
        <p role="status" className="text-sm text-gray-600">
          {msg.error ? '加载失败' : '加载中…'}
        </p>
      ) : (
        <DetailList
          items={[
            { term: '订单号', value: <span className="tabular-nums">{o.orderNo}</span> },
            { term: '手机号', value: <span className="tabular-nums">{o.riderPhone}</span> },
            { term: '档位', value: o.planName },
            { term: '充值', value: `${yuan(o.payAmount)} 元` },
            { term: '赠送', value: `${yuan(o.giftAmount)} 元` },
            { term: '状态', value: <FlowBadge flow={ORDER_STATUS} code={o.status} /> },
            { term: '下单时间', value: formatDateTime(o.createdDate) },
            { term: '到账时间', value: formatDateTime(o.paidDate) || '—' },
            o.principalAfter !== null && { term: '到账后本金', value: `${yuan(o.principalAfter)} 元` },
            o.status === 1 && { term: '可退金额', value: `${yuan(o.refundable)} 元（收回赠送 ${yuan(o.clawback)} 元）` },
            o.status === 2 && { term: '已退款', value: `${yuan(o.refundAmount)} 元，收回赠送 ${yuan(o.giftClawback)} 元` },
            !!o.refund && { term: '退款原因', value: o.refund.reason },
            !!o.refund && { term: '渠道状态', value: ['退款中', '退款成功', '退款异常'][o.refund.state] ?? String(o.refund.state) },
          ]}
        />
      )}
    </Modal>
  );
}

/** 储值退款: what is refundable now comes from the server; the reason is asked; once per order (idempotency key). */
function RefundDialog({ id, onClose }: { id: number; onClose(): void }) {
  const [key] = useState(() => crypto.randomUUID());
  const msg = useApi(orderMsg, { query: { id } });
  const o = msg.data?.id === id ? msg.data : undefined;
  const form = useContractForm(orderRefund, {
    initial: { reason: '' },
    toInput: (v) => ({ body: { id, reason: v.reason, idempotencyKey: key } }),
    success: (r) => `储值订单 ${r.order.orderNo} 已退款 ${yuan(r.refund.amount)} 元${r.order.giftClawback ? `，收回赠送 ${yuan(r.order.giftClawback)} 元` : ''}${r.replayed ? '（此前已办理）' : ''}`,
    onSaved: onClose,
  });
  return (
    <Modal open title={o ? `储值退款 · ${o.orderNo}` : '储值退款'} onClose={onClose} dirty={form.dirty} onSubmit={() => void form.submit()} footer={<ModalActions onCancel={onClose} busy={form.busy} disabled={!o} submitLabel={o ? `退款 ${yuan(o.refundable)} 元` : '退款'} />}>
      <FormError>{form.errors[''] ?? form.errors.amount}</FormError>
      {o && (
        <div className="mb-4 rounded border border-amber-200 bg-amber-50 px-3 py-2">
          <DetailList
            termWidth="5rem"
            items={[
              { term: '退款金额', value: <strong className="tabular-nums text-red-700">{yuan(o.refundable)} 元</strong> },
              { term: '收回赠送', value: `${yuan(o.clawback)} 元` },
              { term: '乘客', value: <span className="tabular-nums">{o.riderPhone}</span> },
            ]}
          />
        </div>
      )}
      <Field label="退款原因" required autoFocus maxLength={100} placeholder="如 乘客申请退回余额" value={form.values.reason} onChange={(e) => form.set('reason', e.target.value)} error={form.errors.reason} />
    </Modal>
  );
}
