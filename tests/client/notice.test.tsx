import { screen, waitFor, within } from '@testing-library/react';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { notices } from '../../src/server/modules/notice-report/schema';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/** 公告管理 on the real server: the list of real notices, and row actions by hotkey that the server stores. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const db = () => s.database.db;

async function make(title: string, status: number, top = 0) {
  const now = s.clock.now();
  const [xuhui] = await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
  const [row] = await db()
    .insert(notices)
    .values({ districtId: xuhui!.id, title, type: 3, content: '客户端测试', status, top, publishAt: status ? new Date(now.getTime() - 60_000) : null, createdAt: now, updatedAt: now })
    .returning();
  return row!;
}
const stored = async (id: number) => (await db().select().from(notices).where(eq(notices.id, id)))[0]!;

async function rowOf(title: string) {
  const main = await screen.findByRole('main');
  const table = await within(main).findByRole('table', { name: '公告列表' }, { timeout: 5_000 });
  return waitFor(
    () => {
      const row = within(table)
        .getAllByRole('row')
        .find((r) => r.textContent?.includes(title));
      expect(row).toBeTruthy();
      return row!;
    },
    { timeout: 5_000 },
  );
}

describe('公告管理', () => {
  it('lists the district’s real notices with their type, status and the summary line', async () => {
    const seeded = await db().select().from(notices).where(eq(notices.status, 2)).limit(1);
    await signIn(s, 'admin');
    visit(s, '/noticeReport/notice?status=2&sort=publishAt,desc');
    renderWithUser(<App />);
    const row = await rowOf(seeded[0]!.title);
    expect(within(row).getByText('已发布')).toBeTruthy();
    const summary = await screen.findByLabelText('公告统计');
    await waitFor(() => expect(summary.textContent).toMatch(/^共 60 条 · 草稿 8 · 待发布 5 · 已发布 39 · 已下线 8 · 置顶 3$/));
  });

  it('p on the focused draft asks, naming it; Enter publishes it, the server stored it and the row shows 已发布', async () => {
    const n = await make('客户端立即发布测试', 0);
    await signIn(s, 'manager');
    visit(s, '/noticeReport/notice?title=客户端立即发布');
    const { user } = renderWithUser(<App />);
    const row = await rowOf(n.title);
    expect(within(row).getByRole('button', { name: `立即发布 ${n.title}` }).getAttribute('aria-keyshortcuts')).toBe('p');
    row.focus();
    await user.keyboard('p');
    const dialog = await screen.findByRole('dialog', { name: '立即发布' });
    expect(dialog.textContent).toContain(n.title);
    expect(dialog.textContent).toContain('徐汇区');
    await user.keyboard('{Enter}');
    expect(await screen.findByText(`已发布公告「${n.title}」`)).toBeTruthy();
    expect((await stored(n.id)).status).toBe(2);
    await waitFor(async () => expect(within(await rowOf(n.title)).getByText('已发布')).toBeTruthy(), { timeout: 5_000 });
  });

  it('u pins the focused notice at once; Ctrl+Z takes it back, both stored', async () => {
    const n = await make('客户端置顶测试', 2);
    await signIn(s, 'manager');
    visit(s, '/noticeReport/notice?title=客户端置顶');
    const { user } = renderWithUser(<App />);
    const row = await rowOf(n.title);
    row.focus();
    await user.keyboard('u');
    expect(await screen.findByText(`已置顶公告「${n.title}」`)).toBeTruthy();
    await waitFor(async () => expect((await stored(n.id)).top).toBe(1));
    await user.keyboard('{Control>}z{/Control}');
    expect(await screen.findByText(`已撤销：公告「${n.title}」取消置顶`)).toBeTruthy();
    await waitFor(async () => expect((await stored(n.id)).top).toBe(0));
    // The list refetched by the change's tags: the row offers 置顶 again.
    await waitFor(async () => expect(within(await rowOf(n.title)).getByRole('button', { name: `置顶 ${n.title}` })).toBeTruthy(), { timeout: 5_000 });
  });
});
