import { lineVersion } from '../../../shared/api';
import { VERSION_STATE, type VersionStatus } from '../../../shared/api/line-version';
import { formatDateTime, parseTypedDateTime } from '../../../shared/domain/time';
import { pagePath } from '../../../shared/modules';
import type { EntitySource } from '../../commands/entity-source';
import type { Command } from '../../commands/types';
import { handRow, recordActions } from '../../components/resource/row-action';
import { api } from '../../lib/api-client';
import { queryText } from '../../lib/http';
import { toast } from '../../lib/toast';
import { versionActions } from './version-actions';
import { versionTitle } from './version-title';

/** The area's versions in the given statuses, as palette choices. */
const versionsIn = (...statuses: VersionStatus[]) => async () => {
  const pages = await Promise.all(statuses.map((status) => api.call(lineVersion.versionPage, { query: { page: 0, size: 100, status: queryText(status) } }, { silent: true })));
  // Two districts' 「2026 冬季加班线」 differ by district, status and planned time, said under the name.
  return pages
    .flatMap((p) => p.content)
    .map((v) => ({
      value: String(v.id),
      label: v.name,
      subtitle: [v.districtName, VERSION_STATE.label(v.status), v.onlineAt ? `计划 ${formatDateTime(v.onlineAt, 'YYYY-MM-DD HH:mm')} 上线` : null, `${v.lineCount} 条线路`].filter(Boolean).join(' · '),
      keywords: [v.districtName ?? '', VERSION_STATE.label(v.status)],
    }));
};
const passedVersions = versionsIn(2);

/** 提交审核 and 退回 from the palette (each undoes the other): the same calls, refusals and toasts as the buttons. */
function statusCommand(id: string, title: string, from: 0 | 1, to: 0 | 1, done: string, keywords: string[]): Command {
  return {
    id,
    title,
    group: '版本管理',
    keywords,
    permission: lineVersion.versionUpdateStatus.permission,
    page: pagePath('version', 'version'),
    args: [{ name: 'id', label: `选择${VERSION_STATE.label(from)}的版本`, kind: 'choice', options: versionsIn(from) }],
    run: (ctx, a) => {
      api
        // Chosen among the versions in `from`: one moved since is refused as stale.
        .call(lineVersion.versionUpdateStatus, { body: { id: Number(a.id), status: to, fromStatus: from } })
        .then((v) => {
          toast.success(`版本${versionTitle(v)}已${done}`);
          ctx.navigate(pagePath('version', 'version', { query: { status: to } }));
        })
        // The refusal (a submit's first problems) is in the toast.
        .catch(() => undefined);
    },
  };
}

/**
 * 审核通过 and 作废 from the palette: neither can be undone, so choosing the version is not the
 * confirmation; 线网版本 asks, naming it and its district, with 取消 focused.
 */
function askingCommand(id: string, title: string, from: VersionStatus[], action: 'pass' | 'void', keywords: string[]): Command {
  const endpoint = action === 'void' ? lineVersion.versionDelete : lineVersion.versionUpdateStatus;
  return {
    id,
    title,
    group: '版本管理',
    keywords,
    permission: endpoint.permission,
    page: pagePath('version', 'version'),
    args: [{ name: 'id', label: `选择${from.map(VERSION_STATE.label).join('或')}的版本`, kind: 'choice', options: versionsIn(...from) }],
    run: (ctx, a) => ctx.navigate(pagePath('version', 'version', { action, query: { id: a.id } })),
  };
}

export const versionCommands: Command[] = [
  {
    id: 'version.add',
    title: '新增线网版本',
    group: '版本管理',
    keywords: ['版本', 'version'],
    permission: lineVersion.versionAdd.permission,
    page: pagePath('version', 'version'),
    run: (ctx) => ctx.navigate(pagePath('version', 'version', { action: 'add' })),
  },
  statusCommand('version.submit', '提交版本审核', 0, 1, '提交审核', ['提交', 'submit', 'tijiao']),
  askingCommand('version.pass', '审核通过版本', [1], 'pass', ['审核', 'pass', 'shenhe']),
  statusCommand('version.return', '退回版本（改回开放编辑）', 1, 0, '退回', ['退回', 'return']),
  askingCommand('version.void', '作废版本', [0, 1, 2], 'void', ['作废', '删除', 'void']),
  {
    id: 'version.diff',
    title: '对比版本与线上版本',
    group: '版本管理',
    keywords: ['对比', 'diff', '变化'],
    permission: lineVersion.versionDiff.permission,
    page: pagePath('version', 'version'),
    args: [{ name: 'id', label: '选择版本', kind: 'choice', options: versionsIn(0, 1, 2) }],
    run: (ctx, a) => ctx.navigate(pagePath('version', 'version', { action: 'diff', query: { id: a.id } })),
  },
  {
    id: 'version.set-online-time',
    title: '设置版本上线时间',
    group: '版本管理',
    keywords: ['上线', 'online'],
    permission: lineVersion.versionSetOnlineTime.permission,
    page: pagePath('version', 'version'),
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
          toast.success(`版本${versionTitle(v)}将于 ${a.at} 上线`);
          ctx.navigate(pagePath('version', 'version', { query: { status: 2 } }));
        })
        .catch(() => undefined);
    },
  },
];

/**
 * The area's versions as `#` records (pinyin: chunji → 2027 春季线网): Enter opens the diff against
 * online (the row handed over, so the page need not look it up); Tab the version's row actions.
 */
export const versionSources: EntitySource[] = [
  {
    id: 'versions',
    group: '版本',
    permission: lineVersion.versionPage.permission,
    page: pagePath('version', 'version'),
    prefix: '#',
    async load() {
      const page = await api.call(lineVersion.versionPage, { query: { page: 0, size: 100 } }, { silent: true });
      return page.content.map((v) => ({
        key: `version:${v.id}`,
        title: v.name,
        subtitle: [VERSION_STATE.label(v.status), v.districtName].filter(Boolean).join(' · '),
        path: v.status === 3 ? pagePath('version', 'version', { query: { status: 3 } }) : pagePath('version', 'version', { action: 'diff', query: { id: v.id } }),
        onOpen: v.status === 3 ? undefined : () => handRow(['version', 'version', 'diff'], v.id, v),
        actions: recordActions(versionActions, v),
      }));
    },
  },
];
