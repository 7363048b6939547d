/**
 * A phone number or citizen id typed into the palette reaches the card view through memory, not the
 * address: personal data stays out of URLs, history and server logs. A reload forgets it.
 */
let pending: string | null = null;

export function handOff(q: string): void {
  pending = q;
}

export function takeHandOff(): string | null {
  const q = pending;
  pending = null;
  return q;
}
