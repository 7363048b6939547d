import { family } from '../../../../shared/api';
import type { Binding } from '../../../../shared/api/family';
import { Field } from '../../../components/field';
import { FormError } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { StaleNote } from '../../../components/stale-note';
import { useContractForm } from '../../../lib/use-contract-form';
import { RecordChangedNotice } from '../../../components/record-changed-notice';

/**
 * 修改关系: the new relation and the agent's own password again, both in the body of the call's body
 * form (the spec's `?pwd=` would put the password in the URL); the form keeps it in memory only and
 * forgets it when the dialog closes.
 */
export function UpdateRelationDialog({ binding, onClose, onDone }: { binding: Binding; onClose(): void; onDone(): void }) {
  const form = useContractForm(family.updateBindByBody, {
    initial: { relation: binding.relation, pwd: '' },
    toInput: (v) => ({ body: { id: binding.id, relation: v.relation.trim(), pwd: v.pwd } }),
    success: (b) => `已将亲情卡 ${b.cardNo} 的关系改为「${b.relation}」`,
    // The list, its counts and the card view refetch by the change's tags (callingCard, busUser).
    onSaved: onDone,
    // Saved from the version opened (issue 21); another's change meanwhile shows beside the typed relation.
    stale: { version: binding.rowVersion, valuesOf: (b) => ({ relation: b.relation, pwd: '' }) },
  });
  const { values, errors, set } = form;
  return (
    <Modal open title={`修改关系 · ${binding.cardNo}`} onClose={onClose} dirty={form.dirty} onSubmit={() => void form.submit()} footer={<ModalActions onCancel={onClose} busy={form.busy} submitLabel="保存" />}>
      <RecordChangedNotice kind="family-binding" id={binding.id} />
      <FormError>{errors['']}</FormError>
      <p className="mb-3 text-sm text-gray-700">
        绑定人：{binding.holder.name ?? '未实名'} <span className="tabular-nums">{binding.holder.phone}</span>
      </p>
      <Field label="关系" required autoFocus maxLength={10} autoComplete="off" placeholder="如 父亲、外孙女" value={values.relation} onChange={(e) => set('relation', e.target.value)} error={errors.relation} note={<StaleNote form={form} field="relation" />} />
      <Field label="您的登录密码" required type="password" autoComplete="current-password" value={values.pwd} onChange={(e) => set('pwd', e.target.value)} error={errors.pwd} hint="连续输错 5 次将锁定 30 分钟" />
    </Modal>
  );
}
