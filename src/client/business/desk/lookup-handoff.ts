// The business layer (src/client/business): the call-centre desk's pieces that several features
// share (the card link, the reveal, unbind and refund dialogs, the palette's lookup hand-off). It
// sits above components/ and lib/ and below the features: features and app/ may import it, never
// components/, commands/ or lib/ (eslint.config.js refuses that), and it imports no feature.
import { useEffect, useState } from 'react';
import type { CardViewAction } from './card-no-link';

/**
 * A phone number or citizen id typed into the palette reaches the card view through memory, not the
 * address: personal data stays out of URLs, history and server logs. A reload forgets it. `then`
 * names the card view's action to run once the card is found (e.g. `reveal`).
 */
export interface HandOff<A extends string = never> {
  q: string;
  then?: A | undefined;
}

/**
 * One channel from the palette to one screen: `handOff` before navigating, `useHandOff` in the
 * screen. Each screen that takes numbers this way has its own, so none takes another's.
 */
export function createHandOff<A extends string = never>() {
  let pending: HandOff<A> | null = null;
  const listeners = new Set<() => void>();
  const take = (): HandOff<A> | null => {
    const h = pending;
    pending = null;
    return h;
  };
  return {
    handOff(q: string, then?: A): void {
      pending = { q, then };
      for (const l of listeners) l();
    },
    /**
     * The latest hand-off for a mounted screen: the one waiting when it mounts, then each new one
     * (a second lookup while the screen is open replaces the first, even at the same address).
     */
    useHandOff(): HandOff<A> | null {
      const [handed, setHanded] = useState<HandOff<A> | null>(take);
      useEffect(() => {
        const listener = () => setHanded(take());
        listeners.add(listener);
        // One handed over between the first render and this effect.
        if (pending) listener();
        return () => void listeners.delete(listener);
      }, []);
      return handed;
    },
  };
}

const cardView = createHandOff<CardViewAction>();
/** To the card view (卡片详情). */
export const handOff = cardView.handOff;
export const useHandOff = cardView.useHandOff;
