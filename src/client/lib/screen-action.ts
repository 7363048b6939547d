import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { useScreenLocation } from './screen-context';

/**
 * Lets a command open a screen's dialog: `/user/user-list?action=add` runs the screen's `add`
 * handler once and drops `action` (and the action's own `args`, e.g. `keep` and `merge`) from the
 * address, so a reload does not open it again.
 */
export function useScreenAction(name: string, handler: (args: URLSearchParams) => void, args: readonly string[] = []): void {
  const { path, search, active } = useScreenLocation();
  const [, navigate] = useLocation();
  const run = useRef(handler);
  run.current = handler;
  useEffect(() => {
    if (!active) return;
    const params = new URLSearchParams(search);
    if (params.get('action') !== name) return;
    const given = new URLSearchParams(search);
    params.delete('action');
    for (const a of args) params.delete(a);
    const rest = params.toString();
    navigate(rest ? `${path}?${rest}` : path, { replace: true });
    run.current(given);
    // `args` is a fixed list per screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, search, path, name, navigate]);
}
