/**
 * The card centre interface lives in lib/card-centre.ts (NFC充值 asks it too); 亲情卡 keeps its rule
 * of which cards may be bound here.
 */
export { type CardCentre, ownCardTable } from '../../lib/card-centre';

/** Family cards are for seniors and students, and only a card in use (已售) can be bound. */
export function bindable(card: { exists: boolean; state: number | null; category: number | null }): string | null {
  if (!card.exists) return '卡中心查无此卡';
  if (card.state !== 1) return '卡片不是正常使用状态（已售），不能绑定';
  if (card.category !== 4 && card.category !== 5) return '只有学生卡和老年卡可以绑定为亲情卡';
  return null;
}
