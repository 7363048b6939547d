import type { ActivityRule, ActivityStatus } from '../../../shared/api/activity';

/**
 * The activity rules as pure functions: what a ride gets off, whether a ride is in an activity's
 * scope, the derived status, the overlap of two activities. The settlement (one ride, in a
 * transaction) and 活动预演 (30 days of rides, in memory) both use them, so the draft the operator
 * rehearses is the rule riders will get.
 */

export interface RuleHolder {
  type: number;
  rule: ActivityRule;
}
export interface Scoped {
  lineCodes: readonly string[];
  cardCategories: readonly number[];
  payChannels: readonly string[];
}
export interface Windowed {
  startAt: Date;
  endAt: Date;
}
export interface StatusHolder extends Windowed {
  enabled: boolean;
  endedAt: Date | null;
  budgetFen: number;
  usedFen: number;
}

export interface RideFacts {
  rideAt: Date;
  lineCode: string;
  cardCategory: number;
  payChannel: string;
  amount: number;
}

/** What the rules need of a card's history at the ride. */
export interface RideHistory {
  /** The card's spend this Shanghai month before this ride (fen), for 月累计阶梯. */
  monthSpendFen: number;
  /** The card's previous ride: when and on which line, for 换乘优惠. */
  previous: { at: Date; lineCode: string } | null;
  /** Transfers already discounted today by this activity. */
  transfersToday: number;
}

export const NO_HISTORY: RideHistory = { monthSpendFen: 0, previous: null, transfersToday: 0 };

/** 3 已结束 over everything, then 2 已暂停, 4 预算耗尽, 0 未开始, else 1 进行中 (the contract's order). */
export function statusOf(a: StatusHolder, now: Date): ActivityStatus {
  if (a.endedAt || now.getTime() >= a.endAt.getTime()) return 3;
  if (!a.enabled) return 2;
  if (a.usedFen >= a.budgetFen) return 4;
  if (now.getTime() < a.startAt.getTime()) return 0;
  return 1;
}

const within = <T>(list: readonly T[], v: T) => list.length === 0 || list.includes(v);

export const rideInScope = (s: Scoped, r: Pick<RideFacts, 'lineCode' | 'cardCategory' | 'payChannel'>) =>
  within(s.lineCodes, r.lineCode) && within(s.cardCategories, r.cardCategory) && within(s.payChannels, r.payChannel);

/** What is paid at `rate` ‰, rounded to the fen in the rider's favour; the rest is the discount. */
const offAt = (amount: number, rate: number) => amount - Math.floor((amount * rate) / 1000);

/** The tier a month's spend so far reaches (the highest whose fromFen it has passed), or none. */
export function tierRate(rule: ActivityRule, spentFen: number): number | null {
  let rate: number | null = null;
  for (const t of rule.tiers ?? []) if (spentFen >= t.fromFen) rate = t.rate;
  return rate;
}

/** The discount (fen) the rule gives this ride; 0 when it gives none. Never more than the fare. */
export function discountOf(a: RuleHolder, ride: Pick<RideFacts, 'amount' | 'lineCode' | 'rideAt'>, h: RideHistory): number {
  const amount = ride.amount;
  if (amount <= 0) return 0;
  const r = a.rule;
  let off = 0;
  if (a.type === 1 && r.rate !== undefined) off = offAt(amount, r.rate);
  else if (a.type === 2) {
    const rate = tierRate(r, h.monthSpendFen);
    off = rate === null ? 0 : offAt(amount, rate);
  } else if (a.type === 3 && r.windowMin !== undefined && r.maxFen !== undefined) {
    const p = h.previous;
    const inWindow = !!p && p.lineCode !== ride.lineCode && ride.rideAt.getTime() - p.at.getTime() <= r.windowMin * 60_000 && ride.rideAt.getTime() > p.at.getTime();
    const capped = (r.perDay ?? 0) > 0 && h.transfersToday >= (r.perDay ?? 0);
    off = inWindow && !capped ? Math.min(amount, r.maxFen) : 0;
  } else if (a.type === 4 && r.rebateRate !== undefined) off = Math.floor((amount * r.rebateRate) / 1000);
  return Math.max(0, Math.min(amount, off));
}

const meet = <T>(a: readonly T[], b: readonly T[]) => a.length === 0 || b.length === 0 || a.some((x) => b.includes(x));

/** Two activities share some ride: overlapping windows, and every scope dimension meets. */
export const overlaps = (a: Scoped & Windowed, b: Scoped & Windowed) =>
  a.startAt.getTime() < b.endAt.getTime() && b.startAt.getTime() < a.endAt.getTime() && meet(a.lineCodes, b.lineCodes) && meet(a.cardCategories, b.cardCategories) && meet(a.payChannels, b.payChannels);

/**
 * Which of several activities a ride gets: the highest priority, then the bigger discount, then the
 * older activity. A stackable winner adds the other stackable ones after it (while fare is left);
 * a non-stackable winner stands alone.
 */
export function pickWinners<T extends { id: number; priority: number; stackable: boolean; off: number }>(cands: readonly T[]): T[] {
  const order = cands.filter((c) => c.off > 0).sort((x, y) => y.priority - x.priority || y.off - x.off || x.id - y.id);
  const first = order[0];
  if (!first) return [];
  if (!first.stackable) return [first];
  return order.filter((c) => c.stackable);
}
