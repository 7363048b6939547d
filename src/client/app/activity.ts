import { useEffect } from 'react';
import { setFlash } from '../lib/flash';
import { endedInAnotherTab, sessionEndedShowing } from '../lib/session-ended';
import { readToken, touchToken } from '../lib/session-store';
import { KEYS } from '../lib/storage';

const EVENTS = ['keydown', 'mousedown', 'touchstart', 'wheel'] as const;

/**
 * Inactivity logout (spec §9): input pushes the stored deadline forward; a check every few
 * seconds logs out once it passes. The deadline lives in local storage, so every tab shares it.
 */
export function useInactivityLogout(onIdle: () => void, checkEveryMs = 5_000): void {
  useEffect(() => {
    let last = 0;
    const onInput = () => {
      const now = Date.now();
      if (now - last < 2_000) return;
      last = now;
      touchToken(now);
    };
    for (const e of EVENTS) window.addEventListener(e, onInput, { passive: true, capture: true });
    const timer = setInterval(() => {
      if (!readToken() && !sessionEndedShowing()) onIdle();
    }, checkEveryMs);
    return () => {
      for (const e of EVENTS) window.removeEventListener(e, onInput, { capture: true });
      clearInterval(timer);
    };
  }, [onIdle, checkEveryMs]);
}

/** Logging out in one tab reaches the other tabs of the browser (the token key disappears). */
export function useLogoutAcrossTabs(onLoggedOut: () => void): void {
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key !== KEYS.token || e.newValue !== null) return;
      // The server ended the session in another tab: this one's login page says why as well.
      const why = endedInAnotherTab();
      if (why) setFlash(why, 'session');
      onLoggedOut();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [onLoggedOut]);
}
