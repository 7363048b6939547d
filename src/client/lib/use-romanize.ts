import { useEffect, useState } from 'react';
import type { Romanize } from '../../shared/domain/search';

/** The pinyin dictionary, loaded once per page after the shell; the palette and the pickers rank without it until then. */
let romanizeLoaded: Romanize | null = null;
/** The dictionary, and whether waiting for it is over (loaded, or failed: ranking goes on without). */
export function useRomanize(): { romanize: Romanize | null; done: boolean } {
  const [state, setState] = useState<{ romanize: Romanize | null; done: boolean }>(() => ({ romanize: romanizeLoaded, done: !!romanizeLoaded }));
  useEffect(() => {
    if (state.done) return;
    let live = true;
    import('../../shared/domain/pinyin')
      .then((m) => {
        romanizeLoaded = m.romanize;
        if (live) setState({ romanize: m.romanize, done: true });
      })
      // Without it the palette still finds characters, letters and digits.
      .catch(() => live && setState({ romanize: null, done: true }));
    return () => {
      live = false;
    };
  }, [state.done]);
  return state;
}

