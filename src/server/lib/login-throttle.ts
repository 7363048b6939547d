import { createHmac } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/connection';
import * as t from '../db/schema';

/**
 * Password attempts per source (`sourceOf`, lib/address.ts) and typed name since the last success.
 * An attempt is counted BEFORE its password is hashed, in one atomic upsert: concurrent requests
 * from one address are numbered one by one, and only the first `limit` get their password checked,
 * however many arrive at once and on however many server instances.
 */
/** The typed name is stored only as a keyed hash: it may be a password typed into the wrong field. */
export const nameKeyOf = (secret: Uint8Array, login: string) =>
  // Prefixed so this use of the server secret can never produce what another use of it does.
  createHmac('sha256', secret).update(`login-throttle\u0000${login}`).digest('base64url').slice(0, 32);

export interface Reservation {
  /** This attempt's number since the last success (within the window). */
  attempt: number;
  /** Set once the limit is reached: this source may not try this name again before then. */
  lockedUntil: Date | null;
  /** Over the limit: refuse without checking the password. */
  refused: boolean;
}

export async function reserveAttempt(
  db: Db,
  key: { source: string; nameKey: string },
  policy: { limit: number; windowMs: number; lockMs: number },
  now: Date,
): Promise<Reservation> {
  const windowStart = new Date(now.getTime() - policy.windowMs);
  const lockUntil = new Date(now.getTime() + policy.lockMs);
  const locked = sql`(${t.loginThrottle.lockedUntil} is not null and ${t.loginThrottle.lockedUntil} > ${now})`;
  // A window that has run out starts again at 1, unless a lock is still on (attempts keep counting).
  const restart = sql`(not ${locked} and ${t.loginThrottle.windowStart} <= ${windowStart})`;
  const next = sql`(case when ${restart} then 1 else ${t.loginThrottle.attempts} + 1 end)`;
  const [row] = await db
    .insert(t.loginThrottle)
    .values({ ...key, attempts: 1, windowStart: now, lockedUntil: policy.limit <= 1 ? lockUntil : null })
    .onConflictDoUpdate({
      target: [t.loginThrottle.source, t.loginThrottle.nameKey],
      set: {
        attempts: next,
        windowStart: sql`case when ${restart} then ${now} else ${t.loginThrottle.windowStart} end`,
        lockedUntil: sql`case when ${locked} then ${t.loginThrottle.lockedUntil} when ${next} >= ${policy.limit} then ${lockUntil} else null end`,
      },
    })
    .returning({ attempts: t.loginThrottle.attempts, lockedUntil: t.loginThrottle.lockedUntil });
  const attempt = row?.attempts ?? 1;
  return { attempt, lockedUntil: row?.lockedUntil ?? null, refused: attempt > policy.limit };
}

/** A success forgets the source's attempts at that name. */
export async function clearSource(db: Db, key: { source: string; nameKey: string }): Promise<void> {
  await db.delete(t.loginThrottle).where(and(eq(t.loginThrottle.source, key.source), eq(t.loginThrottle.nameKey, key.nameKey)));
}

/** An administrator's password reset lifts every source's lock on the name. */
export async function clearName(db: Db, nameKey: string): Promise<void> {
  await db.delete(t.loginThrottle).where(eq(t.loginThrottle.nameKey, nameKey));
}

const SWEEP_EVERY_MS = 5 * 60_000;
let lastSweep = 0;

/** Rows whose window and lock are both over say nothing any more; an attacker's names do not pile up. */
export function sweepExpired(db: Db, windowMs: number, now: Date): void {
  if (now.getTime() - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = now.getTime();
  const windowStart = new Date(now.getTime() - windowMs);
  void db
    .delete(t.loginThrottle)
    .where(and(lt(t.loginThrottle.windowStart, windowStart), or(isNull(t.loginThrottle.lockedUntil), lt(t.loginThrottle.lockedUntil, now))))
    .catch(() => undefined);
}
