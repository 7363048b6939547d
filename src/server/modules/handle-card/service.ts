import { and, count, eq, gte, lte, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { card } from '../../../shared/api';
import type { AppDeps, AuthContext } from '../../context';
import * as t from '../../db/schema';
import { cardRows } from '../../lib/card-rows';
import { orderBy, paged } from '../../lib/paging';
import { inScope } from '../../lib/scope';

type PageQuery = z.output<typeof card.cardPage.query>;

/**
 * A number prefix as a range on the unique index (`0000…` to `9999…` padded to 16 digits): the
 * btree answers it whatever the database's collation, which a LIKE would not.
 */
const prefixRange = (p: string) => and(gte(t.busCards.cardNo, p.padEnd(16, '0')), lte(t.busCards.cardNo, p.padEnd(16, '9')));

export async function pageCards(deps: AppDeps, a: AuthContext, q: PageQuery) {
  const cond = and(
    inScope(a, t.busCards.districtId),
    q.cardNo ? prefixRange(q.cardNo) : undefined,
    q.state !== undefined ? eq(t.busCards.state, q.state) : undefined,
    q.category !== undefined ? eq(t.busCards.category, q.category) : undefined,
  );
  const order = orderBy(q.sort, { issuedDate: t.busCards.issuedAt, balance: t.busCards.balance }, { column: t.busCards.cardNo, dir: 'asc' }, t.busCards.id);
  return paged(
    q,
    (limit, offset) => cardRows(deps, cond, { limit, offset, order }),
    () => deps.db.select({ n: count() }).from(t.busCards).where(cond),
  );
}

export async function stateCounts(deps: AppDeps, a: AuthContext) {
  const rows = await deps.db.select({ state: t.busCards.state, count: sql<number>`count(*)::int` }).from(t.busCards).where(inScope(a, t.busCards.districtId)).groupBy(t.busCards.state).orderBy(t.busCards.state);
  const byState = rows.map((r) => ({ state: r.state, count: Number(r.count) }));
  return { total: byState.reduce((n, r) => n + r.count, 0), byState };
}
