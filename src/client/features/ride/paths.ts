/**
 * Where the module's screens live (`/{menu.id}/{page.key}`): kept apart from the screens' code so
 * the palette's commands, in the shell's bundle, carry no screen (and no chart library) with them.
 */
export const PATHS = {
  list: '/order/order-list',
  total: '/order/order-total',
} as const;

/** 乘车记录 of one card: with a card number the server needs no time range, so every ride shows. */
export const cardRidesPath = (cardNo: string) => `${PATHS.list}?cardNo=${encodeURIComponent(cardNo)}`;

/** 乘车统计 of one line, over the screen's default days. */
export const lineRidershipPath = (lineCode: string) => `${PATHS.total}?lineCode=${encodeURIComponent(lineCode)}`;

/** Card numbers as typed or pasted: spaces and dashes are how they are printed, not part of them. */
export const normaliseCardNo = (s: string) => s.replace(/[\s-]/g, '');
