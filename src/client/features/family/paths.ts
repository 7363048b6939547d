/** The 亲情卡 screens' addresses (`/{menu}/{page}` of the module manifest), shared by the pages and the palette. */
export const FAMILY_BIND_PATH = '/callingCard/family-bind';
export const RENEW_LOG_PATH = '/callingCard/renew-log';
export const CARD_SUBSCRIPTION_PATH = '/callingCard/card-subscription';

/** 卡片订阅 with a card number already asked: a card number may sit in an address (a citizen id never does). */
export const cardSubscriptionPath = (cardNo?: string) => (cardNo ? `${CARD_SUBSCRIPTION_PATH}?no=${encodeURIComponent(cardNo)}` : CARD_SUBSCRIPTION_PATH);

/** Card numbers as typed or pasted: spaces and dashes are how they are printed, not part of them. */
export const normaliseCardNo = (s: string) => s.replace(/[\s-]/g, '');
