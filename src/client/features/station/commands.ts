import { type Station, station } from '../../../shared/api';
import { pagePath } from '../../../shared/modules';
import type { EntitySource } from '../../commands/entity-source';
import type { Command } from '../../commands/types';
import { recordActions, requestChoice } from '../../components/resource/row-action';
import { api } from '../../lib/api-client';
import { mergeDuplicates } from './merge-duplicates';
import { stationActions } from './station-actions';
import { stationDetail } from './station-place';

/** The area's stations as palette choices, searchable by pinyin and initials. */
const stationOptions = async () => {
  const page = await api.call(station.stationList, { query: { page: 0, size: 1000 } }, { silent: true });
  // Two stops of one name (both sides of a street) differ in their subtitle: district, place, QR code.
  return page.content.map((s) => ({ value: String(s.id), label: s.name, subtitle: stationDetail(s), keywords: [`${s.lng.toFixed(4)},${s.lat.toFixed(4)}`, s.districtName ?? ''] }));
};

export const stationCommands: Command[] = [
  {
    id: 'station.add',
    title: '新增站点',
    group: '站点管理',
    keywords: ['站点', 'station'],
    permission: station.stationSave.permission,
    page: pagePath('station', 'station'),
    run: (ctx) => ctx.navigate(pagePath('station', 'station', { action: 'add' })),
  },
  {
    id: 'station.merge',
    title: '合并站点',
    group: '站点管理',
    keywords: ['重复', '合并', 'merge'],
    permission: station.stationMerge.permission,
    page: pagePath('station', 'station'),
    args: [
      { name: 'keep', label: '保留的站点', kind: 'choice', options: stationOptions },
      {
        name: 'merge',
        label: '被合并并删除的站点',
        kind: 'choice',
        options: stationOptions,
        // The server refuses it too; said here, the step stays for another choice.
        validate: (merge, { keep }) => (merge === keep ? '不能把站点合并到它自己，请选择另一个站点' : null),
      },
    ],
    run: (ctx, a) => ctx.navigate(pagePath('station', 'station', { action: 'merge', query: { keep: a.keep, merge: a.merge } })),
  },
  {
    // Alt+M means merging wherever it is pressed: on a stop in the palette, 合并到…; elsewhere, the
    // area's likely duplicates, each pair one Enter away.
    id: 'station.merge-duplicates',
    title: '合并重复站点',
    group: '站点管理',
    keywords: ['重复', '合并', 'chongfu', 'hebing', 'duplicate'],
    permission: station.stationMerge.permission,
    page: pagePath('station', 'station'),
    hotkey: 'alt+m',
    run: () => requestChoice(mergeDuplicates, null, '疑似重复站点'),
  },
  {
    id: 'station.qr-generate',
    title: '生成缺少的站点二维码',
    group: '站点管理',
    keywords: ['二维码', 'qr'],
    permission: station.stationQrInit.permission,
    page: pagePath('station', 'station-qr-code'),
    run: (ctx) => ctx.navigate(pagePath('station', 'station-qr-code', { action: 'generate' })),
  },
  {
    id: 'station.qr-export',
    title: '导出站点二维码（Excel）',
    group: '站点管理',
    keywords: ['二维码', '导出', 'excel', 'qr'],
    permission: station.stationQrExport.permission,
    page: pagePath('station', 'station-qr-code'),
    run: (ctx) => ctx.navigate(pagePath('station', 'station-qr-code', { action: 'export' })),
  },
  {
    id: 'station.gps-sort',
    title: 'GPS排序（按轨迹排列线路站点）',
    group: '站点管理',
    keywords: ['排序', 'gps', '轨迹'],
    permission: station.stationList.permission,
    page: pagePath('station', 'gps-sort'),
    run: (ctx) => ctx.navigate(pagePath('station', 'gps-sort')),
  },
];

/** A station as a `#` record: Enter opens 站点 filtered by its name; Tab its row actions (停用, 编辑). */
const stationRecord = (s: Station) => ({
  key: `station:${s.id}`,
  title: s.name,
  subtitle: [s.districtName, s.state ? null : '停用'].filter(Boolean).join(' · '),
  path: pagePath('station', 'station', { query: { name: s.name } }),
  actions: recordActions(stationActions, s),
});

export const stationSources: EntitySource[] = [
  {
    id: 'stations',
    group: '站点',
    permission: station.stationList.permission,
    page: pagePath('station', 'station'),
    prefix: '#',
    // A district has a few hundred stops: loaded once per opening and ranked with pinyin (rmgc → 人民广场).
    async load() {
      const page = await api.call(station.stationList, { query: { page: 0, size: 1000 } }, { silent: true });
      return page.content.map(stationRecord);
    },
    async query(q) {
      const page = await api.call(station.stationList, { query: { name: q, size: 8 } }, { silent: true });
      return page.content.map(stationRecord);
    },
  },
];
