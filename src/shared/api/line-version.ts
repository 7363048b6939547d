import { z } from 'zod';
import { BUSLINE, endpoint } from './endpoint';
import { fromVersion, id, isoDateTime, optionalText, requiredText, rowVersion, timestamp } from './fields';
import { pageOf, pageQuery } from './paging';
import { SESSION, grantIn } from './permissions';
import { statusFlow } from '../frame/status-flow';

/**
 * Line-network versions (spec §3, §7): the version list of spec §7 plus the calls the spec implies
 * (add, status, online time, delete), named in the same style under /bus/line/version/.
 */

/**
 * A version's life (spec §3; both of its label maps agree on these codes, 1 and 2 read as the
 * review steps). What a person may do: submit 0 → 1, pass 1 → 2, return 1 → 0, void 0/1/2 → 5; the
 * go-live job alone takes 2 → 3 and the old 3 → 4, outside the flow.
 */
export const VERSION_STATE = statusFlow({
  name: '版本状态',
  states: [
    { code: 0, label: '开放编辑', tone: 'blue' },
    { code: 1, label: '待审核', tone: 'amber' },
    { code: 2, label: '审核通过（待上线）', tone: 'green' },
    { code: 3, label: '已上线', tone: 'green' },
    { code: 4, label: '已下线', tone: 'gray' },
    { code: 5, label: '已作废', tone: 'gray' },
  ],
  transitions: { 0: [1, 5], 1: [2, 0, 5], 2: [5] },
});
export type VersionStatus = (typeof VERSION_STATE.codes)[number];

/** The version module's button permissions (spec §6), declared once with their labels. */
export const buttons = {
  BUS_LINE_VERSION_ADD: '新增版本',
  BUS_LINE_VERSION_SET_ONLINE_TIME: '设置上线时间',
  BUS_LINE_VERSION_UPDATE_DEL: '删除版本',
  BUS_LINE_VERSION_UPDATE_STATUS: '修改版本状态',
} as const;
const can = grantIn(buttons);

export const lineVersion = z.object({
  id: z.number().int(),
  districtId: z.number().int(),
  districtName: z.string().nullable(),
  name: z.string(),
  status: VERSION_STATE.schema,
  onlineAt: timestamp.nullable(),
  wentOnlineAt: timestamp.nullable(),
  remark: z.string().nullable(),
  lineCount: z.number().int(),
  createdDate: timestamp,
  updatedDate: timestamp,
  rowVersion,
});
export type LineVersion = z.infer<typeof lineVersion>;

const V = `${BUSLINE}/bus/line/version`;

export const versionPage = endpoint({
  id: 'version.page',
  title: '线网版本列表',
  method: 'GET',
  path: `${V}/query/version/page`,
  query: pageQuery(['createdDate', 'status'] as const).extend({
    status: VERSION_STATE.filter.optional(),
  }),
  response: pageOf(lineVersion),
  permission: SESSION,
  // Each row counts its lines: adding or deleting a line changes this list's answer.
  reads: ['version', 'bus'],
});

/**
 * One version by id, whatever its status: a link or a palette choice (`?action=diff&id=`) names a
 * version that may be 已下线 or on another page of the list.
 */
export const versionInfo = endpoint({
  id: 'version.info',
  title: '版本详情',
  method: 'GET',
  path: `${V}/query/version/info`,
  query: z.object({ id: id('版本ID') }),
  response: lineVersion,
  permission: SESSION,
  reads: ['version', 'bus'],
});

export const versionAdd = endpoint({
  id: 'version.add',
  title: '新增版本',
  method: 'POST',
  path: `${V}/add`,
  body: z.object({ name: requiredText('版本名称', 40), remark: optionalText('备注', 200).optional() }),
  response: lineVersion,
  permission: can({ buttons: ['BUS_LINE_VERSION_ADD'] }),
});

/** A blocking problem found when submitting: what, and on which line and direction. */
export const versionProblem = z.object({ lineId: z.number().int().nullable(), lineName: z.string().nullable(), direction: z.number().int().nullable(), msg: z.string() });
export type VersionProblem = z.infer<typeof versionProblem>;

export const versionUpdateStatus = endpoint({
  id: 'version.updateStatus',
  title: '修改版本状态',
  method: 'POST',
  path: `${V}/update/status`,
  // `fromStatus`: the status the operator saw; a version that moved since is refused, not moved again.
  body: z.object({ id: id('版本ID'), status: VERSION_STATE.schema, fromStatus: VERSION_STATE.schema, remark: optionalText('说明', 200).optional(), rowVersion: fromVersion }),
  response: lineVersion,
  permission: can({ buttons: ['BUS_LINE_VERSION_UPDATE_STATUS'] }),
});

export const versionSetOnlineTime = endpoint({
  id: 'version.setOnlineTime',
  title: '设置上线时间',
  method: 'POST',
  path: `${V}/set/online/time`,
  body: z.object({ id: id('版本ID'), onlineAt: isoDateTime('上线时间'), rowVersion: fromVersion }),
  response: lineVersion,
  permission: can({ buttons: ['BUS_LINE_VERSION_SET_ONLINE_TIME'] }),
});

export const versionDelete = endpoint({
  id: 'version.delete',
  title: '删除版本',
  method: 'POST',
  path: `${V}/update/del`,
  body: z.object({ id: id('版本ID'), fromStatus: VERSION_STATE.schema, rowVersion: fromVersion }),
  response: lineVersion,
  permission: can({ buttons: ['BUS_LINE_VERSION_UPDATE_DEL'] }),
});

/** One line's difference between a version and the district's online one. */
export const lineChange = z.object({
  code: z.string(),
  name: z.string(),
  /** added: only in this version; removed: only online; changed: in both, different. */
  change: z.enum(['added', 'removed', 'changed']),
  /** What differs, in Chinese, one item per fact (上行：新增站点 …；下行：站序调整；轨迹改变 最大偏移 120 米). */
  details: z.array(z.string()),
});
export type LineChange = z.infer<typeof lineChange>;

export const versionDiff = endpoint({
  id: 'version.diff',
  title: '版本对比',
  method: 'GET',
  path: `${V}/diff`,
  query: z.object({ id: id('版本ID') }),
  response: z.object({
    version: z.object({ id: z.number().int(), name: z.string(), status: z.number().int() }),
    /** The district's online version it is compared with; null when the district has none (or it is the online one). */
    against: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    changes: z.array(lineChange),
    unchanged: z.number().int(),
  }),
  permission: SESSION,
});
