import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Msg, account, auth } from '../../src/shared/api';
import type { RoleGroup } from '../../src/shared/api/account';
import * as t from '../../src/server/db/schema';
import { GROUPS } from '../../src/server/modules/user/seed';
import { DEMO_PASSWORD, type TestServer, startTestServer } from '../support/test-server';
import { businessRows } from '../support/business-rows';

/** The ways an operator could try to become, or act as, someone stronger. */
let s: TestServer;
let admin: string;
let groups: RoleGroup[];
const group = (name: string) => groups.find((g) => g.name === name)?.id ?? -1;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login('admin');
  groups = (await s.call(account.groupList, { token: admin })).body.data;
});
afterAll(() => s.close());

const add = (token: string, body: Record<string, unknown>) =>
  s.call(account.userAdd, { token, body: { firstName: '测试', password: 'Passw0rd2026', authority: 'ROLE_USER', districtId: 2, ...body } });
const deniedRows = (login: string) =>
  s.database.db.select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'DENIED'), eq(t.sysLog.operatorLogin, login)));

describe('a district manager', () => {
  it('sees each account marked manageable exactly where the server would accept an edit', async () => {
    const boss = await add(admin, { login: 'cityboss', authority: 'ROLE_APP_ADMIN', groupId: group(GROUPS.super.name) });
    expect(boss.body.code).toBe(1);
    const manager = await s.login('manager');
    const page = await s.call(account.userPage, { token: manager, query: { size: 100 } });
    const rows = new Map(page.body.data.content.map((u) => [u.login, u]));
    expect(rows.get('cityboss')?.manageable).toBe(false);
    expect(rows.get('agent')?.manageable).toBe(true);
    // What the flag promises, the server keeps, both ways.
    for (const u of page.body.data.content.filter((x) => x.login !== 'manager')) {
      const res = await s.call(account.userUpdate, { token: manager, body: { id: u.id, firstName: u.firstName } });
      expect(res.status === 200, u.login).toBe(u.manageable);
    }
    // The super user manages everyone, itself included.
    const all = await s.call(account.userPage, { token: admin, query: { size: 100 } });
    expect(all.body.data.content.every((u) => u.manageable)).toBe(true);
  });

  it('cannot reset the password of an openDistrict account in the district, and the refusal is logged', async () => {
    const city = await add(admin, { login: 'cityagent', groupId: group(GROUPS.agent.name), openDistrict: true });
    expect(city.body.code).toBe(1);
    const manager = await s.login('manager');
    const before = (await deniedRows('manager')).length;
    const res = await s.call(account.userUpdate, { token: manager, body: { id: city.body.data.id, password: 'Takeover2026' } });
    expect(res.status).toBe(403);
    await expect(s.login('cityagent', 'Takeover2026')).rejects.toThrow();
    expect((await deniedRows('manager')).length).toBe(before + 1);
  });

  it('cannot touch an account whose role group holds items the manager lacks', async () => {
    const strong = await add(admin, { login: 'strong', groupId: group(GROUPS.super.name) });
    const manager = await s.login('manager');
    const res = await s.call(account.userUpdate, { token: manager, body: { id: strong.body.data.id, firstName: '改' } });
    expect(res.status).toBe(403);
    expect(res.body.msg).toBe('不能操作权限高于自己的账号');
  });

  it('gets a logged 403 reading an account of another district', async () => {
    const elsewhere = await add(admin, { login: 'elsewhere', districtId: 1, groupId: group(GROUPS.viewer.name) });
    const manager = await s.login('manager');
    const before = (await deniedRows('manager')).length;
    const res = await s.call(account.userById, { token: manager, params: { id: elsewhere.body.data.id } });
    expect(res.body).toEqual({ code: 403, msg: Msg.foreignDistrict, data: null });
    expect((await deniedRows('manager')).length).toBe(before + 1);
  });
});

describe('a plain user holding USER_ADD', () => {
  let clerk: string;
  let clerkId: number;
  beforeAll(async () => {
    const viewerGroup = group(GROUPS.viewer.name);
    await s.call(account.groupUpdate, { token: admin, query: { id: viewerGroup, itemIds: 'user,user.user-list,USER_ADD' } });
    const created = await add(admin, { login: 'clerk', groupId: viewerGroup });
    clerkId = created.body.data.id;
    clerk = await s.login('clerk', 'Passw0rd2026');
  });

  it('cannot promote itself, change its own group, or reset its own password without the old one', async () => {
    const rows = await businessRows(s.database.db);
    const ownGrants = { status: 403, code: 403, msg: '不能修改自己的角色、角色组或区域' };
    for (const [body, expected] of [
      [{ id: clerkId, authority: 'ROLE_ADMIN' }, ownGrants],
      [{ id: clerkId, groupId: group(GROUPS.agent.name) }, ownGrants],
      [{ id: clerkId, password: 'NoOldPass2026' }, { status: 200, code: 0, msg: '请通过“修改密码”修改自己的密码' }],
    ] as const) {
      const res = await s.call(account.userUpdate, { token: clerk, body });
      expect({ status: res.status, code: res.body.code, msg: res.body.msg }, JSON.stringify(body)).toEqual(expected);
    }
    expect(await businessRows(s.database.db)).toEqual(rows);
  });

  it('cannot create an administrator', async () => {
    const res = await add(clerk, { login: 'newadmin', authority: 'ROLE_ADMIN', groupId: group(GROUPS.viewer.name) });
    expect(res.status).toBe(403);
    expect(res.body.msg).toBe('不能授予高于自己的角色');
  });
});

describe('guessing through a borrowed session', () => {
  it('wrong old passwords count towards the lockout, which ends the session, and are logged', async () => {
    const token = await s.login('agent');
    for (let i = 0; i < 5; i++) {
      const res = await s.call(auth.changePassword, { token, body: { oldPassword: `guess${i}`, newPassword: 'Guessed2026' } });
      expect(res.body.msg).toBe(Msg.oldPasswordWrong);
    }
    expect((await s.call(auth.currentUser, { token })).status).toBe(401);
    const login = await s.call(auth.authenticate, { body: { username: 'agent', password: DEMO_PASSWORD } });
    expect(login.status).toBe(429);
    const fails = await s.database.db.select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'LOGIN_FAIL'), eq(t.sysLog.operatorLogin, 'agent')));
    expect(fails.filter((f) => f.summary === '修改密码时原密码错误')).toHaveLength(5);
  });
});
