import { eq } from 'drizzle-orm';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';

/**
 * The card centre (卡中心, spec `checkCardFromKZX`) behind an interface: what it knows of a card.
 * The built-in one reads our own card table; an operator's real centre is plugged in by passing
 * another implementation to the family module (README decision 76).
 */
export interface CardCentre {
  check(cardNo: string): Promise<{ exists: boolean; state: number | null; category: number | null }>;
}

export const ownCardTable = (db: Db): CardCentre => ({
  async check(cardNo) {
    const [c] = await db.select({ state: t.busCards.state, category: t.busCards.category }).from(t.busCards).where(eq(t.busCards.cardNo, cardNo));
    return c ? { exists: true, state: c.state, category: c.category } : { exists: false, state: null, category: null };
  },
});

/** Family cards are for seniors and students, and only a card in use (已售) can be bound. */
export function bindable(card: { exists: boolean; state: number | null; category: number | null }): string | null {
  if (!card.exists) return '卡中心查无此卡';
  if (card.state !== 1) return '卡片不是正常使用状态（已售），不能绑定';
  if (card.category !== 4 && card.category !== 5) return '只有学生卡和老年卡可以绑定为亲情卡';
  return null;
}
