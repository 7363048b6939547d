import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, Msg, account, auth } from '../../src/shared/api';
import { loadConfig } from '../../src/server/config';
import * as t from '../../src/server/db/schema';
import { MINUTE } from '../support/clock';
import { DEMO_PASSWORD, type TestServer, startTestServer } from '../support/test-server';

/**
 * Login floods and password guessing, from chosen addresses: the servers trust X-Forwarded-For
 * (as behind a proxy) so one test process can speak from many addresses.
 */
const defaults = loadConfig({});

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { code: number; msg: string; data: { idToken?: string } | null };
  ms: number;
}

function speaker(s: () => TestServer) {
  const send = async (path: string, from: string, body: unknown, token?: string): Promise<Answer> => {
    const started = performance.now();
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-forwarded-for': from };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await s().raw('POST', path, { headers, body: JSON.stringify(body) });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: JSON.parse(res.text) as Answer['body'], ms: performance.now() - started };
  };
  return {
    login: (from: string, username: string, password: string) => send(auth.authenticate.path, from, { username, password }),
    changePassword: (from: string, token: string, oldPassword: string, newPassword = 'Changed2026pw') =>
      send(auth.changePassword.path, from, { oldPassword, newPassword }, token),
    me: async (token: string) => (await s().call(auth.currentUser, { token })).status,
  };
}

const sysLogRows = (s: TestServer, type: string) => s.database.db.select().from(t.sysLog).where(eq(t.sysLog.operationType, type));

describe('lockout: back off the source, not the victim', () => {
  let s: TestServer;
  const api = speaker(() => s);
  beforeAll(async () => {
    s = await startTestServer({ trustProxy: true, login: { ...defaults.login, perIpPerMinute: 0, perAccountPerMinute: 0, failureFloorMs: 0 } });
  });
  afterAll(() => s.close());

  it('five failures from one address lock that address out of the name for 30 minutes; the owner elsewhere logs in', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await api.login('10.0.0.1', 'manager', `wrong-${i}-password`);
      expect(r.body).toEqual({ code: Code.FAIL, msg: Msg.loginFailed, data: null });
    }
    // Even the right password is refused from there, before it is checked, with the wait in Chinese.
    const blocked = await api.login('10.0.0.1', 'manager', DEMO_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe(Code.TOO_MANY_REQUESTS);
    expect(blocked.body.msg).toBe('连续失败5次，已锁定，请30分钟后再试');
    expect(Number(blocked.retryAfter)).toBeGreaterThan(29 * 60);

    // The victim, from their own address, is not locked out.
    const owner = await api.login('10.0.0.2', 'manager', DEMO_PASSWORD);
    expect(owner.body.code).toBe(Code.OK);
    const [user] = await s.database.db.select().from(t.users).where(eq(t.users.login, 'manager'));
    expect(user?.lockedUntil).toBeNull();

    const locks = await sysLogRows(s, 'LOCK');
    expect(locks.map((l) => l.summary)).toContain('来自 10.0.0.1 连续5次密码错误，该地址30分钟内不能再试此账号');

    s.clock.advance(31 * MINUTE);
    expect((await api.login('10.0.0.1', 'manager', DEMO_PASSWORD)).body.code).toBe(Code.OK);
  });

  it('unknown names are locked the same way (nothing tells them apart) and fill one counted log row, without the name', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 6; i++) answers.push(await api.login('10.0.0.3', 'ghost-user', `wrong-${i}-password`));
    expect(answers.slice(0, 5).map((a) => a.body.msg)).toEqual(Array(5).fill(Msg.loginFailed));
    expect(answers[5]?.status).toBe(429);
    expect(answers[5]?.body.msg).toBe('连续失败5次，已锁定，请30分钟后再试');

    // More unknown names from the same address: still one row for that address and quarter hour.
    for (let i = 0; i < 4; i++) await api.login('10.0.0.3', `ghost-${i}`, 'wrong-password');
    const rows = (await sysLogRows(s, 'LOGIN_FAIL')).filter((r) => r.ip === '10.0.0.3');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.summary).toBe('未知用户名登录失败（9次）');
    expect(rows[0]?.after).toMatchObject({ count: 9 });
    const everything = JSON.stringify([await s.database.db.select().from(t.sysLog), await s.database.db.select().from(t.loginThrottle)]);
    expect(everything).not.toContain('ghost');
  });

  it('twenty failures from many addresses lock the account itself and end its sessions', async () => {
    const token = (await api.login('10.0.5.1', 'agent', DEMO_PASSWORD)).body.data?.idToken ?? '';
    expect(await api.me(token)).toBe(200);
    for (let i = 0; i < 20; i++) {
      const r = await api.login(`10.1.${i}.1`, 'agent', 'distributed-guess');
      expect(r.body.msg).toBe(Msg.loginFailed);
    }
    expect(await api.me(token)).toBe(401);
    // Locked: the right password from a fresh address is answered like any failure.
    const right = await api.login('10.2.0.1', 'agent', DEMO_PASSWORD);
    expect(right.body).toEqual({ code: Code.FAIL, msg: Msg.loginFailed, data: null });
    const locks = (await sysLogRows(s, 'LOCK')).filter((l) => l.target === 'agent');
    expect(locks.map((l) => l.summary)).toEqual(['15分钟内20次密码错误，账号锁定30分钟']);

    s.clock.advance(31 * MINUTE);
    expect((await api.login('10.2.0.1', 'agent', DEMO_PASSWORD)).body.code).toBe(Code.OK);
  });

  it('修改密码 is covered too: wrong old passwords lock, the lock ends the sessions, and a locked source cannot change the password', async () => {
    const token = (await api.login('10.3.0.1', 'viewer', DEMO_PASSWORD)).body.data?.idToken ?? '';
    for (let i = 0; i < 5; i++) {
      const r = await api.changePassword('10.3.0.1', token, `guess-${i}-password`);
      expect(r.body).toEqual({ code: Code.FAIL, msg: Msg.oldPasswordWrong, data: { errors: [{ field: 'oldPassword', msg: Msg.oldPasswordWrong }] } });
    }
    expect(await api.me(token)).toBe(401);

    // A new session from elsewhere, then the locked address tries with the right old password.
    const fresh = (await api.login('10.3.0.2', 'viewer', DEMO_PASSWORD)).body.data?.idToken ?? '';
    const refused = await api.changePassword('10.3.0.1', fresh, DEMO_PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toBe('连续失败5次，已锁定，请30分钟后再试');
    const [user] = await s.database.db.select().from(t.users).where(eq(t.users.login, 'viewer'));
    expect(user?.passwordChangedAt.getTime()).toBeLessThan(s.clock.now().getTime() - 1_000);
    expect(await api.me(fresh)).toBe(200);

    const fails = await s.database.db
      .select()
      .from(t.sysLog)
      .where(and(eq(t.sysLog.operationType, 'LOGIN_FAIL'), eq(t.sysLog.summary, '修改密码时原密码错误')));
    expect(fails).toHaveLength(5);
  });

  it('an administrator’s password reset lifts the locks on the name', async () => {
    for (let i = 0; i < 5; i++) await api.login('10.4.0.1', 'expired', `wrong-${i}-password`);
    expect((await api.login('10.4.0.1', 'expired', DEMO_PASSWORD)).status).toBe(429);
    const rows = await s.database.db.select().from(t.loginThrottle).where(eq(t.loginThrottle.source, '10.4.0.1'));
    // Six attempts numbered, the sixth refused unchecked; the name itself is not stored.
    expect(rows.map((r) => r.attempts)).toEqual([6]);
    expect(JSON.stringify(rows)).not.toContain('expired');

    const [target] = await s.database.db.select().from(t.users).where(eq(t.users.login, 'expired'));
    const admin = await s.login('admin');
    const reset = await s.call(account.userUpdate, { token: admin, body: { id: target?.id, password: 'Reset2026pw' } });
    expect(reset.body.code).toBe(Code.OK);
    expect(await s.database.db.select().from(t.loginThrottle).where(eq(t.loginThrottle.source, '10.4.0.1'))).toEqual([]);
    expect((await api.login('10.4.0.1', 'expired', 'Reset2026pw')).body.code).toBe(Code.OK);
  });
});

describe('without TRUST_PROXY', () => {
  let s: TestServer;
  const api = speaker(() => s);
  beforeAll(async () => {
    s = await startTestServer({ login: { ...defaults.login, failureFloorMs: 0 } });
  });
  afterAll(() => s.close());

  it('ignores X-Forwarded-For: a client cannot pose as fresh addresses to escape the lockout', async () => {
    for (let i = 0; i < 5; i++) await api.login(`10.50.0.${i}`, 'manager', `wrong-${i}-password`);
    const sixth = await api.login('10.50.0.99', 'manager', DEMO_PASSWORD);
    expect(sixth.status).toBe(429);
    const [row] = await s.database.db.select().from(t.loginThrottle);
    expect(row?.source).toBe('127.0.0.1');
  });
});

describe('TRUST_PROXY=1 (one proxy in front)', () => {
  let s: TestServer;
  const api = speaker(() => s);
  beforeAll(async () => {
    s = await startTestServer({ trustProxy: 1, login: { ...defaults.login, failureFloorMs: 0 } });
  });
  afterAll(() => s.close());

  it('believes only the entry the proxy appended, not what the client wrote before it', async () => {
    for (let i = 0; i < 5; i++) await api.login(`6.6.6.${i}, 10.60.0.1`, 'manager', `wrong-${i}-password`);
    expect((await api.login('9.9.9.9, 10.60.0.1', 'manager', DEMO_PASSWORD)).status).toBe(429);
    expect((await api.login('6.6.6.1, 10.60.0.2', 'manager', DEMO_PASSWORD)).body.code).toBe(Code.OK);
    const rows = await s.database.db.select().from(t.loginThrottle);
    expect(rows.map((r) => r.source)).toEqual(['10.60.0.1']);
  });
});

describe('attempt limits, checked before any password is hashed', () => {
  let s: TestServer;
  const api = speaker(() => s);
  beforeAll(async () => {
    s = await startTestServer({ trustProxy: true, login: { ...defaults.login, perIpPerMinute: 5, perAccountPerMinute: 8, failureFloorMs: 0 } });
  });
  afterAll(() => s.close());

  it('per address: the sixth attempt in a minute gets 429 with Retry-After, and nothing is hashed or logged for it', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 7; i++) answers.push(await api.login('10.9.0.1', `spray-${i}`, 'wrong-password'));
    expect(answers.slice(0, 5).every((a) => a.body.msg === Msg.loginFailed)).toBe(true);
    for (const a of answers.slice(5)) {
      expect(a.status).toBe(429);
      expect(a.body.msg).toMatch(/^登录尝试过于频繁，请\d+秒后再试$/);
      expect(Number(a.retryAfter)).toBeGreaterThan(0);
      expect(Number(a.retryAfter)).toBeLessThanOrEqual(60);
    }
    const [row] = (await sysLogRows(s, 'LOGIN_FAIL')).filter((r) => r.ip === '10.9.0.1');
    expect(row?.after).toMatchObject({ count: 5 });
    // Other addresses are not affected.
    expect((await api.login('10.9.0.2', 'viewer', DEMO_PASSWORD)).body.code).toBe(Code.OK);
  });

  it('per name: attempts from many addresses together are limited, known and unknown names alike', async () => {
    for (const name of ['agent', 'nobody-here']) {
      const answers: Answer[] = [];
      for (let i = 0; i < 9; i++) answers.push(await api.login(`10.8.${i}.${name.length}`, name, 'wrong-password'));
      expect(answers.slice(0, 8).map((a) => a.status)).toEqual(Array(8).fill(200));
      expect(answers[8]?.status).toBe(429);
      expect(answers[8]?.body.msg).toMatch(/^该账号登录尝试过于频繁，请\d+秒后再试$/);
    }
  });
});

describe('hashing queue and answer timing', () => {
  let s: TestServer;
  const api = speaker(() => s);
  beforeAll(async () => {
    s = await startTestServer({
      trustProxy: true,
      login: { ...defaults.login, perIpPerMinute: 0, perAccountPerMinute: 0, failureFloorMs: 250, hashConcurrency: 1, hashQueue: 2 },
    });
  });
  afterAll(() => s.close());

  it('answers 503 at once when more logins wait for hashing than the queue holds', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => api.login(`10.7.${i}.1`, 'nobody', 'wrong-password')));
    const busy = answers.filter((a) => a.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const b of busy) {
      expect(b.body).toEqual({ code: Code.UNAVAILABLE, msg: '服务器繁忙，请稍后再试', data: null });
      expect(b.retryAfter).toBe('2');
    }
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(3);
  });

  it('failed logins are answered no sooner than the floor, for known and unknown names alike', async () => {
    const known = await api.login('10.6.0.1', 'viewer', 'wrong-password');
    const unknown = await api.login('10.6.0.2', 'no-such-user', 'wrong-password');
    expect(known.body.msg).toBe(Msg.loginFailed);
    expect(unknown.body.msg).toBe(Msg.loginFailed);
    expect(known.ms).toBeGreaterThanOrEqual(245);
    expect(unknown.ms).toBeGreaterThanOrEqual(245);
  });
});
