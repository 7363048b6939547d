import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import { installChineseZodMessages } from '../../src/shared/api/zod-locale';
import { type RequestLog, recordRequests } from './request-log';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { resetSessionEnded } from '../../src/client/lib/session-ended';
import { type TestServer, startTestServer } from './test-server';
import type { Config } from '../../src/server/config';

/**
 * Client tests render real pages against the real server: the page's origin is the test server,
 * so the console's relative calls reach it exactly as in the browser.
 */
export async function startClientServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const server = await startTestServer(overrides);
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${server.url}/`);
  return server;
}

export function resetBrowserState(): void {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  resetSessionEnded();
  document.cookie.split(';').forEach((c) => {
    const name = c.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; max-age=0; path=/`;
  });
}

/** Goes to a path (as a typed URL would) before rendering. */
export function visit(server: TestServer, path: string): void {
  window.history.replaceState(null, '', `${server.url}${path}`);
}

export function renderWithUser(ui: ReactElement) {
  const user = userEvent.setup();
  return { user, ...render(ui) };
}

/**
 * The palette's code fetched (Ctrl+K, then Esc) and focus back on the main region: the console as
 * it is moments after it shows, where a digit or a paste typed on the page opens the palette itself.
 */
export async function warmPalette(user: ReturnType<typeof userEvent.setup>): Promise<void> {
  await user.keyboard('{Control>}k{/Control}');
  await screen.findByRole('dialog', { name: '命令面板' }, { timeout: 8_000 });
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull());
  (document.getElementById('main') as HTMLElement).focus();
}

/**
 * The usual client-test frame: one real server per file with the request log, a clean browser
 * between tests. `onReady` hands the server and the log to the file's own variables.
 */
export function clientSuite(onReady: (server: TestServer, log: RequestLog) => void, overrides: Partial<Config> = {}): void {
  let server: TestServer | undefined;
  let log: RequestLog | undefined;
  beforeAll(async () => {
    installChineseZodMessages();
    server = await startClientServer(overrides);
    log = recordRequests(server);
    onReady(server, log);
  });
  afterAll(async () => {
    log?.stop();
    await server?.close();
  });
  beforeEach(() => log?.clear());
  afterEach(() => {
    resetBrowserState();
    vi.restoreAllMocks();
  });
}
