import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { Msg, type auth } from '../../../shared/api';
import type { z } from 'zod';
import type { AppDeps, AuthContext } from '../../context';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { type Actor, audit } from '../../lib/audit';
import { fail } from '../../lib/errors';
import { itemsOf } from '../../lib/grants';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../../lib/password';
import { endSessions, signSessionToken } from '../../plugins/auth';

export const LOCKOUT = { failures: 5, windowMs: 15 * 60_000, lockMs: 30 * 60_000 };

type LoginResult = z.input<typeof auth.loginResult>;

interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

export async function login(deps: AppDeps, username: string, password: string, client: ClientInfo): Promise<LoginResult> {
  const { db, clock } = deps;
  const loginName = username.trim().toLowerCase();
  const now = clock.now();
  const anonymous: Actor = { id: null, login: loginName, districtId: null, ip: client.ip };
  const [user] = await db.select().from(t.users).where(eq(t.users.login, loginName));

  if (!user) {
    await verifyPassword(password, DUMMY_HASH);
    await audit(db, anonymous, { type: 'LOGIN_FAIL', targetDistrictId: null, target: loginName, summary: '用户名不存在', result: 0 }, now);
    throw fail(Msg.loginFailed);
  }
  const actor: Actor = { id: user.id, login: user.login, districtId: user.districtId, ip: client.ip };
  if (user.lockedUntil && user.lockedUntil > now) {
    await verifyPassword(password, DUMMY_HASH);
    await audit(db, actor, { type: 'LOGIN_FAIL', targetDistrictId: user.districtId, target: user.login, summary: '账号锁定中', result: 0 }, now);
    throw fail(Msg.loginFailed);
  }
  const passwordOk = await verifyPassword(password, user.passwordHash);
  if (!passwordOk) {
    await countFailure(db, actor, now);
    throw fail(Msg.loginFailed);
  }
  if (!user.activated) {
    await audit(db, actor, { type: 'LOGIN_FAIL', targetDistrictId: user.districtId, target: user.login, summary: '账号已禁用', result: 0 }, now);
    throw fail(Msg.loginFailed);
  }

  const sessionId = randomUUID();
  await db.transaction(async (tx) => {
    // The row lock orders racing logins of one account: each ends the sessions before it. Re-read
    // under it, so a password change, reset or disable that committed meanwhile wins.
    const [fresh] = await tx.select().from(t.users).where(eq(t.users.id, user.id)).for('update');
    if (!fresh || fresh.passwordHash !== user.passwordHash || !fresh.activated || (fresh.lockedUntil && fresh.lockedUntil > now)) {
      throw fail(Msg.loginFailed);
    }
    await endSessions(tx, user.id, 'replaced', now);
    await tx.insert(t.sessions).values({
      id: sessionId,
      userId: user.id,
      createdAt: now,
      lastSeenAt: now,
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 300) ?? null,
    });
    await tx
      .update(t.users)
      .set({ failedCount: 0, failedWindowStart: null, lockedUntil: null })
      .where(eq(t.users.id, user.id));
    await audit(tx, actor, { type: 'LOGIN', targetDistrictId: user.districtId, target: user.login, summary: '登录成功' }, now);
  });

  const ageSeconds = Math.max(0, Math.floor((now.getTime() - user.passwordChangedAt.getTime()) / 1000));
  return {
    idToken: await signSessionToken(deps, sessionId, user.id, now),
    tokenExpiredSecond: deps.config.tokenTtlSeconds,
    passwordIsExpired: ageSeconds >= deps.config.passwordMaxAgeDays * 86_400,
    passwordExpiredSecond: ageSeconds,
  };
}

/**
 * One statement counts the failure and, at exactly the fifth within the window, locks the account.
 * The UPDATE's row lock makes racing failures count one by one, so only one of them sees 5 and
 * writes the LOCK row; failures that raced past the lock check go on counting (6, 7, ...) harmlessly.
 */
async function countFailure(db: Db, actor: Actor, now: Date, summary = '密码错误'): Promise<void> {
  const windowStart = new Date(now.getTime() - LOCKOUT.windowMs);
  const lockUntil = new Date(now.getTime() + LOCKOUT.lockMs);
  const fresh = sql`(${t.users.failedWindowStart} is null or ${t.users.failedWindowStart} <= ${windowStart})`;
  const next = sql`(case when ${fresh} then 1 else ${t.users.failedCount} + 1 end)`;
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(t.users)
      .set({
        failedCount: next,
        failedWindowStart: sql`case when ${fresh} then ${now} else ${t.users.failedWindowStart} end`,
        lockedUntil: sql`case when ${next} = ${LOCKOUT.failures} then ${lockUntil} else ${t.users.lockedUntil} end`,
      })
      .where(eq(t.users.id, actor.id ?? -1))
      .returning({ failedCount: t.users.failedCount, districtId: t.users.districtId });
    const targetDistrictId = row?.districtId ?? null;
    await audit(tx, actor, { type: 'LOGIN_FAIL', targetDistrictId, target: actor.login, summary, result: 0 }, now);
    if (row?.failedCount === LOCKOUT.failures) {
      await audit(tx, actor, { type: 'LOCK', targetDistrictId, target: actor.login, summary: `连续${LOCKOUT.failures}次密码错误，锁定30分钟`, result: 0 }, now);
    }
  });
}

export async function logout(deps: AppDeps, a: AuthContext): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await tx.update(t.sessions).set({ endedAt: now, endReason: 'logout' }).where(eq(t.sessions.id, a.session.id));
    await audit(tx, a.actor, { type: 'LOGOUT', targetDistrictId: a.user.districtId, target: a.user.login, summary: '退出登录' }, now);
  });
}

export async function changePassword(deps: AppDeps, a: AuthContext, oldPassword: string, newPassword: string): Promise<void> {
  if (!(await verifyPassword(oldPassword, a.user.passwordHash))) {
    // Counted with login failures: a borrowed session must not be a way to guess the password.
    await countFailure(deps.db, a.actor, deps.clock.now(), '修改密码时原密码错误');
    throw fail(Msg.oldPasswordWrong);
  }
  if (oldPassword === newPassword) throw fail('新密码不能与原密码相同');
  const hash = await hashPassword(newPassword);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await tx.update(t.users).set({ passwordHash: hash, passwordChangedAt: now, updatedAt: now }).where(eq(t.users.id, a.user.id));
    // Every session of the account ends, this one too: the next call asks for the new password.
    await endSessions(tx, a.user.id, 'password', now);
    await audit(tx, a.actor, { type: 'PASSWORD_CHANGE', targetDistrictId: a.user.districtId, target: a.user.login, summary: '修改了自己的密码' }, now);
  });
}

export async function currentUser(deps: AppDeps, a: AuthContext): Promise<z.input<typeof auth.userInfo>> {
  const group = a.user.groupId
    ? (await deps.db.select({ name: t.roleGroups.name }).from(t.roleGroups).where(eq(t.roleGroups.id, a.user.groupId)))[0]
    : undefined;
  return {
    authority: a.user.authorities.map((name) => ({ name })),
    firstName: a.user.firstName,
    login: a.user.login,
    aId: a.user.id,
    openDistrict: a.user.openDistrict,
    districtId: a.user.districtId,
    groupId: a.user.groupId,
    groupName: group?.name ?? null,
  };
}

export const authItemsOf = (deps: AppDeps, a: AuthContext) => itemsOf(deps.db, a.roles, a.user.groupId);
