import { yuanToFen } from '../../../shared/domain/money';
import { createHandOff } from '../../business/desk/lookup-handoff';

/** The 储值协议's code among the area's agreements: one text per area under one name. */
export const RECHARGE_AGREEMENT = 'rechargeable';

/** Yuan as typed ("12.5", "-3") to fen; NaN for anything else (told in yuan by the forms). */
export const yuanToFenText = (text: string) => {
  // Signed (an adjustment's ±), otherwise the shared reading, digit by digit; NaN when it is no amount.
  const t = text.trim();
  const fen = yuanToFen(t.startsWith('-') ? t.slice(1) : t);
  return fen === null ? Number.NaN : t.startsWith('-') ? -fen : fen;
};

/**
 * A phone or card number typed into the palette (查钱包) reaches 用户钱包 through memory, never the
 * address: personal data stays out of URLs and history.
 */
export const walletLookup = createHandOff();
