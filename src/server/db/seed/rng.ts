import { createHash } from 'node:crypto';

/** mulberry32: a small seeded generator, so the demo city is the same for the same seed value. */
export interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  bytes(n: number): Buffer;
}

export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: <T>(items: readonly T[]) => {
      const item = items[int(0, items.length - 1)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
    bytes: (n) => Buffer.from(Array.from({ length: n }, () => int(0, 255))),
  };
}

/**
 * The stream of one part of the seed (a module, the frame): its own seed value, hashed from the
 * city's SEED and the part's name, so what one part draws never shifts what another gets.
 */
export function createStream(seed: number, name: string): Rng {
  return createRng(createHash('sha256').update(`${seed}:${name}`).digest().readUInt32LE(0));
}
