import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { card, discount, family } from '../../../../shared/api';
import { CARD_NO, cardCategoryLabel, cardStateLabel, foreignCard, foreignCardMsg, payStatusLabel, ticketTypeLabel } from '../../../../shared/api/card';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { ScreenSection } from '../../../components/screen-section';
import { DetailList } from '../../../components/resource/detail-list';
import { useAllowed } from '../../../lib/permission';
import { useScreenLocation } from '../../../lib/screen-context';
import { useApi } from '../../../lib/use-api';
import { RefundDialog, RevealDialog, UnbindDialog } from '../../../business/desk/desk-dialogs';
import { useHandOff } from '../../../business/desk/lookup-handoff';
import { toast } from '../../../lib/toast';
import { cardViewPath } from '../../../business/desk/card-no-link';
import { useScreenAction } from '../../../lib/screen-action';
import { useRegistry } from '../../../commands/registry-context';
import { ApiError } from '../../../lib/errors';
import { useCurrentUser } from '../../../lib/current-user';
import { CardTable } from '../components/card-table';
import { CardMoney } from '../components/card-money';

type View = NonNullable<ReturnType<typeof useCardView>['data']>;
// Silent: the screen says itself why a card is not shown, with the way on (no toast on top).
const useCardView = (no: string | null) => useApi(card.cardView, no ? { body: { cardNo: no } } : null, undefined, { silent: true });

const STATE_TONE = (s: number) => (s === 1 ? 'bg-green-50 text-green-800' : s === 0 ? 'bg-gray-100 text-gray-700' : 'bg-orange-50 text-orange-800');

/**
 * 卡片详情 (CardView): everything about one card for the call centre — state and category, the
 * holder (masked; 查看实名 with a reason), who binds it as a family card (解绑 with the agent's
 * password), its discount orders (退款, once), the holder's wallet and packages and the card's NFC
 * top-ups for an account with those modules (CardMoney), its rides once they exist. Opened by card number in
 * the address, or by a phone / citizen id handed over in memory from the palette.
 */
export function CardViewPage() {
  const { search } = useScreenLocation();
  const [, navigate] = useLocation();
  const no = new URLSearchParams(search).get('no');
  const handed = useHandOff();
  const q = no ? null : (handed?.q ?? null);
  const found = useApi(card.cardLookup, q ? { body: { q } } : null);
  const view = useCardView(no && CARD_NO.test(no) ? no : null);
  // One card found: straight to it (its number may sit in the address; the phone or id never does).
  const only = found.data?.cards.length === 1 ? found.data.cards[0]!.cardNo : null;
  useEffect(() => {
    if (only && !no) navigate(cardViewPath(only, handed?.then), { replace: true });
  }, [only, no, navigate, handed]);
  // SWR keeps the previous card's answer while the next one loads: never show (or act on) it as this one.
  const data = view.data?.card.cardNo === no ? view.data : null;
  if (data) return <CardView key={data.card.cardNo} data={data} reload={() => void view.mutate()} />;
  if (no && view.error && !view.isLoading) return <CardRefused error={view.error} />;
  if (no) return <ScreenSection title="卡片详情"><p className="text-sm text-gray-700">加载中…</p></ScreenSection>;
  if (!q) return <ScreenSection title="卡片详情"><p className="text-sm text-gray-700">按 Ctrl+K，输入卡号、身份证号或手机号查询卡片。</p></ScreenSection>;
  const cards = found.data?.cards ?? [];
  return (
    <ScreenSection title="卡片详情">
      {!found.data ? (
        <p className="text-sm text-gray-600">查询中…</p>
      ) : cards.length === 0 ? (
        <p className="text-sm text-gray-700">{found.data.riders.length ? '该乘客名下没有卡片。' : '没有找到对应的卡片或乘客。'}</p>
      ) : (
        <ul aria-label="查到的卡片" className="flex max-w-2xl flex-col divide-y divide-gray-100 rounded border border-gray-200 bg-white">
          {cards.map((c) => (
            <li key={c.id}>
              <button type="button" className="flex w-full items-center gap-3 px-3 py-2 text-left text-sm hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-[var(--theme)]" onClick={() => navigate(cardViewPath(c.cardNo, handed?.then))}>
                <span className="tabular-nums font-medium">{c.cardNo}</span>
                <span className="text-gray-700">{cardCategoryLabel(c.category)}</span>
                <span className={`rounded px-1.5 py-0.5 text-xs ${STATE_TONE(c.state)}`}>{cardStateLabel(c.state)}</span>
                {c.holder && <span className="text-gray-700">{c.holder.name ?? '未实名'} {c.holder.phone}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </ScreenSection>
  );
}

/**
 * A card that cannot be shown: another district's says which (the server names the district and
 * nothing else of the card), an unknown one says so; either way the agent has a way on from the
 * keyboard: back where they came from, the palette again, or (an account that may switch area)
 * that card's district.
 */
function CardRefused({ error }: { error: unknown }) {
  const { ctx } = useRegistry();
  const me = useCurrentUser();
  const [, navigate] = useLocation();
  const parsed = error instanceof ApiError && error.code === 403 ? foreignCard.safeParse(error.data) : null;
  const foreign = parsed?.success ? parsed.data : null;
  const msg = foreign ? foreignCardMsg(foreign.districtName) : error instanceof Error && error.message ? error.message : '卡片不存在';
  // A console page opened from another one goes back to it; a card opened first in its tab, home.
  const back = () => (window.history.length > 1 ? window.history.back() : navigate('/'));
  return (
    <ScreenSection title="卡片详情">
      <div role="alert" className="max-w-2xl rounded border border-orange-200 bg-orange-50 px-3 py-2 text-sm text-orange-800">
        {msg}
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button onClick={back}>返回上一页</Button>
        <Button variant="primary" hotkey="Ctrl+K" onClick={() => ctx?.shell('palette')}>
          重新查询
        </Button>
        {foreign?.districtId != null && me.data?.openDistrict && (
          <Button onClick={() => ctx?.setDistrict(String(foreign.districtId))}>切换到{foreign.districtName ?? '该区域'}</Button>
        )}
      </div>
    </ScreenSection>
  );
}

function CardView({ data, reload }: { data: View; reload(): void }) {
  const canReveal = useAllowed(card.riderReveal.permission);
  const canUnbind = useAllowed(family.unBind.permission);
  const canRefund = useAllowed(discount.discountOrderRefund.permission);
  const [revealing, setRevealing] = useState<number | null>(null);
  const [unbinding, setUnbinding] = useState(false);
  const [refunding, setRefunding] = useState<View['orders'][number] | null>(null);
  const c = data.card;
  const live = data.bindings.some((b) => b.status === 1);
  // The palette's 查看实名信息 lands here with `?action=reveal`, once this card's answer is in.
  useScreenAction(['busUser', 'card', 'reveal'], () => {
    if (!canReveal) toast.error('当前用户没有查看实名信息的权限');
    else if (!data.holder) toast.info('不记名卡，没有持卡人信息');
    else setRevealing(data.holder.id);
  });
  // 解绑亲情卡 under the card in the palette lands here with `?action=unbind`.
  useScreenAction(['busUser', 'card', 'unbind'], () => {
    if (!canUnbind) toast.error('当前用户没有解绑亲情卡的权限');
    else if (!live) toast.info(`卡片 ${c.cardNo} 没有绑定中的亲情卡，无需解绑`);
    else setUnbinding(true);
  });
  return (
    <ScreenSection title={`卡片详情 · ${c.cardNo}`}>
      <div className="flex flex-col gap-4">
        <section aria-label="卡片" className="rounded border border-gray-200 bg-white p-3 text-sm">
          <DetailList
            layout="summary"
            items={[
              { term: '卡号', value: <span className="tabular-nums">{c.cardNo}</span> },
              { term: '状态', value: <span className={`rounded px-1.5 py-0.5 text-xs ${STATE_TONE(c.state)}`}>{cardStateLabel(c.state)}</span> },
              { term: '类别', value: cardCategoryLabel(c.category) },
              // 卡内: the card's own (NFC 圈存) money, told apart from the holder's 储值 wallet below.
              { term: '卡内余额', value: `${fenToYuan(c.balance)} 元` },
              { term: '区域', value: data.districtName ?? '—' },
              { term: '发卡时间', value: formatDateTime(c.issuedDate, 'YYYY-MM-DD') },
            ]}
          />
        </section>
        <section aria-label="持卡人" className="rounded border border-gray-200 bg-white p-3 text-sm">
          <h2 className="mb-2 font-medium text-gray-900">持卡人</h2>
          {data.holder ? (
            <div className="flex flex-wrap items-center gap-x-6 gap-y-1">
              <span>{data.holder.name ?? '未实名'}</span>
              <span className="tabular-nums">{data.holder.phone}</span>
              <span className="tabular-nums">{data.holder.citizenId ?? '—'}</span>
              <span className="text-gray-700">{data.holder.realName ? '已实名' : '未实名'}{data.holder.state ? '' : ` · 异常：${data.holder.abnormalReason ?? ''}`}</span>
              {canReveal && (
                <Button variant="text" onClick={() => setRevealing(data.holder!.id)}>
                  查看实名信息
                </Button>
              )}
            </div>
          ) : (
            <p className="text-gray-700">不记名卡，没有持卡人信息。</p>
          )}
        </section>
        <section aria-label="亲情卡绑定" className="rounded border border-gray-200 bg-white p-3 text-sm">
          <h2 className="mb-2 flex items-center gap-2 font-medium text-gray-900">
            亲情卡绑定
            {canUnbind && live && (
              <Button variant="text" className="ml-auto" onClick={() => setUnbinding(true)}>
                解绑
              </Button>
            )}
          </h2>
          {data.bindings.length ? (
            <CardTable
              label="亲情卡绑定"
              head={['关系', '绑定人', '状态', '绑定时间', '到期时间', '续期']}
              rows={data.bindings.map((b) => [b.relation, `${b.holder.name ?? '未实名'} ${b.holder.phone} ${b.holder.citizenId ?? ''}`, b.status ? '已绑定' : `已解绑 ${b.unboundDate ? formatDateTime(b.unboundDate, 'YYYY-MM-DD') : ''}`, formatDateTime(b.boundDate, 'YYYY-MM-DD'), formatDateTime(b.expiresDate, 'YYYY-MM-DD'), `${b.renewals} 次`])}
            />
          ) : (
            <p className="text-gray-700">这张卡没有亲情卡绑定。</p>
          )}
        </section>
        <section aria-label="优惠卡订单" className="rounded border border-gray-200 bg-white p-3 text-sm">
          <h2 className="mb-2 font-medium text-gray-900">优惠卡订单（最近 20 笔）</h2>
          {data.orders.length ? (
            <CardTable
              label="优惠卡订单"
              head={['订单号', '产品', '金额', '状态', '下单时间', '']}
              rows={data.orders.map((o) => [
                <span key="no" className="tabular-nums">{o.orderNo}</span>,
                `${o.productName}（${ticketTypeLabel(o.ticketType)}）`,
                `${fenToYuan(o.amount)} 元`,
                payStatusLabel(o.payStatus),
                formatDateTime(o.createdDate, 'YYYY-MM-DD HH:mm'),
                canRefund && o.payStatus === 1 ? (
                  <Button key="refund" variant="text" onClick={() => setRefunding(o)} aria-label={`退款 ${o.orderNo}`}>
                    退款
                  </Button>
                ) : (
                  ''
                ),
              ])}
            />
          ) : (
            <p className="text-gray-700">这张卡没有优惠卡订单。</p>
          )}
        </section>
        <CardMoney data={data} reload={reload} />
        <section aria-label="乘车记录" className="rounded border border-gray-200 bg-white p-3 text-sm">
          <h2 className="mb-2 font-medium text-gray-900">乘车记录（最近 {data.rides.length || 10} 次）</h2>
          {data.rides.length ? (
            <CardTable
              label="最近乘车记录"
              head={['时间', '线路', '车辆', '站点', '票种', '金额', '支付']}
              rows={data.rides.map((r) => [
                <span key="t" className="tabular-nums">{formatDateTime(r.rideDate, 'YYYY-MM-DD HH:mm')}</span>,
                r.lineName,
                r.busName,
                r.stationName ?? '—',
                ticketTypeLabel(r.ticketType),
                `${fenToYuan(r.amount)} 元`,
                payStatusLabel(r.payStatus),
              ])}
            />
          ) : (
            <p className="text-gray-700">这张卡没有乘车记录。</p>
          )}
        </section>
      </div>
      {revealing !== null && <RevealDialog riderId={revealing} onClose={() => setRevealing(null)} />}
      {unbinding && <UnbindDialog cardNo={c.cardNo} onClose={() => setUnbinding(false)} onDone={() => (setUnbinding(false), reload())} />}
      {refunding && (
        // The card's orders are its holder's (the answer masked them already).
        <RefundDialog
          order={{ ...refunding, cardNo: c.cardNo, riderName: data.holder?.name, riderPhone: data.holder?.phone ?? null }}
          onClose={() => setRefunding(null)}
          onDone={() => (setRefunding(null), reload())}
        />
      )}
    </ScreenSection>
  );
}
