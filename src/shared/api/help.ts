import { z } from 'zod';
import { BUSLINE, type Endpoint, endpoint } from './endpoint';
import { exportTaskEndpoint } from './export-task';
import { fromVersion, id, optionalText, requiredText, rowVersion, timestamp, wholeNumber } from './fields';
import { pageOf, pageQuery } from './paging';
import { SELF, SESSION, grant, grantIn } from './permissions';
import { richText } from './rich-text-field';
import { statusFlow } from '../frame/status-flow';

/**
 * 帮助中心 (second wave §11, prefix /busline/api/bus/help): catalogues and docs for riders and staff,
 * published or withdrawn; staff docs bound to a console page show in that page's `?` sheet.
 */

/** The page's button permission (second wave §0), declared once with its label. */
export const buttons = {
  HELP_DOC_EDIT: '编辑帮助文档',
} as const;
const can = grantIn(buttons);

/** Reading is for those who see the menu (decision 81). */
export const HELP_READ = grant({ menus: ['version'] });
export const HELP_EDITOR = can({ buttons: ['HELP_DOC_EDIT'] });

/** Who a catalogue and its docs are for: riders read them in the mini-program, staff in the console. */
export const HELP_AUDIENCE = statusFlow({
  name: '阅读对象',
  states: [
    { code: 1, label: '乘客', tone: 'blue' },
    { code: 2, label: '员工', tone: 'green' },
  ],
});
export type HelpAudience = (typeof HELP_AUDIENCE.codes)[number];

/** 0 草稿 → 1 已发布 → 2 已下线 → 1 (published again); 0 and 2 may be deleted. */
export const HELP_DOC_STATUS = statusFlow({
  name: '文档状态',
  states: [
    { code: 0, label: '草稿', tone: 'gray' },
    { code: 1, label: '已发布', tone: 'green' },
    { code: 2, label: '已下线', tone: 'red' },
  ],
  transitions: { '0': [1], '1': [2], '2': [1] },
});
export type HelpDocStatus = (typeof HELP_DOC_STATUS.codes)[number];

export const HELP_CATALOG_NAME_MAX = 20;
export const HELP_CATALOG_DEPTH = 3;
export const HELP_TITLE_MAX = 50;
export const HELP_CONTENT_MAX = 50_000;
/** A console page as `<menu id>/<page key>` (e.g. `cardVerify/card-verify-list`): its path without the slash. */
export const HELP_PAGE_KEY_MAX = 80;

const H = `${BUSLINE}/bus/help`;

export const helpCatalogRow = z.object({
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  name: z.string(),
  sort: z.number().int(),
  audience: HELP_AUDIENCE.schema,
  /** 1 for a top catalogue, up to HELP_CATALOG_DEPTH. */
  level: z.number().int(),
  /** Docs filed directly here that the reader may see. */
  docCount: z.number().int(),
  rowVersion,
});
export type HelpCatalog = z.infer<typeof helpCatalogRow>;

export const helpDocRow = z.object({
  id: z.number().int(),
  catalogId: z.number().int(),
  catalogName: z.string(),
  /** null: city-wide, shown in every district (the super user's alone). */
  districtId: z.number().int().nullable(),
  districtName: z.string().nullable(),
  title: z.string(),
  audience: HELP_AUDIENCE.schema,
  /** The console page a staff doc explains (its `?` sheet shows it), or null. */
  pageKey: z.string().nullable(),
  status: HELP_DOC_STATUS.schema,
  sort: z.number().int(),
  views: z.number().int(),
  helpful: z.number().int(),
  unhelpful: z.number().int(),
  updatedByName: z.string().nullable(),
  createdDate: timestamp,
  updatedDate: timestamp,
  rowVersion,
  /** Whether this account may change it: a district's people read the city-wide docs only. */
  manageable: z.boolean(),
});
export type HelpDoc = z.infer<typeof helpDocRow>;

const pageKey = z
  .string({ error: '绑定页面必须是文本' })
  .trim()
  .max(HELP_PAGE_KEY_MAX, { error: `绑定页面不能超过${HELP_PAGE_KEY_MAX}个字符` })
  .regex(/^[A-Za-z][\w-]*\/[\w-]+$/, { error: '绑定页面应为 模块/页面，如 cardVerify/card-verify-list' });

/** The whole tree, flat and depth first (a parent before its children, siblings by sort), with each catalogue's level. */
export const helpCatalogTree = endpoint({
  id: 'help.catalogTree',
  title: '帮助目录',
  method: 'GET',
  path: `${H}/catalog/tree`,
  query: z.object({ audience: HELP_AUDIENCE.filter.optional() }),
  response: z.array(helpCatalogRow),
  permission: HELP_READ,
});

/** Catalogues are the city's one tree: the super user writes them (the service refuses others). */
export const helpCatalogSave = endpoint({
  id: 'help.catalogSave',
  title: '保存帮助目录',
  method: 'POST',
  path: `${H}/catalog/saveOrUpdate`,
  body: z.object({
    id: id('目录ID').optional(),
    /** null or absent: a top catalogue. */
    parentId: id('上级目录').nullable().optional(),
    name: requiredText('目录名称', HELP_CATALOG_NAME_MAX),
    /** A top catalogue's; a child takes its parent's. */
    audience: HELP_AUDIENCE.schema,
    sort: wholeNumber('排序', 0, 9999).default(0),
    rowVersion: fromVersion,
  }),
  response: helpCatalogRow,
  permission: HELP_EDITOR,
});

export const helpCatalogDelete = endpoint({
  id: 'help.catalogDelete',
  title: '删除帮助目录',
  method: 'DELETE',
  path: `${H}/catalog/delete`,
  query: z.object({ id: id('目录ID') }),
  response: z.object({ id: z.number().int() }),
  permission: HELP_EDITOR,
});

/** The docs list's filters, shared by the page, its summary line and its export. */
const docFilters = z.object({
  /** The catalogue and everything under it. */
  catalogId: id('目录ID').optional(),
  /** Words of the title or the text. */
  keyword: optionalText('关键词', HELP_TITLE_MAX).optional(),
  audience: HELP_AUDIENCE.filter.optional(),
  status: HELP_DOC_STATUS.filter.optional(),
  pageKey: pageKey.optional(),
});

export const helpDocPage = endpoint({
  id: 'help.docPage',
  title: '帮助文档列表',
  method: 'GET',
  path: `${H}/doc/page`,
  query: pageQuery(['updatedDate', 'views', 'sort'] as const).extend(docFilters.shape),
  response: pageOf(helpDocRow),
  permission: HELP_READ,
});

export const helpDocTotal = endpoint({
  id: 'help.docTotal',
  title: '帮助文档统计',
  method: 'GET',
  path: `${H}/doc/total`,
  // Counted by status, so the status filter itself is not applied.
  query: docFilters,
  response: z.object({
    total: z.number().int(),
    byStatus: z.object({ draft: z.number().int(), published: z.number().int(), withdrawn: z.number().int() }),
    views: z.number().int(),
    helpful: z.number().int(),
    unhelpful: z.number().int(),
  }),
  permission: HELP_READ,
});

/** 导出 Excel of the filtered docs: a 下载中心 task (titles, where they sit, their readers' votes; not the text). */
export const helpDocExport = exportTaskEndpoint({
  id: 'help.docExport',
  title: '导出帮助文档',
  path: `${H}/doc/export`,
  query: docFilters,
  permission: HELP_READ,
});

export const helpDocById = endpoint({
  id: 'help.docById',
  title: '帮助文档详情',
  method: 'GET',
  path: `${H}/doc/queryById`,
  query: z.object({ id: id('文档ID') }),
  response: helpDocRow.extend({ content: z.string() }),
  permission: HELP_READ,
});

/**
 * 新增 / 编辑文档: the content passes the server's allow-list before anything looks at it (nothing
 * left: `文档内容不能为空`). A published doc is corrected in place (help is fixed where staff read it);
 * its audience is its catalogue's.
 */
export const helpDocSave = endpoint({
  id: 'help.docSave',
  title: '保存帮助文档',
  method: 'POST',
  path: `${H}/doc/saveOrUpdate`,
  body: z.object({
    id: id('文档ID').optional(),
    /** A new doc's area on 全部区域: a district, or null for a city-wide doc (the super user's). */
    districtId: id('区域').nullable().optional(),
    catalogId: id('目录'),
    title: requiredText('标题', HELP_TITLE_MAX),
    content: richText('文档内容', HELP_CONTENT_MAX),
    pageKey: pageKey.nullable().optional(),
    sort: wholeNumber('排序', 0, 9999).default(0),
    rowVersion: fromVersion,
  }),
  response: helpDocRow.extend({ content: z.string() }),
  permission: HELP_EDITOR,
});

export const helpDocUpdateStatus = endpoint({
  id: 'help.docUpdateStatus',
  title: '修改帮助文档状态',
  method: 'POST',
  path: `${H}/doc/update/status`,
  body: z.object({ id: id('文档ID'), fromStatus: HELP_DOC_STATUS.schema, toStatus: HELP_DOC_STATUS.schema, rowVersion: fromVersion }),
  response: helpDocRow,
  permission: HELP_EDITOR,
});

export const helpDocDelete = endpoint({
  id: 'help.docDelete',
  title: '删除帮助文档',
  method: 'DELETE',
  path: `${H}/doc/delete`,
  query: z.object({ id: id('文档ID') }),
  response: z.object({ id: z.number().int() }),
  permission: HELP_EDITOR,
});

/** A staff doc as the `?` sheet shows it: published, for staff, in the reader's area or city-wide. */
export const pageHelpDoc = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  updatedDate: timestamp,
  helpful: z.number().int(),
  unhelpful: z.number().int(),
  /** This account's own vote: true 有用, false 没用, null none. */
  myVote: z.boolean().nullable(),
});
export type PageHelpDoc = z.infer<typeof pageHelpDoc>;

/**
 * ★ 页内帮助: the published staff docs bound to one console page. Any signed-in account reads it: the
 * `?` sheet is on every page, whoever sees 帮助中心's menu or not.
 */
export const helpDocByPage = endpoint({
  id: 'help.docByPage',
  title: '本页帮助',
  method: 'GET',
  path: `${H}/doc/byPage`,
  query: z.object({ pageKey }),
  response: z.array(pageHelpDoc),
  permission: SESSION,
});

/** 有用 / 没用: each account's own vote on a published doc (null takes it back), changed as often as it likes. */
export const helpDocRate = endpoint({
  id: 'help.docRate',
  title: '评价帮助文档',
  method: 'POST',
  path: `${H}/doc/rate`,
  body: z.object({ id: id('文档ID'), helpful: z.boolean({ error: '评价应为 true（有用）或 false（没用）' }).nullable() }),
  response: z.object({ id: z.number().int(), helpful: z.number().int(), unhelpful: z.number().int(), myVote: z.boolean().nullable() }),
  // The caller's own vote and nothing else: as an account's own password or export tasks are its own.
  permission: SELF,
});

/** A doc opened whole (the `?` sheet's Enter, the 帮助中心 preview): one view counted, so the author sees what staff look up. */
export const helpDocView = endpoint({
  id: 'help.docView',
  title: '阅读帮助文档',
  method: 'POST',
  path: `${H}/doc/view`,
  body: z.object({ id: id('文档ID') }),
  response: z.object({ id: z.number().int(), views: z.number().int() }),
  permission: SELF,
});

/** Every endpoint of 帮助中心, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [
  helpCatalogTree,
  helpCatalogSave,
  helpCatalogDelete,
  helpDocPage,
  helpDocTotal,
  helpDocExport,
  helpDocById,
  helpDocSave,
  helpDocUpdateStatus,
  helpDocDelete,
  helpDocByPage,
  helpDocRate,
  helpDocView,
];
