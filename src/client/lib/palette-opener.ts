// The shell owns the palette; a table row below the commands layer (合并到… on 站点) asks for it
// here. One opener: the layout that is mounted.

let opener: (() => void) | null = null;

/** The layout registers how it opens the palette; the returned function unregisters it. */
export function providePaletteOpener(open: () => void): () => void {
  opener = open;
  return () => {
    if (opener === open) opener = null;
  };
}

/** Opens the palette; false when no shell is mounted to open it. */
export function openPalette(): boolean {
  if (!opener) return false;
  opener();
  return true;
}
