import { type SQL, asc, eq } from 'drizzle-orm';
import type { AppDeps } from '../context';
import type { Db } from '../db/connection';
import * as t from '../db/schema';
import { maskedRider } from './masked-rider';
import { iso } from './sql';

/** Cards with their holder, if any: what every card answer reads. */
export const selectCards = (db: Db) => db.select({ c: t.busCards, r: t.riders }).from(t.busCards).leftJoin(t.riders, eq(t.riders.id, t.busCards.riderId));

type CardRow = { c: typeof t.busCards.$inferSelect; r: typeof t.riders.$inferSelect | null };

/** A card as every answer shows it (lookup, card view, card list): the holder masked. */
export const cardDto = (pii: AppDeps['pii'], { c, r }: CardRow) => ({
  id: c.id,
  cardNo: c.cardNo,
  districtId: c.districtId,
  state: c.state,
  category: c.category,
  balance: c.balance,
  issuedDate: iso(c.issuedAt),
  holder: r ? (({ id, name, phone }) => ({ id, name, phone }))(maskedRider(pii, r)) : null,
});

/** The first cards that meet `cond` (a lookup's few, one card's view), in id order. */
export async function cardRows(deps: Pick<AppDeps, 'db' | 'pii'>, cond: SQL | undefined, opts: { limit: number }) {
  const rows = await selectCards(deps.db).where(cond).orderBy(asc(t.busCards.id)).limit(opts.limit);
  return rows.map((row) => cardDto(deps.pii, row));
}
