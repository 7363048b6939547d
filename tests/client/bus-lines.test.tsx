import { screen, waitFor, within } from '@testing-library/react';
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/** 公交线路 against the real server, keyboard first: the manager edits 徐汇区's open version. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const db = () => s.database.db;

async function openLine() {
  const [d] = await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
  const [v] = await db().select().from(t.lineVersions).where(and(eq(t.lineVersions.districtId, d!.id), eq(t.lineVersions.status, 0)));
  const [line] = await db().select().from(t.busLines).where(eq(t.busLines.versionId, v!.id)).orderBy(asc(t.busLines.id)).limit(1);
  return { district: d!, version: v!, line: line! };
}
const stopsOf = async (lineId: number, direction: number) =>
  (await db().select().from(t.lineStations).where(and(eq(t.lineStations.lineId, lineId), eq(t.lineStations.direction, direction))).orderBy(asc(t.lineStations.seq))).map((r) => r.stationId);

describe('线路详情', () => {
  it('Alt+↓ moves the selected stop, Ctrl+S saves the order, and the server stores it', async () => {
    const { line } = await openLine();
    const before = await stopsOf(line.id, 0);
    await signIn(s, 'manager');
    visit(s, `/bus/bus-line?id=${line.id}`);
    const { user } = renderWithUser(<App />);
    const list = await screen.findByRole('listbox', { name: `${line.name}上行站点` }, { timeout: 5_000 });
    list.focus();
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    const options = within(list).getAllByRole('option');
    expect(options[1]!.getAttribute('aria-selected')).toBe('true');
    expect(screen.getAllByText('未保存').length).toBeGreaterThan(0);
    await user.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText(new RegExp(`已保存${line.name}上行站点`))).toBeTruthy();
    expect(await stopsOf(line.id, 0)).toEqual([before[1], before[0], ...before.slice(2)]);
  });

  it('adds a stop found by its pinyin initials after the selected one', async () => {
    const { line, district } = await openLine();
    const before = await stopsOf(line.id, 1);
    const onLine = new Set(before);
    const candidates = await db().select().from(t.stations).where(and(eq(t.stations.districtId, district.id), eq(t.stations.state, 1))).orderBy(asc(t.stations.id));
    const extra = candidates.find((c) => !onLine.has(c.id) && /^[\u4e00-\u9fa5]+$/.test(c.name))!;
    const { romanize } = await import('../../src/shared/domain/pinyin');
    await signIn(s, 'manager');
    visit(s, `/bus/bus-line?id=${line.id}`);
    const { user } = renderWithUser(<App />);
    const input = await screen.findByRole('combobox', { name: '添加下行站点' }, { timeout: 5_000 });
    await user.click(input);
    await user.keyboard(romanize(extra.name).initials[0]!);
    const option = await screen.findByRole('option', { name: new RegExp(`^${extra.name}.*${extra.lng.toFixed(4)}, ${extra.lat.toFixed(4)}`) }, { timeout: 5_000 });
    await user.click(option);
    await user.click(screen.getByRole('button', { name: /保存下行站点/ }));
    expect(await screen.findByText(new RegExp(`已保存${line.name}下行站点`))).toBeTruthy();
    expect(await stopsOf(line.id, 1)).toEqual([before[0], extra.id, ...before.slice(1)]);
  });

  it('a viewer sees the stops read-only', async () => {
    const { line } = await openLine();
    await signIn(s, 'viewer');
    visit(s, `/bus/bus-line?id=${line.id}`);
    renderWithUser(<App />);
    expect(await screen.findByText(/^只读：/, {}, { timeout: 5_000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /保存上行站点/ })).toBeNull();
    expect(screen.queryByRole('combobox')).toBeNull();
  });
});

describe('新增线路', () => {
  it('creates a line in the open version and opens it to add stops', async () => {
    const { version } = await openLine();
    await signIn(s, 'manager');
    visit(s, '/bus/add-bus-line');
    const { user } = renderWithUser(<App />);
    await user.type(await screen.findByLabelText(/线路编号/, {}, { timeout: 5_000 }), '977');
    await user.type(screen.getByLabelText(/线路名称/), '977路');
    await user.clear(screen.getByLabelText(/票价/));
    await user.type(screen.getByLabelText(/票价/), '1.5{Enter}');
    expect(await screen.findByText('已新增线路「977路」')).toBeTruthy();
    const [stored] = await db().select().from(t.busLines).where(and(eq(t.busLines.versionId, version.id), eq(t.busLines.code, '977')));
    expect(stored).toMatchObject({ name: '977路', fare: 150, direction: -1 });
    await waitFor(() => expect(window.location.search).toBe(`?id=${stored!.id}`));
    expect(await screen.findByRole('combobox', { name: '添加上行站点' }, { timeout: 5_000 })).toBeTruthy();
  });
});

describe('子线路站点', () => {
  it('Space toggles a stop, Ctrl+S saves, and 全部停靠 serves all', async () => {
    const { line } = await openLine();
    const [detail] = await db().insert(t.lineDetails).values({ lineId: line.id, name: '测试区间', direction: 0, createdAt: new Date(), updatedAt: new Date() }).returning();
    const lineStops = await stopsOf(line.id, 0);
    await signIn(s, 'manager');
    visit(s, `/bus/sub-line-station?id=${detail!.id}`);
    const { user } = renderWithUser(<App />);
    const list = await screen.findByRole('listbox', { name: /测试区间 停靠站点/ }, { timeout: 5_000 });
    list.focus();
    await user.keyboard(' {ArrowDown}{ArrowDown} ');
    await user.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText('已保存子线路「测试区间」的站点')).toBeTruthy();
    const served = async () => (await db().select().from(t.lineDetailStations).where(eq(t.lineDetailStations.detailId, detail!.id)).orderBy(asc(t.lineDetailStations.seq))).map((r) => r.stationId);
    expect(await served()).toEqual([lineStops[0], lineStops[2]]);
    await user.click(screen.getByRole('button', { name: '全部停靠' }));
    expect(await screen.findByText('子线路「测试区间」全部站点停靠')).toBeTruthy();
    expect(await served()).toEqual(lineStops);
  });
});

describe('删除 asks first', () => {
  const active = () => document.activeElement as HTMLElement | null;

  it('a line: the question names it, its version and 徐汇区 with 取消 focused; Enter cancels, Tab to 删除 and Enter deletes', async () => {
    const { version } = await openLine();
    const now = new Date();
    const [line] = await db().insert(t.busLines).values({ versionId: version.id, code: '978', name: '978路', createdAt: now, updatedAt: now }).returning();
    await signIn(s, 'manager');
    visit(s, `/bus/bus-line?id=${line!.id}`);
    const { user } = renderWithUser(<App />);
    const remove = await screen.findByRole('button', { name: '删除' }, { timeout: 5_000 });
    for (let i = 0; i < 40 && active() !== remove; i++) await user.tab();
    expect(active()).toBe(remove);
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: '删除线路「978路」（徐汇区）' });
    expect(dialog.textContent).toContain(`确定删除 徐汇区 版本「${version.name}」中的线路 「978路」吗？`);
    await waitFor(() => expect(active()).toBe(within(dialog).getByRole('button', { name: /取消/ })));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await db().select().from(t.busLines).where(eq(t.busLines.id, line!.id))).toHaveLength(1);

    for (let i = 0; i < 40 && active() !== remove; i++) await user.tab();
    await user.keyboard('{Enter}');
    const again = await screen.findByRole('dialog', { name: '删除线路「978路」（徐汇区）' });
    await waitFor(() => expect(active()).toBe(within(again).getByRole('button', { name: /取消/ })));
    await user.tab();
    expect(active()).toBe(within(again).getByRole('button', { name: '删除' }));
    await user.keyboard('{Enter}');
    expect(await screen.findByText(`已删除线路「978路」（徐汇区 · 版本「${version.name}」）`)).toBeTruthy();
    expect(await db().select().from(t.busLines).where(eq(t.busLines.id, line!.id))).toEqual([]);
  });

  it('a sub-line: the question names it, its line and 徐汇区 with 取消 focused; Enter cancels', async () => {
    const { line } = await openLine();
    const [detail] = await db().insert(t.lineDetails).values({ lineId: line.id, name: '待删区间', direction: 0, createdAt: new Date(), updatedAt: new Date() }).returning();
    await signIn(s, 'manager');
    visit(s, `/bus/sub-list?lineId=${line.id}`);
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const row = await within(main).findByRole('row', { name: /待删区间/ }, { timeout: 5_000 });
    row.focus();
    const remove = within(row).getByRole('button', { name: '删除 待删区间' });
    for (let i = 0; i < 10 && active() !== remove; i++) await user.tab();
    expect(active()).toBe(remove);
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: '删除子线路「待删区间」（徐汇区）' });
    expect(dialog.textContent).toContain(`确定删除 徐汇区 线路「${line.name}」的子线路 「待删区间」吗？`);
    await waitFor(() => expect(active()).toBe(within(dialog).getByRole('button', { name: /取消/ })));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await db().select().from(t.lineDetails).where(eq(t.lineDetails.id, detail!.id))).toHaveLength(1);
  });

  it('a sub-line: d on its row asks the same question; Tab to 删除 and Enter deletes it, the toast naming 徐汇区 and its line', async () => {
    const { line } = await openLine();
    const [detail] = await db().insert(t.lineDetails).values({ lineId: line.id, name: '按键删除区间', direction: 0, createdAt: new Date(), updatedAt: new Date() }).returning();
    await signIn(s, 'manager');
    visit(s, `/bus/sub-list?lineId=${line.id}`);
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const row = await within(main).findByRole('row', { name: /按键删除区间/ }, { timeout: 5_000 });
    row.focus();
    await user.keyboard('d');
    const dialog = await screen.findByRole('dialog', { name: '删除子线路「按键删除区间」（徐汇区）' });
    await waitFor(() => expect(active()).toBe(within(dialog).getByRole('button', { name: /取消/ })));
    await user.tab();
    expect(active()).toBe(within(dialog).getByRole('button', { name: '删除' }));
    await user.keyboard('{Enter}');
    expect(await screen.findByText(`已删除子线路「按键删除区间」（徐汇区 · ${line.name}）`)).toBeTruthy();
    expect(await db().select().from(t.lineDetails).where(eq(t.lineDetails.id, detail!.id))).toEqual([]);
    await waitFor(() => expect(within(main).queryByRole('row', { name: /按键删除区间/ })).toBeNull());
  });
});

describe('线路列表', () => {
  const rows = async () => within(await screen.findByRole('table', { name: '线路列表' }, { timeout: 5_000 })).findAllByRole('row');
  const bodyRows = async () => (await rows()).filter((r) => r.closest('tbody'));

  it('shows the open version\'s running lines in code order; t opens the focused line\'s path, Enter the line', async () => {
    const { version } = await openLine();
    const running = await db().select().from(t.busLines).where(and(eq(t.busLines.versionId, version.id), eq(t.busLines.state, 1)));
    await signIn(s, 'manager');
    visit(s, '/bus/list?state=1');
    const { user } = renderWithUser(<App />);
    expect(await screen.findByText(`正在编辑版本「${version.name}」（开放编辑）`, { exact: false }, { timeout: 5_000 })).toBeTruthy();
    await waitFor(async () => expect((await bodyRows()).length).toBe(Math.min(20, running.length)));
    const shown = (await bodyRows()).map((r) => r.querySelector('td')!.textContent!);
    // Codes as people read them: shorter first (9 before 49 before 101).
    expect(shown.map((c) => c.length)).toEqual([...shown.map((c) => c.length)].sort((a, b) => a - b));
    const first = running.find((l) => l.code === shown[0])!;
    (await bodyRows())[0]!.focus();
    await user.keyboard('t');
    await waitFor(() => expect(`${window.location.pathname}${window.location.search}`).toBe(`/bus/line-path?id=${first.id}`));
  });

  it('?versionId= shows that version read-only, and 停运 lines by the state filter', async () => {
    const { district } = await openLine();
    const [online] = await db().select().from(t.lineVersions).where(and(eq(t.lineVersions.districtId, district.id), eq(t.lineVersions.status, 3)));
    const [line] = await db().select().from(t.busLines).where(eq(t.busLines.versionId, online!.id)).orderBy(asc(t.busLines.id)).limit(1);
    await db().update(t.busLines).set({ state: 1 }).where(eq(t.busLines.versionId, online!.id));
    await db().update(t.busLines).set({ state: 0 }).where(eq(t.busLines.id, line!.id));
    await signIn(s, 'manager');
    visit(s, `/bus/list?versionId=${online!.id}&state=0`);
    const { user } = renderWithUser(<App />);
    expect(await screen.findByText(`正在查看版本「${online!.name}」（已上线）`, { exact: false }, { timeout: 5_000 })).toBeTruthy();
    await waitFor(async () => expect((await bodyRows()).map((r) => r.querySelector('td')!.textContent)).toEqual([line!.code]));
    (await bodyRows())[0]!.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(`${window.location.pathname}${window.location.search}`).toBe(`/bus/bus-line?id=${line!.id}`));
  });
});
