import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { Endpoint } from '../../shared/api';
import { loadContract, loadedContract } from './contract';

/**
 * After a change, refetch every read that shares one of its resource tags (`reads`/`writes` on the
 * endpoint, else its module): screens never list the endpoints a change makes stale.
 */
export function useRevalidate() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (...changes: readonly Pick<Endpoint, 'id' | 'writes'>[]) => {
      // The change itself succeeded; a read that fails to refetch shows its own error where it is shown,
      // and without the contract (a network blip) the lists stay as they are until their next fetch.
      // Already here (the shell fetches it when it mounts), the refetch starts in this call, before a
      // screen that saved moves on and unmounts the reads it made stale.
      const contract = loadedContract() ?? (await loadContract().catch(() => null));
      if (!contract) return;
      const stale = new Set(changes.flatMap((c) => contract.staleAfter(c, contract.endpoints)));
      await mutate((key) => Array.isArray(key) && typeof key[0] === 'string' && stale.has(key[0])).catch(() => undefined);
    },
    [mutate],
  );
}
