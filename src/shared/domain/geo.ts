/**
 * Geometry at city scale on a local flat projection around the point (error well under a metre
 * over a few kilometres): a stop's distance from a path and where along the path it falls.
 */

export type Pt = readonly [number, number];

const M_PER_DEG = 111_320;

interface Projection {
  /** Metres from the point to the path. */
  offset: number;
  /** Metres along the path to the foot of the perpendicular. */
  along: number;
}

/** The point's nearest place on the polyline `path` ([lng, lat] pairs). */
export function projectOnPath(p: Pt, path: readonly Pt[]): Projection {
  const k = Math.cos((p[1] * Math.PI) / 180) * M_PER_DEG;
  const xy = (q: Pt) => [(q[0] - p[0]) * k, (q[1] - p[1]) * M_PER_DEG] as const;
  let best: Projection = { offset: Number.POSITIVE_INFINITY, along: 0 };
  let walked = 0;
  for (let i = 0; i < path.length; i++) {
    const a = xy(path[i]!);
    const b = xy(path[Math.min(i + 1, path.length - 1)]!);
    const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
    const len2 = dx * dx + dy * dy;
    const u = len2 ? Math.max(0, Math.min(1, -(a[0] * dx + a[1] * dy) / len2)) : 0;
    const offset = Math.hypot(a[0] + u * dx, a[1] + u * dy);
    if (offset < best.offset) best = { offset, along: walked + u * Math.sqrt(len2) };
    walked += Math.sqrt(len2);
  }
  return best;
}

/** Metres from p to the polyline. */
export const distanceToPath = (p: Pt, path: readonly Pt[]) => projectOnPath(p, path).offset;

/** Metres between two points. */
export function metresBetween(a: Pt, b: Pt): number {
  const k = Math.cos((((a[1] + b[1]) / 2) * Math.PI) / 180) * M_PER_DEG;
  return Math.hypot((a[0] - b[0]) * k, (a[1] - b[1]) * M_PER_DEG);
}

/**
 * GPS排序: stops ordered by where they fall along the path; ties keep their current order. A loop
 * (first stop repeated last) keeps both ends, the terminal, where they are: its path starts and ends
 * there, so the terminal projects onto both ends and only the stops between are ordered.
 */
export function orderAlongPath<T extends { lng: number; lat: number; stationId: number }>(stops: readonly T[], path: readonly Pt[]): T[] {
  const loop = stops.length > 2 && stops[0]!.stationId === stops.at(-1)!.stationId;
  const body = loop ? stops.slice(1, -1) : [...stops];
  const keyed = body.map((s, i) => ({ s, i, along: projectOnPath([s.lng, s.lat], path).along }));
  keyed.sort((a, b) => a.along - b.along || a.i - b.i);
  const ordered = keyed.map((k) => k.s);
  return loop ? [stops[0]!, ...ordered, stops.at(-1)!] : ordered;
}
