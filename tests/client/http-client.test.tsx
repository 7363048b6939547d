import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { App } from '../../src/client/app/app';
import { SessionEndedDialog } from '../../src/client/app/session-ended-dialog';
import { api } from '../../src/client/lib/api-client';
import { ApiError } from '../../src/client/lib/errors';
import { createHttp } from '../../src/client/lib/http';
import { announceSessionEnded, leaveNow } from '../../src/client/lib/session-ended';
import { readToken, saveDistrict, saveToken } from '../../src/client/lib/session-store';
import { type Endpoint, account, auth, system } from '../../src/shared/api';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { type RequestLog, signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/**
 * The console's HTTP client (`api` from lib/api-client) against the real server: what it puts on
 * the wire (spec §7) and how it ends a session the server ended (spec §8).
 */

let s: TestServer;
let log: RequestLog;
clientSuite((server, l) => {
  s = server;
  log = l;
});

const ELSEWHERE_TITLE = '账号已在其他地方登录';
const ELSEWHERE_MSG = '您的账号已在其他地方登录，请重新登录';

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  const r = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(r instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(r)}`);
  return r;
}

describe('what every call carries', () => {
  it('sends the bearer token and a fresh _t timestamp, and no districtId while no area is stored', async () => {
    const token = await signIn(s, 'manager');
    const before = Date.now();
    const me = await api.call(auth.currentUser);
    const after = Date.now();
    expect(me.login).toBe('manager');

    const [req, ...more] = log.to('/busline/api/user/query/msg', 'GET');
    expect(more).toEqual([]);
    expect(req?.headers.authorization).toBe(`Bearer ${token}`);
    const t = Number(req?.query.get('_t'));
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(after);
    expect(req?.headers.districtid).toBeUndefined();
  });

  it('keeps its own query next to _t, without empty values', async () => {
    await signIn(s, 'admin');
    await api.call(account.userPage, { query: { page: 0, size: 5, keyword: '', activated: undefined } });
    const [req] = log.to('/busline/api/user/query/page');
    expect(req?.query.get('page')).toBe('0');
    expect(req?.query.get('size')).toBe('5');
    expect(req?.query.has('keyword')).toBe(false);
    expect(req?.query.has('activated')).toBe(false);
    expect(req?.query.get('_t')).toMatch(/^\d{13}$/);
  });

  it('sends the stored area as the districtId header, and the server scopes the answer by it', async () => {
    await signIn(s, 'admin');
    const districts = await api.call(system.districtPage, { query: { page: 0, size: 1000 } });
    const second = districts.content[1];
    expect(second).toBeDefined();

    const all = await api.call(account.userPage, { query: { page: 0, size: 1000 } });
    expect(new Set(all.content.map((u) => u.districtId)).size).toBeGreaterThan(1);

    saveDistrict(String(second?.id));
    log.clear();
    const scoped = await api.call(account.userPage, { query: { page: 0, size: 1000 } });
    expect(log.to('/busline/api/user/query/page')[0]?.headers.districtid).toBe(String(second?.id));
    expect(scoped.content.length).toBeGreaterThan(0);
    expect(scoped.content.every((u) => u.districtId === second?.id)).toBe(true);
    expect(scoped.totalElements).toBeLessThan(all.totalElements);
  });

  it('a foreign area stored for an account without openDistrict is refused by the server and told in the spec’s words', async () => {
    await signIn(s, 'manager');
    const me = await api.call(auth.currentUser);
    // The manager only sees its own district; the super user lists them all.
    const districts = await s.call(system.districtPage, { token: await s.login('admin'), query: { page: 0, size: 1000 } });
    const foreign = districts.body.data.content.find((d) => d.id !== me.districtId);
    expect(foreign).toBeDefined();
    saveDistrict(String(foreign?.id));
    const err = await rejection(api.call(account.userPage, { query: { page: 0, size: 10 } }, { silent: true }));
    expect(err.code).toBe(403);
    expect(err.message).toBe('当前用户没有权限操作');
  });

  it('the login call carries no bearer, even with a token stored', async () => {
    await signIn(s, 'agent');
    await api.call(auth.authenticate, { body: { username: 'nobody-here', password: 'x' } }, { silent: true }).catch(() => undefined);
    const [req] = log.to('/busline/api/authenticate', 'POST');
    expect(req).toBeDefined();
    expect(req?.headers.authorization).toBeUndefined();
  });
});

describe('a session the server ended', () => {
  it('three parallel calls of a replaced session show exactly one notice, in the "elsewhere" wording', async () => {
    await signIn(s, 'agent');
    visit(s, '/');
    renderWithUser(<App />);
    // The console is up and signed in: the breadcrumb shows the agent's first page.
    await screen.findByRole('navigation', { name: '主菜单' });
    expect(screen.queryByRole('dialog')).toBeNull();

    // The same account logs in somewhere else.
    await s.login('agent');
    log.clear();
    const errors = await Promise.all([
      rejection(api.call(auth.currentUser)),
      rejection(api.call(auth.authItems)),
      rejection(api.call(system.districtPage, { query: { page: 0, size: 1000 } })),
    ]);
    for (const e of errors) {
      expect(e.code).toBe(401);
      expect(e.message).toBe(ELSEWHERE_MSG);
    }
    // The server said so three times...
    const refused = log.seen.filter((r) => r.path.startsWith('/busline/api/'));
    expect(refused).toHaveLength(3);

    // ...the user is told once.
    const dialogs = await screen.findAllByRole('dialog');
    expect(dialogs).toHaveLength(1);
    expect(screen.getByRole('heading', { name: ELSEWHERE_TITLE })).toBeTruthy();
    expect(dialogs[0]?.textContent).toContain(ELSEWHERE_MSG);
    // No toast on top of the dialog.
    expect(screen.queryAllByRole('alert')).toEqual([]);

    // A later 401 of another kind does not replace or add a notice.
    localStorage.clear();
    await rejection(api.call(auth.currentUser));
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(screen.getByRole('heading', { name: ELSEWHERE_TITLE })).toBeTruthy();
  });

  it('the notice clears the session as it shows; its Enter loads /login at once, with the page the user was on as the way back', async () => {
    // Where the browser would go next, however the console asks for it (reload, replace or assign).
    const loads: string[] = [];
    vi.spyOn(window.location, 'reload').mockImplementation(() => loads.push(window.location.pathname + window.location.search));
    vi.spyOn(window.location, 'replace').mockImplementation((url) => loads.push(String(url)));
    vi.spyOn(window.location, 'assign').mockImplementation((url) => loads.push(String(url)));
    await signIn(s, 'viewer');
    // Not the viewer's home page (/order/order-list): a page the user went to.
    visit(s, '/station/station?from=test');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' });
    await s.login('viewer');
    await rejection(api.call(auth.currentUser));

    // Under a loaded machine (the whole suite on two cores) the notice took over findBy's default second.
    await screen.findByRole('heading', { name: ELSEWHERE_TITLE }, { timeout: 5_000 });
    expect(readToken()).toBeNull();
    // The button has the focus: Enter presses it, without waiting for the second to pass.
    expect(document.activeElement?.textContent).toContain('重新登录');
    await user.keyboard('{Enter}');
    expect(loads).toHaveLength(1);
    const next = new URL(loads[0] ?? '', window.location.origin);
    expect(next.pathname).toBe('/login');
    expect(next.searchParams.get('redirect')).toBe('/station/station?from=test');
    // Once: the second's timer, which calls the same leaveNow, does not load it again.
    leaveNow();
    expect(loads).toHaveLength(1);
  });

  it('a wrong login never shows the notice: the login page tells the server’s refusal itself', async () => {
    render(<SessionEndedDialog />);
    const err = await rejection(api.call(auth.authenticate, { body: { username: 'nobody-here', password: 'wrong' } }, { silent: true }));
    expect(err.message).toBe('用户名或密码错误，连续失败5次将锁定30分钟');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a 401 answered to the login call is the login page’s business, not the notice’s', async () => {
    render(<SessionEndedDialog />);
    // The authenticate endpoint pointed at a path that answers 401 for a caller without a token:
    // a real 401 from the real server, reaching the client under the login call's identity.
    const loginAnswering401: Endpoint = { ...auth.authenticate, method: 'GET', path: auth.currentUser.path, bodyType: 'none' };
    const err = await rejection(api.call(loginAnswering401, {}, { silent: true }));
    expect(err.code).toBe(401);
    expect(err.message).toBe('登录已失效，请重新登录');
    expect(log.to('/busline/api/user/query/msg')[0]?.headers.authorization).toBeUndefined();
    expect(screen.queryByRole('dialog')).toBeNull();

    // The same answer to any other call made in a session does show it, in the "expired" wording
    // (a token the server no longer knows).
    saveToken('a-token-the-server-no-longer-knows', 1800);
    await rejection(api.call(auth.currentUser));
    expect(await screen.findByRole('heading', { name: '登录已过期' })).toBeTruthy();
    expect(screen.getByRole('dialog').textContent).toContain('登录已过期，请重新登录');
  });

  it('a late 401 of a session already gone, or of a call sent without one, shows no notice over the current one', async () => {
    render(<SessionEndedDialog />);
    await rejection(api.call(auth.currentUser));
    expect(log.to('/busline/api/user/query/msg')[0]?.headers.authorization).toBeUndefined();
    // An answer that comes back after this tab has signed in again belongs to the old session.
    const token = await signIn(s, 'viewer');
    // The call left with the old token; by its answer the tab holds the new one.
    let asked = 0;
    const stale = createHttp({
      baseURL: s.url,
      getToken: () => (asked++ === 0 ? 'the-old-token' : token),
      getDistrict: () => null,
      onSessionEnded: () => announceSessionEnded({ reason: 'expired', msg: '登录已过期，请重新登录' }),
      toast: () => undefined,
    });
    await rejection(stale.call(auth.currentUser));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(readToken()?.token).toBe(token);
  });
});

describe('timeouts', () => {
  it('a call slower than its endpoint’s timeout is refused with 请求超时', async () => {
    const toasts: string[] = [];
    const ended = vi.fn();
    const http = createHttp({ getToken: () => null, getDistrict: () => null, onSessionEnded: ended, toast: (m) => toasts.push(m) });
    // Login checks a password hash: far slower than 1 ms.
    const slow = { ...auth.authenticate, timeoutMs: 1 };
    const err = await rejection(http.call(slow, { body: { username: 'nobody-timeout', password: 'x' } }));
    expect(err.message).toBe('请求超时');
    expect(toasts).toEqual(['请求超时']);
    expect(ended).not.toHaveBeenCalled();
    // The same call with its real timeout gets the server's answer.
    const answered = await rejection(http.call(auth.authenticate, { body: { username: 'nobody-timeout', password: 'x' } }));
    expect(answered.message).toBe('用户名或密码错误，连续失败5次将锁定30分钟');
  });

  it('a server that never answers is refused with 请求超时 after the endpoint’s timeout', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // Outside the product: a network that swallows the request. It still honours the abort.
      vi.spyOn(globalThis, 'fetch').mockImplementation(
        (_input, init) =>
          new Promise((_resolve, reject) => {
            init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
          }),
      );
      const toasts: string[] = [];
      const http = createHttp({ getToken: () => 't', getDistrict: () => null, onSessionEnded: vi.fn(), toast: (m) => toasts.push(m) });
      const pending = rejection(http.call(auth.currentUser));
      await vi.advanceTimersByTimeAsync(auth.currentUser.timeoutMs - 1);
      expect(toasts).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      const err = await pending;
      expect(err.message).toBe('请求超时');
      expect(toasts).toEqual(['请求超时']);
    } finally {
      vi.useRealTimers();
    }
  });
});
