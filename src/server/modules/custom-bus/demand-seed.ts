import { sql } from 'drizzle-orm';
import { cellOf, distanceM } from '../../../shared/custom/demand-grid';
import { bulkInsert, continueIds } from '../../db/seed/bulk';
import type { Literal } from '../../db/seed/copy-text';
import { DAY_MS, type SeedContext } from '../../db/seed/context';

/**
 * 定制列表 and 定制记录's demo rows: 300 demands and 6,000 submissions around 8 business parks (the
 * small profile: a tenth). A park is the regular stop nearest its district's centre (so the heat map's
 * ends snap to a real station); the homes are other stops of the district 1.5 km or more away. Each
 * demand is one home area → a park in a morning window; its records are its riders' points (within
 * ≈150 m of the home stop and of the park, sealed) and go times in the window, so each clusters into
 * a cell or two. Some submissions match no demand yet. Where the network part seeded lines, some
 * demands are 已开通 on a line of their district; without lines (a worktree of this part alone) none.
 */
const PARKS = ['漕河泾开发区', '张江科学城', '金桥经济技术开发区', '市北高新园区', '紫竹高新区', '虹桥商务区', '长阳创谷', '大宁商业中心'];
const WINDOWS = [7 * 3600, 7 * 3600 + 1800, 8 * 3600, 8 * 3600 + 1800];
const DECLINE_REPLIES = ['沿线已有常规公交直达，暂不开通', '报名人数较少，继续征集中', '道路条件暂不具备定制公交通行条件'];

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

const DEMAND_COLUMNS = [
  'id', 'district_id', 'from_name', 'from_lng', 'from_lat', 'from_radius_m', 'to_name', 'to_lng', 'to_lat', 'to_radius_m',
  'go_from', 'go_to', 'back_from', 'back_to', 'distance_m', 'supporters', 'threshold', 'state', 'line_id', 'reply', 'handled_at', 'created_at', 'updated_at',
] as const;
const RECORD_COLUMNS = ['id', 'district_id', 'demand_id', 'rider_id', 'home_name', 'home_enc', 'home_cell', 'work_name', 'work_enc', 'work_cell', 'go_time', 'back_time', 'status', 'created_at', 'updated_at'] as const;

async function seedDemand(ctx: SeedContext): Promise<void> {
  const { db, rng, now, pii, profile } = ctx;
  const demo = profile.name === 'demo';
  const demandTotal = demo ? 300 : 30;
  const recordTotal = demo ? 6000 : 600;
  const districts = rowsOf<{ id: number; name: string; lat: number | null; lon: number | null }>(await db.execute(sql`select id, name, lat, lon from districts order by id limit 8`));
  const riders = rowsOf<{ id: number }>(await db.execute(sql`select id from riders order by id limit 5000`)).map((r) => r.id);
  if (!districts.length || !riders.length) return;
  const lines = rowsOf<{ id: number; district_id: number }>(await db.execute(sql`select id, district_id from custom_lines where status in (0, 1) order by id`));

  type Stop = { name: string; lng: number; lat: number };
  const parks: { districtId: number; park: Stop; homes: Stop[] }[] = [];
  for (const [i, d] of districts.entries()) {
    const stops = rowsOf<Stop>(await db.execute(sql`select name, lng, lat from stations where district_id = ${d.id} and state = 1 order by id`));
    if (stops.length < 3) continue;
    const centre = { lng: d.lon ?? stops[0]!.lng, lat: d.lat ?? stops[0]!.lat };
    const hub = [...stops].sort((x, y) => distanceM(x, centre) - distanceM(y, centre))[0]!;
    const far = stops.filter((s) => distanceM(s, hub) >= 1500);
    const homes = (far.length ? far : stops.filter((s) => s !== hub)).slice(0, 40);
    parks.push({ districtId: d.id, park: { ...hub, name: PARKS[i % PARKS.length]! }, homes });
  }
  if (!parks.length) return;

  // Within ≈150 m of a point: the riders of one area fall in one or two 500 m cells.
  const jitter = (p: { lng: number; lat: number }) => ({ lng: +(p.lng + (rng.next() - 0.5) * 0.003).toFixed(6), lat: +(p.lat + (rng.next() - 0.5) * 0.0026).toFixed(6) });
  const demands: Literal[][] = [];
  const records: Literal[][] = [];
  // Supporters per demand, spread around the mean so some reach the threshold of 30 and most do not.
  const mean = recordTotal / demandTotal;
  let recordId = 0;
  for (let k = 0; k < demandTotal; k++) {
    const id = k + 1;
    const { districtId, park, homes } = parks[k % parks.length]!;
    const home = homes[Math.floor(k / parks.length) % homes.length]!;
    const go = WINDOWS[rng.int(0, WINDOWS.length - 1)]!;
    const left = recordTotal - recordId;
    const want = k === demandTotal - 1 ? left : Math.min(left, Math.max(3, Math.round(mean * (0.25 + rng.next() * 1.9))));
    const created = new Date(now.getTime() - rng.int(5, 120) * DAY_MS);
    const roll = rng.next();
    const own = lines.filter((l) => l.district_id === districtId);
    const state = roll < 0.12 && own.length ? 1 : roll < 0.35 ? 2 : 0;
    const handled = state === 0 ? null : new Date(created.getTime() + rng.int(1, 4) * DAY_MS);
    demands.push([
      id, districtId, `${home.name}周边`, home.lng, home.lat, 1000, park.name, park.lng, park.lat, 1000,
      go, go + 3600, go + 10 * 3600, go + 11 * 3600, distanceM(home, park), want, 30, state,
      state === 1 ? rng.pick(own).id : null, state === 2 ? rng.pick(DECLINE_REPLIES) : state === 1 ? '已开通定制线路，欢迎购票' : '', handled, created, handled ?? created,
    ]);
    for (let j = 0; j < want; j++) {
      const h = jitter(home);
      const w = jitter(park);
      const at = new Date(created.getTime() + rng.int(0, 4 * 86_400) * 1000);
      // One in ten came in after the demand was aggregated and waits to be matched.
      const matched = rng.next() >= 0.1;
      records.push([
        ++recordId, districtId, matched ? id : null, riders[(recordId * 7) % riders.length]!, `${home.name}周边`, pii.encrypt(`${h.lng},${h.lat}`), cellOf(h.lng, h.lat),
        park.name, pii.encrypt(`${w.lng},${w.lat}`), cellOf(w.lng, w.lat), go + rng.int(0, 1799), go + 10 * 3600 + rng.int(0, 3599),
        !matched ? 0 : state === 1 ? 2 : 1, at, at,
      ]);
    }
  }
  await bulkInsert(db, 'custom_demands', DEMAND_COLUMNS, demands);
  await bulkInsert(db, 'custom_demand_records', RECORD_COLUMNS, records);
  // Supporters count the matched submissions.
  await db.execute(sql`update custom_demands d set supporters = (select count(*)::int from custom_demand_records r where r.demand_id = d.id)`);
  await continueIds(db, 'custom_demands');
  await continueIds(db, 'custom_demand_records');
}

export const demandSeedSteps = [{ name: 'custom-demand', run: seedDemand }];
