import { type Rider, card } from '../../../../shared/api';
import { Field } from '../../../components/field';
import { FormError } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { useContractForm } from '../../../lib/use-contract-form';
import { RecordChangedNotice } from '../../../components/record-changed-notice';

/** 处理异常 (ycOrder): the agent has checked the rider with the caller; the note goes to the system log. */
export function ResolveDialog({ rider, onClose, onSaved }: { rider: Rider; onClose(): void; onSaved(): void }) {
  const form = useContractForm(card.riderResolve, {
    initial: { note: '' },
    toInput: (v) => ({ body: { id: rider.id, note: v.note } }),
    success: (r) => `乘客 ${r.phone} 已恢复正常`,
    onSaved,
  });
  const { values, errors, set } = form;
  return (
    <Modal open title={`处理异常 · ${rider.phone}`} onClose={onClose} dirty={form.dirty} onSubmit={() => void form.submit()} footer={<ModalActions onCancel={onClose} busy={form.busy} submitLabel="恢复正常" />}>
      <RecordChangedNotice kind="rider" id={rider.id} />
      <FormError>{errors['']}</FormError>
      <p className="mb-3 text-sm text-gray-700">异常原因：{rider.abnormalReason ?? '—'}</p>
      <Field label="处理说明" required autoFocus maxLength={100} placeholder="如 已电话核实本人，误判" value={values.note} onChange={(e) => set('note', e.target.value)} error={errors.note} hint="说明与原异常原因一并记入系统日志" />
    </Modal>
  );
}
