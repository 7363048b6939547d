import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { AppDeps, AuthContext, UserRow } from '../../context';
import * as t from '../../db/schema';
import { type Actor, audit } from '../../lib/audit';
import { fail } from '../../lib/errors';
import { endSessions } from '../../plugins/auth';
import { sourceOf, tooManyRequests } from './login-limits';

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

/** Refuses before any hashing while this source may not try this name. */
export async function assertSourceOpen(deps: AppDeps, ip: string, login: string, now: Date): Promise<void> {
  const [row] = await deps.db
    .select({ lockedUntil: t.loginThrottle.lockedUntil })
    .from(t.loginThrottle)
    .where(and(eq(t.loginThrottle.source, sourceOf(ip)), eq(t.loginThrottle.login, login)));
  if (row?.lockedUntil && row.lockedUntil > now) throw lockedOut(row.lockedUntil, now);
}

/**
 * Counts one failure in one transaction: the source's counter, the account's counter, the log rows
 * and whatever lock they reach. Known and unknown names run the same statements (the account update
 * simply matches no row), so the work does not tell them apart.
 */
export async function recordFailure(deps: AppDeps, attempt: Attempt, summary: string, now: Date): Promise<void> {
  const source = sourceOf(attempt.ip);
  const windowStart = new Date(now.getTime() - LOCKOUT.windowMs);
  const lockUntil = new Date(now.getTime() + LOCKOUT.lockMs);
  await deps.db.transaction(async (tx) => {
    const srcFresh = sql`${t.loginThrottle.windowStart} <= ${windowStart}`;
    const srcNext = sql`(case when ${srcFresh} then 1 else ${t.loginThrottle.failures} + 1 end)`;
    const [src] = await tx
      .insert(t.loginThrottle)
      .values({ source, login: attempt.login, failures: 1, windowStart: now, lockedUntil: null })
      .onConflictDoUpdate({
        target: [t.loginThrottle.source, t.loginThrottle.login],
        set: {
          failures: srcNext,
          windowStart: sql`case when ${srcFresh} then ${now} else ${t.loginThrottle.windowStart} end`,
          lockedUntil: sql`case when ${srcNext} = ${LOCKOUT.sourceFailures} then ${lockUntil} else ${t.loginThrottle.lockedUntil} end`,
        },
      })
      .returning({ failures: t.loginThrottle.failures });

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
      // Unknown names: one row per address and quarter hour, counting, and the name is not kept
      // (people type their password into the name field).
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
    const sourceLocked = src?.failures === LOCKOUT.sourceFailures;
    const accountLocked = account.failedCount === LOCKOUT.accountFailures;
    if (sourceLocked) {
      await audit(tx, attempt.actor, { ...about, type: 'LOCK', summary: `来自 ${source} 连续${LOCKOUT.sourceFailures}次密码错误，该地址30分钟内不能再试此账号` }, now);
    }
    if (accountLocked) {
      await audit(tx, attempt.actor, { ...about, type: 'LOCK', summary: `15分钟内${LOCKOUT.accountFailures}次密码错误，账号锁定30分钟` }, now);
    }
    if (accountLocked || (sourceLocked && attempt.via === 'session')) await endSessions(tx, account.id, 'locked', now);
  });
  sweepExpired(deps, now);
}

/** A successful login forgets the source's failures for that name. */
export async function clearSource(db: AppDeps['db'], ip: string, login: string): Promise<void> {
  await db.delete(t.loginThrottle).where(and(eq(t.loginThrottle.source, sourceOf(ip)), eq(t.loginThrottle.login, login)));
}

const SWEEP_EVERY_MS = 5 * 60_000;
let lastSweep = 0;

/** Rows whose window and lock are both over say nothing any more; an attacker's names do not pile up. */
function sweepExpired(deps: AppDeps, now: Date): void {
  if (now.getTime() - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = now.getTime();
  const windowStart = new Date(now.getTime() - LOCKOUT.windowMs);
  void deps.db
    .delete(t.loginThrottle)
    .where(and(lt(t.loginThrottle.windowStart, windowStart), or(isNull(t.loginThrottle.lockedUntil), lt(t.loginThrottle.lockedUntil, now))))
    .catch(() => undefined);
}

/**
 * A signed-in account re-enters its own password (修改密码, and the `pwd` of unbinding a family
 * card): refused while locked, counted like a login failure when wrong (logged as `say.failure`),
 * answered `say.wrong`.
 */
export async function verifyOwnPassword(
  deps: AppDeps,
  a: AuthContext,
  ip: string,
  password: string,
  say: { failure: string; wrong: string },
): Promise<void> {
  const now = deps.clock.now();
  if (a.user.lockedUntil && a.user.lockedUntil > now) throw lockedOut(a.user.lockedUntil, now);
  await assertSourceOpen(deps, ip, a.user.login, now);
  if (await deps.passwords.verify(password, a.user.passwordHash)) return;
  await recordFailure(deps, { ip, login: a.user.login, user: a.user, actor: a.actor, via: 'session' }, say.failure, now);
  throw fail(say.wrong);
}

export const stillLocked = (user: UserRow, now: Date) => !!user.lockedUntil && user.lockedUntil > now;
