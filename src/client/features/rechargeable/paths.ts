import { createHandOff } from '../../business/desk/lookup-handoff';

/** The 储值协议's code among the area's agreements: one text per area under one name. */
export const RECHARGE_AGREEMENT = 'rechargeable';

/** Yuan as typed ("12.5", "-3") to fen; NaN for anything else (told in yuan by the forms). */
export const yuanToFenText = (text: string) => (/^-?\d+(\.\d{1,2})?$/.test(text.trim()) ? Math.round(Number(text.trim()) * 100) : Number.NaN);

/**
 * A phone or card number typed into the palette (查钱包) reaches 用户钱包 through memory, never the
 * address: personal data stays out of URLs and history.
 */
export const walletLookup = createHandOff();
