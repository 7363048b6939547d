import { lineVersion } from '../../../shared/api';
import { parseTypedDateTime } from '../../../shared/domain/time';
import type { Command } from '../../commands/types';
import { api } from '../../lib/api-client';
import { toast } from '../../components/toast';

/** Passed versions, the ones an online time can be set on. */
const passedVersions = async () => {
  const page = await api.call(lineVersion.versionPage, { query: { page: 0, size: 100, status: '2' } }, { silent: true });
  return page.content.map((v) => ({ value: String(v.id), label: v.name, keywords: [v.districtName ?? ''] }));
};

export const versionCommands: Command[] = [
  {
    id: 'version.set-online-time',
    title: '设置版本上线时间',
    group: '版本管理',
    keywords: ['上线', 'online'],
    permission: lineVersion.versionSetOnlineTime.permission,
    args: [
      { name: 'id', label: '选择审核通过的版本', kind: 'choice', options: passedVersions },
      {
        name: 'at',
        label: '上线时间',
        kind: 'datetime',
        placeholder: '2026-12-01 05:00',
        validate: (v) => (parseTypedDateTime(v) ? null : '格式如 2026-12-01 05:00'),
      },
    ],
    run: (ctx, a) => {
      const iso = parseTypedDateTime(a.at ?? '');
      if (!iso) return;
      api
        .call(lineVersion.versionSetOnlineTime, { body: { id: Number(a.id), onlineAt: iso } })
        .then((v) => {
          toast.success(`版本「${v.name}」将于 ${a.at} 上线`);
          ctx.navigate('/version/version?status=2');
        })
        .catch(() => undefined);
    },
  },
];
