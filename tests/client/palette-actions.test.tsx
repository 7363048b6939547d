import { screen, waitFor, within } from '@testing-library/react';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { EntityRecord, EntitySource } from '../../src/client/commands/entity-source';
import { Palette } from '../../src/client/commands/palette';
import type { CommandContext } from '../../src/client/commands/types';
import { handRow, recordActions } from '../../src/client/components/resource/row-action';
import { stationActions } from '../../src/client/features/station/station-actions';
import { GrantsContext } from '../../src/client/lib/permission';
import * as t from '../../src/server/db/schema';
import { SESSION, type Station, account, lineVersion, station } from '../../src/shared/api';
import { clientSuite, renderWithUser } from '../support/render';
import { signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';
import { find, listSettled, openPalette, paletteSuite, rowTexts, selectedText } from '../support/palette-client';

/**
 * A row action under its record in the palette (issue 20): the record found, Tab or → shows its
 * resource's declared actions for this account and row, Enter runs one through the table's own
 * runner (撤销 and Ctrl+Z, the question naming the record, the page's dialog), Esc or ← go back.
 * The real App against the real server; what the server stored is read back.
 */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const { db, xuhui, freshStation, start } = paletteSuite(() => s);






/** The panel's rows: the record's actions under `title · 操作`. */
const actionRows = (dialog: HTMLElement, title: string) => {
  const group = within(dialog).queryByRole('group', { name: `${title} · 操作` });
  return group ? within(group).queryAllByRole('option').map((o) => o.textContent ?? '') : null;
};

const storedState = async (token: string, name: string) => {
  const res = await s.call(station.stationList, { token, query: { name } });
  return res.body.data.content.find((x) => x.name === name)?.state;
};

describe('a station under its record', () => {
  it('# finds it, Tab shows 停用 and 编辑; 停用 runs at once, the server stored it, the toast offers 撤销 and Ctrl+Z puts it back', async () => {
    const stop = await freshStation('面板操作甲站');
    const { user, token } = await start('manager');
    const { dialog } = await openPalette(user);
    await find(user, dialog, '#面板操作甲站', '面板操作甲站');
    // The record says it has actions.
    expect(selectedText(dialog)).toContain('Tab 操作');

    await user.keyboard('{Tab}');
    await waitFor(() => expect(actionRows(dialog, '面板操作甲站')).not.toBeNull());
    const rows = actionRows(dialog, '面板操作甲站')!;
    expect(rows.map((r) => r.slice(0, 2))).toEqual(['编辑', '停用', '合并']);
    expect(rows[1]).toContain('可撤销');
    expect(within(dialog).getByText('面板操作甲站 · 操作', { selector: 'span' })).toBeTruthy();

    // Typing narrows the actions (pinyin initials as anywhere in the palette).
    await user.keyboard('ty');
    await waitFor(() => expect(selectedText(dialog).startsWith('停用')).toBe(true));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull());
    expect(await screen.findByText('已停用站点「面板操作甲站」', {}, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: '撤销 (Ctrl+Z)' })).toBeTruthy();
    await waitFor(async () => expect(await storedState(token, '面板操作甲站')).toBe(0));
    const audits = await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'STATION_SAVE'), eq(t.sysLog.target, `station/${stop.id}`)));
    expect(audits.length).toBeGreaterThan(0);

    // Nothing was left in a text field: Ctrl+Z takes it back.
    await user.keyboard('{Control>}z{/Control}');
    expect(await screen.findByText('已撤销：站点「面板操作甲站」恢复为启用', {}, { timeout: 5_000 })).toBeTruthy();
    await waitFor(async () => expect(await storedState(token, '面板操作甲站')).toBe(1));
    // Nothing moved: the palette ran the action where the user was.
    expect(window.location.pathname).toBe('/noticeReport/notice');
  });

  it('lists a record’s actions most used first for this account, the primary one (Enter’s) staying first; each run counts', async () => {
    await freshStation('面板常用甲站');
    await freshStation('面板常用乙站');
    const { user } = await start('manager');
    for (const name of ['面板常用甲站', '面板常用乙站']) {
      const { dialog } = await openPalette(user);
      await find(user, dialog, `#${name}`, name);
      await user.keyboard('{Alt>}s{/Alt}');
      await waitFor(() => expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull());
      expect(await screen.findByText(`已停用站点「${name}」`, {}, { timeout: 5_000 })).toBeTruthy();
    }
    const counts = JSON.parse(localStorage.getItem('bus-console.action-use.manager') ?? '{}') as Record<string, number>;
    expect(counts['station:state']).toBe(2);
    // Merged more often than switched: 合并到… moves up, 编辑 (Enter) stays first.
    localStorage.setItem('bus-console.action-use.manager', JSON.stringify({ ...counts, 'station:merge': 3 }));
    const { dialog } = await openPalette(user);
    await find(user, dialog, '#面板常用甲站', '面板常用甲站');
    const chords = selectedText(dialog);
    expect(chords.indexOf('Alt+E 编辑')).toBeLessThan(chords.indexOf('Alt+M 合并到…'));
    expect(chords.indexOf('Alt+M 合并到…')).toBeLessThan(chords.indexOf('Alt+S 启用'));
    await user.keyboard('{Tab}');
    await waitFor(() => expect(actionRows(dialog, '面板常用甲站')).not.toBeNull());
    expect(actionRows(dialog, '面板常用甲站')!.map((r) => r.slice(0, 2))).toEqual(['编辑', '合并', '启用']);
  });

  it('Alt and an action’s key runs it on the highlighted record at once (Alt+S 停用), as its row shows', async () => {
    await freshStation('面板操作庚站');
    const { user, token } = await start('manager');
    const { dialog } = await openPalette(user);
    await find(user, dialog, '#面板操作庚站', '面板操作庚站');
    expect(selectedText(dialog)).toContain('Alt+S 停用');
    expect(selectedText(dialog)).toContain('Alt+E 编辑');
    await user.keyboard('{Alt>}s{/Alt}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull());
    expect(await screen.findByText('已停用站点「面板操作庚站」', {}, { timeout: 5_000 })).toBeTruthy();
    await waitFor(async () => expect(await storedState(token, '面板操作庚站')).toBe(0));
  });

  it('is found by its pinyin initials in the default mode too, without #, and its actions are there', async () => {
    await freshStation('面板拼音丙站');
    const { user } = await start('manager');
    const { dialog } = await openPalette(user);
    await find(user, dialog, 'mbpybz', '面板拼音丙站');
    expect(selectedText(dialog)).toContain('Tab 操作');
  });

  it('typed at once as the palette opens, before its lists and dictionary arrive (#name Tab ty Enter): the Tab waits for the results, nothing is lost', async () => {
    await freshStation('面板操作乙站');
    const { user, token } = await start('manager');
    await openPalette(user);
    await user.keyboard('#面板操作乙站{Tab}ty{Enter}');
    expect(await screen.findByText('已停用站点「面板操作乙站」', {}, { timeout: 8_000 })).toBeTruthy();
    await waitFor(async () => expect(await storedState(token, '面板操作乙站')).toBe(0));
  });

  it('编辑 opens 站点 with the edit dialog of that stop, its row handed over', async () => {
    await freshStation('面板操作丙站');
    const { user } = await start('manager');
    const { dialog } = await openPalette(user);
    await find(user, dialog, '#面板操作丙站', '面板操作丙站');
    // → at the end of the query opens the actions as Tab does.
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(selectedText(dialog).startsWith('编辑')).toBe(true));
    await user.keyboard('{Enter}');
    const edit = await screen.findByRole('dialog', { name: '编辑站点 · 面板操作丙站' }, { timeout: 5_000 });
    expect(window.location.pathname).toBe('/station/station');
    // The action left the address once it ran: a reload does not open the dialog again.
    await waitFor(() => expect(window.location.search).not.toContain('action='));
    expect((within(edit).getByLabelText(/站点名称/) as HTMLInputElement).value).toBe('面板操作丙站');
  });

  it('the viewer finds the stop but is offered no action (no hint, Tab opens nothing), and the server refuses the call anyway', async () => {
    await freshStation('面板操作丁站');
    const { user, token } = await start('viewer', '/');
    const { dialog } = await openPalette(user);
    await find(user, dialog, '#面板操作丁站', '面板操作丁站');
    expect(selectedText(dialog)).not.toContain('Tab 操作');
    await user.keyboard('{Tab}');
    await new Promise((r) => setTimeout(r, 200));
    expect(actionRows(dialog, '面板操作丁站')).toBeNull();
    expect(selectedText(dialog).startsWith('面板操作丁站')).toBe(true);

    const [stop] = await db().select().from(t.stations).where(eq(t.stations.name, '面板操作丁站'));
    const refused = await s.call(station.stationSave, { token, body: { id: stop!.id, name: stop!.name, lng: stop!.lng, lat: stop!.lat, state: 0 } });
    expect([refused.status, refused.body.code]).toEqual([403, 403]);
    expect(await storedState(token, '面板操作丁站')).toBe(1);
  });

  it('typed at once by the viewer (#name Tab Enter): the record has no actions, so the Enter behind the Tab opens the record', async () => {
    await freshStation('面板操作己站');
    const { user } = await start('viewer', '/');
    await openPalette(user);
    await user.keyboard('#面板操作己站{Tab}{Enter}');
    await waitFor(() => expect(window.location.pathname).toBe('/station/station'), { timeout: 8_000 });
    expect(new URLSearchParams(window.location.search).get('name')).toBe('面板操作己站');
    expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull();
  });

  it('Esc, ← and Backspace go back to the results, the record still highlighted; Esc there closes the palette', async () => {
    await freshStation('面板操作戊站');
    const { user } = await start('manager');
    const { dialog, input } = await openPalette(user);
    await find(user, dialog, '#面板操作戊站', '面板操作戊站');
    const results = rowTexts(dialog);

    for (const key of ['{Escape}', '{ArrowLeft}', '{Backspace}']) {
      await user.keyboard('{Tab}');
      await waitFor(() => expect(actionRows(dialog, '面板操作戊站')).not.toBeNull());
      expect(input.value).toBe('');
      await user.keyboard(key);
      await waitFor(() => expect(actionRows(dialog, '面板操作戊站')).toBeNull());
      // Back where the user was: the query, the rows and the record selected.
      expect(screen.getByRole('dialog', { name: '命令面板' })).toBe(dialog);
      expect(input.value).toBe('#面板操作戊站');
      await waitFor(() => expect(selectedText(dialog).startsWith('面板操作戊站')).toBe(true));
      expect(rowTexts(dialog)).toEqual(results);
    }
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull());
  });
});

describe('an account under its record', () => {
  it('禁用 asks first, naming the account; 取消 changes nothing, 禁用 is stored; the manager is not offered 禁用 on their own account', async () => {
    const admin = await s.login('admin');
    const [agent] = await db().select().from(t.users).where(eq(t.users.login, 'agent'));
    const made = await s.call(account.userAdd, {
      token: admin,
      body: { login: 'panel01', firstName: '面板测试员', password: 'Panel@2026x', authority: 'ROLE_USER', groupId: agent!.groupId!, districtId: agent!.districtId },
    });
    expect(made.body.code, made.body.msg).toBe(1);
    const { user } = await start('manager');
    let { dialog } = await openPalette(user);
    await find(user, dialog, 'panel01', '面板测试员（panel01）');
    await user.keyboard('{Tab}');
    await waitFor(() => expect(actionRows(dialog, '面板测试员（panel01）')).not.toBeNull());
    expect(actionRows(dialog, '面板测试员（panel01）')!.map((r) => r.slice(0, 2))).toEqual(['编辑', '禁用']);
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(selectedText(dialog).startsWith('禁用')).toBe(true));
    expect(selectedText(dialog)).toContain('先确认');
    await user.keyboard('{Enter}');

    let ask = await screen.findByRole('dialog', { name: '禁用账号' }, { timeout: 5_000 });
    expect(ask.textContent).toContain('panel01');
    expect(ask.textContent).toContain('面板测试员');
    await user.click(within(ask).getByRole('button', { name: /取消/ }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '禁用账号' })).toBeNull());
    const stored = async () => (await db().select({ activated: t.users.activated }).from(t.users).where(eq(t.users.login, 'panel01')))[0]?.activated;
    expect(await stored()).toBe(true);

    ({ dialog } = await openPalette(user));
    await find(user, dialog, 'panel01', '面板测试员（panel01）');
    await user.keyboard('{Tab}');
    await waitFor(() => expect(actionRows(dialog, '面板测试员（panel01）')).not.toBeNull());
    await user.keyboard('jy{Enter}');
    ask = await screen.findByRole('dialog', { name: '禁用账号' }, { timeout: 5_000 });
    await user.click(within(ask).getByRole('button', { name: /^禁用/ }));
    expect(await screen.findByText('已禁用账号 panel01', {}, { timeout: 5_000 })).toBeTruthy();
    await waitFor(async () => expect(await stored()).toBe(false));

    // Nobody disables the account they are signed in with: no 禁用 under the manager's own record.
    ({ dialog } = await openPalette(user));
    await find(user, dialog, 'manager', '徐汇区管理员（manager）');
    await user.keyboard('{Tab}');
    await new Promise((r) => setTimeout(r, 200));
    expect((actionRows(dialog, '徐汇区管理员（manager）') ?? []).filter((r) => r.startsWith('禁用'))).toEqual([]);
  });
});

describe('a line version under its record', () => {
  it('a passed version offers 设置上线时间 (and 作废), which opens the page’s dialog for it; an open one offers 提交审核', async () => {
    const now = new Date();
    const district = await xuhui();
    // A district has one open version at most: the 徐汇区 one is renamed for the test, or made.
    const [open] = await db().select().from(t.lineVersions).where(and(eq(t.lineVersions.districtId, district), eq(t.lineVersions.status, 0)));
    if (open) await db().update(t.lineVersions).set({ name: '面板编辑中版' }).where(eq(t.lineVersions.id, open.id));
    else await db().insert(t.lineVersions).values({ districtId: district, name: '面板编辑中版', status: 0, createdAt: now, updatedAt: now });
    // A passed version with a line: one without is refused an online time.
    const [passed] = await db().insert(t.lineVersions).values({ districtId: district, name: '面板已通过版', status: 2, createdAt: now, updatedAt: now }).returning();
    await db().insert(t.busLines).values({ versionId: passed!.id, code: '1', name: '1路', createdAt: now, updatedAt: now });
    const { user, token } = await start('manager');
    let { dialog } = await openPalette(user);
    await find(user, dialog, '#面板编辑中版', '面板编辑中版');
    await user.keyboard('{Tab}');
    await waitFor(() => expect(actionRows(dialog, '面板编辑中版')).not.toBeNull());
    expect(actionRows(dialog, '面板编辑中版')!.map((r) => r.split(/可撤销|先确认|打开对话框/)[0])).toEqual(['对比', '提交审核', '作废']);
    await user.keyboard('{Escape}{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull());

    ({ dialog } = await openPalette(user));
    await find(user, dialog, '#面板已通过版', '面板已通过版');
    await user.keyboard('{Tab}');
    await waitFor(() => expect(actionRows(dialog, '面板已通过版')).not.toBeNull());
    expect(actionRows(dialog, '面板已通过版')!.map((r) => r.split(/可撤销|先确认|打开对话框/)[0])).toEqual(['对比', '设置上线时间', '作废']);
    await user.keyboard('szsx{Enter}');
    const schedule = await screen.findByRole('dialog', { name: '设置上线时间 · 面板已通过版' }, { timeout: 5_000 });
    expect(window.location.pathname).toBe('/version/version');
    await user.type(within(schedule).getByLabelText(/上线时间/), '2030-01-01 05:00');
    await user.keyboard('{Enter}');
    expect(await screen.findByText('版本「面板已通过版」（徐汇区）将于 2030-01-01 05:00 上线', {}, { timeout: 5_000 })).toBeTruthy();
    const page = await s.call(lineVersion.versionPage, { token, query: { status: '2' } });
    const onlineAt = page.body.data.content.find((v) => v.name === '面板已通过版')?.onlineAt;
    expect(onlineAt && new Date(onlineAt).toISOString()).toBe('2029-12-31T21:00:00.000Z');
  });

  it('the command’s version choices tell two districts’ versions of one name apart: district, status, planned time', async () => {
    const { user } = await start('admin');
    const { dialog } = await openPalette(user);
    await user.keyboard('>设置版本上线时间');
    await waitFor(() => expect(selectedText(dialog)).toContain('设置版本上线时间'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    const named = () => within(dialog).queryAllByRole('option').map((o) => o.textContent ?? '').filter((r) => r.startsWith('2026 冬季加班线'));
    await waitFor(() => expect(named().length).toBeGreaterThanOrEqual(2), { timeout: 8_000 });
    expect(new Set(named()).size).toBe(named().length);
    for (const row of named()) expect(row).toMatch(/区 · 审核通过（待上线） · 计划 \d{4}-\d{2}-\d{2} \d{2}:\d{2} 上线 · \d+ 条线路$/);
  });

  it('a time typed where no field takes it offers 设置上线时间 for each passed version, the whole change on the row: Enter stores it, 撤销 puts the old time back', async () => {
    const now = new Date();
    const district = await xuhui();
    const [passed] = await db()
      .insert(t.lineVersions)
      .values({ districtId: district, name: '键入时间版', status: 2, onlineAt: new Date('2031-03-01T22:00:00Z'), createdAt: now, updatedAt: now })
      .returning();
    await db().insert(t.busLines).values({ versionId: passed!.id, code: '1', name: '1路', createdAt: now, updatedAt: now });
    const { user, token } = await start('manager');
    await openPalette(user);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull());
    // The digits open the palette; the rest of the query narrows the versions (pinyin too).
    await user.keyboard('2031-04-02 06:30 jrsj');
    const dialog = await screen.findByRole('dialog', { name: '命令面板' });
    await waitFor(() => expect(rowTexts(dialog)[0]).toContain('设置上线时间：版本「键入时间版」（徐汇区）于 2031-04-02 06:30 上线'), { timeout: 8_000 });
    // An open version is not offered a time, nor is anything for a time that is no time.
    expect(rowTexts(dialog).filter((r) => r.startsWith('设置上线时间'))).toHaveLength(1);
    await user.keyboard('{Enter}');
    expect(await screen.findByText('版本「键入时间版」（徐汇区）将于 2031-04-02 06:30 上线', {}, { timeout: 5_000 })).toBeTruthy();
    const stored = async () => (await s.call(lineVersion.versionInfo, { token, query: { id: passed!.id } })).body.data.onlineAt;
    expect(new Date((await stored())!).toISOString()).toBe('2031-04-01T22:30:00.000Z');
    await user.keyboard('{Control>}z{/Control}');
    await waitFor(async () => expect(new Date((await stored())!).toISOString()).toBe('2031-03-01T22:00:00.000Z'), { timeout: 5_000 });

    const again = await openPalette(user);
    await user.keyboard('2031-02-30 06:30');
    await listSettled(again.dialog);
    expect(rowTexts(again.dialog).some((r) => r.startsWith('设置上线时间'))).toBe(false);

    // A time alone, with two versions it fits: the rest of the query must say which, never the first of them.
    const [other] = await db()
      .insert(t.lineVersions)
      .values({ districtId: district, name: '键入时间另一版', status: 2, onlineAt: new Date('2031-03-02T22:00:00Z'), createdAt: now, updatedAt: now })
      .returning();
    await db().insert(t.busLines).values({ versionId: other!.id, code: '1', name: '1路', createdAt: now, updatedAt: now });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull());
    const third = await openPalette(user);
    await user.keyboard('2031-05-01 06:00');
    await listSettled(third.dialog);
    expect(rowTexts(third.dialog).some((r) => r.startsWith('设置上线时间'))).toBe(false);
    await user.keyboard(' jrsjl');
    await waitFor(() => expect(rowTexts(third.dialog)[0]).toContain('设置上线时间：版本「键入时间另一版」'), { timeout: 8_000 });
  });
});

describe('a dialog action’s address on its own (a link, a command that chose an id)', () => {
  it('账号列表 finds the account by id (the server’s row) and opens its edit dialog; the address drops the action', async () => {
    const [agent] = await db().select().from(t.users).where(eq(t.users.login, 'agent'));
    await start('manager', `/user/user-list?action=edit&id=${agent!.id}`);
    const edit = await screen.findByRole('dialog', { name: '编辑账号 · agent' }, { timeout: 5_000 });
    expect((within(edit).getByLabelText(/姓名/) as HTMLInputElement).value).toBe('客服小李');
    await waitFor(() => expect(window.location.search).toBe(''));
  });

  it('线网版本 finds the version by id and opens its diff', async () => {
    const [open] = await db().select().from(t.lineVersions).where(and(eq(t.lineVersions.districtId, await xuhui()), eq(t.lineVersions.status, 0)));
    await start('manager', `/version/version?action=diff&id=${open!.id}`);
    const diff = await screen.findByRole('dialog', { name: new RegExp(`对比|${open!.name}`) }, { timeout: 5_000 });
    expect(diff).toBeTruthy();
  });

  it('线网版本 finds a 已下线 version by id (no list page holds it) and opens its diff', async () => {
    const now = new Date();
    const [offline] = await db().insert(t.lineVersions).values({ districtId: await xuhui(), name: '链接已下线版', status: 4, createdAt: now, updatedAt: now }).returning();
    // The list shows the open versions only: the row is on none of its pages.
    await start('manager', `/version/version?status=0&action=diff&id=${offline!.id}`);
    expect(await screen.findByRole('dialog', { name: '版本对比 · 链接已下线版' }, { timeout: 5_000 })).toBeTruthy();
    expect(screen.queryByText('记录不存在，或当前不能执行该操作')).toBeNull();
    await waitFor(() => expect(window.location.search).toBe('?status=0'));
  });

  it('a row handed for 站点’s 编辑 is not taken by 账号列表’s 编辑 of the same id: the account is found by id', async () => {
    const [agent] = await db().select().from(t.users).where(eq(t.users.login, 'agent'));
    const stop = await freshStation('手递站点');
    // A station row handed under the account's id, as a palette hand-off that was never taken would leave it.
    handRow(['station', 'station', 'edit'], agent!.id, { ...stop, districtName: '徐汇区', qrCode: null, updatedDate: '' });
    await start('manager', `/user/user-list?action=edit&id=${agent!.id}`);
    const edit = await screen.findByRole('dialog', { name: '编辑账号 · agent' }, { timeout: 5_000 });
    expect((within(edit).getByLabelText(/姓名/) as HTMLInputElement).value).toBe('客服小李');
  });

  it('a handed row is dropped when the shell goes to another page first: 站点 then finds the stop as it is', async () => {
    const stop = await freshStation('手递现名站');
    handRow(['station', 'station', 'edit'], stop.id, { ...stop, name: '手递旧名站', districtName: '徐汇区', qrCode: null, updatedDate: '' });
    await start('manager', '/noticeReport/notice');
    window.history.pushState(null, '', `/station/station?action=edit&id=${stop.id}`);
    window.dispatchEvent(new PopStateEvent('popstate'));
    const edit = await screen.findByRole('dialog', { name: '编辑站点 · 手递现名站' }, { timeout: 5_000 });
    expect((within(edit).getByLabelText(/站点名称/) as HTMLInputElement).value).toBe('手递现名站');
  });

  it('an id that is not there says so and opens nothing', async () => {
    await start('manager', '/station/station?action=edit&id=99999999');
    expect(await screen.findByText('记录不存在，或当前不能执行该操作', {}, { timeout: 5_000 })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(window.location.search).toBe(''));
  });
});

describe('the rows the panel acts on, as answers arrive late (a palette fed by a source the test answers)', () => {
  const ctx: CommandContext = { navigate: () => undefined, setDistrict: () => undefined, shell: () => undefined, changed: () => undefined };
  const stationRecord = (st: Station): EntityRecord => ({ key: `station:${st.id}`, title: st.name, path: '/station/station', actions: recordActions(stationActions, st) });
  /** A query source whose answers the test gives, one per query, in any order. */
  function heldSource() {
    const asked: { q: string; answer(rows: EntityRecord[]): void }[] = [];
    const source: EntitySource = {
      id: 'test-stations',
      group: '站点',
      permission: SESSION,
      page: '/station/station',
      query: (q) => new Promise((answer) => asked.push({ q, answer })),
    };
    return { source, asked };
  }
  /** The manager's palette: grants as the server gives a district manager. */
  async function palette(sources: EntitySource[], loaded: EntityRecord[] = []) {
    await signIn(s, 'manager');
    const all: EntitySource[] = loaded.length ? [...sources, { id: 'test-loaded', group: '站点', permission: SESSION, page: '/station/station', load: () => Promise.resolve(loaded) }] : sources;
    const view = renderWithUser(
      <GrantsContext.Provider value={{ roles: ['ROLE_ADMIN'], buttons: [] }}>
        <Palette open onClose={() => undefined} login="manager" commands={[]} pages={[]} sources={all} canOpen={() => true} ctx={ctx} />
      </GrantsContext.Provider>,
    );
    const dialog = await screen.findByRole('dialog', { name: '命令面板' });
    return { ...view, dialog };
  }
  const contractRow = async (token: string, name: string) => (await s.call(station.stationList, { token, query: { name } })).body.data.content.find((x) => x.name === name)!;

  it('an answer to an older query arriving last does not replace the rows of the newer one', async () => {
    await freshStation('迟到答复站');
    const token = await s.login('manager');
    const now = await contractRow(token, '迟到答复站');
    const { source, asked } = heldSource();
    const { user, dialog } = await palette([source]);
    await user.keyboard('迟到');
    await waitFor(() => expect(asked.map((a) => a.q)).toEqual(['迟到']));
    await user.keyboard('答复');
    await waitFor(() => expect(asked.map((a) => a.q)).toEqual(['迟到', '迟到答复']));
    // The newer query answers first, with the stop out of service; the older one last, with it in service.
    asked[1]!.answer([stationRecord({ ...now, state: 0 })]);
    await waitFor(() => expect(selectedText(dialog).startsWith('迟到答复站')).toBe(true));
    asked[0]!.answer([stationRecord(now)]);
    await new Promise((r) => setTimeout(r, 50));
    await user.keyboard('{Tab}');
    await waitFor(() => expect(actionRows(dialog, '迟到答复站')).not.toBeNull());
    expect(actionRows(dialog, '迟到答复站')!.map((r) => r.slice(0, 2))).toEqual(['编辑', '启用', '合并']);
  });

  it('the panel runs the row it shows: a newer answer arriving while it is open changes neither', async () => {
    const stop = await freshStation('面板定格站');
    const token = await s.login('manager');
    const shown = await contractRow(token, '面板定格站');
    const { source, asked } = heldSource();
    // The list (a load source) has the stop in service; a query is still on its way.
    const { user, dialog } = await palette([source], [stationRecord(shown)]);
    await user.keyboard('面板定格');
    await waitFor(() => expect(asked).toHaveLength(1));
    await waitFor(() => expect(selectedText(dialog).startsWith('面板定格站')).toBe(true));
    await user.keyboard('{Tab}');
    await waitFor(() => expect(actionRows(dialog, '面板定格站')).not.toBeNull());
    expect(actionRows(dialog, '面板定格站')!.map((r) => r.slice(0, 2))).toEqual(['编辑', '停用', '合并']);
    // The query answers now, with the stop as if someone had taken it out of service.
    asked[0]!.answer([stationRecord({ ...shown, state: 0 })]);
    await new Promise((r) => setTimeout(r, 50));
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(selectedText(dialog).startsWith('停用')).toBe(true));
    await user.keyboard('{Enter}');
    // 停用 ran on the row shown: from 启用, stored.
    await waitFor(async () => expect((await db().select().from(t.stations).where(eq(t.stations.id, stop.id)))[0]?.state).toBe(0), { timeout: 5_000 });
  });
});
