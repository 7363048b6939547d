import { and, count, eq, gte, lte, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { card } from '../../../shared/api';
import type { AppDeps, AuthContext } from '../../context';
import * as t from '../../db/schema';
import { cardDto, selectCards } from '../../lib/card-rows';
import { listService } from '../../lib/list';
import { inScope } from '../../lib/scope';

type PageQuery = z.output<typeof card.cardPage.query>;

/**
 * A number prefix as a range on the unique index (`0000…` to `9999…` padded to 16 digits): the
 * btree answers it whatever the database's collation, which a LIKE would not.
 */
const prefixRange = (p: string) => and(gte(t.busCards.cardNo, p.padEnd(16, '0')), lte(t.busCards.cardNo, p.padEnd(16, '9')));

/** 卡片列表: the area's cards by number prefix, state and category, in number order. */
const cardList = listService({
  endpoint: card.cardPage,
  select: selectCards,
  count: (db) => db.select({ n: count() }).from(t.busCards),
  scope: t.busCards.districtId,
  filters: {
    cardNo: (prefix) => prefixRange(prefix),
    state: (state) => eq(t.busCards.state, state),
    category: (category) => eq(t.busCards.category, category),
  },
  sorts: { issuedDate: t.busCards.issuedAt, balance: t.busCards.balance },
  order: { column: t.busCards.cardNo, dir: 'asc' },
  key: { column: t.busCards.id, of: (x) => x.c.id },
  dto: (x, { deps }) => cardDto(deps.pii, x),
});

export const pageCards = (deps: AppDeps, a: AuthContext, q: PageQuery) => cardList.page(deps, a, q);

export async function stateCounts(deps: AppDeps, a: AuthContext) {
  const rows = await deps.db.select({ state: t.busCards.state, count: sql<number>`count(*)::int` }).from(t.busCards).where(inScope(a, t.busCards.districtId)).groupBy(t.busCards.state).orderBy(t.busCards.state);
  const byState = rows.map((r) => ({ state: r.state, count: Number(r.count) }));
  return { total: byState.reduce((n, r) => n + r.count, 0), byState };
}
