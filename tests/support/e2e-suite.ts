import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type StartedServer, hasChromium, killLeftovers, launchChromium, startServer } from './e2e';

/**
 * The usual browser-test frame: one real `npm start` and one Chromium per file, both gone after
 * it. `onReady` hands them to the file's own variables.
 */
export function e2eSuite(name: string, onReady: (server: StartedServer, browser: Browser | undefined) => void, opts: { env?: Record<string, string> } = {}): void {
  let server: StartedServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    const [started, launched] = await Promise.all([startServer({ env: opts.env }), hasChromium ? launchChromium() : Promise.resolve(undefined)]);
    server = started;
    browser = launched;
    console.log(`[e2e ${name}] npm start ready in ${(started.readyMs / 1000).toFixed(1)} s`);
    onReady(started, launched);
  });
  afterAll(async () => {
    await browser?.close();
    if (server) await server.stop({ target: 'group' }).catch(() => undefined);
    killLeftovers();
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
  });
}
