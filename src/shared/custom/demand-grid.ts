/**
 * The 500 m grid that riders' home and work points are coarsened to (decision 83: points shown only
 * to a 500 m grid). A cell is 'x:y', the integer steps of longitude and latitude from 0°; the
 * longitude step is taken at Shanghai's latitude so a cell is about 500 m × 500 m across the city.
 * The cell is what is stored in the clear, clustered and shown; the point itself stays sealed.
 */
export const CELL_M = 500;
const M_PER_DEG_LAT = 111_320;
/** cos(31.2°): the demo city's latitude; a fixed value keeps cells stable wherever a point falls. */
const COS_REF = Math.cos((31.2 * Math.PI) / 180);
export const LAT_STEP = CELL_M / M_PER_DEG_LAT;
export const LNG_STEP = CELL_M / (M_PER_DEG_LAT * COS_REF);

export const cellOf = (lng: number, lat: number) => `${Math.floor(lng / LNG_STEP)}:${Math.floor(lat / LAT_STEP)}`;

/** The centre of a cell, rounded to 5 decimals (≈1 m): what a list shows instead of the point. */
export function cellCentre(cell: string): { lng: number; lat: number } | null {
  const m = /^(-?\d{1,7}):(-?\d{1,7})$/.exec(cell);
  if (!m) return null;
  const round = (v: number) => Math.round(v * 1e5) / 1e5;
  return { lng: round((Number(m[1]) + 0.5) * LNG_STEP), lat: round((Number(m[2]) + 0.5) * LAT_STEP) };
}

/** Great-circle distance in metres (haversine): stations within 1 km, a demand's length. */
export function distanceM(a: { lng: number; lat: number }, b: { lng: number; lat: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return Math.round(2 * 6_371_000 * Math.asin(Math.sqrt(h)));
}

/** The clustering window: go times grouped by the half hour they fall in. */
export const WINDOW_S = 1800;
export const windowOf = (seconds: number) => Math.floor(seconds / WINDOW_S) * WINDOW_S;
/** A stop is snapped to a station at most this far from the cell's centre. */
export const SNAP_M = 1000;

/** Seconds after midnight as HH:mm. */
export const hhmm = (seconds: number) => `${String(Math.floor(seconds / 3600)).padStart(2, '0')}:${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}`;
