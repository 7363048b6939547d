import { maskInText, maskPersonal } from '../../shared/domain/mask';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/connection';
import { sysLog } from '../db/schema';
import { publishChange } from './changes';

// Operation types and their labels are declared by the modules (src/shared/modules).
export { OPERATION_TYPES, type OperationType } from '../../shared/api';
import type { OperationType } from '../../shared/api';

export interface Actor {
  id: number | null;
  login: string | null;
  districtId: number | null;
  ip: string | null;
}

/** The jobs' and the seed's actor: no account, no address (a rider's own move is written so too). */
export const SYSTEM_ACTOR: Actor = { id: null, login: 'system', districtId: null, ip: null };

export interface AuditEntry {
  type: OperationType;
  /**
   * The district the row is about, which decides who reads it: a district-scoped account sees
   * only rows about its district; null means about no district (only unscoped accounts see it).
   * Required so that every call site decides; the operator's own district is `Actor.districtId`.
   */
  targetDistrictId: number | null;
  target?: string | null;
  summary: string;
  before?: unknown;
  after?: unknown;
  result?: 0 | 1;
  /**
   * Repeats with the same key add to one row (its `after.count` and summary) instead of a row each:
   * for events an outsider can repeat at will, so the log cannot be flooded.
   */
  aggregateKey?: string;
  /**
   * The record changed, as the live console names it, when `target` does not say it as `kind/id`
   * (an account's target is its login): its rows and open forms are marked by it.
   */
  record?: { kind: string; id: string | number };
}

/**
 * Pass the transaction of the change so the row commits or rolls back with it. `before`/`after`
 * are masked here, in one place, so no call site can store a phone or a password in clear.
 */
export async function audit(db: Db, actor: Actor, entry: AuditEntry, at: Date): Promise<void> {
  if (entry.aggregateKey) return auditAggregate(db, actor, entry, entry.aggregateKey, at);
  await db.insert(sysLog).values({
    operatorId: actor.id,
    operatorLogin: actor.login,
    operationType: entry.type,
    target: entry.target ?? null,
    // A summary quotes what the operator typed (a reason, a note): numbers in it are masked too.
    summary: maskInText(entry.summary),
    before: entry.before === undefined || entry.before === null ? null : maskPersonal(entry.before),
    after: entry.after === undefined || entry.after === null ? null : maskPersonal(entry.after),
    ip: actor.ip,
    result: entry.result ?? 1,
    districtId: actor.districtId,
    targetDistrictId: entry.targetDistrictId,
    createdAt: at,
  });
  // In the same transaction: the consoles hear of the change when it commits, and never if it rolls back.
  await publishChange(db, actor, entry, at);
}

async function auditAggregate(db: Db, actor: Actor, entry: AuditEntry, key: string, at: Date): Promise<void> {
  const count = sql`coalesce((${sysLog.after}->>'count')::int, 1) + 1`;
  await db
    .insert(sysLog)
    .values({
      operatorId: actor.id,
      operatorLogin: actor.login,
      operationType: entry.type,
      target: entry.target ?? null,
      summary: `${entry.summary}（1次）`,
      after: { count: 1, lastAt: at.toISOString() },
      ip: actor.ip,
      result: entry.result ?? 1,
      districtId: actor.districtId,
      targetDistrictId: entry.targetDistrictId,
      aggregateKey: key,
      createdAt: at,
    })
    .onConflictDoUpdate({
      target: sysLog.aggregateKey,
      targetWhere: sql`${sysLog.aggregateKey} is not null`,
      set: {
        after: sql`jsonb_build_object('count', ${count}, 'lastAt', ${at.toISOString()}::text)`,
        summary: sql`${entry.summary} || '（' || (${count})::text || '次）'`,
      },
    });
}
