import { z } from 'zod';
import type { Endpoint } from '../endpoint';
import { BUSCODE, endpoint } from '../endpoint';
import { exportTaskEndpoint } from '../export-task';
import { fromVersion, id, optionalText, requiredText, rowVersion, timestamp, wholeNumber } from '../fields';
import { pageOf, pageQuery } from '../paging';
import { CUSTOM_LINE_EDITOR, CUSTOM_LINE_STATUS_MOVER, CUSTOM_READ } from './buttons';
import { LINE_STATUS, STATION_STATUS } from './states';

/** 定制站点、定制线路与轨迹 (second wave §5): customStation/ and customLine/. */

export const STATION_NAME_MAX = 20;
export const STATION_ADDRESS_MAX = 100;
export const LINE_NAME_MAX = 15;
export const LINE_NO_MAX = 12;
export const LINE_REMARK_MAX = 200;
/** A direction's stops: at least 2, and a commuter line never needs more than this many. */
export const PATH_STOPS_MAX = 60;
export const PATH_POINTS_MAX = 5000;
/** Minutes after a leg's departure a stop may be reached (the table's check). */
export const STOP_OFFSET_MAX = 720;

/** `HH:mm` in the contract; seconds after midnight in the table (§1). */
const timeOfDay = (label: string) =>
  z
    .string({ error: `${label}应为 HH:mm` })
    .trim()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: `${label}应为 HH:mm（如 07:30）` });
export const toSeconds = (hhmm: string) => Number(hhmm.slice(0, 2)) * 3600 + Number(hhmm.slice(3, 5)) * 60;
export const toHhmm = (seconds: number) => `${String(Math.floor(seconds / 3600)).padStart(2, '0')}:${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}`;

const lng = z.number({ error: '经度必须是数字' }).min(73, { error: '经度应在73–136之间（GCJ-02）' }).max(136, { error: '经度应在73–136之间（GCJ-02）' });
const lat = z.number({ error: '纬度必须是数字' }).min(3, { error: '纬度应在3–54之间（GCJ-02）' }).max(54, { error: '纬度应在3–54之间（GCJ-02）' });

// ---------------------------------------------------------------- stations

export const customStationRow = z.object({
  id: z.number().int(),
  districtId: z.number().int(),
  districtName: z.string().nullable(),
  name: z.string(),
  address: z.string(),
  lng: z.number(),
  lat: z.number(),
  /** The regular stop it shares, if any. */
  busStationId: z.number().int().nullable(),
  busStationName: z.string().nullable(),
  status: STATION_STATUS.schema,
  /** Lines whose path stops here or that start or end here (one that has any cannot be deleted). */
  lines: z.number().int(),
  createdDate: timestamp,
  updatedDate: timestamp,
  rowVersion,
});
export type CustomStation = z.infer<typeof customStationRow>;

const S = `${BUSCODE}/customStation`;

const stationFilters = z.object({
  name: optionalText('站点名称', STATION_NAME_MAX).optional(),
  status: STATION_STATUS.filter.optional(),
  /** Linked to a regular stop or not. */
  linked: z.enum(['true', 'false'], { error: '关联公交站点应为 true 或 false' }).optional(),
});

export const stationPage = endpoint({
  id: 'customStation.page',
  title: '定制站点列表',
  method: 'GET',
  path: `${S}/page`,
  query: pageQuery(['name', 'createdDate', 'lines'] as const).extend(stationFilters.shape),
  response: pageOf(customStationRow),
  permission: CUSTOM_READ,
});

export const stationTotal = endpoint({
  id: 'customStation.total',
  title: '定制站点统计',
  method: 'GET',
  path: `${S}/total`,
  // Counted by status, so the status filter itself is not applied.
  query: stationFilters,
  response: z.object({ total: z.number().int(), enabled: z.number().int(), disabled: z.number().int(), linked: z.number().int(), used: z.number().int() }),
  permission: CUSTOM_READ,
});

export const stationExport = exportTaskEndpoint({ id: 'customStation.export', title: '导出定制站点', path: `${S}/export`, query: stationFilters, permission: CUSTOM_READ });

export const stationSave = endpoint({
  id: 'customStation.saveOrUpdate',
  title: '保存定制站点',
  method: 'POST',
  path: `${S}/saveOrUpdate`,
  body: z.object({
    id: id('站点ID').optional(),
    /** A new station's district when the account works across all (全部区域); otherwise its own. */
    districtId: id('区域').optional(),
    name: requiredText('站点名称', STATION_NAME_MAX),
    address: optionalText('地址', STATION_ADDRESS_MAX).default(''),
    lng,
    lat,
    busStationId: id('关联公交站点').nullable().optional(),
    rowVersion: fromVersion,
  }),
  response: customStationRow,
  permission: CUSTOM_LINE_EDITOR,
});

export const stationUpdateStatus = endpoint({
  id: 'customStation.updateStatus',
  title: '启用/停用定制站点',
  method: 'POST',
  path: `${S}/update/status`,
  body: z.object({ id: id('站点ID'), fromStatus: STATION_STATUS.schema, toStatus: STATION_STATUS.schema, rowVersion: fromVersion }),
  response: customStationRow,
  permission: CUSTOM_LINE_EDITOR,
});

export const stationDelete = endpoint({
  id: 'customStation.delete',
  title: '删除定制站点',
  method: 'DELETE',
  path: `${S}/delete`,
  query: z.object({ id: id('站点ID') }),
  response: z.object({ id: z.number().int() }),
  permission: CUSTOM_LINE_EDITOR,
});

// ---------------------------------------------------------------- lines

export const LINE_DIRECTIONS = [-1, 0, 1] as const;
export type LineDirection = (typeof LINE_DIRECTIONS)[number];
/** The legs a line runs: 往返 both, otherwise its one. */
export const legsOf = (direction: number): (0 | 1)[] => (direction === -1 ? [0, 1] : [direction === 1 ? 1 : 0]);
export const LEG_LABEL = { 0: '上行', 1: '下行' } as const;

/** The price riders pay, from the original price and the discount (stored so lists need not recompute). */
export function derivedPrice(b: { originalPrice: number; discountType: number; discountRate?: number | null; discountPrice?: number | null }): number {
  if (b.discountType === 2 && b.discountRate) return Math.max(1, Math.round((b.originalPrice * b.discountRate) / 1000));
  if (b.discountType === 3 && b.discountPrice) return b.discountPrice;
  return b.originalPrice;
}

export const customLineRow = z.object({
  id: z.number().int(),
  districtId: z.number().int(),
  districtName: z.string().nullable(),
  lineNo: z.string(),
  name: z.string(),
  direction: z.union([z.literal(-1), z.literal(0), z.literal(1)]),
  startStationId: z.number().int().nullable(),
  startStationName: z.string().nullable(),
  endStationId: z.number().int().nullable(),
  endStationName: z.string().nullable(),
  departTime: z.string(),
  arriveTime: z.string(),
  returnDepartTime: z.string().nullable(),
  returnArriveTime: z.string().nullable(),
  originalPrice: z.number().int(),
  discountType: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  discountRate: z.number().int().nullable(),
  discountPrice: z.number().int().nullable(),
  price: z.number().int(),
  ticketTypes: z.array(z.number().int()),
  defaultSeats: z.number().int(),
  status: LINE_STATUS.schema,
  sort: z.number().int(),
  demandId: z.number().int().nullable(),
  remark: z.string(),
  /** Stops of each leg's path (上行, 下行): 上架 needs ≥2 on every leg the line runs. */
  upStops: z.number().int(),
  downStops: z.number().int(),
  /** Orders ever made (a line with any cannot be deleted). */
  orders: z.number().int(),
  createdDate: timestamp,
  updatedDate: timestamp,
  rowVersion,
});
export type CustomLine = z.infer<typeof customLineRow>;

const L = `${BUSCODE}/customLine`;

const lineFilters = z.object({
  /** 线路编号 or 名称, contained. */
  keyword: optionalText('线路编号或名称', 20).optional(),
  status: LINE_STATUS.filter.optional(),
  direction: z.enum(['-1', '0', '1'], { error: '方向应为 -1、0 或 1' }).optional(),
  /** Lines stopping at this station. */
  stationId: id('站点').optional(),
});

export const linePage = endpoint({
  id: 'customLine.page',
  title: '定制线路列表',
  method: 'GET',
  path: `${L}/page`,
  query: pageQuery(['sort', 'lineNo', 'price', 'createdDate'] as const).extend(lineFilters.shape),
  response: pageOf(customLineRow),
  permission: CUSTOM_READ,
});

export const lineTotal = endpoint({
  id: 'customLine.total',
  title: '定制线路统计',
  method: 'GET',
  path: `${L}/total`,
  query: lineFilters,
  response: z.object({ total: z.number().int(), draft: z.number().int(), onSale: z.number().int(), offSale: z.number().int(), roundTrip: z.number().int() }),
  permission: CUSTOM_READ,
});

export const lineExport = exportTaskEndpoint({ id: 'customLine.export', title: '导出定制线路', path: `${L}/export`, query: lineFilters, permission: CUSTOM_READ });

export const lineById = endpoint({
  id: 'customLine.queryById',
  title: '定制线路详情',
  method: 'GET',
  path: `${L}/queryById`,
  query: z.object({ id: id('线路ID') }),
  response: customLineRow,
  permission: CUSTOM_READ,
});

const fen = (label: string) => wholeNumber(label, 1, 10_000_000);
const blankToNull = (v: unknown) => (v === '' ? null : v);

export const lineSave = endpoint({
  id: 'customLine.saveOrUpdate',
  title: '保存定制线路',
  method: 'POST',
  path: `${L}/saveOrUpdate`,
  body: z
    .object({
      id: id('线路ID').optional(),
      districtId: id('区域').optional(),
      lineNo: requiredText('线路编号', LINE_NO_MAX).regex(/^[A-Za-z0-9-]+$/, { error: '线路编号只能包含字母、数字和-，如 D101' }),
      name: z
        .string({ error: '线路名称不能为空' })
        .trim()
        .min(1, { error: '线路名称不能为空' })
        .max(LINE_NAME_MAX, { error: `线路名称不能超过${LINE_NAME_MAX}个字` }),
      direction: z.union([z.literal(-1), z.literal(0), z.literal(1)], { error: '方向应为 往返(-1)、上行(0) 或 下行(1)' }),
      startStationId: id('起点站'),
      endStationId: id('终点站'),
      departTime: timeOfDay('出发时间'),
      arriveTime: timeOfDay('到达时间'),
      returnDepartTime: z.preprocess(blankToNull, timeOfDay('返程出发时间').nullable()).optional(),
      returnArriveTime: z.preprocess(blankToNull, timeOfDay('返程到达时间').nullable()).optional(),
      originalPrice: fen('原价'),
      discountType: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: '优惠方式应为 无折扣(1)、折扣(2) 或 折后金额(3)' }),
      /** ‰: 800 = 8折. */
      discountRate: wholeNumber('折扣', 0, 100_000).nullable().optional(),
      discountPrice: wholeNumber('折后金额', 0, 10_000_000).nullable().optional(),
      ticketTypes: z
        .array(z.union([z.literal(1), z.literal(2)], { error: '票种应为 单次票(1) 或 月票(2)' }), { error: '请选择票种' })
        .min(1, { error: '请至少选择一种票种' })
        .max(2, { error: '票种重复' })
        .refine((a) => new Set(a).size === a.length, { error: '票种重复' }),
      defaultSeats: wholeNumber('默认座位数', 1, 80),
      sort: wholeNumber('排序', 0, 9999).default(0),
      remark: optionalText('备注', LINE_REMARK_MAX).default(''),
      rowVersion: fromVersion,
    })
    .refine((b) => b.startStationId !== b.endStationId, { error: '起点站和终点站不能相同', path: ['endStationId'] })
    .refine((b) => toSeconds(b.arriveTime) > toSeconds(b.departTime), { error: '到达时间须晚于出发时间', path: ['arriveTime'] })
    .refine((b) => b.direction !== -1 || (!!b.returnDepartTime && !!b.returnArriveTime), { error: '往返线路须填写返程出发和到达时间', path: ['returnDepartTime'] })
    .refine((b) => b.direction === -1 || (!b.returnDepartTime && !b.returnArriveTime), { error: '只有往返线路才填写返程时间', path: ['returnDepartTime'] })
    .refine((b) => !b.returnDepartTime || !b.returnArriveTime || toSeconds(b.returnArriveTime) > toSeconds(b.returnDepartTime), { error: '返程到达时间须晚于返程出发时间', path: ['returnArriveTime'] })
    .refine((b) => b.discountType !== 2 || (b.discountRate != null && b.discountRate >= 10 && b.discountRate <= 990), { error: '折扣应在0.1–9.9折之间', path: ['discountRate'] })
    .refine((b) => b.discountType !== 3 || (b.discountPrice != null && b.discountPrice >= 1), { error: '请填写折后金额', path: ['discountPrice'] })
    .refine((b) => b.discountType !== 3 || b.discountPrice == null || b.discountPrice <= b.originalPrice, { error: '折后金额不能高于原价', path: ['discountPrice'] }),
  response: customLineRow,
  permission: CUSTOM_LINE_EDITOR,
});

export const lineUpdateStatus = endpoint({
  id: 'customLine.updateStatus',
  title: '上架/下架定制线路',
  method: 'POST',
  path: `${L}/update/status`,
  body: z.object({ id: id('线路ID'), fromStatus: LINE_STATUS.schema, toStatus: LINE_STATUS.schema, reason: optionalText('原因', 100).optional(), rowVersion: fromVersion }),
  response: customLineRow,
  permission: CUSTOM_LINE_STATUS_MOVER,
});

export const lineDelete = endpoint({
  id: 'customLine.delete',
  title: '删除定制线路',
  method: 'DELETE',
  path: `${L}/delete`,
  query: z.object({ id: id('线路ID') }),
  response: z.object({ id: z.number().int() }),
  permission: CUSTOM_LINE_EDITOR,
});

// ---------------------------------------------------------------- paths

/** 0 上下客, 1 仅上车, 2 仅下车. */
const stopMode = z.union([z.literal(0), z.literal(1), z.literal(2)], { error: '上下客方式应为 0、1 或 2' });

export const pathStopRow = z.object({
  stationId: z.number().int(),
  name: z.string(),
  lng: z.number(),
  lat: z.number(),
  /** The station is 停用: the path keeps it, 上架 does not care, the editor marks it. */
  stationStatus: STATION_STATUS.schema,
  seq: z.number().int(),
  offsetMin: z.number().int(),
  mode: stopMode,
});
export type PathStop = z.infer<typeof pathStopRow>;

export const lineLegRow = z.object({
  direction: z.union([z.literal(0), z.literal(1)]),
  stops: z.array(pathStopRow),
  points: z.array(z.tuple([z.number(), z.number()])),
  updatedDate: timestamp.nullable(),
});
export type LineLeg = z.infer<typeof lineLegRow>;

export const linePath = endpoint({
  id: 'customLine.path',
  title: '定制线路轨迹',
  method: 'GET',
  path: `${L}/path`,
  query: z.object({ lineId: id('线路ID') }),
  response: z.object({ line: customLineRow, legs: z.array(lineLegRow) }),
  permission: CUSTOM_READ,
});

export const linePathSave = endpoint({
  id: 'customLine.pathSave',
  title: '保存定制线路轨迹',
  method: 'POST',
  path: `${L}/path/save`,
  body: z.object({
    lineId: id('线路ID'),
    direction: z.union([z.literal(0), z.literal(1)], { error: '方向应为 上行(0) 或 下行(1)' }),
    /** The leg's whole ordered stop list: replaces the saved one. */
    stops: z
      .array(z.object({ stationId: id('站点'), offsetMin: wholeNumber('到达时间（分钟）', 0, STOP_OFFSET_MAX), mode: stopMode.default(0) }), { error: '请提供站点列表' })
      .max(PATH_STOPS_MAX, { error: `一个方向最多${PATH_STOPS_MAX}个站点` }),
    points: z.array(z.tuple([lng, lat], { error: '轨迹点应为 [经度, 纬度]' }), { error: '请提供轨迹点列表' }).max(PATH_POINTS_MAX, { error: `轨迹点最多${PATH_POINTS_MAX}个` }),
    /** The line's version the editor loaded: a save over someone else's is refused. */
    rowVersion: fromVersion,
  }),
  response: z.object({ line: customLineRow, legs: z.array(lineLegRow) }),
  permission: CUSTOM_LINE_EDITOR,
});

/** Every endpoint of this part, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [
  stationPage,
  stationTotal,
  stationExport,
  stationSave,
  stationUpdateStatus,
  stationDelete,
  linePage,
  lineTotal,
  lineExport,
  lineById,
  lineSave,
  lineUpdateStatus,
  lineDelete,
  linePath,
  linePathSave,
];
