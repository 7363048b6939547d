import * as api from '../../../../shared/api/feedback';
import { FEEDBACK_CATEGORY, type Feedback } from '../../../../shared/api/feedback';
import { FormError, TextAreaField } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { DetailList } from '../../../components/resource/detail-list';
import { useContractForm } from '../../../lib/use-contract-form';

/** What the dialogs name of an item: its number, who wrote, what about. */
export type FeedbackRef = Pick<Feedback, 'id' | 'status' | 'category' | 'content' | 'riderPhone' | 'handlerId' | 'handlerName'>;

const excerpt = (s: string) => (s.length > 60 ? `${s.slice(0, 60)}…` : s);

export const Named = ({ f }: { f: FeedbackRef }) => (
  <div className="mb-4 rounded border border-amber-200 bg-amber-50 px-3 py-2">
    <DetailList
      termWidth="5rem"
      items={[
        { term: '编号', value: <span className="tabular-nums">#{f.id}</span> },
        { term: '类型', value: FEEDBACK_CATEGORY.label(f.category) },
        { term: '乘客', value: <span className="tabular-nums">{f.riderPhone}</span> },
        { term: '内容', value: excerpt(f.content) },
      ]}
    />
  </div>
);

/**
 * 不处理 (n): the reason the rider will read, at least 4 characters (the server's refusal, 请填写不处理原因（至少4个字）,
 * shows beside the field); an administrator declining an item another handler holds takes it over.
 */
export function DeclineDialog({ f, takeOver, onClose, onDone }: { f: FeedbackRef; takeOver: boolean; onClose(): void; onDone(after: Feedback): void }) {
  const form = useContractForm(api.feedbackUpdateStatus, {
    initial: { reason: '' },
    check: (v) => ([...v.reason.trim()].length < api.CLOSE_REASON_MIN ? { reason: api.FEEDBACK_REFUSAL.closeReason } : null),
    toInput: (v) => ({ body: { id: f.id, fromStatus: f.status, toStatus: 2 as const, reason: v.reason, ...(takeOver ? { takeOver: true } : {}) } }),
    success: (after) => `意见反馈#${after.id} 已标为不处理`,
    onSaved: onDone,
  });
  const { values, errors, set } = form;
  return (
    <Modal
      open
      title={`不处理 · 意见反馈#${f.id}`}
      onClose={onClose}
      dirty={form.dirty}
      onSubmit={() => void form.submit()}
      footer={<ModalActions onCancel={onClose} busy={form.busy} submitLabel="确认不处理" />}
    >
      <FormError>{errors['']}</FormError>
      <Named f={f} />
      <TextAreaField
        label="不处理原因"
        required
        autoFocus
        rows={3}
        maxLength={200}
        placeholder="如 反馈内容与公交服务无关（至少4个字，乘客可见）"
        value={values.reason}
        onChange={(e) => set('reason', e.target.value)}
        error={errors.reason}
      />
    </Modal>
  );
}
