import { useRef, useState } from 'react';
import { useLocation } from 'wouter';
import type { CardPackage, CardTopUp, CardWallet } from '../../../../shared/api/card';
import { PACKAGE_ORDER_STATUS, type PackageOrderStatus, packageOrderRefund } from '../../../../shared/api/package-pay';
import { RECHARGE_PAY_STATUS, WRITE_STATE, type WriteState, rechargeRequery } from '../../../../shared/api/recharge';
import { WALLET_STATUS, type WalletStatus, orderRefund } from '../../../../shared/api/wallet';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { pagePath } from '../../../../shared/modules';
import { Button } from '../../../components/button';
import { DetailList } from '../../../components/resource/detail-list';
import { FlowBadge } from '../../../components/resource/status-badge';
import { api as http } from '../../../lib/api-client';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { toast } from '../../../lib/toast';
import { CardTable } from './card-table';

/** The card view's answer, the parts this section reads. */
type View = { card: { cardNo: string }; wallet: CardWallet | null; packages: CardPackage[] | null; topUps: CardTopUp[] | null };

/** What the NFC充值 module's 补查 applies to: a write still open (写卡中) or 可疑. */
export const requeryable = (o: CardTopUp) => o.writeState === 1 || o.writeState === 4;
/** A package refund is for a live one (生效中), as the package module's own refund says. */
export const packageRefundable = (p: CardPackage) => p.status === 1;

/** The wallet's own refund page for one order: the 储值订单 list with its refund open (`?action=refund`). */
const walletRefundPath = (orderNo: string) => pagePath('rechargeable', 'recharge-order', { action: 'refund', query: { orderNo } });
/** The package module's own refund flow: 套餐订单详情 with its refund open. */
const packageRefundPath = (id: number) => pagePath('packagePay', 'package-order-detail', { action: 'refund', query: { id } });

/**
 * The card's money on 卡片详情 (issue 22): the holder's wallet and the orders a 储值退款 may take, the
 * holder's packages with the rides left, the card's NFC top-ups with their write state. A section is
 * there only when the answer carries it (the server sends null to an account that may not read the
 * module). Each action is the owning module's: the refunds open that module's own flow by address,
 * 补查 is the NFC module's call. The palette's card actions land here (`?action=walletRefund` …): one
 * order → its action at once; several → focus on the first one's button to choose; none → said so.
 */
export function CardMoney({ data, reload }: { data: View; reload(): void }) {
  const [, navigate] = useLocation();
  const canWalletRefund = useAllowed(orderRefund.permission);
  const canPackageRefund = useAllowed(packageOrderRefund.permission);
  const canRequery = useAllowed(rechargeRequery.permission);
  const root = useRef<HTMLDivElement>(null);
  const [querying, setQuerying] = useState<number | null>(null);
  const no = data.card.cardNo;

  const requery = (o: CardTopUp) => {
    setQuerying(o.id);
    http
      .call(rechargeRequery, { body: { id: o.id } })
      .then((r) => {
        (r.resolved ? toast.success : toast.info)(`补查 ${o.orderNo}：${r.message}`);
        reload();
      })
      // The refusal is in the toast.
      .catch(() => undefined)
      .finally(() => setQuerying(null));
  };

  /** A palette landing: refused, nothing to do, the one order's action, or focus among several. */
  function land<T>(o: { allowed: boolean; denied: string; items: T[] | null; none: string; act(x: T): void; kind: string; what: string }) {
    if (!o.allowed || o.items === null) return void toast.error(o.denied);
    if (o.items.length === 0) return void toast.info(o.none);
    if (o.items.length === 1) return o.act(o.items[0]!);
    toast.info(`有 ${o.items.length} 笔${o.what}，请选择一笔`);
    root.current?.querySelector<HTMLButtonElement>(`button[data-money="${o.kind}"]`)?.focus();
  }
  const refundableWallet = data.wallet?.refundable ?? null;
  const livePackages = data.packages?.filter(packageRefundable) ?? null;
  const openTopUps = data.topUps?.filter(requeryable) ?? null;
  useScreenAction(['busUser', 'card', 'walletRefund'], () =>
    land({ allowed: canWalletRefund, denied: '当前用户没有储值退款的权限', items: refundableWallet, none: `卡片 ${no} 的持卡人没有可退款的储值订单`, act: (o) => navigate(walletRefundPath(o.orderNo)), kind: 'wallet', what: '可退款的储值订单' }),
  );
  useScreenAction(['busUser', 'card', 'packageRefund'], () =>
    land({ allowed: canPackageRefund, denied: '当前用户没有套餐退款的权限', items: livePackages, none: `卡片 ${no} 的持卡人没有生效中的套餐`, act: (p) => navigate(packageRefundPath(p.id)), kind: 'package', what: '生效中的套餐' }),
  );
  useScreenAction(['busUser', 'card', 'requery'], () =>
    land({ allowed: canRequery, denied: '当前用户没有补查充值结果的权限', items: openTopUps, none: `卡片 ${no} 没有写卡中或可疑的充值订单，无需补查`, act: requery, kind: 'requery', what: '可补查的充值订单' }),
  );

  if (!data.wallet && !data.packages && !data.topUps) return null;
  return (
    <div ref={root} className="flex flex-col gap-4">
      {data.wallet && <WalletSection wallet={data.wallet} canRefund={canWalletRefund} onRefund={(o) => navigate(walletRefundPath(o.orderNo))} />}
      {data.packages && (
        <section aria-label="套餐" className="rounded border border-gray-200 bg-white p-3 text-sm">
          <h2 className="mb-2 font-medium text-gray-900">套餐</h2>
          {data.packages.length ? (
            <CardTable
              label="持卡人的套餐"
              head={['订单号', '套餐', '金额', '剩余次数', '状态', '到期时间', '']}
              rows={data.packages.map((p) => [
                <span key="no" className="tabular-nums">{p.orderNo}</span>,
                p.packageName,
                `${fenToYuan(p.amount)} 元`,
                <span key="left" className="tabular-nums">{`${p.remainingRides} / ${p.rides} 次`}</span>,
                <FlowBadge key="s" flow={PACKAGE_ORDER_STATUS} code={p.status as PackageOrderStatus} />,
                p.expireDate ? formatDateTime(p.expireDate, 'YYYY-MM-DD') : '—',
                canPackageRefund && packageRefundable(p) ? (
                  <Button key="refund" variant="text" data-money="package" onClick={() => navigate(packageRefundPath(p.id))} aria-label={`套餐退款 ${p.orderNo}`}>
                    套餐退款
                  </Button>
                ) : (
                  ''
                ),
              ])}
            />
          ) : (
            <p className="text-gray-700">持卡人近 90 天没有套餐。</p>
          )}
        </section>
      )}
      {data.topUps && (
        <section aria-label="NFC充值" className="rounded border border-gray-200 bg-white p-3 text-sm">
          <h2 className="mb-2 font-medium text-gray-900">NFC充值（最近 10 笔）</h2>
          {data.topUps.length ? (
            <CardTable
              label="NFC充值订单"
              head={['订单号', '金额', '支付状态', '圈存状态', '下单时间', '']}
              rows={data.topUps.map((o) => [
                <span key="no" className="tabular-nums">{o.orderNo}</span>,
                `${fenToYuan(o.amount)} 元`,
                RECHARGE_PAY_STATUS.label(o.payStatus as 0 | 1 | 2),
                <FlowBadge key="w" flow={WRITE_STATE} code={o.writeState as WriteState} />,
                <span key="t" className="tabular-nums">{formatDateTime(o.createdDate, 'YYYY-MM-DD HH:mm')}</span>,
                canRequery && requeryable(o) ? (
                  <Button key="requery" variant="text" data-money="requery" disabled={querying === o.id} onClick={() => requery(o)} aria-label={`补查 ${o.orderNo}`}>
                    {querying === o.id ? '补查中…' : '补查'}
                  </Button>
                ) : (
                  ''
                ),
              ])}
            />
          ) : (
            <p className="text-gray-700">这张卡没有NFC充值订单。</p>
          )}
        </section>
      )}
    </div>
  );
}

function WalletSection({ wallet, canRefund, onRefund }: { wallet: CardWallet; canRefund: boolean; onRefund(o: CardWallet['refundable'][number]): void }) {
  const w = wallet.account;
  return (
    <section aria-label="储值钱包" className="rounded border border-gray-200 bg-white p-3 text-sm">
      <h2 className="mb-2 font-medium text-gray-900">储值钱包（持卡人）</h2>
      {w ? (
        <>
          <DetailList
            layout="summary"
            items={[
              { term: '本金', value: <span className="tabular-nums">{fenToYuan(w.principal)} 元</span> },
              { term: '赠送', value: <span className="tabular-nums">{fenToYuan(w.gift)} 元</span> },
              { term: '钱包状态', value: <FlowBadge flow={WALLET_STATUS} code={w.status as WalletStatus} /> },
            ]}
          />
          {wallet.refundable.length ? (
            <div className="mt-2">
              <CardTable
                label="可退款的储值订单"
                head={['订单号', '充值金额', '赠送', '到账时间', '']}
                rows={wallet.refundable.map((o) => [
                  <span key="no" className="tabular-nums">{o.orderNo}</span>,
                  `${fenToYuan(o.payAmount)} 元`,
                  `${fenToYuan(o.giftAmount)} 元`,
                  <span key="t" className="tabular-nums">{o.paidDate ? formatDateTime(o.paidDate, 'YYYY-MM-DD HH:mm') : '—'}</span>,
                  canRefund ? (
                    <Button key="refund" variant="text" data-money="wallet" onClick={() => onRefund(o)} aria-label={`储值退款 ${o.orderNo}`}>
                      储值退款
                    </Button>
                  ) : (
                    ''
                  ),
                ])}
              />
            </div>
          ) : (
            <p className="mt-2 text-gray-700">没有可退款的储值订单。</p>
          )}
        </>
      ) : (
        <p className="text-gray-700">持卡人没有储值钱包。</p>
      )}
    </section>
  );
}
