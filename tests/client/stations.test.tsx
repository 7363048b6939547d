import { screen, waitFor, within } from '@testing-library/react';
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/** 站点 and 站点二维码 against the real server, keyboard first. */
let s: TestServer;
clientSuite((server) => {
  s = server;
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
});
