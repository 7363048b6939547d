import { z } from 'zod';
import { isValidCitizenId } from '../../domain/citizen-id';
import type { Endpoint } from '../endpoint';
import { BUSCODE, endpoint, readByBody } from '../endpoint';
import { exportTaskEndpoint } from '../export-task';
import { fromVersion, id, optionalText, queryBool, requiredText, rowVersion, timestamp, wholeNumber } from '../fields';
import { pageOf, pageQuery } from '../paging';
import { CUSTOM_FLEET_EDITOR, CUSTOM_READ } from './buttons';
import { CAR_STATUS, DRIVER_STATUS } from './states';

/**
 * 车辆管理与司机管理 (second wave §5): customCar/ and customDriver/. A driver's phone and citizen id
 * (which is also the licence number, stored once) are sealed; lists and exports carry them masked,
 * the reveal answers them in clear with a reason the log keeps. The driver's name is a staff name and
 * is shown in full (the console's own staff, not a rider).
 */

/** A warning is shown this many days before an inspection, insurance or licence runs out. */
export const EXPIRY_WARN_DAYS = 30;
export const LICENCE_CLASSES = ['A1', 'A3', 'B1'] as const;
export type LicenceClass = (typeof LICENCE_CLASSES)[number];
export const SEATS_MAX = 80;

/**
 * 沪A12345: a province, a letter (no I or O), then five letters or digits; new-energy plates have six
 * (D/F then a letter or digit and four digits for small cars, five digits then D/F for large ones).
 */
export const PLATE_NO = /^[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼][A-HJ-NP-Z](?:[A-HJ-NP-Z0-9]{5}|[DF][A-HJ-NP-Z0-9]\d{4}|\d{5}[DF])$/;
export const normalisePlate = (s: string) => s.replace(/[\s·•-]/g, '').toUpperCase();

const day = (label: string) =>
  z
    .string({ error: `${label}不能为空` })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: `${label}应为 YYYY-MM-DD` })
    .refine((s) => {
      const d = new Date(`${s}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s && d.getUTCFullYear() >= 2000 && d.getUTCFullYear() <= 2100;
    }, { error: `${label}不是有效的日期` });

const plateNo = z
  .string({ error: '车牌号不能为空' })
  .transform(normalisePlate)
  .pipe(z.string().min(1, { error: '车牌号不能为空' }).max(8, { error: '车牌号不能超过8个字符' }).regex(PLATE_NO, { error: '车牌号格式不正确（如 沪A12345、沪AD12345）' }));

const reason = z.string({ error: '请填写原因' }).trim().min(2, { error: '原因至少2个字' }).max(100, { error: '原因不能超过100个字' });

/** The future classes a car or driver is on (not cancelled), as a status move's refusal lists them. */
export const assignedClassRow = z.object({ id: z.number().int(), lineNo: z.string(), departDate: z.string(), departTime: z.string() });

// ---- cars ----

export const carRow = z.object({
  id: z.number().int(),
  districtId: z.number().int(),
  districtName: z.string().nullable(),
  plateNo: z.string(),
  seats: z.number().int(),
  model: z.string(),
  company: z.string(),
  status: CAR_STATUS.schema,
  inspectionUntil: z.string(),
  insuranceUntil: z.string(),
  /** Days from today (Shanghai) to the last covered day: negative when expired. */
  inspectionDays: z.number().int(),
  insuranceDays: z.number().int(),
  /** Classes it is assigned to that have not departed (not cancelled). */
  futureClasses: z.number().int(),
  createdDate: timestamp,
  updatedDate: timestamp,
  rowVersion,
});
export type Car = z.infer<typeof carRow>;

const C = `${BUSCODE}/customCar`;

const carFilters = z.object({
  plateNo: optionalText('车牌号', 10).optional(),
  company: optionalText('所属公司', 30).optional(),
  status: CAR_STATUS.filter.optional(),
  /** 年检或保险在30天内到期（含已过期）. */
  expiring: queryBool('30天内到期').optional(),
});

export const carPage = endpoint({
  id: 'customCar.page',
  title: '车辆列表',
  method: 'GET',
  path: `${C}/page`,
  query: pageQuery(['plateNo', 'seats', 'inspectionUntil', 'insuranceUntil', 'createdDate'] as const).extend(carFilters.shape),
  response: pageOf(carRow),
  permission: CUSTOM_READ,
});

export const carTotal = endpoint({
  id: 'customCar.total',
  title: '车辆统计',
  method: 'GET',
  path: `${C}/total`,
  // Counted by status, so the status filter itself is not applied.
  query: carFilters,
  response: z.object({ total: z.number().int(), available: z.number().int(), repair: z.number().int(), disabled: z.number().int(), seats: z.number().int(), expiring: z.number().int(), expired: z.number().int() }),
  permission: CUSTOM_READ,
});

export const carExport = exportTaskEndpoint({ id: 'customCar.export', title: '导出车辆', path: `${C}/export`, query: carFilters, permission: CUSTOM_READ });

export const carById = endpoint({
  id: 'customCar.queryById',
  title: '车辆详情',
  method: 'GET',
  path: `${C}/queryById`,
  query: z.object({ id: id('车辆ID') }),
  response: carRow,
  permission: CUSTOM_READ,
});

export const carSave = endpoint({
  id: 'customCar.saveOrUpdate',
  title: '保存车辆',
  method: 'POST',
  path: `${C}/saveOrUpdate`,
  body: z.object({
    id: id('车辆ID').optional(),
    /** A new car's district when the account works across all (全部区域); otherwise its own. */
    districtId: id('区域').optional(),
    plateNo,
    seats: wholeNumber('座位数', 1, SEATS_MAX),
    model: optionalText('车型', 30).default(''),
    company: optionalText('所属公司', 30).default(''),
    inspectionUntil: day('年检有效期'),
    insuranceUntil: day('保险有效期'),
    rowVersion: fromVersion,
  }),
  response: carRow,
  permission: CUSTOM_FLEET_EDITOR,
});

export const carUpdateStatus = endpoint({
  id: 'customCar.updateStatus',
  title: '车辆状态变更',
  method: 'POST',
  path: `${C}/update/status`,
  body: z.object({ id: id('车辆ID'), fromStatus: CAR_STATUS.schema, toStatus: CAR_STATUS.schema, reason: optionalText('原因', 100).optional(), rowVersion: fromVersion }),
  response: carRow,
  permission: CUSTOM_FLEET_EDITOR,
});

// ---- drivers ----

export const driverRow = z.object({
  id: z.number().int(),
  districtId: z.number().int(),
  districtName: z.string().nullable(),
  /** A staff name: shown in full. */
  name: z.string(),
  /** Masked: 138****5678. */
  phone: z.string(),
  /** Masked: 110***********123X (also the licence number). */
  idNo: z.string(),
  licenceClass: z.enum(LICENCE_CLASSES),
  licenceUntil: z.string(),
  licenceDays: z.number().int(),
  status: DRIVER_STATUS.schema,
  futureClasses: z.number().int(),
  createdDate: timestamp,
  updatedDate: timestamp,
  rowVersion,
});
export type Driver = z.infer<typeof driverRow>;

const D = `${BUSCODE}/customDriver`;

const licenceClass = z.enum(LICENCE_CLASSES, { error: '准驾车型应为 A1、A3 或 B1' });

const driverFilters = z.object({
  name: optionalText('姓名', 20).optional(),
  /** Exact mobile number through the blind index: the console sends it in the body form only. */
  phone: optionalText('手机号', 20).optional(),
  /** Exact citizen id through the blind index: the body form only. */
  idNo: optionalText('身份证号', 20).optional(),
  licenceClass: licenceClass.optional(),
  status: DRIVER_STATUS.filter.optional(),
  /** 驾驶证在30天内到期（含已过期）. */
  expiring: queryBool('30天内到期').optional(),
});
/** The export's filters: without the phone and id (they never sit in a URL; one driver needs no export). */
const driverUrlFilters = driverFilters.omit({ phone: true, idNo: true });

export const driverPage = endpoint({
  id: 'customDriver.page',
  title: '司机列表',
  method: 'GET',
  path: `${D}/page`,
  query: pageQuery(['name', 'licenceUntil', 'createdDate'] as const).extend(driverFilters.shape),
  response: pageOf(driverRow),
  permission: CUSTOM_READ,
});

/** The drivers list with its filters (a phone, a citizen id) in a POST body: what the console sends. */
export const driverPageByBody = readByBody(driverPage, { id: 'customDriver.pageByBody', title: '司机列表（条件在请求体）' });

export const driverTotal = endpoint({
  id: 'customDriver.total',
  title: '司机统计',
  method: 'GET',
  path: `${D}/total`,
  query: driverFilters,
  response: z.object({ total: z.number().int(), onDuty: z.number().int(), leave: z.number().int(), disabled: z.number().int(), expiring: z.number().int(), expired: z.number().int() }),
  permission: CUSTOM_READ,
});

export const driverTotalByBody = readByBody(driverTotal, { id: 'customDriver.totalByBody', title: '司机统计（条件在请求体）' });

export const driverExport = exportTaskEndpoint({ id: 'customDriver.export', title: '导出司机', path: `${D}/export`, query: driverUrlFilters, permission: CUSTOM_READ });

export const driverById = endpoint({
  id: 'customDriver.queryById',
  title: '司机详情',
  method: 'GET',
  path: `${D}/queryById`,
  query: z.object({ id: id('司机ID') }),
  response: driverRow,
  permission: CUSTOM_READ,
});

export const driverSave = endpoint({
  id: 'customDriver.saveOrUpdate',
  title: '保存司机',
  method: 'POST',
  path: `${D}/saveOrUpdate`,
  body: z.object({
    id: id('司机ID').optional(),
    districtId: id('区域').optional(),
    name: requiredText('姓名', 20),
    /**
     * On an edit, omitted (or the masked value as the list showed it) keeps the sealed number: the
     * form never holds the clear value unless the operator types a new one.
     */
    phone: z.string({ error: '手机号必须是文本' }).trim().max(20, { error: '手机号不能超过20个字符' }).optional(),
    idNo: z.string({ error: '身份证号必须是文本' }).trim().max(20, { error: '身份证号不能超过20个字符' }).optional(),
    licenceClass,
    licenceUntil: day('驾驶证有效期'),
    rowVersion: fromVersion,
  }),
  response: driverRow,
  permission: CUSTOM_FLEET_EDITOR,
});

export const driverUpdateStatus = endpoint({
  id: 'customDriver.updateStatus',
  title: '司机状态变更',
  method: 'POST',
  path: `${D}/update/status`,
  body: z.object({ id: id('司机ID'), fromStatus: DRIVER_STATUS.schema, toStatus: DRIVER_STATUS.schema, reason: optionalText('原因', 100).optional(), rowVersion: fromVersion }),
  response: driverRow,
  permission: CUSTOM_FLEET_EDITOR,
});

/** One driver's phone and citizen id in clear, with a reason the log keeps; answered no-store. */
export const driverReveal = endpoint({
  id: 'customDriver.reveal',
  title: '查看司机身份证号与手机号',
  method: 'POST',
  path: `${D}/reveal`,
  body: z.object({ id: id('司机ID'), reason }),
  response: z.object({ id: z.number().int(), name: z.string(), phone: z.string(), idNo: z.string() }),
  permission: CUSTOM_FLEET_EDITOR,
  readsOnly: true,
});

/** A mobile number as typed (spaces and dashes allowed): 11 digits from 1. */
export const isMobile = (s: string) => /^1[3-9]\d{9}$/.test(s.replace(/[\s-]/g, ''));
export const isDriverIdNo = (s: string) => isValidCitizenId(s.replace(/[\s-]/g, ''));

/** Every endpoint of this part, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [
  carPage,
  carTotal,
  carExport,
  carById,
  carSave,
  carUpdateStatus,
  driverPage,
  driverPageByBody,
  driverTotal,
  driverTotalByBody,
  driverExport,
  driverById,
  driverSave,
  driverUpdateStatus,
  driverReveal,
];
