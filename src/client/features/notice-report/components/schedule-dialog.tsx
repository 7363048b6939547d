import { useState } from 'react';
import { type Notice, noticeUpdateStatus } from '../../../../shared/api/notice';
import { formatDateTime, parseTypedDateTime } from '../../../../shared/domain/time';
import { Field } from '../../../components/field';
import { Modal, ModalActions } from '../../../components/modal';
import { api } from '../../../lib/api-client';
import { useRevalidate } from '../../../lib/revalidate';
import { refusalShown } from '../../../lib/form-errors';
import { toast } from '../../../lib/toast';

/** 定时发布: a time typed as 2026-12-01 08:00 (Shanghai); the job notice.publish publishes it then. */
export function ScheduleDialog({ notice, onClose }: { notice: Notice; onClose(): void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const revalidate = useRevalidate();
  const submit = async () => {
    const publishAt = parseTypedDateTime(text);
    if (!publishAt) return setError('请输入发布时间，如 2026-12-01 08:00');
    setBusy(true);
    try {
      await api.call(noticeUpdateStatus, { body: { id: notice.id, fromStatus: notice.status, toStatus: 1, publishAt, rowVersion: notice.rowVersion } }, { silent: true });
      toast.success(`公告「${notice.title}」将于 ${formatDateTime(publishAt, 'YYYY-MM-DD HH:mm')} 发布`);
      void revalidate(noticeUpdateStatus);
      onClose();
    } catch (err) {
      // The refusal (a time in the past, after the expiry, moved by someone else): under the field
      // and in a toast (spec §8).
      setError(refusalShown(err, [])[''] ?? '保存失败');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={`定时发布 · ${notice.title}`} onClose={onClose} dirty={!!text} onSubmit={() => void submit()} footer={<ModalActions onCancel={onClose} busy={busy} submitLabel="定时发布" />}>
      <Field
        label="发布时间"
        required
        autoFocus
        inputMode="numeric"
        placeholder="YYYY-MM-DD HH:mm"
        value={text}
        onChange={(e) => (setText(e.target.value), setError(null))}
        error={error ?? undefined}
        hint="上海时间；到点后由系统自动发布"
      />
    </Modal>
  );
}
