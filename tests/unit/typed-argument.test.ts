import { describe, expect, it } from 'vitest';
import { typedArgument } from '../../src/client/commands/typed-argument';

/** A time or a month typed with a record in the palette (issue 21): what counts as one, and the rest. */
const NOW = new Date('2026-11-28T05:00:00Z');

describe('typedArgument', () => {
  it('reads a time at either end, the rest naming the record; a full-width colon and seconds as typed in Chinese', () => {
    expect(typedArgument('2026-12-20 06:00', NOW)).toEqual({ kind: 'datetime', value: '2026-12-20 06:00', rest: '' });
    expect(typedArgument('冬季 2026-12-20 6:05', NOW)).toEqual({ kind: 'datetime', value: '2026-12-20 06:05', rest: '冬季' });
    expect(typedArgument('2026-12-20 06：00:30 djb', NOW)).toEqual({ kind: 'datetime', value: '2026-12-20 06:00', rest: 'djb' });
  });

  it('offers nothing for a time gone by or one that is no time', () => {
    // NOW is 13:00 in Shanghai.
    expect(typedArgument('2026-11-28 14:00', NOW)).toEqual({ kind: 'datetime', value: '2026-11-28 14:00', rest: '' });
    expect(typedArgument('2026-11-28 13:00', NOW)).toBeNull();
    expect(typedArgument('2026-11-28 12:00', NOW)).toBeNull();
    expect(typedArgument('2026-11-20 06:00', NOW)).toBeNull();
    expect(typedArgument('2026-02-30 06:00', NOW)).toBeNull();
    expect(typedArgument('2026-12-20 25:00', NOW)).toBeNull();
  });

  it('reads a month that has begun in Shanghai, not one still being typed nor one to come', () => {
    expect(typedArgument('2026-10 9路', NOW)).toEqual({ kind: 'month', value: '2026-10', rest: '9路' });
    expect(typedArgument('2026-11', NOW)).toEqual({ kind: 'month', value: '2026-11', rest: '' });
    expect(typedArgument('2026-1', NOW)).toBeNull();
    expect(typedArgument('2026-12', NOW)).toBeNull();
    expect(typedArgument('2026-13', NOW)).toBeNull();
    // 2026-11-30 16:30 UTC is already December 1st in Shanghai.
    expect(typedArgument('2026-12', new Date('2026-11-30T16:30:00Z'))).toEqual({ kind: 'month', value: '2026-12', rest: '' });
  });

  it('takes no card, phone or order number for a date', () => {
    for (const typed of ['3101000020000012', '138-0013-8001', 'DC202611280007301', '2026', '20261220']) expect(typedArgument(typed, NOW)).toBeNull();
  });
});
