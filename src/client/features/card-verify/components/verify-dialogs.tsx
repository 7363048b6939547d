import { useState } from 'react';
import * as api from '../../../../shared/api/card-verify';
import { REFUSAL, type VerifyApplication } from '../../../../shared/api/card-verify';
import { Field } from '../../../components/field';
import { FormError } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { DetailList } from '../../../components/resource/detail-list';
import { api as http } from '../../../lib/api-client';
import { useRevalidate } from '../../../lib/revalidate';
import { toast } from '../../../lib/toast';
import { useApi } from '../../../lib/use-api';
import { useContractForm } from '../../../lib/use-contract-form';

/** 撤销通过 (1 → 2): an error found after approval; the reason is kept and the card's validity withdrawn. */
export function RevokeDialog({ row, onClose }: { row: VerifyApplication; onClose(): void }) {
  const form = useContractForm(api.verifyRevoke, {
    initial: { reason: '' },
    toInput: (v) => ({ body: { id: row.id, fromStatus: 1 as const, reason: v.reason } }),
    check: (v) => ([...v.reason.trim()].length < 4 ? { reason: REFUSAL.revokeReason } : null),
    success: (after) => `验卡申请 ${after.applyNo} 已撤销通过`,
    onSaved: () => onClose(),
  });
  return (
    <Modal
      open
      title="撤销验卡通过"
      onClose={onClose}
      dirty={form.dirty}
      onSubmit={() => void form.submit()}
      footer={<ModalActions onCancel={onClose} busy={form.busy} submitLabel="确认撤销" />}
    >
      <FormError>{form.errors['']}</FormError>
      <div className="mb-3 rounded border border-amber-200 bg-amber-50 px-3 py-2">
        <DetailList
          termWidth="5rem"
          items={[
            { term: '申请号', value: <span className="tabular-nums">{row.applyNo}</span> },
            { term: '卡号', value: <span className="tabular-nums">{row.cardNo}</span> },
            { term: '持卡人', value: row.name },
            { term: '有效期至', value: row.validUntil ?? '—' },
          ]}
        />
      </div>
      <p className="mb-3 text-sm text-gray-700">撤销后该卡的验卡有效期作废，状态改为已驳回，乘客需重新申请。</p>
      <Field label="撤销原因" required autoFocus maxLength={100} value={form.values.reason} onChange={(e) => form.set('reason', e.target.value)} error={form.errors.reason} hint="至少4个字" />
    </Modal>
  );
}

const batchKey = () => `batch-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/**
 * 批量通过自动核验: the area's pending applications whose five checks are all green (at most 100, the
 * oldest first), approved in one call with one idempotency key; a retry after a lost answer replays.
 */
export function BatchApproveDialog({ onClose }: { onClose(): void }) {
  const pending = useApi(api.verifyPage, { query: { status: '0', autoCheck: '1', size: api.BATCH_MAX, sort: 'createdDate,asc' } });
  const revalidate = useRevalidate();
  const [key] = useState(batchKey);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Held by another reviewer: left out (the server would refuse the whole batch).
  const rows = (pending.data?.content ?? []).filter((r) => r.claimById === null);
  const submit = async () => {
    if (!rows.length || busy) return;
    setBusy(true);
    setError(null);
    try {
      const r = await http.call(api.verifyAuditBatch, { body: { ids: rows.map((x) => x.id), idempotencyKey: key } }, { silent: true });
      toast.success(`已批量通过 ${r.approved.length} 条验卡申请${r.replayed ? '（重复提交，按首次结果）' : ''}`);
      void revalidate(api.verifyAuditBatch);
      onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title="批量通过自动核验" onClose={onClose} onSubmit={() => void submit()} footer={<ModalActions onCancel={onClose} busy={busy} submitLabel={`通过 ${rows.length} 条`} />}>
      <FormError>{error}</FormError>
      {pending.isLoading ? (
        <p role="status" className="text-sm text-gray-700">加载中…</p>
      ) : rows.length ? (
        <>
          <p className="mb-2 text-sm text-gray-700">以下 {rows.length} 条待审核申请的五项自动核验（身份证号、年龄、卡片状态、持卡人、人脸）全部通过，将一次通过（每次最多{api.BATCH_MAX}条，他人审核中的不含在内）。</p>
          <ul aria-label="将通过的申请" tabIndex={0} className="max-h-64 overflow-y-auto text-sm tabular-nums focus-visible:outline-2 focus-visible:outline-[var(--theme)]">
            {rows.map((r) => (
              <li key={r.id}>
                {r.applyNo} · {r.cardNo} · {r.name} · 人脸 {r.faceScore ?? '—'}分
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p role="status" className="text-sm text-gray-700">没有自动核验全部通过的待审核申请。</p>
      )}
    </Modal>
  );
}
