import { describe as group, expect, it } from 'vitest';
import { type Answer, describe } from '../../src/client/lib/errors';

/**
 * Spec §8, the error catalogue, as the pure mapping `describe()` does it: what the user is told for
 * every kind of answer. Literal strings on purpose: they are the spec's words, not the code's
 * constants.
 */

const answer = (status: number, body: unknown, loginResult: string | null = null): Answer => ({ status, body, loginResult });
const env = (code: number, msg: string, data: unknown = null) => ({ code, msg, data });

group('describe(): success', () => {
  it('HTTP 200 with code 1 is no failure', () => {
    expect(describe(answer(200, env(1, '操作成功', { a: 1 })))).toBeNull();
  });

  it('code 1 on a non-2xx status is still a failure', () => {
    expect(describe(answer(500, env(1, 'x')))).not.toBeNull();
  });
});

group('describe(): server code other than 1 shows the server message', () => {
  it.each([
    [0, '站点名称已存在'],
    [404, '记录不存在'],
    [400, '参数错误：名称不能为空'],
    [7, '任意业务提示'],
  ])('code %i → the message as it is', (code, msg) => {
    expect(describe(answer(200, env(code, msg)))).toEqual({ kind: 'message', code, msg });
  });

  it('an answer that is not an envelope is still refused with a readable message', () => {
    const f = describe(answer(200, '<html>proxy page</html>'));
    expect(f?.kind).toBe('message');
    expect(f?.msg).toMatch(/^请求出错：/);
  });
});

group('describe(): 401 ends the session', () => {
  const elsewhere = { kind: 'session-ended', reason: 'elsewhere', msg: '您的账号已在其他地方登录，请重新登录' };
  const expired = { kind: 'session-ended', reason: 'expired', msg: '登录已过期，请重新登录' };

  it('HTTP 401 with header loginresult -2 → logged in elsewhere', () => {
    expect(describe(answer(401, env(401, '您的账号已在其他地方登录，请重新登录'), '-2'))).toEqual(elsewhere);
  });

  it('HTTP 401 without the header → login expired', () => {
    expect(describe(answer(401, env(401, '登录已失效，请重新登录')))).toEqual(expired);
  });

  it('HTTP 401 with another loginresult value → login expired', () => {
    expect(describe(answer(401, env(401, 'x'), '-1'))).toEqual(expired);
  });

  it('HTTP 401 with no body at all → login expired', () => {
    expect(describe(answer(401, null))).toEqual(expired);
  });

  it('code 401 inside an HTTP 200 with header loginresult -2 → logged in elsewhere', () => {
    expect(describe(answer(200, env(401, 'whatever'), '-2'))).toEqual(elsewhere);
  });

  it('code 401 inside an HTTP 200 without the header → login expired', () => {
    expect(describe(answer(200, env(401, 'whatever')))).toEqual(expired);
  });
});

group('describe(): mapped messages', () => {
  it('HTTP 403 → 当前用户没有权限操作, whatever the server said', () => {
    expect(describe(answer(403, env(403, '当前用户没有权限操作该区域')))).toEqual({ kind: 'message', code: 403, msg: '当前用户没有权限操作' });
    expect(describe(answer(403, null))?.msg).toBe('当前用户没有权限操作');
  });

  it('code 403 inside an HTTP 200 → 当前用户没有权限操作', () => {
    expect(describe(answer(200, env(403, 'Access is denied')))?.msg).toBe('当前用户没有权限操作');
  });

  it('HTTP 502 → 服务器维护中', () => {
    expect(describe(answer(502, '<html>Bad Gateway</html>'))?.msg).toBe('服务器维护中');
    expect(describe(answer(502, env(502, 'Bad Gateway')))?.msg).toBe('服务器维护中');
  });

  it.each([
    [500, 'TokenRelayGatewayFilterFactory: token relay failed'],
    [500, 'zuul forwarding error'],
    [200, '转发请求失败'],
  ])('a token-relay filter message (HTTP %i: %s) → 服务器维护中', (status, msg) => {
    expect(describe(answer(status, env(500, msg)))?.msg).toBe('服务器维护中');
  });

  it('the server’s own maintenance answer while it drains (HTTP 503, 服务器维护中) reaches the user as 服务器维护中', () => {
    // src/server/app.ts answers 503 {code: 503, msg: '服务器维护中'} while shutting down.
    expect(describe(answer(503, env(503, '服务器维护中')))?.msg).toBe('服务器维护中');
  });

  it('HTTP 500 → 服务内部错误，请重试', () => {
    expect(describe(answer(500, env(500, 'NullPointerException at Foo.java:12')))?.msg).toBe('服务内部错误，请重试');
    expect(describe(answer(500, 'Internal Server Error'))?.msg).toBe('服务内部错误，请重试');
  });

  it.each([
    [200, 0, '原密码错误'],
    [200, 0, '原密码不正确'],
    [400, 400, '原密码校验失败'],
  ])('an old-password error (HTTP %i, code %i, %s) → 原密码错误', (status, code, msg) => {
    expect(describe(answer(status, env(code, msg)))?.msg).toBe('原密码错误');
  });

  it.each([
    [404, '接口不存在'],
    [400, '请求内容不是有效的 JSON'],
    [405, 'Method Not Allowed'],
    [413, '请求内容过大'],
  ])('another HTTP error (%i) → 请求出错：{msg}', (status, msg) => {
    expect(describe(answer(status, env(status, msg)))).toEqual({ kind: 'message', code: status, msg: `请求出错：${msg}` });
  });

  it('another HTTP error without a message still starts with 请求出错：', () => {
    const f = describe(answer(404, 'Not Found'));
    expect(f?.msg).toMatch(/^请求出错：/);
    expect(f?.msg).toContain('404');
  });
});

group('describe(): a refusal to go on (429) or a body that never arrived (408) shows the server’s words as they are', () => {
  it.each([
    [429, '登录尝试过于频繁，请 60 秒后再试'],
    [429, '连续失败5次，已锁定，请30分钟后再试'],
    [408, '请求超时'],
  ])('HTTP %i with msg %s → that msg, without 请求出错：', (status, msg) => {
    expect(describe(answer(status, env(status, msg)))).toEqual({ kind: 'message', code: status, msg });
  });

  it('the same codes inside an HTTP 200 are read the same way', () => {
    expect(describe(answer(200, env(429, '登录尝试过于频繁，请 60 秒后再试')))).toEqual({ kind: 'message', code: 429, msg: '登录尝试过于频繁，请 60 秒后再试' });
    expect(describe(answer(200, env(408, '请求超时')))).toEqual({ kind: 'message', code: 408, msg: '请求超时' });
  });

  it.each([
    [429, '<html><body>429 Too Many Requests</body></html>', '操作过于频繁，请稍后再试'],
    [429, env(429, ''), '操作过于频繁，请稍后再试'],
    [429, null, '操作过于频繁，请稍后再试'],
    [408, '<html>Request Timeout</html>', '请求超时'],
    [408, env(408, '  '), '请求超时'],
  ])('HTTP %i without a usable msg (%j) → %s', (status, body, expected) => {
    expect(describe(answer(status, body))).toEqual({ kind: 'message', code: status, msg: expected });
  });
});
