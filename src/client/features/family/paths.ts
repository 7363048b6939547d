import { pagePath } from '../../../shared/modules';

/** 卡片订阅 with a card number already asked: a card number may sit in an address (a citizen id never does). */
export const cardSubscriptionPath = (cardNo?: string) => pagePath('callingCard', 'card-subscription', { query: { no: cardNo } });

/** Card numbers as typed or pasted: spaces and dashes are how they are printed, not part of them. */
export const normaliseCardNo = (s: string) => s.replace(/[\s-]/g, '');
