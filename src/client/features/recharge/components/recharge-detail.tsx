import { useEffect, useRef } from 'react';
import * as api from '../../../../shared/api/recharge';
import { PAY_CHANNELS, RECHARGE_PAY_STATUS, type RechargeOrder, WRITE_STATE } from '../../../../shared/api/recharge';
import { cardCategoryLabel } from '../../../../shared/api/card';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { Modal } from '../../../components/modal';
import { DetailList } from '../../../components/resource/detail-list';
import { FlowBadge } from '../../../components/resource/status-badge';
import { useAllowed } from '../../../lib/permission';
import { useCurrentUser } from '../../../lib/current-user';
import { useApi } from '../../../lib/use-api';

const STEP: Record<string, string> = { pay: '支付', start: '开始写卡', confirm: '写卡确认', fail: '写卡失败', suspect: '超时转可疑', requery: '补查', resolve: '人工核实', refund: '退款', reconcile: '日对账' };
const REFUND_STATE: Record<number, string> = { 0: '退款中', 1: '退款成功', 2: '退款异常' };
const yuan = (fen: number | null) => (fen === null ? '—' : `${fenToYuan(fen)} 元`);
const time = (at: string | null) => (at ? formatDateTime(at) : '—');


/**
 * 充值订单详情 (the drawer): the order, and side by side what the phone reported (the attempts) and
 * what the card centre recorded of the load, the only ground for 核实. On a 可疑 order `y` and `n`
 * open 核实已到账 / 核实未到账 (the keyboard task), `b` asks the centre again (补查).
 */
export function RechargeDetail({
  id,
  position,
  onClose,
  onResolve,
  onRequery,
  onRefund,
}: {
  id: number;
  /** `3 / 58` in the 可疑 queue. */
  position?: string;
  onClose(): void;
  onResolve(order: RechargeOrder, toState: 2 | 3, centreTxnNo: string | null): void;
  onRequery(order: RechargeOrder): void;
  onRefund(order: RechargeOrder): void;
}) {
  const msg = useApi(api.rechargeMsg, { query: { id } });
  const canResolve = useAllowed(api.RECHARGE_RESOLVER);
  const canRefund = useAllowed(api.RECHARGE_REFUNDER);
  const o = msg.data?.id === id ? msg.data : undefined;
  const suspect = !!o && o.writeState === 4 && canResolve;
  const me = useCurrentUser().data?.aId;
  // Not to the person who marked it 未到账: the refund is a second person's (the server refuses it too).
  const refundable = !!o && api.refundableBy(o, me) && canRefund;
  const requeryable = !!o && (o.writeState === 1 || o.writeState === 4) && canResolve;
  // The drawer's keys wherever focus is in it (its footer buttons are outside its body), not in a field.
  const onKey = useRef<(e: KeyboardEvent) => void>(() => undefined);
  onKey.current = (e: KeyboardEvent) => {
    if (!o || e.ctrlKey || e.metaKey || e.altKey || (e.target as HTMLElement | null)?.closest?.('input, textarea, select')) return;
    const k = e.key.toLowerCase();
    if (suspect && (k === 'y' || k === 'n')) {
      e.preventDefault();
      onResolve(o, k === 'y' ? 2 : 3, o.centre?.centreTxnNo ?? null);
    } else if (requeryable && k === 'b') {
      e.preventDefault();
      onRequery(o);
    }
  };
  useEffect(() => {
    const listen = (e: KeyboardEvent) => onKey.current(e);
    window.addEventListener('keydown', listen);
    return () => window.removeEventListener('keydown', listen);
  }, []);
  return (
    <Modal
      open
      title={o ? `充值订单详情 · ${o.orderNo}${position ? `（可疑 ${position}）` : ''}` : '充值订单详情'}
      onClose={onClose}
      width="max-w-4xl"
      footer={
        <>
          <Button onClick={onClose} hotkey="Esc" autoFocus={!suspect}>
            关闭
          </Button>
          {requeryable && (
            <Button onClick={() => onRequery(o)} hotkey="B">
              补查
            </Button>
          )}
          {suspect && (
            <>
              <Button variant="primary" autoFocus onClick={() => onResolve(o, 2, o.centre?.centreTxnNo ?? null)} hotkey="Y">
                核实已到账
              </Button>
              <Button onClick={() => onResolve(o, 3, null)} hotkey="N">
                核实未到账
              </Button>
            </>
          )}
          {refundable && (
            <Button variant="danger" onClick={() => onRefund(o)}>
              退款 {fenToYuan(o.amount)} 元
            </Button>
          )}
        </>
      }
    >
      <div>
        {!o ? (
          <p role="status" className="text-sm text-gray-600">
            {msg.error ? `加载失败：${msg.error instanceof Error ? msg.error.message : String(msg.error)}` : '加载中…'}
          </p>
        ) : (
          <>
            <DetailList
              items={[
                { term: '订单号', value: <span className="tabular-nums">{o.orderNo}</span> },
                { term: '圈存状态', value: <FlowBadge flow={WRITE_STATE} code={o.writeState} /> },
                { term: '支付状态', value: <FlowBadge flow={RECHARGE_PAY_STATUS} code={o.payStatus} /> },
                { term: '金额', value: yuan(o.amount) },
                { term: '卡号', value: <span className="tabular-nums">{o.cardNo}</span> },
                { term: '卡内号', value: <span className="tabular-nums">{o.cardInnerNo}</span> },
                { term: '卡类别', value: cardCategoryLabel(o.cardCategory) },
                { term: '乘客', value: <span className="tabular-nums">{o.riderPhone ?? '—'}</span> },
                { term: '区域', value: o.districtName ?? '—' },
                { term: '支付渠道', value: PAY_CHANNELS[o.payChannel] ?? String(o.payChannel) },
                { term: '手机型号', value: o.deviceModel ?? '—' },
                { term: '下单时间', value: time(o.createdDate) },
                !!o.failReason && { term: '失败原因', value: o.failReason },
                !!o.resolvedDate && { term: '核实', value: `${o.resolvedByName ?? '系统'} · ${time(o.resolvedDate)} · ${o.resolutionNote ?? ''}` },
              ]}
            />
            <div className="mt-4 grid gap-3 md:grid-cols-2">
              <section aria-label="写卡记录" className="rounded border border-gray-200 p-3 text-sm">
                <h3 className="mb-2 font-medium text-gray-800">写卡记录（手机上报）</h3>
                <ol className="space-y-1">
                  {o.attempts.map((a, i) => (
                    <li key={i} className="flex gap-2">
                      <span className="shrink-0 whitespace-nowrap tabular-nums text-gray-500">{formatDateTime(a.at, 'MM-DD HH:mm:ss')}</span>
                      <span className={`shrink-0 whitespace-nowrap ${a.result ? 'text-green-700' : 'text-red-700'}`}>{STEP[a.step] ?? a.step}</span>
                      {a.detail && <span className="text-gray-600">{a.detail}</span>}
                    </li>
                  ))}
                  {!o.attempts.length && <li className="text-gray-500">暂无</li>}
                </ol>
                <DetailList
                  termWidth="5rem"
                  items={[
                    { term: '交易序号', value: o.txnSeq ?? '—' },
                    { term: 'TAC', value: o.tac ?? '—' },
                    { term: '充值前余额', value: yuan(o.befBal) },
                    { term: '开始写卡', value: time(o.writeStartedDate) },
                  ]}
                />
              </section>
              <section aria-label="卡中心记录" className={`rounded border p-3 text-sm ${o.centre ? 'border-green-300 bg-green-50' : 'border-orange-300 bg-orange-50'}`}>
                <h3 className="mb-2 font-medium text-gray-800">卡中心记录</h3>
                {o.centre ? (
                  <DetailList
                    termWidth="5rem"
                    items={[
                      { term: '卡中心流水', value: <span className="tabular-nums">{o.centre.centreTxnNo}</span> },
                      { term: '交易序号', value: o.centre.txnSeq },
                      { term: 'TAC', value: o.centre.tac },
                      { term: '圈存金额', value: yuan(o.centre.amount) },
                      { term: '余额', value: `${fenToYuan(o.centre.befBal)} → ${fenToYuan(o.centre.aftBal)} 元` },
                      { term: '圈存时间', value: time(o.centre.loadedAt) },
                      { term: '清算日', value: o.centre.settleDay },
                    ]}
                  />
                ) : (
                  <p className="text-orange-900">卡中心无此笔圈存记录{o.notLoadedFrom ? `；${formatDateTime(o.notLoadedFrom, 'HH:mm')} 后方可核实未到账` : ''}</p>
                )}
              </section>
            </div>
            {o.refunds.length > 0 && (
              <section aria-label="退款信息" className="mt-4 rounded border border-orange-200 bg-orange-50 p-3 text-sm">
                <h3 className="mb-2 font-medium text-orange-900">退款信息</h3>
                {o.refunds.map((r) => (
                  <DetailList
                    key={r.id}
                    items={[
                      { term: '退款金额', value: yuan(r.amount) },
                      { term: '退款状态', value: REFUND_STATE[r.state] ?? String(r.state) },
                      { term: '退款原因', value: r.reason },
                      { term: '办理人', value: r.operatorName ?? '—' },
                      { term: '办理时间', value: time(r.createdDate) },
                    ]}
                  />
                ))}
              </section>
            )}
            {suspect && <p className="mt-3 text-xs text-gray-600">按 Y 核实已到账，N 核实未到账，B 补查；以卡中心记录为准。</p>}
          </>
        )}
      </div>
    </Modal>
  );
}
