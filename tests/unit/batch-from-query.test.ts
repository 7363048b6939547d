import { describe, expect, it } from 'vitest';
import { batchFromQuery } from '../../src/client/features/custom-bus/classes-commands';
import { quickRanges } from '../../src/client/features/custom-bus/classes-paths';

describe('批量排班 typed whole as its data (the palette row of speed task j)', () => {
  const next = quickRanges()[0];
  it('reads the range, the times and the seats in any order; what is left names the line', () => {
    const q = batchFromQuery('zjgk 下周一至五 08:00,07:30 45');
    expect(q?.values).toEqual({ range: 'next-week', times: '07:30,08:00', seats: '45' });
    expect(q?.rest).toBe('zjgk');
    expect(q?.title({ value: '1', label: 'D101 莘庄—漕河泾' })).toBe(`D101 莘庄—漕河泾 · 下周一至五（${next.dateFrom} 至 ${next.dateTo}）· 07:30、08:00 · 45座`);
    expect(batchFromQuery('45座 7:30 8:00 下周 D101')?.values).toEqual({ range: 'next-week', times: '07:30,08:00', seats: '45' });
  });
  it('leaves the seats to the line without them', () => {
    const q = batchFromQuery('D101 下月 07:30');
    expect(q?.values).toEqual({ range: 'next-month', times: '07:30' });
    expect(q?.title({ value: '1', label: 'D101' })).toContain('座位按线路默认');
  });
  it('is not this command’s without a range or a time, or with a time that is none', () => {
    expect(batchFromQuery('D101 07:30,08:00 45')).toBeNull();
    expect(batchFromQuery('D101 下周一至五 45')).toBeNull();
    expect(batchFromQuery('D101 下周 25:00')).toBeNull();
    expect(batchFromQuery('2026-12-20 06:00')).toBeNull();
  });
});
