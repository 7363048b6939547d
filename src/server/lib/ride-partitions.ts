import { sql } from 'drizzle-orm';
import type { Db } from '../db/connection';
import { shanghaiMonth } from '../../shared/domain/time';

/**
 * Monthly partitions of `ride_records` (README decision 86). Months are Shanghai months, the
 * business's calendar: `ride_records_y2026m11` holds 2026-11-01 00:00 to 2026-12-01 00:00 +08:00.
 * Created ahead by the server's job; every instance may run it, and a month created meanwhile by
 * another is not an error.
 */

const next = ({ y, m }: { y: number; m: number }) => (m === 12 ? { y: y + 1, m: 1 } : { y, m: m + 1 });
const bound = ({ y, m }: { y: number; m: number }) => `${y}-${String(m).padStart(2, '0')}-01T00:00:00+08:00`;
const monthStart = (mo: { y: number; m: number }) => new Date(bound(mo));
export const partitionName = ({ y, m }: { y: number; m: number }) => `ride_records_y${y}m${String(m).padStart(2, '0')}`;

/** Creates the month partitions covering `from` to `to` that do not exist yet; returns the names it created. */
export async function ensureRidePartitions(db: Db, from: Date, to: Date): Promise<string[]> {
  const created: string[] = [];
  const last = shanghaiMonth(to);
  for (let mo = shanghaiMonth(from); mo.y < last.y || (mo.y === last.y && mo.m <= last.m); mo = next(mo)) {
    const name = partitionName(mo);
    const exists = (await db.execute(sql`select to_regclass(${name}) is not null as e`)) as unknown as { rows: { e: boolean }[] };
    if (exists.rows[0]?.e) continue;
    try {
      await db.execute(sql.raw(`create table if not exists "${name}" partition of ride_records for values from ('${bound(mo)}') to ('${bound(next(mo))}')`));
      created.push(name);
    } catch (err) {
      // Another instance created it between the check and here: PostgreSQL says so as "exists"
      // (42P07) or, mid-creation, as a duplicate catalogue row (23505). Drizzle wraps the driver's error.
      const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
      if (code !== '42P07' && code !== '23505') throw err;
    }
  }
  return created;
}

/** How far ahead the job keeps months ready: this one and the next two. */
export const MONTHS_AHEAD = 2;

export function ensureAhead(db: Db, now: Date): Promise<string[]> {
  // Counted in Shanghai months: adding months to the UTC date skips one when Shanghai is already
  // in the next month (2026-11-30 16:30Z is December 1st there, and +2 UTC months lands in January).
  let month = shanghaiMonth(now);
  for (let i = 0; i < MONTHS_AHEAD; i++) month = next(month);
  return ensureRidePartitions(db, now, monthStart(month));
}
