import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { helpCatalogs, helpDocVotes, helpDocs } from '../../src/server/modules/version/schema';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/** 帮助中心 on the real server: the tree and the docs, the editor, the flow, and ★ 页内帮助 in the `?` sheet. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const db = () => s.database.db;
const catalogId = async (name: string) => (await db().select().from(helpCatalogs).where(eq(helpCatalogs.name, name)))[0]!.id;

/** A doc written past the server (a hand edit, an old row): its markup as stored, unsanitised. */
async function rawDoc(title: string, content: string, more: Partial<typeof helpDocs.$inferInsert> = {}) {
  const now = s.clock.now();
  const [row] = await db()
    .insert(helpDocs)
    .values({ catalogId: await catalogId('审核与客服'), title, content, contentText: title, audience: 2, status: 0, createdAt: now, updatedAt: now, ...more })
    .returning();
  return row!;
}

async function rowOf(title: string) {
  const main = await screen.findByRole('main');
  const table = await within(main).findByRole('table', { name: '帮助文档列表' }, { timeout: 5_000 });
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

function typeRich(dialog: HTMLElement, html: string) {
  const editor = within(dialog).getByRole('textbox', { name: '内容' });
  editor.innerHTML = html;
  fireEvent.input(editor);
}

describe('帮助中心', () => {
  it('shows the catalogue tree with counts; choosing a catalogue lists its docs and those below it', async () => {
    await signIn(s, 'admin');
    visit(s, '/version/help-center');
    const { user } = renderWithUser(<App />);
    const tree = await screen.findByRole('navigation', { name: '帮助目录' });
    await within(tree).findByRole('button', { name: /控制台使用/ });
    expect(within(tree).getByRole('button', { name: /审核与客服/ }).textContent).toMatch(/员工 · \d+/);
    await rowOf('如何开通乘车码？');
    await user.click(within(tree).getByRole('button', { name: /^控制台使用/ }));
    await rowOf('乘客用户：查找乘客与查看实名信息');
    await waitFor(async () => expect(within(await screen.findByRole('table', { name: '帮助文档列表' })).queryByText('如何开通乘车码？')).toBeNull());
    expect(within(tree).getByRole('button', { name: /^控制台使用/ }).getAttribute('aria-current')).toBe('true');
  });

  it('新增文档: the editor saves a staff doc bound to a page, sanitised by the server; p publishes it', async () => {
    await signIn(s, 'manager');
    visit(s, '/version/help-center');
    const { user } = renderWithUser(<App />);
    await user.click(await screen.findByRole('button', { name: '＋ 新增文档' }));
    const dialog = await screen.findByRole('dialog', { name: '新增文档' });
    await within(dialog).findByRole('option', { name: /审核与客服/ }, { timeout: 5_000 });
    await user.selectOptions(within(dialog).getByRole('combobox', { name: /目录/ }), String(await catalogId('审核与客服')));
    await user.type(within(dialog).getByRole('textbox', { name: /标题/ }), '客户端新文档');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: /绑定页面/ }), 'order/order-list');
    typeRich(dialog, '<h3>步骤</h3><p>查询<img src=x onerror="window.__xss=1"></p><script>window.__xss=2</script>');
    await user.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText('已保存帮助文档「客户端新文档」')).toBeTruthy();
    const [stored] = await db().select().from(helpDocs).where(eq(helpDocs.title, '客户端新文档'));
    expect(stored).toMatchObject({ content: '<h3>步骤</h3><p>查询</p>', pageKey: 'order/order-list', status: 0, audience: 2 });
    const row = await rowOf('客户端新文档');
    row.focus();
    await user.keyboard('p');
    expect(await screen.findByText('已发布帮助文档「客户端新文档」')).toBeTruthy();
    await waitFor(async () => expect((await db().select().from(helpDocs).where(eq(helpDocs.id, stored!.id)))[0]?.status).toBe(1));
    expect((window as unknown as { __xss?: number }).__xss).toBeUndefined();
  });

  it('content empty after sanitising is refused beside the editor; Esc then asks before losing the text', async () => {
    await signIn(s, 'manager');
    visit(s, '/version/help-center?action=add');
    const { user } = renderWithUser(<App />);
    const dialog = await screen.findByRole('dialog', { name: '新增文档' });
    // The catalogues may arrive after the dialog opened from the address.
    await within(dialog).findByRole('option', { name: /审核与客服/ }, { timeout: 5_000 });
    await user.selectOptions(within(dialog).getByRole('combobox', { name: /目录/ }), String(await catalogId('审核与客服')));
    await user.type(within(dialog).getByRole('textbox', { name: /标题/ }), '空文档');
    typeRich(dialog, '<p><br></p>');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await within(dialog).findByText('文档内容不能为空')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(await within(dialog).findByText('有未保存的修改，关闭将丢失。')).toBeTruthy();
    expect(await db().select().from(helpDocs).where(eq(helpDocs.title, '空文档'))).toHaveLength(0);
  });

  it('Enter previews a doc through the allow-list: markup stored past the server shows as text and runs nothing', async () => {
    const doc = await rawDoc('客户端预览文档', '<p>正文可见</p><img src=x onerror="window.__xss=3"><a href="javascript:window.__xss=4">链接</a><svg onload="window.__xss=5"></svg>');
    await signIn(s, 'admin');
    visit(s, '/version/help-center?keyword=客户端预览');
    const { user } = renderWithUser(<App />);
    const row = await rowOf(doc.title);
    row.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: `预览 · ${doc.title}` });
    const body = await within(dialog).findByLabelText(`${doc.title} 正文`);
    expect(body.innerHTML).toBe('<p>正文可见</p><a>链接</a>');
    expect(dialog.querySelector('img, svg, [onerror], [onload]')).toBeNull();
    expect((window as unknown as { __xss?: number }).__xss).toBeUndefined();
  });

  it('编辑本页帮助 (?action=edit-page) opens a new doc bound to the page when it has none of this area', async () => {
    await signIn(s, 'manager');
    visit(s, '/version/help-center?action=edit-page&pageKey=busUser/yc-user');
    renderWithUser(<App />);
    const dialog = await screen.findByRole('dialog', { name: '新增文档' }, { timeout: 5_000 });
    expect((within(dialog).getByRole('combobox', { name: /绑定页面/ }) as HTMLSelectElement).value).toBe('busUser/yc-user');
  });
});

describe('★ 页内帮助 in the `?` sheet', () => {
  it('shows the page’s own staff doc above the hotkeys; Enter reads it whole; 有用 is stored as this account’s vote', async () => {
    await signIn(s, 'admin');
    visit(s, '/noticeReport/notice');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('table', { name: '公告列表' }, { timeout: 5_000 });
    await user.keyboard('?');
    const sheet = await screen.findByRole('dialog', { name: '快捷键一览' });
    const help = await within(sheet).findByRole('region', { name: '本页帮助' }, { timeout: 5_000 });
    expect(help.textContent).toContain('本页帮助：公告管理：编辑、定时发布与置顶');
    // The count before the doc is opened: opening it counts one view (read after, the view may already be in).
    const [doc] = await db().select().from(helpDocs).where(eq(helpDocs.title, '公告管理：编辑、定时发布与置顶'));
    // Focus rests on 查看全文: Enter opens the doc whole.
    await waitFor(() => expect(document.activeElement?.textContent).toContain('查看全文'));
    await user.keyboard('{Enter}');
    const article = await within(sheet).findByRole('article', { name: '公告管理：编辑、定时发布与置顶' });
    expect(article.textContent).toContain('每个区域最多置顶3条');
    await waitFor(async () => expect((await db().select().from(helpDocs).where(eq(helpDocs.id, doc!.id)))[0]!.views).toBe(doc!.views + 1));
    await user.click(within(article).getByRole('button', { name: /^有用/ }));
    await waitFor(async () => {
      const [admin] = await db().select().from(t.users).where(eq(t.users.login, 'admin'));
      const votes = await db()
        .select()
        .from(helpDocVotes)
        .where(and(eq(helpDocVotes.docId, doc!.id), eq(helpDocVotes.userId, admin!.id)));
      expect(votes).toMatchObject([{ helpful: true }]);
    });
    expect(within(article).getByRole('button', { name: /^有用/ }).getAttribute('aria-pressed')).toBe('true');
  });
});
