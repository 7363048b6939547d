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
