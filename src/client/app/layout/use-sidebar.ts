import { useCallback, useEffect, useState } from 'react';
import { readCookie, writeCookie } from '../../lib/storage';

const SIDEBAR_COOKIE = 'sidebarStatus';

/** The menu: on a desktop folded or not (remembered in the old console's cookie), on a phone a drawer. */
export function useSidebar(mobile: boolean) {
  const [desktopOpen, setDesktopOpen] = useState(() => readCookie(SIDEBAR_COOKIE) !== '0');
  const [mobileOpen, setMobileOpen] = useState(false);
  useEffect(() => {
    if (!mobile) setMobileOpen(false);
  }, [mobile]);

  const toggle = useCallback(() => {
    if (mobile) return setMobileOpen((v) => !v);
    setDesktopOpen((v) => {
      writeCookie(SIDEBAR_COOKIE, v ? '0' : '1');
      return !v;
    });
  }, [mobile]);

  return { desktopOpen, mobileOpen, setMobileOpen, open: mobile ? mobileOpen : desktopOpen, toggle };
}
