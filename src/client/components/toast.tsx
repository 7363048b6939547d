// The toasts' view; their state (and `toast.error(…)` for everyone) is lib/toast.ts.
import { type ToastItem, dismiss, holdToast, releaseToast, useToasts } from '../lib/toast';

const STYLE: Record<ToastItem['kind'], string> = {
  error: 'border-red-200 bg-red-50 text-red-700',
  success: 'border-green-200 bg-green-50 text-green-700',
  info: 'border-gray-200 bg-white text-gray-700',
};

export function Toaster() {
  const list = useToasts();
  return (
    <div aria-live="assertive" className="pointer-events-none fixed inset-x-0 top-3 z-[100] flex flex-col items-center gap-2 px-3">
      {list.map((t) => (
        <div
          key={t.id}
          role={t.kind === 'error' ? 'alert' : 'status'}
          onMouseEnter={() => holdToast(t.id)}
          onMouseLeave={(e) => !e.currentTarget.contains(document.activeElement) && releaseToast(t.id)}
          onFocus={() => holdToast(t.id)}
          onBlur={(e) => !e.currentTarget.contains(e.relatedTarget as Node | null) && !e.currentTarget.matches(':hover') && releaseToast(t.id)}
          className={`pointer-events-auto flex max-w-md items-start gap-3 rounded border px-4 py-2 text-sm shadow ${STYLE[t.kind]}`}>
          <span className="flex-1">{t.text}</span>
          {t.action && (
            <button
              type="button"
              className="font-medium text-[var(--theme-strong)] underline underline-offset-2 focus-visible:outline-2"
              onClick={() => {
                dismiss(t.id);
                t.action?.run();
              }}
            >
              {t.action.label}
            </button>
          )}
          <button type="button" aria-label="关闭提示" className="opacity-60 hover:opacity-100 focus-visible:outline-2" onClick={() => dismiss(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
