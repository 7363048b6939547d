import { busLine } from '../../../shared/api';
import { directionLabel } from '../../../shared/api/bus-line';
import { pagePath } from '../../../shared/modules';
import type { EntitySource } from '../../commands/entity-source';
import type { Command } from '../../commands/types';
import { api } from '../../lib/api-client';

export const busCommands: Command[] = [
  {
    id: 'bus.add-line',
    title: '新增线路',
    group: '公交线路',
    keywords: ['线路', 'line', 'xinzeng'],
    permission: busLine.busLineSave.permission,
    page: pagePath('bus', 'add-bus-line'),
    run: (ctx) => ctx.navigate(pagePath('bus', 'add-bus-line')),
  },
  {
    id: 'bus.add-sub-line',
    title: '新增子线路',
    group: '公交线路',
    keywords: ['区间', '子线路'],
    permission: busLine.busLineDetailSave.permission,
    page: pagePath('bus', 'add-sub-line'),
    run: (ctx) => ctx.navigate(pagePath('bus', 'add-sub-line')),
  },
];

/** The area's lines (its open version, else its online one) as `#` records: 49 or 49路 or sjl. */
export const busSources: EntitySource[] = [
  {
    id: 'lines',
    group: '线路',
    permission: busLine.busLineList.permission,
    page: pagePath('bus', 'bus-line'),
    prefix: '#',
    async load() {
      const page = await api.call(busLine.busLineList, { query: { page: 0, size: 1000 } }, { silent: true });
      return page.content.map((l) => ({
        key: `line:${l.id}`,
        title: l.name,
        subtitle: [l.terminals, `${directionLabel(l.direction)}${l.isLoop ? '环线' : ''}`, l.state ? null : '停运'].filter(Boolean).join(' · '),
        keywords: [l.code],
        path: pagePath('bus', 'bus-line', { query: { id: l.id } }),
      }));
    },
  },
];
