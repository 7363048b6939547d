// The business layer (src/client/business): the call-centre desk's pieces that several features
// share (the card link, the reveal, unbind and refund dialogs, the palette's lookup hand-off). It
// sits above components/ and lib/ and below the features: features and app/ may import it, never
// components/, commands/ or lib/ (eslint.config.js refuses that), and it imports no feature.
import { useEffect, useRef, useState } from 'react';
import { card, discount, family } from '../../../shared/api';
import { refundNeedsPassword } from '../../../shared/api/discount';
import { maskName, maskPhone } from '../../../shared/domain/mask';
import { isValidCitizenId } from '../../../shared/domain/citizen-id';
import { fenToYuan } from '../../../shared/domain/money';
import { DetailList } from '../../components/resource/detail-list';
import { Field } from '../../components/field';
import { FormError } from '../../components/form-controls';
import { Modal, ModalActions } from '../../components/modal';
import { api } from '../../lib/api-client';
import { useApi } from '../../lib/use-api';
import { useContractForm } from '../../lib/use-contract-form';

/** 查看实名信息: asks why, then shows one rider in full; closing forgets the values. */
export function RevealDialog({ riderId, onClose }: { riderId: number; onClose(): void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<{ phone: string; citizenId: string | null; name: string | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (shown) return onClose();
    const checked = card.riderRevealByBody.body.safeParse({ id: riderId, reason });
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? '请填写查看原因');
    setBusy(true);
    try {
      // The body form: the reason is free text and may quote a number.
      setShown(await api.call(card.riderRevealByBody, { body: { id: riderId, reason } }, { silent: true }));
    } catch (err) {
      setError(err instanceof Error ? err.message : '查看失败');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title="查看实名信息" onClose={onClose} onSubmit={() => void submit()} footer={<ModalActions onCancel={onClose} busy={busy} submitLabel={shown ? '关闭' : '查看'} />}>
      {shown ? (
        <dl className="grid grid-cols-[5rem_1fr] gap-y-2 text-sm">
          <dt className="text-gray-600">姓名</dt>
          <dd className="text-gray-900">{shown.name ?? '未实名'}</dd>
          <dt className="text-gray-600">手机号</dt>
          <dd className="tabular-nums text-gray-900">{shown.phone}</dd>
          <dt className="text-gray-600">身份证号</dt>
          <dd className="tabular-nums text-gray-900">{shown.citizenId ?? '—'}</dd>
          <dd className="col-span-2 text-xs text-gray-600">本次查看已记入系统日志（含原因，不含号码）。</dd>
        </dl>
      ) : (
        <Field label="查看原因" required autoFocus maxLength={100} placeholder="如 乘客来电核实身份" value={reason} onChange={(e) => (setReason(e.target.value), setError(null))} error={error} hint="原因会记入系统日志" />
      )}
    </Modal>
  );
}

/**
 * 解绑亲情卡: the binder's citizen id as the caller reads it out, and the agent's own password again,
 * in the body of the call's body form (the spec's form puts both in the URL).
 */
export function UnbindDialog({ cardNo, onClose, onDone }: { cardNo: string; onClose(): void; onDone(): void }) {
  const form = useContractForm(family.unBindByBody, {
    initial: { citizenCardNo: '', pwd: '' },
    toInput: (v) => ({ body: { busCardNo: cardNo, citizenCardNo: v.citizenCardNo.trim(), pwd: v.pwd } }),
    success: () => `已解绑亲情卡 ${cardNo}`,
    // Wherever the binding shows (the card view, the bindings list and its counts): the unbind's tags.
    onSaved: onDone,
  });
  const { values, errors, set } = form;
  const pwd = useRef<HTMLInputElement>(null);
  // A citizen id is complete at 18 characters: a valid one moves on to the password, as a form on
  // paper would, so neither the keyboard nor the mouse has to go there.
  const typedId = (v: string) => {
    set('citizenCardNo', v);
    if (isValidCitizenId(v.trim()) && !values.pwd) pwd.current?.focus();
  };
  return (
    <Modal open title={`解绑亲情卡 · ${cardNo}`} onClose={onClose} dirty={form.dirty} onSubmit={() => void form.submit()} footer={<ModalActions onCancel={onClose} busy={form.busy} submitLabel="解绑" />}>
      <FormError>{errors['']}</FormError>
      <Field label="绑定人身份证号" required autoFocus autoComplete="off" maxLength={18} value={values.citizenCardNo} onChange={(e) => typedId(e.target.value)} error={errors.citizenCardNo} hint="请乘客报出绑定人的身份证号核对；号码完整后自动转到密码" />
      <Field ref={pwd} label="您的登录密码" required type="password" autoComplete="current-password" value={values.pwd} onChange={(e) => set('pwd', e.target.value)} error={errors.pwd} hint="连续输错 5 次将锁定 30 分钟" />
    </Modal>
  );
}

/** An order as the refund shows it: the rider as the answer that listed it gave (masked), or none. */
export interface RefundOrder {
  id: number;
  orderNo: string;
  amount: number;
  cardNo: string;
  riderName?: string | null;
  riderPhone: string | null;
}

/** 乘客 as the confirmation names them: masked again here, so no caller can show more. */
const riderOf = (o: RefundOrder) => (o.riderPhone ? [o.riderName ? maskName(o.riderName) : null, maskPhone(o.riderPhone)].filter(Boolean).join(' ') : '不记名');

/**
 * 订单退款: the confirmation names the amount, the card and the rider (masked); a reason; above the
 * server's refund rule (REFUND_PASSWORD_ABOVE) the operator's own password, checked and locked out
 * as the unbind's is. The idempotency key is made when the dialog opens, so a retry never refunds
 * twice. Should the rule not have arrived, the server's refusal under `pwd` shows the field.
 */
export function RefundDialog({ order, onClose, onDone }: { order: RefundOrder; onClose(): void; onDone(): void }) {
  const [key] = useState(() => crypto.randomUUID());
  const rule = useApi(discount.discountOrderRefundRule);
  const ruleAsks = !!rule.data && refundNeedsPassword(order.amount, rule.data);
  const form = useContractForm(discount.discountOrderRefund, {
    initial: { reason: '', pwd: '' },
    toInput: (v) => ({ body: { id: order.id, reason: v.reason, idempotencyKey: key, ...(v.pwd ? { pwd: v.pwd } : {}) } }),
    check: (v) => (ruleAsks && !v.pwd ? { pwd: `退款金额超过 ${fenToYuan(rule.data?.passwordAbove)} 元，请输入您的登录密码` } : null),
    success: (r) => `订单 ${r.order.orderNo} 已退款 ${fenToYuan(r.refund.amount)} 元${r.replayed ? '（此前已办理）' : ''}`,
    // Wherever the order shows (the card view, the order list, its detail, totals and counts): the refund's tags.
    onSaved: onDone,
  });
  const { values, errors, set } = form;
  // Once the server has asked (the rule had not arrived), the field stays while the password is typed.
  const [serverAsked, setServerAsked] = useState(false);
  const asks = ruleAsks || serverAsked || !!errors.pwd;
  // A missing or wrong password: focus lands on it, selected, so the next keys retype it.
  const pwdInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!errors.pwd) return;
    setServerAsked(true);
    pwdInput.current?.focus();
    pwdInput.current?.select();
  }, [errors.pwd]);
  const amount = `${fenToYuan(order.amount)} 元`;
  return (
    <Modal open title={`订单退款 · ${order.orderNo}`} onClose={onClose} dirty={form.dirty} onSubmit={() => void form.submit()} footer={<ModalActions onCancel={onClose} busy={form.busy} submitLabel={`退款 ${amount}`} />}>
      <FormError>{errors['']}</FormError>
      <div className="mb-4 rounded border border-amber-200 bg-amber-50 px-3 py-2">
        <DetailList
          termWidth="5rem"
          items={[
            { term: '退款金额', value: <strong className="tabular-nums text-red-700">{amount}</strong> },
            { term: '卡号', value: <span className="tabular-nums">{order.cardNo}</span> },
            { term: '乘客', value: <span className="tabular-nums">{riderOf(order)}</span> },
          ]}
        />
      </div>
      <Field label="退款原因" required autoFocus maxLength={100} placeholder="如 乘客申请退款" value={values.reason} onChange={(e) => set('reason', e.target.value)} error={errors.reason} />
      {asks && (
        <Field
          label="您的登录密码"
          required
          ref={pwdInput}
          type="password"
          autoComplete="current-password"
          maxLength={128}
          value={values.pwd}
          onChange={(e) => set('pwd', e.target.value)}
          error={errors.pwd}
          hint={`${rule.data ? `金额超过 ${fenToYuan(rule.data.passwordAbove)} 元，` : ''}需验证登录密码；连续输错 5 次将锁定 30 分钟`}
        />
      )}
    </Modal>
  );
}
