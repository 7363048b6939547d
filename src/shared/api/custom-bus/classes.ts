import { z } from 'zod';
import { BUSCODE, type Endpoint, endpoint } from '../endpoint';
import { exportTaskEndpoint } from '../export-task';
import { fromVersion, id, timestamp, wholeNumber } from '../fields';
import { pageOf, pageQuery } from '../paging';
import { CUSTOM_CLASSES_EDITOR, CUSTOM_DISPATCHER, CUSTOM_READ } from './buttons';
import { CLASSES_STATUS, TICKET_STATE } from './states';

/** 班次管理 (second wave §5): customClasses/ — dated classes, batch scheduling, dispatch, cancellation. */

/** The widest window a list or a batch covers, in days (the design's 62). */
export const CLASSES_MAX_DAYS = 62;
/** The most departure times one batch takes (a day's timetable). */
export const BATCH_MAX_TIMES = 24;
/** A class's seats: the schema's check allows 0–80. */
export const CLASSES_MAX_SEATS = 80;

const C = `${BUSCODE}/customClasses`;

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const validDay = (s: string) => DAY_RE.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;
export const classesDay = (label: string) => z.string({ error: `${label}必须是日期` }).refine(validDay, { error: `${label}应为 YYYY-MM-DD` });

/** `HH:mm` (00:00–23:59): a departure time as the operator types it; stored as seconds after midnight. */
export const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d$/;
export const classesTime = (label: string) => z.string({ error: `${label}必须是文本` }).trim().regex(TIME_RE, { error: `${label}应为 HH:mm，如 07:30` });

/** Days from `from` to `to` inclusive (calendar days, no zone involved). */
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** Seconds after midnight as `HH:mm`. */
export const secondsToTime = (s: number) => `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}`;

const seats = (label: string) => wholeNumber(label, 0, CLASSES_MAX_SEATS);
const fen = (label: string) => wholeNumber(label, 1, 10_000_000);
const direction = z.union([z.literal(0), z.literal(1)], { error: '方向应为 0 上行 或 1 下行' });

export const classesRow = z.object({
  id: z.number().int(),
  districtId: z.number().int(),
  lineId: z.number().int(),
  lineNo: z.string(),
  lineName: z.string(),
  /** 0 上行, 1 下行. */
  direction: z.number().int(),
  departDate: z.string(),
  /** Seconds after midnight, and as `HH:mm`. */
  departTime: z.number().int(),
  time: z.string(),
  departAt: timestamp,
  arriveAt: timestamp,
  /** Seats issued = stock (free) + held (unpaid orders) + sold (paid). */
  publish: z.number().int(),
  stock: z.number().int(),
  held: z.number().int(),
  sold: z.number().int(),
  price: z.number().int(),
  saleOpenAt: timestamp,
  saleCloseAt: timestamp,
  carId: z.number().int().nullable(),
  plateNo: z.string().nullable(),
  carSeats: z.number().int().nullable(),
  driverId: z.number().int().nullable(),
  driverName: z.string().nullable(),
  status: CLASSES_STATUS.schema,
  cancelReason: z.string().nullable(),
  createdDate: timestamp,
  updatedDate: timestamp,
  rowVersion: z.number().int(),
});
export type ClassesRow = z.infer<typeof classesRow>;

/** The list's filters: a window of at most 62 days (its summary and export take the same). */
const filterShape = {
  lineId: id('线路').optional(),
  dateFrom: classesDay('开始日期').optional(),
  dateTo: classesDay('结束日期').optional(),
  status: CLASSES_STATUS.filter.optional(),
  carId: id('车辆').optional(),
  driverId: id('司机').optional(),
};
type Window = { dateFrom?: string | undefined; dateTo?: string | undefined };
const windowOk = (q: Window) => !q.dateFrom || !q.dateTo || (q.dateTo >= q.dateFrom && daysBetween(q.dateFrom, q.dateTo) <= CLASSES_MAX_DAYS);
const windowRefusal = { error: `查询日期范围不能超过${CLASSES_MAX_DAYS}天，且结束日期不能早于开始日期`, path: ['dateTo'] };
const classesFilters = z.object(filterShape).refine(windowOk, windowRefusal);

export const classesPage = endpoint({
  id: 'customClasses.page',
  title: '班次列表',
  method: 'GET',
  path: `${C}/page`,
  query: pageQuery(['departAt', 'sold', 'createdDate'] as const)
    .extend(filterShape)
    .refine(windowOk, windowRefusal),
  response: pageOf(classesRow),
  permission: CUSTOM_READ,
});

export const classesTotal = endpoint({
  id: 'customClasses.total',
  title: '班次统计',
  method: 'GET',
  path: `${C}/total`,
  query: classesFilters,
  response: z.object({
    classes: z.number().int(),
    /** Σ publish / held / sold / stock of the non-cancelled classes. */
    seats: z.number().int(),
    held: z.number().int(),
    sold: z.number().int(),
    stock: z.number().int(),
    /** sold / seats, ‰; null without seats. */
    loadRate: z.number().int().nullable(),
    pending: z.number().int(),
    onSale: z.number().int(),
    stopped: z.number().int(),
    departed: z.number().int(),
    cancelled: z.number().int(),
    /** Non-cancelled, not departed classes still without a car or a driver. */
    unassigned: z.number().int(),
  }),
  permission: CUSTOM_READ,
});

export const classesExport = exportTaskEndpoint({
  id: 'customClasses.export',
  title: '导出班次',
  path: `${C}/export`,
  query: classesFilters,
  permission: CUSTOM_READ,
});

export const passengerRow = z.object({
  ticketNo: z.string(),
  orderNo: z.string(),
  /** Masked: 138****5678. */
  riderPhone: z.string().nullable(),
  state: TICKET_STATE.schema,
  amount: z.number().int(),
  refundedAmount: z.number().int(),
  checkedAt: timestamp.nullable(),
  checkPlateNo: z.string().nullable(),
  /** 1 扫码, 2 人工. */
  checkMethod: z.number().int().nullable(),
});

export const classesById = endpoint({
  id: 'customClasses.queryById',
  title: '班次详情',
  method: 'GET',
  path: `${C}/queryById`,
  query: z.object({ id: id('班次ID') }),
  response: classesRow.extend({
    passengers: z.array(passengerRow),
    /** Tickets checked (已核销) and paid but not (yet) checked. */
    checked: z.number().int(),
    unchecked: z.number().int(),
  }),
  permission: CUSTOM_READ,
});

export const classesSave = endpoint({
  id: 'customClasses.saveOrUpdate',
  title: '保存班次',
  method: 'POST',
  path: `${C}/saveOrUpdate`,
  body: z.object({
    id: id('班次ID').optional(),
    lineId: id('线路'),
    direction: direction.default(0),
    departDate: classesDay('发车日期'),
    departTime: classesTime('发车时刻'),
    publish: seats('发行座位数'),
    /** Fen per seat; the line's price when omitted. */
    price: fen('票价').optional(),
    rowVersion: fromVersion,
  }),
  response: classesRow,
  permission: CUSTOM_CLASSES_EDITOR,
});

export const batchConflict = z.object({ date: z.string(), time: z.string(), reasons: z.array(z.string()) });
export type BatchConflict = z.infer<typeof batchConflict>;

export const classesBatchSave = endpoint({
  id: 'customClasses.batchSave',
  title: '批量排班',
  method: 'POST',
  path: `${C}/batchSave`,
  body: z
    .object({
      lineId: id('线路'),
      direction: direction.default(0),
      dateFrom: classesDay('开始日期'),
      dateTo: classesDay('结束日期'),
      /** ISO weekdays: 1 周一 … 7 周日. */
      weekdays: z
        .array(wholeNumber('星期', 1, 7), { error: '请选择星期' })
        .min(1, { error: '请至少选择一天' })
        .max(7, { error: '星期最多7个' }),
      times: z
        .array(classesTime('发车时刻'), { error: '请填写发车时刻' })
        .min(1, { error: '请至少填写一个发车时刻' })
        .max(BATCH_MAX_TIMES, { error: `发车时刻最多${BATCH_MAX_TIMES}个` }),
      publish: seats('发行座位数'),
      price: fen('票价').optional(),
      carId: id('车辆').nullable().optional(),
      driverId: id('司机').nullable().optional(),
      /** True: only list what would be made and every conflict; nothing is written. */
      dryRun: z.boolean({ error: 'dryRun 应为 true 或 false' }).default(true),
    })
    .refine((b) => b.dateTo >= b.dateFrom, { error: '结束日期不能早于开始日期', path: ['dateTo'] })
    .refine((b) => daysBetween(b.dateFrom, b.dateTo) <= CLASSES_MAX_DAYS, { error: `批量排班一次最多${CLASSES_MAX_DAYS}天`, path: ['dateTo'] })
    .refine((b) => new Set(b.times).size === b.times.length, { error: '发车时刻不能重复', path: ['times'] }),
  response: z.object({
    dryRun: z.boolean(),
    /** The date × time slots the batch makes (conflicting ones included). */
    slots: z.number().int(),
    conflicts: z.array(batchConflict),
    /** The classes written (empty on a dry run). */
    ids: z.array(z.number().int()),
  }),
  permission: CUSTOM_CLASSES_EDITOR,
  timeoutMs: 30_000,
});

export const classesUpdateStatus = endpoint({
  id: 'customClasses.updateStatus',
  title: '班次开售/停售',
  method: 'POST',
  path: `${C}/update/status`,
  body: z.object({ id: id('班次ID'), fromStatus: CLASSES_STATUS.schema, toStatus: CLASSES_STATUS.schema, rowVersion: fromVersion }),
  response: classesRow,
  permission: CUSTOM_CLASSES_EDITOR,
});

export const classesAssign = endpoint({
  id: 'customClasses.assign',
  title: '排班（车辆与司机）',
  method: 'POST',
  path: `${C}/assign`,
  body: z.object({ id: id('班次ID'), carId: id('车辆').nullable(), driverId: id('司机').nullable(), rowVersion: fromVersion }),
  response: classesRow,
  permission: CUSTOM_DISPATCHER,
});

/**
 * What scheduling picks from, in the account's area: the lines (not 已下架) with their legs' times,
 * seats and price, and the cars and drivers with their state. The batch form, 排班 and the palette
 * read it; a list page of the network or the fleet part is not needed for a choice.
 */
export const classesOptions = endpoint({
  id: 'customClasses.options',
  title: '排班选项（线路、车辆、司机）',
  method: 'GET',
  path: `${C}/options`,
  query: z.object({}),
  response: z.object({
    lines: z.array(
      z.object({
        id: z.number().int(),
        districtId: z.number().int(),
        lineNo: z.string(),
        name: z.string(),
        /** −1 往返, 0 上行, 1 下行. */
        direction: z.number().int(),
        departTime: z.number().int(),
        returnDepartTime: z.number().int().nullable(),
        defaultSeats: z.number().int(),
        price: z.number().int(),
        status: z.number().int(),
      }),
    ),
    cars: z.array(z.object({ id: z.number().int(), districtId: z.number().int(), plateNo: z.string(), seats: z.number().int(), status: z.number().int(), inspectionUntil: z.string() })),
    drivers: z.array(z.object({ id: z.number().int(), districtId: z.number().int(), name: z.string(), status: z.number().int(), licenceUntil: z.string() })),
  }),
  permission: CUSTOM_READ,
});

/** Every endpoint of this part, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [classesPage, classesTotal, classesExport, classesById, classesSave, classesBatchSave, classesUpdateStatus, classesAssign, classesOptions];
