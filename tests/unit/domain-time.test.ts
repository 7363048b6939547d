import { describe, expect, it } from 'vitest';
import { fenToYuan } from '../../src/shared/domain/money';
import { daysAndHours, formatDateTime, formatRelative, timeOfDayToSeconds } from '../../src/shared/domain/time';

describe('Shanghai time', () => {
  it('formats an ISO time in Asia/Shanghai whatever the machine zone', () => {
    expect(formatDateTime('2026-11-22T16:30:05Z')).toBe('2026-11-23 00:30:05');
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('not a time')).toBe('');
  });

  it('says relative times as the spec does', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    const ago = (s: number) => new Date(now.getTime() - s * 1000);
    expect(formatRelative(ago(29), now)).toBe('刚刚');
    expect(formatRelative(ago(90), now)).toBe('2分钟前');
    expect(formatRelative(ago(2 * 3600 + 1), now)).toBe('3小时前');
    expect(formatRelative(ago(30 * 3600), now)).toBe('1天前');
    expect(formatRelative(ago(3 * 86_400), now)).toBe('2026-11-19 20:00:00');
  });

  it('converts a time of day with 2 or 3 parts, anything else to 0', () => {
    expect(timeOfDayToSeconds('06:30')).toBe(23_400);
    expect(timeOfDayToSeconds('06:30:15')).toBe(23_415);
    expect(timeOfDayToSeconds('0630')).toBe(0);
    expect(timeOfDayToSeconds('1:2:3:4')).toBe(0);
    expect(timeOfDayToSeconds('ab:cd')).toBe(0);
  });

  it('splits seconds into days and hours', () => {
    expect(daysAndHours(120 * 86_400 + 5 * 3600 + 59)).toEqual({ days: 120, hours: 5 });
  });
});

describe('money', () => {
  it('shows fen as yuan with two decimals', () => {
    expect(fenToYuan(12345)).toBe('123.45');
    expect(fenToYuan(5)).toBe('0.05');
    expect(fenToYuan(null)).toBe('');
  });
});

describe('typed date and time', () => {
  it('reads the ways operators write it, as Shanghai time', async () => {
    const { parseTypedDateTime } = await import('../../src/shared/domain/time');
    expect(parseTypedDateTime('2026-11-23 08:30')).toBe('2026-11-23T08:30:00+08:00');
    expect(parseTypedDateTime('2026/11/23 8:30')).toBe('2026-11-23T08:30:00+08:00');
    expect(parseTypedDateTime('20261123 0830')).toBe('2026-11-23T08:30:00+08:00');
    expect(parseTypedDateTime('2026年11月23日')).toBe('2026-11-23T00:00:00+08:00');
    expect(parseTypedDateTime('2026-11-23', { endOfDay: true })).toBe('2026-11-23T23:59:59+08:00');
    expect(parseTypedDateTime(' 2026-11-23T08:30:15 ')).toBe('2026-11-23T08:30:15+08:00');
  });

  it('refuses what is not a real date or time', async () => {
    const { parseTypedDateTime } = await import('../../src/shared/domain/time');
    for (const bad of ['2026-02-30', '2026-13-01', '2026-11-23 24:00', '2026-11-23 08:60', '11/23/2026', 'mm/dd/yyyy', '']) {
      expect(parseTypedDateTime(bad), bad).toBeNull();
    }
  });
});

describe('Shanghai days', () => {
  it('takes the day and month from Shanghai, not UTC, between 16:00 and 24:00 UTC', async () => {
    const { addDays, shanghaiDate, shanghaiDateTime, shanghaiMidnight, shanghaiMonth } = await import('../../src/shared/domain/time');
    expect(shanghaiDate('2026-01-31T16:30:00Z')).toBe('2026-02-01');
    expect(shanghaiDate(new Date('2026-01-31T15:59:59Z'))).toBe('2026-01-31');
    expect(shanghaiMonth('2026-12-31T16:00:00Z')).toEqual({ y: 2027, m: 1 });
    expect(shanghaiMonth('2026-02-28T15:59:59Z')).toEqual({ y: 2026, m: 2 });
    expect(shanghaiDateTime(Date.parse('2026-11-24T17:00:05Z'))).toBe('2026-11-25 01:00:05');
    expect(shanghaiMidnight('2026-11-25').toISOString()).toBe('2026-11-24T16:00:00.000Z');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
  });
});
