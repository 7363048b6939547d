import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { PACKAGE_ORDER_STATUS, PACKAGE_PAY_STATUS, PACKAGE_REFUNDER, packageOrderMsg, packageOrderPageByBody } from '../../../../shared/api/package-pay';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { DetailList } from '../../../components/resource/detail-list';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { useApi } from '../../../lib/use-api';
import { useOrderByNo } from '../../../lib/use-order-by-no';
import { PackageRefundDialog } from '../components/refund-dialog';
import { orderDetailPath, orderListPath } from '../paths';

const REFUND_STATE: Record<number, string> = { 0: '退款中', 1: '退款成功', 2: '退款异常' };
const at = (v: string | null) => (v ? formatDateTime(v) : '—');

/**
 * 套餐订单详情 (PackageOrderDetail, hidden; `?id=`): the order as sold (its snapshot), every ride it paid,
 * its refunds with the channel's answer. `r` opens the refund with the preview prefilled (also
 * `?action=refund`, the palette's 套餐退款), the reason, then Ctrl+Enter.
 */
export function PackageOrderDetailPage() {
  const [, navigate] = useLocation();
  const { id, byNo, looking } = useOrderByNo(packageOrderPageByBody, orderDetailPath);
  const detail = useApi(packageOrderMsg, id ? { query: { id } } : null);
  const o = detail.data?.id === id ? detail.data : undefined;
  const canRefund = useAllowed(PACKAGE_REFUNDER);
  const [refunding, setRefunding] = useState(false);
  const refundable = !!o && o.status === 1 && canRefund;
  useScreenAction(['packagePay', 'package-order-detail', 'refund'], () => setRefunding(true));
  // `r` on the page (not while typing, not over a dialog) opens the refund, as the list's row key does.
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
  if (looking)
    return (
      <ScreenSection title="套餐订单详情">
        <p role="status" className="text-sm text-gray-700">加载中…</p>
      </ScreenSection>
    );
  if (!id) return <ScreenSection title="套餐订单详情"><p className="text-sm text-gray-700">{byNo ? `未找到套餐订单 ${byNo}（仅能查询当前区域的订单）` : '地址中的订单编号无效。'}</p></ScreenSection>;
  if (!o)
    return (
      <ScreenSection title="套餐订单详情">
        <p role="status" className="text-sm text-gray-700">
          {detail.error ? (detail.error instanceof Error ? detail.error.message : '订单不存在') : '加载中…'}
        </p>
      </ScreenSection>
    );
  const s = o.snapshot;
  return (
    <ScreenSection title="套餐订单详情">
      <div className="space-y-4">
        <div className="rounded border border-gray-200 bg-white p-4">
          {/* At 375 px the buttons go under the title, each on one line (they broke per character). */}
          <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
            <h3 className="text-base font-medium text-gray-900">
              订单 <span className="tabular-nums">{o.orderNo}</span> <FlowBadge flow={PACKAGE_ORDER_STATUS} code={o.status} />
            </h3>
            <div className="flex shrink-0 gap-2 whitespace-nowrap">
              <Button onClick={() => navigate(orderListPath())}>返回列表</Button>
              {refundable && (
                <Button variant="primary" hotkey="r" onClick={() => setRefunding(true)}>
                  退款
                </Button>
              )}
            </div>
          </div>
          <DetailList
            items={[
              { term: '套餐', value: `${s.name}（${fenToYuan(s.price)} 元 ${s.rides} 次 ${s.validDays} 天）` },
              { term: '适用线路', value: s.lineScope ? s.lineScope.join('、') : '全部线路' },
              { term: '每日限乘', value: s.dailyLimit ? `${s.dailyLimit} 次` : '不限' },
              { term: '乘客手机', value: <span className="tabular-nums">{o.riderPhone ?? '—'}</span> },
              { term: '金额', value: <span className="tabular-nums">{fenToYuan(o.amount)} 元</span> },
              { term: '支付状态', value: <FlowBadge flow={PACKAGE_PAY_STATUS} code={o.payStatus} /> },
              { term: '已用 / 剩余', value: <span className="tabular-nums">{o.usedRides} 次 / {o.rides - o.usedRides} 次</span> },
              { term: '下单时间', value: at(o.createdDate) },
              { term: '生效时间', value: at(o.effectiveDate) },
              { term: '到期时间', value: at(o.expireDate) },
              { term: '退款金额', value: o.refundAmount ? `${fenToYuan(o.refundAmount)} 元（${at(o.refundedDate)}）` : '—' },
              { term: '协议版本', value: o.agreementVersion ? `第 ${o.agreementVersion} 版` : '—' },
            ]}
          />
        </div>
        <section aria-label="使用记录" className="rounded border border-gray-200 bg-white p-4">
          <h4 className="mb-2 text-sm font-medium text-gray-900">使用记录（{o.usages.length} 次）</h4>
          {o.usages.length === 0 ? (
            <p className="text-sm text-gray-600">尚未使用</p>
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-gray-600">
                  <th className="py-1">乘车时间</th>
                  <th>线路</th>
                  <th>车辆</th>
                  <th className="text-right">单程票价（元）</th>
                </tr>
              </thead>
              <tbody>
                {o.usages.map((u) => (
                  <tr key={u.id} className="border-t border-gray-100 tabular-nums">
                    <td className="py-1">{at(u.rideDate)}</td>
                    <td>{u.lineCode}</td>
                    <td>{u.busNo}</td>
                    <td className="text-right">{fenToYuan(u.singleFare)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section aria-label="退款记录" className="rounded border border-gray-200 bg-white p-4">
          <h4 className="mb-2 text-sm font-medium text-gray-900">退款记录</h4>
          {o.refunds.length === 0 ? (
            <p className="text-sm text-gray-600">无</p>
          ) : (
            <ul className="space-y-1 text-sm">
              {o.refunds.map((r) => (
                <li key={r.id} className="tabular-nums">
                  {at(r.createdDate)} 退款 {fenToYuan(r.amount)} 元 · {REFUND_STATE[r.state] ?? r.state}
                  {r.failReason ? `（${r.failReason}）` : ''} · {r.reason}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      {refunding && o.status === 1 && <PackageRefundDialog orderId={o.id} onClose={() => setRefunding(false)} onDone={() => setRefunding(false)} />}
    </ScreenSection>
  );
}
