import { describe, expect, it } from 'vitest';
import { isValidCitizenId } from '../../src/shared/domain/citizen-id';

describe('citizen id (spec §5)', () => {
  it('accepts valid ids, with a final X in either case', () => {
    expect(isValidCitizenId('11010519491231002X')).toBe(true);
    expect(isValidCitizenId('11010519491231002x')).toBe(true);
    expect(isValidCitizenId('440308199901101512')).toBe(true);
  });

  it('refuses wrong length, unknown province, impossible dates and a bad check character', () => {
    expect(isValidCitizenId('11010519491231002')).toBe(false);
    expect(isValidCitizenId('99010519491231002X')).toBe(false);
    expect(isValidCitizenId('110105194902300021')).toBe(false);
    expect(isValidCitizenId('110105194912310021')).toBe(false);
  });
});
