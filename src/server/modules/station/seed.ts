import * as t from '../../db/schema';
import type { SeedGenerator } from '../../db/seed/context';
import type { Rng } from '../../db/seed/rng';

/** Road names of the demo city: a stop is named by its road and the cross road (延安西路江苏路). */
const ROADS = [
  '延安西路', '南京西路', '淮海中路', '中山北路', '长寿路', '武宁路', '曹杨路', '天目西路', '共和新路', '四平路',
  '大连路', '黄兴路', '控江路', '江苏路', '华山路', '漕溪北路', '虹桥路', '肇嘉浜路', '徐家汇路', '西藏南路',
  '河南中路', '北京东路', '福州路', '人民路', '复兴中路', '建国西路', '零陵路', '龙华路', '宜山路', '古北路',
  '仙霞路', '天山路', '金沙江路', '真北路', '大渡河路', '光复西路', '宝山路', '同济路', '军工路', '翔殷路',
  '世纪大道', '张杨路', '浦东大道', '杨高中路', '锦绣路', '东方路', '川沙路', '莘庄路', '沪闵路', '七莘路',
];
/** Places a stop can be named after instead of a cross road. */
const PLACES = ['人民广场', '火车站', '体育场', '中心医院', '图书馆', '公园', '菜市场', '第一中学', '地铁站', '商业中心', '政务中心', '科技园'];

const M_PER_DEG_LAT = 111_320;

export interface StationPlan {
  districtId: number;
  name: string;
  lng: number;
  lat: number;
  state: number;
  qrCode: string | null;
}

const code = (rng: Rng) => `s${Array.from({ length: 9 }, () => 'abcdefghjkmnpqrstuvwxyz23456789'[rng.int(0, 30)]).join('')}`;

/**
 * One district's stops: `roads` roads cross near its centre at random angles; along each, a stop
 * every 500–800 m, on both sides of the street (25 m apart, one name); a few planted near-duplicates
 * (the same place entered twice, 10–20 m apart, with 站 appended) for 合并站点; ~2 % out of service;
 * ~70 % with a QR code, so 生成二维码 has work to do.
 */
export function planDistrictStations(rng: Rng, districtId: number, centre: { lat: number; lon: number }, roads: number, stopsPerRoad: number): StationPlan[] {
  const out: StationPlan[] = [];
  const mPerDegLng = M_PER_DEG_LAT * Math.cos((centre.lat * Math.PI) / 180);
  const at = (x: number, y: number) => ({ lng: +(centre.lon + x / mPerDegLng).toFixed(6), lat: +(centre.lat + y / M_PER_DEG_LAT).toFixed(6) });
  const used = new Set<string>();
  for (let r = 0; r < roads; r++) {
    const road = rng.pick(ROADS);
    const angle = rng.next() * Math.PI;
    const [dx, dy] = [Math.cos(angle), Math.sin(angle)];
    // The road passes within 1.5 km of the centre.
    const offset = (rng.next() - 0.5) * 3000;
    let along = -((stopsPerRoad - 1) / 2) * 650;
    for (let s = 0; s < stopsPerRoad; s++) {
      let name = `${road}${rng.next() < 0.2 ? rng.pick(PLACES) : rng.pick(ROADS.filter((x) => x !== road))}`;
      if (used.has(name)) name = `${name}${s + 1}号`;
      used.add(name);
      const x = along * dx - offset * dy;
      const y = along * dy + offset * dx;
      for (const side of [-1, 1]) {
        const p = at(x - side * 12.5 * dy, y + side * 12.5 * dx);
        out.push({ districtId, name, ...p, state: rng.next() < 0.02 ? 0 : 1, qrCode: rng.next() < 0.7 ? code(rng) : null });
      }
      if (s % 4 === 2 && r < 2) {
        const p = at(x + 10 + rng.next() * 10, y + rng.next() * 10);
        out.push({ districtId, name: `${name}站`, ...p, state: 1, qrCode: null });
      }
      along += 500 + rng.int(0, 300);
    }
  }
  return out;
}

/** Demo: about 1,200 stops over the city's 16 districts (the small profile: a few dozen). */
export const stationDemoSeed: SeedGenerator[] = [
  {
    name: 'stations',
    async run({ db, rng, now, profile }) {
      const districts = await db.select().from(t.districts).orderBy(t.districts.id);
      const [roads, stops] = profile.name === 'demo' ? [4, 10] : [2, 5];
      const rows = districts.flatMap((d) => planDistrictStations(rng, d.id, { lat: d.lat ?? 31.23, lon: d.lon ?? 121.47 }, roads, stops));
      for (let i = 0; i < rows.length; i += 500) {
        await db.insert(t.stations).values(rows.slice(i, i + 500).map((r) => ({ ...r, createdAt: now, updatedAt: now })));
      }
    },
  },
];
