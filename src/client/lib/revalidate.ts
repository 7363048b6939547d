import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import { type Endpoint, endpoints, staleAfter } from '../../shared/api';

/**
 * After a change, refetch every read that shares one of its resource tags (`reads`/`writes` on the
 * endpoint, else its module): screens never list the endpoints a change makes stale.
 */
export function useRevalidate() {
  const { mutate } = useSWRConfig();
  return useCallback(
    (...changes: readonly Pick<Endpoint, 'id' | 'writes'>[]) => {
      const stale = new Set(changes.flatMap((c) => staleAfter(c, endpoints)));
      // The change itself succeeded; a read that fails to refetch shows its own error where it is shown.
      return mutate((key) => Array.isArray(key) && typeof key[0] === 'string' && stale.has(key[0])).catch(() => undefined);
    },
    [mutate],
  );
}
