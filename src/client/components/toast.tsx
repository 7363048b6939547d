import { createStore, useStore } from '../lib/store';

/** Error toasts last 5 s (spec §9); success ones a little less. */
export const ERROR_TOAST_MS = 5_000;
const SUCCESS_TOAST_MS = 3_000;

export interface ToastItem {
  id: number;
  kind: 'error' | 'success' | 'info';
  text: string;
  /** One thing to do about it (下载 a finished export); the toast stays longer then. */
  action?: { label: string; run(): void };
}

const items = createStore<ToastItem[]>([]);
let nextId = 1;
/** Each toast's time to go; held while the pointer or focus is on it (WCAG 2.2.1: time to act). */
const timers = new Map<number, { ms: number; timer: ReturnType<typeof setTimeout> | null }>();

function schedule(id: number) {
  const t = timers.get(id);
  if (!t) return;
  if (t.timer) clearTimeout(t.timer);
  t.timer = setTimeout(() => dismiss(id), t.ms);
}

/** The pointer or the keyboard is on the toast: it stays until they leave. */
export function holdToast(id: number) {
  const t = timers.get(id);
  if (t?.timer) clearTimeout(t.timer);
  if (t) t.timer = null;
}

/** Left again: the toast's full time starts over. */
export const releaseToast = schedule;

/** Shows a toast and returns its id (the one already showing, for the same message twice at once). */
function push(kind: ToastItem['kind'], text: string, ms: number, action?: ToastItem['action']): number {
  // The same message twice at once (several failing calls) shows once.
  const same = items.get().find((t) => t.text === text && t.kind === kind);
  if (same) return same.id;
  const item = { id: nextId++, kind, text, action };
  items.set((prev) => [...prev, item]);
  timers.set(item.id, { ms, timer: null });
  schedule(item.id);
  return item.id;
}

export function dismiss(id: number) {
  const t = timers.get(id);
  if (t?.timer) clearTimeout(t.timer);
  timers.delete(id);
  items.set((prev) => prev.filter((x) => x.id !== id));
}

export const toast = {
  error: (text: string) => push('error', text, ERROR_TOAST_MS),
  success: (text: string) => push('success', text, SUCCESS_TOAST_MS),
  info: (text: string) => push('info', text, SUCCESS_TOAST_MS),
  /** A success with a button, e.g. 下载 when an export is ready, wherever the user is. */
  action: (text: string, action: NonNullable<ToastItem['action']>) => push('success', text, ACTION_TOAST_MS, action),
};

const ACTION_TOAST_MS = 10_000;

const STYLE: Record<ToastItem['kind'], string> = {
  error: 'border-red-200 bg-red-50 text-red-700',
  success: 'border-green-200 bg-green-50 text-green-700',
  info: 'border-gray-200 bg-white text-gray-700',
};

export function Toaster() {
  const list = useStore(items);
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
