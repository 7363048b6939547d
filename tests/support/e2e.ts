import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CHROMIUM = '/usr/bin/chromium';
/**
 * Whether the browser tests can run. Without Chromium they are skipped on a developer's machine,
 * but in CI (`CI=true`, set by .ci/run) a missing browser fails the run: a green CI must mean the
 * browser tests ran.
 */
export function chromiumPresent(path: string, env: NodeJS.ProcessEnv): boolean {
  if (fs.existsSync(path)) return true;
  if (/^(1|true|yes)$/i.test(env.CI ?? '')) throw new Error(`CI: ${path} is missing, so the browser tests cannot run (.ci/run installs Debian's chromium); refusing to skip them`);
  return false;
}
export const hasChromium = chromiumPresent(CHROMIUM, process.env);

/** Flags for Debian's Chromium on a closed network, as root, without a display. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
}

/** A port nothing listens on right now (the kernel picks it). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export function freshDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'bus-console-e2e-'));
}

export interface StartedServer {
  /** `http://127.0.0.1:PORT` as printed on the READY line. */
  url: string;
  port: number;
  dataDir: string;
  /** The pid of `npm start` (also its process group: it is spawned detached). */
  pid: number;
  /** Milliseconds from spawn to the READY line: vite build, migrations, seed, listen. */
  readyMs: number;
  /** Everything printed so far on stdout. */
  stdout(): string;
  /** Everything printed so far on stderr. */
  stderr(): string;
  /** The pid of the node process running the server (src/server/launch.mjs, below npm and sh). */
  serverPid(): number;
  /**
   * Sends SIGTERM and waits for `npm start` to exit.
   * - `server` (default): to the server process only, as a supervisor that knows it would; its exit
   *   code travels back through tsx, sh and npm, so `code` is the server's own.
   * - `group`: to every process of the group, as Ctrl-C or systemd do; npm and sh die of the
   *   signal, so only the absence of leftovers can be checked.
   * Anything still alive after `timeoutMs` is killed (SIGKILL to the group) and reported.
   */
  stop(opts?: { target?: 'server' | 'group'; timeoutMs?: number }): Promise<StopResult>;
  /** Resolves when `npm start` and everything holding its output have gone. */
  exited: Promise<StopResult>;
}

export interface StopResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Milliseconds from the SIGTERM to the exit of npm and every process holding its output. */
  ms: number;
  /** True when the timeout passed and the group had to be killed. */
  killed: boolean;
}

const running = new Set<number>();

/** Kills what a failed test left running; call it from afterAll. */
export function killLeftovers(): void {
  for (const pid of running) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  running.clear();
}

/** Child pids of every process, read from /proc. */
function processTree(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // pid (comm) state ppid ...: comm may hold spaces and parentheses, so split after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  return children;
}

function cmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** The deepest descendant of `root` whose command line runs the server (`npm start`: launch.mjs; tsx: main.ts). */
function findServerPid(root: number): number {
  const tree = processTree();
  let best: { pid: number; depth: number } | null = null;
  const walk = (pid: number, depth: number) => {
    for (const child of tree.get(pid) ?? []) {
      if (/src\/server\/(launch\.mjs|main\.ts)/.test(cmdline(child)) && (!best || depth > best.depth)) best = { pid: child, depth };
      walk(child, depth + 1);
    }
  };
  walk(root, 1);
  const found = best as { pid: number; depth: number } | null;
  if (!found) throw new Error(`no server process (launch.mjs or main.ts) below pid ${root}`);
  return found.pid;
}

export interface StartOptions {
  dataDir?: string;
  port?: number;
  /** Extra environment for the server. */
  env?: Record<string, string>;
  readyTimeoutMs?: number;
}

/**
 * Runs the real `npm start` (vite build, then the server) on a free port with a fresh or given
 * PGlite folder, and resolves at the READY line.
 */
export async function startServer(opts: StartOptions = {}): Promise<StartedServer> {
  const port = opts.port ?? (await freePort());
  const dataDir = opts.dataDir ?? freshDataDir();
  const env: NodeJS.ProcessEnv = { ...process.env };
  // What the test runner or .ci/run set must not reach the server: it runs as a user would start it.
  for (const key of Object.keys(env)) {
    if (key.startsWith('VITEST') || key.startsWith('npm_')) delete env[key];
  }
  delete env.NODE_ENV;
  delete env.DATABASE_URL;
  delete env.TEST_DATABASE_URL;
  delete env.SEED_DEMO;
  delete env.STATIC_DIR;
  // The console builds at the usual priority: these starts share the machine with the test pool,
  // where a build at nice 19 could wait minutes (the start test sets the product's own).
  Object.assign(env, { HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, NO_COLOR: '1', BUILD_NICE: '0' }, opts.env);

  const t0 = performance.now();
  const child: ChildProcess = spawn('npm', ['start'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const pid = child.pid;
  if (pid === undefined) throw new Error('npm start did not spawn');
  running.add(pid);

  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));

  let signalledAt = 0;
  let killed = false;
  // 'close' waits for the pipes too: it fires once no process (sh, tsx, the server) holds them.
  const exited = new Promise<StopResult>((resolve) => {
    child.on('close', (code, signal) => {
      running.delete(pid);
      resolve({ code, signal, ms: signalledAt ? performance.now() - signalledAt : 0, killed });
    });
  });

  const readyTimeoutMs = opts.readyTimeoutMs ?? 150_000;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      clearInterval(poll);
      killGroup();
      reject(new Error(`no READY line within ${readyTimeoutMs} ms\n--- stdout\n${out}\n--- stderr\n${err}`));
    }, readyTimeoutMs);
    const poll = setInterval(() => {
      const m = /^READY (\S+)$/m.exec(out);
      if (!m?.[1]) return;
      clearTimeout(timer);
      clearInterval(poll);
      resolve(m[1]);
    }, 20);
    void exited.then((r) => {
      clearTimeout(timer);
      clearInterval(poll);
      reject(new Error(`npm start exited (${r.code ?? r.signal}) before READY\n--- stdout\n${out}\n--- stderr\n${err}`));
    });
  });
  const readyMs = performance.now() - t0;

  function killGroup() {
    try {
      process.kill(-pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  const serverPid = () => findServerPid(pid);

  const stop: StartedServer['stop'] = async ({ target = 'server', timeoutMs = 10_000 } = {}) => {
    if (!running.has(pid)) return exited;
    const victim = target === 'server' ? serverPid() : -pid;
    signalledAt = performance.now();
    process.kill(victim, 'SIGTERM');
    const timer = setTimeout(() => {
      killed = true;
      killGroup();
    }, timeoutMs);
    const result = await exited;
    clearTimeout(timer);
    return result;
  };

  return { url, port, dataDir, pid, readyMs, stdout: () => out, stderr: () => err, serverPid, stop, exited };
}
