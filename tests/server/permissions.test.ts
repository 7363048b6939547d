import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ButtonKey, type Endpoint, account } from '../../src/shared/api';
import { endpoints } from '../../src/shared/api/contract';
import * as t from '../../src/server/db/schema';
import { GROUPS } from '../../src/server/modules/user/seed';
import { type TestServer, startTestServer } from '../support/test-server';

let s: TestServer;
let admin: string;
let viewerGroupId: number;
let staffId: number;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login('admin');
  const groups = (await s.call(account.groupList, { token: admin })).body.data;
  viewerGroupId = groups.find((g) => g.name === GROUPS.viewer.name)?.id ?? -1;
  // A clerk in the viewer's own role group and district: never stronger than the viewer.
  const clerk = await s.call(account.userAdd, {
    token: admin,
    body: { login: 'clerk', firstName: '文员', password: 'Clerk2026pw', authority: 'ROLE_USER', groupId: viewerGroupId, districtId: 2 },
  });
  staffId = clerk.body.data.id;
});
afterAll(() => s.close());

/** Gives the viewer's role group exactly these button items, and a fresh viewer session. */
async function viewerWith(buttons: string[]): Promise<string> {
  const res = await s.call(account.groupUpdate, { token: admin, query: { id: viewerGroupId, itemIds: buttons.join(',') } });
  expect(res.body.code).toBe(1);
  return s.login('viewer');
}

const byButton = endpoints.flatMap((e) =>
  e.permission.kind === 'grant' ? (e.permission.buttons ?? []).map((key) => [key, e] as [ButtonKey, Endpoint]) : [],
);

describe('every button key of the contract', () => {
  it.each(byButton.map(([key, e]) => [key, e.id, e] as const))('%s opens %s, and its absence refuses it', async (key, _id, endpoint) => {
    // An empty body fails validation (400) only after the permission passed: a 400 proves access.
    // A GET takes its input in the query (none here): the same 400 after the permission passed.
    const empty = endpoint.method === 'GET' ? {} : { body: {} };
    const without = await s.call(endpoint, { token: await viewerWith([]), ...empty, params: { id: 1 } });
    expect(without.status).toBe(403);
    expect(without.body.code).toBe(403);
    const withKey = await s.call(endpoint, { token: await viewerWith([key]), ...empty, params: { id: 1 } });
    // With the key the empty body reaches validation: exactly the 400 of a bad form, nothing worse;
    // a call that needs no input at all (the refund rule's GET) answers.
    const needsNothing = endpoint.query.safeParse({}).success && (endpoint.method === 'GET' || endpoint.body.safeParse({}).success);
    expect([withKey.status, withKey.body.code]).toEqual(needsNothing ? [200, 1] : [400, 400]);
  });
});

describe('user/update checks which fields move', () => {
  it('USER_UPDATE_STATUS alone may enable/disable but not edit', async () => {
    const token = await viewerWith(['USER_UPDATE_STATUS']);
    const rename = await s.call(account.userUpdate, { token, body: { id: staffId, firstName: '改名' } });
    expect(rename.status).toBe(403);
    const toggle = await s.call(account.userUpdate, { token, body: { id: staffId, activated: false } });
    expect(toggle.body.data.activated).toBe(false);
    await s.call(account.userUpdate, { token, body: { id: staffId, activated: true } });
  });

  it('USER_ADD alone may edit but not enable/disable', async () => {
    const token = await viewerWith(['USER_ADD']);
    const toggle = await s.call(account.userUpdate, { token, body: { id: staffId, activated: false } });
    expect(toggle.status).toBe(403);
    const rename = await s.call(account.userUpdate, { token, body: { id: staffId, firstName: '文员小王' } });
    expect(rename.body.data.firstName).toBe('文员小王');
    const [row] = await s.database.db.select().from(t.users).where(eq(t.users.id, staffId));
    expect(row?.activated).toBe(true);
  });
});

describe('role-only grants', () => {
  it('ROLE_ADMIN endpoints open for the manager and stay shut for a plain user with every button', async () => {
    const manager = await s.login('manager');
    const viewer = await viewerWith(['USER_ADD', 'USER_UPDATE_STATUS', 'REFUND_ORDER']);
    const roleOnly = endpoints.filter((e) => e.permission.kind === 'grant' && !e.permission.buttons?.length && e.permission.roles?.includes('ROLE_ADMIN'));
    expect(roleOnly.length).toBeGreaterThan(0);
    for (const e of roleOnly) {
      // The clerk's record is in the manager's district, so only the role decides.
      const input = { params: { id: staffId }, body: e.method === 'GET' ? undefined : {} };
      // Let through: a read (or a write that takes no input, 生成二维码) answers, a write with an
      // empty body fails validation; never 403 or 500.
      // Whether empty input passes the endpoint's own schemas decides which of the two it is.
      const acceptsEmpty = e.query.safeParse({}).success && (e.bodyType === 'none' || e.body.safeParse({}).success);
      const res = await s.call(e, { ...input, token: manager });
      expect([res.status, res.body.code], e.id).toEqual(acceptsEmpty ? [200, 1] : [400, 400]);
      expect((await s.call(e, { ...input, token: viewer })).status, e.id).toBe(403);
    }
  });
});
