import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Config, type Clock, resolvePiiKey } from './config';
import { createPii } from './lib/pii';
import { type Database, openDatabase } from './db/connection';
import { CLUSTER_MARK } from './db/pglite-cluster';
import { type Ahead, startAhead } from './db/seed/ahead';
import { SEED_PLANS } from './seed-plans';
import { runSeed } from './seed-runner';

/**
 * The seed's worker, bundled beside the server by `npm start` (launch.mjs); absent when the server
 * runs from its sources (tests, the dev server), where every plan is made in place.
 */
const SEED_WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'seed-worker.mjs');

/** Opens the configured database, migrates it and seeds what is missing. */
export async function openAndPrepare(config: Config, clock: Clock, log: (msg: string, err?: unknown) => void) {
  const piiKey = resolvePiiKey(config);
  const now = clock.now();
  // A first start on a new PGlite folder seeds the demo city: its large plans start on the other
  // core now, while the database is unpacked, migrated and given its small tables.
  const firstDemo = config.seedDemo && !config.databaseUrl && !fs.existsSync(path.join(path.resolve(config.dataDir), CLUSTER_MARK)) && fs.existsSync(SEED_WORKER);
  const ahead: Ahead | undefined = firstDemo ? startAhead(SEED_WORKER, { seed: config.seed, now: now.getTime(), profile: 'demo', piiKey, plans: SEED_PLANS.map((p) => p.name) }, log) : undefined;
  try {
    const database: Database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, log, queryTimeoutMs: config.databaseQueryTimeoutMs });
    const pii = createPii(piiKey);
    let seededDemo = false;
    await database.migrate(async () => {
      ({ seededDemo } = await runSeed({ db: database.db, now, seed: config.seed, demo: config.seedDemo, passwordMaxAgeDays: config.passwordMaxAgeDays, pii, ahead }));
    });
    return { database, seededDemo, pii };
  } finally {
    await ahead?.close();
  }
}
