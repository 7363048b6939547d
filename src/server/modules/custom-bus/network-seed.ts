import { asc, eq } from 'drizzle-orm';
import { derivedPrice } from '../../../shared/api/custom-bus/network';
import type { SeedContext, SeedGenerator } from '../../db/seed/context';
import type { Rng } from '../../db/seed/rng';
import * as t from '../../db/schema';
import { continueIds } from '../../db/seed/bulk';
import { customLinePaths, customLineStops, customLines, customStations } from './schema';

/**
 * The demo's 定制公交 network: 8 business parks and 12 residential areas of the demo city, each
 * corridor (an area to a park) with its own 6 stations and the park's 6 shared by its corridors
 * (120 stations), two lines a corridor (24: 20 往返, 2 上行 only, 2 下行 only; 2 drafts, 2 下架),
 * each leg with its stops and a drawn path. A station within 1.5 km of a regular stop of its district
 * is that stop (linked, at its coordinates). The small profile: a couple of lines per district.
 */

interface Place {
  name: string;
  lat: number;
  lng: number;
}
interface Park extends Place {
  district: string;
}

const PARKS: Park[] = [
  { name: '漕河泾', district: '徐汇区', lat: 31.168, lng: 121.397 },
  { name: '张江', district: '浦东新区', lat: 31.205, lng: 121.59 },
  { name: '陆家嘴', district: '浦东新区', lat: 31.237, lng: 121.505 },
  { name: '虹桥商务区', district: '闵行区', lat: 31.195, lng: 121.32 },
  { name: '紫竹园区', district: '闵行区', lat: 31.02, lng: 121.44 },
  { name: '市北高新', district: '静安区', lat: 31.282, lng: 121.455 },
  { name: '五角场', district: '杨浦区', lat: 31.305, lng: 121.513 },
  { name: '金桥', district: '浦东新区', lat: 31.26, lng: 121.6 },
];
const PARK_STOPS = ['地铁站', '北门', '中心广场', '南门', '东区', '西区'];

const AREAS: Place[] = [
  { name: '莘庄', lat: 31.111, lng: 121.385 },
  { name: '九亭', lat: 31.135, lng: 121.321 },
  { name: '川沙', lat: 31.19, lng: 121.7 },
  { name: '航头', lat: 31.055, lng: 121.605 },
  { name: '七宝', lat: 31.157, lng: 121.35 },
  { name: '惠南', lat: 31.05, lng: 121.76 },
  { name: '嘉定新城', lat: 31.355, lng: 121.245 },
  { name: '泗泾', lat: 31.12, lng: 121.265 },
  { name: '春申', lat: 31.09, lng: 121.43 },
  { name: '顾村', lat: 31.35, lng: 121.385 },
  { name: '江湾', lat: 31.33, lng: 121.48 },
  { name: '大华', lat: 31.285, lng: 121.415 },
];
const AREA_STOPS = ['地铁站', '社区中心', '公交枢纽', '商业街', '新村', '路口'];
/** Corridor i: AREAS[i] → PARKS[CORRIDOR_PARK[i]]. */
const CORRIDOR_PARK = [0, 0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 7];

const KM_PER_DEG = 111;
/** A custom station this close to a regular stop of its district shares it (linked, at its coordinates). */
const LINK_KM = 1.5;
const distKm = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) => Math.hypot((a.lat - b.lat) * KM_PER_DEG, (a.lng - b.lng) * KM_PER_DEG * Math.cos((a.lat * Math.PI) / 180));
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** `n` stops around a place, a few hundred metres apart. */
const around = (rng: Rng, p: Place, suffixes: readonly string[]) =>
  suffixes.map((s, i) => ({ name: `${p.name}${s}`, lat: round6(p.lat + Math.cos(i * 1.1) * 0.004 * (1 + (i % 3)) + (rng.next() - 0.5) * 0.001), lng: round6(p.lng + Math.sin(i * 1.1) * 0.004 * (1 + (i % 3)) + (rng.next() - 0.5) * 0.001) }));

/** A road-ish path through the stops: a bend between each two. */
function pathThrough(rng: Rng, stops: readonly { lat: number; lng: number }[]): [number, number][] {
  const out: [number, number][] = [];
  stops.forEach((s, i) => {
    out.push([round6(s.lng), round6(s.lat)]);
    const next = stops[i + 1];
    if (next) out.push(rng.next() < 0.5 ? [round6(next.lng), round6(s.lat)] : [round6(s.lng), round6(next.lat)]);
  });
  return out;
}

/** Minutes from the first stop: 2.2 min a km plus a minute a stop, strictly increasing. */
function offsets(stops: readonly { lat: number; lng: number }[]) {
  let m = 0;
  return stops.map((s, i) => (i === 0 ? 0 : (m += Math.max(2, Math.round(distKm(stops[i - 1]!, s) * 2.2) + 1))));
}

interface PlannedLine {
  districtId: number;
  lineNo: string;
  name: string;
  direction: -1 | 0 | 1;
  status: 0 | 1 | 2;
  /** Station keys of the 上行 leg (the 下行 is its reverse). */
  up: string[];
  depart: number;
  returnDepart: number;
  originalPrice: number;
  discountType: 1 | 2 | 3;
  discountRate: number | null;
  discountPrice: number | null;
  seats: number;
  withPath: boolean;
}

async function seedNetwork({ db, rng, now, profile }: SeedContext): Promise<void> {
  const districts = await db.select({ id: t.districts.id, name: t.districts.name, lat: t.districts.lat, lon: t.districts.lon }).from(t.districts).orderBy(asc(t.districts.id));
  if (!districts.length) return;
  const byName = new Map(districts.map((d) => [d.name, d.id]));
  const demo = profile.name === 'demo';

  // Stations keyed `district:name`, and the lines over them.
  const stations = new Map<string, Place & { districtId: number }>();
  const add = (districtId: number, p: Place) => {
    const key = `${districtId}:${p.name}`;
    stations.set(key, { ...p, districtId });
    return key;
  };
  const lines: PlannedLine[] = [];
  const plan = (districtId: number, i: number, area: Place, park: Place, areaKeys: string[], parkKeys: string[]) => {
    const base = 100 + i + 1;
    const price = 800 + Math.round(distKm(area, park) * 60 / 100) * 100;
    const shared = { districtId, originalPrice: price, seats: rng.pick([33, 45, 49]) };
    // The all-stops 往返 line, then the express (fewer stops).
    lines.push({ ...shared, lineNo: `D${base}`, name: `${area.name}—${park.name}`.slice(0, 15), direction: -1, status: 1, up: [...areaKeys.slice(0, 4), ...parkKeys.slice(0, 3)], depart: 7 * 3600 + rng.int(0, 4) * 600, returnDepart: 17 * 3600 + 1800 + rng.int(0, 4) * 600, discountType: 2, discountRate: rng.pick([700, 800, 850, 900]), discountPrice: null, withPath: true });
    lines.push({ ...shared, lineNo: `D${base + 100}`, name: `${area.name}—${park.name}快线`.slice(0, 15), direction: -1, status: 1, up: [areaKeys[0]!, areaKeys[2]!, parkKeys[0]!, parkKeys[3] ?? parkKeys[1]!], depart: 7 * 3600 + 1800 + rng.int(0, 3) * 600, returnDepart: 18 * 3600 + rng.int(0, 3) * 600, discountType: rng.pick([1, 3] as const), discountRate: null, discountPrice: null, withPath: true });
  };

  const regular = await db.select({ id: t.stations.id, districtId: t.stations.districtId, lat: t.stations.lat, lng: t.stations.lng }).from(t.stations).where(eq(t.stations.state, 1));
  if (demo) {
    const parkKeys = PARKS.map((p) => {
      const d = byName.get(p.district) ?? districts[0]!.id;
      // A park's 地铁站 is the district's regular stop nearest to it (within 5 km), so its stations share stops.
      let hub: Place = p;
      let best = 5;
      for (const r of regular) if (r.districtId === d && distKm(p, r) < best) (best = distKm(p, r)), (hub = { name: p.name, lat: r.lat, lng: r.lng });
      return around(rng, hub, PARK_STOPS).map((s) => add(d, s));
    });
    AREAS.forEach((area, i) => {
      const pi = CORRIDOR_PARK[i]!;
      const d = byName.get(PARKS[pi]!.district) ?? districts[0]!.id;
      const areaKeys = around(rng, area, AREA_STOPS).map((s) => add(d, s));
      plan(d, i, area, PARKS[pi]!, areaKeys, parkKeys[pi]!);
    });
  } else {
    districts.forEach((d, i) => {
      const c = { lat: d.lat ?? 31.23, lng: d.lon ?? 121.47 };
      const short = d.name.replace(/(新区|区)$/, '');
      const park = { name: `${short}科技园`, lat: c.lat + 0.015, lng: c.lng + 0.02 };
      const area = { name: `${short}新村`, lat: c.lat - 0.02, lng: c.lng - 0.015 };
      const parkKeys = around(rng, park, PARK_STOPS.slice(0, 4)).map((s) => add(d.id, s));
      const areaKeys = around(rng, area, AREA_STOPS.slice(0, 4)).map((s) => add(d.id, s));
      plan(d.id, i, area, park, areaKeys, parkKeys);
    });
  }

  // Some lines run one way only; two are drafts, two off sale (the demo's; the small profile keeps one draft).
  const n = lines.length;
  if (demo) {
    lines[1]!.direction = 0;
    lines[3]!.direction = 0;
    lines[5]!.direction = 1;
    lines[7]!.direction = 1;
    lines[n - 1]!.status = 0;
    lines[n - 1]!.withPath = false;
    lines[n - 3]!.status = 0;
    lines[n - 5]!.status = 2;
    lines[n - 7]!.status = 2;
  } else {
    lines[n - 1]!.status = 0;
    lines[n - 1]!.withPath = false;
  }
  lines.forEach((l, i) => {
    if (l.discountType === 3) l.discountPrice = Math.max(100, l.originalPrice - 200 - (i % 3) * 100);
  });

  // A station near a regular stop of its district is that stop.
  const taken = new Set<number>();
  const stationRows = [...stations.entries()].map(([key, s]) => {
    let best: (typeof regular)[number] | null = null;
    let bestKm = LINK_KM;
    for (const r of regular) {
      if (r.districtId !== s.districtId || taken.has(r.id)) continue;
      const km = distKm(s, r);
      if (km < bestKm) (best = r), (bestKm = km);
    }
    if (best) taken.add(best.id);
    return { key, districtId: s.districtId, name: s.name, address: `${s.name}附近`, lat: best ? best.lat : s.lat, lng: best ? best.lng : s.lng, busStationId: best?.id ?? null, status: 1, createdAt: now, updatedAt: now };
  });
  const inserted = await db
    .insert(customStations)
    .values(stationRows.map(({ key: _key, ...r }) => r))
    .returning({ id: customStations.id, districtId: customStations.districtId, name: customStations.name, lat: customStations.lat, lng: customStations.lng });
  const idOf = new Map(stationRows.map((r, i) => [r.key, inserted[i]!]));
  // One station no line uses is out of service (a 停用 to see in the list).
  const used = new Set(lines.flatMap((l) => l.up));
  const spare = stationRows.find((r) => !used.has(r.key));
  if (spare) await db.update(customStations).set({ status: 0 }).where(eq(customStations.id, idOf.get(spare.key)!.id));

  const [admin] = await db.select({ id: t.users.id }).from(t.users).where(eq(t.users.login, 'admin'));
  const stopRows: (typeof customLineStops.$inferInsert)[] = [];
  const pathRows: (typeof customLinePaths.$inferInsert)[] = [];
  for (const [i, l] of lines.entries()) {
    const up = l.up.map((k) => idOf.get(k)!);
    const upOffsets = offsets(up);
    const span = upOffsets[upOffsets.length - 1]! * 60;
    const [row] = await db
      .insert(customLines)
      .values({
        districtId: l.districtId,
        lineNo: l.lineNo,
        name: l.name,
        direction: l.direction,
        startStationId: up[0]!.id,
        endStationId: up[up.length - 1]!.id,
        departTime: l.direction === 1 ? l.returnDepart : l.depart,
        arriveTime: (l.direction === 1 ? l.returnDepart : l.depart) + span,
        returnDepartTime: l.direction === -1 ? l.returnDepart : null,
        returnArriveTime: l.direction === -1 ? l.returnDepart + span : null,
        originalPrice: l.originalPrice,
        discountType: l.discountType,
        discountRate: l.discountRate,
        discountPrice: l.discountPrice,
        price: derivedPrice(l),
        ticketTypes: i % 4 === 3 ? [1] : [1, 2],
        defaultSeats: l.seats,
        status: l.status,
        sort: i + 1,
        remark: l.status === 2 ? '客流不足，暂停运营' : '',
        createdBy: admin?.id ?? null,
        createdAt: new Date(now.getTime() - (n - i) * 86_400_000),
        updatedAt: now,
      })
      .returning({ id: customLines.id });
    if (!l.withPath) continue;
    for (const leg of l.direction === -1 ? ([0, 1] as const) : ([l.direction] as const)) {
      const stops = leg === 0 ? up : [...up].reverse();
      const off = offsets(stops);
      stops.forEach((s, seq) => stopRows.push({ lineId: row!.id, direction: leg, seq: seq + 1, stationId: s.id, offsetMin: off[seq]!, mode: seq === 0 ? 1 : seq === stops.length - 1 ? 2 : 0 }));
      pathRows.push({ lineId: row!.id, direction: leg, points: pathThrough(rng, stops), updatedAt: now });
    }
  }
  if (stopRows.length) await db.insert(customLineStops).values(stopRows);
  if (pathRows.length) await db.insert(customLinePaths).values(pathRows);
  await continueIds(db, 'custom_stations');
  await continueIds(db, 'custom_lines');
}

export const networkDemoSeed: SeedGenerator[] = [{ name: 'customNetwork', run: seedNetwork }];
