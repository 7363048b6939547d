import { discount } from '../../../../shared/api';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { CardNoLink } from '../../../business/desk/card-no-link';
import type { RefundOrder } from '../../../business/desk/desk-dialogs';
import { Modal } from '../../../components/modal';
import { DetailList } from '../../../components/resource/detail-list';
import { useAllowed } from '../../../lib/permission';
import { useApi } from '../../../lib/use-api';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ticketTypeLabel } from '../../../../shared/api/card';
import { ORDER_PAY_STATE } from '../../../../shared/api/discount';

/** What the refund dialog names: the order, its card and its rider (masked). */
export type OrderRef = RefundOrder;

/**
 * 订单详情: every field of one order from the server (not the list's copy, which may be stale), the
 * refund when there is one, and 退款 for a paid order when the account may refund.
 */
export function OrderDetailDialog({ id, onClose, onRefund }: { id: number; onClose(): void; onRefund(order: OrderRef): void }) {
  const msg = useApi(discount.discountOrderMsg, { query: { id } });
  const canRefund = useAllowed(discount.discountOrderRefund.permission);
  const o = msg.data?.id === id ? msg.data : undefined;
  const refundable = !!o && ORDER_PAY_STATE.can(o.payStatus, 2) && canRefund;
  return (
    <Modal
      open
      title={o ? `订单详情 · ${o.orderNo}` : '订单详情'}
      onClose={onClose}
      width="max-w-xl"
      footer={
        <>
          {/* 关闭 takes focus: a held or repeated Enter must not walk into a refund. */}
          <Button onClick={onClose} hotkey="Esc" autoFocus>
            关闭
          </Button>
          {refundable && (
            <Button variant="danger" onClick={() => onRefund({ id: o.id, orderNo: o.orderNo, amount: o.amount, cardNo: o.cardNo, riderPhone: o.riderPhone })}>
              退款 {fenToYuan(o.amount)} 元
            </Button>
          )}
        </>
      }
    >
      {!o ? (
        <p role="status" className="text-sm text-gray-600">
          {msg.error ? `加载失败：${msg.error instanceof Error ? msg.error.message : String(msg.error)}` : '加载中…'}
        </p>
      ) : (
        <>
          <DetailList
            items={[
              { term: '订单号', value: <span className="tabular-nums">{o.orderNo}</span> },
              { term: '产品', value: o.productName },
              { term: '票种', value: ticketTypeLabel(o.ticketType) },
              // Following the link leaves the screen: the dialog closes first so it is not left open behind the card view.
              { term: '卡号', value: <span onClickCapture={onClose}><CardNoLink cardNo={o.cardNo} /></span> },
              { term: '手机号', value: <span className="tabular-nums">{o.riderPhone ?? '—'}</span> },
              { term: '金额', value: `${fenToYuan(o.amount)} 元` },
              { term: '支付状态', value: <FlowBadge flow={ORDER_PAY_STATE} code={o.payStatus} /> },
              { term: '下单时间', value: formatDateTime(o.createdDate) },
              { term: '支付时间', value: formatDateTime(o.paidDate) || '—' },
              !!o.refundedDate && { term: '退款时间', value: formatDateTime(o.refundedDate) },
            ]}
          />
          {o.refund && (
            <section aria-label="退款信息" className="mt-4 rounded border border-orange-200 bg-orange-50 p-3 text-sm">
              <h3 className="mb-2 font-medium text-orange-900">退款信息</h3>
              <DetailList
                items={[
                  { term: '退款金额', value: `${fenToYuan(o.refund.amount)} 元` },
                  { term: '退款原因', value: o.refund.reason },
                  { term: '办理时间', value: formatDateTime(o.refund.createdDate) },
                ]}
              />
            </section>
          )}
          {ORDER_PAY_STATE.can(o.payStatus, 2) && !canRefund && <p className="mt-4 text-xs text-gray-600">退款需要「订单退款」权限，请联系有权限的同事办理。</p>}
        </>
      )}
    </Modal>
  );
}
