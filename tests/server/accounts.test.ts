import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Msg, account, auth } from '../../src/shared/api';
import type { RoleGroup } from '../../src/shared/api/account';
import * as t from '../../src/server/db/schema';
import { GROUPS } from '../../src/server/modules/user/seed';
import { type TestServer, startTestServer } from '../support/test-server';

let s: TestServer;
let admin: string;
let manager: string;
let agent: string;
let groups: RoleGroup[];
const groupId = (name: string) => {
  const g = groups.find((x) => x.name === name);
  if (!g) throw new Error(`group ${name} missing`);
  return g.id;
};

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login('admin');
  manager = await s.login('manager');
  agent = await s.login('agent');
  groups = (await s.call(account.groupList, { token: admin })).body.data;
});
afterAll(() => s.close());

const countUsers = async () => (await s.database.db.select({ id: t.users.id }).from(t.users)).length;
const logRows = (type: string) => s.database.db.select().from(t.sysLog).where(eq(t.sysLog.operationType, type));

describe('user list', () => {
  it('a district manager sees only the accounts of the district', async () => {
    const res = await s.call(account.userPage, { token: manager, query: { size: 100 } });
    expect(res.body.code).toBe(1);
    expect(res.body.data.content.length).toBeGreaterThan(0);
    expect(new Set(res.body.data.content.map((u) => u.districtId))).toEqual(new Set([2]));
  });

  it('the super user sees every district, filters by keyword and pages', async () => {
    const all = await s.call(account.userPage, { token: admin, query: { size: 2, page: 0, sort: 'login,asc' } });
    expect(all.body.data.content).toHaveLength(2);
    expect(all.body.data.totalElements).toBeGreaterThanOrEqual(5);
    expect(all.body.data.totalPages).toBe(Math.ceil(all.body.data.totalElements / 2));
    const found = await s.call(account.userPage, { token: admin, query: { keyword: '客服' } });
    expect(found.body.data.content.map((u) => u.login)).toEqual(['agent']);
  });

  it('treats % and _ in the keyword literally', async () => {
    const res = await s.call(account.userPage, { token: admin, query: { keyword: '%' } });
    expect(res.body.data.totalElements).toBe(0);
  });

  it('refuses an unknown sort field with a Chinese message', async () => {
    const res = await s.call(account.userPage, { token: admin, query: { sort: 'passwordHash,asc' } });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('排序参数');
  });

  it('never sends password hashes', async () => {
    const res = await s.raw('GET', '/busline/api/user/query/page?size=100', { headers: { authorization: `Bearer ${admin}` } });
    expect(res.text).not.toMatch(/scrypt|passwordHash/);
  });

  it('refuses a foreign district header for a manager and logs it', async () => {
    const before = (await logRows('DENIED')).length;
    const res = await s.call(account.userPage, { token: manager, district: 1 });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 403, msg: Msg.foreignDistrict, data: null });
    expect((await logRows('DENIED')).length).toBe(before + 1);
  });

  it('lets an openDistrict account scope to a chosen district, and refuses one that does not exist', async () => {
    const scoped = await s.call(account.userPage, { token: admin, district: 1, query: { size: 100 } });
    expect(new Set(scoped.body.data.content.map((u) => u.districtId))).toEqual(new Set([1]));
    expect((await s.call(account.userPage, { token: admin, district: 999 })).status).toBe(403);
    expect((await s.call(account.userPage, { token: admin, district: 'abc' })).status).toBe(400);
  });
});

describe('user add', () => {
  const body = (login: string, extra: Record<string, unknown> = {}) => ({
    login,
    firstName: '新员工',
    password: 'Welcome2026',
    authority: 'ROLE_USER',
    groupId: groupId(GROUPS.viewer.name),
    ...extra,
  });

  it('a manager adds an account into the district, with an audit row in the same change', async () => {
    const res = await s.call(account.userAdd, { token: manager, body: body('Newbie01') });
    expect(res.body.code).toBe(1);
    expect(res.body.data).toMatchObject({ login: 'newbie01', districtId: 2, activated: true, authorities: ['ROLE_USER'] });
    const [row] = await logRows('USER_ADD');
    expect(row).toMatchObject({ operatorLogin: 'manager', target: 'newbie01', result: 1 });
    expect(JSON.stringify(row?.after)).not.toContain('scrypt');
    await expect(s.login('newbie01', 'Welcome2026')).resolves.toBeTypeOf('string');
  });

  it('refuses a duplicate login whatever its case, and changes nothing', async () => {
    const n = await countUsers();
    const res = await s.call(account.userAdd, { token: admin, body: body('NEWBIE01', { districtId: 1 }) });
    expect(res.body).toEqual({ code: 0, msg: '用户名已存在', data: { errors: [{ field: 'login', msg: '用户名已存在' }] } });
    expect(await countUsers()).toBe(n);
  });

  it('refuses missing, malformed and too-long fields in Chinese', async () => {
    const n = await countUsers();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...body('x1'), login: undefined }, '用户名不能为空'],
      [body('bad login!'), '用户名只能包含'],
      [body('longname', { firstName: '名'.repeat(33) }), '姓名不能超过32个字符'],
      [body('weakpw', { password: 'abcdefgh' }), '密码须同时包含字母和数字'],
      [body('badrole', { authority: 'ROLE_GOD' }), '角色不正确'],
      [body('badphone', { phone: '12345' }), '手机号应为11位数字'],
    ];
    for (const [payload, message] of cases) {
      const res = await s.call(account.userAdd, { token: admin, district: 1, body: payload });
      expect(res.status, message).toBe(400);
      expect(res.body.code).toBe(400);
      expect(res.body.msg).toContain(message);
    }
    expect(await countUsers()).toBe(n);
  });

  it('a manager may not create a super user, an openDistrict account, or one in another district', async () => {
    const n = await countUsers();
    const tries = [
      body('esc1', { authority: 'ROLE_APP_ADMIN' }),
      body('esc2', { openDistrict: true }),
      body('esc3', { districtId: 1 }),
      body('esc4', { groupId: groupId(GROUPS.super.name) }),
    ];
    for (const payload of tries) {
      const res = await s.call(account.userAdd, { token: manager, body: payload });
      expect(res.status, JSON.stringify(payload)).toBe(403);
    }
    expect(await countUsers()).toBe(n);
  });

  it('an account without USER_ADD is refused with 403', async () => {
    const res = await s.call(account.userAdd, { token: agent, body: body('sneaky') });
    expect(res.status).toBe(403);
    expect(res.body.msg).toBe(Msg.forbidden);
  });
});

describe('user update', () => {
  const find = async (login: string) => {
    const [u] = await s.database.db.select().from(t.users).where(eq(t.users.login, login));
    if (!u) throw new Error(`${login} missing`);
    return u;
  };

  it('disabling an account ends its sessions and refuses its logins', async () => {
    const viewerToken = await s.login('viewer');
    const viewer = await find('viewer');
    const res = await s.call(account.userUpdate, { token: manager, body: { id: viewer.id, activated: false } });
    expect(res.body.data.activated).toBe(false);
    expect((await s.call(auth.currentUser, { token: viewerToken })).status).toBe(401);
    await expect(s.login('viewer')).rejects.toThrow();
    const [log] = await logRows('USER_STATUS');
    expect(log).toMatchObject({ target: 'viewer', operatorLogin: 'manager' });
    expect((log?.before as { activated: boolean }).activated).toBe(true);
    expect((log?.after as { activated: boolean }).activated).toBe(false);
    await s.call(account.userUpdate, { token: manager, body: { id: viewer.id, activated: true } });
    await expect(s.login('viewer')).resolves.toBeTypeOf('string');
  });

  it('a password reset ends the sessions of the account', async () => {
    const u = await find('newbie01');
    const token = await s.login('newbie01', 'Welcome2026');
    const res = await s.call(account.userUpdate, { token: manager, body: { id: u.id, password: 'Reset2026pw' } });
    expect(res.body.code).toBe(1);
    expect((await s.call(auth.currentUser, { token })).status).toBe(401);
    await expect(s.login('newbie01', 'Reset2026pw')).resolves.toBeTypeOf('string');
  });

  it('refuses to touch another district, a super user, or oneself into disabled', async () => {
    const adminRow = await find('admin');
    const staffElsewhere = (await s.database.db.select().from(t.users)).find((u) => u.districtId === 1 && u.login.startsWith('staff'));
    const me = await find('manager');
    if (staffElsewhere) {
      expect((await s.call(account.userUpdate, { token: manager, body: { id: staffElsewhere.id, firstName: '改名' } })).status).toBe(403);
    }
    expect((await s.call(account.userUpdate, { token: manager, body: { id: adminRow.id, firstName: '改名' } })).status).toBe(403);
    const self = await s.call(account.userUpdate, { token: manager, body: { id: me.id, activated: false } });
    expect(self.body).toEqual({ code: 0, msg: '不能禁用当前登录的账号', data: null });
    expect((await find('admin')).firstName).toBe('系统管理员');
  });

  it('answers code 404 (HTTP 200, a business answer) for an account that does not exist', async () => {
    const res = await s.call(account.userUpdate, { token: admin, body: { id: 999_999, firstName: '无' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 404, msg: '账号不存在', data: null });
  });
});

describe('role groups', () => {
  it('only the super user edits a group; the change and its log row land together', async () => {
    const viewerGroup = groupId(GROUPS.viewer.name);
    const refused = await s.call(account.groupUpdate, { token: manager, query: { id: viewerGroup, itemIds: 'USER_ADD' } });
    expect(refused.status).toBe(403);
    const res = await s.call(account.groupUpdate, {
      token: admin,
      query: { id: viewerGroup, itemIds: 'order,order.order-list,REFUND_ORDER', description: '只看乘车记录' },
    });
    expect(res.body.data.itemIds.sort()).toEqual(['REFUND_ORDER', 'order', 'order.order-list']);
    const [log] = await logRows('GROUP_UPDATE');
    expect(log?.operatorLogin).toBe('admin');
    const viewer = await s.login('viewer');
    const items = await s.call(auth.authItems, { token: viewer });
    expect(items.body.data.map((i) => i.id).sort()).toEqual(['REFUND_ORDER', 'order', 'order.order-list']);
  });

  it('refuses unknown items and a duplicate name, changing nothing', async () => {
    const viewerGroup = groupId(GROUPS.viewer.name);
    const before = (await s.call(account.groupList, { token: admin })).body.data.find((g) => g.id === viewerGroup);
    const unknown = await s.call(account.groupUpdate, { token: admin, query: { id: viewerGroup, itemIds: 'order,NOPE' } });
    expect(unknown.body).toMatchObject({ code: 0, msg: '权限项不存在：NOPE' });
    const dup = await s.call(account.groupUpdate, { token: admin, query: { id: viewerGroup, name: GROUPS.agent.name } });
    expect(dup.body.msg).toBe('角色组名称已存在');
    const after = (await s.call(account.groupList, { token: admin })).body.data.find((g) => g.id === viewerGroup);
    expect(after).toEqual(before);
  });
});
