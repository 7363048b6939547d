import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
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
  // Another start may be building the same folder (the browser tests start several at once):
  // build only once it is done, and not at all when it built these inputs.
  return withBuildLock(outDir, async () => {
    if (isBuildCurrent(root, outDir, hash)) return false;
    await viteBuild(root, outDir);
    fs.writeFileSync(path.join(outDir, STAMP_FILE), `${hash}\n`);
    return true;
  });
}

async function viteBuild(root: string, outDir: string): Promise<void> {
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn', '--outDir', outDir], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    // At a low priority: a first start builds while it seeds, and the seed's thread is what the
    // start waits for; the build fits in what that thread leaves (2–3 s sooner ready, measured).
    // BUILD_NICE=0 where nothing else waits on the start and a busy machine would starve the build.
    // A system that refuses the change builds at the usual priority.
    try {
      if (child.pid !== undefined) os.setPriority(child.pid, buildNice());
    } catch {
      // refused: build anyway
    }
    child.on('error', reject);
    child.on('exit', (c, signal) => resolve(signal ? 1 : c));
  });
  if (code !== 0) throw new Error(`vite build failed (exit ${code})`);
}

/** BUILD_NICE: the build's niceness, 0–19 (19 unless set). */
function buildNice(): number {
  const n = Number(process.env.BUILD_NICE ?? 19);
  return Number.isInteger(n) && n >= 0 && n <= 19 ? n : 19;
}

/** A lock holder that is gone; our own pid is a predecessor's (a container restarted with the same pid). */
const isAlive = (pid: number) => {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** How long a start waits for another's build before taking its lock over. */
const LOCK_PATIENCE_MS = 5 * 60_000;

/**
 * One build of a folder at a time: two would both empty it and write it. The lock is a folder made
 * atomically beside it (`.<name>.build-lock`) holding the builder's pid; the lock of a process that
 * is gone (a start killed mid-build) is taken over.
 */
export async function withBuildLock<T>(outDir: string, fn: () => Promise<T>): Promise<T> {
  const out = path.resolve(outDir);
  const lock = path.join(path.dirname(out), `.${path.basename(out)}.build-lock`);
  const pidFile = path.join(lock, 'pid');
  const since = Date.now();
  let told = false;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(pidFile, String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let gone: boolean;
    try {
      gone = !isAlive(Number(fs.readFileSync(pidFile, 'utf8')));
    } catch {
      // No pid yet: made a moment ago (its holder is writing it), or by a start killed right then.
      gone = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0) > 10_000;
    }
    // A holder alive far longer than any build is a reused pid: its lock is taken over too.
    if (gone || Date.now() - since > LOCK_PATIENCE_MS) fs.rmSync(lock, { recursive: true, force: true });
    else {
      if (!told) console.error(`[server] another start is building the console into ${out}: waiting for it`);
      told = true;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
