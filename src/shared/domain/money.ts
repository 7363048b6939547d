/** Money travels as integer fen and is shown in yuan with two decimals (spec §5). */
export function fenToYuan(fen: number | null | undefined): string {
  if (fen === null || fen === undefined || !Number.isFinite(fen)) return '';
  return (fen / 100).toFixed(2);
}
