import { useState } from 'react';
import { driverReveal } from '../../../../shared/api/custom-bus/fleet';
import { Field } from '../../../components/field';
import { Modal, ModalActions } from '../../../components/modal';
import { api } from '../../../lib/api-client';

/**
 * 查看身份证号与手机号 (as the rider reveal): asks why, then shows the driver's citizen id (also the
 * licence number) and phone in full; the answer is no-store and closing forgets the values.
 */
export function DriverRevealDialog({ driver, onClose }: { driver: { id: number; name: string }; onClose(): void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<{ phone: string; idNo: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (shown) return onClose();
    const checked = driverReveal.body.safeParse({ id: driver.id, reason });
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? '请填写查看原因');
    setBusy(true);
    try {
      setShown(await api.call(driverReveal, { body: { id: driver.id, reason } }, { silent: true }));
    } catch (err) {
      setError(err instanceof Error ? err.message : '查看失败');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={`查看司机信息 · ${driver.name}`} onClose={onClose} onSubmit={() => void submit()} footer={<ModalActions onCancel={onClose} busy={busy} submitLabel={shown ? '关闭' : '查看'} />}>
      {shown ? (
        <dl className="grid grid-cols-[8rem_1fr] gap-y-2 text-sm">
          <dt className="text-gray-600">手机号</dt>
          <dd className="tabular-nums text-gray-900">{shown.phone}</dd>
          <dt className="text-gray-600">身份证号（驾驶证号）</dt>
          <dd className="tabular-nums text-gray-900">{shown.idNo}</dd>
          <dd className="col-span-2 text-xs text-gray-600">本次查看已记入系统日志（含原因，不含号码）。</dd>
        </dl>
      ) : (
        <Field label="查看原因" required autoFocus maxLength={100} placeholder="如 联系司机调整排班" value={reason} onChange={(e) => (setReason(e.target.value), setError(null))} error={error} hint="至少2个字，原因会记入系统日志" />
      )}
    </Modal>
  );
}
