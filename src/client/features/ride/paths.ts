import { pagePath } from '../../../shared/modules';

/*
 * Addresses of the module's screens with what they are asked: kept apart from the screens' code so
 * the palette's commands, in the shell's bundle, carry no screen (and no chart library) with them.
 */

/** 乘车记录 of one card: with a card number the server needs no time range, so every ride shows. */
export const cardRidesPath = (cardNo: string) => pagePath('order', 'order-list', { query: { cardNo } });

/** 乘车统计 of one line, over the screen's default days. */
export const lineRidershipPath = (lineCode: string) => pagePath('order', 'order-total', { query: { lineCode } });

/** Card numbers as typed or pasted: spaces and dashes are how they are printed, not part of them. */
export const normaliseCardNo = (s: string) => s.replace(/[\s-]/g, '');
