import { type Station, station } from '../../../shared/api';
import { chooseAction } from '../../components/resource/row-action';
import { api } from '../../lib/api-client';
import { mergedMessage, metres, place, stationDetail } from './station-place';

/** 「杨高中路体育场站」 is 「杨高中路体育场」 entered again: a near-duplicate names the same place. */
export const bare = (name: string) => name.replace(/站$/, '');

const distance = (m: number) => (m < 1000 ? `约 ${Math.round(m)} 米` : `约 ${(m / 1000).toFixed(1)} 公里`);

/**
 * Where `s` could be merged: the other stations of its district, nearest first (a duplicate is
 * entered beside the original), one of the same name first among equals. Never `s` itself.
 */
export async function mergeCandidates(s: Station): Promise<Station[]> {
  const page = await api.call(station.stationList, { query: { page: 0, size: 1000 } }, { silent: true });
  return page.content
    .filter((o) => o.id !== s.id && o.districtId === s.districtId)
    .map((o) => ({ o, m: metres(s, o), same: bare(o.name) === bare(s.name) }))
    .sort((a, b) => a.m - b.m || Number(b.same) - Number(a.same))
    .map((x) => x.o);
}

/**
 * 合并到…: this station (a duplicate) goes into the one chosen, which stays; its lines are
 * repointed and it is removed. Each candidate says where it is, so two of one name differ; the
 * highlighted one's preview says what changes or what blocks it before Enter merges.
 */
export const mergeInto = chooseAction({
  id: 'merge',
  label: '合并到…',
  hotkey: 'm',
  permission: station.stationMerge.permission,
  danger: true,
  endpoint: station.stationMerge,
  choose: {
    label: '选择保留的站点（当前站点并入它后删除）',
    intro: (s: Station) => `将把「${s.name}」（${s.districtName ?? '未知区域'}，${place(s)}）并入所选站点并删除，不能撤销`,
    options: mergeCandidates,
    show: (o: Station, s: Station) => {
      const [district, ...rest] = stationDetail(o).split(' · ');
      return { id: String(o.id), title: o.name, subtitle: [district, distance(metres(s, o)), ...rest].join(' · ') };
    },
    empty: '没有可并入的站点',
    outcome: (s: Station, keep: Station) => mergeOutcome(s, keep),
    run: (s: Station, keep: Station) => api.call(station.stationMerge, { query: { stationId: keep.id, mergeStationId: s.id } }, { silent: true }),
    done: (s, _keep, answer) => mergedMessage(answer.keep, s, answer.lines),
  },
});

/** What merging `s` into `keep` changes, or what blocks it: the server's preview in words. */
export async function mergeOutcome(s: Station, keep: Station): Promise<{ text: string; blocked?: boolean }> {
  const p = await api.call(station.stationMergePreview, { query: { stationId: keep.id, mergeStationId: s.id } }, { silent: true });
  if (p.blockedBy.length) return { text: `「${p.merge.name}」被不可编辑的版本使用，不能合并：${p.blockedBy.map((v) => v.versionName).join('、')}`, blocked: true };
  const lines = new Set(p.affected.map((r) => r.lineId)).size;
  const where = `并入「${keep.name}」（${place(keep)}）`;
  return { text: lines ? `${where}，改动 ${lines} 条线路，删除「${s.name}」` : `${where}：没有线路经过「${s.name}」，只删除该站点` };
}
