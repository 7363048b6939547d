import { useState } from 'react';
import { type Agreement, system } from '../../../../shared/api';
import { Field } from '../../../components/field';
import { FormError, TextAreaField } from '../../../components/form-controls';
import { type FieldErrors, errorsFromFailure, validate } from '../../../components/form-errors';
import { Modal, ModalActions } from '../../../components/modal';
import { toast } from '../../../components/toast';
import { api } from '../../../lib/api-client';


/**
 * 新增 / 编辑协议, checked with the contract's body schema. A new agreement belongs to the chosen
 * area; without one the server answers 请先选择区域再新增协议, shown at the top of the form.
 */
export function AgreementDialog({ agreement, areaName, onClose, onSaved }: { agreement: Agreement | null; areaName: string | null; onClose(): void; onSaved(): void }) {
  const [title, setTitle] = useState(agreement?.title ?? '');
  const [code, setCode] = useState(agreement?.code ?? '');
  const [content, setContent] = useState(agreement?.content ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (busy) return;
    const body = { ...(agreement ? { id: agreement.id } : {}), title, code, content };
    const found = validate(system.agreementSave.body, body);
    if (found) return setErrors(found);
    setBusy(true);
    setErrors({});
    try {
      await api.call(system.agreementSave, { body }, { silent: true });
      toast.success(agreement ? `已保存协议「${title.trim()}」` : `已新增协议「${title.trim()}」`);
      onSaved();
    } catch (err) {
      setErrors(errorsFromFailure(err, ['title', 'code', 'content']));
      setBusy(false);
    }
  };

  const clear = (k: string) => setErrors((prev) => (prev[k] || prev[''] ? Object.fromEntries(Object.entries(prev).filter(([f]) => f !== k && f !== '')) : prev));

  return (
    <Modal
      open
      title={agreement ? `编辑协议${areaName ? ` · ${areaName}` : ''}` : '新增协议'}
      onClose={onClose}
      onSubmit={submit}
      width="max-w-2xl"
      footer={<ModalActions onCancel={onClose} busy={busy} />}
    >
      <FormError>{errors['']}</FormError>
      <Field label="标题" required autoFocus maxLength={100} value={title} onChange={(e) => (setTitle(e.target.value), clear('title'))} error={errors.title} />
      <Field label="协议编码" required maxLength={40} value={code} onChange={(e) => (setCode(e.target.value), clear('code'))} error={errors.code} hint="字母、数字、_ 和 -，同一区域内唯一" />
      <TextAreaField
        label="内容"
        required
        rows={12}
        maxLength={50_000}
        value={content}
        onChange={(e) => (setContent(e.target.value), clear('content'))}
        error={errors.content}
        hint={`${content.length} / 50000 字；按 Ctrl+Enter 保存`}
      />
    </Modal>
  );
}
