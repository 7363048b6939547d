import { system } from '../../../shared/api';
import { pagePath } from '../../../shared/modules';
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
    page: pagePath('settings', 'agreements'),
    run: (ctx) => ctx.navigate(pagePath('settings', 'agreements', { action: 'add' })),
  },
];

export const settingsSources: EntitySource[] = [
  {
    id: 'districts',
    group: '区域',
    permission: system.districtPage.permission,
    page: pagePath('settings', 'districts'),
    async load() {
      const page = await api.call(system.districtPage, { query: { page: 0, size: 1000 } }, { silent: true });
      return page.content.map((d) => ({ key: `district:${d.id}`, title: d.name, subtitle: d.code, path: pagePath('settings', 'districts', { query: { name: d.name } }) }));
    },
  },
  {
    id: 'agreements',
    group: '协议',
    permission: system.agreementList.permission,
    page: pagePath('settings', 'agreements'),
    async load() {
      const list = await api.call(system.agreementList, {}, { silent: true });
      return list.map((a) => ({ key: `agreement:${a.id}`, title: a.title, subtitle: a.code, path: pagePath('settings', 'agreements', { query: { code: a.code } }) }));
    },
  },
];
