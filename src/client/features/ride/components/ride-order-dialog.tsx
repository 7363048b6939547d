import { ridership } from '../../../../shared/api';
import { directionLabel } from '../../../../shared/api/bus-line';
import { cardCategoryLabel, payStatusLabel, ticketTypeLabel } from '../../../../shared/api/card';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { CardNoLink } from '../../../business/desk/card-no-link';
import { Modal } from '../../../components/modal';
import { DetailList } from '../../../components/resource/detail-list';
import { useApi } from '../../../lib/use-api';
import { PAY_TONE, rechargeStatusLabel } from './ride-labels';

/**
 * 支付订单 (spec's order-detail): the payment order behind one ride, read from the server (the list
 * row does not carry the order number, channel or payment time). Esc or 关闭 closes it.
 */
export function RideOrderDialog({ id, onClose }: { id: number; onClose(): void }) {
  const order = useApi(ridership.recordOrder, { params: { id } });
  // keepPreviousData would show the last ride's order while this one loads.
  const o = order.data?.id === id ? order.data : undefined;
  return (
    <Modal
      open
      title={o ? `支付订单 · ${o.orderNo}` : '支付订单'}
      onClose={onClose}
      width="max-w-xl"
      footer={
        <Button onClick={onClose} hotkey="Esc" autoFocus>
          关闭
        </Button>
      }
    >
      {!o ? (
        <p role="status" className="text-sm text-gray-600">
          {order.error ? `加载失败：${order.error instanceof Error ? order.error.message : String(order.error)}` : '加载中…'}
        </p>
      ) : (
        <DetailList
          termWidth="5.5rem"
          items={[
            { term: '订单号', value: <span className="tabular-nums break-all">{o.orderNo}</span> },
            { term: '金额', value: `${fenToYuan(o.amount)} 元` },
            { term: '支付状态', value: <span className={`rounded px-1.5 py-0.5 text-xs ${PAY_TONE[o.payStatus] ?? ''}`}>{payStatusLabel(o.payStatus)}</span> },
            { term: '支付渠道', value: o.payChannel },
            { term: '支付时间', value: <span className="tabular-nums">{formatDateTime(o.paidDate) || '—'}</span> },
            { term: '充值状态', value: rechargeStatusLabel(o.rechargeStatus) },
            { term: '乘车时间', value: <span className="tabular-nums">{formatDateTime(o.rideDate)}</span> },
            { term: '线路', value: `${o.lineName}（${directionLabel(o.direction)}）` },
            { term: '车辆', value: o.busName },
            { term: '上车站点', value: o.stationName ?? '—' },
            // Following the link leaves the screen: the dialog closes first so it is not left open behind the card view.
            { term: '卡号', value: <span onClickCapture={onClose}><CardNoLink cardNo={o.cardNo} /></span> },
            { term: '卡类别', value: cardCategoryLabel(o.cardCategory) },
            { term: '票种', value: ticketTypeLabel(o.ticketType) },
          ]}
        />
      )}
    </Modal>
  );
}
