import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { CLUSTER_FOLDER, clusterFile, packCluster } from './pglite-cluster';

/**
 * `npm run db:cluster`: makes the empty cluster a new PGlite database starts from (pglite-cluster.ts)
 * for the installed PGlite, by PGlite's own initdb, and removes other versions' ones. Run it after
 * upgrading @electric-sql/pglite, and commit the file.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-cluster-'));
try {
  // initdb, then without the two template databases: PGlite works in `postgres` alone and nothing
  // here creates a database, while their 600 files were 60 % of what a first start unpacks.
  const pg = await PGlite.create(dir);
  for (const name of ['template0', 'template1']) {
    await pg.exec(`alter database ${name} is_template false`);
    await pg.exec(`drop database ${name}`);
  }
  await pg.close();
  const file = clusterFile();
  fs.mkdirSync(CLUSTER_FOLDER, { recursive: true });
  for (const old of fs.readdirSync(CLUSTER_FOLDER)) fs.rmSync(path.join(CLUSTER_FOLDER, old));
  packCluster(dir, file);
  console.log(`${path.relative(process.cwd(), file)}: ${fs.statSync(file).size} bytes`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
