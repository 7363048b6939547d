import { useMemo, useRef, useState } from 'react';
import { type customOrderMsg, customOrderRefund } from '../../../../shared/api/custom-bus/orders';
import { TICKET_STATE } from '../../../../shared/api/custom-bus/states';
import type { ResponseOf } from '../../../../shared/api/endpoint';
import { fenToYuan, yuanToFen } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Field } from '../../../components/field';
import { CheckboxField, FormError } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { useContractForm } from '../../../lib/use-contract-form';

type Order = ResponseOf<typeof customOrderMsg>;
type Ticket = Order['tickets'][number];

/** A ticket the operator may refund now: paid and not departed (the ladder's band may still need 免手续费). */
const open = (x: Ticket) => x.state === 1 && x.classesStatus !== 4 && !/已发车/.test(x.quote.refusal ?? '');
/** What refunding `x` gives now: the ladder's quote, or the whole ticket with the fee waived. */
const refundOf = (x: Ticket, waive: boolean) => (waive ? x.amount - x.refundedAmount : x.quote.refusal ? 0 : x.quote.refund);

/**
 * 定制退票: the order's paid tickets, each with what it refunds now by the ladder the order was sold
 * under; 免手续费 refunds in full. As with every money decision the operator retypes the total in
 * yuan (first, where the dialog opens: the total is what the rider is told), and the server refunds
 * only that; the reason follows. The key is made when the dialog opens, so a retry (a lost
 * answer, a double press) is the same refund. Enter submits; Esc closes.
 */
export function TicketRefundDialog({ order, onClose, onDone }: { order: Order; onClose(): void; onDone(): void }) {
  const [key] = useState(() => crypto.randomUUID());
  const candidates = order.tickets.filter(open);
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(candidates.filter((x) => !x.quote.refusal).slice(0, 1).map((x) => x.ticketNo)));
  const [waive, setWaive] = useState(false);
  const reasonRef = useRef<HTMLInputElement>(null);
  const [typedError, setTypedError] = useState<string | null>(null);
  const picked = candidates.filter((x) => chosen.has(x.ticketNo));
  const blocked = waive ? null : (picked.find((x) => x.quote.refusal)?.quote.refusal ?? null);
  const total = useMemo(() => picked.reduce((s, x) => s + refundOf(x, waive), 0), [picked, waive]);
  const form = useContractForm(customOrderRefund, {
    initial: { amount: '', reason: '' },
    toInput: (v) => ({ body: { id: order.id, ticketNos: picked.map((x) => x.ticketNo), waiveFee: waive, amount: yuanToFen(v.amount) ?? -1, reason: v.reason, idempotencyKey: key } }),
    success: (r) => `订单 ${r.order.orderNo} 已退票 ${r.refund.rows.length} 张，退款 ${fenToYuan(r.refund.amount)} 元${r.replayed ? '（此前已办理）' : ''}${r.refund.rows.some((x) => x.state === 2) ? '，支付渠道退款异常，稍后自动重试' : ''}`,
    onSaved: onDone,
  });
  const { values, errors, set } = form;
  const toggle = (no: string) => setChosen((s) => (s.has(no) ? new Set([...s].filter((x) => x !== no)) : new Set([...s, no])));
  const submit = () => {
    const fen = yuanToFen(values.amount);
    const problem = !picked.length ? '请选择要退的车票' : blocked ? blocked : fen === null ? '请再次输入退款金额（元）以确认' : fen !== total ? `退款金额应为 ${fenToYuan(total)} 元` : null;
    setTypedError(problem);
    if (!problem) void form.submit();
  };
  if (!candidates.length)
    return (
      <Modal open title={`定制退票 · ${order.orderNo}`} onClose={onClose}>
        <p role="alert" className="rounded bg-orange-50 px-3 py-2 text-sm text-orange-800">
          该订单没有可退的车票（已核销、已退票、未支付或班次已发车）。
        </p>
      </Modal>
    );
  return (
    <Modal open width="max-w-2xl" title={`定制退票 · ${order.orderNo}`} onClose={onClose} dirty={form.dirty || !!values.reason} onSubmit={submit} footer={<ModalActions onCancel={onClose} busy={form.busy} submitLabel={`退票 ${fenToYuan(total)} 元`} />}>
      <FormError>{errors[''] ?? (typedError && !/金额/.test(typedError) ? typedError : null)}</FormError>
      <fieldset className="mb-4">
        <legend className="mb-1 text-sm font-medium text-gray-800">选择车票（按下单时的退款规则计算）</legend>
        <ul className="max-h-64 space-y-1 overflow-auto rounded border border-gray-200 p-2">
          {candidates.map((x) => (
            <li key={x.ticketNo}>
              <label className="flex flex-wrap items-center gap-2 text-sm tabular-nums">
                <input type="checkbox" className="size-4 accent-[var(--theme)]" checked={chosen.has(x.ticketNo)} onChange={() => toggle(x.ticketNo)} aria-label={`车票 ${x.ticketNo}`} />
                <span className="font-medium">{x.ticketNo}</span>
                <span className="text-gray-600">{formatDateTime(x.departDateTime, 'YYYY-MM-DD HH:mm')}</span>
                <span className="text-gray-600">{TICKET_STATE.label(x.state)}</span>
                <span className="ml-auto">
                  {waive ? `全额 ${fenToYuan(refundOf(x, true))} 元` : x.quote.refusal ? <span className="text-orange-700">{x.quote.refusal.replace(/（.*$/, '')}</span> : `退 ${fenToYuan(x.quote.refund)} 元${x.quote.fee ? `（手续费 ${fenToYuan(x.quote.fee)}）` : ''}`}
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <CheckboxField label="免手续费（全额退款，需写明原因）" checked={waive} onChange={setWaive} />
      <p className="mb-3 text-sm text-gray-800">
        应退合计：<strong className="tabular-nums text-red-700">{fenToYuan(total)} 元</strong>（{picked.length} 张）
      </p>
      <Field
        label="确认金额"
        required
        autoFocus
        inputMode="decimal"
        value={values.amount}
        onChange={(e) => {
          set('amount', e.target.value);
          setTypedError(null);
          // Typed exactly as shown (`18.00`), nothing more can follow: on to the reason, as a
          // complete citizen id moves on to the password. A shorter `18` waits for Tab.
          if (e.target.value === fenToYuan(total) && total > 0) reasonRef.current?.focus();
        }}
        error={(typedError && /金额/.test(typedError) ? typedError : null) ?? errors.amount}
        hint={`再次输入应退合计 ${fenToYuan(total)} 元以确认`}
      />
      <Field ref={reasonRef} label="退票原因" required maxLength={100} placeholder="如 乘客来电，临时有事" value={values.reason} onChange={(e) => set('reason', e.target.value)} error={errors.reason} />
    </Modal>
  );
}
