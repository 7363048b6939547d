import type { ReactNode } from 'react';
import { Button } from './button';
import { Modal } from './modal';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm(): void;
  onClose(): void;
}

/** Enter (or Ctrl+Enter) confirms, Esc cancels; the confirm button has focus when it opens. */
export function ConfirmDialog({ open, title, children, confirmLabel = '确定', danger, busy, onConfirm, onClose }: ConfirmDialogProps) {
  return (
    <Modal
      open={open}
      title={title}
      onClose={onClose}
      onSubmit={onConfirm}
      width="max-w-sm"
      footer={
        <>
          <Button onClick={onClose} hotkey="Esc">
            取消
          </Button>
          <Button type="submit" variant={danger ? 'danger' : 'primary'} disabled={busy} autoFocus hotkey="Enter">
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div className="text-sm leading-6 text-gray-700">{children}</div>
    </Modal>
  );
}
