import { parseTypedDateTime, shanghaiDate } from '../../shared/domain/time';
import type { InlineKind } from '../components/resource/row-action';

/** A value typed with a record in the palette, and the rest of the query, which names the record. */
export interface TypedArgument {
  kind: InlineKind;
  /** As the person wrote it, normalised: `2026-12-20 06:00`, `2026-10`. */
  value: string;
  rest: string;
}

// A full-width colon is what a Chinese input method types; seconds are allowed and dropped.
const DATETIME = /(?:^|\s)(\d{4})-(\d{1,2})-(\d{1,2})\s+(\d{1,2})[:：](\d{2})(?:[:：]\d{2})?(?=\s|$)/;
// Two digits: `2026-1` is a month still being typed (2026-10, 2026-11…).
const MONTH = /(?:^|\s)(\d{4})-(\d{2})(?=\s|$)/;
const two = (n: string) => n.padStart(2, '0');

/**
 * A time (`2026-12-20 06:00`) or a month (`2026-10`) at either end of the query or in its middle:
 * the rest names the record (`2026-10 10路`, `冬季加班线 2026-12-20 06:00`). A time that is no real
 * time (02-30) is none, so nothing is offered for it.
 */
export function typedArgument(text: string, now = new Date()): TypedArgument | null {
  const t = DATETIME.exec(text);
  if (t) {
    const value = `${t[1]}-${two(t[2]!)}-${two(t[3]!)} ${two(t[4]!)}:${t[5]}`;
    const at = parseTypedDateTime(value);
    // What is asked for with a time happens at it: a time gone by offers nothing.
    if (!at || Date.parse(at) <= now.getTime()) return null;
    return { kind: 'datetime', value, rest: (text.slice(0, t.index) + ' ' + text.slice(t.index + t[0].length)).trim() };
  }
  const m = MONTH.exec(text);
  if (m) {
    const month = Number(m[2]);
    // A month that has begun, in Shanghai: a later one has no rides yet.
    const thisMonth = shanghaiDate(now).slice(0, 7);
    if (month < 1 || month > 12 || Number(m[1]) < 2000 || `${m[1]}-${m[2]}` > thisMonth) return null;
    return { kind: 'month', value: `${m[1]}-${two(m[2]!)}`, rest: (text.slice(0, m.index) + ' ' + text.slice(m.index + m[0].length)).trim() };
  }
  return null;
}
