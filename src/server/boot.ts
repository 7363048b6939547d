import { type Config, type Clock, resolvePiiKey } from './config';
import { createPii } from './lib/pii';
import { type Database, openDatabase } from './db/connection';
import { runSeed } from './seed-runner';

/** Opens the configured database, migrates it and seeds what is missing. */
export async function openAndPrepare(config: Config, clock: Clock, log: (msg: string, err?: unknown) => void) {
  const database: Database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, log, queryTimeoutMs: config.databaseQueryTimeoutMs });
  const pii = createPii(resolvePiiKey(config));
  let seededDemo = false;
  await database.migrate(async () => {
    ({ seededDemo } = await runSeed({
      db: database.db,
      now: clock.now(),
      seed: config.seed,
      demo: config.seedDemo,
      passwordMaxAgeDays: config.passwordMaxAgeDays,
      pii,
    }));
  });
  return { database, seededDemo, pii };
}
