/**
 * The refund ladder of 定制公交 (second wave §6), shared by the server's refunds, the settings'
 * calculator and the console's preview, so the three can never disagree about a fen.
 *
 * A row covers [fromMin, toMin) minutes before departure (toMin null: no upper end). Rows must tile
 * 0 … ∞ without gaps or overlaps; `ladderProblem` says which rule a ladder breaks.
 */
export interface LadderRow {
  fromMin: number;
  /** Exclusive; null: and above. */
  toMin: number | null;
  /** 0: no refund in this band (e.g. under 20 minutes); 1: refundable less the fee. */
  refundable: 0 | 1;
  /** ‰ of the amount kept as the fee (200 = 20%). */
  feeRate: number;
  /** Fen: the least fee taken when a fee is due (never more than the amount). */
  minFee: number;
}

export interface RefundQuote {
  /** The band that applied, or null when the ticket has departed (minutesBefore < 0). */
  row: LadderRow | null;
  refundable: boolean;
  fee: number;
  refund: number;
}

/** The default ladder: under 20 min 不可退; 20 min–2 h 20%; 2 h–24 h 10%; from 24 h free. */
export const DEFAULT_LADDER: readonly LadderRow[] = [
  { fromMin: 0, toMin: 20, refundable: 0, feeRate: 0, minFee: 0 },
  { fromMin: 20, toMin: 120, refundable: 1, feeRate: 200, minFee: 0 },
  { fromMin: 120, toMin: 1440, refundable: 1, feeRate: 100, minFee: 0 },
  { fromMin: 1440, toMin: null, refundable: 1, feeRate: 0, minFee: 0 },
];

const fmt = (m: number | null) => (m === null ? '∞' : String(m));

/** The first rule the rows break, in the design's words; null when the ladder is sound. */
export function ladderProblem(rows: readonly LadderRow[]): string | null {
  if (!rows.length) return '退款阶梯至少需要一行';
  for (const r of rows) {
    if (r.feeRate < 0 || r.feeRate > 1000) return '手续费比例应在0–100%之间';
    if (r.minFee < 0) return '最低手续费不能为负数';
    if (r.toMin !== null && r.toMin <= r.fromMin) return `退款阶梯区间无效：${r.fromMin}–${r.toMin}分钟`;
  }
  const sorted = [...rows].sort((a, b) => a.fromMin - b.fromMin);
  let reached = 0;
  for (const r of sorted) {
    if (r.fromMin < reached) return `退款阶梯区间重叠：${r.fromMin}–${fmt(Math.min(reached, r.toMin ?? reached))}分钟`;
    if (r.fromMin > reached) return `退款阶梯存在空档：${reached}–${r.fromMin}分钟`;
    if (r.toMin === null) {
      reached = Number.POSITIVE_INFINITY;
      continue;
    }
    reached = r.toMin;
  }
  if (reached !== Number.POSITIVE_INFINITY) return `退款阶梯存在空档：${reached}–∞分钟`;
  return null;
}

/**
 * What refunding `amount` fen `minutesBefore` departure gives back under `rows`. Whole minutes: a
 * ticket 19 min 59 s before departure is in the band of 19 minutes. The fee is rounded to the fen
 * half up and never exceeds the amount.
 */
export function refundQuote(rows: readonly LadderRow[], amount: number, minutesBefore: number): RefundQuote {
  const minutes = Math.floor(minutesBefore);
  if (minutes < 0) return { row: null, refundable: false, fee: 0, refund: 0 };
  const row = rows.find((r) => minutes >= r.fromMin && (r.toMin === null || minutes < r.toMin)) ?? null;
  if (!row || !row.refundable) return { row, refundable: false, fee: 0, refund: 0 };
  const fee = Math.min(amount, Math.max(Math.round((amount * row.feeRate) / 1000), amount > 0 && row.feeRate > 0 ? row.minFee : 0));
  return { row, refundable: true, fee, refund: amount - fee };
}
