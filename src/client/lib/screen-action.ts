import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { useScreenLocation } from './screen-context';

/**
 * Lets a command open a screen's dialog: `/user/user-list?action=add` runs the screen's `add`
 * handler once and drops `action` from the address, so a reload does not open it again.
 */
export function useScreenAction(name: string, handler: () => void): void {
  const { path, search, active } = useScreenLocation();
  const [, navigate] = useLocation();
  const run = useRef(handler);
  run.current = handler;
  useEffect(() => {
    if (!active) return;
    const params = new URLSearchParams(search);
    if (params.get('action') !== name) return;
    params.delete('action');
    const rest = params.toString();
    navigate(rest ? `${path}?${rest}` : path, { replace: true });
    run.current();
  }, [active, search, path, name, navigate]);
}
