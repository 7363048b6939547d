import { useEffect, useRef, useState } from 'react';
import * as api from '../../../../shared/api/recharge';
import type { RechargeOrder } from '../../../../shared/api/recharge';
import { fenToYuan } from '../../../../shared/domain/money';
import { Field } from '../../../components/field';
import { FormError } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { DetailList } from '../../../components/resource/detail-list';
import { useContractForm } from '../../../lib/use-contract-form';

/** What the dialogs name: the order, its card and rider (masked), its amount. */
export type OrderRef = Pick<RechargeOrder, 'id' | 'orderNo' | 'cardNo' | 'riderPhone' | 'amount' | 'districtName'>;

const Named = ({ order }: { order: OrderRef }) => (
  <div className="mb-4 rounded border border-amber-200 bg-amber-50 px-3 py-2">
    <DetailList
      termWidth="5rem"
      items={[
        { term: '订单号', value: <span className="tabular-nums">{order.orderNo}</span> },
        { term: '金额', value: <strong className="tabular-nums">{fenToYuan(order.amount)} 元</strong> },
        { term: '卡号', value: <span className="tabular-nums">{order.cardNo}</span> },
        { term: '乘客', value: <span className="tabular-nums">{order.riderPhone ?? '—'}</span> },
        { term: '区域', value: order.districtName ?? '—' },
      ]}
    />
  </div>
);

/**
 * 核实已到账 (y) / 核实未到账 (n) of a 可疑 order: the note is filled with the usual words so the
 * keyboard task is y, Enter; the server checks it against the card centre's record and refuses
 * otherwise (卡中心无此笔交易记录… / 写卡后未满10分钟…).
 */
export function ResolveDialog({ order, toState, centreTxnNo, onClose, onDone }: { order: OrderRef; toState: 2 | 3; centreTxnNo: string | null; onClose(): void; onDone(after: RechargeOrder): void }) {
  const loaded = toState === 2;
  const form = useContractForm(api.rechargeResolve, {
    initial: { note: loaded ? '卡中心圈存记录核对一致，确认已到账' : '卡中心无此笔圈存记录，确认未到账' },
    toInput: (v) => ({ body: { id: order.id, fromState: 4 as const, toState, note: v.note, ...(loaded && centreTxnNo ? { centreTxnNo } : {}) } }),
    success: () => `充值订单 ${order.orderNo} 已核实${loaded ? '已到账（写卡成功）' : '未到账（写卡失败，可由他人退款）'}`,
    onSaved: (after) => onDone(after),
  });
  const { values, errors, set } = form;
  // Opened from the drawer as it closes: the drawer hands focus back to the row after this dialog's
  // autofocus ran, so the note takes it once more, and Enter confirms (the keyboard task's y, Enter).
  const note = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const t = setTimeout(() => note.current?.focus(), 30);
    return () => clearTimeout(t);
  }, []);
  return (
    <Modal
      open
      title={loaded ? '核实已到账' : '核实未到账'}
      onClose={onClose}
      onSubmit={() => void form.submit()}
      footer={<ModalActions onCancel={onClose} busy={form.busy} submitLabel={loaded ? '确认已到账' : '确认未到账'} />}
    >
      <FormError>{errors['']}</FormError>
      <Named order={order} />
      <p className="mb-3 text-sm text-gray-700">
        {loaded ? `以卡中心记录为准${centreTxnNo ? `（流水 ${centreTxnNo}）` : ''}：订单改为写卡成功。` : '卡中心没有这笔圈存：订单改为写卡失败，退款须由另一位同事办理。'}
      </p>
      <Field label="核实说明" required autoFocus ref={note} maxLength={200} value={values.note} onChange={(e) => set('note', e.target.value)} error={errors.note} />
    </Modal>
  );
}

/** 退款 of a top-up never written: the whole amount (圈存订单只能全额退款), once per key. */
export function RechargeRefundDialog({ order, onClose, onDone }: { order: OrderRef; onClose(): void; onDone(): void }) {
  const [key] = useState(() => crypto.randomUUID());
  const form = useContractForm(api.rechargeRefund, {
    initial: { reason: '' },
    toInput: (v) => ({ body: { id: order.id, amount: order.amount, reason: v.reason, idempotencyKey: key } }),
    success: (r) => `充值订单 ${r.order.orderNo} 已退款 ${fenToYuan(r.refund.amount)} 元${r.replayed ? '（此前已办理）' : ''}`,
    onSaved: onDone,
  });
  const { values, errors, set } = form;
  return (
    <Modal
      open
      title={`充值退款 · ${order.orderNo}`}
      onClose={onClose}
      dirty={form.dirty}
      onSubmit={() => void form.submit()}
      footer={<ModalActions onCancel={onClose} busy={form.busy} submitLabel={`退款 ${fenToYuan(order.amount)} 元`} />}
    >
      <FormError>{errors['']}</FormError>
      <Named order={order} />
      <p className="mb-3 text-xs text-gray-600">圈存订单只能全额退款；退款后订单关闭，不能再写卡。</p>
      <Field label="退款原因" required autoFocus maxLength={100} placeholder="如 写卡失败，乘客申请退款" value={values.reason} onChange={(e) => set('reason', e.target.value)} error={errors.reason} />
    </Modal>
  );
}
