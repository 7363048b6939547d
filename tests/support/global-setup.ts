import { ensureTemplate } from './pglite-template';

/** Once per vitest run, before any test file: the migrated PGlite cluster the test databases copy. */
export default async function setup(): Promise<void> {
  await ensureTemplate();
}
