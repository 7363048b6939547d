import { screen, waitFor, within } from '@testing-library/react';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/** Screens on the frame's list-screen hook and form hook (协议管理, 角色组), against the real server. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

describe('adding an agreement', () => {
  it('puts the server’s duplicate-code refusal under 协议编码, then saves and lists the new one', async () => {
    await signIn(s, 'manager');
    visit(s, '/settings/agreements');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    await user.click(await within(main).findByRole('button', { name: /^＋ 新增/ }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog', { name: '新增协议' });
    await user.type(within(dialog).getByLabelText(/标题/), '乘车须知');
    await user.type(within(dialog).getByLabelText(/协议编码/), 'user-service');
    await user.type(within(dialog).getByLabelText(/内容/), '请文明乘车。');
    await user.keyboard('{Control>}{Enter}{/Control}');

    const code = within(dialog).getByLabelText(/协议编码/);
    await waitFor(() => expect(code.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(code.getAttribute('aria-describedby') ?? '')?.textContent).toBe('该区域已存在相同编码的协议');

    await user.clear(code);
    await user.type(code, 'riding-notice');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText('已新增协议「乘车须知」')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(main).findByText('乘车须知')).toBeTruthy();
    const [manager] = await s.database.db.select().from(t.users).where(eq(t.users.login, 'manager'));
    const stored = await s.database.db
      .select()
      .from(t.agreements)
      .where(and(eq(t.agreements.code, 'riding-notice'), eq(t.agreements.districtId, manager?.districtId ?? -1)));
    expect(stored.map((a) => a.content)).toEqual(['请文明乘车。']);
  });
});

describe('editing a role group', () => {
  it('saves a new description through the form hook and the server stores it', async () => {
    await signIn(s, 'admin');
    visit(s, '/user/role-group');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    await user.click(await within(main).findByRole('button', { name: '编辑权限 只读组' }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByRole('tree', {}, { timeout: 5_000 });
    const description = within(dialog).getByLabelText(/描述/);
    await user.clear(description);
    await user.type(description, '只能查看（测试修改）');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText('已保存角色组 只读组')).toBeTruthy();
    const [row] = await s.database.db.select().from(t.roleGroups).where(eq(t.roleGroups.name, '只读组'));
    expect(row?.description).toBe('只能查看（测试修改）');
  });
});
