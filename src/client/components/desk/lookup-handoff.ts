import { useEffect, useState } from 'react';

/**
 * A phone number or citizen id typed into the palette reaches the card view through memory, not the
 * address: personal data stays out of URLs, history and server logs. A reload forgets it. `then`
 * names the card view's action to run once the card is found (e.g. `reveal`).
 */
export interface HandOff {
  q: string;
  then?: string | undefined;
}

let pending: HandOff | null = null;
const listeners = new Set<() => void>();

export function handOff(q: string, then?: string): void {
  pending = { q, then };
  for (const l of listeners) l();
}

function take(): HandOff | null {
  const h = pending;
  pending = null;
  return h;
}

/**
 * The latest hand-off for a mounted card view: the one waiting when it mounts, then each new one
 * (a second lookup while the view is open replaces the first, even at the same address).
 */
export function useHandOff(): HandOff | null {
  const [handed, setHanded] = useState<HandOff | null>(take);
  useEffect(() => {
    const listener = () => setHanded(take());
    listeners.add(listener);
    // One handed over between the first render and this effect.
    if (pending) listener();
    return () => void listeners.delete(listener);
  }, []);
  return handed;
}
