import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/connection';
import { DEFAULT_LADDER, type LadderRow } from '../../../shared/custom/refund-ladder';
import { customBaseSettings, customRefundRules } from './schema';

/**
 * What 定制公交 reads of its settings (the only part of this module another module imports): a
 * district's base settings, defaults where it has none, and its refund ladder in force.
 */
export type CustomBase = Omit<typeof customBaseSettings.$inferSelect, 'updatedBy' | 'updatedAt' | 'rowVersion'>;

export const BASE_DEFAULTS: Omit<CustomBase, 'districtId'> = {
  saleDaysAhead: 7,
  saleOpenTime: 12 * 3600,
  payTimeoutMin: 2,
  maxSeatsPerUserPerClass: 4,
  stopSaleMinBefore: 10,
  checkOpenMinBefore: 30,
  monthTicketEnabled: true,
  monthSaleUntilDay: 25,
  boardingNotice: '',
  servicePhone: '',
};

export async function customBaseOf(db: Db, districtId: number): Promise<CustomBase> {
  const [row] = await db.select().from(customBaseSettings).where(eq(customBaseSettings.districtId, districtId));
  if (!row) return { districtId, ...BASE_DEFAULTS };
  const { updatedBy: _by, updatedAt: _at, rowVersion: _v, ...base } = row;
  return base;
}

/** The ladder an order sold now is sold under: the district's in force, or null (then DEFAULT_LADDER applies). */
export async function ladderInForce(db: Db, districtId: number): Promise<{ id: number; rows: LadderRow[] } | null> {
  const [row] = await db
    .select({ id: customRefundRules.id, rows: customRefundRules.rows })
    .from(customRefundRules)
    .where(and(eq(customRefundRules.districtId, districtId), eq(customRefundRules.status, 2)));
  return row ?? null;
}

/** The ladder an order was sold under (its `ruleVersionId`), DEFAULT_LADDER when it names none. */
export async function ladderOf(db: Db, ruleVersionId: number | null): Promise<readonly LadderRow[]> {
  if (ruleVersionId === null) return DEFAULT_LADDER;
  const [row] = await db.select({ rows: customRefundRules.rows }).from(customRefundRules).where(eq(customRefundRules.id, ruleVersionId));
  return row?.rows ?? DEFAULT_LADDER;
}
