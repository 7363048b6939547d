import { ACTIVITY_EDITOR, ACTIVITY_READ, ACTIVITY_STATUS, ACTIVITY_STATUS_MOVER, type Activity, type ActivityAction, type ActivityStatus, activityCopy, activityPage, activityTypeLabel, activityUpdateStatus } from '../../../shared/api/activity';
import { pagePath } from '../../../shared/modules';
import type { EntitySource } from '../../commands/entity-source';
import type { Command } from '../../commands/types';
import { recordActions } from '../../components/resource/row-action';
import { api } from '../../lib/api-client';
import { queryText } from '../../lib/http';
import { toast } from '../../lib/toast';
import { activityActions } from './activity-actions';
import { listPath, openView } from './paths';

const GROUP = '活动管理';

/** The area's activities in these statuses (all when none), as palette choices: `id:rowVersion`, named with status and type. */
const activitiesIn = (statuses: readonly ActivityStatus[]) => async () => {
  const pages = statuses.length
    ? await Promise.all(statuses.map((status) => api.call(activityPage, { query: { page: 0, size: 200, status: queryText(status) } }, { silent: true })))
    : [await api.call(activityPage, { query: { page: 0, size: 500 } }, { silent: true })];
  return pages
    .flatMap((p) => p.content)
    .map((x: Activity) => ({ value: `${x.id}:${x.rowVersion}`, label: x.name, subtitle: `${ACTIVITY_STATUS.label(x.status)} · ${activityTypeLabel(x.type)}${x.districtName ? ` · ${x.districtName}` : ' · 全市'}`, keywords: [x.name, x.districtName ?? '全市'] }));
};

const idOf = (v: string | undefined) => {
  const [id, version] = (v ?? '').split(':').map(Number);
  return { id: id!, rowVersion: version };
};

/**
 * 暂停 / 恢复 / 结束 from the palette: choosing the activity is the confirmation (the list's buttons
 * ask for 结束); 暂停 offers 撤销 for 10 s (the keyboard task: stop a runaway activity).
 */
function moveCommand(id: string, action: ActivityAction, title: string, from: readonly ActivityStatus[], choose: string, keywords: string[]): Command {
  return {
    id,
    title,
    group: GROUP,
    keywords,
    permission: ACTIVITY_STATUS_MOVER,
    page: listPath(),
    args: [{ name: 'activity', label: choose, kind: 'choice', options: activitiesIn(from) }],
    run: (ctx, a) => {
      const { id: activityId, rowVersion } = idOf(a.activity);
      api
        .call(activityUpdateStatus, { body: { id: activityId, action, rowVersion } })
        .then((x) => {
          ctx.changed(activityUpdateStatus);
          ctx.navigate(listPath(x.status));
          if (action !== '暂停') {
            toast.success(`已${action}活动「${x.name}」`);
            return;
          }
          toast.action(`已暂停活动「${x.name}」`, {
            label: '撤销',
            run: () =>
              void api
                .call(activityUpdateStatus, { body: { id: x.id, action: '恢复', rowVersion: x.rowVersion } })
                .then((back) => {
                  toast.success(`已撤销：活动「${back.name}」恢复${ACTIVITY_STATUS.label(back.status)}`);
                  ctx.changed(activityUpdateStatus);
                  ctx.navigate(listPath(back.status));
                })
                .catch(() => undefined),
          });
        })
        // The refusal is in the toast.
        .catch(() => undefined);
    },
  };
}

const DAYS_OPTIONS = [7, 14, 30, 60, 90].map((n) => ({ value: String(n), label: `近${n}天`, keywords: [`${n}`, `近${n}天`] }));

export const activityCommands: readonly Command[] = [
  // ‹进行中›: what runs away is running (a not-yet-started one is paused from its row).
  moveCommand('activity.pause', '暂停', '暂停活动', [1], '选择进行中的活动', ['暂停', '活动', '停止', 'zanting', 'huodong']),
  moveCommand('activity.resume', '恢复', '恢复活动', [2], '选择已暂停的活动', ['恢复', '启用', '活动', 'huifu', 'huodong']),
  moveCommand('activity.end', '结束', '结束活动', [0, 1, 2, 4], '选择要结束的活动', ['结束', '活动', 'jieshu', 'huodong']),
  {
    id: 'activity.copy',
    title: '复制活动',
    group: GROUP,
    keywords: ['复制', '活动', 'fuzhi', 'huodong'],
    permission: ACTIVITY_EDITOR,
    page: listPath(),
    args: [{ name: 'activity', label: '选择活动', kind: 'choice', options: activitiesIn([]) }],
    run: (ctx, a) => {
      api
        .call(activityCopy, { body: { id: idOf(a.activity).id } })
        .then((x) => {
          toast.success(`已复制为「${x.name}」（未启用）`);
          ctx.changed(activityCopy);
          ctx.navigate(listPath(2));
        })
        .catch(() => undefined);
    },
  },
  {
    id: 'activity.simulate',
    title: '活动预演',
    group: GROUP,
    keywords: ['预演', '模拟', '活动', 'yuyan', 'huodong'],
    permission: ACTIVITY_READ,
    page: listPath(),
    args: [{ name: 'activity', label: '选择活动', kind: 'choice', options: activitiesIn([]) }],
    run: (ctx, a) => {
      openView.handOff(String(idOf(a.activity).id), 'simulate');
      ctx.navigate(listPath());
    },
  },
  {
    id: 'activity.effect',
    title: '活动效果',
    group: GROUP,
    keywords: ['效果', '活动', '每日', 'xiaoguo', 'huodong'],
    permission: ACTIVITY_READ,
    page: listPath(),
    args: [
      { name: 'activity', label: '选择活动', kind: 'choice', options: activitiesIn([]) },
      { name: 'days', label: '选择天数', kind: 'choice', options: () => DAYS_OPTIONS },
    ],
    run: (ctx, a) => {
      openView.handOff(`${idOf(a.activity).id}:${a.days ?? '30'}`, 'effect');
      ctx.navigate(listPath());
    },
  },
];

/** An activity as a record: its name typed finds it; Enter opens 活动列表 on it; Alt+P 暂停 (撤销 for a while), and its other row actions. */
const activityRecord = (a: Activity) => ({
  key: `activity:${a.id}`,
  title: a.name,
  subtitle: `活动 · ${ACTIVITY_STATUS.label(a.status)} · ${activityTypeLabel(a.type)}${a.districtName ? ` · ${a.districtName}` : ' · 全市'}`,
  keywords: ['活动', a.districtName ?? '全市'],
  path: pagePath('acitivity', 'activity', { query: { name: a.name } }),
  actions: recordActions(activityActions, a),
});

export const activitySources: EntitySource[] = [
  {
    id: 'activities',
    group: '活动',
    permission: ACTIVITY_READ,
    page: listPath(),
    // An area runs tens of activities: loaded once per opening and ranked with pinyin.
    async load() {
      const page = await api.call(activityPage, { query: { page: 0, size: 500 } }, { silent: true });
      return page.content.map(activityRecord);
    },
  },
];
