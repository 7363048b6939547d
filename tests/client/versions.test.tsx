import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import { lineVersion } from '../../src/shared/api';
import * as t from '../../src/server/db/schema';
import { clientSuite, renderWithUser, visit } from '../support/render';
import type { RequestLog } from '../support/request-log';
import { signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/**
 * 线网版本, keyboard only, against the real server: what cannot be undone (作废, 审核通过) asks
 * first, naming the version and its district, with 取消 focused; Enter never takes such a step by
 * itself, and the toasts name the district.
 */
let s: TestServer;
let log: RequestLog;
clientSuite((server, requests) => {
  s = server;
  log = requests;
});

const db = () => s.database.db;
const xuhui = async () => (await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区')))[0]!.id;
const stored = async (id: number) => (await db().select().from(t.lineVersions).where(eq(t.lineVersions.id, id)))[0]!;
const auditsOf = (id: number) => db().select().from(t.sysLog).where(eq(t.sysLog.target, `version/${id}`));
const active = () => document.activeElement as HTMLElement | null;
const statusCalls = () => [...log.to(lineVersion.versionDelete.path), ...log.to(lineVersion.versionUpdateStatus.path)];

/** Tab from where focus is until `target` has it (a row's own buttons are one Tab stop each). */
async function tabTo(user: UserEvent, target: HTMLElement, shift = false) {
  for (let i = 0; i < 30 && active() !== target; i++) await user.tab({ shift });
  expect(active()).toBe(target);
}

/** The list filtered to one status, its row of the version focused (j), as after opening the screen. */
async function rowOf(user: UserEvent, name: string) {
  const main = await screen.findByRole('main');
  const row = await within(main).findByRole('row', { name: new RegExp(name) }, { timeout: 5_000 });
  row.focus();
  return row;
}

describe('作废', () => {
  it('asks, naming the version and 徐汇区, with 取消 focused: Enter cancels and nothing changes; Tab to 作废 and Enter voids it, and the toast names the district', async () => {
    const [open] = await db().select().from(t.lineVersions).where(and(eq(t.lineVersions.districtId, await xuhui()), eq(t.lineVersions.status, 0)));
    const before = { row: await stored(open!.id), audits: await auditsOf(open!.id) };
    await signIn(s, 'manager');
    visit(s, '/version/version?status=0');
    const { user } = renderWithUser(<App />);
    const row = await rowOf(user, open!.name);

    // Enter on the focused row opens the diff, never a change.
    await user.keyboard('{Enter}');
    const diff = await screen.findByRole('dialog', { name: new RegExp(`对比|${open!.name}`) });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(diff.isConnected).toBe(false);

    row.focus();
    const voidButton = within(row).getByRole('button', { name: `作废 ${open!.name}` });
    await tabTo(user, voidButton);
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: `作废版本「${open!.name}」（徐汇区）` });
    expect(dialog.textContent).toContain(`徐汇区 的版本 「${open!.name}」（开放编辑`);
    expect(dialog.textContent).toContain('不能恢复');
    const cancel = within(dialog).getByRole('button', { name: /取消/ });
    await waitFor(() => expect(active()).toBe(cancel));

    // A second Enter (the key held, or pressed again) cancels.
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(statusCalls()).toEqual([]);
    expect({ row: await stored(open!.id), audits: await auditsOf(open!.id) }).toEqual(before);

    // Asked again: Tab reaches 作废, Tab again stays in the dialog, Enter on 作废 voids.
    await tabTo(user, voidButton);
    await user.keyboard('{Enter}');
    const again = await screen.findByRole('dialog', { name: `作废版本「${open!.name}」（徐汇区）` });
    const confirm = within(again).getByRole('button', { name: '作废' });
    await waitFor(() => expect(active()).toBe(within(again).getByRole('button', { name: /取消/ })));
    for (let i = 0; i < 4; i++) {
      await user.tab();
      expect(again.contains(active())).toBe(true);
    }
    await tabTo(user, confirm);
    await user.keyboard('{Enter}');
    expect(await screen.findByText(`版本「${open!.name}」（徐汇区）已作废`)).toBeTruthy();
    expect((await stored(open!.id)).status).toBe(5);
    expect((await auditsOf(open!.id)).map((a) => a.operationType)).toEqual(['VERSION_STATUS']);
  });

  it('from the palette: choosing the version opens the same question on 线网版本, 取消 focused; Esc leaves it as it was', async () => {
    const district = await xuhui();
    const now = new Date();
    const [v] = await db().insert(t.lineVersions).values({ districtId: district, name: '命令作废测试版', status: 1, createdAt: now, updatedAt: now }).returning();
    await db().insert(t.busLines).values({ versionId: v!.id, code: '1', name: '1路', createdAt: now, updatedAt: now });
    await signIn(s, 'manager');
    visit(s, '/station/station');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    await user.keyboard('{Control>}k{/Control}');
    const palette = await screen.findByRole('dialog', { name: '命令面板' }, { timeout: 5_000 });
    const selected = () => within(palette).queryByRole('option', { selected: true })?.textContent ?? '';
    await user.keyboard('作废版本');
    await waitFor(() => expect(selected().startsWith('作废版本')).toBe(true), { timeout: 3_000 });
    await user.keyboard('{Enter}');
    await user.keyboard('命令作废测试版');
    await waitFor(() => expect(selected()).toContain('命令作废测试版'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: '作废版本「命令作废测试版」（徐汇区）' }, { timeout: 5_000 });
    await waitFor(() => expect(active()).toBe(within(dialog).getByRole('button', { name: /取消/ })));
    expect(window.location.pathname).toBe('/version/version');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(statusCalls()).toEqual([]);
    expect((await stored(v!.id)).status).toBe(1);
  });
});

describe('审核通过', () => {
  it('asks as 作废 does; an empty version is refused with 版本中没有线路，不能审核通过, and stays pending', async () => {
    const now = new Date();
    const [empty] = await db().insert(t.lineVersions).values({ districtId: await xuhui(), name: '空的待审核版本', status: 1, createdAt: now, updatedAt: now }).returning();
    await signIn(s, 'manager');
    visit(s, '/version/version?status=1');
    const { user } = renderWithUser(<App />);
    const row = await rowOf(user, empty!.name);
    await tabTo(user, within(row).getByRole('button', { name: `审核通过 ${empty!.name}` }));
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: `审核通过版本「${empty!.name}」（徐汇区）` });
    expect(dialog.textContent).toContain('0 条线路');
    await waitFor(() => expect(active()).toBe(within(dialog).getByRole('button', { name: /取消/ })));
    await tabTo(user, within(dialog).getByRole('button', { name: '审核通过' }));
    await user.keyboard('{Enter}');
    expect(await screen.findByText('版本中没有线路，不能审核通过')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await stored(empty!.id)).toMatchObject({ status: 1, onlineAt: null });
    expect(await auditsOf(empty!.id)).toEqual([]);
  });
});

describe('提交审核', () => {
  it('s submits the focused version at once; 撤销 by Ctrl+Z returns it to 开放编辑, both stored and audited', async () => {
    const district = await xuhui();
    // A fresh open version copied from the online network: valid, so the submit passes its checks.
    await db().update(t.lineVersions).set({ status: 5 }).where(and(eq(t.lineVersions.districtId, district), eq(t.lineVersions.status, 0)));
    const token = await signIn(s, 'manager');
    const added = await s.call(lineVersion.versionAdd, { token, body: { name: '撤销测试版' } });
    expect(added.body.code, added.body.msg).toBe(1);
    const id = added.body.data.id;
    visit(s, '/version/version?status=0');
    const { user } = renderWithUser(<App />);
    await rowOf(user, '撤销测试版');
    await user.keyboard('s');
    expect(await screen.findByText('版本「撤销测试版」（徐汇区）已提交审核')).toBeTruthy();
    expect(screen.getByRole('button', { name: '撤销 (Ctrl+Z)' })).toBeTruthy();
    await waitFor(async () => expect((await stored(id)).status).toBe(1));
    await user.keyboard('{Control>}z{/Control}');
    expect(await screen.findByText('已撤销：版本「撤销测试版」（徐汇区）退回开放编辑')).toBeTruthy();
    await waitFor(async () => expect((await stored(id)).status).toBe(0));
    expect((await auditsOf(id)).map((a) => a.operationType).sort()).toEqual(['VERSION_ADD', 'VERSION_STATUS', 'VERSION_STATUS']);
  });
});
