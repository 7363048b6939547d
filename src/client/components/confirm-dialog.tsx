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
  /**
   * What it confirms cannot be undone (作废, 删除, 合并): focus starts on 取消, so an Enter meant
   * for the row or the button that opened it (or a key held down) cancels; only the confirm
   * button itself confirms, reached with Tab. The title and text name the record and its district.
   */
  irreversible?: boolean;
  onConfirm(): void;
  onClose(): void;
}

/**
 * Enter (or Ctrl+Enter) confirms, Esc cancels; the confirm button has focus when it opens. A
 * dangerous one (`danger`) starts on 取消, and Ctrl+Enter confirms from anywhere. An irreversible
 * one starts on 取消 too and has no Enter-anywhere: Tab to the confirm button.
 */
export function ConfirmDialog({ open, title, children, confirmLabel = '确定', danger, busy, irreversible = false, onConfirm, onClose }: ConfirmDialogProps) {
  if (irreversible) {
    return (
      <Modal
        open={open}
        title={title}
        onClose={onClose}
        width="max-w-md"
        footer={
          <>
            <Button onClick={onClose} autoFocus hotkey="Esc">
              取消
            </Button>
            <Button variant={danger ? 'danger' : 'primary'} disabled={busy} onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </>
        }
      >
        <div className="text-sm leading-6 text-gray-700">{children}</div>
        <p className="mt-3 text-xs text-gray-600">此操作不能撤销。按 Tab 移到「{confirmLabel}」再按 Enter 确认，Esc 取消。</p>
      </Modal>
    );
  }
  return (
    <Modal
      open={open}
      title={title}
      onClose={onClose}
      onSubmit={onConfirm}
      width="max-w-sm"
      footer={
        <>
          {/* A dangerous step (禁用, 下架, 解绑…) starts on the safe choice: an Enter meant for the row
              cancels; Ctrl+Enter, or Tab and Enter, confirms. */}
          <Button onClick={onClose} hotkey="Esc" autoFocus={!!danger}>
            取消
          </Button>
          <Button type="submit" variant={danger ? 'danger' : 'primary'} disabled={busy} autoFocus={!danger} hotkey={danger ? 'Ctrl+Enter' : 'Enter'}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div className="text-sm leading-6 text-gray-700">{children}</div>
    </Modal>
  );
}
