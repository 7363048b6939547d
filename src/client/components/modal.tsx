import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useSessionEnded } from '../lib/session-ended';
import { Button } from './button';

export interface ModalProps {
  open: boolean;
  title: string;
  onClose(): void;
  children: ReactNode;
  footer?: ReactNode;
  /** When set, the body is a form: Enter in a field and Ctrl+Enter anywhere submit it. */
  onSubmit?(): void;
  width?: string;
  /** Only the session-ended notice itself stays open once the session is over. */
  aboveSessionEnd?: boolean;
  /**
   * Typed but not saved: Esc, the backdrop and × ask before throwing it away (取消 is explicit and
   * closes at once).
   */
  dirty?: boolean;
}

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Esc and the backdrop close; focus is trapped inside and returns where it was (Headless UI). */
export function Modal({ open, title, onClose, children, footer, onSubmit, width = 'max-w-lg', aboveSessionEnd = false, dirty = false }: ModalProps) {
  // A session the server ended closes every dialog but its own notice: nothing typed there could be saved.
  const ended = useSessionEnded();
  const [asking, setAsking] = useState(false);
  // The panel's frame (what holds the panel and nothing else): watched for focus that falls out.
  const [panel, setPanel] = useState<HTMLElement | null>(null);
  useFocusKept(panel);
  const keepRef = useRef<HTMLButtonElement>(null);
  // The last field typed in: where "keep editing" puts the hands back.
  const editingRef = useRef<HTMLElement | null>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  // Should focus still fall out of a dialog that stays open (Headless UI's own Esc, which blurs
  // before asking to close, when the key did not come through the panel): it goes back inside.
  const keepFocusInside = () =>
    setTimeout(() => {
      const panel = panelRef.current;
      const now = document.activeElement;
      if (panel?.isConnected && (!now || now === document.body)) safeTarget(panel)?.focus();
    }, 0);
  useEffect(() => {
    if (asking) keepRef.current?.focus();
  }, [asking]);
  // A dialog that stays mounted (修改密码) opens with its own footer again, never the question.
  useEffect(() => {
    if (!open) setAsking(false);
  }, [open]);
  const keepEditing = () => {
    setAsking(false);
    const field = editingRef.current;
    setTimeout(() => field?.isConnected && field.focus(), 0);
  };
  const discard = () => {
    setAsking(false);
    onClose();
  };
  // Esc while asking means "keep editing"; a second Esc does not throw the text away.
  const requestClose = () => {
    keepFocusInside();
    if (asking) return keepEditing();
    if (!dirty) return onClose();
    setAsking(true);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit?.();
  };
  const body = (
    <>
      <div className="px-5 py-4">{children}</div>
      {asking ? (
        <div role="alert" data-modal-footer className="flex flex-wrap items-center justify-end gap-2 border-t border-orange-200 bg-orange-50 px-5 py-3 text-sm text-orange-800">
          <span className="mr-auto">有未保存的修改，关闭将丢失。</span>
          <Button ref={keepRef} onClick={keepEditing} hotkey="Esc">
            继续编辑
          </Button>
          <Button variant="danger" onClick={discard}>
            放弃修改
          </Button>
        </div>
      ) : (
        footer && (
          // Wrapped to a second line on a phone rather than each button's label broken per character.
          <div data-modal-footer className="flex flex-wrap justify-end gap-2 border-t border-gray-100 px-5 py-3 [&_button]:whitespace-nowrap">
            {footer}
          </div>
        )
      )}
    </>
  );
  return (
    <Dialog open={open && (aboveSessionEnd || !ended)} onClose={requestClose} className="relative z-50">
      <div className="fixed inset-0 bg-black/40" aria-hidden="true" />
      <div ref={setPanel} className="fixed inset-0 flex items-start justify-center overflow-y-auto p-4 pt-[10vh]">
        <DialogPanel
          ref={panelRef}
          className={`w-full ${width} rounded bg-white shadow-xl`}
          onKeyDown={(e) => {
            // Esc is handled here, before Headless UI's, which blurs the focused element first: a
            // dialog that stays open (the session-ended notice, the unsaved-changes question) would
            // be left with focus on <body>. A key a field inside already used is not a close.
            if (e.key !== 'Escape' || e.defaultPrevented) return;
            e.preventDefault();
            requestClose();
          }}
          onFocus={(e) => {
            if (e.target.matches('input, textarea, select')) editingRef.current = e.target;
          }}
        >
          <div className="flex items-center justify-between border-b border-gray-100 px-5 py-3">
            <DialogTitle className="text-base font-medium text-gray-800">{title}</DialogTitle>
            <button type="button" aria-label="关闭" title="关闭 (Esc)" onClick={requestClose} className="rounded px-1 text-xl leading-none text-gray-500 hover:text-gray-700 focus-visible:outline-2 focus-visible:outline-[var(--theme)]">
              ×
            </button>
          </div>
          {onSubmit ? (
            <form
              noValidate
              onSubmit={submit}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit(e);
              }}
            >
              {body}
            </form>
          ) : (
            body
          )}
        </DialogPanel>
      </div>
    </Dialog>
  );
}

/** The footer of a form dialog: 取消 (Esc) and the submit button (Ctrl+Enter), busy-aware. */
export function ModalActions({ onCancel, busy = false, disabled = false, submitLabel = '保存' }: { onCancel(): void; busy?: boolean; disabled?: boolean; submitLabel?: string }) {
  return (
    <>
      <Button onClick={onCancel} hotkey="Esc">
        取消
      </Button>
      <Button type="submit" variant="primary" disabled={busy || disabled} hotkey="Ctrl+Enter">
        {busy ? (submitLabel === '保存' ? '保存中…' : '提交中…') : submitLabel}
      </Button>
    </>
  );
}

/**
 * Where focus goes when what held it inside the dialog can hold it no more (a disabled or removed
 * element, Headless UI's blur on Esc): the footer's first enabled button (取消, or 继续编辑 while
 * asking: the safe choice by convention), else the first thing that takes focus, else the dialog.
 * One rule for both keepers, so they never race to different places.
 */
function safeTarget(panel: HTMLElement): HTMLElement | null {
  return (
    panel.querySelector<HTMLElement>('[data-modal-footer] button:not(:disabled)') ??
    panel.querySelector<HTMLElement>(FOCUSABLE) ??
    panel.closest<HTMLElement>('[role="dialog"]')
  );
}

/**
 * Keeps focus inside the open dialog. A focused button that becomes disabled (a refused preview, a
 * request under way) or an element that is removed leaves the browser's focus on <body>, from where
 * Tab walks the page behind the modal; Headless UI's trap only acts on Tab from inside.
 */
function useFocusKept(panel: HTMLElement | null) {
  useEffect(() => {
    if (!panel) return;
    const lost = () => {
      const now = document.activeElement;
      if (!now || now === document.body) return true;
      return panel.contains(now) && (now as HTMLButtonElement).disabled === true;
    };
    const keep = () => {
      if (panel.isConnected && lost()) safeTarget(panel)?.focus();
    };
    const observer = new MutationObserver(keep);
    observer.observe(panel, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled'] });
    // Some browsers move focus to <body> only at the next rendering step, after the mutation.
    const onFocusOut = () => setTimeout(keep, 0);
    panel.addEventListener('focusout', onFocusOut);
    return () => {
      observer.disconnect();
      panel.removeEventListener('focusout', onFocusOut);
    };
  }, [panel]);
}
