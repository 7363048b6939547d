import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { Msg, type auth } from '../../../shared/api';
import type { z } from 'zod';
import type { AppDeps, AuthContext } from '../../context';
import * as t from '../../db/schema';
import { type Actor, audit } from '../../lib/audit';
import { fail, failOn } from '../../lib/errors';
import { itemsOf } from '../../lib/grants';
import { DUMMY_HASH } from '../../lib/password';
import { endSessions, signSessionToken } from '../../plugins/auth';
import { admitAttempt, forgetAttempts, recordFailure, stillLocked, verifyOwnPassword } from './credential-guard';
import { normalizeLogin } from './login-limits';

type LoginResult = z.input<typeof auth.loginResult>;

interface ClientInfo {
  ip: string;
  userAgent: string | null;
  /** The per-name attempt limit, checked once the name is known and before any hashing. */
  checkRate(login: string): Promise<void>;
}

export async function login(deps: AppDeps, username: string, password: string, client: ClientInfo): Promise<LoginResult> {
  const started = performance.now();
  const { db, clock } = deps;
  const loginName = normalizeLogin(username);
  const now = clock.now();

  // The source's count first: an address it has locked out cannot use up the name's budget.
  const source = { ip: client.ip, login: loginName };
  const reservation = await admitAttempt(deps, source, now);
  await client.checkRate(loginName);
  const [user] = await db.select().from(t.users).where(eq(t.users.login, loginName));
  const actor: Actor = user
    ? { id: user.id, login: user.login, districtId: user.districtId, ip: client.ip }
    : { id: null, login: loginName, districtId: null, ip: client.ip };
  const attempt = { ...source, user: user ?? null, actor, via: 'login' as const };

  // Unknown names, locked and disabled accounts are checked against a dummy hash: the same work as a
  // real check, and always a counted failure, so no answer (or its absence later) says which it was.
  const why = !user ? '用户名不存在' : stillLocked(user, now) ? '账号锁定中' : !user.activated ? '账号已禁用' : null;
  const passwordOk = await deps.passwords.verify(password, user && !why ? user.passwordHash : DUMMY_HASH);
  if (!user || why || !passwordOk) {
    await recordFailure(deps, attempt, reservation, why ?? '密码错误', now);
    // Every refusal takes at least the same time, whatever its cause (Decision 33).
    await sleep(deps.config.login.failureFloorMs - (performance.now() - started));
    throw fail(Msg.loginFailed);
  }

  const sessionId = randomUUID();
  await db.transaction(async (tx) => {
    // The row lock orders racing logins of one account: each ends the sessions before it. Re-read
    // under it, so a password change, reset, disable or lock that committed meanwhile wins.
    const [fresh] = await tx.select().from(t.users).where(eq(t.users.id, user.id)).for('update');
    if (!fresh || fresh.passwordHash !== user.passwordHash || !fresh.activated || stillLocked(fresh, now)) {
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
    await forgetAttempts(deps, tx, source);
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

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve());

export async function logout(deps: AppDeps, a: AuthContext): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await tx.update(t.sessions).set({ endedAt: now, endReason: 'logout' }).where(eq(t.sessions.id, a.session.id));
    await audit(tx, a.actor, { type: 'LOGOUT', targetDistrictId: a.user.districtId, target: a.user.login, summary: '退出登录' }, now);
  });
}

export async function changePassword(deps: AppDeps, a: AuthContext, ip: string, oldPassword: string, newPassword: string): Promise<void> {
  // Counted and locked like a login: a borrowed session is no way to guess the password.
  await verifyOwnPassword(deps, a, ip, oldPassword, { failure: '修改密码时原密码错误', wrong: Msg.oldPasswordWrong, field: 'oldPassword' });
  if (oldPassword === newPassword) throw failOn('newPassword', '新密码不能与原密码相同');
  const hash = await deps.passwords.hash(newPassword);
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
