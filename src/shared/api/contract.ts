/**
 * The whole contract: every endpoint (with its zod schemas), the button keys and the resource tags,
 * joined to the modules' manifests in shared/modules/contract.ts. The server and the tests import it
 * from here; the console's shell must not (README decision 162), its screens import their own files.
 */
export * from '../modules/contract';
