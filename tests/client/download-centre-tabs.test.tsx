import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import { loadConfig } from '../../src/server/config';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { type RequestLog, signIn } from '../support/request-log';
import { type RawEvents, openRawEvents } from '../support/task-events';
import type { TestServer } from '../support/test-server';

/**
 * Issue 19 B9, the console's side: a session holds at most 3 event streams, and a newer one (another
 * tab) replaces the oldest. The console whose stream was replaced says so in 下载中心 and does not
 * reconnect by itself (it would replace the other tab's in turn, for ever); it takes the stream back
 * only when asked. Streams ping every 500 ms here: their pings are the clock the test waits on.
 */
let s: TestServer;
let log: RequestLog;
const defaults = loadConfig({});
clientSuite(
  (server, requests) => {
    s = server;
    log = requests;
  },
  { exports: { ...defaults.exports, pingMs: 500 } },
);

/** The console's own stream requests (the test's streams send no `accept`). */
const consoleStreams = () => log.to('/xls/task/events').filter((r) => r.headers.accept === 'text/event-stream');

describe('下载中心 in several tabs of one session', () => {
  it('a console whose stream another tab took says so, stays off, and takes it back when asked', async () => {
    const token = await signIn(s, 'manager');
    visit(s, '/station/station');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    await user.keyboard('gd');
    const dialog = await screen.findByRole('dialog', { name: '下载中心' }, { timeout: 5_000 });
    await waitFor(() => expect(within(dialog).queryByText(/正在连接服务器/)).toBeNull(), { timeout: 5_000 });
    expect(consoleStreams()).toHaveLength(1);

    // Three more tabs of the same session open their streams: the console's, the oldest, is replaced.
    const tabs: RawEvents[] = [];
    for (let i = 0; i < 3; i++) {
      const tab = await openRawEvents(s, token);
      await tab.until((e) => e.type === 'tasks');
      tabs.push(tab);
    }
    expect(await within(dialog).findByText(/进度已转到本账号的另一个窗口/, {}, { timeout: 5_000 })).toBeTruthy();

    // It does not fight for it: past the 3 s a reconnect would wait (8 pings of 500 ms), the console
    // has made no new request and every other tab still has its stream.
    await tabs[0]!.untilPings(8);
    expect(consoleStreams()).toHaveLength(1);
    expect(tabs.map((t) => t.isEnded())).toEqual([false, false, false]);

    // Asked (keyboard: the button is in the Tab order), it takes the stream back from the oldest tab.
    const again = within(dialog).getByRole('button', { name: '在此继续更新' });
    again.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(dialog).queryByText(/进度已转到本账号的另一个窗口/)).toBeNull(), { timeout: 5_000 });
    await tabs[0]!.ended;
    expect(tabs[0]!.events.at(-1)).toEqual({ type: 'closed', reason: 'replaced' });
    expect(consoleStreams()).toHaveLength(2);
    expect(tabs.slice(1).map((t) => t.isEnded())).toEqual([false, false]);

    // Three newer tabs replace the two older ones, then the console again; it also takes the
    // stream back when it is shown again (from the oldest of those three).
    const newer: RawEvents[] = [];
    for (let i = 0; i < 3; i++) {
      const tab = await openRawEvents(s, token);
      await tab.until((e) => e.type === 'tasks');
      newer.push(tab);
    }
    expect(await within(dialog).findByText(/进度已转到本账号的另一个窗口/, {}, { timeout: 5_000 })).toBeTruthy();
    expect(document.visibilityState).toBe('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    await waitFor(() => expect(within(dialog).queryByText(/进度已转到本账号的另一个窗口/)).toBeNull(), { timeout: 5_000 });
    await newer[0]!.ended;
    expect(newer[0]!.events.at(-1)).toEqual({ type: 'closed', reason: 'replaced' });
    expect(consoleStreams()).toHaveLength(3);
    [...tabs, ...newer].forEach((t) => t.close());
  }, 30_000);
});
