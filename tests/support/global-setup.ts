import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureTemplate } from './pglite-template';

/** Once per vitest run, before any test file: the migrated PGlite cluster the test databases copy. */
export default async function setup(): Promise<() => void> {
  await ensureTemplate();
  // The browser tests' seeded folder is this run's own (tests/support/e2e-suite.ts): the workers
  // inherit the variable, and the folder goes with the run.
  process.env.E2E_TEMPLATE_RUN ??= `${process.pid}-${Date.now()}`;
  const run = process.env.E2E_TEMPLATE_RUN;
  return () => {
    for (const p of [path.join(os.tmpdir(), `bus-console-e2e-template-${run}`), path.join(os.tmpdir(), `bus-console-e2e-template-${run}.lock`)]) fs.rmSync(p, { recursive: true, force: true });
  };
}
