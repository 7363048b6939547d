import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { CUSTOM_CHECKER, CUSTOM_REFUNDER } from '../../../../shared/api/custom-bus/buttons';
import { customOrderMsg, customOrderPageByBody, customTicketCheck } from '../../../../shared/api/custom-bus/orders';
import { CLASSES_STATUS, ORDER_STATUS, TICKET_STATE, TICKET_TYPE } from '../../../../shared/api/custom-bus/states';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { DetailList } from '../../../components/resource/detail-list';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { api } from '../../../lib/api-client';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { useScreenLocation } from '../../../lib/screen-context';
import { toast } from '../../../lib/toast';
import { useApi } from '../../../lib/use-api';
import { useOrderByNo } from '../../../lib/use-order-by-no';
import { TicketRefundDialog } from '../components/ticket-refund-dialog';
import { customOrderDetailPath, customOrderListPath } from '../order-paths';

const REFUND_STATE: Record<number, string> = { 0: '退款中', 1: '退款成功', 2: '退款异常' };
const PAY_STATUS: Record<number, string> = { 0: '未支付', 1: '已支付', 2: '已退款' };
const at = (v: string | null) => (v ? formatDateTime(v) : '—');
const band = (r: { fromMin: number; toMin: number | null }) => (r.toMin === null ? `距发车 ≥ ${r.fromMin} 分钟` : `距发车 ${r.fromMin}–${r.toMin} 分钟`);

/**
 * 订单详情 (OrderDetail, hidden; `?id=` or `?orderNo=`): the order, its tickets with their states, checks
 * and what each would refund now, the refunds with the channel's answer, and the ladder it was sold
 * under (a later ladder never changes it). `r` opens 退票 (also `?action=refund`, the palette's
 * 定制退票); 验票 per ticket for those who hold the key.
 */
export function CustomOrderDetailPage() {
  const { search } = useScreenLocation();
  const [, navigate] = useLocation();
  const { id, byNo, looking } = useOrderByNo(customOrderPageByBody, (found) => customOrderDetailPath(found, /action=refund/.test(search)));
  const detail = useApi(customOrderMsg, id ? { query: { id } } : null);
  const o = detail.data?.id === id ? detail.data : undefined;
  const canRefund = useAllowed(CUSTOM_REFUNDER);
  const canCheck = useAllowed(CUSTOM_CHECKER);
  const [refunding, setRefunding] = useState(false);
  const refundable = !!o && (o.status === 1 || o.status === 3) && canRefund;
  useScreenAction(['customBus', 'order-detail', 'refund'], () => setRefunding(true));
  // `r` on the page (not while typing, not over a dialog) opens 退票, as the list's row key does.
  useEffect(() => {
    if (!refundable || refunding) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'r' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      const el = e.target as HTMLElement | null;
      if (el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || el.closest('[role="dialog"]'))) return;
      e.preventDefault();
      setRefunding(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [refundable, refunding]);
  const check = (ticketNo: string) =>
    api
      .call(customTicketCheck, { body: { ticketNo } })
      .then(() => {
        toast.success(`车票 ${ticketNo} 验票成功`);
        void detail.mutate();
      })
      .catch(() => undefined);
  if (looking)
    return (
      <ScreenSection title="订单详情">
        <p role="status" className="text-sm text-gray-700">加载中…</p>
      </ScreenSection>
    );
  if (!id)
    return (
      <ScreenSection title="订单详情">
        <p className="text-sm text-gray-700">{byNo ? `未找到定制订单 ${byNo}（仅能查询当前区域的订单）` : '地址中的订单编号无效。'}</p>
      </ScreenSection>
    );
  if (!o)
    return (
      <ScreenSection title="订单详情">
        <p role="status" className="text-sm text-gray-700">
          {detail.error ? (detail.error instanceof Error ? detail.error.message : '订单不存在') : '加载中…'}
        </p>
      </ScreenSection>
    );
  return (
    <ScreenSection title="订单详情">
      <div className="space-y-4">
        <div className="rounded border border-gray-200 bg-white p-4">
          <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
            <h3 className="text-base font-medium text-gray-900">
              订单 <span className="tabular-nums">{o.orderNo}</span> <FlowBadge flow={ORDER_STATUS} code={o.status} />
            </h3>
            <div className="flex shrink-0 gap-2 whitespace-nowrap">
              <Button onClick={() => navigate(customOrderListPath())}>返回列表</Button>
              {refundable && (
                <Button variant="primary" hotkey="r" onClick={() => setRefunding(true)}>
                  退票
                </Button>
              )}
            </div>
          </div>
          <DetailList
            items={[
              { term: '线路', value: `${o.lineNo} ${o.lineName}` },
              { term: '票种', value: o.ticketType === 2 ? `${TICKET_TYPE[2]}（${o.month}）` : `${TICKET_TYPE[1]}（${o.departDateTime ? formatDateTime(o.departDateTime, 'YYYY-MM-DD HH:mm') : '—'}）` },
              { term: '乘客手机', value: <span className="tabular-nums">{o.riderPhone ?? '—'}</span> },
              { term: '座位数', value: <span className="tabular-nums">{o.seats}</span> },
              { term: '金额', value: <span className="tabular-nums">{fenToYuan(o.amount)} 元</span> },
              { term: '支付状态', value: PAY_STATUS[o.payStatus] ?? String(o.payStatus) },
              { term: '已退金额', value: <span className="tabular-nums">{o.refundedAmount ? `${fenToYuan(o.refundedAmount)} 元` : '—'}</span> },
              { term: '下单时间', value: at(o.createdDate) },
              { term: '支付时间', value: at(o.paidDate) },
              { term: '协议版本', value: o.agreementVersion ? `第 ${o.agreementVersion} 版` : '—' },
            ]}
          />
        </div>
        <section aria-label="车票" className="overflow-x-auto rounded border border-gray-200 bg-white p-4">
          <h4 className="mb-2 text-sm font-medium text-gray-900">车票（{o.tickets.length} 张）</h4>
          <table className="w-full min-w-[40rem] text-sm">
            <thead>
              <tr className="text-left text-gray-600">
                <th className="py-1 pr-3">票号</th>
                <th className="pr-3">班次</th>
                <th className="pr-3">状态</th>
                <th className="pr-3 text-right">金额（元）</th>
                <th className="pr-3">验票</th>
                <th className="pr-3">现在退票</th>
                <th className="pr-3" />
              </tr>
            </thead>
            <tbody>
              {o.tickets.map((x) => (
                <tr key={x.id} className="border-t border-gray-100 tabular-nums">
                  <td className="py-1 pr-3">{x.ticketNo}</td>
                  <td className="pr-3">
                    {formatDateTime(x.departDateTime, 'YYYY-MM-DD HH:mm')} {x.classesStatus === 4 && <FlowBadge flow={CLASSES_STATUS} code={x.classesStatus} />}
                  </td>
                  <td className="pr-3">
                    <FlowBadge flow={TICKET_STATE} code={x.state} />
                  </td>
                  <td className="pr-3 text-right">{fenToYuan(x.amount)}{x.refundedAmount ? `（退 ${fenToYuan(x.refundedAmount)}）` : ''}</td>
                  <td className="pr-3">{x.checkedDate ? `${at(x.checkedDate)}${x.checkPlateNo ? ` ${x.checkPlateNo}` : ''}${x.checkMethod === 2 ? ' 人工' : x.checkMethod === 1 ? ' 扫码' : ''}` : '—'}</td>
                  <td className="pr-3">{x.quote.refusal ? <span className="text-gray-500">{x.quote.refusal.replace(/（.*$/, '')}</span> : `退 ${fenToYuan(x.quote.refund)} 元${x.quote.fee ? `（手续费 ${fenToYuan(x.quote.fee)}）` : ''}`}</td>
                  <td className="pr-3">
                    {canCheck && x.state === 1 && x.classesStatus !== 4 && (
                      <Button onClick={() => void check(x.ticketNo)} aria-label={`验票 ${x.ticketNo}`}>
                        验票
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section aria-label="退款规则" className="rounded border border-gray-200 bg-white p-4">
          <h4 className="mb-2 text-sm font-medium text-gray-900">退款规则（下单时生效的版本{o.ruleVersionId ? ` #${o.ruleVersionId}` : '，默认规则'}）</h4>
          <ul className="space-y-1 text-sm">
            {o.ladder.map((r) => (
              <li key={r.fromMin} className="tabular-nums">
                {band(r)}：{r.refundable ? (r.feeRate ? `收取 ${r.feeRate / 10}% 手续费${r.minFee ? `（最低 ${fenToYuan(r.minFee)} 元）` : ''}` : '免费退票') : '不可退票'}
              </li>
            ))}
          </ul>
        </section>
        <section aria-label="退款记录" className="rounded border border-gray-200 bg-white p-4">
          <h4 className="mb-2 text-sm font-medium text-gray-900">退款记录</h4>
          {o.refunds.length === 0 ? (
            <p className="text-sm text-gray-600">无</p>
          ) : (
            <ul className="space-y-1 text-sm">
              {o.refunds.map((r) => (
                <li key={r.id} className="tabular-nums">
                  {at(r.createdDate)} {o.tickets.find((x) => x.id === r.ticketId)?.ticketNo ?? '整单'} 退款 {fenToYuan(r.amount)} 元 · {REFUND_STATE[r.state] ?? r.state}
                  {r.failReason ? `（${r.failReason}）` : ''} · {r.reason}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      {refunding && refundable && (
        <TicketRefundDialog
          order={o}
          onClose={() => setRefunding(false)}
          onDone={() => {
            setRefunding(false);
            void detail.mutate();
          }}
        />
      )}
    </ScreenSection>
  );
}
