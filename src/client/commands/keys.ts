/**
 * Hotkeys are written once, in react-hotkeys-hook's notation (`mod+k`, `ctrl+b`, `?`, `g>u` for
 * "g then u"), and shown to people in the console's own (`Ctrl+K`, `Ctrl+B`, `?`, `g u`).
 */
export function keyLabel(hotkey: string): string {
  return hotkey
    .split('>')
    .map((step) =>
      step
        .split('+')
        .map((k) => (k === 'mod' ? 'Ctrl' : k.length === 1 ? (step.includes('+') ? k.toUpperCase() : k) : k[0]?.toUpperCase() + k.slice(1)))
        .join('+'),
    )
    .join(' ');
}

/** A shifted symbol (`?`) is matched by the character it types, not by the physical key. */
export const matchesTypedCharacter = (hotkey: string) => /^[^a-z0-9+>]$/i.test(hotkey);
