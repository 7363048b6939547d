import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import type { ActionRef, ScreenActionName } from '../../shared/modules';
import { useScreenLocation } from './screen-context';

/**
 * Lets a command open a screen's dialog: `/user/user-list?action=add` runs the screen's `add`
 * handler once and drops `action` (and the action's own `args`, e.g. `keep` and `merge`) from the
 * address, so a reload does not open it again. A screen names the action with its page
 * (`['version', 'version', 'void']`), which must declare it in its manifest (a compile error
 * otherwise); a part shared by many screens (the list scaffold's `add`) names an action alone, one
 * that some page declares.
 */
export function useScreenAction(action: ActionRef | ScreenActionName, handler: (args: URLSearchParams) => void, args: readonly string[] = []): void {
  const name = typeof action === 'string' ? action : action[2];
  useScreenActions([name], (_name, given) => handler(given), args);
}

/**
 * The same for several actions with one handler, told which one ran: a resource's dialog actions
 * (useResourceActions), each `?action=…&id=…`.
 */
export function useScreenActions(names: readonly ScreenActionName[], handler: (name: ScreenActionName, args: URLSearchParams) => void, args: readonly string[] = []): void {
  const { path, search, active } = useScreenLocation();
  const [, navigate] = useLocation();
  const run = useRef(handler);
  run.current = handler;
  // A fixed list per screen, compared by value: a new array each render is the same actions.
  const key = names.join(' ');
  useEffect(() => {
    if (!active) return;
    const params = new URLSearchParams(search);
    const name = params.get('action') as ScreenActionName | null;
    if (!name || !key.split(' ').includes(name)) return;
    const given = new URLSearchParams(search);
    params.delete('action');
    for (const a of args) params.delete(a);
    const rest = params.toString();
    navigate(rest ? `${path}?${rest}` : path, { replace: true });
    run.current(name, given);
    // `args` is a fixed list per screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, search, path, key, navigate]);
}
