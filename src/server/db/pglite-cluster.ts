import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import * as tar from 'tar';

/**
 * PGlite makes a new database by running PostgreSQL's initdb in WebAssembly, cold, in the server's
 * own thread: 5.6–6.5 s of a fresh clone's first start, for a cluster that is the same every time.
 * Instead a new database starts from that empty cluster, made once per PGlite version by its own
 * initdb (`npm run db:cluster`, which also drops the template databases PGlite never uses) and
 * kept beside this file as a brotli-compressed tar (1 MB). Nothing of ours is in it (no
 * migration, no row), so it changes only when PGlite does; without
 * one for the installed version a database is made by initdb as before, and
 * tests/unit/pglite-cluster.test.ts fails until the new version's one is made.
 */

// Built from strings: in a browser-like test environment the global URL is not Node's. In the
// start's bundle (launch.mjs) the folder is copied beside the bundle, as the migrations are.
export const CLUSTER_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pglite-cluster');

/** The installed PGlite's version, from its package.json (which its exports do not list). */
export function pgliteVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@electric-sql/pglite' && pkg.version) return pkg.version;
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find the version of @electric-sql/pglite');
    dir = up;
  }
}

export const clusterFile = (version = pgliteVersion()) => path.join(CLUSTER_FOLDER, `pglite-${version}.tar.br`);

// node-tar hands these to Node's zlib as they are; its type leaves brotli's params out.
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_LGWIN]: 24 } } as tar.TarOptionsWithAliases['brotli'];

/**
 * What marks a folder as a cluster (PGlite opens a folder that has it, and runs initdb in one that
 * has not): packed last, so it is written last, and an unpacking cut short is simply done again.
 */
export const CLUSTER_MARK = 'PG_VERSION';

/** Packs a closed PGlite folder as `unpackCluster` reads it: the smallest file (against 3.4 times its size as gzip). */
export function packCluster(dataDir: string, file: string): void {
  const entries = fs.readdirSync(dataDir).filter((e) => e !== CLUSTER_MARK).sort();
  tar.c({ sync: true, cwd: dataDir, file, portable: true, brotli: BROTLI }, [...entries, CLUSTER_MARK]);
}

/**
 * Unpacks the pre-made cluster into a new folder, in the archive's order (its mark last), by Node's
 * own file calls: 0.4–1.2 s less than handing PGlite the tar (`loadDataDir`), which copies it through
 * two Blobs and writes each file through its emulated file system. False when there is none for
 * this PGlite.
 */
export function unpackCluster(dataDir: string): boolean {
  const file = clusterFile();
  if (!fs.existsSync(file)) return false;
  tar.x({ sync: true, cwd: dataDir, file });
  return true;
}

/** The pre-made cluster as an uncompressed tar for PGlite's `loadDataDir` (an in-memory database), or null. */
export function premadeClusterTar(): Blob | null {
  const file = clusterFile();
  return fs.existsSync(file) ? new Blob([zlib.brotliDecompressSync(fs.readFileSync(file))]) : null;
}
