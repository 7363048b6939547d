/**
 * The one wording of a refund quote, shared by the ladder's preview, the calculator and the palette:
 * "50元·距发车90分钟 → 退40元（手续费10元）", or "… → 不可退".
 */
export const quoteLine = (amountYuan: string, minutes: number, refundYuan: string, refundable: boolean, feeYuan: string | null) =>
  `${amountYuan}元·距发车${minutes}分钟 → ${refundable ? `退${refundYuan}元${feeYuan ? `（手续费${feeYuan}元）` : ''}` : minutes < 0 ? '已发车，不可退' : '不可退'}`;
