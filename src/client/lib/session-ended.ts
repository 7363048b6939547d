import { createStore, useStore } from './store';

/** The one "login expired / logged in elsewhere" notice; only one shows at a time (spec §8). */
export interface SessionEnded {
  reason: 'elsewhere' | 'expired' | 'idle';
  msg: string;
}

const notice = createStore<SessionEnded | null>(null);

export function announceSessionEnded(next: SessionEnded): void {
  if (notice.get()) return;
  notice.set(next);
}

export const useSessionEnded = (): SessionEnded | null => useStore(notice);

/** While the notice shows, nothing else may end the session its own way (the idle check). */
export const sessionEndedShowing = () => notice.get() !== null;

/** Tests start each case with no notice showing. */
export const resetSessionEnded = (): void => notice.set(null);
