import { type SQL, asc, eq } from 'drizzle-orm';
import type { AppDeps } from '../context';
import * as t from '../db/schema';
import { maskedRider } from './masked-rider';
import { iso } from './sql';

/** Cards as every answer shows them (lookup, card view, card list): the holder masked. */
export async function cardRows(deps: Pick<AppDeps, 'db' | 'pii'>, cond: SQL | undefined, opts: { limit: number; offset?: number; order?: SQL[] }) {
  const rows = await deps.db
    .select({ c: t.busCards, r: t.riders })
    .from(t.busCards)
    .leftJoin(t.riders, eq(t.riders.id, t.busCards.riderId))
    .where(cond)
    .orderBy(...(opts.order ?? [asc(t.busCards.id)]))
    .limit(opts.limit)
    .offset(opts.offset ?? 0);
  return rows.map(({ c, r }) => ({
    id: c.id,
    cardNo: c.cardNo,
    districtId: c.districtId,
    state: c.state,
    category: c.category,
    balance: c.balance,
    issuedDate: iso(c.issuedAt),
    holder: r ? (({ id, name, phone }) => ({ id, name, phone }))(maskedRider(deps.pii, r)) : null,
  }));
}
