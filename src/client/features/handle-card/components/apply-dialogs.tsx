import { type KeyboardEvent, useState } from 'react';
import { REJECT_PRESETS, REFUSALS, type HandleApply, applyAudit, applyAuditBatch, applyMaterial, applyPage, applyShip } from '../../../../shared/api/handle-card';
import { Field } from '../../../components/field';
import { FormError, TextAreaField } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { api } from '../../../lib/api-client';
import { useRevalidate } from '../../../lib/revalidate';
import { toast } from '../../../lib/toast';

/** What a dialog needs of an application (a row of the list, or the drawer's record). */
export type ApplyRef = Pick<HandleApply, 'id' | 'applyNo' | 'status' | 'name' | 'cardCategory' | 'delivery' | 'deliveryTo'>;

const newKey = () => crypto.randomUUID().replaceAll('-', '');

/** 通过: one call, keyed when asked, so a double press is one decision. */
export function approve(a: ApplyRef, revalidate: ReturnType<typeof useRevalidate>): Promise<boolean> {
  return api
    .call(applyAudit, { body: { id: a.id, fromStatus: a.status, toStatus: 2, idempotencyKey: newKey() } })
    .then((r) => {
      toast.success(`已通过 ${r.apply.applyNo}，预留卡号 ${r.apply.cardNo ?? ''}`);
      void revalidate(applyAudit);
      return true;
    })
    .catch(() => false);
}

/**
 * 驳回 (待审核) or 制卡失败 (制卡中): a reason of at least 4 characters; the digits 1–9 (outside the text
 * field, or with the field empty) take the preset reasons. The fee goes back once, by the server.
 */
export function RejectDialog({ apply, onClose, onDone }: { apply: ApplyRef; onClose(): void; onDone(): void }) {
  const [key] = useState(newKey);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const revalidate = useRevalidate();
  const failing = apply.status === 2;
  const submit = () => {
    if (reason.trim().length < 4) return setError(REFUSALS.reason);
    setBusy(true);
    api
      .call(applyAudit, { body: { id: apply.id, fromStatus: apply.status, toStatus: 3, reason: reason.trim(), idempotencyKey: key } })
      .then((r) => {
        toast.success(`${failing ? '已登记制卡失败' : '已驳回'} ${r.apply.applyNo}${r.apply.payStatus === 2 ? '，工本费原路退回' : ''}`);
        void revalidate(applyAudit);
        onDone();
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
      .finally(() => setBusy(false));
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const n = Number(e.key);
    if (e.ctrlKey || e.metaKey || e.altKey || !Number.isInteger(n) || n < 1 || n > 9) return;
    const inText = (e.target as HTMLElement).tagName === 'TEXTAREA';
    if (inText && reason !== '') return;
    e.preventDefault();
    setReason(REJECT_PRESETS[n - 1]!);
    setError(null);
  };
  return (
    <Modal open title={`${failing ? '制卡失败' : '驳回申请'} · ${apply.applyNo}`} onClose={onClose} dirty={reason !== ''} onSubmit={submit} footer={<ModalActions onCancel={onClose} busy={busy} submitLabel={failing ? '登记制卡失败' : '驳回'} />}>
      <div onKeyDown={onKeyDown}>
        <FormError>{error}</FormError>
        <p className="mb-3 text-sm text-gray-700">
          {apply.name} · {failing ? '卡片制作失败，卡号退回卡号池，工本费原路退回。' : '驳回后工本费原路退回，乘客可重新申请。'}
        </p>
        <ol aria-label="常用原因" className="mb-3 grid grid-cols-1 gap-1 text-sm sm:grid-cols-2">
          {REJECT_PRESETS.map((p, i) => (
            <li key={p}>
              <button type="button" className="w-full rounded px-2 py-1 text-left hover:bg-gray-100" onClick={() => (setReason(p), setError(null))}>
                <kbd className="mr-2 rounded border px-1 text-xs">{i + 1}</kbd>
                {p}
              </button>
            </li>
          ))}
        </ol>
        <TextAreaField label="原因" required autoFocus rows={2} maxLength={100} value={reason} onChange={(e) => (setReason(e.target.value), setError(null))} hint="按 1–9 选常用原因，或输入至少4个字" />
      </div>
    </Modal>
  );
}

/** 录入快递单号 (邮寄) or 待领取 (自取): 制卡中 → 已寄出/待领取. */
export function ShipDialog({ apply, initialTracking = '', onClose, onDone }: { apply: ApplyRef; initialTracking?: string; onClose(): void; onDone(): void }) {
  const [tracking, setTracking] = useState(initialTracking);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const revalidate = useRevalidate();
  const post = apply.delivery === 2;
  const submit = () => {
    if (post && !tracking.trim()) return setError(REFUSALS.tracking);
    setBusy(true);
    api
      .call(applyShip, { body: post ? { id: apply.id, trackingNo: tracking.trim() } : { id: apply.id, pickupReady: true } })
      .then((r) => {
        toast.success(post ? `${r.applyNo} 已寄出，快递单号 ${r.trackingNo ?? ''}` : `${r.applyNo} 卡片已到领取点，待领取`);
        void revalidate(applyShip);
        onDone();
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
      .finally(() => setBusy(false));
  };
  return (
    <Modal open title={`${post ? '录入快递单号' : '待领取'} · ${apply.applyNo}`} onClose={onClose} onSubmit={submit} footer={<ModalActions onCancel={onClose} busy={busy} submitLabel={post ? '确认寄出' : '确认待领取'} />}>
      <FormError>{error}</FormError>
      <p className="mb-3 text-sm text-gray-700">
        {apply.name} · {post ? `邮寄至 ${apply.deliveryTo}` : `自取：${apply.deliveryTo}`}
      </p>
      {post && <Field label="快递单号" required autoFocus maxLength={30} value={tracking} onChange={(e) => (setTracking(e.target.value), setError(null))} hint="30位以内的字母或数字" />}
    </Modal>
  );
}

/**
 * 批量通过预检全绿: the area's 待审核 applications whose every precheck line is green (up to 100), shown
 * by count before the call; the server approves each in its own transaction and says what it skipped.
 */
export function BatchApproveDialog({ onClose }: { onClose(): void }) {
  const [key] = useState(newKey);
  const [busy, setBusy] = useState(false);
  const [ids, setIds] = useState<number[] | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const revalidate = useRevalidate();
  if (ids === null && !busy) {
    setBusy(true);
    api
      .call(applyPage, { query: { status: '1', precheck: 'green', size: 100, sort: 'createdDate,asc' } as never })
      .then((p) => setIds(p.content.map((r) => r.id)))
      .catch(() => setIds([]))
      .finally(() => setBusy(false));
  }
  const submit = () => {
    if (!ids?.length || result) return onClose();
    setBusy(true);
    api
      .call(applyAuditBatch, { body: { ids, idempotencyKey: key } })
      .then((r) => {
        const text = `已通过 ${r.approved.length} 条${r.skipped.length ? `，跳过 ${r.skipped.length} 条（${[...new Set(r.skipped.map((x) => x.reason))].join('；')}）` : ''}`;
        toast.success(text);
        setResult(text);
        void revalidate(applyAuditBatch);
      })
      .catch(() => undefined)
      .finally(() => setBusy(false));
  };
  return (
    <Modal open title="批量通过预检全绿" onClose={onClose} onSubmit={submit} footer={<ModalActions onCancel={onClose} busy={busy} disabled={ids === null} submitLabel={result || !ids?.length ? '关闭' : `通过 ${ids.length} 条`} />}>
      <p role="status" className="text-sm text-gray-700">
        {result ?? (ids === null ? '正在查找预检全绿的待审核申请…' : ids.length ? `当前区域有 ${ids.length} 条待审核申请预检全绿（最早的100条），确认后逐条通过并预留卡号；预检有红项的须逐条审核。` : '没有预检全绿的待审核申请。')}
      </p>
    </Modal>
  );
}

/** One material opened with a reason (audited, answered no-store); the image lives only in this dialog's memory. */
export function MaterialDialog({ applyId, material, onClose }: { applyId: number; material: { id: number; label: string }; onClose(): void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [image, setImage] = useState<{ dataUrl: string; width: number | null; height: number | null } | null>(null);
  const submit = () => {
    if (image) return onClose();
    if (reason.trim().length < 2) return setError('查看原因至少2个字');
    setBusy(true);
    api
      .call(applyMaterial, { body: { id: applyId, materialId: material.id, reason: reason.trim() } })
      .then((r) => setImage(r))
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
      .finally(() => setBusy(false));
  };
  return (
    <Modal open title={`查看材料 · ${material.label}`} onClose={onClose} onSubmit={submit} width="max-w-2xl" footer={<ModalActions onCancel={onClose} busy={busy} submitLabel={image ? '关闭' : '查看'} />}>
      <FormError>{error}</FormError>
      {image ? (
        <img src={image.dataUrl} alt={material.label} className="mx-auto max-h-[60vh] border" width={image.width ?? undefined} height={image.height ?? undefined} />
      ) : (
        <Field label="查看原因" required autoFocus maxLength={100} value={reason} onChange={(e) => (setReason(e.target.value), setError(null))} hint="查看申请人材料会记入系统日志" placeholder="如 审核核对照片" />
      )}
    </Modal>
  );
}
