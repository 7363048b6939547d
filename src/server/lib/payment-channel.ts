import { createHash } from 'node:crypto';

/** What the channel said about one refund: 1 退款成功, 2 退款异常 (to be retried with the same number). */
export interface ChannelRefundAnswer {
  state: 1 | 2;
  /** The channel's own number for a refund it accepted. */
  channelRefundNo: string | null;
  /** Its words when it did not. */
  failReason: string | null;
}

/**
 * The riders' payment channel as the console's refunds see it (second-wave §1, §14.1). A real
 * channel is reached over the network and may answer late or not at all, so no caller holds a
 * database transaction open across `refund`: the refund row is written first (退款中), the channel
 * is asked after the commit, and its answer is stored by `settleRefund` (lib/refund-ledger.ts).
 */
export interface PaymentChannel {
  /** Idempotent on `outRefundNo`: asking again for the same number never refunds twice. */
  refund(req: { outRefundNo: string; orderNo: string; amountFen: number }): Promise<ChannelRefundAnswer>;
}

/**
 * The channel's refund number for an idempotency key: the same key always gives the same number, so
 * a retry after 退款异常 or a lost answer is the same refund to the channel (WeChat Pay's
 * out_refund_no). 32 characters, within every channel's limit.
 */
export const outRefundNo = (idempotencyKey: string) => `RF${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 30).toUpperCase()}`;

/**
 * The built-in channel: accepts every refund at once (the demo has no bank behind it). With
 * `refundFails` (PAYMENT_REFUND_FAILS=1) it answers 退款异常, so the retry path can be tried.
 */
export function builtInPaymentChannel(opts: { refundFails: boolean }): PaymentChannel {
  return {
    async refund(req) {
      if (opts.refundFails) return { state: 2, channelRefundNo: null, failReason: '支付渠道退款异常（演示开关 PAYMENT_REFUND_FAILS）' };
      return { state: 1, channelRefundNo: `CH${req.outRefundNo.slice(2, 22)}`, failReason: null };
    },
  };
}
