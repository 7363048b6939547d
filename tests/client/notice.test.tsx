import { fireEvent, screen, waitFor, within } from '@testing-library/react';
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

/** The editor region of an open dialog, its text set as a browser's editing would leave it. */
function typeRich(dialog: HTMLElement, html: string) {
  const editor = within(dialog).getByRole('textbox', { name: '内容' });
  editor.innerHTML = html;
  fireEvent.input(editor);
  return editor;
}
const latest = async () => (await db().select().from(notices).orderBy(notices.id)).at(-1)!;

describe('新建公告 / 编辑公告', () => {
  it('the palette’s ?action=add opens the form with the title; the toolbar and its keys are named; Ctrl+S saves a draft the server stored sanitised', async () => {
    await signIn(s, 'manager');
    visit(s, '/noticeReport/notice?action=add&title=客户端新建公告');
    const { user } = renderWithUser(<App />);
    const dialog = await screen.findByRole('dialog', { name: '新建公告' });
    expect((within(dialog).getByRole('textbox', { name: /标题/ }) as HTMLInputElement).value).toBe('客户端新建公告');
    const toolbar = within(dialog).getByRole('toolbar', { name: '内容格式' });
    expect(within(toolbar).getByRole('button', { name: '加粗' }).getAttribute('aria-keyshortcuts')).toBe('Control+B');
    expect(within(toolbar).getAllByRole('button').map((b) => b.textContent)).toEqual(['加粗', '标题', '小标题', '正文', '项目列表', '编号列表', '链接']);
    const editor = typeRich(dialog, '<h2>安排</h2><p>正文<img src=x onerror="window.__xss=1"></p><ul><li>一</li></ul><p><a href="javascript:window.__xss=2">坏链接</a></p>');
    editor.focus();
    await user.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText('已保存公告草稿「客户端新建公告」（徐汇区）')).toBeTruthy();
    const row = await latest();
    expect(row).toMatchObject({ title: '客户端新建公告', status: 0, type: 1 });
    expect(row.content).toBe('<h2>安排</h2><p>正文</p><ul><li>一</li></ul><p><a>坏链接</a></p>');
    expect((window as unknown as { __xss?: number }).__xss).toBeUndefined();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '新建公告' })).toBeNull());
  });

  it('content empty after sanitising is refused beside the editor; a 线路调整 without lines beside 线路; nothing stored', async () => {
    const before = (await db().select().from(notices)).length;
    await signIn(s, 'manager');
    visit(s, '/noticeReport/notice');
    const { user } = renderWithUser(<App />);
    await user.click(await screen.findByRole('button', { name: '＋ 新建公告' }));
    const dialog = await screen.findByRole('dialog', { name: '新建公告' });
    await user.type(within(dialog).getByRole('textbox', { name: /标题/ }), '空内容公告');
    typeRich(dialog, '<p><br></p><script>window.__xss=3</script>');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await within(dialog).findByText('公告内容不能为空')).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: '内容' }).getAttribute('aria-invalid')).toBe('true');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: /类型/ }), '3');
    typeRich(dialog, '<p>绕行</p>');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await within(dialog).findByText('线路调整公告请选择调整的线路')).toBeTruthy();
    expect((await db().select().from(notices)).length).toBe(before);
    // Esc with typed text asks first; 继续编辑 keeps it.
    await user.keyboard('{Escape}');
    expect(await within(dialog).findByText('有未保存的修改，关闭将丢失。')).toBeTruthy();
  });

  it('e on a draft opens it with its text shown through the allow-list (a stored payload runs nothing); the edit is stored', async () => {
    const n = await make('客户端编辑测试', 0);
    // Written past the server (an old row, a hand edit): the console still cleans it before showing it.
    await db().update(notices).set({ type: 1, content: '<p>旧文</p><img src=x onerror="window.__xss=4"><a href="javascript:window.__xss=5">x</a>' }).where(eq(notices.id, n.id));
    await signIn(s, 'manager');
    visit(s, '/noticeReport/notice?title=客户端编辑测试');
    const { user } = renderWithUser(<App />);
    const row = await rowOf(n.title);
    row.focus();
    await user.keyboard('e');
    // The form opens once the stored text is here (a loading dialog of the same name stands in first).
    const editor = await screen.findByRole('textbox', { name: '内容' }, { timeout: 5_000 });
    const dialog = screen.getByRole('dialog', { name: `编辑公告 · ${n.title}` });
    await waitFor(() => expect(editor.innerHTML).toBe('<p>旧文</p><a>x</a>'));
    expect(dialog.querySelector('img, [onerror]')).toBeNull();
    const title = within(dialog).getByRole('textbox', { name: /标题/ });
    await user.clear(title);
    await user.type(title, '客户端编辑后');
    typeRich(dialog, '<p>新文</p>');
    await user.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText('已保存公告草稿「客户端编辑后」（徐汇区）')).toBeTruthy();
    expect(await stored(n.id)).toMatchObject({ title: '客户端编辑后', content: '<p>新文</p>', rowVersion: n.rowVersion + 1 });
    expect((window as unknown as { __xss?: number }).__xss).toBeUndefined();
  });

  it('Enter previews a notice through the allow-list: markup stored past the server shows as text and runs nothing', async () => {
    const n = await make('客户端预览公告', 2);
    await db().update(notices).set({ content: '<h3>安排</h3><p>可见正文</p><img src=x onerror="window.__xss=6"><svg onload="window.__xss=7"></svg>' }).where(eq(notices.id, n.id));
    await signIn(s, 'manager');
    visit(s, '/noticeReport/notice?title=客户端预览公告');
    const { user } = renderWithUser(<App />);
    const row = await rowOf(n.title);
    row.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: `预览 · ${n.title}` });
    const body = await within(dialog).findByLabelText(`${n.title} 正文`);
    expect(body.innerHTML).toBe('<h3>安排</h3><p>可见正文</p>');
    expect(dialog.querySelector('img, svg, [onerror], [onload]')).toBeNull();
    expect((window as unknown as { __xss?: number }).__xss).toBeUndefined();
  });
});
