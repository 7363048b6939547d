import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGLITE_START_PARAMS, openDatabase } from '../../src/server/db/connection';
import { clusterFile } from '../../src/server/db/pglite-cluster';

/**
 * Every test database on PGlite starts as a copy of one migrated cluster, made once per run by the
 * vitest global setup, instead of running PostgreSQL's initdb and every migration again: loading the
 * copy takes about a third of the time of creating a cluster (1.3 s against 4.2–5.0 s on a busy
 * two-core machine), over the 150-odd databases a run opens. The file is named by what it is made of
 * (the migrations, PGlite's version, its start parameters, the empty cluster it starts from), so a
 * new migration makes a new one.
 */

// Built from strings: under happy-dom the global URL is not Node's.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MIGRATIONS = path.join(ROOT, 'src/server/db/migrations');

function templateFile(): string {
  const hash = createHash('sha256');
  const pglite = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string };
  hash.update(`pglite ${pglite.version}\n${PGLITE_START_PARAMS.join(' ')}\n`);
  // The empty cluster it is made from (db/pglite-cluster.ts), when there is one.
  if (fs.existsSync(clusterFile())) hash.update(fs.readFileSync(clusterFile()));
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  for (const file of walk(MIGRATIONS)) hash.update(`${path.relative(MIGRATIONS, file)}\n`).update(fs.readFileSync(file));
  return path.join(ROOT, '.tmp', `pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
}

/** Makes the template unless this run's one is there already (written whole, then renamed). */
export async function ensureTemplate(): Promise<void> {
  const file = templateFile();
  if (fs.existsSync(file)) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await database.migrate();
    const tar = await database.dump!();
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.from(await tar.arrayBuffer()));
    fs.renameSync(tmp, file);
  } finally {
    await database.close();
  }
  // Older templates (other migrations) are of no further use.
  for (const old of fs.readdirSync(path.dirname(file))) {
    if (old.startsWith('pglite-template-') && old.endsWith('.tar') && path.join(path.dirname(file), old) !== file) fs.rmSync(path.join(path.dirname(file), old), { force: true });
  }
}

let loaded: Promise<Blob | undefined> | undefined;

/** The run's template, read once per test worker; none (initdb as before) when no setup made it. */
export function pgliteTemplate(): Promise<Blob | undefined> {
  loaded ??= fs.promises.readFile(templateFile()).then(
    (bytes) => new Blob([bytes]),
    () => undefined,
  );
  return loaded;
}
