import { eq, sql } from 'drizzle-orm';
import type { AppDeps, AuthContext, UserRow } from '../../context';
import * as t from '../../db/schema';
import { type Actor, audit } from '../../lib/audit';
import { failOn } from '../../lib/errors';
import { sourceOf } from '../../lib/address';
import { type Reservation, clearSource, nameKeyOf, reserveAttempt, sweepExpired } from '../../lib/login-throttle';
import { endSessions } from '../../plugins/auth';
import { tooManyRequests } from './login-limits';

/**
 * Two counters for every wrong password, wherever it is typed (login, 修改密码, the `pwd`
 * re-entry of sensitive actions):
 * - per source: address + name. Five failures in 15 minutes lock that pair for 30 minutes (the
 *   spec's "连续失败5次将锁定30分钟"). An anonymous flood backs off its own address; the account's
 *   owner elsewhere logs in as usual. Unknown names are counted the same way, so a lock says
 *   nothing about whether the name exists.
 * - per account: twenty failures from all sources together lock the account itself for 30 minutes
 *   and end its sessions: a guess spread over many addresses is stopped too.
 * A lock reached through a signed-in session (someone guessing with a borrowed session) also ends
 * the account's sessions.
 */
export const LOCKOUT = { sourceFailures: 5, accountFailures: 20, windowMs: 15 * 60_000, lockMs: 30 * 60_000 } as const;

const minutesLeft = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));

export const lockedOut = (until: Date, now: Date) =>
  tooManyRequests(`连续失败${LOCKOUT.sourceFailures}次，已锁定，请${minutesLeft(until, now)}分钟后再试`, (until.getTime() - now.getTime()) / 1000);

export interface Attempt {
  ip: string;
  /** Normalised (trimmed, lower-case) name as typed; the account may not exist. */
  login: string;
  user: UserRow | null;
  actor: Actor;
  via: 'login' | 'session';
}

const POLICY = { limit: LOCKOUT.sourceFailures, windowMs: LOCKOUT.windowMs, lockMs: LOCKOUT.lockMs };

const keyOf = (deps: AppDeps, attempt: Pick<Attempt, 'ip' | 'login'>) => ({ source: sourceOf(attempt.ip), nameKey: nameKeyOf(deps.jwtKey, attempt.login) });

/**
 * Numbers this attempt before its password is hashed and refuses (429 + Retry-After) past the
 * source's limit, so a burst of concurrent guesses gets no more than five checked. Known and unknown
 * names alike: a lock says nothing about whether a name exists.
 */
export async function admitAttempt(deps: AppDeps, attempt: Pick<Attempt, 'ip' | 'login'>, now: Date): Promise<Reservation> {
  const r = await reserveAttempt(deps.db, keyOf(deps, attempt), POLICY, now);
  if (r.refused) throw lockedOut(r.lockedUntil ?? new Date(now.getTime() + LOCKOUT.lockMs), now);
  return r;
}

/** A success forgets the source's attempts at the name (pass the transaction of the login). */
export const forgetAttempts = (deps: AppDeps, db: AppDeps['db'], attempt: Pick<Attempt, 'ip' | 'login'>) => clearSource(db, keyOf(deps, attempt));

/**
 * Records a failed attempt (already numbered by admitAttempt) in one transaction: the account's
 * counter, the log rows, and the locks reached. Known and unknown names run the same statements (the
 * account update matches no row for an unknown name), so the work does not tell them apart. It
 * touches only `users` and `sys_log`, never the throttle row, so it cannot deadlock with a login or
 * a reset (both lock `users` first).
 */
export async function recordFailure(deps: AppDeps, attempt: Attempt, reservation: Reservation, summary: string, now: Date): Promise<void> {
  const source = sourceOf(attempt.ip);
  const windowStart = new Date(now.getTime() - LOCKOUT.windowMs);
  const lockUntil = new Date(now.getTime() + LOCKOUT.lockMs);
  await deps.db.transaction(async (tx) => {
    // The row lock of this UPDATE orders racing failures: exactly one of them sees the threshold.
    const accFresh = sql`(${t.users.failedWindowStart} is null or ${t.users.failedWindowStart} <= ${windowStart})`;
    const accNext = sql`(case when ${accFresh} then 1 else ${t.users.failedCount} + 1 end)`;
    const [account] = await tx
      .update(t.users)
      .set({
        failedCount: accNext,
        failedWindowStart: sql`case when ${accFresh} then ${now} else ${t.users.failedWindowStart} end`,
        lockedUntil: sql`case when ${accNext} = ${LOCKOUT.accountFailures} then ${lockUntil} else ${t.users.lockedUntil} end`,
      })
      .where(eq(t.users.login, attempt.login))
      .returning({ id: t.users.id, failedCount: t.users.failedCount, districtId: t.users.districtId });

    if (!account) {
      // Unknown names: one row per address and quarter hour, counting, and the name is not kept.
      const bucket = Math.floor(now.getTime() / LOCKOUT.windowMs);
      await audit(
        tx,
        { ...attempt.actor, login: null },
        { type: 'LOGIN_FAIL', targetDistrictId: null, target: null, summary: '未知用户名登录失败', result: 0, aggregateKey: `unknown-login:${source}:${bucket}` },
        now,
      );
      return;
    }
    const about = { targetDistrictId: account.districtId, target: attempt.login, result: 0 as const };
    await audit(tx, attempt.actor, { ...about, type: 'LOGIN_FAIL', summary }, now);
    const sourceLocked = reservation.attempt === LOCKOUT.sourceFailures;
    const accountLocked = account.failedCount === LOCKOUT.accountFailures;
    if (sourceLocked) {
      await audit(tx, attempt.actor, { ...about, type: 'LOCK', summary: `来自 ${source} 连续${LOCKOUT.sourceFailures}次密码错误，该地址30分钟内不能再试此账号` }, now);
    }
    if (accountLocked) {
      await audit(tx, attempt.actor, { ...about, type: 'LOCK', summary: `15分钟内${LOCKOUT.accountFailures}次密码错误，账号锁定30分钟` }, now);
    }
    if (accountLocked || (sourceLocked && attempt.via === 'session')) await endSessions(tx, account.id, 'locked', now);
  });
  sweepExpired(deps.db, LOCKOUT.windowMs, now);
}

/**
 * A signed-in account re-enters its own password (修改密码, and the `pwd` of unbinding a family
 * card): refused while locked, counted like a login failure when wrong (logged as `say.failure`),
 * answered `say.wrong` under the form's `say.field`.
 */
export async function verifyOwnPassword(
  deps: AppDeps,
  a: AuthContext,
  ip: string,
  password: string,
  say: { failure: string; wrong: string; field: string },
): Promise<void> {
  const now = deps.clock.now();
  if (stillLocked(a.user, now)) throw lockedOut(a.user.lockedUntil ?? now, now);
  const attempt: Attempt = { ip, login: a.user.login, user: a.user, actor: a.actor, via: 'session' };
  const reservation = await admitAttempt(deps, attempt, now);
  if (await deps.passwords.verify(password, a.user.passwordHash)) {
    await forgetAttempts(deps, deps.db, attempt);
    return;
  }
  await recordFailure(deps, attempt, reservation, say.failure, now);
  throw failOn(say.field, say.wrong);
}

export const stillLocked = (user: UserRow, now: Date) => !!user.lockedUntil && user.lockedUntil > now;
