import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import { system } from '../../src/shared/api';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { type RequestLog, signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/** 基础设置, the small module built through the frame: a form over the contract, real server behind. */
let s: TestServer;
let log: RequestLog;
clientSuite((server, l) => {
  s = server;
  log = l;
});

const stored = async (token: string) => (await s.call(system.cityLocation, { token })).body.data;

describe('基础设置', () => {
  it('refuses a latitude outside China under its field without calling the server, then saves a good one', async () => {
    const token = await signIn(s, 'admin');
    visit(s, '/settings/base-setting');
    const { user } = renderWithUser(<App />);
    const form = await screen.findByRole('form', { name: '基础设置' }, { timeout: 5_000 });
    const lat = within(form).getByLabelText(/城市中心纬度/);
    await user.clear(lat);
    await user.type(lat, '121.47');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await within(form).findByText('纬度应在 3～54 之间（中国境内）')).toBeTruthy();
    expect(log.to('/config/saveOrUpdate')).toHaveLength(0);

    await user.clear(lat);
    await user.type(lat, '31.5');
    expect(within(form).queryByText('纬度应在 3～54 之间（中国境内）')).toBeNull();
    await user.click(within(form).getByRole('button', { name: /保存/ }));
    expect(await screen.findByText('已保存基础设置')).toBeTruthy();
    await waitFor(async () => expect((await stored(token)).lat).toBe(31.5));
  });

  it("says why a QR code's preview does not show: a new site's image loads after saving and reloading", async () => {
    await signIn(s, 'admin');
    visit(s, '/settings/base-setting');
    const { user } = renderWithUser(<App />);
    const form = await screen.findByRole('form', { name: '基础设置' }, { timeout: 5_000 });
    const address = within(form).getByLabelText(/侧边栏二维码/);
    await user.clear(address);
    await user.type(address, 'https://cdn.example.cn/qr/bus.png');
    // What the browser does with an image its page's policy refuses (jsdom loads no images).
    fireEvent.error(within(form).getByRole('img', { name: '二维码预览' }));
    expect(within(form).getByRole('status').textContent).toBe('无法预览：请检查地址；其他网站的图片在保存并刷新页面后显示');
    // Another address is another try.
    await user.type(address, '?v=2');
    expect(within(form).queryByText(/无法预览/)).toBeNull();
  });

  it('shows a district manager the setting read-only, without a save button', async () => {
    await signIn(s, 'manager');
    visit(s, '/settings/base-setting');
    renderWithUser(<App />);
    const form = await screen.findByRole('form', { name: '基础设置' }, { timeout: 5_000 });
    expect((within(form).getByLabelText(/城市中心纬度/) as HTMLInputElement).readOnly).toBe(true);
    expect((within(form).getByLabelText(/城市中心纬度/) as HTMLInputElement).value).toMatch(/^\d+\.\d+$/);
    expect(within(form).queryByRole('button', { name: /保存/ })).toBeNull();
    expect(within(form).getByText('只有超级管理员可以修改基础设置。')).toBeTruthy();
  });
});
