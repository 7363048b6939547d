import { asc, count, eq, inArray, or } from 'drizzle-orm';
import type { z } from 'zod';
import { Msg, account, isAllowed } from '../../../shared/api';
import type { AppDeps, AuthContext } from '../../context';
import { isSuperUser } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { audit } from '../../lib/audit';
import { fail, failOn, forbidden, notFound, uniqueOr } from '../../lib/errors';
import { groupExceeds, rankOf } from '../../lib/grants';
import { clearName, nameKeyOf } from '../../lib/login-throttle';
import { type ListContext, listService } from '../../lib/list';
import { checkVersion, nextVersion, updateVersioned } from '../../lib/row-version';
import { assertInScope } from '../../lib/scope';
import { contains, iso } from '../../lib/sql';
import { endSessions } from '../../plugins/auth';

type StaffUserInput = z.input<typeof account.staffUser>;
type UserPageQuery = z.output<typeof account.userPage.query>;
type AddBody = z.output<typeof account.userAdd.body>;
type UpdateBody = z.output<typeof account.userUpdate.body>;

const userColumns = {
  user: t.users,
  groupName: t.roleGroups.name,
  districtName: t.districts.name,
};

function toDto(row: { user: typeof t.users.$inferSelect; groupName: string | null; districtName: string | null }, now: Date, manageable: boolean): StaffUserInput {
  const u = row.user;
  return {
    manageable,
    id: u.id,
    login: u.login,
    firstName: u.firstName,
    phone: u.phone,
    activated: u.activated,
    authorities: u.authorities as StaffUserInput['authorities'],
    groupId: u.groupId,
    groupName: row.groupName,
    districtId: u.districtId,
    districtName: row.districtName,
    openDistrict: u.openDistrict,
    locked: !!u.lockedUntil && u.lockedUntil > now,
    createdDate: iso(u.createdAt),
    lastModifiedDate: iso(u.updatedAt),
    passwordChangedDate: iso(u.passwordChangedAt),
    rowVersion: u.rowVersion,
  };
}

const selectUsers = (db: Db) =>
  db
    .select(userColumns)
    .from(t.users)
    .leftJoin(t.roleGroups, eq(t.roleGroups.id, t.users.groupId))
    .leftJoin(t.districts, eq(t.districts.id, t.users.districtId));

/** 账号列表: the area's accounts, each with whether this operator may touch it (`manageable`). */
const userList = listService({
  endpoint: account.userPage,
  select: selectUsers,
  count: (db) => db.select({ n: count() }).from(t.users),
  scope: t.users.districtId,
  filters: {
    keyword: (k) => or(contains(t.users.login, k), contains(t.users.firstName, k), contains(t.users.phone, k)),
    activated: (on) => eq(t.users.activated, on),
    groupId: (groupId) => eq(t.users.groupId, groupId),
    // Only an account on 全部区域 narrows by area; everyone else is kept to their own by the scope.
    districtId: (districtId, _q, a) => (a.districtScope === null ? eq(t.users.districtId, districtId) : undefined),
  },
  sorts: { login: t.users.login, firstName: t.users.firstName, createdDate: t.users.createdAt, lastModifiedDate: t.users.updatedAt },
  order: { column: t.users.id, dir: 'asc' },
  key: { column: t.users.id, of: (r) => r.user.id },
  async dto(r, { deps, a, memo }: ListContext<AuthContext>) {
    // One check per role group on the page, not per row.
    const exceeds = (groupId: number) => {
      const key = `group:${groupId}`;
      if (!memo.has(key)) memo.set(key, groupExceeds(deps.db, groupId, a.user.groupId));
      return memo.get(key) as Promise<boolean>;
    };
    return toDto(r, deps.clock.now(), await mayTouch(a, r.user, exceeds));
  },
});

export const pageUsers = (deps: AppDeps, a: AuthContext, q: UserPageQuery) => userList.page(deps, a, q);

async function loadUser(db: Db, id: number) {
  const [row] = await selectUsers(db).where(eq(t.users.id, id));
  if (!row) throw notFound('账号不存在');
  return row;
}

const LOGIN_TAKEN = { field: 'login', msg: '用户名已存在' };
const GROUP_NAME_TAKEN = { field: 'name', msg: '角色组名称已存在' };

const outranked = () => forbidden('不能操作权限高于自己的账号');

/**
 * Whom an operator may act on: accounts of the district they work in and, unless they are the
 * super user, no more powerful than themselves (role, openDistrict, role-group items). Without the
 * last rule a manager could reset the password of a stronger account and log in as it.
 */
async function assertCanTouch(db: Db, a: AuthContext, target: typeof t.users.$inferSelect) {
  assertInScope(a, target.districtId);
  if (!(await mayTouch(a, target, (groupId) => groupExceeds(db, groupId, a.user.groupId)))) throw outranked();
}

/**
 * The same rule as a yes/no, sent with every account as `manageable` so the console offers 编辑 and
 * 禁用 exactly where the server will accept them.
 */
async function mayTouch(a: AuthContext, target: typeof t.users.$inferSelect, exceeds: (groupId: number) => Promise<boolean>): Promise<boolean> {
  if (a.districtScope !== null && target.districtId !== a.districtScope) return false;
  if (isSuperUser(a)) return true;
  if (target.openDistrict && !a.user.openDistrict) return false;
  if (rankOf(target.authorities) > rankOf(a.roles)) return false;
  return target.groupId === null || !(await exceeds(target.groupId));
}

const touchable = (db: Db, a: AuthContext, target: typeof t.users.$inferSelect) => mayTouch(a, target, (groupId) => groupExceeds(db, groupId, a.user.groupId));

export async function getUser(deps: AppDeps, a: AuthContext, id: number) {
  const row = await loadUser(deps.db, id);
  assertInScope(a, row.user.districtId);
  return toDto(row, deps.clock.now(), await touchable(deps.db, a, row.user));
}

/**
 * What a non-super operator may hand out: no role above their own, no openDistrict, no district
 * but the one they work in, and no role group holding items they do not hold themselves.
 */
async function assertGrantable(
  db: Db,
  a: AuthContext,
  spec: { authority?: string; openDistrict?: boolean; districtId?: number | null; groupId?: number },
) {
  if (spec.groupId !== undefined) {
    const [g] = await db.select({ id: t.roleGroups.id }).from(t.roleGroups).where(eq(t.roleGroups.id, spec.groupId));
    if (!g) throw failOn('groupId', '角色组不存在');
  }
  if (spec.districtId !== undefined && spec.districtId !== null) {
    const [d] = await db.select({ id: t.districts.id }).from(t.districts).where(eq(t.districts.id, spec.districtId));
    if (!d) throw failOn('districtId', '区域不存在');
  }
  if (isSuperUser(a)) return;
  if (spec.authority !== undefined && rankOf([spec.authority]) > rankOf(a.roles)) throw forbidden('不能授予高于自己的角色');
  if (spec.openDistrict) throw forbidden('只有超级管理员可以开放区域切换');
  if (spec.districtId !== undefined && a.districtScope !== null && spec.districtId !== a.districtScope) {
    throw forbidden(Msg.foreignDistrict);
  }
  if (spec.groupId !== undefined && (await groupExceeds(db, spec.groupId, a.user.groupId))) {
    throw forbidden('不能分配权限多于自己的角色组');
  }
}

function publicView(u: typeof t.users.$inferSelect) {
  const { passwordHash: _h, failedCount: _c, failedWindowStart: _w, ...rest } = u;
  return rest;
}

export async function addUser(deps: AppDeps, a: AuthContext, body: AddBody) {
  const login = body.login.toLowerCase();
  const districtId = body.districtId ?? a.districtScope ?? null;
  if (!body.openDistrict && districtId === null) throw failOn('districtId', '请选择账号所属区域');
  const hash = await deps.passwords.hash(body.password);
  const now = deps.clock.now();
  return uniqueOr(LOGIN_TAKEN, () =>
    deps.db.transaction(async (tx) => {
      await assertGrantable(tx, a, { authority: body.authority, openDistrict: body.openDistrict, districtId, groupId: body.groupId });
      const [row] = await tx
        .insert(t.users)
        .values({
          login,
          firstName: body.firstName,
          phone: body.phone ?? null,
          passwordHash: hash,
          activated: body.activated,
          authorities: [body.authority],
          groupId: body.groupId,
          districtId,
          openDistrict: body.openDistrict,
          passwordChangedAt: now,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing()
        .returning();
      if (!row) throw failOn(LOGIN_TAKEN.field, LOGIN_TAKEN.msg);
      await audit(tx, a.actor, { type: 'USER_ADD', targetDistrictId: row.districtId, target: login, record: { kind: 'user', id: row.id }, summary: `新增账号 ${login}（${body.firstName}）`, after: publicView(row) }, now);
      const saved = await loadUser(tx, row.id);
      return toDto(saved, now, await touchable(tx, a, saved.user));
    }),
  );
}

export async function updateUser(deps: AppDeps, a: AuthContext, body: UpdateBody) {
  const { id, activated, password, authority, rowVersion: sentVersion, ...fields } = body;
  const hash = password ? await deps.passwords.hash(password) : undefined;
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    // Locked for the whole change, so a concurrent edit cannot slip between check and write.
    const [target] = await tx.select().from(t.users).where(eq(t.users.id, id)).for('update');
    if (!target) throw notFound('账号不存在');
    await assertCanTouch(tx, a, target);
    await checkVersion(target, sentVersion, async () => {
      const fresh = await loadUser(tx, id);
      return toDto(fresh, now, await touchable(tx, a, fresh.user));
    });
    const changesStatus = activated !== undefined && activated !== target.activated;
    const changesProfile = password !== undefined || authority !== undefined || Object.values(fields).some((v) => v !== undefined);
    if (changesStatus && !isAllowed(account.userStatusPermission, a)) throw forbidden();
    if (changesProfile && !isAllowed(account.userEditPermission, a)) throw forbidden();
    if (target.id === a.user.id) {
      if (changesStatus && activated === false) throw fail('不能禁用当前登录的账号');
      // One's own password changes only with the old one, through 修改密码.
      if (password !== undefined) throw failOn('password', '请通过“修改密码”修改自己的密码');
      const ownGrants = authority !== undefined || fields.groupId !== undefined || fields.districtId !== undefined || fields.openDistrict !== undefined;
      if (ownGrants && !isSuperUser(a)) throw forbidden('不能修改自己的角色、角色组或区域');
    }
    const nextOpen = fields.openDistrict ?? target.openDistrict;
    const nextDistrict = fields.districtId === undefined ? target.districtId : fields.districtId;
    if (!nextOpen && nextDistrict === null) throw failOn('districtId', '请选择账号所属区域');
    await assertGrantable(tx, a, {
      authority,
      openDistrict: fields.openDistrict && !target.openDistrict ? true : undefined,
      districtId: fields.districtId,
      groupId: fields.groupId !== undefined && fields.groupId !== target.groupId ? fields.groupId : undefined,
    });
    const [row] = await tx
      .update(t.users)
      .set({
        ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
        ...(authority ? { authorities: [authority] } : {}),
        ...(activated !== undefined ? { activated } : {}),
        ...(hash ? { passwordHash: hash, passwordChangedAt: now, failedCount: 0, lockedUntil: null } : {}),
        updatedAt: now,
        rowVersion: nextVersion(t.users.rowVersion),
      })
      .where(eq(t.users.id, id))
      .returning();
    if (!row) throw notFound('账号不存在');
    if (changesStatus && activated === false) await endSessions(tx, id, 'disabled', now);
    if (hash) {
      await endSessions(tx, id, 'password', now);
      // A reset is how an administrator lets a locked-out user back in: every address's lock on the name goes too.
      await clearName(tx, nameKeyOf(deps.jwtKey, target.login));
    }
    const type = hash ? 'USER_PASSWORD_RESET' : changesStatus && !changesProfile ? 'USER_STATUS' : 'USER_UPDATE';
    const summary = changesStatus ? `${activated ? '启用' : '禁用'}账号 ${target.login}` : `编辑账号 ${target.login}`;
    // The row is about the district the account belongs to after the change: its managers may
    // read the account now, so before and after tell them nothing they could not look up.
    await audit(tx, a.actor, { type, targetDistrictId: row.districtId, target: target.login, record: { kind: 'user', id }, summary, before: publicView(target), after: publicView(row) }, now);
    if (target.districtId !== null && target.districtId !== row.districtId) {
      // The old district's managers learn that the account left, but not its new state.
      await audit(tx, a.actor, { type: 'USER_UPDATE', targetDistrictId: target.districtId, target: target.login, record: { kind: 'user', id }, summary: `账号 ${target.login} 已调出本区域` }, now);
    }
    const saved = await loadUser(tx, id);
    return toDto(saved, now, await touchable(tx, a, saved.user));
  });
}

type GroupQuery = z.output<typeof account.groupUpdate.query>;

async function groupDtos(db: Db, ids?: number[]) {
  const groups = await db
    .select()
    .from(t.roleGroups)
    .where(ids ? inArray(t.roleGroups.id, ids) : undefined)
    .orderBy(asc(t.roleGroups.id));
  const groupIds = groups.map((g) => g.id);
  if (!groupIds.length) return [];
  const items = await db.select().from(t.roleGroupItems).where(inArray(t.roleGroupItems.groupId, groupIds));
  const users = await db
    .select({ groupId: t.users.groupId, n: count() })
    .from(t.users)
    .where(inArray(t.users.groupId, groupIds))
    .groupBy(t.users.groupId);
  return groups.map((g) => ({
    id: g.id,
    name: g.name,
    description: g.description,
    itemIds: items.filter((i) => i.groupId === g.id).map((i) => i.itemId),
    userCount: users.find((u) => u.groupId === g.id)?.n ?? 0,
    rowVersion: g.rowVersion,
  }));
}

export const listGroups = (deps: AppDeps) => groupDtos(deps.db);

export async function updateGroup(deps: AppDeps, a: AuthContext, q: GroupQuery) {
  const now = deps.clock.now();
  return uniqueOr(GROUP_NAME_TAKEN, () =>
    deps.db.transaction(async (tx) => {
      await tx.select({ id: t.roleGroups.id }).from(t.roleGroups).where(eq(t.roleGroups.id, q.id)).for('update');
      const [before] = await groupDtos(tx, [q.id]);
      if (!before) throw notFound('角色组不存在');
      await checkVersion(before, q.rowVersion, () => before);
      if (q.name && q.name !== before.name) {
        const [dup] = await tx.select({ id: t.roleGroups.id }).from(t.roleGroups).where(eq(t.roleGroups.name, q.name));
        if (dup) throw failOn(GROUP_NAME_TAKEN.field, GROUP_NAME_TAKEN.msg);
      }
      if (q.itemIds?.length) {
        const known = await tx.select({ id: t.authItems.id }).from(t.authItems).where(inArray(t.authItems.id, q.itemIds));
        const unknown = q.itemIds.filter((i) => !known.some((k) => k.id === i));
        if (unknown.length) throw failOn('itemIds', `权限项不存在：${unknown.slice(0, 5).join('、')}`);
      }
      await updateVersioned(tx, {
        table: t.roleGroups,
        key: t.roleGroups.id,
        id: q.id,
        version: q.rowVersion,
        set: { ...(q.name ? { name: q.name } : {}), ...(q.description !== undefined ? { description: q.description } : {}), updatedAt: now },
        current: () => before,
      });
      if (q.itemIds) {
        await tx.delete(t.roleGroupItems).where(eq(t.roleGroupItems.groupId, q.id));
        if (q.itemIds.length) await tx.insert(t.roleGroupItems).values(q.itemIds.map((itemId) => ({ groupId: q.id, itemId })));
      }
      const [after] = await groupDtos(tx, [q.id]);
      if (!after) throw notFound('角色组不存在');
      // Role groups are shared by every district.
      await audit(tx, a.actor, { type: 'GROUP_UPDATE', targetDistrictId: null, target: before.name, summary: `编辑角色组 ${before.name}`, before, after }, now);
      return after;
    }),
  );
}
