import { type Agreement, system } from '../../../../shared/api';
import { Field } from '../../../components/field';
import { FormError, TextAreaField } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { useContractForm } from '../../../lib/use-contract-form';

/**
 * 新增 / 编辑协议, checked with the contract's body schema. A new agreement belongs to the chosen
 * area; without one the server answers 请先选择区域再新增协议, shown at the top of the form.
 */
export function AgreementDialog({ agreement, areaName, onClose, onSaved }: { agreement: Agreement | null; areaName: string | null; onClose(): void; onSaved(): void }) {
  const form = useContractForm(system.agreementSave, {
    initial: { title: agreement?.title ?? '', code: agreement?.code ?? '', content: agreement?.content ?? '' },
    toInput: (v) => ({ body: { ...(agreement ? { id: agreement.id } : {}), ...v } }),
    success: (saved) => (agreement ? `已保存协议「${saved.title}」` : `已新增协议「${saved.title}」`),
    onSaved,
  });
  const { values, errors, set } = form;

  return (
    <Modal
      open
      title={agreement ? `编辑协议${areaName ? ` · ${areaName}` : ''}` : '新增协议'}
      onClose={onClose}
      onSubmit={() => void form.submit()}
      width="max-w-2xl"
      footer={<ModalActions onCancel={onClose} busy={form.busy} />}
    >
      <FormError>{errors['']}</FormError>
      <Field label="标题" required autoFocus maxLength={100} value={values.title} onChange={(e) => set('title', e.target.value)} error={errors.title} />
      <Field label="协议编码" required maxLength={40} value={values.code} onChange={(e) => set('code', e.target.value)} error={errors.code} hint="字母、数字、_ 和 -，同一区域内唯一" />
      <TextAreaField
        label="内容"
        required
        rows={12}
        maxLength={50_000}
        value={values.content}
        onChange={(e) => set('content', e.target.value)}
        error={errors.content}
        hint={`${values.content.length} / 50000 字；按 Ctrl+Enter 保存`}
      />
    </Modal>
  );
}
