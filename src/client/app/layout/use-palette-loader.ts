import { type ComponentType, useCallback, useEffect, useRef, useState } from 'react';
import type { PaletteProps } from '../../commands/palette';
import { toast } from '../../lib/toast';
import { type TypeAhead, claimTypeAhead, dropEarlyPalette } from '../../lib/type-ahead';

const loadPalette = () => import('../../commands/palette');

/**
 * The palette (cmdk) is fetched as soon as the shell mounts, its pinyin dictionary after it. Until
 * it is here, index.html's type-ahead keeps Ctrl+K and the keys after it; then the palette opens
 * with them, so no key is lost however fast the hands are after login or F5.
 */
export function usePaletteLoader() {
  const [PaletteView, setPaletteView] = useState<ComponentType<PaletteProps> | null>(null);
  const paletteLoaded = useRef(false);
  /** Loads the palette chunk and shows it; false when the network failed. */
  const fetchPalette = useCallback(
    () =>
      loadPalette().then(
        (m) => {
          paletteLoaded.current = true;
          setPaletteView(() => m.Palette);
          return true;
        },
        () => false,
      ),
    [],
  );
  const [seed, setSeed] = useState<TypeAhead | null>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    let live = true;
    void fetchPalette().then((loaded) => {
      if (!live) return;
      // Without a palette the buffered keys have nowhere to go: the type-ahead is let go either way.
      const typed = claimTypeAhead();
      if (!loaded || !typed) return dropEarlyPalette();
      setSeed(typed);
      setOpen(true);
    });
    return () => {
      live = false;
    };
  }, [fetchPalette]);

  /** Ctrl+K: opens with an empty query. */
  const show = useCallback(() => {
    setSeed(null);
    setOpen(true);
    // A palette chunk that failed to load (a network blip) is fetched again when asked for.
    if (!paletteLoaded.current) void fetchPalette().then((loaded) => loaded || toast.error('命令面板加载失败，请检查网络后重试'));
  }, [fetchPalette]);

  /** Opens with `text` typed (a digit or a paste where no field took it). */
  const openWith = useCallback(
    (text: string) => {
      setSeed({ open: true, text, enter: false });
      setOpen(true);
      if (!paletteLoaded.current) void fetchPalette().then((loaded) => loaded || toast.error('命令面板加载失败，请检查网络后重试'));
    },
    [fetchPalette],
  );

  return { PaletteView, open, seed, setOpen, show, openWith };
}
