import { useEffect, useState } from 'react';

/**
 * A local edit of something the server holds (a direction's stops, a path, a sub-line's stops).
 * `key` says what the server holds now; when it changes, an untouched draft follows it, a draft
 * that now equals it is simply clean, and a draft with the user's own changes is kept. `dirty`
 * compares the draft with what the server holds now.
 */
export function useDraft<T>(saved: T, keyOf: (value: T) => string) {
  const savedKey = keyOf(saved);
  const [state, setState] = useState(() => ({ base: savedKey, draft: saved }));
  useEffect(() => {
    setState((s) => {
      if (s.base === savedKey) return s;
      const mine = keyOf(s.draft);
      return mine === s.base ? { base: savedKey, draft: saved } : { base: mine === savedKey ? savedKey : s.base, draft: s.draft };
    });
    // `saved` is new on every render; its key is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [savedKey]);
  return {
    draft: state.draft,
    setDraft: (draft: T) => setState((s) => ({ ...s, draft })),
    reset: () => setState({ base: savedKey, draft: saved }),
    dirty: keyOf(state.draft) !== savedKey,
  };
}
