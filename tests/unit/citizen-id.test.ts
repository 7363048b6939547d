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

  it('accepts births from 1800 (the standard’s example is born in 1880) and refuses future ones', () => {
    const today = new Date('2026-11-23T00:00:00Z');
    expect(isValidCitizenId('110105188001010017', today)).toBe(true);
    expect(isValidCitizenId('110105179901010018', today)).toBe(false);
    expect(isValidCitizenId('110105209912310010', today)).toBe(false);
  });
});
