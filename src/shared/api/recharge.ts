import { z } from 'zod';
import { CARD_NO, PAY_STATUS } from './card';
import { BUSCODE, endpoint, readByBody } from './endpoint';
import { exportTaskEndpoint } from './export-task';
import { id, isoDateTime, optionalText, timestamp } from './fields';
import { pageOf, pageQuery } from './paging';
import { grant, grantIn } from './permissions';
import { statusFlow } from '../frame/status-flow';

/**
 * NFC充值记录 (second-wave §3, prefix BUSCODE nfcRecharge/): riders' card top-ups. Paying and writing
 * the card are two facts: an order paid and not written is money the rider has lost until it is
 * written or refunded; a write the phone never confirmed (可疑) is settled only against the card
 * centre's record of the load, by a second person before any refund.
 */

export const buttons = {
  RECHARGE_RESOLVE: '补查/核实充值',
  RECHARGE_ORDER_REFUND: '充值订单退款',
} as const;
const can = grantIn(buttons);

/** Reading top-ups is for those who see the menu (decision 81). */
export const RECHARGE_READ = grant({ menus: ['recharge'] });
export const RECHARGE_RESOLVER = can({ buttons: ['RECHARGE_RESOLVE'] });
export const RECHARGE_REFUNDER = can({ buttons: ['RECHARGE_ORDER_REFUND'] });

/**
 * 圈存状态. The rider's phone and the jobs move 0 → 1 → 2|3, 3 → 1 (重试), 1 → 4 (no confirmation in
 * 5 min); people move 4 → 2|3 (核实, RECHARGE_RESOLVE) and 0|3 → 5 (退款, RECHARGE_ORDER_REFUND). A late
 * confirmation takes 4 → 2 as well; nothing leaves 2.
 */
export const WRITE_STATE = statusFlow({
  name: '圈存状态',
  states: [
    { code: 0, label: '待写卡', tone: 'gray' },
    { code: 1, label: '写卡中', tone: 'blue' },
    { code: 2, label: '写卡成功', tone: 'green' },
    { code: 3, label: '写卡失败', tone: 'red' },
    { code: 4, label: '可疑', tone: 'amber' },
    { code: 5, label: '已关闭', tone: 'gray' },
  ],
  transitions: { '0': [1, 5], '1': [2, 3, 4], '3': [1, 5], '4': [2, 3] },
});
export type WriteState = (typeof WRITE_STATE.codes)[number];

export const RECHARGE_PAY_STATUS = statusFlow({
  name: '支付状态',
  states: [
    { code: 0, label: PAY_STATUS[0], tone: 'gray' },
    { code: 1, label: PAY_STATUS[1], tone: 'green' },
    { code: 2, label: PAY_STATUS[2], tone: 'amber' },
  ],
  transitions: { '0': [1], '1': [2] },
});

/** Spec recharge status, derived: 已充值 exactly when the card took the load (writeState 2). */
export const RECHARGE_STATUS = statusFlow({
  name: '充值状态',
  states: [
    { code: 0, label: '未充值', tone: 'gray' },
    { code: 1, label: '已充值', tone: 'green' },
  ],
});

/** The spec's payInfo codes. */
export const PAY_CHANNELS: Record<number, string> = { 1: '微信支付', 2: '支付宝', 3: '云闪付' };

/** Per top-up, fen (S13: 10–999 元); a card holds at most 1,000 元. */
export const RECHARGE_MIN_FEN = 1_000;
export const RECHARGE_MAX_FEN = 99_900;
export const CARD_BALANCE_CAP_FEN = 100_000;
/** A write without the card's confirmation this long is 可疑 (job recharge.suspect). */
export const SUSPECT_AFTER_MS = 5 * 60_000;
/** 核实未到账 waits this long after the write began: a real centre may not have synced before. */
export const RESOLVE_NOT_LOADED_AFTER_MS = 10 * 60_000;
/** A 写卡失败 order may be written again (重试写卡) for this long. */
export const RETRY_WINDOW_MS = 7 * 86_400_000;
export const RECHARGE_SPAN_DAYS = 31;

/** The Chinese refusals of §3, one place for the server and the tests. */
export const REFUSAL = {
  suspect: '该订单充值结果可疑，请先核实卡片交易记录，不能直接退款',
  written: '该订单已写卡成功，金额已到卡，不能退款',
  writing: '订单正在写卡，请稍后再试',
  unpaid: '订单未支付，不能退款',
  refunded: '订单已退款',
  partial: '圈存订单只能全额退款',
  noCentreRecord: '卡中心无此笔交易记录，不能确认为已到账',
  tooEarly: '写卡后未满10分钟，卡中心记录可能未同步，请稍后再核实',
  sameperson: '核实人与退款人不能为同一人',
  /** Ours: the centre shows the load, so it is on the card (a 核实未到账 or a refund would pay twice). */
  centreHasLoad: '卡中心已有此笔圈存记录，金额已到卡，不能核实为未到账或退款',
  closed: '订单已关闭',
} as const;

export const attemptRow = z.object({ at: timestamp, step: z.string(), result: z.union([z.literal(0), z.literal(1)]), detail: z.string().nullable() });

export const centreLoadRow = z.object({
  centreTxnNo: z.string(),
  cardNo: z.string(),
  orderNo: z.string(),
  txnSeq: z.string(),
  tac: z.string(),
  amount: z.number().int(),
  befBal: z.number().int(),
  aftBal: z.number().int(),
  loadedAt: timestamp,
  settleDay: z.string(),
});

export const rechargeRow = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  districtId: z.number().int(),
  districtName: z.string().nullable(),
  /** Masked: 138****5678, or null for an order without a known rider. */
  riderPhone: z.string().nullable(),
  cardNo: z.string(),
  cardInnerNo: z.string(),
  cardCategory: z.number().int(),
  amount: z.number().int(),
  payAmount: z.number().int(),
  payChannel: z.number().int(),
  payStatus: RECHARGE_PAY_STATUS.schema,
  rechargeStatus: RECHARGE_STATUS.schema,
  writeState: WRITE_STATE.schema,
  befBal: z.number().int().nullable(),
  aftBal: z.number().int().nullable(),
  deviceModel: z.string().nullable(),
  txnSeq: z.string().nullable(),
  tac: z.string().nullable(),
  failReason: z.string().nullable(),
  createdDate: timestamp,
  paidDate: timestamp.nullable(),
  writeStartedDate: timestamp.nullable(),
  writtenDate: timestamp.nullable(),
  refundedDate: timestamp.nullable(),
  /** Who marked it (null: the system or nobody): the person who marked 未到账 may not refund it. */
  resolvedById: z.number().int().nullable(),
  resolvedByName: z.string().nullable(),
  resolvedDate: timestamp.nullable(),
  centreTxnNo: z.string().nullable(),
  resolutionNote: z.string().nullable(),
});
export type RechargeOrder = z.infer<typeof rechargeRow>;

export const moneyRefundRow = z.object({
  id: z.number().int(),
  amount: z.number().int(),
  reason: z.string(),
  /** 0 退款中, 1 退款成功, 2 退款异常. */
  state: z.number().int(),
  failReason: z.string().nullable(),
  operatorName: z.string().nullable(),
  createdDate: timestamp,
  settledDate: timestamp.nullable(),
});

const N = `${BUSCODE}/nfcRecharge`;

const spanDays = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;

/** The list's filters, shared by the page, its summary and its export. */
const filterShape = {
  orderNo: optionalText('订单号', 40).optional(),
  cardNo: z.string().trim().regex(/^\d{16}$|^$/, { error: '卡号应为16位数字' }).optional(),
  /** Exact phone: looked up through the blind index, never stored or compared in clear. */
  phone: z.string().trim().regex(/^1\d{10}$|^$/, { error: '手机号应为11位数字' }).optional(),
  payStatus: RECHARGE_PAY_STATUS.filter.optional(),
  rechargeStatus: RECHARGE_STATUS.filter.optional(),
  writeState: WRITE_STATE.filter.optional(),
  startTime: isoDateTime('开始时间').optional(),
  endTime: isoDateTime('结束时间').optional(),
};
const bounded = (q: { startTime?: string | undefined; endTime?: string | undefined }, ctx: z.RefinementCtx) => {
  if (q.startTime && q.endTime) {
    if (Date.parse(q.endTime) < Date.parse(q.startTime)) ctx.addIssue({ code: 'custom', path: ['endTime'], message: '结束时间不能早于开始时间' });
    else if (spanDays(q.startTime, q.endTime) > RECHARGE_SPAN_DAYS) ctx.addIssue({ code: 'custom', path: ['endTime'], message: `时间范围不能超过${RECHARGE_SPAN_DAYS}天` });
  }
};
const rechargeFilters = z.object(filterShape).superRefine(bounded);

export const rechargePage = endpoint({
  id: 'recharge.page',
  title: 'NFC充值记录',
  method: 'GET',
  path: `${N}/page`,
  query: pageQuery(['createdDate', 'amount'] as const).extend(filterShape).superRefine(bounded),
  response: pageOf(rechargeRow),
  permission: RECHARGE_READ,
  timeoutMs: 40_000,
});

const perState = z.object({ count: z.number().int(), amount: z.number().int() });

export const rechargeTotal = endpoint({
  id: 'recharge.total',
  title: 'NFC充值统计',
  method: 'GET',
  path: `${N}/total`,
  // Counted per state, so the state filters themselves are not applied.
  query: rechargeFilters,
  response: z.object({
    total: perState,
    /** Keyed by writeState code. */
    byWriteState: z.record(z.string(), perState),
    paid: perState,
    refunded: perState,
    unpaid: perState,
    /** The 可疑 orders by how long ago the write began. */
    suspectByAge: z.object({ underHour: z.number().int(), underDay: z.number().int(), overDay: z.number().int(), oldest: timestamp.nullable() }),
    /** Open items of 圈存日对账 (whatever the filters). */
    reconcileOpen: z.number().int(),
  }),
  permission: RECHARGE_READ,
  timeoutMs: 40_000,
});

/**
 * The list and its summary with their filters in a POST body: what the console sends, so a phone
 * typed as a filter never sits in a request's URL, where proxies and access logs keep it (decision 82).
 */
export const rechargePageByBody = readByBody(rechargePage, { id: 'recharge.pageByBody', title: 'NFC充值记录（条件在请求体）' });
export const rechargeTotalByBody = readByBody(rechargeTotal, { id: 'recharge.totalByBody', title: 'NFC充值统计（条件在请求体）' });

export const rechargeMsg = endpoint({
  id: 'recharge.msg',
  title: 'NFC充值订单详情',
  method: 'GET',
  path: `${N}/query/msg`,
  query: z.object({ id: id('订单ID') }),
  response: rechargeRow.extend({
    attempts: z.array(attemptRow),
    /** What the card centre recorded of this order's load (null: no load there). */
    centre: centreLoadRow.nullable(),
    refunds: z.array(moneyRefundRow),
    /** Whether 核实未到账 may be asked now (10 minutes after the write began). */
    notLoadedFrom: timestamp.nullable(),
  }),
  permission: RECHARGE_READ,
});

const requeryAnswer = z.object({
  order: rechargeRow,
  centre: centreLoadRow.nullable(),
  /** true when this call settled the order from the centre's record. */
  resolved: z.boolean(),
  message: z.string(),
});

export const rechargeRequery = endpoint({
  id: 'recharge.requery',
  title: '补查充值结果',
  method: 'POST',
  path: `${N}/requery`,
  body: z.object({ id: id('订单ID') }),
  response: requeryAnswer,
  permission: RECHARGE_RESOLVER,
});

export const rechargeResolve = endpoint({
  id: 'recharge.resolve',
  title: '核实可疑订单',
  method: 'POST',
  path: `${N}/resolve`,
  body: z.object({
    id: id('订单ID'),
    fromState: z.literal(4, { error: '只能核实可疑订单' }),
    toState: z.union([z.literal(2), z.literal(3)], { error: '核实结果应为 2（已到账）或 3（未到账）' }),
    centreTxnNo: optionalText('卡中心流水号', 40).optional(),
    note: z.string({ error: '请填写核实说明' }).trim().min(4, { error: '核实说明至少4个字' }).max(200, { error: '核实说明不能超过200个字' }),
  }),
  response: rechargeRow,
  permission: RECHARGE_RESOLVER,
});

export const rechargeRefund = endpoint({
  id: 'recharge.refund',
  title: '充值订单退款',
  method: 'POST',
  path: `${N}/refund`,
  body: z.object({
    id: id('订单ID'),
    /** Optional: when sent, it must be the whole amount (圈存订单只能全额退款). */
    amount: z.number({ error: '退款金额应为整数（分）' }).int({ error: '退款金额应为整数（分）' }).min(1, { error: '退款金额应大于0' }).max(RECHARGE_MAX_FEN, { error: '退款金额过大' }).optional(),
    reason: z.string({ error: '请填写退款原因' }).trim().min(2, { error: '退款原因至少2个字' }).max(100, { error: '退款原因不能超过100个字' }),
    idempotencyKey: z.string({ error: '缺少幂等键' }).regex(/^[A-Za-z0-9_-]{8,64}$/, { error: '幂等键应为8–64位字母、数字、_ 或 -' }),
  }),
  response: z.object({ order: rechargeRow, refund: moneyRefundRow, replayed: z.boolean() }),
  permission: RECHARGE_REFUNDER,
  // The order shows here and on its card's view (卡片详情, module busUser).
  writes: ['recharge', 'busUser'],
});

/** The export's filters: the list's, without the phone (a task's params are stored; a phone never is). */
const { phone: _phone, ...exportShape } = filterShape;

export const rechargeExport = exportTaskEndpoint({
  id: 'recharge.export',
  title: '导出NFC充值记录',
  path: `${N}/export`,
  query: z.object(exportShape).superRefine(bounded),
  permission: RECHARGE_READ,
});

/** 圈存日对账's kinds of disagreement. */
export const RECONCILE_KIND = statusFlow({
  name: '差异类型',
  states: [
    { code: 1, label: '已付未圈', tone: 'red' },
    { code: 2, label: '圈存未付', tone: 'red' },
    { code: 3, label: '金额不符', tone: 'amber' },
  ],
});
export const RECONCILE_STATUS = statusFlow({
  name: '处理状态',
  states: [
    { code: 0, label: '待处理', tone: 'amber' },
    { code: 1, label: '已消除', tone: 'green' },
  ],
});

export const reconcileRow = z.object({
  id: z.number().int(),
  day: z.string(),
  kind: RECONCILE_KIND.schema,
  status: RECONCILE_STATUS.schema,
  orderId: z.number().int().nullable(),
  orderNo: z.string(),
  cardNo: z.string(),
  orderAmount: z.number().int().nullable(),
  centreAmount: z.number().int().nullable(),
  centreTxnNo: z.string().nullable(),
  note: z.string(),
  createdDate: timestamp,
  clearedDate: timestamp.nullable(),
});
export type ReconcileItem = z.infer<typeof reconcileRow>;

const reconcileFilters = z.object({
  kind: RECONCILE_KIND.filter.optional(),
  status: RECONCILE_STATUS.filter.optional(),
  day: z.string().trim().regex(/^\d{4}-\d{2}-\d{2}$|^$/, { error: '日期应为 YYYY-MM-DD' }).optional(),
});
export type ReconcileFilters = z.output<typeof reconcileFilters>;

/** ★ 圈存日对账: the worklist the nightly match leaves (an 8th call beside §3's seven: a list needs its read). */
export const rechargeReconcilePage = endpoint({
  id: 'recharge.reconcilePage',
  title: '圈存日对账',
  method: 'GET',
  path: `${N}/reconcile/page`,
  query: pageQuery(['day'] as const).extend(reconcileFilters.shape),
  response: pageOf(reconcileRow),
  permission: RECHARGE_READ,
});

/** A kind's items: how many, and the orders' and the centre's amounts (fen) they name. */
const reconcileTally = z.object({ count: z.number().int(), open: z.number().int(), orderAmount: z.number().int(), centreAmount: z.number().int() });

export const rechargeReconcileTotal = endpoint({
  id: 'recharge.reconcileTotal',
  title: '圈存日对账合计',
  method: 'GET',
  path: `${N}/reconcile/total`,
  // Counted by kind, so the kind filter itself is not applied.
  query: reconcileFilters,
  response: z.object({
    total: z.number().int(),
    open: z.number().int(),
    /** Keyed by RECONCILE_KIND code. */
    byKind: z.record(z.string(), reconcileTally),
  }),
  permission: RECHARGE_READ,
});

/** The worklist of a day (or all days) as a task of 下载中心: what finance takes to the card centre. */
export const rechargeReconcileExport = exportTaskEndpoint({
  id: 'recharge.reconcileExport',
  title: '导出圈存日对账',
  path: `${N}/reconcile/export`,
  query: reconcileFilters,
  permission: RECHARGE_READ,
});

export const isCardNo = (s: string) => CARD_NO.test(s);

/**
 * Whether `me` may refund the order as it stands: paid, never written (待写卡) or failed (写卡失败),
 * and a failure marked 未到账 by someone else (核实人与退款人不能为同一人, which the server refuses).
 */
export const refundableBy = (o: { payStatus: number; writeState: number; resolvedById: number | null }, me: number | undefined) =>
  o.payStatus === 1 && (o.writeState === 0 || (o.writeState === 3 && (o.resolvedById === null || o.resolvedById !== me)));
