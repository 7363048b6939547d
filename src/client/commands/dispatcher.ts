import { useRef } from 'react';
import { type HotkeyCallback, useHotkeys } from 'react-hotkeys-hook';
import { matchesTypedCharacter } from './keys';

/** A key the dispatcher binds: a command's `hotkey` with what running it means here. */
export interface HotkeyBinding {
  hotkey: string;
  run(): void;
  /** Also while typing in a field (Ctrl+K). */
  whileTyping?: boolean;
  /** Besides permission: whether the command makes sense in the current state. */
  when?: () => boolean;
}

const SEQUENCE_MS = 1_200;

/**
 * Binds every given hotkey with react-hotkeys-hook, in a fixed number of hook calls (one per kind
 * of key), so the list can change between renders. `paused` quiets everything but the keys that
 * work while typing (a dialog holds the keyboard).
 */
export function useHotkeyDispatcher(bindings: readonly HotkeyBinding[], paused: boolean): void {
  // Read at key time: the callbacks below never go stale.
  const current = useRef(bindings);
  current.current = bindings;
  const dispatch: HotkeyCallback = (event, handler) => {
    const hit = current.current.find((b) => b.hotkey.toLowerCase() === handler.hotkey.toLowerCase());
    if (!hit || (hit.when && !hit.when())) return;
    event.preventDefault();
    hit.run();
  };
  const keysOf = (pick: (b: HotkeyBinding) => boolean) => bindings.filter(pick).map((b) => b.hotkey);
  const typing = keysOf((b) => !!b.whileTyping);
  const typed = keysOf((b) => !b.whileTyping && matchesTypedCharacter(b.hotkey));
  const plain = keysOf((b) => !b.whileTyping && !matchesTypedCharacter(b.hotkey));
  const deps = [typing.join(','), typed.join(','), plain.join(','), paused];

  useHotkeys(typing, dispatch, { enableOnFormTags: true, enabled: typing.length > 0 }, deps);
  useHotkeys(typed, dispatch, { useKey: true, enabled: !paused && typed.length > 0 }, deps);
  useHotkeys(plain, dispatch, { enabled: !paused && plain.length > 0, sequenceTimeoutMs: SEQUENCE_MS }, deps);
}
