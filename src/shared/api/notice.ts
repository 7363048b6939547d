import { z } from 'zod';
import { BUSLINE, endpoint } from './endpoint';
import { exportTaskEndpoint } from './export-task';
import { fromVersion, id, isoDateTime, optionalText, requiredText, rowVersion, timestamp } from './fields';
import { richText } from './rich-text-field';
import { pageOf, pageQuery } from './paging';
import { grant, grantIn } from './permissions';
import { onOffFlow, statusFlow } from '../frame/status-flow';

/**
 * 公告管理 (second wave §2, prefix /busline/api/bus/notice): what riders read in the mini-program,
 * per district or city-wide (district null, the super user's alone). The status moves through
 * `update/status` with the status the operator saw; a job publishes the scheduled ones.
 */

/** The module's button permissions (spec §6 style), declared once with their labels. */
export const buttons = {
  NOTICE_EDIT: '编辑公告',
  NOTICE_PUBLISH: '发布公告',
} as const;
const can = grantIn(buttons);

/** Reading notices is for those who see the menu (decision 81). */
const READERS = grant({ menus: ['noticeReport'] });
export const NOTICE_EDITOR = can({ buttons: ['NOTICE_EDIT'] });
export const NOTICE_PUBLISHER = can({ buttons: ['NOTICE_PUBLISH'] });

/**
 * 0 草稿 → 1 待发布 (定时发布) or 2 已发布 (立即发布); 1 → 0 取消定时; 2 → 3 撤回; 3 → 0 重新编辑. The job
 * alone takes 1 → 2 when publishAt comes and 2 → 3 when expireAt does: no person does those.
 */
export const NOTICE_STATUS = statusFlow({
  name: '公告状态',
  states: [
    { code: 0, label: '草稿', tone: 'gray' },
    { code: 1, label: '待发布', tone: 'amber' },
    { code: 2, label: '已发布', tone: 'green' },
    { code: 3, label: '已下线', tone: 'red' },
  ],
  transitions: { '0': [1, 2], '1': [0], '2': [3], '3': [0] },
});
export type NoticeStatus = (typeof NOTICE_STATUS.codes)[number];

/** Who may make a move: back to a draft from 已下线 is an edit (重新编辑); every other move is publishing. */
export const noticeMovePermission = (from: NoticeStatus, to: NoticeStatus) => (from === 3 && to === 0 ? NOTICE_EDITOR : NOTICE_PUBLISHER);

/** A kind, not a status: no moves, but the same labels, badge and filter from one declaration. */
export const NOTICE_TYPE = statusFlow({
  name: '公告类型',
  states: [
    { code: 1, label: '通知', tone: 'blue' },
    { code: 2, label: '公告', tone: 'green' },
    { code: 3, label: '线路调整', tone: 'amber' },
  ],
});

export const NOTICE_TOP = onOffFlow('置顶', { code: 1, label: '置顶' }, { code: 0, label: '未置顶' });

/** How many notices one district (or the city-wide set) may pin at once. */
export const NOTICE_TOP_LIMIT = 3;
export const NOTICE_TITLE_MAX = 50;
export const NOTICE_CONTENT_MAX = 50_000;
/** A 线路调整 notice names the lines it is about (the mini-program shows it on their pages). */
export const NOTICE_LINES_MAX = 50;

export const noticeRow = z.object({
  id: z.number().int(),
  /** null: city-wide, shown in every district. */
  districtId: z.number().int().nullable(),
  districtName: z.string().nullable(),
  title: z.string(),
  type: NOTICE_TYPE.schema,
  top: NOTICE_TOP.schema,
  status: NOTICE_STATUS.schema,
  publishAt: timestamp.nullable(),
  expireAt: timestamp.nullable(),
  viewCount: z.number().int(),
  /** The lines it is about (线路调整); empty: none in particular. */
  lineCodes: z.array(z.string()),
  createdByName: z.string().nullable(),
  publishedByName: z.string().nullable(),
  createdDate: timestamp,
  updatedDate: timestamp,
  rowVersion,
  /** Whether this account may change it: a district's people read the city-wide notices only. */
  manageable: z.boolean(),
});
export type Notice = z.infer<typeof noticeRow>;

const N = `${BUSLINE}/bus/notice`;

/** The list's filters, shared by the page and its summary line. */
const noticeFilters = z.object({
  title: optionalText('标题', NOTICE_TITLE_MAX).optional(),
  type: NOTICE_TYPE.filter.optional(),
  status: NOTICE_STATUS.filter.optional(),
  top: NOTICE_TOP.filter.optional(),
});

export const noticePage = endpoint({
  id: 'notice.page',
  title: '公告列表',
  method: 'GET',
  path: `${N}/page`,
  query: pageQuery(['publishAt', 'createdDate'] as const).extend(noticeFilters.shape),
  response: pageOf(noticeRow),
  permission: READERS,
});

export const noticeTotal = endpoint({
  id: 'notice.total',
  title: '公告统计',
  method: 'GET',
  path: `${N}/total`,
  // Counted by status, so the status filter itself is not applied.
  query: noticeFilters,
  response: z.object({
    total: z.number().int(),
    byStatus: z.object({ draft: z.number().int(), scheduled: z.number().int(), published: z.number().int(), offline: z.number().int() }),
    /** Pinned now in the area chosen (city-wide ones included), of NOTICE_TOP_LIMIT each. */
    top: z.number().int(),
  }),
  permission: READERS,
});

/** 导出 Excel of the filtered list: a 下载中心 task (the notices' text stays out: titles, states and times). */
export const noticeExport = exportTaskEndpoint({
  id: 'notice.export',
  title: '导出公告',
  path: `${N}/export`,
  query: noticeFilters,
  permission: READERS,
});

export const noticeById = endpoint({
  id: 'notice.queryById',
  title: '公告详情',
  method: 'GET',
  path: `${N}/queryById`,
  query: z.object({ id: id('公告ID') }),
  response: noticeRow.extend({ content: z.string() }),
  permission: READERS,
});

const lineCodes = z
  .array(z.string({ error: '线路编号必须是文本' }).trim().min(1, { error: '线路编号不能为空' }).max(20, { error: '线路编号不能超过20个字符' }), { error: '线路应为线路编号的列表' })
  .max(NOTICE_LINES_MAX, { error: `线路最多${NOTICE_LINES_MAX}条` });

/**
 * 新建公告 / 编辑公告: drafts only (status 0). The content is rich text the server passes through the
 * allow-list (shared/domain/rich-text.ts) before storing; nothing left of it is `公告内容不能为空`.
 */
export const noticeSave = endpoint({
  id: 'notice.saveOrUpdate',
  title: '保存公告',
  method: 'POST',
  path: `${N}/saveOrUpdate`,
  body: z.object({
    id: id('公告ID').optional(),
    /**
     * A new notice's area when the account works across all (全部区域): a district, or null for a
     * city-wide notice (the super user's alone). Otherwise the account's own area; ignored on edit.
     */
    districtId: id('区域').nullable().optional(),
    title: requiredText('标题', NOTICE_TITLE_MAX),
    type: NOTICE_TYPE.schema,
    content: richText('公告内容', NOTICE_CONTENT_MAX),
    lineCodes: lineCodes.default([]),
    /** When it comes down by itself (the job); null: stays until withdrawn. */
    expireAt: isoDateTime('下线时间').nullable().optional(),
    rowVersion: fromVersion,
  }),
  response: noticeRow.extend({ content: z.string() }),
  permission: NOTICE_EDITOR,
});

export const noticeUpdateStatus = endpoint({
  id: 'notice.updateStatus',
  title: '修改公告状态',
  method: 'POST',
  path: `${N}/update/status`,
  body: z.object({
    id: id('公告ID'),
    fromStatus: NOTICE_STATUS.schema,
    toStatus: NOTICE_STATUS.schema,
    /** 定时发布 only: when the job publishes it. */
    publishAt: isoDateTime('定时发布时间').optional(),
    rowVersion: fromVersion,
  }),
  response: noticeRow,
  // Each move is checked against its own permission (noticeMovePermission) by the server.
  permission: can({ buttons: ['NOTICE_PUBLISH', 'NOTICE_EDIT'] }),
});

export const noticeTop = endpoint({
  id: 'notice.top',
  title: '置顶公告',
  method: 'POST',
  path: `${N}/top`,
  body: z.object({ id: id('公告ID'), top: NOTICE_TOP.schema, rowVersion: fromVersion }),
  response: noticeRow,
  permission: NOTICE_PUBLISHER,
});

export const noticeDelete = endpoint({
  id: 'notice.delete',
  title: '删除公告',
  method: 'DELETE',
  path: `${N}/delete`,
  query: z.object({ id: id('公告ID') }),
  response: z.object({ id: z.number().int() }),
  permission: NOTICE_EDITOR,
});
