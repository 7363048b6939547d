import { screen, waitFor, within } from '@testing-library/react';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { type RequestLog, signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/** 站点 and 站点二维码 against the real server, keyboard first. */
let s: TestServer;
let log: RequestLog;
clientSuite((server, requests) => {
  s = server;
  log = requests;
});

describe('站点', () => {
  it('the manager adds a stop by pasting "lng, lat" into 经度; the list shows it and the server stored it', async () => {
    await signIn(s, 'manager');
    visit(s, '/station/station?action=add');
    const { user } = renderWithUser(<App />);
    const dialog = await screen.findByRole('dialog', { name: '新增站点' }, { timeout: 5_000 });
    await user.type(within(dialog).getByLabelText(/站点名称/), '漕宝路桂林路');
    await user.click(within(dialog).getByLabelText(/经度/));
    await user.paste('121.4301, 31.1702');
    expect((within(dialog).getByLabelText(/纬度/) as HTMLInputElement).value).toBe('31.1702');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText('已新增站点「漕宝路桂林路」')).toBeTruthy();
    const [stored] = await s.database.db.select().from(t.stations).where(eq(t.stations.name, '漕宝路桂林路'));
    expect(stored).toMatchObject({ lng: 121.4301, lat: 31.1702, state: 1 });
  });

  it('a viewer sees the list without 新增 or 编辑', async () => {
    await signIn(s, 'viewer');
    visit(s, '/station/station');
    renderWithUser(<App />);
    const main = await screen.findByRole('main');
    await waitFor(() => expect(within(main).getAllByRole('row').length).toBeGreaterThan(2), { timeout: 5_000 });
    expect(within(main).queryByRole('button', { name: /新增/ })).toBeNull();
    expect(within(main).queryByRole('button', { name: /^编辑/ })).toBeNull();
  });
});

describe('合并站点', () => {
  const active = () => document.activeElement as HTMLElement | null;
  /** Focus is on something in the dialog that can hold it (a disabled button loses it to <body> in a browser). */
  const focusedIn = (dialog: HTMLElement) => {
    const now = active();
    return !!now && dialog.contains(now) && !(now as HTMLButtonElement).disabled;
  };

  it('a refused pair keeps focus in the dialog (Tab included); the keyboard picks which stays, Enter there merges nothing, Tab to 确认合并 and Enter merges; the toast names the district', async () => {
    const db = s.database.db;
    const [xuhui] = await db.select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
    const [online] = await db.select().from(t.lineVersions).where(and(eq(t.lineVersions.districtId, xuhui!.id), eq(t.lineVersions.status, 3)));
    // B: a stop of the online network (merging it away is refused); A: a new stop beside it that no line uses.
    const [used] = await db
      .select({ id: t.stations.id, name: t.stations.name, lng: t.stations.lng, lat: t.stations.lat })
      .from(t.lineStations)
      .innerJoin(t.busLines, eq(t.busLines.id, t.lineStations.lineId))
      .innerJoin(t.stations, eq(t.stations.id, t.lineStations.stationId))
      .where(eq(t.busLines.versionId, online!.id))
      .orderBy(asc(t.lineStations.id))
      .limit(1);
    const now = new Date();
    const [fresh] = await db.insert(t.stations).values({ districtId: xuhui!.id, name: `${used!.name}新`, lng: used!.lng + 0.0001, lat: used!.lat, createdAt: now, updatedAt: now }).returning();
    await signIn(s, 'manager');
    visit(s, `/station/station?action=merge&keep=${fresh!.id}&merge=${used!.id}`);
    const { user } = renderWithUser(<App />);
    const dialog = await screen.findByRole('dialog', { name: '合并站点（徐汇区）' }, { timeout: 5_000 });
    const cancel = within(dialog).getByRole('button', { name: /取消/ });
    const confirm = within(dialog).getByRole('button', { name: '确认合并' });
    await waitFor(() => expect(active()).toBe(cancel));
    expect(await within(dialog).findByText(/被不可编辑的版本使用，不能合并/, {}, { timeout: 5_000 })).toBeTruthy();
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    expect(focusedIn(dialog)).toBe(true);
    for (let i = 0; i < 6; i++) {
      await user.tab();
      expect(focusedIn(dialog)).toBe(true);
    }

    // Shift+Tab to the choice; → keeps the other one (B stays, A goes).
    const [first, second] = within(dialog).getAllByRole('radio') as HTMLInputElement[];
    for (let i = 0; i < 10 && active() !== first; i++) await user.tab({ shift: true });
    expect(active()).toBe(first);
    await user.keyboard('{ArrowRight}');
    expect(second!.checked).toBe(true);
    expect(active()).toBe(second);
    await waitFor(() => expect((confirm as HTMLButtonElement).disabled).toBe(false), { timeout: 5_000 });
    expect(dialog.textContent).toContain(`将把 徐汇区「${fresh!.name}」并入「${used!.name}」`);
    expect(within(dialog).queryByText(/不能合并/)).toBeNull();
    // Enter on the choice is not a confirmation.
    await user.keyboard('{Enter}');
    expect(screen.getByRole('dialog', { name: '合并站点（徐汇区）' })).toBe(dialog);
    expect(await db.select().from(t.stations).where(eq(t.stations.id, fresh!.id))).toHaveLength(1);

    for (let i = 0; i < 10 && active() !== confirm; i++) await user.tab();
    expect(active()).toBe(confirm);
    await user.keyboard('{Enter}');
    // The toast says which station was kept, by its place too (two stations may share a name).
    const at = (x: { lng: number; lat: number }) => `${x.lng.toFixed(6)}, ${x.lat.toFixed(6)}`;
    expect(await screen.findByText(new RegExp(`^已合并站点：保留「${used!.name}」（徐汇区，${at(used!)}(，二维码 \\S+)?），删除「${fresh!.name}」（${at(fresh!)}），改动 0 条线路$`))).toBeTruthy();
    expect(await db.select().from(t.stations).where(eq(t.stations.id, fresh!.id))).toEqual([]);
    expect(await db.select().from(t.stations).where(eq(t.stations.id, used!.id))).toHaveLength(1);
  });

  it('Enter as it opens (the palette’s Enter, a key held) cancels: an allowed merge is not made', async () => {
    const db = s.database.db;
    const [xuhui] = await db.select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
    const now = new Date();
    const pair = await db
      .insert(t.stations)
      .values(['甲', '乙'].map((n, i) => ({ districtId: xuhui!.id, name: `回车测试${n}站`, lng: 121.43 + i * 0.0001, lat: 31.18, createdAt: now, updatedAt: now })))
      .returning({ id: t.stations.id });
    const logs = await db.select().from(t.sysLog).where(eq(t.sysLog.operationType, 'STATION_MERGE'));
    await signIn(s, 'manager');
    visit(s, `/station/station?action=merge&keep=${pair[0]!.id}&merge=${pair[1]!.id}`);
    const { user } = renderWithUser(<App />);
    const dialog = await screen.findByRole('dialog', { name: '合并站点（徐汇区）' }, { timeout: 5_000 });
    expect(await within(dialog).findByText('没有线路经过被合并的站点，只删除该站点。', {}, { timeout: 5_000 })).toBeTruthy();
    await waitFor(() => expect(active()).toBe(within(dialog).getByRole('button', { name: /取消/ })));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await db.select().from(t.stations).where(eq(t.stations.name, '回车测试乙站'))).toHaveLength(1);
    expect(await db.select().from(t.sysLog).where(eq(t.sysLog.operationType, 'STATION_MERGE'))).toHaveLength(logs.length);
  });
});

describe('站点二维码', () => {
  it('generates the missing codes of the area, then prints the selected ones', async () => {
    // happy-dom has no print dialog: the browser's own is outside the product.
    const print = vi.fn();
    Object.defineProperty(window, 'print', { value: print, configurable: true, writable: true });
    await signIn(s, 'manager');
    visit(s, '/station/station-qr-code');
    const { user } = renderWithUser(<App />);
    const generate = await screen.findByRole('button', { name: /生成缺少的二维码（\d+）/ }, { timeout: 5_000 });
    await user.click(generate);
    expect(await screen.findByText(/已生成 \d+ 个站点二维码/)).toBeTruthy();
    const [xuhui] = await s.database.db.select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
    expect(await s.database.db.select().from(t.stations).where(and(eq(t.stations.districtId, xuhui!.id), isNull(t.stations.qrCode)))).toEqual([]);
    expect(await screen.findByText(/全部已生成/)).toBeTruthy();

    const main = screen.getByRole('main');
    await waitFor(() => expect(main.querySelectorAll('tr[tabindex]').length).toBeGreaterThan(1));
    (main.querySelector('tr[tabindex]') as HTMLElement).focus();
    await user.keyboard('x');
    await user.click(await screen.findByRole('button', { name: '打印所选（1）' }));
    await waitFor(() => expect(print).toHaveBeenCalledTimes(1), { timeout: 2_000 });
  });

  it('each row offers 下载 named by its station; 导出 Excel sends the list’s name filter and saves the sheet', async () => {
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    await signIn(s, 'manager');
    visit(s, '/station/station-qr-code?name=路');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    await waitFor(() => expect(main.querySelectorAll('tr[tabindex]').length).toBeGreaterThan(0), { timeout: 5_000 });
    for (const row of main.querySelectorAll<HTMLElement>('tr[tabindex]')) {
      const code = within(row).getByRole('img');
      const label = code.getAttribute('alt') ?? code.getAttribute('aria-label');
      expect(within(row).getByRole('button', { name: `下载 ${label}` }).textContent).toBe('下载');
    }
    log.clear();
    await user.click(within(main).getByRole('button', { name: '导出 Excel' }));
    expect(await screen.findByText('已导出站点二维码', {}, { timeout: 10_000 })).toBeTruthy();
    expect(saved).toEqual([expect.stringMatching(/^站点二维码-\d{8}-\d{4}\.xlsx$/)]);
    expect(log.to('/stationQrCode/export/excel').map((r) => r.query.get('name'))).toEqual(['路']);
  });
});
