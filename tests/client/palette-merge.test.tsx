import { screen, waitFor, within } from '@testing-library/react';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mergedMessage, metres, place } from '../../src/client/features/station/station-place';
import * as t from '../../src/server/db/schema';
import { station } from '../../src/shared/api';
import { clientSuite } from '../support/render';
import type { TestServer } from '../support/test-server';
import { find, openPalette, paletteSuite, selectedText } from '../support/palette-client';

/**
 * 合并到… under a station found in the palette: Alt+M (or Enter on it among the record's actions)
 * asks for the station to keep as a step of the palette, nearest first, each candidate told apart
 * by its district, distance, place and QR code; the highlighted one's preview says what happens;
 * Enter merges. The real App against the real server; what the server stored is read back.
 */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const { db, freshStation, start } = paletteSuite(() => s);
const PROMPT = '选择保留的站点（当前站点并入它后删除）';






/** The step's candidates, once they are in. */
const candidates = (dialog: HTMLElement) => {
  const group = within(dialog).queryByRole('group', { name: PROMPT });
  return group ? within(group).queryAllByRole('option').map((o) => o.textContent ?? '') : null;
};
const waitCandidates = async (dialog: HTMLElement) => {
  await waitFor(() => expect(candidates(dialog)?.length).toBeGreaterThan(0), { timeout: 5_000 });
  return candidates(dialog)!;
};

const listed = async (token: string) => (await s.call(station.stationList, { token, query: { page: 0, size: 1000 } })).body.data.content;

/** A seeded near-duplicate (「X站」) with two stops named X across the street: found, not hard-coded. */
async function seededDuplicate(token: string) {
  const all = await listed(token);
  const dup = all.find((x) => x.name.endsWith('站') && all.filter((o) => o.name === x.name.slice(0, -1)).length === 2);
  expect(dup, 'the seed plants near-duplicates').toBeTruthy();
  const twins = all.filter((o) => o.name === dup!.name.slice(0, -1)).sort((a, b) => metres(dup!, a) - metres(dup!, b));
  return { dup: dup!, twins, all };
}

describe('合并到… on a station record', () => {
  it('Alt+M on a seeded duplicate: the nearest first, the two of one name told apart, the preview shown; Enter merges, the server lists it no more, the audit row names both', async () => {
    const { user, token } = await start('manager');
    const { dup, twins, all } = await seededDuplicate(token);
    const nearest = all.filter((o) => o.id !== dup.id && o.districtId === dup.districtId).sort((a, b) => metres(dup, a) - metres(dup, b))[0]!;
    expect(nearest.name).toBe(twins[0]!.name);

    const { dialog } = await openPalette(user);
    await find(user, dialog, `#${dup.name}`, dup.name);
    expect(selectedText(dialog)).toContain('Alt+M 合并到…');
    await user.keyboard('{Alt>}m{/Alt}');
    const rows = await waitCandidates(dialog);
    expect(screen.getByRole('dialog', { name: '命令面板' })).toBe(dialog);
    // What happens to the record, before anything is chosen.
    expect(within(dialog).getByText(`将把「${dup.name}」（徐汇区，${place(dup)}）并入所选站点并删除，不能撤销`)).toBeTruthy();

    // Nearest first and highlighted; the two stops of one name differ in their subtitles.
    expect(rows[0]).toContain(place(nearest));
    expect(selectedText(dialog)).toContain(place(nearest));
    expect(rows[0]).toContain(`约 ${Math.round(metres(dup, nearest))} 米`);
    const same = rows.filter((r) => r.startsWith(twins[0]!.name) && !r.startsWith(dup.name));
    expect(same).toHaveLength(2);
    expect(same[0]).not.toBe(same[1]);
    for (const [i, twin] of twins.entries()) expect(same[i]).toContain(`徐汇区 · 约 ${Math.round(metres(dup, twin))} 米 · ${place(twin)} · ${twin.qrCode ? `二维码 ${twin.qrCode}` : '无二维码'}`);
    // The record itself is never offered.
    expect(rows.some((r) => r.includes(place(dup)))).toBe(false);

    // The highlighted candidate's preview says what Enter does.
    const preview = await s.call(station.stationMergePreview, { token, query: { stationId: nearest.id, mergeStationId: dup.id } });
    const lines = new Set(preview.body.data.affected.map((r) => r.lineId)).size;
    await waitFor(() => expect(within(dialog).getByRole('status').textContent).toContain(`并入「${nearest.name}」（${place(nearest)}）`), { timeout: 5_000 });

    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull(), { timeout: 5_000 });
    expect(await screen.findByText(mergedMessage(nearest, dup, lines), {}, { timeout: 5_000 })).toBeTruthy();
    const after = await listed(token);
    expect(after.some((x) => x.id === dup.id)).toBe(false);
    expect(after.some((x) => x.id === nearest.id)).toBe(true);
    const audits = await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'STATION_MERGE'), eq(t.sysLog.target, `station/${nearest.id}`)));
    expect(audits.map((a) => a.summary).join()).toContain(`合并站点「${dup.name}」→「${nearest.name}」`);
  });

  it('typing narrows the candidates by name or pinyin, never to the station itself; nothing matching says so; Backspace goes back to the results', async () => {
    await freshStation('面板合并甲站', 0);
    await freshStation('面板合并甲', 15);
    await freshStation('面板合并甲', 40);
    const { user } = await start('manager');
    const { dialog, input } = await openPalette(user);
    await find(user, dialog, '#面板合并甲站', '面板合并甲站');
    await user.keyboard('{Alt>}m{/Alt}');
    await waitCandidates(dialog);
    expect(input.value).toBe('');
    await user.keyboard('mbhbj');
    await waitFor(() => expect(candidates(dialog)?.every((r) => r.startsWith('面板合并甲'))).toBe(true));
    const rows = candidates(dialog)!;
    expect(rows).toHaveLength(2);
    expect(rows.some((r) => r.startsWith('面板合并甲站'))).toBe(false);
    expect(rows[0]).toContain('约 15 米');
    expect(rows[1]).toContain('约 40 米');

    await user.clear(input);
    await user.keyboard('zzqqxx');
    await waitFor(() => expect(within(dialog).getByText('没有可并入的站点')).toBeTruthy());
    await user.clear(input);
    await waitCandidates(dialog);
    await user.keyboard('{Backspace}');
    await waitFor(() => expect(candidates(dialog)).toBeNull());
    expect(input.value).toBe('#面板合并甲站');
    await waitFor(() => expect(selectedText(dialog).startsWith('面板合并甲站')).toBe(true));
  });

  it('Enter on 合并到… among the record’s actions opens the same step; a candidate the server refuses keeps the palette open with its message', async () => {
    const merged = await freshStation('面板合并乙站', 0);
    await freshStation('面板合并乙', 12);
    const gone = await freshStation('面板合并乙', 30);
    const { user, token } = await start('manager');
    const { dialog } = await openPalette(user);
    await find(user, dialog, '#面板合并乙站', '面板合并乙站');
    await user.keyboard('{Tab}');
    await waitFor(() => expect(within(dialog).queryByRole('group', { name: '面板合并乙站 · 操作' })).not.toBeNull());
    await user.keyboard('hbd');
    await waitFor(() => expect(selectedText(dialog).startsWith('合并到…')).toBe(true));
    expect(selectedText(dialog)).toContain('Alt+M');
    await user.keyboard('{Enter}');
    await waitCandidates(dialog);
    await user.keyboard('面板合并乙');
    await waitFor(() => expect(candidates(dialog)).toHaveLength(2));

    // Removed by someone else after the list came: its preview is refused, and so is Enter.
    await db().delete(t.stations).where(eq(t.stations.id, gone.id));
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(selectedText(dialog)).toContain('约 30 米'));
    await waitFor(() => expect(within(dialog).getByRole('status').textContent).toMatch(/站点不存在|不存在/), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    const alert = await within(dialog).findByRole('alert', {}, { timeout: 5_000 });
    expect(alert.textContent).toMatch(/不存在/);
    expect(screen.getByRole('dialog', { name: '命令面板' })).toBe(dialog);
    expect((await listed(token)).some((x) => x.id === merged.id)).toBe(true);

    // Esc goes back to the results, not out of the palette.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(candidates(dialog)).toBeNull());
    expect(screen.getByRole('dialog', { name: '命令面板' })).toBe(dialog);
  });

  it('the agent may not merge: 合并到… is not offered and Alt+M opens no step', async () => {
    await freshStation('面板合并丙站');
    await freshStation('面板合并丙', 15);
    const { user } = await start('agent', '/');
    const { dialog } = await openPalette(user);
    await find(user, dialog, '#面板合并丙站', '面板合并丙站');
    expect(selectedText(dialog)).not.toContain('合并到');
    await user.keyboard('{Alt>}m{/Alt}');
    await new Promise((r) => setTimeout(r, 300));
    expect(candidates(dialog)).toBeNull();
    expect(selectedText(dialog).startsWith('面板合并丙站')).toBe(true);
  });

  it('on 站点’s table the row’s 合并到… button opens the palette in the step for that row', async () => {
    // Away from the other tests' stops: the nearest is its own twin.
    await freshStation('面板合并丁站', 0, null, 3000);
    await freshStation('面板合并丁', 15, null, 3000);
    const { user } = await start('manager', `/station/station?name=${encodeURIComponent('面板合并丁站')}`);
    const button = await screen.findByRole('button', { name: '合并到… 面板合并丁站' }, { timeout: 5_000 });
    expect(button.getAttribute('aria-keyshortcuts')).toBe('m');
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: '命令面板' }, { timeout: 5_000 });
    const rows = await waitCandidates(dialog);
    expect(rows[0]!.startsWith('面板合并丁')).toBe(true);
    expect(rows[0]).toContain('约 15 米');
  });
});

describe('the 合并站点 command', () => {
  it('its choices tell two of one name apart, and its second step refuses the station chosen first', async () => {
    const a = await freshStation('面板合并戊', 0, 'sqrpanel01');
    const b = await freshStation('面板合并戊', 25);
    const { user } = await start('manager');
    const { dialog } = await openPalette(user);
    await find(user, dialog, '>合并站点', '合并站点');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(dialog).queryByRole('group', { name: '保留的站点' })).not.toBeNull(), { timeout: 5_000 });
    await user.keyboard('面板合并戊');
    const rowsOf = (group: string) => within(within(dialog).getByRole('group', { name: group })).queryAllByRole('option').map((o) => o.textContent ?? '');
    await waitFor(() => expect(rowsOf('保留的站点')).toHaveLength(2));
    const [first, second] = rowsOf('保留的站点');
    expect(first).not.toBe(second);
    const ofA = rowsOf('保留的站点').find((r) => r.includes(place(a)))!;
    expect(ofA).toContain('二维码 sqrpanel01');
    expect(rowsOf('保留的站点').find((r) => r.includes(place(b)))).toContain('无二维码');

    // Keep a, then choose a again as the one to remove.
    while (!selectedText(dialog).includes(place(a))) await user.keyboard('{ArrowDown}');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(dialog).queryByRole('group', { name: '被合并并删除的站点' })).not.toBeNull(), { timeout: 5_000 });
    await user.keyboard('面板合并戊');
    await waitFor(() => expect(rowsOf('被合并并删除的站点')).toHaveLength(2));
    while (!selectedText(dialog).includes(place(a))) await user.keyboard('{ArrowDown}');
    await user.keyboard('{Enter}');
    expect((await within(dialog).findByRole('alert')).textContent).toBe('不能把站点合并到它自己，请选择另一个站点');
    expect(screen.getByRole('dialog', { name: '命令面板' })).toBe(dialog);
    expect(window.location.search).not.toContain('action=merge');
  });
});

describe('合并重复站点: Alt+M where no field takes it', () => {
  it('lists the area’s likely duplicates as pairs, the street’s two sides left out; typed to narrow, Enter merges the pair, and the pair is gone', async () => {
    const kept = await freshStation('重复测试广场', 0, 'sdup00001');
    const across = await freshStation('重复测试广场', 0, 'sdup00002', 25);
    const dup = await freshStation('重复测试广场站', 12, null, 3);
    const { user, token } = await start('manager');
    await user.keyboard('{Alt>}m{/Alt}');
    const dialog = await screen.findByRole('dialog', { name: '命令面板' }, { timeout: 5_000 });
    const group = async () => {
      const g = await within(dialog).findByRole('group', { name: '疑似重复的站点（前者并入后者后删除）' }, { timeout: 8_000 });
      return within(g).queryAllByRole('option').map((o) => o.textContent ?? '');
    };
    await waitFor(async () => expect((await group()).length).toBeGreaterThan(0), { timeout: 8_000 });
    await user.keyboard('重复测试');
    await waitFor(async () => expect((await group()).filter((r) => r.includes('重复测试'))).toHaveLength(1));
    const [row] = (await group()).filter((r) => r.includes('重复测试'));
    // The one with 站 typed on goes into the nearer side, which stays; the far side is no duplicate.
    expect(row).toContain('「重复测试广场站」并入「重复测试广场」');
    expect(row).toContain(`${place(dup)} → ${place(kept)}`);
    expect(row).not.toContain(place(across));
    await waitFor(() => expect(dialog.textContent).toContain('Enter 确认：并入「重复测试广场」'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    expect(await screen.findByText(mergedMessage({ ...kept, districtName: '徐汇区' } as never, dup as never, 0), {}, { timeout: 5_000 })).toBeTruthy();
    const now = (await listed(token)).map((x) => x.id);
    expect(now).toContain(kept.id);
    expect(now).toContain(across.id);
    expect(now).not.toContain(dup.id);
  });

  it('opened on its own, it has no results to go back to: Esc closes the palette', async () => {
    const { user } = await start('manager');
    await user.keyboard('{Alt>}m{/Alt}');
    const dialog = await screen.findByRole('dialog', { name: '命令面板' }, { timeout: 5_000 });
    await within(dialog).findByRole('group', { name: '疑似重复的站点（前者并入后者后删除）' }, { timeout: 8_000 });
    expect(dialog.textContent).toContain('Esc 关闭');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull());
  });

  it('is not offered to an account that may not merge: Alt+M opens nothing for the agent', async () => {
    const { user } = await start('agent', '/order/order-list');
    await user.keyboard('{Alt>}m{/Alt}');
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull();
  });
});
