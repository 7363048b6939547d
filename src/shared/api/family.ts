import { z } from 'zod';
import { BUSCODE, endpoint, readByBody } from './endpoint';
import { fromVersion, id, optionalText, rowVersion, timestamp } from './fields';
import { pageOf, pageQuery } from './paging';
import { grant, grantIn } from './permissions';
import { CARD_NO } from './card';
import { statusFlow } from '../frame/status-flow';

/** Reading this module's records is for the accounts that have its screens (the callingCard menu). */
export const FAMILY_READ = grant({ menus: ['callingCard'] });

/**
 * 亲情卡 (spec §7 familyCard): citizens bind relatives' cards. Changing a binding needs the operator's
 * own password again (`pwd`) and FAMILY_CARD_EDIT. The spec puts `pwd` and the binder's citizen id in
 * the query; those forms still answer for the spec's callers (their query never reaches a log line),
 * and each has a body form, which is what the console sends: a URL is kept by proxies, access logs
 * and saved HAR files.
 */

/** The family-card module's button permissions (spec §6), declared once with their labels. */
export const buttons = { FAMILY_CARD_EDIT: '亲情卡解绑/修改' } as const;

export const FAMILY_CARD_EDIT = grantIn(buttons)({ buttons: ['FAMILY_CARD_EDIT'] });

/** A binding is live (已绑定) until it is unbound, which is final: a new binding is a new row. */
export const BINDING_STATE = statusFlow({
  name: '绑定状态',
  states: [
    { code: 1, label: '已绑定', tone: 'green' },
    { code: 0, label: '已解绑', tone: 'gray' },
  ],
  transitions: { 1: [0] },
});

const masked = z.object({ id: z.number().int(), name: z.string().nullable(), phone: z.string(), citizenId: z.string().nullable() });

export const bindingRow = z.object({
  id: z.number().int(),
  districtId: z.number().int(),
  cardNo: z.string(),
  cardCategory: z.number().int(),
  cardState: z.number().int(),
  relation: z.string(),
  status: BINDING_STATE.schema,
  boundDate: timestamp,
  expiresDate: timestamp,
  unboundDate: timestamp.nullable(),
  holder: masked,
  renewals: z.number().int(),
  rowVersion,
});
export type Binding = z.infer<typeof bindingRow>;

const bindFilters = z.object({
  busCardNo: optionalText('卡号', 16).optional(),
  /** Exact, through the blind index. */
  citizenCardNo: optionalText('身份证号', 18).optional(),
  status: BINDING_STATE.filter.optional(),
});

export const bindPage = endpoint({
  id: 'family.bindPage',
  title: '亲情卡绑定列表',
  method: 'GET',
  path: `${BUSCODE}/familyCard/bind/page`,
  query: pageQuery(['boundDate', 'expiresDate'] as const).extend(bindFilters.shape),
  response: pageOf(bindingRow),
  permission: FAMILY_READ,
});

export const bindSummary = endpoint({
  id: 'family.bindSummary',
  title: '亲情卡绑定统计',
  method: 'GET',
  path: `${BUSCODE}/familyCard/bind/summary`,
  query: bindFilters,
  response: z.object({ total: z.number().int(), bound: z.number().int(), unbound: z.number().int(), expiringSoon: z.number().int() }),
  permission: FAMILY_READ,
});

/** The bindings list and its counts with the filters (a citizen id) in a POST body: what the console sends. */
export const bindPageByBody = readByBody(bindPage, { id: 'family.bindPageByBody', title: '亲情卡绑定列表（条件在请求体）' });
export const bindSummaryByBody = readByBody(bindSummary, { id: 'family.bindSummaryByBody', title: '亲情卡绑定统计（条件在请求体）' });

export const renewRow = z.object({ id: z.number().int(), bindingId: z.number().int(), cardNo: z.string(), months: z.number().int(), amount: z.number().int(), renewedDate: timestamp, holder: masked });

export const renewLogPage = endpoint({
  id: 'family.renewLogPage',
  title: '亲情卡续期记录',
  method: 'GET',
  path: `${BUSCODE}/familyCard/renewLog/page`,
  query: pageQuery(['renewedDate'] as const).extend({ busCardNo: optionalText('卡号', 16).optional() }),
  response: pageOf(renewRow),
  permission: FAMILY_READ,
});

export const renewLogSummary = endpoint({
  id: 'family.renewLogSummary',
  title: '亲情卡续期统计',
  method: 'GET',
  path: `${BUSCODE}/familyCard/renewLog/summary`,
  query: z.object({ busCardNo: optionalText('卡号', 16).optional() }),
  response: z.object({ count: z.number().int(), amount: z.number().int() }),
  permission: FAMILY_READ,
});

/** A binding shows in this module's lists and on its card's view (卡片详情, module busUser). */
const BINDING_WRITES = ['callingCard', 'busUser'];

const pwd = z.string({ error: '请输入您的登录密码' }).min(1, { error: '请输入您的登录密码' }).max(128, { error: '密码过长' });

const unbindFields = z.object({
  busCardNo: z.string({ error: '请输入卡号' }).trim().regex(CARD_NO, { error: '卡号应为16位数字' }),
  citizenCardNo: z.string({ error: '请输入绑定人身份证号' }).trim().min(15, { error: '身份证号应为18位' }).max(18, { error: '身份证号应为18位' }),
  pwd,
});

/** Spec §7: `POST unBind?busCardNo=&citizenCardNo=&pwd=`, for the spec's callers. */
export const unBind = endpoint({
  id: 'family.unBind',
  title: '解绑亲情卡',
  method: 'POST',
  path: `${BUSCODE}/familyCard/bind/unBind`,
  query: unbindFields,
  response: bindingRow,
  permission: FAMILY_CARD_EDIT,
  writes: BINDING_WRITES,
});

/**
 * The same unbind with the card, the citizen id and the password in the JSON body, at the spec's
 * path + `/body` (the spec's own path is a POST already). What the console sends.
 */
export const unBindByBody = endpoint({
  id: 'family.unBindByBody',
  title: '解绑亲情卡',
  method: 'POST',
  path: `${unBind.path}/body`,
  body: unbindFields,
  response: bindingRow,
  permission: FAMILY_CARD_EDIT,
  writes: BINDING_WRITES,
  bodyFormOf: unBind.id,
});

const relationChange = z.object({
  id: id('绑定ID'),
  relation: z.string({ error: '请填写关系' }).trim().min(1, { error: '请填写关系' }).max(10, { error: '关系不能超过10个字' }),
  rowVersion: fromVersion,
});

/** Spec §7: `POST updateBind?pwd=` with a body, for the spec's callers. */
export const updateBind = endpoint({
  id: 'family.updateBind',
  title: '修改亲情卡绑定',
  method: 'POST',
  path: `${BUSCODE}/familyCard/bind/updateBind`,
  query: z.object({ pwd }),
  body: relationChange,
  response: bindingRow,
  permission: FAMILY_CARD_EDIT,
  writes: BINDING_WRITES,
});

/** The same change with the password in the body beside the relation: what the console sends. */
export const updateBindByBody = endpoint({
  id: 'family.updateBindByBody',
  title: '修改亲情卡绑定',
  method: 'POST',
  path: `${updateBind.path}/body`,
  body: relationChange.extend({ pwd }),
  response: bindingRow,
  permission: FAMILY_CARD_EDIT,
  writes: BINDING_WRITES,
  bodyFormOf: updateBind.id,
});

export const cardTypeDict = endpoint({
  id: 'family.cardTypeDict',
  title: '卡类型字典',
  method: 'GET',
  path: `${BUSCODE}/familyCard/getCardTypeDict`,
  response: z.array(z.object({ value: z.number().int(), label: z.string() })),
  permission: FAMILY_READ,
});

/** The card centre's answer about a card (checkCardFromKZX): our own table unless a real centre is configured. */
export const checkCard = endpoint({
  id: 'family.checkCard',
  title: '卡中心查卡',
  method: 'GET',
  path: `${BUSCODE}/familyCard/checkCardFromKZX`,
  query: z.object({ busCardNo: z.string({ error: '请输入卡号' }).trim().regex(CARD_NO, { error: '卡号应为16位数字' }) }),
  response: z.object({ cardNo: z.string(), exists: z.boolean(), state: z.number().int().nullable(), category: z.number().int().nullable(), bindable: z.boolean(), reason: z.string().nullable() }),
  permission: FAMILY_READ,
});

export const bindExport = endpoint({
  id: 'family.bindExport',
  title: '导出亲情卡绑定',
  method: 'GET',
  path: `${BUSCODE}/familyCard/bind/export`,
  query: bindFilters,
  response: z.instanceof(Blob),
  permission: FAMILY_READ,
  file: true,
  timeoutMs: 40_000,
});

/** The bindings as a spreadsheet with the filters (a citizen id) in a POST body: what the console sends. */
export const bindExportByBody = readByBody(bindExport, { id: 'family.bindExportByBody', title: '导出亲情卡绑定（条件在请求体）' });

export const renewLogExport = endpoint({
  id: 'family.renewLogExport',
  title: '导出亲情卡续期记录',
  method: 'GET',
  path: `${BUSCODE}/familyCard/renewLog/export`,
  query: z.object({ busCardNo: optionalText('卡号', 16).optional() }),
  response: z.instanceof(Blob),
  permission: FAMILY_READ,
  file: true,
  timeoutMs: 40_000,
});
