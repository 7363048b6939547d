import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { inputsHash } from './source-hash.mjs';

/**
 * `npm start` builds the console only when its inputs changed (issue 20: a restart took 7–10 s of
 * `vite build` every time). The inputs' hash is kept in `<outDir>/.build-stamp`, written after a
 * build succeeded; an interrupted build leaves no stamp and is built again.
 */

/** What the bundle is made from: the client and the shared code it imports, and the build's own configuration. */
const INPUTS = ['src/client', 'src/shared', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package-lock.json'];
export const STAMP_FILE = '.build-stamp';

/** The hash of every input file's path and bytes, in a fixed order. */
export const consoleInputsHash = (root: string): string => inputsHash(root, INPUTS);

export function isBuildCurrent(root: string, outDir: string, hash = consoleInputsHash(root)): boolean {
  try {
    return fs.readFileSync(path.join(outDir, STAMP_FILE), 'utf8').trim() === hash && fs.existsSync(path.join(outDir, 'index.html'));
  } catch {
    return false;
  }
}

/**
 * Builds the console into `outDir` unless its stamp matches the inputs. The build runs in a child
 * process, so the caller can open and seed the database meanwhile (both fit in a fresh clone's
 * first start). Resolves with whether it built.
 */
export async function buildConsoleIfChanged(root: string, outDir: string): Promise<boolean> {
  const hash = consoleInputsHash(root);
  if (isBuildCurrent(root, outDir, hash)) return false;
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn', '--outDir', outDir], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (c, signal) => resolve(signal ? 1 : c));
  });
  if (code !== 0) throw new Error(`vite build failed (exit ${code})`);
  fs.writeFileSync(path.join(outDir, STAMP_FILE), `${hash}\n`);
  return true;
}
