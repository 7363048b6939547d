import { describe, expect, it } from 'vitest';
import { distanceToPath, metresBetween, orderAlongPath } from '../../src/shared/domain/geo';

/** A road running north from the People's Square, one stop every ~0.006° (≈ 670 m). */
const path: [number, number][] = [
  [121.4737, 31.23],
  [121.4737, 31.26],
];
const stop = (stationId: number, lat: number, lng = 121.4737) => ({ stationId, lng, lat });

describe('distance to a path', () => {
  it('measures metres across the path and to its ends', () => {
    expect(distanceToPath([121.4737, 31.24], path)).toBeCloseTo(0, 3);
    // 0.001° of longitude at 31.24° N is about 95 m.
    expect(distanceToPath([121.4747, 31.24], path)).toBeGreaterThan(90);
    expect(distanceToPath([121.4747, 31.24], path)).toBeLessThan(100);
    expect(distanceToPath([121.4737, 31.27], path)).toBeCloseTo(metresBetween([121.4737, 31.27], [121.4737, 31.26]), 0);
  });
});

describe('GPS排序: order along the path', () => {
  it('puts shuffled stops back in path order, ties keeping their order', () => {
    const stops = [stop(3, 31.245), stop(1, 31.232), stop(4, 31.251), stop(2, 31.238)];
    expect(orderAlongPath(stops, path).map((s) => s.stationId)).toEqual([1, 2, 3, 4]);
  });

  it('keeps a loop’s terminal at both ends and leaves an ordered loop as it is (the same rows)', () => {
    const loopPath: [number, number][] = [
      [121.4737, 31.23],
      [121.4737, 31.25],
      [121.4757, 31.25],
      [121.4757, 31.23],
      [121.4737, 31.23],
    ];
    const ordered = [stop(1, 31.23), stop(2, 31.24), stop(3, 31.25, 121.4747), stop(4, 31.24, 121.4757), { ...stop(1, 31.23), last: true }];
    const out = orderAlongPath(ordered, loopPath);
    expect(out).toEqual(ordered);
    const shuffled = [ordered[0]!, ordered[3]!, ordered[1]!, ordered[2]!, ordered[4]!];
    expect(orderAlongPath(shuffled, loopPath)).toEqual(ordered);
  });
});
