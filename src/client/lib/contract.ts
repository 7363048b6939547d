/**
 * The whole contract (every endpoint with its zod schemas, and their resource tags), fetched when
 * first needed rather than with the login page (README decision 162): a change to refetch after, or
 * one heard on the event stream. Screens import their own contract files; only this needs them all.
 */
let loading: Promise<typeof import('../../shared/api/contract')> | null = null;

export function loadContract() {
  // A failed fetch (a network blip) is tried again by the next caller.
  loading ??= import('../../shared/api/contract').catch((err: unknown) => {
    loading = null;
    throw err;
  });
  return loading;
}
