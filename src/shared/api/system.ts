import { z } from 'zod';
import { BUSCODE, BUSLINE, endpoint } from './endpoint';
import { fromVersion, id, isoDateTime, optionalText, requiredText, rowVersion, timestamp } from './fields';
import { pageOf, pageQuery } from './paging';
import { SESSION, grant } from './permissions';

export const sysLog = z.object({
  id: z.number().int(),
  operatorId: z.number().int().nullable(),
  operatorLogin: z.string().nullable(),
  operationType: z.string(),
  operationLabel: z.string(),
  target: z.string().nullable(),
  summary: z.string(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  ip: z.string().nullable(),
  /** 0 failure, 1 success (spec §3). */
  result: z.union([z.literal(0), z.literal(1)]),
  /** The operator's working district when acting. */
  districtId: z.number().int().nullable(),
  /** The district the row is about (target account, agreement); null: about none, shown only to unscoped accounts. */
  targetDistrictId: z.number().int().nullable(),
  createdDate: timestamp,
});
export type SysLog = z.infer<typeof sysLog>;

export const sysLogPage = endpoint({
  id: 'sysLog.page',
  title: '系统日志',
  method: 'GET',
  path: `${BUSLINE}/sysLog/page`,
  query: pageQuery(['createdDate', 'operationType'] as const).extend({
    operationType: optionalText('操作类型', 40).optional(),
    operator: optionalText('操作人', 32).optional(),
    result: z.enum(['0', '1'], { error: '结果应为 0 或 1' }).transform(Number).optional(),
    startTime: isoDateTime('开始时间').optional(),
    endTime: isoDateTime('结束时间').optional(),
  }),
  response: pageOf(sysLog),
  permission: grant({ roles: ['ROLE_ADMIN'] }),
});

export const operationType = z.object({ value: z.string(), label: z.string() });

export const sysLogOperationTypes = endpoint({
  id: 'sysLog.operationTypes',
  title: '日志操作类型',
  method: 'GET',
  path: `${BUSLINE}/sysLog/getOperationType`,
  response: z.array(operationType),
  permission: grant({ roles: ['ROLE_ADMIN'] }),
});

export const district = z.object({
  id: z.number().int(),
  name: z.string(),
  code: z.string(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
});
export type District = z.infer<typeof district>;

export const districtPage = endpoint({
  id: 'district.page',
  title: '区域列表',
  method: 'GET',
  path: `${BUSLINE}/bus/district/page`,
  query: pageQuery(['name', 'code'] as const).extend({ name: optionalText('区域名称', 32).optional() }),
  response: pageOf(district),
  permission: SESSION,
});

export const agreement = z.object({
  id: z.number().int(),
  districtId: z.number().int().nullable(),
  code: z.string(),
  title: z.string(),
  content: z.string(),
  updatedDate: timestamp,
  rowVersion,
});
export type Agreement = z.infer<typeof agreement>;

export const agreementList = endpoint({
  id: 'agreement.list',
  title: '协议列表',
  method: 'GET',
  path: `${BUSLINE}/bus/agreement/list`,
  query: z.object({ code: optionalText('协议编码', 40).optional() }),
  response: z.array(agreement),
  permission: SESSION,
});

export const agreementSave = endpoint({
  id: 'agreement.saveOrUpdate',
  title: '保存协议',
  method: 'POST',
  path: `${BUSLINE}/bus/agreement/saveOrUpdate`,
  body: z.object({
    id: id('协议ID').optional(),
    code: requiredText('协议编码', 40).regex(/^[A-Za-z0-9_-]+$/, { error: '协议编码只能包含字母、数字、_ 和 -' }),
    title: requiredText('协议标题', 100),
    content: requiredText('协议内容', 50_000),
    rowVersion: fromVersion,
  }),
  response: agreement,
  permission: grant({ roles: ['ROLE_ADMIN'] }),
});

export const qrCode = endpoint({
  id: 'config.qrCode',
  title: '侧边栏二维码',
  method: 'GET',
  path: `${BUSCODE}/config/qrCode`,
  response: z.string().nullable(),
  permission: SESSION,
});

/** The city centre, and the map tiles the operator configured (MAP_TILE_URL), null for none. */
export const location = z.object({
  lat: z.number(),
  lon: z.number(),
  tileUrl: z.string().nullable(),
  /** The version of 基础设置 (the city centre and the QR code are saved together): 基础设置's form sends it back. */
  rowVersion,
});

/**
 * The sidebar's QR image: an http(s) address or an inline PNG/JPEG/GIF/WebP image (data URL),
 * small enough for a request body.
 */
export const qrImage = z
  .string({ error: '二维码必须是文本' })
  .trim()
  .max(200_000, { error: '二维码图片不能超过约 150 KB' })
  .refine((v) => /^https?:\/\/[^\s]{1,2000}$/i.test(v) || /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/.test(v), {
    error: '二维码应为 http(s) 图片地址，或 PNG/JPEG/GIF/WebP 图片',
  });

// GCJ-02 coordinates of a Chinese city: anything outside China's extent is a typo (e.g. swapped).
const latitude = z.number({ error: '纬度必须是数字' }).min(3, { error: '纬度应在 3～54 之间（中国境内）' }).max(54, { error: '纬度应在 3～54 之间（中国境内）' });
const longitude = z.number({ error: '经度必须是数字' }).min(73, { error: '经度应在 73～136 之间（中国境内）' }).max(136, { error: '经度应在 73～136 之间（中国境内）' });

export const baseSetting = z.object({ qrCode: z.string().nullable(), lat: z.number(), lon: z.number(), rowVersion });
export type BaseSetting = z.infer<typeof baseSetting>;

/** 基础设置: the sidebar's QR code and the city centre, city-wide, so only the super user saves them. */
export const configSave = endpoint({
  id: 'config.saveOrUpdate',
  title: '保存基础设置',
  method: 'POST',
  path: `${BUSCODE}/config/saveOrUpdate`,
  body: z.object({ qrCode: qrImage.nullable(), lat: latitude, lon: longitude, rowVersion: fromVersion }),
  response: baseSetting,
  permission: grant({ roles: ['ROLE_APP_ADMIN'] }),
});

export const cityLocation = endpoint({
  id: 'config.location',
  title: '城市中心坐标',
  method: 'GET',
  path: `${BUSCODE}/config/getLocation`,
  response: location,
  permission: SESSION,
});

export const payInfo = z.object({ id: z.number().int(), code: z.string(), name: z.string(), enabled: z.boolean() });

export const payInfoList = endpoint({
  id: 'payInfo.list',
  title: '支付方式',
  method: 'GET',
  path: `${BUSCODE}/payInfo/list`,
  response: z.array(payInfo),
  permission: SESSION,
});
