import { useEffect } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';

const typing = (t: EventTarget | null) =>
  t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));

export interface GlobalKeys {
  openPalette(): void;
  openCheatSheet(): void;
  toggleSidebar(): void;
  /** `g` then a letter: a menu's jump key (MENU_JUMP_KEYS, from the modules' manifests). */
  jump(letter: string): void;
  /** While a dialog is open the page's keys stay quiet. */
  paused: boolean;
}

const SEQUENCE_MS = 1_200;

export function useGlobalHotkeys(keys: GlobalKeys): void {
  // Ctrl+K / ⌘K works everywhere, even while typing in a field (DESIGN §5).
  useHotkeys('mod+k', () => keys.openPalette(), { enableOnFormTags: true, preventDefault: true }, [keys.openPalette]);
  useHotkeys('ctrl+b', () => keys.toggleSidebar(), { enabled: !keys.paused, preventDefault: true }, [keys.toggleSidebar, keys.paused]);

  useEffect(() => {
    if (keys.paused) return;
    let armedAt = 0;
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      if (e.key === '?') {
        e.preventDefault();
        keys.openCheatSheet();
        return;
      }
      const now = Date.now();
      if (armedAt && now - armedAt < SEQUENCE_MS && /^[a-z]$/.test(e.key)) {
        armedAt = 0;
        e.preventDefault();
        keys.jump(e.key);
        return;
      }
      armedAt = e.key === 'g' ? now : 0;
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [keys]);
}
