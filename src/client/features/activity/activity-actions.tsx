import { ACTIVITY_EDITOR, ACTIVITY_READ, ACTIVITY_SAVER, ACTIVITY_STATUS_MOVER, type Activity, activityById, activityCopy, activityUpdateStatus } from '../../../shared/api/activity';
import { callAction, defineResource } from '../../components/resource/row-action';
import { api } from '../../lib/api-client';
import { recordPath } from './paths';

const move = (a: Activity, action: '暂停' | '恢复' | '结束') => ({ body: { id: a.id, action, rowVersion: a.rowVersion } });

/** A city-wide activity is changed only across all areas (the super user with no area chosen), as the server enforces. */
const mine = (a: Activity, who: { acrossAll: boolean }) => a.districtId !== null || who.acrossAll;

/**
 * An activity's row actions, declared once: 活动列表's table (buttons, hotkeys, Enter) and the
 * palette under an activity found by its name both offer these. Stopping a runaway activity is its
 * name typed and Alt+P: no question, 撤销 for a while instead.
 */
export const activityActions = defineResource<Activity>()({
  name: (a) => a.name,
  id: (a) => a.id,
  find: (id) => api.call(activityById, { query: { id: Number(id) } }, { silent: true }),
  actions: [
    // One key, one dialog: 编辑 what this account may change, 查看 the rest (ended, or city-wide from an area).
    { id: 'edit', label: '编辑', hotkey: 'e', primary: true, permission: ACTIVITY_SAVER, when: (a: Activity, who) => mine(a, who) && a.status !== 3, opens: ['acitivity', 'activity', 'edit'] },
    { id: 'view', label: '查看', hotkey: 'e', primary: true, permission: ACTIVITY_SAVER, when: (a: Activity, who) => !mine(a, who) || a.status === 3, opens: ['acitivity', 'activity', 'edit'] },
    callAction({
      id: 'pause',
      label: '暂停',
      hotkey: 'p',
      danger: true,
      permission: ACTIVITY_STATUS_MOVER,
      when: (a: Activity, who) => mine(a, who) && (a.status === 0 || a.status === 1 || a.status === 4),
      endpoint: activityUpdateStatus,
      input: (a) => move(a, '暂停'),
      done: (a) => `已暂停活动「${a.name}」`,
      undo: { input: (a, moved) => ({ body: { id: a.id, action: '恢复' as const, rowVersion: moved.rowVersion } }), done: (a) => `已撤销：活动「${a.name}」恢复` },
    }),
    callAction({
      id: 'resume',
      label: (a: Activity) => (a.neverEnabled ? '启用' : '恢复'),
      hotkey: 'r',
      permission: ACTIVITY_STATUS_MOVER,
      when: (a: Activity, who) => mine(a, who) && a.status === 2,
      endpoint: activityUpdateStatus,
      input: (a) => move(a, '恢复'),
      done: (a) => `已${a.neverEnabled ? '启用' : '恢复'}活动「${a.name}」`,
    }),
    callAction({
      id: 'end',
      label: '结束',
      hotkey: 'q',
      danger: true,
      permission: ACTIVITY_STATUS_MOVER,
      when: (a: Activity, who) => mine(a, who) && a.status !== 3,
      endpoint: activityUpdateStatus,
      input: (a) => move(a, '结束'),
      done: (a) => `已结束活动「${a.name}」`,
      confirm: { title: '结束活动', irreversible: true, body: (a) => <p>确定结束活动「{a.name}」吗？结束后不能重新启用，如需再办请复制为新活动。</p> },
    }),
    callAction({
      id: 'copy',
      label: '复制',
      hotkey: 'c',
      permission: ACTIVITY_EDITOR,
      when: (a: Activity, who) => mine(a, who),
      endpoint: activityCopy,
      input: (a) => ({ body: { id: a.id } }),
      done: (a) => `已复制活动「${a.name}」（副本未启用，从明天开始）`,
    }),
    { id: 'simulate', label: '预演', hotkey: 's', permission: ACTIVITY_READ, opens: ['acitivity', 'activity', 'simulate'] },
    { id: 'effect', label: '效果', hotkey: 'v', permission: ACTIVITY_READ, opens: ['acitivity', 'activity', 'effect'] },
    { id: 'record', label: '记录', hotkey: 'l', permission: ACTIVITY_READ, to: (a) => recordPath(a.id) },
  ],
});
