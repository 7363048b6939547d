/** Money travels as integer fen and is shown in yuan with two decimals (spec §5). */
export function fenToYuan(fen: number | null | undefined): string {
  if (fen === null || fen === undefined || !Number.isFinite(fen)) return '';
  return (fen / 100).toFixed(2);
}

/**
 * Yuan as typed or configured (`200`, `200.5`, `200.00`) to integer fen, read digit by digit so no
 * binary fraction ever stands in for money; null for anything else (a sign, a third decimal, text).
 */
export function yuanToFen(text: string): number | null {
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}
