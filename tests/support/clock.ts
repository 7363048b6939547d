import type { Clock } from '../../src/server/config';

/** A clock the test moves by hand: idle timeouts and lockouts without waiting. */
export interface TestClock extends Clock {
  advance(ms: number): void;
  set(d: Date): void;
}

export function testClock(start = new Date()): TestClock {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance: (ms) => {
      now += ms;
    },
    set: (d) => {
      now = d.getTime();
    },
  };
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
