import { z } from 'zod';
import { BUSCODE, endpoint, readByBody } from './endpoint';
import { exportTaskEndpoint } from './export-task';
import { fromVersion, id, isoDateTime, optionalText, requiredText, rowVersion, timestamp } from './fields';
import { pageOf, pageQuery } from './paging';
import { grant, grantIn } from './permissions';
import { PAY_STATUS } from './card';
import { statusFlow } from '../frame/status-flow';

/**
 * 套餐购买 (second wave §7, prefix /buscodepc/fyapi): ride packages (N rides for a price, valid some
 * days), their orders with the rides used, refunds through the shared refund ledger, and the daily
 * summary with its 套餐体检. Buying, paying and riding are the rider side's: service functions, not
 * console calls.
 */

export const buttons = {
  PACKAGE_EDIT: '编辑套餐',
  PACKAGE_UPDATE_STATUS: '上架/下架套餐',
  PACKAGE_ORDER_REFUND: '套餐订单退款',
} as const;
const can = grantIn(buttons);

/** Reading is for those who see the menu (decision 81). */
export const PACKAGE_READ = grant({ menus: ['packagePay'] });
export const PACKAGE_EDITOR = can({ buttons: ['PACKAGE_EDIT'] });
export const PACKAGE_STATUS_MOVER = can({ buttons: ['PACKAGE_UPDATE_STATUS'] });
export const PACKAGE_REFUNDER = can({ buttons: ['PACKAGE_ORDER_REFUND'] });

/** The agreement riders accept before buying (bus/agreement, code as 特殊码协议's 'special-code'). */
export const PACKAGE_AGREEMENT = 'package';

/** 0 草稿 → 1 在售 (上架); 1 → 2 已下架 (下架, orders keep working); 2 → 1 (重新上架). */
export const PACKAGE_STATUS = statusFlow({
  name: '套餐状态',
  states: [
    { code: 0, label: '草稿', tone: 'gray' },
    { code: 1, label: '在售', tone: 'green' },
    { code: 2, label: '已下架', tone: 'red' },
  ],
  transitions: { '0': [1], '1': [2], '2': [1] },
});
export type PackageStatus = (typeof PACKAGE_STATUS.codes)[number];

/**
 * 0 待支付 → 1 生效中 (paid) / 5 已关闭 (unpaid too long); 1 → 2 已用完 (the last ride), 3 已过期 (the
 * job), 4 已退款. Only the refund is a person's move; the rest are the rider side's and the jobs'.
 */
export const PACKAGE_ORDER_STATUS = statusFlow({
  name: '订单状态',
  states: [
    { code: 0, label: '待支付', tone: 'gray' },
    { code: 1, label: '生效中', tone: 'green' },
    { code: 2, label: '已用完', tone: 'blue' },
    { code: 3, label: '已过期', tone: 'amber' },
    { code: 4, label: '已退款', tone: 'red' },
    { code: 5, label: '已关闭', tone: 'gray' },
  ],
  transitions: { '0': [1, 5], '1': [2, 3, 4] },
});
export type PackageOrderStatus = (typeof PACKAGE_ORDER_STATUS.codes)[number];

export const PACKAGE_PAY_STATUS = statusFlow({
  name: '支付状态',
  states: [
    { code: 0, label: PAY_STATUS[0], tone: 'gray' },
    { code: 1, label: PAY_STATUS[1], tone: 'green' },
    { code: 2, label: PAY_STATUS[2], tone: 'amber' },
  ],
  transitions: { '0': [1], '1': [2] },
});

export const PACKAGE_NAME_MAX = 20;
export const PACKAGE_DESCRIPTION_MAX = 500;
/** A refund in full: nothing used and at most this many days since payment. */
export const FULL_REFUND_DAYS = 7;
/** An unpaid order is closed after this long (and its stock goes back). */
export const PAY_TIMEOUT_MINUTES = 15;

/** An integer in a range, with one message for both ends (the design's refusals name the range). */
const ranged = (label: string, min: number, max: number, msg: string) =>
  z.preprocess((v) => (typeof v === 'string' && /^-?\d{1,16}$/.test(v) ? Number(v) : v), z.number({ error: `${label}必须是数字` }).int({ error: `${label}必须是整数` }).min(min, { error: msg }).max(max, { error: msg }));
const fen = (label: string) => ranged(label, 1, 10_000_000, `${label}应在0.01–100000元之间`);

const lineCodes = z.array(z.string({ error: '线路编号必须是文本' }).trim().min(1, { error: '线路编号不能为空' }).max(20, { error: '线路编号不能超过20个字符' }), { error: '适用线路应为线路编号的列表' }).max(200, { error: '适用线路最多200条' });

export const packageRow = z.object({
  id: z.number().int(),
  districtId: z.number().int(),
  districtName: z.string().nullable(),
  name: z.string(),
  price: z.number().int(),
  originalPrice: z.number().int(),
  rides: z.number().int(),
  validDays: z.number().int(),
  /** null: every line. */
  lineScope: z.array(z.string()).nullable(),
  dailyLimit: z.number().int(),
  perUserLimit: z.number().int(),
  saleStart: timestamp,
  saleEnd: timestamp,
  /** Left to sell; null: unlimited. */
  stock: z.number().int().nullable(),
  sold: z.number().int(),
  status: PACKAGE_STATUS.schema,
  sort: z.number().int(),
  description: z.string(),
  /** Orders ever made (a package with any cannot be deleted). */
  orders: z.number().int(),
  createdDate: timestamp,
  updatedDate: timestamp,
  rowVersion,
});
export type Package = z.infer<typeof packageRow>;

const P = `${BUSCODE}/package`;

const packageFilters = z.object({
  name: optionalText('套餐名称', PACKAGE_NAME_MAX).optional(),
  status: PACKAGE_STATUS.filter.optional(),
});

export const packagePage = endpoint({
  id: 'package.page',
  title: '套餐列表',
  method: 'GET',
  path: `${P}/page`,
  query: pageQuery(['sort', 'createdDate', 'price'] as const).extend(packageFilters.shape),
  response: pageOf(packageRow),
  permission: PACKAGE_READ,
});

export const packageTotal = endpoint({
  id: 'package.total',
  title: '套餐统计',
  method: 'GET',
  path: `${P}/total`,
  // Counted by status, so the status filter itself is not applied.
  query: packageFilters,
  response: z.object({ total: z.number().int(), draft: z.number().int(), onSale: z.number().int(), offSale: z.number().int(), sold: z.number().int() }),
  permission: PACKAGE_READ,
});

export const packageExport = exportTaskEndpoint({
  id: 'package.export',
  title: '导出套餐',
  path: `${P}/export`,
  query: packageFilters,
  permission: PACKAGE_READ,
});

export const packageById = endpoint({
  id: 'package.queryById',
  title: '套餐详情',
  method: 'GET',
  path: `${P}/queryById`,
  query: z.object({ id: id('套餐ID') }),
  response: packageRow,
  permission: PACKAGE_READ,
});

export const packageSave = endpoint({
  id: 'package.saveOrUpdate',
  title: '保存套餐',
  method: 'POST',
  path: `${P}/saveOrUpdate`,
  body: z
    .object({
      id: id('套餐ID').optional(),
      /** A new package's district when the account works across all (全部区域); otherwise its own. */
      districtId: id('区域').optional(),
      name: requiredText('套餐名称', PACKAGE_NAME_MAX),
      price: fen('售价'),
      originalPrice: fen('原价'),
      rides: ranged('次数', 1, 999, '次数应在1–999之间'),
      validDays: ranged('有效天数', 1, 366, '有效天数应在1–366天之间'),
      /** Empty or null: every line. */
      lineScope: lineCodes.nullable().optional(),
      dailyLimit: ranged('每日限乘次数', 0, 99, '每日限乘次数应在0–99之间（0为不限）').default(0),
      perUserLimit: ranged('每人限购', 0, 99, '每人限购应在0–99之间（0为不限）').default(0),
      saleStart: isoDateTime('销售开始时间'),
      saleEnd: isoDateTime('销售结束时间'),
      /** Left to sell; null: unlimited. */
      stock: ranged('库存', 0, 1_000_000, '库存应在0–1000000之间').nullable().optional(),
      sort: ranged('排序', 0, 9999, '排序应在0–9999之间').default(0),
      description: optionalText('套餐说明', PACKAGE_DESCRIPTION_MAX).default(''),
      rowVersion: fromVersion,
    })
    .refine((b) => b.price <= b.originalPrice, { error: '售价不能高于原价', path: ['price'] })
    .refine((b) => Date.parse(b.saleEnd) > Date.parse(b.saleStart), { error: '销售结束时间必须晚于开始时间', path: ['saleEnd'] }),
  response: packageRow,
  permission: PACKAGE_EDITOR,
});

export const packageUpdateStatus = endpoint({
  id: 'package.updateStatus',
  title: '上架/下架套餐',
  method: 'POST',
  path: `${P}/update/status`,
  body: z.object({ id: id('套餐ID'), fromStatus: PACKAGE_STATUS.schema, toStatus: PACKAGE_STATUS.schema, reason: optionalText('原因', 100).optional(), rowVersion: fromVersion }),
  response: packageRow,
  permission: PACKAGE_STATUS_MOVER,
});

export const packageDelete = endpoint({
  id: 'package.delete',
  title: '删除套餐',
  method: 'DELETE',
  path: `${P}/delete`,
  query: z.object({ id: id('套餐ID') }),
  response: z.object({ id: z.number().int() }),
  permission: PACKAGE_EDITOR,
});

// ---- orders ----

export const packageOrderRow = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  districtId: z.number().int(),
  riderId: z.number().int(),
  /** Masked: 138****5678. */
  riderPhone: z.string().nullable(),
  packageId: z.number().int(),
  packageName: z.string(),
  amount: z.number().int(),
  rides: z.number().int(),
  usedRides: z.number().int(),
  payStatus: PACKAGE_PAY_STATUS.schema,
  status: PACKAGE_ORDER_STATUS.schema,
  createdDate: timestamp,
  paidDate: timestamp.nullable(),
  effectiveDate: timestamp.nullable(),
  expireDate: timestamp.nullable(),
  refundAmount: z.number().int(),
  refundedDate: timestamp.nullable(),
  agreementVersion: z.number().int().nullable(),
});
export type PackageOrder = z.infer<typeof packageOrderRow>;

const O = `${BUSCODE}/packageOrder`;

const orderFilters = z.object({
  orderNo: optionalText('订单号', 40).optional(),
  /** Exact mobile number, matched through the blind index; only in the body form (never a URL). */
  phone: optionalText('手机号', 20).optional(),
  packageId: id('套餐').optional(),
  status: PACKAGE_ORDER_STATUS.filter.optional(),
  startTime: isoDateTime('开始时间').optional(),
  endTime: isoDateTime('结束时间').optional(),
});
/** The export's filters: the list's without the phone (an export by one rider's phone is no use, and a phone never sits in a URL). */
const orderUrlFilters = orderFilters.omit({ phone: true });

export const packageOrderPage = endpoint({
  id: 'packageOrder.page',
  title: '套餐订单列表',
  method: 'GET',
  path: `${O}/page`,
  query: pageQuery(['createdDate', 'amount'] as const).extend(orderFilters.shape),
  response: pageOf(packageOrderRow),
  permission: PACKAGE_READ,
  timeoutMs: 40_000,
});

/** The orders list with its filters (a phone) in a POST body: what the console sends (decision 82). */
export const packageOrderPageByBody = readByBody(packageOrderPage, { id: 'packageOrder.pageByBody', title: '套餐订单列表（条件在请求体）' });

export const packageOrderTotal = endpoint({
  id: 'packageOrder.total',
  title: '套餐订单合计',
  method: 'GET',
  path: `${O}/total`,
  query: orderFilters,
  response: z.object({
    orders: z.number().int(),
    paidAmount: z.number().int(),
    active: z.number().int(),
    refunded: z.number().int(),
    refundAmount: z.number().int(),
    usedRides: z.number().int(),
  }),
  permission: PACKAGE_READ,
  timeoutMs: 40_000,
});

/** The totals with the list's filters (a phone) in a POST body, for the screen's summary line. */
export const packageOrderTotalByBody = readByBody(packageOrderTotal, { id: 'packageOrder.totalByBody', title: '套餐订单合计（条件在请求体）' });

export const packageSnapshotRow = z.object({
  name: z.string(),
  price: z.number().int(),
  originalPrice: z.number().int(),
  rides: z.number().int(),
  validDays: z.number().int(),
  lineScope: z.array(z.string()).nullable(),
  dailyLimit: z.number().int(),
});

export const packageUsageRow = z.object({ id: z.number().int(), rideRecordId: z.number().int().nullable(), rideDate: timestamp, lineCode: z.string(), busNo: z.string(), singleFare: z.number().int() });

export const packageRefundRow = z.object({
  id: z.number().int(),
  amount: z.number().int(),
  reason: z.string(),
  /** 0 退款中, 1 退款成功, 2 退款异常 (the channel's answer). */
  state: z.number().int(),
  failReason: z.string().nullable(),
  createdDate: timestamp,
  settledDate: timestamp.nullable(),
});

export const packageOrderMsg = endpoint({
  id: 'packageOrder.msg',
  title: '套餐订单详情',
  method: 'GET',
  path: `${O}/query/msg`,
  query: z.object({ id: id('订单ID') }),
  response: packageOrderRow.extend({ snapshot: packageSnapshotRow, usages: z.array(packageUsageRow), refunds: z.array(packageRefundRow) }),
  permission: PACKAGE_READ,
});

/** What a refund of the order would pay back now, and why (the dialog shows it before the operator confirms). */
export const refundPreviewRow = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  amount: z.number().int(),
  usedRides: z.number().int(),
  /** Σ the used rides' single fares: what is kept back when the refund is not in full. */
  usedFare: z.number().int(),
  full: z.boolean(),
  /** The most the refund may pay (fen). */
  refundable: z.number().int(),
  /** The rule applied, in words. */
  rule: z.string(),
  /** Why no refund is possible now (已过期, 已用完…); null when it is. */
  refusal: z.string().nullable(),
});

export const packageOrderRefundPreview = endpoint({
  id: 'packageOrder.refundPreview',
  title: '套餐退款预览',
  method: 'GET',
  path: `${O}/refundPreview`,
  query: z.object({ id: id('订单ID') }),
  response: refundPreviewRow,
  permission: PACKAGE_REFUNDER,
});

export const packageOrderRefund = endpoint({
  id: 'packageOrder.refund',
  title: '套餐订单退款',
  method: 'POST',
  path: `${O}/refund`,
  body: z.object({
    id: id('订单ID'),
    /** Fen; at most the preview's refundable, recomputed under the order's lock. */
    amount: ranged('退款金额', 1, 10_000_000, '退款金额应在0.01–100000元之间'),
    reason: z.string({ error: '请填写退款原因' }).trim().min(2, { error: '退款原因至少2个字' }).max(100, { error: '退款原因不能超过100个字' }),
    idempotencyKey: z.string({ error: '缺少幂等键' }).regex(/^[A-Za-z0-9_-]{8,64}$/, { error: '幂等键应为8–64位字母、数字、_ 或 -' }),
  }),
  response: z.object({ order: packageOrderRow, refund: packageRefundRow, replayed: z.boolean() }),
  permission: PACKAGE_REFUNDER,
  // The order shows here and on its rider's card view (卡片详情, module busUser).
  writes: ['packagePay', 'busUser'],
});

export const packageOrderExport = exportTaskEndpoint({
  id: 'packageOrder.export',
  title: '导出套餐订单',
  path: `${O}/export`,
  query: orderUrlFilters,
  permission: PACKAGE_READ,
});

// ---- summary ----

const S = `${BUSCODE}/packageSummary`;

const day = (label: string) => z.string({ error: `${label}必须是日期` }).regex(/^\d{4}-\d{2}-\d{2}$/, { error: `${label}应为 YYYY-MM-DD` });

const summaryFilters = z.object({
  packageId: id('套餐').optional(),
  /** Shanghai days, inclusive; without them the last 30 days. */
  startDate: day('开始日期').optional(),
  endDate: day('结束日期').optional(),
});

export const packageDayRow = z.object({
  day: z.string(),
  packageId: z.number().int(),
  packageName: z.string(),
  sold: z.number().int(),
  amount: z.number().int(),
  refunds: z.number().int(),
  refundAmount: z.number().int(),
  ridesUsed: z.number().int(),
});

export const packageSummaryPage = endpoint({
  id: 'packageSummary.page',
  title: '套餐汇总',
  method: 'GET',
  path: `${S}/page`,
  query: pageQuery(['day'] as const).extend(summaryFilters.shape),
  response: pageOf(packageDayRow),
  permission: PACKAGE_READ,
  timeoutMs: 40_000,
});

export const packageSummaryTotal = endpoint({
  id: 'packageSummary.total',
  title: '套餐汇总合计',
  method: 'GET',
  path: `${S}/total`,
  query: summaryFilters,
  response: z.object({ sold: z.number().int(), amount: z.number().int(), refunds: z.number().int(), refundAmount: z.number().int(), ridesUsed: z.number().int(), net: z.number().int() }),
  permission: PACKAGE_READ,
  timeoutMs: 40_000,
});

/** ★ 套餐体检: per package, whether it gives riders the discount it was meant to. */
export const packageHealthRow = z.object({
  packageId: z.number().int(),
  packageName: z.string(),
  status: PACKAGE_STATUS.schema,
  price: z.number().int(),
  originalPrice: z.number().int(),
  rides: z.number().int(),
  orders: z.number().int(),
  /** Σ what buyers paid, refunds deducted (fen). */
  paid: z.number().int(),
  ridesUsed: z.number().int(),
  /** Σ the single fares of those rides: what the buyers would have paid without the package. */
  wouldPay: z.number().int(),
  /** paid / ridesUsed (fen per ride), null without rides. */
  paidPerRide: z.number().int().nullable(),
  /** What a ride cost them as a share of its single fare, ‰ (800 = 8折); null without rides. */
  realRate: z.number().int().nullable(),
  /** price / originalPrice, ‰: the discount meant. */
  intendedRate: z.number().int(),
  /** price / (rides × the average single fare of its rides), ‰: the discount a rider who uses every ride gets. */
  fullUseRate: z.number().int().nullable(),
  /** Rides bought and never taken on expired orders. */
  breakageRides: z.number().int(),
  /** Finished orders (used up, expired, refunded) whose buyer paid more than singles would have cost, ‰. */
  lostShare: z.number().int().nullable(),
  finished: z.number().int(),
  /** The price undercuts the intended discount: fully used, it gives ≥ 5 points more off than meant. */
  undercut: z.boolean(),
});

export const packageSummaryHealth = endpoint({
  id: 'packageSummary.health',
  title: '套餐体检',
  method: 'GET',
  path: `${S}/health`,
  query: z.object({ packageId: id('套餐').optional() }),
  response: z.object({ rows: z.array(packageHealthRow) }),
  permission: PACKAGE_READ,
  timeoutMs: 40_000,
});

export const packageSummaryExport = exportTaskEndpoint({
  id: 'packageSummary.export',
  title: '导出套餐汇总',
  path: `${S}/export`,
  query: summaryFilters,
  permission: PACKAGE_READ,
});
