import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type StartedServer, freshDataDir, hasChromium, killLeftovers, launchChromium, startServer } from './e2e';

/**
 * A first start (the demo city seeded) made once and copied by the files after it: theirs is then a
 * restart on a copy of that folder (seconds), not a first start each (close to a minute while the
 * other projects run). Kept for 15 minutes at most, so no file's demo city is much older than a
 * server started for it would be (days and "today" move with the clock). What a first start itself
 * does is tested on fresh folders (start.test.ts, create-admin.test.ts).
 */
const TEMPLATE_ROOT = path.join(os.tmpdir(), `bus-console-e2e-template-${process.env.E2E_TEMPLATE_RUN ?? 'run'}`);
const TEMPLATE_MAX_AGE_MS = 15 * 60_000;

async function seededCopy(): Promise<string> {
  const lock = `${TEMPLATE_ROOT}.lock`;
  // Names the newest made folder; each is kept until the run ends, so a file copying one is never
  // cut short by the next one being made.
  const ready = path.join(TEMPLATE_ROOT, '.ready');
  for (;;) {
    const fresh = fs.existsSync(ready) && Date.now() - fs.statSync(ready).mtimeMs < TEMPLATE_MAX_AGE_MS;
    if (fresh) {
      const copy = freshDataDir();
      fs.cpSync(fs.readFileSync(ready, 'utf8'), copy, { recursive: true });
      return copy;
    }
    try {
      fs.mkdirSync(TEMPLATE_ROOT, { recursive: true });
      fs.mkdirSync(lock);
    } catch {
      // Another file is making it: wait for it (a lock older than 5 minutes is a crashed maker's;
      // one gone already means the folder is ready on the next turn).
      if (Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 5 * 60_000) fs.rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    try {
      const data = path.join(TEMPLATE_ROOT, `made-${Date.now()}`);
      fs.mkdirSync(data, { recursive: true });
      const first = await startServer({ dataDir: data });
      // Stopped cleanly, so the copied cluster opens without recovery.
      await first.stop({ target: 'group' });
      fs.writeFileSync(`${ready}.next`, data);
      fs.renameSync(`${ready}.next`, ready);
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
}

/**
 * The usual browser-test frame: one real `npm start` and one Chromium per file, both gone after
 * it. `onReady` hands them to the file's own variables.
 */
export function e2eSuite(name: string, onReady: (server: StartedServer, browser: Browser | undefined) => void, opts: { env?: Record<string, string> } = {}): void {
  let server: StartedServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    const [started, launched] = await Promise.all([seededCopy().then((dataDir) => startServer({ env: opts.env, dataDir })), hasChromium ? launchChromium() : Promise.resolve(undefined)]);
    server = started;
    browser = launched;
    console.log(`[e2e ${name}] npm start ready in ${(started.readyMs / 1000).toFixed(1)} s (a restart on a copy of ${path.basename(TEMPLATE_ROOT)})`);
    onReady(started, launched);
  });
  afterAll(async () => {
    await browser?.close();
    if (server) await server.stop({ target: 'group' }).catch(() => undefined);
    killLeftovers();
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
  });
}
