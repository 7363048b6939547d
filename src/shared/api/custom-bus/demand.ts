import { z } from 'zod';
import { BUSCODE, type Endpoint, endpoint } from '../endpoint';
import { exportTaskEndpoint } from '../export-task';
import { fromVersion, id, isoDateTime, optionalText, rowVersion, timestamp, wholeNumber } from '../fields';
import { pageOf, pageQuery } from '../paging';
import { CUSTOM_DEMAND_HANDLER, CUSTOM_READ } from './buttons';
import { DEMAND_RECORD_STATUS, DEMAND_STATE } from './states';

/**
 * 定制列表与定制记录 (second wave §5): customDemand/ — aggregated demand, the riders' submissions, the
 * heat map's clusters and ★ 需求成线; and 定制汇总 (customSummary/), per line and Shanghai day.
 */

const day = (label: string) => z.string({ error: `${label}必须是日期` }).regex(/^\d{4}-\d{2}-\d{2}$/, { error: `${label}应为 YYYY-MM-DD` });
const point = z.object({ lng: z.number(), lat: z.number() });

// ---------------------------------------------------------------- 定制汇总

const S = `${BUSCODE}/customSummary`;

export const summaryFilters = z.object({
  lineId: id('线路').optional(),
  /** Shanghai days of departure, inclusive; without them the last 30 days. At most 366 days. */
  startDate: day('开始日期').optional(),
  endDate: day('结束日期').optional(),
});

export const customSummaryRow = z.object({
  day: z.string(),
  lineId: z.number().int(),
  lineNo: z.string(),
  lineName: z.string(),
  /** Classes that ran or will run (cancelled ones not counted). */
  classes: z.number().int(),
  /** Seats issued on them. */
  seats: z.number().int(),
  /** Tickets paid (checked, refunded and not-yet-used included). */
  sold: z.number().int(),
  /** Seats kept (sold − refunded) / seats issued, ‰; null without seats. */
  loadRate: z.number().int().nullable(),
  checked: z.number().int(),
  /** Paid, never checked, class departed. */
  noShows: z.number().int(),
  refunds: z.number().int(),
  refundAmount: z.number().int(),
  /** Paid − refunded (fen). */
  revenue: z.number().int(),
});
export type CustomSummaryRow = z.infer<typeof customSummaryRow>;

export const customSummaryPage = endpoint({
  id: 'customSummary.page',
  title: '定制汇总',
  method: 'GET',
  path: `${S}/page`,
  query: pageQuery(['day', 'loadRate', 'revenue'] as const).extend(summaryFilters.shape),
  response: pageOf(customSummaryRow),
  permission: CUSTOM_READ,
  timeoutMs: 40_000,
});

export const customSummaryTotal = endpoint({
  id: 'customSummary.total',
  title: '定制汇总合计',
  method: 'GET',
  path: `${S}/total`,
  query: summaryFilters,
  response: customSummaryRow.omit({ day: true, lineId: true, lineNo: true, lineName: true }).extend({ lines: z.number().int(), days: z.number().int() }),
  permission: CUSTOM_READ,
  timeoutMs: 40_000,
});

export const customSummaryExport = exportTaskEndpoint({
  id: 'customSummary.export',
  title: '导出定制汇总',
  path: `${S}/export`,
  query: summaryFilters,
  permission: CUSTOM_READ,
});

// ---------------------------------------------------------------- 定制列表

const D = `${BUSCODE}/customDemand`;
export const REPLY_MAX = 200;

export const demandRow = z.object({
  id: z.number().int(),
  districtId: z.number().int(),
  districtName: z.string().nullable(),
  fromName: z.string(),
  fromLng: z.number(),
  fromLat: z.number(),
  fromRadiusM: z.number().int(),
  toName: z.string(),
  toLng: z.number(),
  toLat: z.number(),
  toRadiusM: z.number().int(),
  /** Seconds after midnight. */
  goFrom: z.number().int(),
  goTo: z.number().int(),
  backFrom: z.number().int().nullable(),
  backTo: z.number().int().nullable(),
  distanceM: z.number().int(),
  supporters: z.number().int(),
  threshold: z.number().int(),
  state: DEMAND_STATE.schema,
  lineId: z.number().int().nullable(),
  lineNo: z.string().nullable(),
  lineName: z.string().nullable(),
  reply: z.string(),
  handledDate: timestamp.nullable(),
  createdDate: timestamp,
  updatedDate: timestamp,
  rowVersion,
});
export type Demand = z.infer<typeof demandRow>;

export const demandFilters = z.object({
  /** An area's name, either end. */
  name: optionalText('区域名称', 20).optional(),
  state: DEMAND_STATE.filter.optional(),
  lineId: id('线路').optional(),
  /** Only demands at or over their threshold. */
  reached: z.enum(['1', '0'], { error: '达标应为 1 或 0' }).optional(),
});

export const customDemandPage = endpoint({
  id: 'customDemand.page',
  title: '定制列表',
  method: 'GET',
  path: `${D}/page`,
  query: pageQuery(['supporters', 'createdDate', 'distanceM'] as const).extend(demandFilters.shape),
  response: pageOf(demandRow),
  permission: CUSTOM_READ,
});

export const customDemandTotal = endpoint({
  id: 'customDemand.total',
  title: '定制列表统计',
  method: 'GET',
  path: `${D}/total`,
  // Counted by state, so the state filter itself is not applied.
  query: demandFilters,
  response: z.object({ total: z.number().int(), open: z.number().int(), opened: z.number().int(), declined: z.number().int(), supporters: z.number().int(), reached: z.number().int() }),
  permission: CUSTOM_READ,
});

export const customDemandExport = exportTaskEndpoint({
  id: 'customDemand.export',
  title: '导出定制列表',
  path: `${D}/export`,
  query: demandFilters,
  permission: CUSTOM_READ,
});

export const customDemandById = endpoint({
  id: 'customDemand.queryById',
  title: '定制需求详情',
  method: 'GET',
  path: `${D}/queryById`,
  query: z.object({ id: id('需求ID') }),
  response: demandRow.extend({
    /** Its submissions and the distinct riders among them. */
    records: z.number().int(),
    riders: z.number().int(),
    /** ★ Of those riders, how many later bought a ticket (paid) on its linked line. */
    buyers: z.number().int(),
    /** Their paid orders on that line. */
    buyerOrders: z.number().int(),
  }),
  permission: CUSTOM_READ,
});

export const customDemandHandle = endpoint({
  id: 'customDemand.handle',
  title: '处理定制需求',
  method: 'POST',
  path: `${D}/handle`,
  body: z.object({
    id: id('需求ID'),
    fromState: DEMAND_STATE.schema,
    toState: DEMAND_STATE.schema,
    /** 0 → 1 开通: the line (of the demand's district) that serves it. */
    lineId: id('线路').optional(),
    reply: optionalText('回复', REPLY_MAX).default(''),
    rowVersion: fromVersion,
  }),
  response: demandRow,
  permission: CUSTOM_DEMAND_HANDLER,
});

export const candidateLineRow = z.object({
  id: z.number().int(),
  lineNo: z.string(),
  name: z.string(),
  status: z.number().int(),
  departTime: z.number().int(),
  startName: z.string().nullable(),
  endName: z.string().nullable(),
  /** Metres from the demand's from area to the line's first station, and from its last to the to area; null without the station. */
  fromM: z.number().int().nullable(),
  toM: z.number().int().nullable(),
});
export type CandidateLine = z.infer<typeof candidateLineRow>;

/** The lines of the demand's district that could serve it (开通's choice), nearest ends first. */
export const customDemandCandidateLines = endpoint({
  id: 'customDemand.candidateLines',
  title: '可开通线路',
  method: 'GET',
  path: `${D}/candidateLines`,
  query: z.object({ id: id('需求ID') }),
  response: z.object({ lines: z.array(candidateLineRow) }),
  permission: CUSTOM_READ,
});

// ---------------------------------------------------------------- 定制记录

export const demandRecordRow = z.object({
  id: z.number().int(),
  districtId: z.number().int(),
  demandId: z.number().int().nullable(),
  riderId: z.number().int(),
  /** Masked: 138****5678. */
  riderPhone: z.string().nullable(),
  homeName: z.string(),
  /** The 500 m cell and its centre: the point itself is never shown. */
  homeCell: z.string(),
  home: point.nullable(),
  workName: z.string(),
  workCell: z.string(),
  work: point.nullable(),
  goTime: z.number().int(),
  backTime: z.number().int().nullable(),
  status: DEMAND_RECORD_STATUS.schema,
  createdDate: timestamp,
});
export type DemandRecord = z.infer<typeof demandRecordRow>;

export const recordFilters = z.object({
  demandId: id('需求').optional(),
  status: DEMAND_RECORD_STATUS.filter.optional(),
  /** An area's name, home or work. */
  area: optionalText('区域名称', 20).optional(),
  startTime: isoDateTime('开始时间').optional(),
  endTime: isoDateTime('结束时间').optional(),
});

export const customDemandRecordPage = endpoint({
  id: 'customDemand.recordPage',
  title: '定制记录',
  method: 'GET',
  path: `${D}/record/page`,
  query: pageQuery(['createdDate', 'goTime'] as const).extend(recordFilters.shape),
  response: pageOf(demandRecordRow),
  permission: CUSTOM_READ,
});

export const customDemandRecordTotal = endpoint({
  id: 'customDemand.recordTotal',
  title: '定制记录统计',
  method: 'GET',
  path: `${D}/record/total`,
  query: recordFilters,
  response: z.object({ total: z.number().int(), riders: z.number().int(), waiting: z.number().int(), matched: z.number().int(), notified: z.number().int() }),
  permission: CUSTOM_READ,
});

export const customDemandRecordExport = exportTaskEndpoint({
  id: 'customDemand.recordExport',
  title: '导出定制记录',
  path: `${D}/record/export`,
  query: recordFilters,
  permission: CUSTOM_READ,
});

// ---------------------------------------------------------------- ★ heat and 需求成线

export const snapRow = z.object({
  /** 'custom': a 定制站点; 'bus': a regular stop (a 定制站点 is made for it when the line is created). */
  kind: z.enum(['custom', 'bus']),
  id: z.number().int(),
  name: z.string(),
  lng: z.number(),
  lat: z.number(),
  distanceM: z.number().int(),
});
export type Snap = z.infer<typeof snapRow>;

export const clusterKey = z.object({
  districtId: id('区域'),
  homeCell: z.string({ error: '缺少家庭网格' }).regex(/^-?\d{1,7}:-?\d{1,7}$/, { error: '网格编号无效' }),
  workCell: z.string({ error: '缺少单位网格' }).regex(/^-?\d{1,7}:-?\d{1,7}$/, { error: '网格编号无效' }),
  /** Start of the 30-minute go window, seconds after midnight. */
  window: wholeNumber('时间窗', 0, 86_399).refine((v) => v % 1800 === 0, { error: '时间窗应为整半小时' }),
});
export type ClusterKey = z.infer<typeof clusterKey>;

export const clusterRow = clusterKey.extend({
  supporters: z.number().int(),
  /** The most common area names the riders gave. */
  homeName: z.string(),
  workName: z.string(),
  home: point,
  work: point,
  distanceM: z.number().int(),
  /** Seconds after midnight: the median of the riders' go times. */
  medianGoTime: z.number().int(),
  homeSnap: snapRow.nullable(),
  workSnap: snapRow.nullable(),
  /** The demand most of its riders are matched to, if any. */
  demandId: z.number().int().nullable(),
});
export type Cluster = z.infer<typeof clusterRow>;

export const customDemandHeat = endpoint({
  id: 'customDemand.heat',
  title: '需求热力',
  method: 'GET',
  path: `${D}/heat`,
  query: z.object({
    demandId: id('需求').optional(),
    /** Clusters with fewer supporters are left out. */
    minSupporters: wholeNumber('最少人数', 1, 1000).default(5),
    limit: wholeNumber('条数', 1, 200).default(50),
  }),
  response: z.object({ clusters: z.array(clusterRow) }),
  permission: CUSTOM_READ,
  timeoutMs: 20_000,
});

export const LINE_NO_MAX = 12;
export const LINE_NAME_MAX = 15;

export const customDemandToLine = endpoint({
  id: 'customDemand.toLine',
  title: '需求成线',
  method: 'POST',
  path: `${D}/toLine`,
  body: z
    .object({
      /** From a demand (its areas and window), or from a heat cluster (or both: the cluster's riders, linked to the demand). */
      demandId: id('需求').optional(),
      cluster: clusterKey.optional(),
      lineNo: z
        .string({ error: '线路编号不能为空' })
        .trim()
        .regex(/^[A-Za-z0-9-]{1,12}$/, { error: '线路编号应为1–12位字母、数字或 -' }),
      name: z.string({ error: '线路名称不能为空' }).trim().min(1, { error: '线路名称不能为空' }).max(LINE_NAME_MAX, { error: `线路名称不能超过${LINE_NAME_MAX}个字` }),
      /** Fen per seat. */
      price: wholeNumber('票价', 1, 100_000).refine((v) => v >= 1, { error: '票价应在0.01–1000元之间' }),
      seats: wholeNumber('座位数', 1, 80).default(45),
      /** The first Shanghai day of the first week; tomorrow without it. */
      startDate: day('首班日期').optional(),
      /** 开通说明, needed when the demand is below its threshold. */
      reply: optionalText('开通说明', REPLY_MAX).default(''),
    })
    .refine((b) => b.demandId !== undefined || b.cluster !== undefined, { error: '请选择需求或热力聚类', path: ['demandId'] }),
  response: z.object({
    lineId: z.number().int(),
    lineNo: z.string(),
    name: z.string(),
    departTime: z.number().int(),
    stops: z.array(snapRow),
    classes: z.number().int(),
    demand: demandRow.nullable(),
  }),
  permission: CUSTOM_DEMAND_HANDLER,
  writes: ['customBus'],
});

/** Every endpoint of this part, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [
  customSummaryPage,
  customSummaryTotal,
  customSummaryExport,
  customDemandPage,
  customDemandTotal,
  customDemandExport,
  customDemandById,
  customDemandHandle,
  customDemandCandidateLines,
  customDemandRecordPage,
  customDemandRecordTotal,
  customDemandRecordExport,
  customDemandHeat,
  customDemandToLine,
];
