import { useCallback } from 'react';
import { setFlash } from '../../lib/flash';
import { loginAddress } from '../../lib/session-ended';
import { useInactivityLogout, useLogoutAcrossTabs } from '../activity';
import { LOGIN_EXPIRED_MSG, type Session } from '../session';

/** 退出登录, and the two ways a session ends without it: idle too long here, or logged out in another tab. */
export function useShellLogout(session: Session): () => Promise<void> {
  const logout = useCallback(async () => {
    await session.logout();
    window.location.assign('/login');
  }, [session]);

  useInactivityLogout(
    useCallback(() => {
      // Shown after the reload that the logout makes, so it is actually read.
      setFlash(LOGIN_EXPIRED_MSG, 'session');
      void logout();
    }, [logout]),
  );
  // To /login with this page as the way back, as the tab that was told goes.
  useLogoutAcrossTabs(useCallback(() => window.location.assign(loginAddress()), []));
  return logout;
}
