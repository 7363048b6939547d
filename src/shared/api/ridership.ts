import { z } from 'zod';
import { BUSCODE, endpoint } from './endpoint';
import { id, isoDateTime, optionalText, timestamp } from './fields';
import { pageOf, pageQuery } from './paging';
import { grant } from './permissions';
import { CARD_NO } from './card';
import { exportTaskEndpoint } from './export-task';

/**
 * 乘车记录管理 (spec §7 query/record and day-take-bus-total/pc): ride records and the daily
 * ridership kept from them. Read by the accounts that have the menu (README decision 81).
 */
export const RIDES_READ = grant({ menus: ['order'] });

/**
 * The module's button permissions (spec §6): 订单退款 hangs under 乘车记录管理 in the menu catalogue;
 * the discount orders' refund (discount.ts) is granted through it.
 */
export const buttons = { REFUND_ORDER: '订单退款' } as const;

/** A Shanghai calendar day, `YYYY-MM-DD`. */
const day = (label: string) => z.string({ error: `请选择${label}` }).regex(/^\d{4}-\d{2}-\d{2}$/, { error: `${label}应为 YYYY-MM-DD` });

/** The longest range a ride-record query may span without a card number: a month's partition or two. */
export const RECORD_SPAN_DAYS = 31;
/** Daily ridership: a year of days at most. */
export const RIDERSHIP_SPAN_DAYS = 366;

const spanDays = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;

export const rideRecordRow = z.object({
  id: z.number().int(),
  rideDate: timestamp,
  districtId: z.number().int(),
  lineCode: z.string(),
  lineName: z.string(),
  busName: z.string(),
  /** 0 up, 1 down. */
  direction: z.number().int(),
  stationName: z.string().nullable(),
  cardNo: z.string(),
  cardCategory: z.number().int(),
  ticketType: z.number().int(),
  amount: z.number().int(),
  payStatus: z.number().int(),
  rechargeStatus: z.number().int(),
});
export type RideRecord = z.infer<typeof rideRecordRow>;

const recordFilterShape = {
  cardNo: z.string().trim().regex(CARD_NO, { error: '卡号应为16位数字' }).optional(),
  lineCode: optionalText('线路编号', 20).optional(),
  busName: optionalText('车辆', 20).optional(),
  ticketType: z.enum(['1', '2', '3'], { error: '票种应为 1、2 或 3' }).transform(Number).optional(),
  payStatus: z.enum(['0', '1', '2'], { error: '支付状态应为 0、1 或 2' }).transform(Number).optional(),
  startTime: isoDateTime('开始时间').optional(),
  endTime: isoDateTime('结束时间').optional(),
};
const recordFilters = z.object(recordFilterShape);

/**
 * Without a card number a query names its time range, at most RECORD_SPAN_DAYS long: at city scale
 * a month is hundreds of millions of rows' worth of partitions otherwise.
 */
const bounded = <T extends { cardNo?: string | undefined; startTime?: string | undefined; endTime?: string | undefined }>(q: T, ctx: z.RefinementCtx) => {
  if (q.startTime && q.endTime && Date.parse(q.endTime) < Date.parse(q.startTime)) ctx.addIssue({ code: 'custom', path: ['endTime'], message: '结束时间不能早于开始时间' });
  if (q.cardNo) return;
  if (!q.startTime || !q.endTime) ctx.addIssue({ code: 'custom', path: ['startTime'], message: '请选择时间范围（或输入卡号）' });
  else if (spanDays(q.startTime, q.endTime) > RECORD_SPAN_DAYS) ctx.addIssue({ code: 'custom', path: ['endTime'], message: `时间范围不能超过${RECORD_SPAN_DAYS}天` });
};

export const recordList = endpoint({
  id: 'record.list',
  title: '乘车记录',
  method: 'GET',
  path: `${BUSCODE}/query/record/list`,
  query: pageQuery(['rideDate', 'amount'] as const).extend(recordFilters.shape).superRefine(bounded),
  response: pageOf(rideRecordRow),
  permission: RIDES_READ,
  timeoutMs: 40_000,
});

export const recordSummary = endpoint({
  id: 'record.summary',
  title: '乘车记录统计',
  method: 'GET',
  path: `${BUSCODE}/query/record/summary`,
  query: recordFilters.superRefine(bounded),
  response: z.object({ rides: z.number().int(), amount: z.number().int(), paid: z.number().int(), unpaid: z.number().int(), refunded: z.number().int() }),
  permission: RIDES_READ,
  timeoutMs: 40_000,
});

/** The payment order behind one ride (spec: query/record/order/{id}). */
export const recordOrder = endpoint({
  id: 'record.order',
  title: '乘车支付订单',
  method: 'GET',
  path: `${BUSCODE}/query/record/order/:id`,
  params: z.object({ id: id('记录ID') }),
  response: rideRecordRow.extend({ orderNo: z.string(), payChannel: z.string(), paidDate: timestamp.nullable() }),
  permission: RIDES_READ,
});

const ridershipShape = {
  startDate: day('开始日期'),
  endDate: day('结束日期'),
  lineCode: optionalText('线路编号', 20).optional(),
  busName: optionalText('车辆', 20).optional(),
};
const dayRange = (q: { startDate: string; endDate: string }, ctx: z.RefinementCtx) => {
  const span = spanDays(q.startDate, q.endDate);
  if (span < 0) ctx.addIssue({ code: 'custom', path: ['endDate'], message: '结束日期不能早于开始日期' });
  else if (span >= RIDERSHIP_SPAN_DAYS) ctx.addIssue({ code: 'custom', path: ['endDate'], message: `日期范围不能超过${RIDERSHIP_SPAN_DAYS}天` });
};
const ridershipFilters = z.object(ridershipShape).superRefine(dayRange);

export const ridershipLineCodes = endpoint({
  id: 'ridership.lineCode',
  title: '客流线路',
  method: 'GET',
  path: `${BUSCODE}/day-take-bus-total/pc/lineCode`,
  response: z.array(z.object({ lineCode: z.string(), lineName: z.string() })),
  permission: RIDES_READ,
});

export const ridershipBusNames = endpoint({
  id: 'ridership.busNames',
  title: '客流车辆',
  method: 'GET',
  path: `${BUSCODE}/day-take-bus-total/pc/busNames`,
  query: z.object({ lineCode: optionalText('线路编号', 20).optional() }),
  response: z.array(z.string()),
  permission: RIDES_READ,
});

const ticketSplit = { single: z.number().int(), monthly: z.number().int(), yearly: z.number().int() };

export const ridershipTotal = endpoint({
  id: 'ridership.total',
  title: '客流合计',
  method: 'GET',
  path: `${BUSCODE}/day-take-bus-total/pc/total`,
  query: ridershipFilters,
  response: z.object({
    rides: z.number().int(),
    amount: z.number().int(),
    byTicketType: z.array(z.object({ ticketType: z.number().int(), rides: z.number().int(), amount: z.number().int() })),
    byDay: z.array(z.object({ day: z.string(), rides: z.number().int(), amount: z.number().int() })),
  }),
  permission: RIDES_READ,
  timeoutMs: 40_000,
});

export const ridershipRow = z.object({ day: z.string(), lineCode: z.string(), lineName: z.string(), busName: z.string(), rides: z.number().int(), amount: z.number().int(), ...ticketSplit });
export type RidershipRow = z.infer<typeof ridershipRow>;

export const ridershipPage = endpoint({
  id: 'ridership.page',
  title: '每日客流',
  method: 'GET',
  path: `${BUSCODE}/day-take-bus-total/pc/page`,
  query: pageQuery(['day', 'rides'] as const).extend(ridershipShape).superRefine(dayRange),
  response: pageOf(ridershipRow),
  permission: RIDES_READ,
  timeoutMs: 40_000,
});

/** 导出乘车记录: the records of the filters as a task in the download centre (at most EXPORT_MAX_ROWS rows). */
export const recordExport = exportTaskEndpoint({
  id: 'record.export',
  title: '导出乘车记录',
  path: `${BUSCODE}/xls/async/record/export`,
  query: recordFilters.superRefine(bounded),
  permission: RIDES_READ,
});

/** Staff cards: 员工卡, the operator's employees' own rides (README decision 89). */
export const EMPLOYEE_CARD_CATEGORY = 7;

/** 导出员工乘车记录: the same export limited to staff cards (员工卡). */
export const employeeRecordExport = exportTaskEndpoint({
  id: 'record.employeeExport',
  title: '导出员工乘车记录',
  path: `${BUSCODE}/xls/async/employee_record/export`,
  query: recordFilters.superRefine(bounded),
  permission: RIDES_READ,
});

/** 导出每日客流: the day × line × bus rows of the filters, as a task. */
export const ridershipExport = exportTaskEndpoint({
  id: 'ridership.export',
  title: '导出每日客流',
  path: `${BUSCODE}/day-take-bus-total/pc/export`,
  query: ridershipFilters,
  permission: RIDES_READ,
});
