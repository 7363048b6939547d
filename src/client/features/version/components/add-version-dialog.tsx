import { lineVersion } from '../../../../shared/api';
import { Field } from '../../../components/field';
import { FormError, TextAreaField } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { useContractForm } from '../../../lib/use-contract-form';

/** 新增版本: an open version of the chosen area, starting as a copy of its online network. */
export function AddVersionDialog({ onClose, onSaved }: { onClose(): void; onSaved(): void }) {
  const form = useContractForm(lineVersion.versionAdd, {
    initial: { name: '', remark: '' },
    toInput: (v) => ({ body: { name: v.name, ...(v.remark.trim() ? { remark: v.remark } : {}) } }),
    success: (saved) => `已新增版本「${saved.name}」，复制线上线路 ${saved.lineCount} 条`,
    onSaved,
  });
  const { values, errors, set } = form;
  return (
    <Modal open title="新增版本" onClose={onClose} dirty={form.dirty} onSubmit={() => void form.submit()} footer={<ModalActions onCancel={onClose} busy={form.busy} />}>
      <FormError>{errors['']}</FormError>
      <Field label="版本名称" required autoFocus maxLength={40} placeholder="如 2027 春季线网" value={values.name} onChange={(e) => set('name', e.target.value)} error={errors.name} hint="新版本复制本区域的线上线网，开放编辑" />
      <TextAreaField label="备注" maxLength={200} rows={3} value={values.remark} onChange={(e) => set('remark', e.target.value)} error={errors.remark} />
    </Modal>
  );
}
