import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Msg, account, auth } from '../../src/shared/api';
import * as t from '../../src/server/db/schema';
import { postgresUrl, skipWithoutPostgres } from '../support/test-db';
import { DEMO_PASSWORD, type TestServer, startTestServer } from '../support/test-server';

/**
 * Races need real connections: PGlite is a single connection where locks never contend, so these
 * run only on PostgreSQL (the `server-pg` project, which .ci/run enables).
 */
describe.skipIf(skipWithoutPostgres('race tests (logins, lockouts, password resets)'))('on PostgreSQL', () => {
  let s: TestServer;
  beforeAll(async () => {
    // Trusts X-Forwarded-For so one process can speak from many addresses.
    s = await startTestServer({ trustProxy: true });
  });
  afterAll(() => s?.close());

  it('racing logins of one account leave exactly one live session', async () => {
    const results = await Promise.all(
      // From eight desks: one address gets only five attempts numbered before any succeeds.
      Array.from({ length: 8 }, (_, i) =>
        s.call(auth.authenticate, { headers: { 'x-forwarded-for': `10.30.0.${i}` }, body: { username: 'agent', password: DEMO_PASSWORD } }),
      ),
    );
    const tokens = results.map((r) => {
      expect(r.body.code).toBe(1);
      return r.body.data.idToken;
    });
    const answers = await Promise.all(tokens.map((token) => s.call(auth.currentUser, { token })));
    expect(answers.filter((a) => a.body.code === 1)).toHaveLength(1);
    expect(answers.filter((a) => a.headers.get('loginresult') === '-2')).toHaveLength(7);
    const [user] = await s.database.db.select().from(t.users).where(eq(t.users.login, 'agent'));
    const live = await s.database.db
      .select()
      .from(t.sessions)
      .where(sql`${t.sessions.userId} = ${user?.id ?? -1} and ${t.sessions.endedAt} is null`);
    expect(live).toHaveLength(1);
  });

  it('racing wrong passwords from one address: five are checked, the rest refused unchecked, one lock', async () => {
    const from = { 'x-forwarded-for': '10.20.0.1' };
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => s.call(auth.authenticate, { headers: from, body: { username: 'viewer', password: `wrong${i}pass` } })),
    );
    // Attempts are numbered before hashing: exactly five get their password checked, however they race.
    expect(results.filter((r) => r.body.msg === Msg.loginFailed)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429)).toHaveLength(7);
    const locks = await s.database.db.select().from(t.sysLog).where(eq(t.sysLog.operationType, 'LOCK'));
    expect(locks.filter((l) => l.operatorLogin === 'viewer')).toHaveLength(1);
    expect((await s.call(auth.authenticate, { headers: from, body: { username: 'viewer', password: DEMO_PASSWORD } })).status).toBe(429);
    // The account itself is not locked: its owner elsewhere logs in.
    const ok = await s.call(auth.authenticate, { headers: { 'x-forwarded-for': '10.20.0.2' }, body: { username: 'viewer', password: DEMO_PASSWORD } });
    expect(ok.body.code).toBe(1);
  });

  it('racing wrong passwords from many addresses lock the account exactly once', async () => {
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        s.call(auth.authenticate, { headers: { 'x-forwarded-for': `10.21.${i}.1` }, body: { username: 'expired', password: `wrong${i}pass` } }),
      ),
    );
    expect(results.every((r) => r.body.msg === Msg.loginFailed)).toBe(true);
    const locks = await s.database.db.select().from(t.sysLog).where(eq(t.sysLog.operationType, 'LOCK'));
    expect(locks.filter((l) => l.operatorLogin === 'expired').map((l) => l.summary)).toEqual(['15分钟内20次密码错误，账号锁定30分钟']);
    const right = await s.call(auth.authenticate, { headers: { 'x-forwarded-for': '10.22.0.1' }, body: { username: 'expired', password: DEMO_PASSWORD } });
    expect(right.body).toEqual({ code: 0, msg: Msg.loginFailed, data: null });
  });

  it('a login racing a password reset never outlives the reset', async () => {
    const admin = await s.login('admin');
    const [target] = await s.database.db.select().from(t.users).where(eq(t.users.login, 'manager'));
    let password = DEMO_PASSWORD;
    for (let i = 0; i < 10; i++) {
      const next = `Reset${i}pass2026`;
      const [login] = await Promise.all([
        s.call(auth.authenticate, { body: { username: 'manager', password } }),
        s.call(account.userUpdate, { token: admin, body: { id: target?.id, password: next } }),
      ]);
      password = next;
      if (login.body.code === 1) {
        expect((await s.call(auth.currentUser, { token: login.body.data.idToken })).status).toBe(401);
      }
    }
  });

  it('racing renames of two groups to one name: one succeeds, the other is refused in Chinese', async () => {
    const admin = await s.login('admin');
    const groups = (await s.call(account.groupList, { token: admin })).body.data;
    const [a, b] = groups.filter((g) => g.name !== '超级管理员组');
    const results = await Promise.all(
      [a, b].map((g) => s.call(account.groupUpdate, { token: admin, query: { id: g?.id ?? -1, name: '同名组' } })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(results.map((r) => r.body.code).sort()).toEqual([0, 1]);
    expect(results.find((r) => r.body.code === 0)?.body.msg).toBe('角色组名称已存在');
  });

  it('keeps serving after PostgreSQL drops every connection (as on a restart)', async () => {
    const token = await s.login('admin');
    const result = (await s.database.db.execute(sql`select current_database() as db`)) as unknown as { rows: { db: string }[] };
    const db = result.rows[0]?.db ?? '';
    const killer = new pg.Client({ connectionString: postgresUrl });
    await killer.connect();
    await killer.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [db]);
    await killer.end();
    // A request may meet a connection that died under it; the pool replaces it for the next.
    let code = 0;
    for (let i = 0; i < 3 && code !== 1; i++) code = (await s.call(auth.currentUser, { token })).body.code;
    expect(code).toBe(1);
  });
});
