import { describe, expect, it } from 'vitest';
import { refundableBy } from '../../src/shared/api/recharge';

describe('refundableBy: the NFC refund the console offers', () => {
  const order = (writeState: number, payStatus = 1, resolvedById: number | null = null) => ({ writeState, payStatus, resolvedById });

  it('is offered on paid orders never written or failed, to anyone with the key', () => {
    expect(refundableBy(order(0), 7)).toBe(true);
    expect(refundableBy(order(3), 7)).toBe(true);
    expect(refundableBy(order(3, 1, 9), 7)).toBe(true);
  });

  it('is not offered to the person who marked the failure 未到账, nor on written, writing, 可疑, closed or unpaid orders', () => {
    expect(refundableBy(order(3, 1, 7), 7)).toBe(false);
    for (const w of [1, 2, 4, 5]) expect(refundableBy(order(w), 7), `writeState ${w}`).toBe(false);
    expect(refundableBy(order(0, 0), 7)).toBe(false);
    expect(refundableBy(order(3, 2), 7)).toBe(false);
  });
});
