import { useRef } from 'react';
import { type HotkeyCallback, useHotkeys } from 'react-hotkeys-hook';
import { matchesTypedCharacter } from './keys';
import type { HotkeyScope } from './types';

/** A key the dispatcher binds: a command's `hotkey` with what running it means here. */
export interface HotkeyBinding {
  hotkey: string;
  run(): void;
  /** Also while typing in a field (Ctrl+K). */
  whileTyping?: boolean;
  /** Besides permission: whether the command makes sense in the current state. */
  when?: () => boolean;
  /** Where the key listens: anywhere (global), on a table's rows, or inside an open dialog. */
  scope?: HotkeyScope;
}

/** Whether a key pressed on `target` is in a binding's scope. */
export function inScope(scope: HotkeyScope | undefined, target: EventTarget | null): boolean {
  const el = target instanceof Element ? target : null;
  if (scope === 'table') return !!el?.closest('table');
  if (scope === 'dialog') return !!el?.closest('[role="dialog"]');
  // Global keys are the page's: a dialog holds the keyboard while it is open.
  return !el?.closest('[role="dialog"]');
}

const SEQUENCE_MS = 1_200;

/**
 * Binds every given hotkey with react-hotkeys-hook, in a fixed number of hook calls (one per kind
 * of key), so the list can change between renders. Each binding listens in its scope (global, a
 * table's rows, a dialog); `paused` quiets the global ones except those that work while typing.
 */
export function useHotkeyDispatcher(bindings: readonly HotkeyBinding[], paused: boolean): void {
  // Read at key time: the callbacks below never go stale.
  const current = useRef(bindings);
  current.current = bindings;
  const dispatch: HotkeyCallback = (event, handler) => {
    const key = handler.hotkey.toLowerCase();
    // One key may mean different things in different scopes: the pressed element decides.
    const hit = current.current.find(
      (b) => b.hotkey.toLowerCase() === key && (b.whileTyping || inScope(b.scope, event.target)) && (!paused || b.whileTyping || (b.scope ?? 'global') !== 'global'),
    );
    if (!hit || (hit.when && !hit.when())) return;
    event.preventDefault();
    hit.run();
  };
  // A key bound in several scopes is registered once; dispatch picks the binding by scope.
  const keysOf = (pick: (b: HotkeyBinding) => boolean) => [...new Set(bindings.filter(pick).map((b) => b.hotkey.toLowerCase()))];
  const typing = keysOf((b) => !!b.whileTyping);
  const typed = keysOf((b) => !b.whileTyping && matchesTypedCharacter(b.hotkey));
  const plain = keysOf((b) => !b.whileTyping && !matchesTypedCharacter(b.hotkey));
  const deps = [typing.join(','), typed.join(','), plain.join(','), paused];

  useHotkeys(typing, dispatch, { enableOnFormTags: true, enabled: typing.length > 0 }, deps);
  useHotkeys(typed, dispatch, { useKey: true, enabled: typed.length > 0 }, deps);
  useHotkeys(plain, dispatch, { enabled: plain.length > 0, sequenceTimeoutMs: SEQUENCE_MS }, deps);
}
