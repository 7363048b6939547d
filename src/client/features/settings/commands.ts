import { system } from '../../../shared/api';
import type { EntitySource } from '../../commands/entity-source';
import type { Command } from '../../commands/types';
import { api } from '../../lib/api-client';

export const settingsCommands: Command[] = [
  {
    id: 'agreement.add',
    title: '新增协议',
    group: '小程序设置',
    keywords: ['用户协议', '隐私政策'],
    permission: system.agreementSave.permission,
    page: '/settings/agreements',
    run: (ctx) => ctx.navigate('/settings/agreements?action=add'),
  },
];

export const settingsSources: EntitySource[] = [
  {
    id: 'districts',
    group: '区域',
    permission: system.districtPage.permission,
    page: '/settings/districts',
    async load() {
      const page = await api.call(system.districtPage, { query: { page: 0, size: 1000 } }, { silent: true });
      return page.content.map((d) => ({ key: `district:${d.id}`, title: d.name, subtitle: d.code, path: `/settings/districts?name=${encodeURIComponent(d.name)}` }));
    },
  },
  {
    id: 'agreements',
    group: '协议',
    permission: system.agreementList.permission,
    page: '/settings/agreements',
    async load() {
      const list = await api.call(system.agreementList, {}, { silent: true });
      return list.map((a) => ({ key: `agreement:${a.id}`, title: a.title, subtitle: a.code, path: `/settings/agreements?code=${encodeURIComponent(a.code)}` }));
    },
  },
];
