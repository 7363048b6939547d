import type { Rng } from '../../db/seed/rng';

/**
 * The demo city's lines, planned from its stations alone: a place is a name served by a stop on
 * each side of the street; places within a short walk are neighbours (along a road, or across at a
 * crossing); a line walks from place to place preferring to go straight, turning where roads
 * cross. Up stops at the right-hand stop of each place (traffic keeps right), down at the other
 * one in reverse; a loop goes out on one side and back on the other to its first stop.
 */

export interface PlannedStop {
  id: number;
  name: string;
  lng: number;
  lat: number;
  state: number;
}

export interface PlannedLine {
  isLoop: boolean;
  up: PlannedStop[];
  /** Empty for a loop (one direction). */
  down: PlannedStop[];
}

interface Place {
  x: number;
  y: number;
  /** Metres per degree of longitude here. */
  k: number;
  stops: PlannedStop[];
}

/** Places farther apart than this are not neighbours (stops are 500–800 m apart along a road). */
const NEIGHBOUR_M = 1_000;

export function planDemoLines(rng: Rng, stations: readonly PlannedStop[], opts: { lines: number; minStops: number; maxStops: number; loops: number }): PlannedLine[] {
  const places = placesOf(stations);
  if (places.length < 2) return [];
  const near = places.map((p) => places.map((q, j) => ({ j, d: Math.hypot(p.x - q.x, p.y - q.y) })).filter((n) => n.d > 0 && n.d <= NEIGHBOUR_M).map((n) => n.j));
  const out: PlannedLine[] = [];
  for (let k = 0; k < opts.lines; k++) {
    const loop = k < opts.loops;
    // A loop serves each place twice (out and back): half as many places make as many stops.
    const [lo, hi] = loop ? [Math.ceil(opts.minStops / 2), Math.ceil(opts.maxStops / 2)] : [opts.minStops, opts.maxStops];
    const walk = bestWalk(rng, places, near, rng.int(lo, hi), lo);
    if (walk.length < 2) continue;
    const up = walk.map((_, n) => sideOf(places, walk, n, 'right')).filter((s): s is PlannedStop => !!s);
    const down = walk.map((_, n) => sideOf(places, walk, n, 'left')).filter((s): s is PlannedStop => !!s).reverse();
    if (loop) {
      // Out on the right-hand stops, back on the others, and round to the first stop again.
      const back = down.slice(0, -1);
      if (up.length >= 2 && back.length >= 1) out.push({ isLoop: true, up: [...up, ...back, up[0]!], down: [] });
    } else if (up.length >= 2 && down.length >= 2) out.push({ isLoop: false, up, down });
  }
  return out;
}

function placesOf(stations: readonly PlannedStop[]): Place[] {
  const byName = new Map<string, PlannedStop[]>();
  for (const s of stations) byName.set(s.name, [...(byName.get(s.name) ?? []), s]);
  const lat0 = stations[0]?.lat ?? 31;
  const k = Math.cos((lat0 * Math.PI) / 180) * 111_320;
  // A name with one stop is a planted near-duplicate (the same place entered twice): left for 合并站点.
  return [...byName.values()]
    .filter((stops) => stops.length >= 2)
    .map((stops) => ({ stops, k, x: (stops.reduce((a, s) => a + s.lng, 0) / stops.length) * k, y: (stops.reduce((a, s) => a + s.lat, 0) / stops.length) * 111_320 }));
}

/** The longest of a few walks (at least `min` places when the district allows). */
function bestWalk(rng: Rng, places: readonly Place[], near: readonly number[][], target: number, min: number): number[] {
  let best: number[] = [];
  for (let attempt = 0; attempt < 40 && best.length < Math.min(min, target); attempt++) {
    // Start at a road's end (one neighbour) where there is one: lines run end to end.
    const ends = places.map((_, i) => i).filter((i) => near[i]!.length === 1);
    const start = ends.length && rng.next() < 0.7 ? rng.pick(ends) : rng.int(0, places.length - 1);
    const walk = walkFrom(rng, places, near, start, target);
    if (walk.length > best.length) best = walk;
  }
  return best;
}

function walkFrom(rng: Rng, places: readonly Place[], near: readonly number[][], start: number, target: number): number[] {
  const walk = [start];
  const seen = new Set(walk);
  while (walk.length < target) {
    const here = walk.at(-1)!;
    const options = near[here]!.filter((j) => !seen.has(j));
    if (!options.length) break;
    let next = rng.pick(options);
    const prev = walk.at(-2);
    if (prev !== undefined) {
      const turn = (j: number) => {
        const [ax, ay] = [places[here]!.x - places[prev]!.x, places[here]!.y - places[prev]!.y];
        const [bx, by] = [places[j]!.x - places[here]!.x, places[j]!.y - places[here]!.y];
        return Math.acos(Math.max(-1, Math.min(1, (ax * bx + ay * by) / (Math.hypot(ax, ay) * Math.hypot(bx, by) || 1))));
      };
      const straight = [...options].sort((a, b) => turn(a) - turn(b))[0]!;
      // Mostly straight on; now and then a turn at a crossing. Never a U-turn.
      if (turn(straight) < Math.PI / 3 && rng.next() < 0.85) next = straight;
      else if (turn(next) > (2 * Math.PI) / 3) next = straight;
    }
    walk.push(next);
    seen.add(next);
  }
  return walk;
}

/** The stop of place `walk[n]` on the given side of the direction of travel, in service; else the other one. */
function sideOf(places: readonly Place[], walk: readonly number[], n: number, side: 'right' | 'left'): PlannedStop | undefined {
  const p = places[walk[n]!]!;
  const a = places[walk[Math.max(0, n - 1)]!]!;
  const b = places[walk[Math.min(walk.length - 1, n + 1)]!]!;
  const [vx, vy] = [b.x - a.x, b.y - a.y];
  const scored = p.stops.map((s) => {
    const [ox, oy] = [s.lng * p.k - p.x, s.lat * 111_320 - p.y];
    return { s, cross: vx * oy - vy * ox };
  });
  scored.sort((x, y) => (side === 'right' ? x.cross - y.cross : y.cross - x.cross));
  return scored.map((x) => x.s).find((s) => s.state === 1);
}
