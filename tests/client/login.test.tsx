import { render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { App } from '../../src/client/app/app';
import { installChineseZodMessages } from '../../src/shared/api/zod-locale';
import type { TestServer } from '../support/test-server';
import { renderWithUser, resetBrowserState, startClientServer, visit } from '../support/render';
import { signIn } from '../support/request-log';
import { readToken } from '../../src/client/lib/session-store';

let s: TestServer;
beforeAll(async () => {
  installChineseZodMessages();
  s = await startClientServer();
});
afterAll(() => s.close());
afterEach(() => {
  resetBrowserState();
  vi.restoreAllMocks();
});

describe('login page', () => {
  it('sends a guest to /login with the full path kept as redirect', async () => {
    visit(s, '/user/user-list?keyword=abc');
    renderWithUser(<App />);
    await screen.findByRole('heading', { name: '公交运营管理控制台' });
    expect(window.location.pathname).toBe('/login');
    expect(new URLSearchParams(window.location.search).get('redirect')).toBe('/user/user-list?keyword=abc');
  });

  it('shows the server refusal in the spec’s words and keeps the user on the page', async () => {
    visit(s, '/login');
    const { user } = renderWithUser(<App />);
    await user.type(await screen.findByLabelText('用户名'), 'manager');
    await user.type(screen.getByLabelText('密码'), 'wrong-password');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('登录失败，用户名或密码错误，连续失败5次将锁定30分钟，请重新的登录'));
    expect(localStorage.getItem('bus-console.token')).toBeNull();
  });

  it('logs in with a trimmed username, stores the token and goes to the redirect', async () => {
    visit(s, '/login?redirect=%2Fuser%2Fsys-log%3Fpage%3D2');
    const { user } = renderWithUser(<App />);
    await user.type(await screen.findByLabelText('用户名'), '  manager  ');
    await user.type(screen.getByLabelText('密码'), 'Bus@2026');
    await user.click(screen.getByRole('button', { name: /登录/ }));
    // In the page, no reload: the router takes the signed-in visitor of /login to the target.
    await waitFor(() => expect(window.location.pathname + window.location.search).toBe('/user/sys-log?page=2'));
    expect(await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 })).toBeTruthy();
    const stored = JSON.parse(localStorage.getItem('bus-console.token') ?? '{}') as { token?: string; expiresAt?: number };
    expect(stored.token).toMatch(/^ey/);
    expect(stored.expiresAt).toBeGreaterThan(Date.now() + 29 * 60_000);
  });

  it('a console reloaded after its account logged in elsewhere says so on the login page, once', async () => {
    await signIn(s, 'agent');
    // The same account signs in somewhere else; then this console is reloaded (F5).
    await s.login('agent');
    visit(s, '/busUser/card');
    const first = render(<App />);
    const notice = await screen.findByText('您的账号已在其他地方登录，请重新登录', {}, { timeout: 5_000 });
    expect(notice.getAttribute('role')).toBe('alert');
    expect(screen.queryByText('登录已过期，请重新登录')).toBeNull();
    // No dialog: its reload would only come back here.
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(readToken()).toBeNull();
    expect(new URLSearchParams(window.location.search).get('redirect')).toBe('/busUser/card');

    first.unmount();
    render(<App />);
    await screen.findByLabelText('用户名');
    expect(screen.queryByText('您的账号已在其他地方登录，请重新登录')).toBeNull();
  });
});
