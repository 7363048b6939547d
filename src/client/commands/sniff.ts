import { isValidCitizenId } from '../../shared/domain/citizen-id';

/** What a raw input looks like (DESIGN §5 input sniffing). */
export type Sniffed =
  | { kind: 'citizen-id'; value: string }
  | { kind: 'phone'; value: string }
  | { kind: 'card'; value: string };

export function sniff(raw: string): Sniffed[] {
  const v = raw.trim();
  const out: Sniffed[] = [];
  if (/^\d{17}[\dXx]$/.test(v) && isValidCitizenId(v)) out.push({ kind: 'citizen-id', value: v.toUpperCase() });
  if (/^1[3-9]\d{9}$/.test(v)) out.push({ kind: 'phone', value: v });
  // Transport cards: 8–20 digits (the operator's card numbers start with the city code, e.g. 3101…).
  if (/^\d{8,20}$/.test(v) && !out.some((s) => s.kind === 'citizen-id')) out.push({ kind: 'card', value: v });
  return out;
}
