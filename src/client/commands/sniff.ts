import { isValidCitizenId } from '../../shared/domain/citizen-id';

/** What a raw input looks like (DESIGN §5 input sniffing). */
export type Sniffed =
  | { kind: 'citizen-id'; value: string }
  /** The shape of a citizen id whose check character is wrong: never silently a card number. */
  | { kind: 'bad-citizen-id'; value: string }
  | { kind: 'phone'; value: string }
  | { kind: 'card'; value: string }
  /** An order number: two letters, then the date and a serial (`DC202609180000099`). */
  | { kind: 'order'; value: string };

/** Numbers are read as people write them: `138 0013 8001`, `138-0013-8001`, `+86 138…`. */
const compact = (raw: string) => raw.trim().replace(/[\s-]+/g, '').replace(/^\+?86(?=1\d{10}$)/, '');

export function sniff(raw: string): Sniffed[] {
  const v = compact(raw);
  const out: Sniffed[] = [];
  const idShaped = /^\d{17}[\dXx]$/.test(v);
  if (idShaped) out.push(isValidCitizenId(v) ? { kind: 'citizen-id', value: v.toUpperCase() } : { kind: 'bad-citizen-id', value: v.toUpperCase() });
  if (/^1[3-9]\d{9}$/.test(v)) out.push({ kind: 'phone', value: v });
  // Transport cards: 8–20 digits (the operator's card numbers start with the city code, e.g. 3101…).
  if (/^\d{8,20}$/.test(v) && !idShaped) out.push({ kind: 'card', value: v });
  if (/^[A-Za-z]{2}\d{12,30}$/.test(v)) out.push({ kind: 'order', value: v.toUpperCase() });
  return out;
}
