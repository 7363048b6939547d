// `npm start`: runs the server from a bundle built only when its sources changed (README decision on
// fast starts). Plain JavaScript on purpose: it must start without a TypeScript loader, whose
// per-start cost (~1.5 s of CPU transpiling and resolving ~200 modules) is what it saves.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inputsHash } from './source-hash.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** What the server bundle is made from. */
const INPUTS = ['src/server', 'src/shared', 'package-lock.json'];
// Packages that read files beside their own code (worker scripts, WASM, native bindings) stay in
// node_modules; everything else is bundled, so a start resolves one file instead of hundreds.
const EXTERNAL = ['@electric-sql/pglite', '@electric-sql/pglite/*', 'pg', 'pg-native', 'pino', 'thread-stream', 'vite', 'esbuild'];

/**
 * The bundle of these inputs: a folder named by their hash, written whole under a temporary name and
 * renamed into place, so several starts at once (the browser tests) never read a half-written one.
 */
async function serverBundle() {
  const cache = path.join(root, 'node_modules', '.cache', 'bus-console');
  const dir = path.join(cache, `server-${inputsHash(root, INPUTS).slice(0, 16)}`);
  const entry = path.join(dir, 'main.mjs');
  if (fs.existsSync(entry)) return entry;
  const tmp = `${dir}.${process.pid}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const { build } = await import('esbuild');
  await build({
    // The server, and the seed's worker thread (db/seed/ahead.ts) beside it.
    entryPoints: [path.join(root, 'src/server/main.ts'), path.join(root, 'src/server/seed-worker.ts')],
    outdir: tmp,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    logLevel: 'warning',
    // Bundled CommonJS packages call require(); an ES module has none of its own.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  // The migrations are read beside the code that runs them (db/connection.ts).
  fs.cpSync(path.join(root, 'src/server/db/migrations'), path.join(tmp, 'migrations'), { recursive: true });
  // So is the empty cluster a new database starts from (db/pglite-cluster.ts).
  // Without one (none for this PGlite yet) PGlite runs initdb.
  const cluster = path.join(root, 'src/server/db/pglite-cluster');
  if (fs.existsSync(cluster)) fs.cpSync(cluster, path.join(tmp, 'pglite-cluster'), { recursive: true });
  try {
    fs.renameSync(tmp, dir);
  } catch {
    // Another start renamed the same bundle first: theirs is identical.
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  for (const old of fs.readdirSync(cache)) {
    if (old.startsWith('server-') && !old.endsWith('.tmp') && path.join(cache, old) !== dir) fs.rmSync(path.join(cache, old), { recursive: true, force: true });
  }
  return entry;
}

process.env.APP_ROOT = root;
await import(pathToFileURL(await serverBundle()).href);
