import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { type Config, loadConfig, systemClock } from '../../src/server/config';
import { type Db, openDatabase } from '../../src/server/db/connection';
import { PROFILES, runSeed } from '../../src/server/db/seed';
import { createPii } from '../../src/server/lib/pii';

export interface BenchServer {
  url: string;
  app: FastifyInstance;
  dataDir: string;
  checkResponses: boolean;
  db: Db;
  close(): Promise<void>;
}

/**
 * The server as `npm start` builds it, in this process: a fresh on-disk PGlite folder, the full
 * demo city, the wall clock and, as main.ts does, contract checks of every answer unless
 * NODE_ENV=production. (tests/support/test-server.ts seeds the small city in memory on a
 * hand-moved clock: right for tests, not for a figure quoted for the product.)
 */
export async function startBenchServer(): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bus-console-bench-'));
  const defaults = loadConfig({});
  // The login row measures what one login costs (scrypt + session), 50 in a row: the per-minute
  // attempt limits would answer 429 instead. The flood benchmark measures them.
  const config: Config = { ...defaults, piiKey: randomBytes(32), dataDir, staticDir: '/nonexistent', login: { ...defaults.login, perIpPerMinute: 0, perAccountPerMinute: 0 } };
  const database = await openDatabase({ dataDir });
  await database.migrate(() =>
    runSeed({
      db: database.db,
      now: systemClock.now(),
      seed: config.seed,
      demo: true,
      profile: PROFILES.demo,
      passwordMaxAgeDays: config.passwordMaxAgeDays,
      pii: createPii(config.piiKey!),
    }).then(() => undefined),
  );
  const checkResponses = process.env.NODE_ENV !== 'production';
  const app = await buildApp({ db: database.db, config, clock: systemClock, checkResponses });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    app,
    dataDir,
    checkResponses,
    db: database.db,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
