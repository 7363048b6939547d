import { createStore, useStore } from './store';

/** Error toasts last 5 s (spec §9); success ones a little less. */
export const ERROR_TOAST_MS = 5_000;
const SUCCESS_TOAST_MS = 3_000;
const ACTION_TOAST_MS = 10_000;

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

/**
 * Toasts are state here, below every layer that raises one (the HTTP client, the task stream, the
 * form hook); `components/toast.tsx` only draws them.
 */
export const toast = {
  error: (text: string) => push('error', text, ERROR_TOAST_MS),
  success: (text: string) => push('success', text, SUCCESS_TOAST_MS),
  info: (text: string) => push('info', text, SUCCESS_TOAST_MS),
  /** A success with a button, e.g. 下载 when an export is ready, wherever the user is. */
  action: (text: string, action: NonNullable<ToastItem['action']>) => push('success', text, ACTION_TOAST_MS, action),
};

/** The toasts showing now, oldest first. */
export const useToasts = (): ToastItem[] => useStore(items);
