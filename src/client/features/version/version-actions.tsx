import { type LineVersion, lineVersion } from '../../../shared/api';
import { VERSION_STATE, type VersionStatus } from '../../../shared/api/line-version';
import { callAction, defineResource } from '../../components/resource/row-action';
import { formatDateTime, parseTypedDateTime } from '../../../shared/domain/time';
import { api } from '../../lib/api-client';
import { districtOf, versionTitle } from './version-title';

const UPDATE = lineVersion.versionUpdateStatus;
/** A move from the status on screen: a version someone moved since is refused, not moved again. */
// The version on screen goes with every move (issue 21); 撤销 goes back from the one its move made.
const toStatus = (status: VersionStatus) => (v: LineVersion) => ({ body: { id: v.id, status, fromStatus: v.status, rowVersion: v.rowVersion } });
/** 撤销 of a move to `from`: back to the status the row had, from the one the move left. */
const back = (from: VersionStatus) => (v: LineVersion, moved: LineVersion) => ({ body: { id: v.id, status: v.status, fromStatus: from, rowVersion: moved.rowVersion } });
const done = (label: string) => (v: LineVersion) => `版本${versionTitle(v)}已${label}`;

/**
 * A version's row actions, declared once for 线网版本's table and the palette under a `#` version.
 * Submitting and returning each undo the other, so they offer 撤销; passing and voiding cannot be
 * taken back (a passed version is only scheduled or voided), so they ask, naming the version and
 * its district. A refusal (an empty version, the network's first problem) is final: the toast says
 * it and the question closes. The job alone takes a version online; 设置上线时间 opens the page's dialog.
 */
export const versionActions = defineResource<LineVersion>()({
  name: (v) => v.name,
  id: (v) => v.id,
  // By id, whatever its status or page of the list (an old `?action=diff&id=` link, a 已下线 version).
  find: (id) => findVersion(Number(id)),
  actions: [
    { id: 'diff', label: '对比', hotkey: 'd', primary: true, permission: lineVersion.versionDiff.permission, when: (v) => v.status !== 3, opens: ['version', 'version', 'diff'] },
    callAction({
      id: 'submit',
      label: '提交审核',
      hotkey: 's',
      permission: UPDATE.permission,
      when: (v: LineVersion) => VERSION_STATE.can(v.status, 1),
      endpoint: UPDATE,
      input: toStatus(1),
      done: done('提交审核'),
      undo: { input: back(1), done: (v) => `已撤销：版本${versionTitle(v)}退回开放编辑` },
    }),
    callAction({
      id: 'pass',
      label: '审核通过',
      hotkey: 'p',
      permission: UPDATE.permission,
      when: (v: LineVersion) => VERSION_STATE.can(v.status, 2),
      endpoint: UPDATE,
      input: toStatus(2),
      done: done('审核通过'),
      confirm: { title: (v) => `审核通过版本${versionTitle(v)}`, body: (v) => <AskText to={2} version={v} />, irreversible: true, closeOnRefusal: true },
    }),
    callAction({
      id: 'return',
      label: '退回',
      hotkey: 'r',
      permission: UPDATE.permission,
      when: (v: LineVersion) => VERSION_STATE.can(v.status, 0),
      endpoint: UPDATE,
      input: toStatus(0),
      done: done('退回'),
      undo: { input: back(0), done: (v) => `已撤销：版本${versionTitle(v)}重新提交审核` },
    }),
    {
      id: 'schedule',
      label: '设置上线时间',
      hotkey: 't',
      permission: lineVersion.versionSetOnlineTime.permission,
      when: (v) => v.status === 2,
      opens: ['version', 'version', 'schedule'],
      // `2026-12-20 06:00` typed in the palette offers this for every passed version (issue 21).
      inline: {
        kind: 'datetime',
        title: (v, at) => `设置上线时间：版本${versionTitle(v)}于 ${at} 上线`,
        endpoint: lineVersion.versionSetOnlineTime,
        run: (v, at) => scheduleAt(v, at, v.rowVersion),
        done: (v, at) => `版本${versionTitle(v)}将于 ${at} 上线`,
        // Back to the time it had, to the second; a version never scheduled has no time to go back
        // to, so it asks first instead.
        undo: (v) =>
          v.onlineAt
            ? { run: (moved) => scheduleAt(v, v.onlineAt!, (moved as LineVersion).rowVersion), done: `已撤销：版本${versionTitle(v)}恢复为 ${formatDateTime(v.onlineAt, 'YYYY-MM-DD HH:mm')} 上线` }
            : null,
        confirm: (v, at) => ({
          title: `设置上线时间 · ${v.name}`,
          body: () => (
            <p>
              <b>{districtOf(v)}</b> 的版本 <b>「{v.name}」</b>将于 <b>{at}</b> 上线，同时原线网下线。它还没有上线时间，设置后不能撤销，只能改为另一个时间或作废。
            </p>
          ),
          confirmLabel: '设置上线时间',
        }),
      },
    },
    callAction({
      id: 'void',
      label: '作废',
      permission: lineVersion.versionDelete.permission,
      danger: true,
      when: (v: LineVersion) => VERSION_STATE.can(v.status, 5),
      endpoint: lineVersion.versionDelete,
      input: (v) => ({ body: { id: v.id, fromStatus: v.status, rowVersion: v.rowVersion } }),
      done: done('作废'),
      confirm: { title: (v) => `作废版本${versionTitle(v)}`, body: (v) => <AskText to={5} version={v} />, irreversible: true, closeOnRefusal: true },
    }),
  ],
});

/** What 作废 and 审核通过 ask: the version, its district, its status and lines, and what follows. */
function AskText({ to, version: v }: { to: 2 | 5; version: LineVersion }) {
  const named = (
    <>
      <b>{districtOf(v)}</b> 的版本 <b>「{v.name}」</b>（{VERSION_STATE.label(v.status)}，{v.lineCount} 条线路）
    </>
  );
  return to === 5 ? (
    <p>确定作废 {named} 吗？作废后它不能再编辑、审核或上线，也不能恢复；版本的记录仍会保留。</p>
  ) : (
    <p>确定审核通过 {named} 吗？通过后它不能再修改或退回，只能设置上线时间或作废。</p>
  );
}

/** 设置上线时间 as typed (Shanghai), from the version on screen: one moved since is refused as stale. */
const scheduleAt = (v: LineVersion, at: string, rowVersion: number) =>
  // Typed (`2026-12-20 06:00`, Shanghai) or as the server gave it (an ISO time, for 撤销).
  api.call(lineVersion.versionSetOnlineTime, { body: { id: v.id, onlineAt: parseTypedDateTime(at) ?? at, rowVersion } });

/** The version by id, as the server has it now; undefined when it is not there or not the account's area's. */
export const findVersion = (id: number): Promise<LineVersion | undefined> =>
  api.call(lineVersion.versionInfo, { query: { id } }, { silent: true }).catch(() => undefined);
