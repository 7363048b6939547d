import { card } from '../../../../shared/api';
import { Field } from '../../../components/field';
import { FormError } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { useContractForm } from '../../../lib/use-contract-form';

/** 新增乘客: a phone, and name with citizen id together when the caller is verified on the phone. */
export function AddRiderDialog({ onClose, onSaved }: { onClose(): void; onSaved(): void }) {
  const form = useContractForm(card.riderAdd, {
    initial: { phone: '', name: '', citizenCardNo: '' },
    toInput: (v) => ({ body: { phone: v.phone, ...(v.name.trim() ? { name: v.name } : {}), ...(v.citizenCardNo.trim() ? { citizenCardNo: v.citizenCardNo } : {}) } }),
    success: (r) => `已新增乘客 ${r.phone}`,
    onSaved,
  });
  const { values, errors, set } = form;
  return (
    <Modal open title="新增乘客" onClose={onClose} dirty={form.dirty} onSubmit={() => void form.submit()} footer={<ModalActions onCancel={onClose} busy={form.busy} />}>
      <FormError>{errors['']}</FormError>
      <Field label="手机号" required autoFocus inputMode="tel" autoComplete="off" maxLength={20} value={values.phone} onChange={(e) => set('phone', e.target.value)} error={errors.phone} />
      <Field label="姓名" maxLength={20} autoComplete="off" value={values.name} onChange={(e) => set('name', e.target.value)} error={errors.name} hint="实名信息：姓名与身份证号同时填写" />
      <Field label="身份证号" maxLength={18} autoComplete="off" value={values.citizenCardNo} onChange={(e) => set('citizenCardNo', e.target.value)} error={errors.citizenCardNo} />
    </Modal>
  );
}
