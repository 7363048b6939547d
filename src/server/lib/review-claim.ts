import { type SQL, and, asc, eq, gt, inArray, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/connection';
import { users } from '../db/schema';
import { fail } from './errors';

/**
 * Review claims (second wave §4, §10): a reviewer who takes an application holds it for a while, so
 * two reviewers never judge one. Generic over any table with an id, a status and two claim columns
 * (`claim_by` → users, `claim_until`), so 线上验卡 and 线上办卡 share one rule:
 * - the next pending row nobody holds is taken with `for update skip locked` (two reviewers pressing
 *   Enter at once get two different rows, never one);
 * - a row held by someone else is refused with its holder's name; an expired claim is free;
 * - ROLE_ADMIN may take a live claim over (the caller decides who may, and audits it);
 * - a decision checks the claim on the locked row and clears it in the same update.
 * The columns are named by drizzle column, so each module keeps its own table and names.
 */
export interface ClaimSpec {
  table: PgTable;
  id: AnyPgColumn;
  status: AnyPgColumn;
  claimBy: AnyPgColumn;
  claimUntil: AnyPgColumn;
  /** The queue's order (oldest first), ties by id. */
  createdAt: AnyPgColumn;
  /** The status a row waits in. */
  pending: number;
  ttlMs: number;
  /** The refusals, in the module's words. */
  refusals: { decided: string; claimedBy(name: string): string };
}

export interface ClaimHolder {
  id: number;
  name: string;
}

/** Who holds a claim now (null: nobody, or it expired). */
export const liveClaim = (row: { claimBy: number | null; claimUntil: Date | null }, now: Date): number | null =>
  row.claimBy !== null && row.claimUntil !== null && row.claimUntil.getTime() > now.getTime() ? row.claimBy : null;

async function nameOf(db: Db, userId: number): Promise<string> {
  const [u] = await db.select({ firstName: users.firstName, login: users.login }).from(users).where(eq(users.id, userId));
  return u?.firstName || u?.login || `用户${userId}`;
}

const col = (c: AnyPgColumn) => sql.identifier(c.name);

export function reviewClaims(spec: ClaimSpec) {
  const until = (now: Date) => new Date(now.getTime() + spec.ttlMs);

  /** Locks one row and reads what a claim or a decision needs of it (null: no such row). */
  async function lockRow(tx: Db, id: number) {
    const [row] = await tx
      .select({ status: spec.status, claimBy: spec.claimBy, claimUntil: spec.claimUntil })
      .from(spec.table)
      .where(eq(spec.id, id))
      .for('update');
    return row ? { status: Number(row.status), claimBy: (row.claimBy as number | null) ?? null, claimUntil: (row.claimUntil as Date | null) ?? null } : null;
  }

  const setClaim = (tx: Db, id: number, userId: number | null, at: Date | null) =>
    tx.execute(sql`update ${spec.table} set ${col(spec.claimBy)} = ${userId}, ${col(spec.claimUntil)} = ${at} where ${col(spec.id)} = ${id}`);

  return {
    /**
     * Takes the next pending row for `userId`: one it already holds first, else the oldest nobody
     * holds (or whose claim ran out), within `where`, skipping `skip`. Rows another transaction is
     * taking are skipped, not waited for. Answers the id, or null when the queue is empty.
     */
    async next(tx: Db, q: { userId: number; now: Date; where?: SQL; skip?: readonly number[] }): Promise<number | null> {
      const free = or(isNull(spec.claimUntil), lt(spec.claimUntil, q.now), eq(spec.claimBy, q.userId));
      const [row] = await tx
        .select({ id: spec.id })
        .from(spec.table)
        .where(and(eq(spec.status, spec.pending), free, q.where, q.skip?.length ? notInArray(spec.id, [...q.skip]) : undefined))
        .orderBy(sql`(${spec.claimBy} = ${q.userId} and ${spec.claimUntil} > ${q.now}) desc nulls last`, asc(spec.createdAt), asc(spec.id))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!row) return null;
      const id = row.id as number;
      await setClaim(tx, id, q.userId, until(q.now));
      return id;
    },

    /**
     * Claims one row for `userId` (renewing a claim it holds). Refused when the row is no longer
     * pending, or when another holds it and `takeOver` is not allowed. Answers the previous holder
     * when this was a take-over.
     */
    async claim(tx: Db, q: { id: number; userId: number; now: Date; takeOver: boolean }): Promise<{ takenFrom: ClaimHolder | null } | null> {
      const row = await lockRow(tx, q.id);
      if (!row) return null;
      if (row.status !== spec.pending) throw fail(spec.refusals.decided);
      const holder = liveClaim(row, q.now);
      let takenFrom: ClaimHolder | null = null;
      if (holder !== null && holder !== q.userId) {
        const name = await nameOf(tx, holder);
        if (!q.takeOver) throw fail(spec.refusals.claimedBy(name));
        takenFrom = { id: holder, name };
      }
      await setClaim(tx, q.id, q.userId, until(q.now));
      return { takenFrom };
    },

    /**
     * Before a decision, on the row locked in the deciding transaction: it must be in `from`, and
     * not held by someone else (unless taking over). The decision's own update clears the claim.
     */
    async assertMayDecide(tx: Db, q: { id: number; from: number; userId: number; now: Date; takeOver: boolean }): Promise<{ takenFrom: ClaimHolder | null } | null> {
      const row = await lockRow(tx, q.id);
      if (!row) return null;
      if (row.status !== q.from) throw fail(spec.refusals.decided);
      const holder = liveClaim(row, q.now);
      if (holder !== null && holder !== q.userId) {
        const name = await nameOf(tx, holder);
        if (!q.takeOver) throw fail(spec.refusals.claimedBy(name));
        return { takenFrom: { id: holder, name } };
      }
      return { takenFrom: null };
    },

    /** Gives a claim back (only one's own); answers whether one was held. */
    async release(tx: Db, q: { id: number; userId: number }): Promise<boolean> {
      const rows = await tx.execute(
        sql`update ${spec.table} set ${col(spec.claimBy)} = null, ${col(spec.claimUntil)} = null where ${col(spec.id)} = ${q.id} and ${col(spec.claimBy)} = ${q.userId} returning ${col(spec.id)}`,
      );
      return ((rows as unknown as { rows: unknown[] }).rows ?? []).length > 0;
    },

    /** The rows among `ids` someone other than `userId` holds now, with the holder: a batch refuses them. */
    async heldByOthers(tx: Db, q: { ids: readonly number[]; userId: number; now: Date }): Promise<{ id: number; holder: ClaimHolder }[]> {
      if (!q.ids.length) return [];
      const rows = await tx
        .select({ id: spec.id, claimBy: spec.claimBy })
        .from(spec.table)
        .where(and(inArray(spec.id, [...q.ids]), gt(spec.claimUntil, q.now), sql`${spec.claimBy} <> ${q.userId}`));
      const out: { id: number; holder: ClaimHolder }[] = [];
      for (const r of rows) out.push({ id: r.id as number, holder: { id: r.claimBy as number, name: await nameOf(tx, r.claimBy as number) } });
      return out;
    },

    /** Names of the holders of live claims, for a page of rows. */
    async names(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
      const out = new Map<number, string>();
      const unique = [...new Set(ids)];
      if (!unique.length) return out;
      const rows = await db.select({ id: users.id, firstName: users.firstName, login: users.login }).from(users).where(inArray(users.id, unique));
      for (const r of rows) out.set(r.id, r.firstName || r.login);
      return out;
    },
  };
}

export type ReviewClaims = ReturnType<typeof reviewClaims>;
