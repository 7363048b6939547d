import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_ELSEWHERE, Msg, auth } from '../../src/shared/api';
import * as t from '../../src/server/db/schema';
import { HOUR, MINUTE } from '../support/clock';
import { DEMO_PASSWORD, type TestServer, startTestServer } from '../support/test-server';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const me = (token: string) => s.call(auth.currentUser, { token });

describe('login', () => {
  it('trims the username, ignores case and returns the token with its lifetimes', async () => {
    const res = await s.call(
      auth.authenticate,
      { body: { username: '  Viewer ', password: DEMO_PASSWORD } },
    );
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(1);
    expect(res.body.data.tokenExpiredSecond).toBe(1800);
    expect(res.body.data.passwordIsExpired).toBe(false);
    const info = await me(res.body.data.idToken);
    expect(info.body.data.login).toBe('viewer');
  });

  it('reports an expired password with its age in seconds', async () => {
    const res = await s.call(auth.authenticate, {
      body: { username: 'expired', password: DEMO_PASSWORD },
    });
    expect(res.body.data.passwordIsExpired).toBe(true);
    expect(res.body.data.passwordExpiredSecond).toBeGreaterThan(90 * 86_400);
  });

  it('answers every kind of bad credential with the same message and writes the log', async () => {
    const unknown = await s.call(auth.authenticate, { body: { username: 'nobody', password: 'x' } });
    const wrong = await s.call(auth.authenticate, { body: { username: 'agent', password: 'wrong-password1' } });
    expect(unknown.body).toEqual({ code: 0, msg: Msg.loginFailed, data: null });
    expect(wrong.body).toEqual({ code: 0, msg: Msg.loginFailed, data: null });
    const rows = await s.database.db.select().from(t.sysLog).where(eq(t.sysLog.operationType, 'LOGIN_FAIL'));
    expect(rows.map((r) => r.operatorLogin)).toContain('agent');
    // An unknown name is counted, not kept: it may be a password typed into the wrong field.
    expect(rows.find((r) => r.operatorLogin === null)?.summary).toBe('未知用户名登录失败（1次）');
    expect(JSON.stringify(rows)).not.toContain('nobody');
  });
});

describe('single session per account', () => {
  it('a new login ends the older session with 401 and loginresult -2', async () => {
    const first = await s.login('agent');
    expect((await me(first)).body.code).toBe(1);
    const second = await s.login('agent');
    const old = await me(first);
    expect(old.status).toBe(401);
    expect(old.body.code).toBe(401);
    expect(old.headers.get('loginresult')).toBe(LOGIN_ELSEWHERE);
    expect((await me(second)).body.code).toBe(1);
  });

  it('logout ends the session without the elsewhere header', async () => {
    const token = await s.login('viewer');
    expect((await s.call(auth.logout, { token })).body.code).toBe(1);
    const after = await me(token);
    expect(after.status).toBe(401);
    expect(after.headers.get('loginresult')).toBeNull();
    const [row] = await s.database.db.select().from(t.sysLog).where(eq(t.sysLog.operationType, 'LOGOUT'));
    expect(row?.operatorLogin).toBe('viewer');
  });

  it('refuses a missing, malformed or forged token', async () => {
    expect((await s.call(auth.currentUser)).status).toBe(401);
    expect((await s.call(auth.currentUser, { token: 'not-a-jwt' })).status).toBe(401);
    const token = await s.login('viewer');
    const forged = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    const res = await s.call(auth.currentUser, { token: forged });
    expect(res.status).toBe(401);
    expect(res.body.msg).toBe(Msg.notLoggedIn);
  });
});

describe('expiry with the clock', () => {
  it('ends a session idle for the token lifetime, and keeps an active one alive', async () => {
    const token = await s.login('viewer');
    s.clock.advance(25 * MINUTE);
    expect((await me(token)).body.code).toBe(1);
    s.clock.advance(25 * MINUTE);
    expect((await me(token)).body.code).toBe(1);
    s.clock.advance(30 * MINUTE + 1000);
    const res = await me(token);
    expect(res.status).toBe(401);
    expect(res.headers.get('loginresult')).toBeNull();
  });

  it('ends any session after 12 hours however active', async () => {
    const token = await s.login('viewer');
    for (let elapsed = 0; elapsed + 29 * MINUTE < 12 * HOUR; elapsed += 29 * MINUTE) {
      s.clock.advance(29 * MINUTE);
      expect((await me(token)).body.code).toBe(1);
    }
    s.clock.advance(29 * MINUTE);
    const res = await me(token);
    expect(res.status).toBe(401);
    expect(res.headers.get('loginresult')).toBeNull();
  });
});

describe('lockout', () => {
  it('locks this address out of the name after 5 failures in 15 minutes, for 30 minutes', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await s.call(auth.authenticate, { body: { username: 'manager', password: `bad${i}xxxxx` } });
      expect(r.body.msg).toBe(Msg.loginFailed);
    }
    const locked = await s.call(auth.authenticate, { body: { username: 'manager', password: DEMO_PASSWORD } });
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ code: 429, msg: '连续失败5次，已锁定，请30分钟后再试', data: null });
    const [lockRow] = await s.database.db.select().from(t.sysLog).where(eq(t.sysLog.operationType, 'LOCK'));
    expect(lockRow?.operatorLogin).toBe('manager');
    s.clock.advance(29 * MINUTE);
    expect((await s.call(auth.authenticate, { body: { username: 'manager', password: DEMO_PASSWORD } })).status).toBe(429);
    s.clock.advance(2 * MINUTE);
    expect((await s.call(auth.authenticate, { body: { username: 'manager', password: DEMO_PASSWORD } })).body.code).toBe(1);
  });

  it('forgets failures older than 15 minutes', async () => {
    for (let i = 0; i < 4; i++) await s.call(auth.authenticate, { body: { username: 'agent', password: 'nope12345' } });
    s.clock.advance(16 * MINUTE);
    await s.call(auth.authenticate, { body: { username: 'agent', password: 'nope12345' } });
    const ok = await s.call(auth.authenticate, { body: { username: 'agent', password: DEMO_PASSWORD } });
    expect(ok.body.code).toBe(1);
  });
});

describe('password change', () => {
  it('refuses a wrong old password with 原密码错误 and changes nothing', async () => {
    const token = await s.login('viewer');
    const res = await s.call(auth.changePassword, { token, body: { oldPassword: 'wrong', newPassword: 'NewPass2026' } });
    expect(res.body).toEqual({ code: 0, msg: Msg.oldPasswordWrong, data: { errors: [{ field: 'oldPassword', msg: Msg.oldPasswordWrong }] } });
    expect((await me(token)).body.code).toBe(1);
  });

  it('takes a form body, ends the sessions and accepts only the new password', async () => {
    const token = await s.login('expired');
    const res = await s.call(auth.changePassword, { token, body: { oldPassword: DEMO_PASSWORD, newPassword: 'Fresh2026pw' } });
    expect(res.body.code).toBe(1);
    expect((await me(token)).status).toBe(401);
    await expect(s.login('expired')).rejects.toThrow();
    const fresh = await s.call(auth.authenticate, { body: { username: 'expired', password: 'Fresh2026pw' } });
    expect(fresh.body.data.passwordIsExpired).toBe(false);
  });

  it('refuses a weak new password with the rule in Chinese', async () => {
    const token = await s.login('viewer');
    const res = await s.call(auth.changePassword, { token, body: { oldPassword: DEMO_PASSWORD, newPassword: 'short' } });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('密码至少8位');
  });
});
