import { useState } from 'react';
import { packageOrderRefund, packageOrderRefundPreview } from '../../../../shared/api/package-pay';
import { fenToYuan, yuanToFen } from '../../../../shared/domain/money';
import { Field } from '../../../components/field';
import { FormError } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { DetailList } from '../../../components/resource/detail-list';
import { useApi } from '../../../lib/use-api';
import { useContractForm } from '../../../lib/use-contract-form';

/** Yuan as typed ("12.5") to fen; anything else NaN, told in yuan. */
/** A yuan field's text in fen (the shared reading, digit by digit), NaN when it is no amount. */
export const toFen = (text: string) => yuanToFen(text) ?? Number.NaN;

/**
 * 套餐退款: the server's preview (the rule applied, what the used rides cost as singles, the most that
 * may be refunded) prefilled as the amount; the agent types the reason and confirms with Ctrl+Enter.
 * The key is made when the dialog opens, so a retry (a lost answer, a double press) is the same refund.
 */
export function PackageRefundDialog({ orderId, onClose, onDone }: { orderId: number; onClose(): void; onDone(): void }) {
  const [key] = useState(() => crypto.randomUUID());
  const preview = useApi(packageOrderRefundPreview, { query: { id: orderId } });
  const p = preview.data;
  if (p && !p.refusal) return <RefundForm key={p.refundable} orderId={orderId} idempotencyKey={key} refundable={p.refundable} preview={p} onClose={onClose} onDone={onDone} />;
  return (
    <Modal open title={`套餐退款${p ? ` · ${p.orderNo}` : ''}`} onClose={onClose}>
      {p?.refusal ? (
        <p role="alert" className="rounded bg-orange-50 px-3 py-2 text-sm text-orange-800">
          {p.refusal}
        </p>
      ) : (
        <p role="status" className="text-sm text-gray-700">
          {preview.error ? (preview.error instanceof Error ? preview.error.message : '无法计算可退金额') : '正在计算可退金额…'}
        </p>
      )}
    </Modal>
  );
}

type Preview = NonNullable<ReturnType<typeof useApi<typeof packageOrderRefundPreview>>['data']>;

function RefundForm({ orderId, idempotencyKey, refundable, preview, onClose, onDone }: { orderId: number; idempotencyKey: string; refundable: number; preview: Preview; onClose(): void; onDone(): void }) {
  const [amountError, setAmountError] = useState<string | null>(null);
  const form = useContractForm(packageOrderRefund, {
    initial: { amount: fenToYuan(refundable), reason: '' },
    toInput: (v) => ({ body: { id: orderId, amount: toFen(v.amount), reason: v.reason, idempotencyKey } }),
    success: (r) => `套餐订单 ${r.order.orderNo} 已退款 ${fenToYuan(r.refund.amount)} 元${r.replayed ? '（此前已办理）' : ''}${r.refund.state === 2 ? '，支付渠道退款异常，稍后自动重试' : ''}`,
    onSaved: onDone,
  });
  const { values, errors, set } = form;
  const submit = () => {
    const fen = toFen(values.amount);
    setAmountError(Number.isNaN(fen) ? '请输入金额（元），如 12.50，最多两位小数' : fen > refundable ? `退款金额不能超过可退金额（${fenToYuan(refundable)}元）` : null);
    if (!Number.isNaN(fen) && fen <= refundable) void form.submit();
  };
  return (
    <Modal open title={`套餐退款 · ${preview.orderNo}`} onClose={onClose} dirty={form.dirty} onSubmit={submit} footer={<ModalActions onCancel={onClose} busy={form.busy} submitLabel={`退款 ${values.amount || '0'} 元`} />}>
      <FormError>{errors['']}</FormError>
      <div className="mb-4 rounded border border-amber-200 bg-amber-50 px-3 py-2">
        <DetailList
          termWidth="6rem"
          items={[
            { term: '订单金额', value: <span className="tabular-nums">{fenToYuan(preview.amount)} 元</span> },
            { term: '已用次数', value: <span className="tabular-nums">{preview.usedRides} 次（单程合计 {fenToYuan(preview.usedFare)} 元）</span> },
            { term: '退款规则', value: preview.rule },
            { term: '可退金额', value: <strong className="tabular-nums text-red-700">{fenToYuan(refundable)} 元</strong> },
          ]}
        />
      </div>
      <Field label="退款金额" required inputMode="decimal" value={values.amount} onChange={(e) => (set('amount', e.target.value), setAmountError(null))} error={amountError ?? errors.amount} hint={`单位：元，最多 ${fenToYuan(refundable)} 元`} />
      <Field label="退款原因" required autoFocus maxLength={100} placeholder="如 乘客申请退款" value={values.reason} onChange={(e) => set('reason', e.target.value)} error={errors.reason} />
    </Modal>
  );
}
