import { activities } from '../../src/server/modules/activity/schema';
import { cardVerifyApplications } from '../../src/server/modules/card-verify/schema';
import { handleCardApplications } from '../../src/server/modules/handle-card/schema';
import { feedback } from '../../src/server/modules/notice-report/schema';
import { packageOrders } from '../../src/server/modules/package-pay/schema';
import { rechargeOrders } from '../../src/server/modules/recharge/schema';
import { walletOrders } from '../../src/server/modules/rechargeable/schema';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, system } from '../../src/shared/api';
import type { RoleGroup, StaffUser } from '../../src/shared/api/account';
import type { District, SysLog } from '../../src/shared/api/system';
import { maskPhone } from '../../src/shared/domain/mask';
import * as t from '../../src/server/db/schema';
import { GROUPS } from '../../src/server/modules/user/seed';
import { freshDatabase } from '../support/test-db';
import { type TestServer, startTestServer } from '../support/test-server';

/**
 * The system log must not carry one district's personal data to another district's managers:
 * rows are filtered by the district they are about, and phones are stored masked.
 */
let s: TestServer;
let admin: string;
let groups: RoleGroup[];
let districts: District[];

const PASSWORD = 'Scope2026pw';
// Digit-bounded: a card centre's transaction number (KZX2026013123524…) holds 11 digits that look like a phone.
const UNMASKED_MOBILE = /(?<!\d)1[3-9]\d{9}(?!\d)/;
const ACCOUNT_TYPES = new Set(['USER_ADD', 'USER_UPDATE', 'USER_STATUS', 'USER_PASSWORD_RESET']);
const OWN_ACCOUNT_TYPES = new Set(['LOGIN', 'LOGIN_FAIL', 'LOCK', 'LOGOUT', 'PASSWORD_CHANGE']);

const groupId = (name: string) => {
  const g = groups.find((x) => x.name === name);
  if (!g) throw new Error(`group ${name} missing`);
  return g.id;
};

interface Staff {
  id: number;
  login: string;
  /** Where it was created; `districtId` is where it is now. */
  home: number;
  districtId: number;
  phones: string[];
}

/** Per district: its manager's token, the staff created in it, and the edits made to them. */
const managers = new Map<number, { login: string; token: string }>();
const staff: Staff[] = [];
/** Accounts moved out of a district during the test: login → the districts they have left. */
const movedOut = new Map<string, Set<number>>();

async function addAccount(body: Record<string, unknown>, district?: number): Promise<StaffUser> {
  const res = await s.call(account.userAdd, { token: admin, district, body: { password: PASSWORD, ...body } });
  if (res.body.code !== 1) throw new Error(`user/add ${String(body.login)}: ${res.body.msg}`);
  return res.body.data;
}

async function editPhone(token: string, who: Staff, phone: string, district?: number) {
  const res = await s.call(account.userUpdate, { token, district, body: { id: who.id, phone } });
  expect(res.body.code, res.body.msg).toBe(1);
  who.phones.push(phone);
}

const phoneFor = (d: number, i: number, n: number) => `13${d}${String(i).padStart(2, '0')}${String(n).padStart(6, '0')}`;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login('admin');
  groups = (await s.call(account.groupList, { token: admin })).body.data;
  districts = (await s.call(system.districtPage, { token: admin, query: { size: 100 } })).body.data.content;
  expect(districts.length).toBeGreaterThanOrEqual(3);

  for (const [i, d] of districts.entries()) {
    const login = `scope_mgr_${i + 1}`;
    await addAccount({ login, firstName: `${d.name}管理员`, authority: 'ROLE_ADMIN', groupId: groupId(GROUPS.manager.name), districtId: d.id });
    managers.set(d.id, { login, token: await s.login(login, PASSWORD) });
    for (let n = 1; n <= 3; n++) {
      const phone = phoneFor(i + 3, n, 1);
      // Some created with the district chosen in the header, some with none.
      const created = await addAccount(
        { login: `scope_${i + 1}_${n}`, firstName: `员工${i + 1}${n}`, phone, authority: 'ROLE_USER', groupId: groupId(GROUPS.agent.name), districtId: d.id },
        n === 3 ? d.id : undefined,
      );
      staff.push({ id: created.id, login: created.login, home: d.id, districtId: d.id, phones: [phone] });
    }
  }

  for (const [i, d] of districts.entries()) {
    const own = staff.filter((x) => x.districtId === d.id);
    const [first, second, third] = own;
    if (!first || !second || !third) throw new Error('staff missing');
    // The super user with no district chosen: the case that leaked.
    await editPhone(admin, first, phoneFor(i + 3, 1, 2));
    await editPhone(admin, second, phoneFor(i + 3, 2, 2));
    // The super user working in the district, and the district's own manager.
    await editPhone(admin, second, phoneFor(i + 3, 2, 3), d.id);
    const mgr = managers.get(d.id);
    if (!mgr) throw new Error('manager missing');
    await editPhone(mgr.token, third, phoneFor(i + 3, 3, 2));
    // A reset, whose row must carry no password of any kind.
    const reset = await s.call(account.userUpdate, { token: admin, body: { id: third.id, password: 'Reset2026pw' } });
    expect(reset.body.code).toBe(1);
    // A failed login of a known account, and a refusal of the district's manager.
    await expect(s.login(first.login, 'wrong-password-1')).rejects.toThrow();
    const other = districts[(i + 1) % districts.length];
    const denied = await s.call(account.userPage, { token: mgr.token, district: other?.id });
    expect(denied.status).toBe(403);
  }

  // A move: the first account of the first district goes to the last district, phone changed too.
  const [from, to] = [districts[0], districts[districts.length - 1]];
  const mover = staff.find((x) => x.districtId === from?.id);
  if (!from || !to || !mover) throw new Error('no account to move');
  const moved = await s.call(account.userUpdate, { token: admin, body: { id: mover.id, districtId: to.id, phone: '13999990000' } });
  expect(moved.body.code, moved.body.msg).toBe(1);
  mover.phones.push('13999990000');
  mover.districtId = to.id;
  movedOut.set(mover.login, new Set([from.id]));

  // Someone typing a phone number as the user name: about no district.
  await expect(s.login('13912345678', 'whatever1')).rejects.toThrow();
});
afterAll(() => s.close());

async function crawl(token: string, size = 7): Promise<SysLog[]> {
  const rows: SysLog[] = [];
  for (let page = 0; ; page++) {
    const res = await s.call(system.sysLogPage, { token, query: { page, size } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(1);
    rows.push(...res.body.data.content);
    if (res.body.data.content.length < size) {
      expect(rows).toHaveLength(res.body.data.totalElements);
      return rows;
    }
  }
}

/** What the database says a row is about, independently of the row's own target_district_id. */
async function districtsBehind(row: SysLog): Promise<{ allowed: Set<number>; why: string }> {
  const db = s.database.db;
  if (ACCOUNT_TYPES.has(row.operationType) || OWN_ACCOUNT_TYPES.has(row.operationType)) {
    const [u] = await db.select().from(t.users).where(eq(t.users.login, row.target ?? ''));
    if (!u) return { allowed: new Set(), why: `no account ${row.target}` };
    if (OWN_ACCOUNT_TYPES.has(row.operationType) && row.operatorId !== u.id) return { allowed: new Set(), why: 'login row of another operator' };
    const left = movedOut.get(u.login);
    // A row carrying data describes the account after the change: for an account that never
    // moved that is its district now; for one that moved, the district the row itself records.
    if (row.after !== null) {
      const described = (row.after as { districtId?: number | null }).districtId ?? -1;
      return { allowed: new Set([left ? described : (u.districtId ?? -1)]), why: `account ${u.login}` };
    }
    // Without data: a login-type row of the account's district at the time, or the notice to a district it left.
    if (ACCOUNT_TYPES.has(row.operationType)) return { allowed: left ?? new Set(), why: `moved-out notice for ${u.login}` };
    return { allowed: new Set([u.districtId ?? -1, ...(left ?? [])]), why: `account ${u.login}` };
  }
  if (row.operationType === 'DENIED') {
    const [u] = await db.select().from(t.users).where(eq(t.users.id, row.operatorId ?? -1));
    return { allowed: new Set([u?.districtId ?? -1]), why: `refused ${u?.login}` };
  }
  if (row.operationType === 'AGREEMENT_SAVE') {
    const [districtId, code] = (row.target ?? '').split('/');
    const [a] = await db.select().from(t.agreements).where(and(eq(t.agreements.districtId, Number(districtId)), eq(t.agreements.code, code ?? '')));
    return { allowed: new Set([a?.districtId ?? -1]), why: `agreement ${row.target}` };
  }
  // The money modules' jobs write rows about their orders (a 可疑 top-up its settled day resolves at
  // start, an unpaid order closed): the order's own district.
  const money = /^(recharge|package-order|wallet-order)\/(\d+)$/.exec(row.target ?? '');
  if (money) {
    const table = { recharge: rechargeOrders, 'package-order': packageOrders, 'wallet-order': walletOrders }[money[1] as 'recharge' | 'package-order' | 'wallet-order'];
    const [o] = await db.select({ districtId: table.districtId }).from(table).where(eq(table.id, Number(money[2])));
    return { allowed: new Set([o?.districtId ?? -1]), why: `order ${row.target}` };
  }
  // The review queues and activities (their seeds and jobs write rows too): the record's own district.
  const record = /^(activity|card-verify|handle-card|feedback)\/(\d+)$/.exec(row.target ?? '');
  if (record) {
    const table = { activity: activities, 'card-verify': cardVerifyApplications, 'handle-card': handleCardApplications, feedback }[record[1] as 'activity' | 'card-verify' | 'handle-card' | 'feedback'];
    const [r] = await db.select({ districtId: table.districtId }).from(table).where(eq(table.id, Number(record[2])));
    return { allowed: new Set([r?.districtId ?? -1]), why: `record ${row.target}` };
  }
  return { allowed: new Set(), why: `${row.operationType} is about no district` };
}

describe('the system log seen by district managers', () => {
  it('shows each manager only rows about the district, none with a phone in clear', async () => {
    const tokens = [...managers.entries()].map(([d, m]) => ({ districtId: d, token: m.token, login: m.login }));
    tokens.push({ districtId: districts[1]?.id ?? -1, token: await s.login('manager'), login: 'manager' });
    for (const m of tokens) {
      const rows = await crawl(m.token);
      expect(rows.length).toBeGreaterThan(0);
      expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
      for (const row of rows) {
        const { allowed, why } = await districtsBehind(row);
        expect(allowed.has(m.districtId), `${m.login} sees ${row.operationType} ${row.target}: ${why}`).toBe(true);
        expect(row.targetDistrictId, `${m.login} sees row ${row.id}`).toBe(m.districtId);
        expect(JSON.stringify(row), `row ${row.id}`).not.toMatch(UNMASKED_MOBILE);
      }
      const dbCount = await s.database.db.select({ id: t.sysLog.id }).from(t.sysLog).where(eq(t.sysLog.targetDistrictId, m.districtId));
      expect(rows).toHaveLength(dbCount.length);
    }
  });

  it('still shows a manager the edits of the district’s own accounts, masked', async () => {
    for (const [districtId, m] of managers) {
      const rows = await crawl(m.token, 50);
      // Edits by the super user with no district chosen, by the super user in the district and by the manager.
      const own = staff.filter((x) => x.districtId === districtId && !movedOut.has(x.login));
      for (const who of own) {
        const edits = rows.filter((r) => r.target === who.login && r.operationType === 'USER_UPDATE' && r.after !== null);
        const seen = edits.map((r) => (r.after as { phone: string }).phone).sort();
        expect(seen, who.login).toEqual(who.phones.slice(1).map(maskPhone).sort());
        for (const r of edits) expect((r.before as { phone: string }).phone).toMatch(/^\d{3}\*{4}\d{4}$/);
        expect(rows.some((r) => r.operationType === 'USER_ADD' && r.target === who.login)).toBe(true);
      }
      const born = staff.filter((x) => x.home === districtId);
      expect(rows.some((r) => r.operationType === 'LOGIN_FAIL' && r.result === 0 && born.some((x) => x.login === r.target))).toBe(true);
      expect(rows.some((r) => r.operationType === 'DENIED' && r.operatorLogin === m.login)).toBe(true);
      expect(rows.some((r) => r.operationType === 'LOGIN' && r.operatorLogin === m.login)).toBe(true);
    }
  });

  it('tells the old district that an account left, without its new state; the new district gets the change', async () => {
    const [login, left] = [...movedOut.entries()][0] ?? [];
    if (!login || !left) throw new Error('no move');
    const fromId = [...left][0] ?? -1;
    const toId = districts[districts.length - 1]?.id ?? -1;
    const oldRows = (await crawl(managers.get(fromId)?.token ?? '', 50)).filter((r) => r.target === login);
    const notice = oldRows.find((r) => r.summary.includes('调出'));
    expect(notice).toMatchObject({ operationType: 'USER_UPDATE', before: null, after: null, targetDistrictId: fromId });
    expect(oldRows.some((r) => (r.after as { districtId?: number } | null)?.districtId === toId)).toBe(false);
    const newRows = (await crawl(managers.get(toId)?.token ?? '', 50)).filter((r) => r.target === login);
    const change = newRows.find((r) => (r.after as { districtId?: number } | null)?.districtId === toId);
    expect(change).toMatchObject({ before: { districtId: fromId }, after: { districtId: toId, phone: '139****0000' } });
  });

  it('a super user working in a district sees that district’s rows; with none chosen, every row', async () => {
    const d = districts[2]?.id ?? -1;
    const res = await s.call(system.sysLogPage, { token: admin, district: d, query: { size: 1000 } });
    expect(res.body.data.content.length).toBeGreaterThan(0);
    expect(res.body.data.content.every((r) => r.targetDistrictId === d)).toBe(true);
    const all = await s.call(system.sysLogPage, { token: admin, query: { size: 1 } });
    const [{ n } = { n: 0 }] = await s.database.db.select({ n: sql<number>`count(*)::int` }).from(t.sysLog);
    expect(all.body.data.totalElements).toBe(n);
    // A name typed at login that is no account (here a phone number) is counted, not kept, and the
    // count is about no district: only an unscoped reader sees it.
    const rows = await s.database.db.select().from(t.sysLog);
    expect(JSON.stringify(rows)).not.toContain('13912345678');
    const unknown = rows.filter((r) => r.operationType === 'LOGIN_FAIL' && r.summary.startsWith('未知用户名登录失败'));
    expect(unknown.length).toBeGreaterThan(0);
    expect(unknown.every((r) => r.targetDistrictId === null && r.target === null && r.operatorLogin === null)).toBe(true);
  });
});

describe('the stored rows', () => {
  it('hold masked phones in before and after, and no password of any kind', async () => {
    const logins = staff.map((x) => x.login);
    const rows = await s.database.db
      .select()
      .from(t.sysLog)
      .where(and(inArray(t.sysLog.target, logins), inArray(t.sysLog.operationType, [...ACCOUNT_TYPES])));
    const withPhone = rows.filter((r) => r.after !== null);
    expect(withPhone.length).toBeGreaterThanOrEqual(staff.length * 2);
    for (const r of withPhone) {
      const json = JSON.stringify([r.before, r.after]);
      expect(json).not.toMatch(UNMASKED_MOBILE);
      expect(json).not.toMatch(/password|scrypt|Reset2026pw/i);
      expect((r.after as { phone: string }).phone).toMatch(/^\d{3}\*{4}\d{4}$/);
      if (r.before !== null) expect((r.before as { phone: string }).phone).toMatch(/^\d{3}\*{4}\d{4}$/);
    }
    for (const who of staff) {
      const stored = rows.filter((r) => r.target === who.login && r.after !== null).map((r) => (r.after as { phone: string }).phone);
      for (const p of who.phones) expect(stored, who.login).toContain(maskPhone(p));
    }
  });

  it('record who acted where apart from what the row is about', async () => {
    const first = staff.find((x) => x.districtId === districts[1]?.id);
    const [row] = await s.database.db
      .select()
      .from(t.sysLog)
      .where(and(eq(t.sysLog.target, first?.login ?? ''), eq(t.sysLog.operationType, 'USER_UPDATE'), eq(t.sysLog.operatorLogin, 'admin')));
    // The super user's own district (the first one) is where they acted, not what they acted on.
    expect(row).toMatchObject({ districtId: districts[0]?.id, targetDistrictId: districts[1]?.id });
  });
});

describe('migration 0001 on a database with history', () => {
  const folder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/server/db/migrations');
  const statements = (file: string) =>
    fs
      .readFileSync(path.join(folder, file), 'utf8')
      .split('--> statement-breakpoint')
      .map((x) => x.trim())
      .filter(Boolean);

  it('backfills the district each row is about and masks stored phones', async () => {
    // Runs the migrations by hand, from the first: an empty database, not the run's migrated copy.
    const database = await freshDatabase({ unmigrated: true });
    try {
      const { db } = database;
      const run = async (file: string) => {
        for (const stmt of statements(file)) await db.execute(sql.raw(stmt));
      };
      const [second] = fs.readdirSync(folder).filter((f) => f.startsWith('0001_') && f.endsWith('.sql'));
      if (!second) throw new Error('migration 0001 missing');
      await run('0000_init.sql');
      await db.execute(sql`insert into districts (id, name, code) values (1, '黄浦区', '310101'), (2, '徐汇区', '310104'), (3, '崇明区', '310151')`);
      await db.execute(sql`insert into users (id, login, first_name, phone, password_hash, authorities, district_id, open_district, password_changed_at, created_at, updated_at) values
        (1, 'admin', '系统管理员', null, 'h', '{ROLE_APP_ADMIN}', 1, true, now(), now(), now()),
        (2, 'mgr', '黄浦区管理员', null, 'h', '{ROLE_ADMIN}', 1, false, now(), now(), now()),
        (3, 'cm01', '张三', '13800138001', 'h', '{ROLE_USER}', 3, false, now(), now(), now()),
        (4, 'roam', '漫游', null, 'h', '{ROLE_APP_ADMIN}', null, true, now(), now(), now())`);
      await db.execute(sql`insert into agreements (id, district_id, code, title, content, created_at, updated_at) values (1, 2, 'privacy', '隐私政策', 'x', now(), now())`);
      const log = (id: number, type: string, operatorId: number | null, operator: string | null, target: string | null, districtId: number | null, before: unknown = null, after: unknown = null) =>
        db.execute(sql`insert into sys_log (id, operator_id, operator_login, operation_type, target, summary, before, after, result, district_id, created_at)
          values (${id}, ${operatorId}, ${operator}, ${type}, ${target}, 's', ${before === null ? null : JSON.stringify(before)}::jsonb, ${after === null ? null : JSON.stringify(after)}::jsonb, 1, ${districtId}, now())`);
      await log(1, 'USER_UPDATE', 1, 'admin', 'CM01', 1, { phone: '13800138001', districtId: 3 }, { phone: '13900139002', districtId: 3, firstName: '张三' });
      await log(2, 'USER_ADD', 1, 'admin', 'cm01', 1, null, { phone: null });
      await log(3, 'LOGIN', 3, 'cm01', 'cm01', 3);
      await log(4, 'LOGIN_FAIL', null, 'cm01', 'cm01', null);
      await log(5, 'LOGIN_FAIL', null, 'nobody', 'nobody', null);
      await log(6, 'DENIED', 2, 'mgr', 'user.byId', 1);
      await log(7, 'AGREEMENT_SAVE', 2, 'mgr', '2/privacy', 1, { content: 'a' }, { content: 'b' });
      await log(8, 'GROUP_UPDATE', 1, 'admin', '客服坐席组', 1, { name: 'a' }, { name: 'b' });
      await log(9, 'LOGOUT', 9, 'gone', 'gone', 2);
      await log(10, 'LOGOUT', 4, 'roam', 'roam', 2);
      await log(11, 'USER_UPDATE', 1, 'admin', 'mgr', null, { phone: ' 02112345678 ' }, { phone: '138****8001' });
      await log(12, 'AGREEMENT_SAVE', 1, 'admin', 'garbage', 1);
      await run(second);
      // Only the columns 0001 knows: later migrations add more.
      const rows = await db
        .select({ id: t.sysLog.id, targetDistrictId: t.sysLog.targetDistrictId, before: t.sysLog.before, after: t.sysLog.after })
        .from(t.sysLog)
        .orderBy(t.sysLog.id);
      expect(rows.map((r) => [r.id, r.targetDistrictId])).toEqual([
        [1, 3],
        [2, 3],
        [3, 3],
        [4, null],
        [5, null],
        [6, 1],
        [7, 2],
        [8, null],
        [9, 2],
        [10, null],
        [11, 1],
        [12, null],
      ]);
      expect(rows[0]?.before).toEqual({ phone: '138****8001', districtId: 3 });
      expect(rows[0]?.after).toEqual({ phone: '139****9002', districtId: 3, firstName: '张三' });
      expect(rows[1]?.after).toEqual({ phone: null });
      expect(rows[10]?.before).toEqual({ phone: '021******78' });
      expect(rows[10]?.after).toEqual({ phone: '138****8001' });
      expect(JSON.stringify(rows)).not.toMatch(UNMASKED_MOBILE);
    } finally {
      await database.close();
    }
  });
});
