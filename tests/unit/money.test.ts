import { describe, expect, it } from 'vitest';
import { fenToYuan, yuanToFen } from '../../src/shared/domain/money';

describe('yuanToFen', () => {
  it('reads yuan exactly, with no binary fraction in between', () => {
    expect(yuanToFen('200')).toBe(20_000);
    expect(yuanToFen('200.5')).toBe(20_050);
    expect(yuanToFen(' 200.00 ')).toBe(20_000);
    // 0.29 * 100 is 28.999999999999996 in floating point.
    expect(yuanToFen('0.29')).toBe(29);
    expect(yuanToFen('1.15')).toBe(115);
    expect(yuanToFen('0')).toBe(0);
    expect(fenToYuan(yuanToFen('800.00'))).toBe('800.00');
  });

  it('refuses what is not an amount in yuan', () => {
    for (const bad of ['', '-1', '1.234', '1e3', '２００', 'abc', '1,000', '.5', '5.']) expect(yuanToFen(bad), bad).toBeNull();
  });
});
