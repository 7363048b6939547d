import { screen, waitFor, within } from '@testing-library/react';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { account } from '../../src/shared/api';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/**
 * The resource frame's row actions on real screens against the real server: a hotkey on the
 * focused row, a confirmation naming the record, 撤销 and Ctrl+Z, revalidation by resource tags
 * (the page lists no endpoint to refresh), and the permission that hides an action.
 */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const firstRow = async (name: RegExp | string) => {
  const main = await screen.findByRole('main');
  const table = await within(main).findByRole('table', { name }, { timeout: 5_000 });
  // The first body row holds cells once the rows are in (not the 加载中 status).
  await waitFor(() => expect(within(within(table).getAllByRole('row')[1]!).queryAllByRole('cell').length).toBeGreaterThan(1), { timeout: 5_000 });
  return { table, row: within(table).getAllByRole('row')[1]! };
};

/** The station's name: the first cell with text (a manager's rows start with a selection box). */
const nameOf = (row: HTMLElement) => within(row).getAllByRole('cell').find((c) => c.textContent)!.textContent!;

describe('row actions declared once', () => {
  it('账号列表: d on the focused row asks, naming the account; Enter disables it, the server stored it and the list shows 禁用 without a page refresh', async () => {
    // An account of the manager's own district made for this test (the demo logins stay usable).
    const token = await s.login('admin');
    const [manager] = await s.database.db.select().from(t.users).where(eq(t.users.login, 'manager'));
    // The agent's group: one the manager may manage.
    const [agent] = await s.database.db.select().from(t.users).where(eq(t.users.login, 'agent'));
    const made = await s.call(account.userAdd, {
      token,
      body: { login: 'frame01', firstName: '框架测试', password: 'Frame@2026x', authority: 'ROLE_USER', groupId: agent!.groupId!, districtId: manager!.districtId },
    });
    expect(made.body.code).toBe(1);
    await signIn(s, 'manager');
    visit(s, '/user/user-list?keyword=frame01');
    const { user } = renderWithUser(<App />);
    const { table } = await firstRow('账号列表');
    // A manageable, active account other than the manager's own.
    const target = await waitFor(() => {
      const r = within(table)
        .getAllByRole('row')
        .slice(1)
        .find((tr) => within(tr).queryByRole('button', { name: /^禁用 / }));
      expect(r).toBeTruthy();
      return r!;
    });
    const login = within(target).getByRole('button', { name: /^禁用 / }).getAttribute('aria-label')!.replace('禁用 ', '');
    expect(within(target).getByRole('button', { name: `禁用 ${login}` }).getAttribute('aria-keyshortcuts')).toBe('d');
    target.focus();
    await user.keyboard('d');
    const dialog = await screen.findByRole('dialog', { name: '禁用账号' });
    expect(dialog.textContent).toContain(login);
    await user.keyboard('{Enter}');
    expect(await screen.findByText(`已禁用账号 ${login}`)).toBeTruthy();
    const [stored] = await s.database.db.select({ activated: t.users.activated }).from(t.users).where(eq(t.users.login, login));
    expect(stored?.activated).toBe(false);
    await waitFor(() => expect(within(table).getByRole('button', { name: `启用 ${login}` })).toBeTruthy(), { timeout: 5_000 });
  });

  it('站点: s takes the focused stop out of service at once; 撤销 by Ctrl+Z puts it back, both stored', async () => {
    await signIn(s, 'manager');
    visit(s, '/station/station?state=1&sort=name,asc');
    const { user } = renderWithUser(<App />);
    const { row } = await firstRow('站点列表');
    const name = nameOf(row);
    const [before] = await s.database.db.select().from(t.stations).where(eq(t.stations.name, name));
    expect(before?.state).toBe(1);
    row.focus();
    await user.keyboard('s');
    expect(await screen.findByText(`已停用站点「${name}」`)).toBeTruthy();
    expect(screen.getByRole('button', { name: '撤销 (Ctrl+Z)' })).toBeTruthy();
    await waitFor(async () => {
      const [now] = await s.database.db.select().from(t.stations).where(eq(t.stations.id, before!.id));
      expect(now?.state).toBe(0);
    });
    await user.keyboard('{Control>}z{/Control}');
    expect(await screen.findByText(`已撤销：站点「${name}」恢复为启用`)).toBeTruthy();
    await waitFor(async () => {
      const [now] = await s.database.db.select().from(t.stations).where(eq(t.stations.id, before!.id));
      expect(now?.state).toBe(1);
    });
    // A second Ctrl+Z has nothing left to take back.
    await user.keyboard('{Control>}z{/Control}');
    const [after] = await s.database.db.select().from(t.stations).where(eq(t.stations.id, before!.id));
    expect(after?.state).toBe(1);
  });

  it('站点 for the viewer: no 停用 button and s on a row changes nothing', async () => {
    await signIn(s, 'viewer');
    visit(s, '/station/station?state=1&sort=name,asc');
    const { user } = renderWithUser(<App />);
    const { row } = await firstRow('站点列表');
    const name = nameOf(row);
    expect(within(row).queryByRole('button', { name: /^停用/ })).toBeNull();
    // A toast of the test before may still show: count, do not look for absence.
    const toasts = () => screen.queryAllByText(`已停用站点「${name}」`).length;
    const shown = toasts();
    row.focus();
    await user.keyboard('s');
    await new Promise((r) => setTimeout(r, 300));
    expect(toasts()).toBe(shown);
    const [now] = await s.database.db.select().from(t.stations).where(eq(t.stations.name, name));
    expect(now?.state).toBe(1);
  });
});
