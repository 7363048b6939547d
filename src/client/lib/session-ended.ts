import { useSyncExternalStore } from 'react';

/** The one "login expired / logged in elsewhere" notice; only one shows at a time (spec §8). */
export interface SessionEnded {
  reason: 'elsewhere' | 'expired' | 'idle';
  msg: string;
}

let current: SessionEnded | null = null;
const listeners = new Set<() => void>();

export function announceSessionEnded(next: SessionEnded): void {
  if (current) return;
  current = next;
  listeners.forEach((l) => l());
}

export function useSessionEnded(): SessionEnded | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}

/** While the notice shows, nothing else may end the session its own way (the idle check). */
export const sessionEndedShowing = () => current !== null;

/** Tests start each case with no notice showing. */
export function resetSessionEnded(): void {
  current = null;
  listeners.forEach((l) => l());
}
