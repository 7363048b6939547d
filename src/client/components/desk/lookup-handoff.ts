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

export function handOff(q: string, then?: string): void {
  pending = { q, then };
}

export function takeHandOff(): HandOff | null {
  const h = pending;
  pending = null;
  return h;
}
