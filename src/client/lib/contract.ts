/**
 * The whole contract (every endpoint with its zod schemas, and their resource tags), fetched when
 * the shell mounts rather than with the login page (README decision 168): a change to refetch after,
 * or one heard on the event stream. Screens import their own contract files; only this needs them all.
 */
type Contract = typeof import('../../shared/api/contract');
let loading: Promise<Contract> | null = null;
let loaded: Contract | null = null;

export function loadContract() {
  // A failed fetch (a network blip) is tried again by the next caller.
  loading ??= import('../../shared/api/contract').then(
    (m) => (loaded = m),
    (err: unknown) => {
      loading = null;
      throw err;
    },
  );
  return loading;
}

/**
 * The contract once it is here, at once: a save's refetch must be marked before the screen moves on
 * (a form left for its list would otherwise reopen with the values it had before the save).
 */
export const loadedContract = (): Contract | null => loaded;
