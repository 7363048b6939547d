import { type Station, station } from '../../../shared/api';
import { chooseAction } from '../../components/resource/row-action';
import { api } from '../../lib/api-client';
import { bare, mergeOutcome } from './merge-action';
import { mergedMessage, metres, place, qrOf } from './station-place';

/** Two stops of one name entered for one place: the one to remove, and the one kept. */
export interface DuplicatePair {
  merge: Station;
  keep: Station;
  metres: number;
}

/**
 * Near enough to be one place entered twice. The two sides of a street share a name 25 m apart and
 * are two stops, so the same name counts only under 20 m; 「X站」 beside 「X」 (a name typed again
 * with 站) up to 50 m.
 */
const SAME_NAME_M = 20;
const SUFFIXED_M = 50;

/** Which of the two stays: the one without 站 typed on, then the one with a QR code, then the older. */
const keepsFirst = (a: Station, b: Station) =>
  (a.name.endsWith('站') ? 1 : 0) - (b.name.endsWith('站') ? 1 : 0) || (b.qrCode ? 1 : 0) - (a.qrCode ? 1 : 0) || a.id - b.id;

/** The area's likely duplicates, nearest first: each stop in at most one pair, with its nearest twin. */
export function duplicatePairs(stations: readonly Station[]): DuplicatePair[] {
  const byName = new Map<string, Station[]>();
  for (const s of stations) byName.set(`${s.districtId}:${bare(s.name)}`, [...(byName.get(`${s.districtId}:${bare(s.name)}`) ?? []), s]);
  const pairs: DuplicatePair[] = [];
  for (const group of byName.values()) {
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) {
        const [a, b] = [group[i]!, group[j]!];
        const m = metres(a, b);
        if (m > (a.name === b.name ? SAME_NAME_M : SUFFIXED_M)) continue;
        const [keep, merge] = keepsFirst(a, b) <= 0 ? [a, b] : [b, a];
        pairs.push({ keep, merge, metres: m });
      }
    }
  }
  // Nearest first, each stop in one pair: one close to both sides of its street pairs with the nearer.
  const used = new Set<number>();
  return pairs
    .sort((x, y) => x.metres - y.metres)
    .filter((p) => {
      if (used.has(p.merge.id) || used.has(p.keep.id)) return false;
      used.add(p.merge.id).add(p.keep.id);
      return true;
    });
}

/**
 * 合并重复站点 (Alt+M anywhere but in a field): the area's stops entered twice, each pair the whole
 * change in words (which one goes, which stays, how far apart), typed to narrow by either name;
 * the highlighted pair's outcome shows before Enter merges it. Other pairs: 合并到… on the stop.
 */
export const mergeDuplicates = chooseAction<null, DuplicatePair, Awaited<ReturnType<typeof merge>>>({
  id: 'merge-duplicates',
  label: '合并重复站点',
  permission: station.stationMerge.permission,
  danger: true,
  endpoint: station.stationMerge,
  choose: {
    label: '疑似重复的站点（前者并入后者后删除）',
    intro: () => '同名站点相距不到 20 米、或名称只多一个「站」字相距不到 50 米的，按距离列出；合并不能撤销',
    options: async () => duplicatePairs((await api.call(station.stationList, { query: { page: 0, size: 1000 } }, { silent: true })).content),
    show: (p) => ({
      id: `${p.merge.id}>${p.keep.id}`,
      title: `「${p.merge.name}」并入「${p.keep.name}」`,
      subtitle: [p.keep.districtName ?? '未知区域', `相距约 ${Math.round(p.metres)} 米`, `${place(p.merge)} → ${place(p.keep)}`, qrOf(p.keep)].join(' · '),
      keywords: [p.merge.name, p.keep.name],
    }),
    empty: '没有疑似重复的站点',
    outcome: (_, p) => mergeOutcome(p.merge, p.keep),
    run: (_, p) => merge(p),
    done: (_, p, answer) => mergedMessage(answer.keep, p.merge, answer.lines),
  },
});

const merge = (p: DuplicatePair) => api.call(station.stationMerge, { query: { stationId: p.keep.id, mergeStationId: p.merge.id } }, { silent: true });
