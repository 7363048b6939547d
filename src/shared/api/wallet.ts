import { z } from 'zod';
import { BUSCODE, endpoint, readByBody } from './endpoint';
import { exportTaskEndpoint } from './export-task';
import { fromVersion, id, isoDateTime, optionalText, requiredText, rowVersion, timestamp, wholeNumber } from './fields';
import { pageOf, pageQuery } from './paging';
import { grant, grantIn } from './permissions';
import { onOffFlow, statusFlow } from '../frame/status-flow';

/**
 * 储值管理 (second wave §9, prefix /buscodepc/fyapi): recharge plans riders buy, their orders, the
 * riders' wallets (principal and gift apart) with an append-only ledger, maker/checker adjustments,
 * the module's setting and the daily reconciliation (每日轧账). Money is fen throughout.
 */

export const buttons = {
  RECHARGE_PLAN_EDIT: '编辑储值档位与设置',
  RECHARGEABLE_REFUND: '储值退款',
  WALLET_FREEZE: '冻结/解冻/注销钱包',
  WALLET_ADJUST: '发起人工调账',
  WALLET_ADJUST_CHECK: '复核人工调账',
} as const;
const can = grantIn(buttons);

/** Reading the module's records is for those who see its menu (decision 81). */
export const WALLET_READ = grant({ menus: ['rechargeable'] });
export const PLAN_EDITOR = can({ buttons: ['RECHARGE_PLAN_EDIT'] });
export const REFUNDER = can({ buttons: ['RECHARGEABLE_REFUND'] });
export const FREEZER = can({ buttons: ['WALLET_FREEZE'] });
export const ADJUST_MAKER = can({ buttons: ['WALLET_ADJUST'] });
export const ADJUST_CHECKER = can({ buttons: ['WALLET_ADJUST_CHECK'] });

export const PLAN_STATUS = onOffFlow('档位状态', { code: 1, label: '启用' }, { code: 0, label: '停用' });

/**
 * 0 待支付 → 1 已到账 (pay notice) or 3 已关闭 (timeout job); 1 → 2 已退款 (RECHARGEABLE_REFUND). A pay
 * notice arriving after the timeout closed the order still credits it (3 → 1): the rider's money
 * arrived, and refusing it would leave it with the operator and no order to refund.
 */
export const ORDER_STATUS = statusFlow({
  name: '订单状态',
  states: [
    { code: 0, label: '待支付', tone: 'gray' },
    { code: 1, label: '已到账', tone: 'green' },
    { code: 2, label: '已退款', tone: 'amber' },
    { code: 3, label: '已关闭', tone: 'red' },
  ],
  transitions: { '0': [1, 3], '1': [2], '3': [1] },
});
export type OrderStatus = (typeof ORDER_STATUS.codes)[number];

/** The spec's pay status (§3): 0 未支付, 1 已支付, 2 已退款. */
export const ORDER_PAY_STATUS = statusFlow({
  name: '支付状态',
  states: [
    { code: 0, label: '未支付', tone: 'gray' },
    { code: 1, label: '已支付', tone: 'green' },
    { code: 2, label: '已退款', tone: 'amber' },
  ],
});

/** 1 正常 ⇄ 2 冻结 (with a reason); 1/2 → 0 已注销 only at balance 0, final. */
export const WALLET_STATUS = statusFlow({
  name: '钱包状态',
  states: [
    { code: 1, label: '正常', tone: 'green' },
    { code: 2, label: '冻结', tone: 'amber' },
    { code: 0, label: '已注销', tone: 'red' },
  ],
  transitions: { '1': [2, 0], '2': [1, 0] },
});
export type WalletStatus = (typeof WALLET_STATUS.codes)[number];

/** 0 待复核 → 1 已生效 / 2 已驳回 (a second person, WALLET_ADJUST_CHECK); 0 → 3 已撤回 (the maker). */
export const ADJUST_STATUS = statusFlow({
  name: '调账状态',
  states: [
    { code: 0, label: '待复核', tone: 'amber' },
    { code: 1, label: '已生效', tone: 'green' },
    { code: 2, label: '已驳回', tone: 'red' },
    { code: 3, label: '已撤回', tone: 'gray' },
  ],
  transitions: { '0': [1, 2, 3] },
});
export type AdjustStatus = (typeof ADJUST_STATUS.codes)[number];

export const ADJUST_BUCKET = statusFlow({
  name: '调整账户',
  states: [
    { code: 1, label: '本金', tone: 'blue' },
    { code: 2, label: '赠送', tone: 'green' },
  ],
});

/** The ledger's row types; the ledger is append-only (a trigger refuses UPDATE and DELETE). */
export const LEDGER_TYPE = statusFlow({
  name: '流水类型',
  states: [
    { code: 1, label: '充值', tone: 'green' },
    { code: 2, label: '赠送', tone: 'green' },
    { code: 3, label: '消费', tone: 'blue' },
    { code: 4, label: '退款', tone: 'amber' },
    { code: 5, label: '人工调整', tone: 'amber' },
    { code: 6, label: '赠送回收', tone: 'red' },
  ],
});

export const CONSUME_ORDER = statusFlow({
  name: '消费顺序',
  states: [
    { code: 1, label: '先本金', tone: 'blue' },
    { code: 2, label: '先赠送', tone: 'green' },
  ],
});

/** Bounds of the schemas (the server's refusals say them in yuan). */
export const REASON_MIN = 10;
export const REASON_MAX = 200;
export const PLAN_NAME_MAX = 20;
/** Money fields refuse more than 1,000,000 yuan: no stored-value amount comes near it. */
const MAX_FEN = 100_000_000;

const fen = (label: string, min = 0) => wholeNumber(`${label}（分）`, min, MAX_FEN);
const idempotencyKey = z.string({ error: '缺少幂等键' }).regex(/^[A-Za-z0-9_-]{8,64}$/, { error: '幂等键应为8–64位字母、数字、_ 或 -' });
const reasonOf = (label: string, min: number) =>
  z
    .string({ error: `请填写${label}` })
    .trim()
    .min(min, { error: `${label}至少${min}个字` })
    .max(REASON_MAX, { error: `${label}不能超过${REASON_MAX}个字` });

// ---------------------------------------------------------------- plans

export const planRow = z.object({
  id: z.number().int(),
  /** null: city-wide, the super user's alone. */
  districtId: z.number().int().nullable(),
  districtName: z.string().nullable(),
  name: z.string(),
  amount: z.number().int(),
  giftAmount: z.number().int(),
  sort: z.number().int(),
  status: PLAN_STATUS.schema,
  saleStart: timestamp.nullable(),
  saleEnd: timestamp.nullable(),
  orders: z.number().int(),
  updatedDate: timestamp,
  rowVersion,
  manageable: z.boolean(),
});
export type RechargePlan = z.infer<typeof planRow>;

const P = `${BUSCODE}/rechargePlan`;

const planFilters = z.object({
  name: optionalText('档位名称', PLAN_NAME_MAX).optional(),
  status: PLAN_STATUS.filter.optional(),
});
export type PlanFilters = z.output<typeof planFilters>;

export const planPage = endpoint({
  id: 'rechargePlan.page',
  title: '储值档位列表',
  method: 'GET',
  path: `${P}/page`,
  query: pageQuery(['sort', 'amount', 'updatedDate'] as const).extend(planFilters.shape),
  response: pageOf(planRow),
  permission: WALLET_READ,
});

export const planTotal = endpoint({
  id: 'rechargePlan.total',
  title: '储值档位统计',
  method: 'GET',
  path: `${P}/total`,
  // Counted by status, so the status filter itself is not applied.
  query: planFilters,
  response: z.object({ plans: z.number().int(), enabled: z.number().int(), disabled: z.number().int(), orders: z.number().int() }),
  permission: WALLET_READ,
});

export const planExport = exportTaskEndpoint({
  id: 'rechargePlan.export',
  title: '导出储值档位',
  path: `${P}/export`,
  query: planFilters,
  permission: WALLET_READ,
});

export const planById = endpoint({
  id: 'rechargePlan.queryById',
  title: '储值档位详情',
  method: 'GET',
  path: `${P}/queryById`,
  query: z.object({ id: id('档位ID') }),
  response: planRow,
  permission: WALLET_READ,
});

export const planSave = endpoint({
  id: 'rechargePlan.saveOrUpdate',
  title: '保存储值档位',
  method: 'POST',
  path: `${P}/saveOrUpdate`,
  body: z.object({
    id: id('档位ID').optional(),
    /** A new plan's area: omitted, the operator's district (city-wide only for the super user with none chosen). */
    name: requiredText('档位名称', PLAN_NAME_MAX),
    amount: fen('充值金额', 1),
    giftAmount: fen('赠送金额'),
    sort: wholeNumber('排序', 0, 9999).default(0),
    saleStart: isoDateTime('开售时间').nullable().optional(),
    saleEnd: isoDateTime('停售时间').nullable().optional(),
    rowVersion: fromVersion,
  }),
  response: planRow,
  permission: PLAN_EDITOR,
});

export const planStatus = endpoint({
  id: 'rechargePlan.updateStatus',
  title: '启用/停用储值档位',
  method: 'POST',
  path: `${P}/update/status`,
  body: z.object({ id: id('档位ID'), fromStatus: PLAN_STATUS.schema, toStatus: PLAN_STATUS.schema, rowVersion: fromVersion }),
  response: planRow,
  permission: PLAN_EDITOR,
});

/** Only a plan nobody ordered: one with orders is kept (停用 instead), its orders name it. */
export const planDelete = endpoint({
  id: 'rechargePlan.delete',
  title: '删除储值档位',
  method: 'DELETE',
  path: `${P}/delete`,
  query: z.object({ id: id('档位ID') }),
  response: z.object({ id: z.number().int() }),
  permission: PLAN_EDITOR,
});

// ---------------------------------------------------------------- orders

export const walletOrderRow = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  districtId: z.number().int(),
  riderId: z.number().int(),
  /** Masked: 138****5678. */
  riderPhone: z.string(),
  walletId: z.number().int(),
  planId: z.number().int().nullable(),
  planName: z.string(),
  payAmount: z.number().int(),
  giftAmount: z.number().int(),
  payStatus: ORDER_PAY_STATUS.schema,
  status: ORDER_STATUS.schema,
  /** The wallet's principal right after this order was credited. */
  principalAfter: z.number().int().nullable(),
  refundAmount: z.number().int(),
  giftClawback: z.number().int(),
  createdDate: timestamp,
  paidDate: timestamp.nullable(),
  refundedDate: timestamp.nullable(),
  closedDate: timestamp.nullable(),
});
export type WalletOrder = z.infer<typeof walletOrderRow>;

const O = `${BUSCODE}/walletOrder`;

const orderFilters = z.object({
  orderNo: optionalText('订单号', 40).optional(),
  walletId: id('钱包ID').optional(),
  status: ORDER_STATUS.filter.optional(),
  startTime: isoDateTime('开始时间').optional(),
  endTime: isoDateTime('结束时间').optional(),
});
export type WalletOrderFilters = z.output<typeof orderFilters>;

export const orderPage = endpoint({
  id: 'walletOrder.page',
  title: '储值订单列表',
  method: 'GET',
  path: `${O}/page`,
  query: pageQuery(['createdDate', 'payAmount'] as const).extend(orderFilters.shape),
  response: pageOf(walletOrderRow),
  permission: WALLET_READ,
  timeoutMs: 40_000,
});

export const orderTotal = endpoint({
  id: 'walletOrder.total',
  title: '储值订单合计',
  method: 'GET',
  path: `${O}/total`,
  // Counted by status, so the status filter itself is not applied.
  query: orderFilters,
  response: z.object({
    orders: z.number().int(),
    paid: z.number().int(),
    paidAmount: z.number().int(),
    giftAmount: z.number().int(),
    refunded: z.number().int(),
    refundAmount: z.number().int(),
    unpaid: z.number().int(),
    closed: z.number().int(),
  }),
  permission: WALLET_READ,
  timeoutMs: 40_000,
});

export const refundRow = z.object({
  id: z.number().int(),
  amount: z.number().int(),
  reason: z.string(),
  /** 0 退款中, 1 退款成功, 2 退款异常 (the channel's answer, after the commit). */
  state: z.number().int(),
  createdDate: timestamp,
});

export const orderMsg = endpoint({
  id: 'walletOrder.msg',
  title: '储值订单详情',
  method: 'GET',
  path: `${O}/query/msg`,
  query: z.object({ id: id('订单ID') }),
  response: walletOrderRow.extend({
    refund: refundRow.nullable(),
    /** What a refund would pay back now: min(paid − refunded, principal), and the gift it takes back. */
    refundable: z.number().int(),
    clawback: z.number().int(),
    walletStatus: WALLET_STATUS.schema,
  }),
  permission: WALLET_READ,
});

export const orderRefund = endpoint({
  id: 'walletOrder.refund',
  title: '储值退款',
  method: 'POST',
  path: `${O}/refund`,
  body: z.object({
    id: id('订单ID'),
    /** Omitted: all that is refundable (min(paid − refunded, principal)). */
    amount: fen('退款金额', 1).optional(),
    reason: z.string({ error: '请填写退款原因' }).trim().min(2, { error: '退款原因至少2个字' }).max(100, { error: '退款原因不能超过100个字' }),
    idempotencyKey,
  }),
  response: z.object({ order: walletOrderRow, refund: refundRow, replayed: z.boolean() }),
  permission: REFUNDER,
  writes: ['rechargeable', 'busUser'],
});

export const orderExport = exportTaskEndpoint({
  id: 'walletOrder.export',
  title: '导出储值订单',
  path: `${O}/export`,
  query: orderFilters,
  permission: WALLET_READ,
});

// ---------------------------------------------------------------- wallets

export const walletRow = z.object({
  id: z.number().int(),
  districtId: z.number().int(),
  districtName: z.string().nullable(),
  riderId: z.number().int(),
  /** Masked: 138****5678. */
  riderPhone: z.string(),
  principal: z.number().int(),
  gift: z.number().int(),
  status: WALLET_STATUS.schema,
  statusReason: z.string().nullable(),
  createdDate: timestamp,
  updatedDate: timestamp,
  version: z.number().int(),
});
export type Wallet = z.infer<typeof walletRow>;

const W = `${BUSCODE}/wallet`;

const walletFilters = z.object({
  /** The rider's phone, exact (through the blind index): a private filter, sent in a POST body by the console. */
  phone: optionalText('手机号', 20).optional(),
  /** A bus card of the rider, exact. */
  cardNo: optionalText('卡号', 20).optional(),
  status: WALLET_STATUS.filter.optional(),
});

export const walletPage = endpoint({
  id: 'wallet.page',
  title: '用户钱包列表',
  method: 'GET',
  path: `${W}/page`,
  query: pageQuery(['updatedDate', 'principal', 'gift'] as const).extend(walletFilters.shape),
  response: pageOf(walletRow),
  permission: WALLET_READ,
  timeoutMs: 40_000,
});

/** The wallet list with its filters (a phone, a card number) in a POST body: what the console sends. */
export const walletPageByBody = readByBody(walletPage, { id: 'wallet.pageByBody', title: '用户钱包列表（条件在请求体）' });

export const walletTotal = endpoint({
  id: 'wallet.total',
  title: '用户钱包合计',
  method: 'GET',
  path: `${W}/total`,
  // Counted by status, so the status filter itself is not applied; the sums are of every wallet the other filters keep.
  query: walletFilters,
  response: z.object({
    wallets: z.number().int(),
    principal: z.number().int(),
    gift: z.number().int(),
    normal: z.number().int(),
    frozen: z.number().int(),
    /** The balance held in frozen wallets (principal + gift). */
    frozenBalance: z.number().int(),
    closed: z.number().int(),
  }),
  permission: WALLET_READ,
  timeoutMs: 40_000,
});

/** The wallets' totals with the list's filters (a phone, a card number) in a POST body, for the screen's summary line. */
export const walletTotalByBody = readByBody(walletTotal, { id: 'wallet.totalByBody', title: '用户钱包合计（条件在请求体）' });

/**
 * The export's filters: the list's without the phone and the card number (an export of one rider's
 * wallet is no use, a task's params are stored, and neither ever sits in a URL).
 */
export const walletExport = exportTaskEndpoint({
  id: 'wallet.export',
  title: '导出用户钱包',
  path: `${W}/export`,
  query: walletFilters.omit({ phone: true, cardNo: true }),
  permission: WALLET_READ,
});

export const walletMsg = endpoint({
  id: 'wallet.msg',
  title: '钱包详情',
  method: 'GET',
  path: `${W}/query/msg`,
  query: z.object({ id: id('钱包ID') }),
  response: walletRow.extend({
    /** Paid − refunded − consumed (+ adjusted): what the principal should be by the orders. */
    paid: z.number().int(),
    refunded: z.number().int(),
    consumed: z.number().int(),
    pendingAdjustments: z.number().int(),
  }),
  permission: WALLET_READ,
});

export const ledgerRow = z.object({
  id: z.number().int(),
  walletId: z.number().int(),
  type: LEDGER_TYPE.schema,
  principalDelta: z.number().int(),
  giftDelta: z.number().int(),
  principalAfter: z.number().int(),
  giftAfter: z.number().int(),
  refKind: z.string(),
  refId: z.string(),
  createdDate: timestamp,
  byName: z.string().nullable(),
});
export type LedgerRow = z.infer<typeof ledgerRow>;

const ledgerFilters = z.object({ walletId: id('钱包ID'), type: LEDGER_TYPE.filter.optional() });
export type LedgerFilters = z.output<typeof ledgerFilters>;

export const ledgerPage = endpoint({
  id: 'wallet.ledgerPage',
  title: '钱包流水',
  method: 'GET',
  path: `${W}/ledger/page`,
  query: pageQuery(['createdDate'] as const).extend(ledgerFilters.shape),
  response: pageOf(ledgerRow),
  permission: WALLET_READ,
});

/** One wallet's ledger (by its id, never its rider's phone), oldest first: the statement a finance person reconciles. */
export const ledgerExport = exportTaskEndpoint({
  id: 'wallet.ledgerExport',
  title: '导出钱包流水',
  path: `${W}/ledger/export`,
  query: ledgerFilters,
  permission: WALLET_READ,
});

export const walletStatus = endpoint({
  id: 'wallet.updateStatus',
  title: '冻结/解冻/注销钱包',
  method: 'POST',
  path: `${W}/update/status`,
  body: z.object({ id: id('钱包ID'), fromStatus: WALLET_STATUS.schema, toStatus: WALLET_STATUS.schema, reason: reasonOf('原因', 2) }),
  response: walletRow,
  permission: FREEZER,
  writes: ['rechargeable', 'busUser'],
});

export const adjustmentRow = z.object({
  id: z.number().int(),
  walletId: z.number().int(),
  districtId: z.number().int(),
  riderPhone: z.string(),
  bucket: ADJUST_BUCKET.schema,
  delta: z.number().int(),
  reason: z.string(),
  status: ADJUST_STATUS.schema,
  makerId: z.number().int(),
  makerName: z.string().nullable(),
  checkerId: z.number().int().nullable(),
  checkerName: z.string().nullable(),
  checkReason: z.string().nullable(),
  createdDate: timestamp,
  checkedDate: timestamp.nullable(),
  /** Above the setting's single maximum: only the super user may approve it. */
  needsSuper: z.boolean(),
});
export type Adjustment = z.infer<typeof adjustmentRow>;

export const adjust = endpoint({
  id: 'wallet.adjust',
  title: '发起人工调账',
  method: 'POST',
  path: `${W}/adjust`,
  body: z.object({
    walletId: id('钱包ID'),
    bucket: ADJUST_BUCKET.schema,
    delta: wholeNumber('调整金额（分）', -MAX_FEN, MAX_FEN).refine((v) => v !== 0, { error: '调整金额不能为0' }),
    reason: reasonOf('调账原因', REASON_MIN),
    idempotencyKey,
  }),
  response: z.object({ adjustment: adjustmentRow, replayed: z.boolean() }),
  permission: ADJUST_MAKER,
});

const adjustFilters = z.object({ walletId: id('钱包ID').optional(), status: ADJUST_STATUS.filter.optional() });
export type AdjustFilters = z.output<typeof adjustFilters>;

export const adjustPage = endpoint({
  id: 'wallet.adjustPage',
  title: '人工调账列表',
  method: 'GET',
  path: `${W}/adjust/page`,
  query: pageQuery(['createdDate'] as const).extend(adjustFilters.shape),
  response: pageOf(adjustmentRow),
  permission: WALLET_READ,
});

/** A status's adjustments: how many, and their net amount (fen, signed) on principal and on gift. */
const adjustTally = z.object({ count: z.number().int(), principal: z.number().int(), gift: z.number().int() });

export const adjustTotal = endpoint({
  id: 'wallet.adjustTotal',
  title: '人工调账合计',
  method: 'GET',
  path: `${W}/adjust/total`,
  // Counted by status, so the status filter itself is not applied.
  query: adjustFilters,
  response: z.object({
    total: z.number().int(),
    /** Keyed by ADJUST_STATUS code. */
    byStatus: z.record(z.string(), adjustTally),
    /** 待复核 above the single maximum: only the super user may approve them. */
    pendingNeedsSuper: z.number().int(),
  }),
  permission: WALLET_READ,
});

export const adjustExport = exportTaskEndpoint({
  id: 'wallet.adjustExport',
  title: '导出人工调账',
  path: `${W}/adjust/export`,
  query: adjustFilters,
  permission: WALLET_READ,
});

export const adjustCheck = endpoint({
  id: 'wallet.adjustCheck',
  title: '复核人工调账',
  method: 'POST',
  path: `${W}/adjust/check`,
  body: z.object({
    id: id('调账ID'),
    fromStatus: z.literal(0, { error: '只能处理待复核的调账' }),
    toStatus: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: '目标状态应为 1（通过）、2（驳回）或 3（撤回）' }),
    /** The amount retyped by the checker (fen): required to approve, and it must match, so nobody approves a number they did not read. */
    confirmDelta: wholeNumber('确认金额（分）', -MAX_FEN, MAX_FEN).optional(),
    reason: optionalText('复核意见', REASON_MAX).optional(),
  }),
  response: adjustmentRow,
  // Each move is checked against its own button by the server: 通过/驳回 WALLET_ADJUST_CHECK, 撤回 WALLET_ADJUST.
  permission: can({ buttons: ['WALLET_ADJUST_CHECK', 'WALLET_ADJUST'] }),
  writes: ['rechargeable', 'busUser'],
});

export const reconcileBreak = z.object({
  walletId: z.number().int(),
  riderPhone: z.string(),
  principal: z.number().int(),
  gift: z.number().int(),
  ledgerPrincipal: z.number().int(),
  ledgerGift: z.number().int(),
  /** Paid − refunded − consumed + adjusted, from the orders: what the principal should be. */
  ordersPrincipal: z.number().int(),
  /** Gift granted by its credited orders − clawed back + what rides and adjustments moved: what the gift should be. */
  ordersGift: z.number().int(),
  /** What the refund ledger (money_refunds) recorded for its credited orders … */
  refundsRecorded: z.number().int(),
  /** … and what its refund rows (ledger type 4) took out of the wallet: the two must agree. */
  ledgerRefunded: z.number().int(),
  /** The proofs it fails: ledger (Σ流水 = 余额), orders (本金按订单), gift (赠送按订单), refunds (退款记录 = 退款流水). */
  failed: z.array(z.enum(['ledger', 'orders', 'gift', 'refunds'])),
  /** The first ledger row whose running sum disagrees with its own after-values (null: the sums alone differ). */
  firstBadLedgerId: z.number().int().nullable(),
  firstBadAt: timestamp.nullable(),
});

export const reconcile = endpoint({
  id: 'wallet.reconcile',
  title: '每日轧账',
  method: 'GET',
  path: `${W}/reconcile`,
  query: z.object({ days: wholeNumber('天数', 1, 180).default(30) }),
  response: z.object({
    checkedDate: timestamp,
    wallets: z.number().int(),
    principal: z.number().int(),
    gift: z.number().int(),
    /** How many wallets are broken in all; `broken` lists the first 200 of them. */
    brokenCount: z.number().int(),
    broken: z.array(reconcileBreak),
    /** The stored-value liability at the end of each Shanghai day, principal and gift apart. */
    liability: z.array(z.object({ day: z.string(), principal: z.number().int(), gift: z.number().int() })),
    /** The nightly job's last run: the city's figures, or the caller's district's share of them (null when the run did not keep it). */
    lastRun: z.object({ day: z.string(), wallets: z.number().int(), broken: z.number().int(), ranDate: timestamp, ms: z.number().int() }).nullable(),
  }),
  permission: WALLET_READ,
  timeoutMs: 60_000,
});

// ---------------------------------------------------------------- setting

export const settingRow = z.object({
  minFen: z.number().int(),
  maxFen: z.number().int(),
  balanceCapFen: z.number().int(),
  dailyTimes: z.number().int(),
  dailyFen: z.number().int(),
  consumeOrder: CONSUME_ORDER.schema,
  giftRefundable: z.boolean(),
  adjustSingleMaxFen: z.number().int(),
  unpaidTimeoutMinutes: z.number().int(),
  updatedDate: timestamp.nullable(),
  rowVersion,
});
export type RechargeSetting = z.infer<typeof settingRow>;

const S = `${BUSCODE}/rechargeSetting`;

export const settingQuery = endpoint({
  id: 'rechargeSetting.query',
  title: '储值设置',
  method: 'GET',
  path: `${S}/query`,
  response: settingRow,
  permission: WALLET_READ,
});

export const settingSave = endpoint({
  id: 'rechargeSetting.saveOrUpdate',
  title: '保存储值设置',
  method: 'POST',
  path: `${S}/saveOrUpdate`,
  body: z.object({
    minFen: fen('单笔最低充值', 1),
    maxFen: fen('单笔最高充值', 1),
    balanceCapFen: fen('余额上限', 1),
    dailyTimes: wholeNumber('每日充值次数', 1, 100),
    dailyFen: fen('每日充值金额', 1),
    consumeOrder: CONSUME_ORDER.schema,
    giftRefundable: z.boolean({ error: '赠送是否可退应为是或否' }),
    adjustSingleMaxFen: fen('单笔调账上限', 1),
    unpaidTimeoutMinutes: wholeNumber('未支付关闭时间（分钟）', 5, 1440),
    rowVersion: fromVersion,
  }),
  response: settingRow,
  permission: PLAN_EDITOR,
});

export const DEFAULT_SETTING = {
  minFen: 1_000,
  maxFen: 99_900,
  balanceCapFen: 100_000,
  dailyTimes: 5,
  dailyFen: 200_000,
  consumeOrder: 1 as const,
  giftRefundable: false,
  adjustSingleMaxFen: 50_000,
  unpaidTimeoutMinutes: 30,
};
