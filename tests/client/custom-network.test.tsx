import { screen, waitFor, within } from '@testing-library/react';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { customLineStops, customLines, customStations } from '../../src/server/modules/custom-bus/schema';
import { fixtureLine, fixtureStations } from '../support/custom-bus-fixture';
import { openPalette } from '../support/palette-client';
import { takeQueuedTask } from '../support/queued-task';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import { TEST_PII_KEY, type TestServer } from '../support/test-server';

/** 定制站点、定制线路、新增定制线路、定制线路轨迹 on the real server: what the screens show, and what the server stored after the keys. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const db = () => s.database.db;
const fx = () => ({ db: db(), pii: createPii(TEST_PII_KEY), now: s.clock.now() });
const xuhui = async () => (await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区')))[0]!.id;
const storedStation = async (id: number) => (await db().select().from(customStations).where(eq(customStations.id, id)))[0]!;
const storedLine = async (id: number) => (await db().select().from(customLines).where(eq(customLines.id, id)))[0]!;

async function rowOf(table: string, text: string) {
  const main = await screen.findByRole('main');
  const tbl = await within(main).findByRole('table', { name: table }, { timeout: 5_000 });
  return waitFor(
    () => {
      const row = within(tbl)
        .getAllByRole('row')
        .find((r) => r.textContent?.includes(text));
      expect(row).toBeTruthy();
      return row!;
    },
    { timeout: 5_000 },
  );
}

describe('定制站点', () => {
  it('lists the area’s stations with the summary; s stops one at once (stored); 新增 saves a new one from the dialog', async () => {
    const [st] = await fixtureStations(fx(), await xuhui(), 1, '客户端站');
    await signIn(s, 'manager');
    visit(s, `/customBus/custom-station?name=${encodeURIComponent(st!.name)}`);
    const { user } = renderWithUser(<App />);
    const row = await rowOf('定制站点列表', st!.name);
    expect(within(row).getByText('启用')).toBeTruthy();
    const summary = await screen.findByLabelText('定制站点统计');
    await waitFor(() => expect(summary.textContent).toMatch(/^共 1 个站点 · 启用 1 · 停用 0/));
    row.focus();
    await user.keyboard('s');
    expect(await screen.findByText(`已停用站点「${st!.name}」`)).toBeTruthy();
    await waitFor(async () => expect((await storedStation(st!.id)).status).toBe(0));

    await user.click(screen.getByRole('button', { name: '新增定制站点' }));
    const dialog = await screen.findByRole('dialog', { name: '新增定制站点' });
    await user.type(within(dialog).getByLabelText(/站点名称/), '客户端新增定制站');
    await user.type(within(dialog).getByLabelText(/经度/), '121.4365');
    await user.type(within(dialog).getByLabelText(/纬度/), '31.1885');
    await user.keyboard('{Enter}');
    expect(await screen.findByText('已新增定制站点「客户端新增定制站」')).toBeTruthy();
    const [saved] = await db().select().from(customStations).where(eq(customStations.name, '客户端新增定制站'));
    expect(saved).toMatchObject({ districtId: await xuhui(), lng: 121.4365, lat: 31.1885, status: 1, busStationId: null });
  });

  it('导出 Excel queues a task of the filtered stations under the manager’s district', async () => {
    const [st] = await fixtureStations(fx(), await xuhui(), 1, '导出站');
    await signIn(s, 'manager');
    visit(s, `/customBus/custom-station?name=${encodeURIComponent(st!.name)}`);
    const { user } = renderWithUser(<App />);
    await rowOf('定制站点列表', st!.name);
    await user.click(screen.getByRole('button', { name: '导出 Excel' }));
    const task = await takeQueuedTask(db(), 'customBus.stations');
    expect(task).toEqual(expect.objectContaining({ title: '定制站点', districtScope: await xuhui(), params: expect.objectContaining({ name: st!.name }) }));
  });
});

describe('定制线路', () => {
  it('p on a draft with its path asks, then 上架 is stored; o takes it off at once', async () => {
    const { line } = await fixtureLine(fx(), await xuhui(), { status: 0 });
    await signIn(s, 'manager');
    visit(s, `/customBus/custom-line?keyword=${line.lineNo}`);
    const { user } = renderWithUser(<App />);
    const row = await rowOf('定制线路列表', line.lineNo);
    expect(within(row).getByText('草稿')).toBeTruthy();
    const summary = await screen.findByLabelText('定制线路统计');
    await waitFor(() => expect(summary.textContent).toMatch(/^共 1 条线路 · 已上架 0 · 已下架 0 · 草稿 1/));
    row.focus();
    await user.keyboard('p');
    const dialog = await screen.findByRole('dialog', { name: '上架定制线路' });
    expect(dialog.textContent).toContain(line.name);
    await user.keyboard('{Enter}');
    expect(await screen.findByText(`已上架定制线路「${line.name}」`)).toBeTruthy();
    await waitFor(async () => expect((await storedLine(line.id)).status).toBe(1));
    const listed = await rowOf('定制线路列表', '已上架');
    listed.focus();
    await user.keyboard('o');
    expect(await screen.findByText(`已下架定制线路「${line.name}」`)).toBeTruthy();
    await waitFor(async () => expect((await storedLine(line.id)).status).toBe(2));
  });

  it('a draft without its 下行 path is refused 上架 with the server’s words; nothing stored', async () => {
    const { line } = await fixtureLine(fx(), await xuhui(), { status: 0, direction: 0 });
    await db().update(customLines).set({ direction: -1, returnDepartTime: 63000, returnArriveTime: 66600 }).where(eq(customLines.id, line.id));
    await signIn(s, 'manager');
    visit(s, `/customBus/custom-line?keyword=${line.lineNo}`);
    const { user } = renderWithUser(<App />);
    const row = await rowOf('定制线路列表', '缺下行轨迹');
    row.focus();
    await user.keyboard('p');
    const dialog = await screen.findByRole('dialog', { name: '上架定制线路' });
    expect(dialog.textContent).toContain('尚缺下行轨迹');
    await user.keyboard('{Enter}');
    expect(await screen.findByText('上架前请先设置下行轨迹（至少2个站点）')).toBeTruthy();
    expect((await storedLine(line.id)).status).toBe(0);
  });
});

describe('新增定制线路', () => {
  it('refuses a discount price above the original in Chinese, then saves a draft in fen and opens its path', async () => {
    const [a, b] = await fixtureStations(fx(), await xuhui(), 2, '新线站');
    await signIn(s, 'manager');
    visit(s, '/customBus/add-custom-line');
    const { user } = renderWithUser(<App />);
    const form = await screen.findByRole('form', { name: '定制线路' }, { timeout: 5_000 });
    await user.type(within(form).getByLabelText(/线路编号/), 'D901');
    await user.type(within(form).getByLabelText(/线路名称/), '客户端新增定制线');
    await user.selectOptions(within(form).getByLabelText(/方向/), '0');
    await waitFor(() => expect(within(within(form).getByLabelText(/起点站/)).getAllByRole('option').length).toBeGreaterThan(2));
    await user.selectOptions(within(form).getByLabelText(/起点站/), String(a!.id));
    await user.selectOptions(within(form).getByLabelText(/终点站/), String(b!.id));
    await user.type(within(form).getByLabelText(/原价/), '15');
    await user.selectOptions(within(form).getByLabelText(/优惠方式/), '3');
    await user.type(within(form).getByLabelText(/折后金额/), '16');
    await user.keyboard('{Control>}s{/Control}');
    expect(await within(form).findByText('折后金额不能高于原价')).toBeTruthy();
    expect(await db().select().from(customLines).where(eq(customLines.lineNo, 'D901'))).toHaveLength(0);
    const price = within(form).getByLabelText(/折后金额/);
    await user.clear(price);
    await user.type(price, '12.5');
    expect(within(form).getByRole('status').textContent).toContain('12.50 元');
    await user.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText('已新增定制线路 D901「客户端新增定制线」（草稿：请设置轨迹后上架）')).toBeTruthy();
    const [saved] = await db().select().from(customLines).where(eq(customLines.lineNo, 'D901'));
    expect(saved).toMatchObject({ direction: 0, originalPrice: 1500, discountType: 3, discountPrice: 1250, price: 1250, status: 0, departTime: 27000, returnDepartTime: null, ticketTypes: [1, 2] });
    await waitFor(() => expect(`${window.location.pathname}${window.location.search}`).toBe(`/customBus/custom-line-path?id=${saved!.id}`));
  });
});

describe('定制线路轨迹', () => {
  it('adds a stop by name, sets its minutes, generates the path from the stops and saves the leg with Ctrl+S', async () => {
    const { line, stations } = await fixtureLine(fx(), await xuhui(), { status: 0 });
    const [mid] = await fixtureStations(fx(), await xuhui(), 1, '中途站');
    await signIn(s, 'manager');
    visit(s, `/customBus/custom-line-path?id=${line.id}`);
    const { user } = renderWithUser(<App />);
    const list = await screen.findByRole('listbox', { name: `${line.name}上行站点` }, { timeout: 8_000 });
    expect(within(list).getAllByRole('option').map((o) => o.textContent)).toEqual([expect.stringContaining(stations[0].name), expect.stringContaining(stations[1].name)]);
    // The first stop selected: the new one goes after it.
    const picker = screen.getByLabelText('添加上行站点');
    await user.click(picker);
    await user.type(picker, mid!.name);
    await waitFor(() => expect(screen.getAllByRole('option').some((o) => o.textContent?.includes(mid!.name))).toBe(true));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(list).getAllByRole('option')[1]!.textContent).toContain(mid!.name));
    const minutes = screen.getByLabelText(/到达（分钟）/);
    await user.clear(minutes);
    await user.type(minutes, '20');
    await user.click(screen.getByRole('button', { name: '按站点生成轨迹' }));
    await user.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText(`已保存 ${line.lineNo}「${line.name}」上行轨迹（3 站，3 个轨迹点）`, {}, { timeout: 5_000 })).toBeTruthy();
    const stops = await db().select().from(customLineStops).where(eq(customLineStops.lineId, line.id)).orderBy(customLineStops.seq);
    expect(stops.map((x) => [x.stationId, x.offsetMin])).toEqual([
      [stations[0].id, 0],
      [mid!.id, 20],
      [stations[1].id, 60],
    ]);
    expect((await storedLine(line.id)).rowVersion).toBe(line.rowVersion + 1);
  });
});

describe('the palette', () => {
  it('Ctrl+K 定制线路轨迹, the line chosen by its number: the path page of that line', async () => {
    const { line } = await fixtureLine(fx(), await xuhui(), { status: 1 });
    await signIn(s, 'manager');
    visit(s, '/customBus/custom-line');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    const { dialog } = await openPalette(user);
    await user.keyboard('定制线路轨迹');
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain('定制线路轨迹'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    await user.keyboard(line.lineNo);
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain(line.lineNo), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(`${window.location.pathname}${window.location.search}`).toBe(`/customBus/custom-line-path?id=${line.id}`));
  });
  it('Ctrl+K 上架定制线路, a draft chosen: stored 已上架 and the list shows it; 新增定制站点 opens the dialog', async () => {
    const { line } = await fixtureLine(fx(), await xuhui(), { status: 0 });
    await signIn(s, 'manager');
    visit(s, '/customBus/custom-line');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    const first = await openPalette(user);
    await user.keyboard('上架定制线路');
    await waitFor(() => expect(within(first.dialog).getAllByRole('option')[0]!.textContent).toContain('上架定制线路'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    await user.keyboard(line.lineNo);
    await waitFor(() => expect(within(first.dialog).getAllByRole('option')[0]!.textContent).toContain(line.lineNo), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    expect(await screen.findByText(`定制线路「${line.name}」已上架`)).toBeTruthy();
    await waitFor(async () => expect((await storedLine(line.id)).status).toBe(1));
    await waitFor(() => expect(`${window.location.pathname}${window.location.search}`).toBe('/customBus/custom-line?status=1'));

    const second = await openPalette(user);
    await user.keyboard('新增定制站点');
    await waitFor(() => expect(within(second.dialog).getAllByRole('option')[0]!.textContent).toContain('新增定制站点'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: '新增定制站点' }, { timeout: 5_000 })).toBeTruthy();
  });
});
