import { type Agreement, system } from '../../../../shared/api';
import { Field } from '../../../components/field';
import { FormError, SelectField, TextAreaField } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { StaleNote } from '../../../components/stale-note';
import { useContractForm } from '../../../lib/use-contract-form';

export interface AgreementDialogProps {
  agreement: Agreement | null;
  areaName: string | null;
  /** For an account on 全部区域: the areas a new agreement may go to, chosen in the form itself. */
  areas: readonly { id: number; name: string }[] | null;
  onClose(): void;
  onSaved(): void;
}

/**
 * 新增 / 编辑协议, checked with the contract's body schema. A new agreement belongs to the chosen
 * area; an account on 全部区域 picks it here, so the form is never a dead end behind the modal.
 */
const valuesOf = (a: Agreement) => ({ title: a.title, code: a.code, content: a.content, area: '' });
/** A long text's note shows its start: the field holds the user's own. */
const excerpt = (v: string) => (v.length > 80 ? `${v.slice(0, 80)}…` : v);

export function AgreementDialog({ agreement, areaName, areas, onClose, onSaved }: AgreementDialogProps) {
  const form = useContractForm(system.agreementSave, {
    initial: agreement ? valuesOf(agreement) : { title: '', code: '', content: '', area: '' },
    toInput: ({ area, ...v }) => ({ body: { ...(agreement ? { id: agreement.id } : {}), ...v }, district: area || undefined }),
    success: (saved) => (agreement ? `已保存协议「${saved.title}」` : `已新增协议「${saved.title}」`),
    onSaved,
    // Saved from the version it was opened on; another's save meanwhile shows beside the typed text.
    stale: { version: agreement?.rowVersion, valuesOf },
  });
  const { values, errors, set } = form;

  return (
    <Modal
      open
      title={agreement ? `编辑协议${areaName ? ` · ${areaName}` : ''}` : '新增协议'}
      onClose={onClose}
      dirty={form.dirty}
      onSubmit={() => void form.submit()}
      width="max-w-2xl"
      footer={<ModalActions onCancel={onClose} busy={form.busy} disabled={!!areas && !values.area} />}
    >
      <FormError>{errors['']}</FormError>
      {areas && (
        <SelectField
          label="区域"
          required
          placeholder="请选择区域"
          options={areas.map((d) => ({ value: String(d.id), label: d.name }))}
          value={values.area}
          onChange={(e) => set('area', e.target.value)}
          hint="当前为全部区域：新协议属于这里选择的区域"
        />
      )}
      <Field label="标题" required autoFocus maxLength={100} value={values.title} onChange={(e) => set('title', e.target.value)} error={errors.title} note={<StaleNote form={form} field="title" />} />
      <Field label="协议编码" required maxLength={40} value={values.code} onChange={(e) => set('code', e.target.value)} error={errors.code} hint="字母、数字、_ 和 -，同一区域内唯一" note={<StaleNote form={form} field="code" />} />
      <TextAreaField
        label="内容"
        required
        rows={12}
        maxLength={50_000}
        value={values.content}
        onChange={(e) => set('content', e.target.value)}
        error={errors.content}
        hint={`${values.content.length} / 50000 字；按 Ctrl+Enter 保存`}
        note={<StaleNote form={form} field="content" show={excerpt} />}
      />
    </Modal>
  );
}
