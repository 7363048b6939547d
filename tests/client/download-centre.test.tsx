import { screen, waitFor, within } from '@testing-library/react';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import * as t from '../../src/server/db/schema';
import { App } from '../../src/client/app/app';
import { ridership } from '../../src/shared/api';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/**
 * 下载中心 against the real server: the task list arrives over the event stream, progress and the
 * finished file come without polling, and a toast offers the file on whatever screen is showing.
 */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const day = (offset: number) => new Date(Date.now() + 8 * 3600_000 + offset * 86_400_000).toISOString().slice(0, 10);

async function consoleAs(login: string) {
  const token = await signIn(s, login);
  visit(s, '/station/station');
  const rendered = renderWithUser(<App />);
  await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
  return { ...rendered, token };
}

describe('下载中心', () => {
  it('g d opens it from any screen; empty, it says how to export; Esc closes it', async () => {
    const { user } = await consoleAs('manager');
    await user.keyboard('gd');
    const dialog = await screen.findByRole('dialog', { name: '下载中心' });
    expect(await within(dialog).findByText(/还没有导出任务/)).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '下载中心' })).toBeNull());
  });

  it('a task asked for elsewhere shows up, finishes live, and the toast and the centre both download it', async () => {
    const { user, token } = await consoleAs('manager');
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    try {
      // The navbar button opens it too; once the stream is up (its first event is the list), close it.
      await user.click(screen.getByRole('button', { name: /^下载中心/ }));
      let dialog = await screen.findByRole('dialog', { name: '下载中心' });
      await waitFor(() => expect(within(dialog).queryByText(/正在连接服务器/)).toBeNull(), { timeout: 5_000 });
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog', { name: '下载中心' })).toBeNull());
      const created = await s.call(ridership.ridershipExport, { token, query: { startDate: day(-6), endDate: day(0) } });
      expect(created.body.code).toBe(1);
      const { title, fileName } = created.body.data;
      // Whatever the screen, a toast offers the file when it is ready.
      const toastText = await screen.findByText(`导出完成：${title}`, {}, { timeout: 10_000 });
      await user.click(within(toastText.parentElement!).getByRole('button', { name: '下载' }));
      await waitFor(() => expect(clicked).toEqual([fileName]));
      // The centre lists it done, with its rows, size and expiry; focus starts on its 下载: Enter saves it again.
      await user.keyboard('gd');
      dialog = await screen.findByRole('dialog', { name: '下载中心' });
      expect(within(dialog).getByText(title)).toBeTruthy();
      expect(within(dialog).getByText('已完成')).toBeTruthy();
      expect(within(dialog).getByText(/\d+ 行 · \d+ KB · 保留至/)).toBeTruthy();
      await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe(`下载 ${fileName}`));
      await user.keyboard('{Enter}');
      await waitFor(() => expect(clicked).toEqual([fileName, fileName]));
      // Delete removes the task: on the server, and from the centre by the stream's event.
      await user.keyboard('{Delete}');
      await waitFor(() => expect(within(dialog).queryByText(title)).toBeNull(), { timeout: 5_000 });
      expect(await within(dialog).findByText(/还没有导出任务/)).toBeTruthy();
    } finally {
      click.mockRestore();
    }
  });

  it('a task that fails says why in an error toast, and the centre lists it as 生成失败 with the reason', async () => {
    const { user } = await consoleAs('manager');
    await user.keyboard('gd');
    let dialog = await screen.findByRole('dialog', { name: '下载中心' });
    await waitFor(() => expect(within(dialog).queryByText(/正在连接服务器/)).toBeNull(), { timeout: 5_000 });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '下载中心' })).toBeNull());
    // A kind no module declares any more (a task left from an older version): the worker fails it.
    const [manager] = await s.database.db.select().from(t.users).where(eq(t.users.login, 'manager'));
    await s.database.db.insert(t.exportTasks).values({ kind: 'retired.kind', title: '旧版本的导出', fileName: '旧.xlsx', params: {}, userId: manager!.id, phase: 'queued', createdAt: new Date() });
    expect(await screen.findByText('导出失败：旧版本的导出（导出失败：服务内部错误，请重试）', {}, { timeout: 10_000 })).toBeTruthy();
    await user.keyboard('gd');
    dialog = await screen.findByRole('dialog', { name: '下载中心' });
    expect(within(dialog).getByText('生成失败')).toBeTruthy();
    expect(within(dialog).getByText('导出失败：服务内部错误，请重试')).toBeTruthy();
  });
});

describe('a line’s month from the palette (issue 21)', () => {
  it('`2026-10 10路` offers that month’s file of that line as one row; Enter makes the task, which downloads itself when done', async () => {
    const { user, token } = await consoleAs('manager');
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    try {
      const lines = (await s.call(ridership.ridershipLineCodes, { token })).body.data;
      const line = lines[0]!;
      const month = day(-40).slice(0, 7);
      await user.keyboard('{Control>}k{/Control}');
      const palette = await screen.findByRole('dialog', { name: '命令面板' }, { timeout: 8_000 });
      await user.keyboard(`${month} ${line.lineName}`);
      const row = `导出并下载：${line.lineName} ${month} 每日客流`;
      await waitFor(() => expect(within(palette).getAllByRole('option')[0]!.textContent).toContain(row), { timeout: 8_000 });
      await user.keyboard('{Enter}');
      expect(await screen.findByText(/^导出完成，已开始下载：/, {}, { timeout: 15_000 })).toBeTruthy();
      const [last] = (await s.database.db.select().from(t.exportTasks)).sort((a, b) => b.id - a.id);
      expect(last!.params).toMatchObject({ lineCode: line.lineCode, startDate: `${month}-01` });
      await waitFor(() => expect(clicked).toEqual([last!.fileName]));
      // Nothing left to offer: no 导出完成 toast with 下载.
      expect(screen.queryByText(/^导出完成：/)).toBeNull();
    } finally {
      click.mockRestore();
    }
  });
});
