import { z } from 'zod';
import { exportTaskEndpoint } from './export-task';
import { BUSCODE, endpoint, readByBody } from './endpoint';
import { id, optionalText, timestamp } from './fields';
import { pageOf, pageQuery } from './paging';
import { grant, grantIn } from './permissions';
import { isValidCitizenId } from '../domain/citizen-id';

/** Reading this module's records is for the accounts that have its screens (the busUser menu). */
export const BUS_USER_READ = grant({ menus: ['busUser'] });
/** The card list is 线上办卡's screen. */
export const HANDLE_CARD_READ = grant({ menus: ['handleCard'] });

/**
 * The call-centre desk (issue 11): riders (spec `wx-user`), bus cards and the card lookup behind the
 * palette. Personal data leaves the server masked (`138****5678`, `110***********123X`, `张*`)
 * except through the reveal call, which needs RIDER_REVEAL and a typed reason.
 */

/** Spec §3 bus card state codes. */
export const CARD_STATES = {
  0: '未启用',
  1: '已售',
  2: '账户锁定',
  3: '已挂失',
  4: '已退卡',
  5: '已停用（黑名单）',
  6: '已注销',
  7: '退卡登记',
  8: '换卡登记',
  9: '挂失补卡',
  10: '损坏换卡',
  11: '挂失转值',
} as const;
export type CardState = keyof typeof CARD_STATES;

/** Spec §3 card categories, numbered in the spec's order. */
export const CARD_CATEGORIES = { 1: '不记名个性化卡', 2: '记名个性化卡', 3: '不记名卡', 4: '学生卡', 5: '老年卡', 6: '记名卡' } as const;
export type CardCategory = keyof typeof CARD_CATEGORIES;

/** Spec §3 ticket types and payment status. */
export const TICKET_TYPES = { 1: '单次票', 2: '月票', 3: '年票' } as const;
export const PAY_STATUS = { 0: '未支付', 1: '已支付', 2: '已退款' } as const;

/** The labels of those codes, for any number the server sends (an unknown code shows as itself). */
export const cardStateLabel = (n: number): string => CARD_STATES[n as CardState] ?? String(n);
/** Ride records also carry 7, 员工卡: staff cards issued by the operator itself, not the card centre. */
const RIDE_CARD_CATEGORIES: Record<number, string> = { ...CARD_CATEGORIES, 7: '员工卡' };
export const cardCategoryLabel = (n: number): string => RIDE_CARD_CATEGORIES[n] ?? String(n);
export const ticketTypeLabel = (n: number): string => TICKET_TYPES[n as keyof typeof TICKET_TYPES] ?? String(n);
export const payStatusLabel = (n: number): string => PAY_STATUS[n as keyof typeof PAY_STATUS] ?? String(n);

/** A bus card number as printed: 16 digits (the demo city's start with 3101). */
export const CARD_NO = /^\d{16}$/;

/** The rider module's button permissions (spec §6), declared once with their labels. */
export const buttons = { ycOrder: '异常订单处理', RIDER_REVEAL: '查看实名信息', RIDER_ADD: '新增乘客' } as const;
const can = grantIn(buttons);

/** Who reveals real-name information: a button, held by the call-centre and manager groups. */
export const RIDER_REVEAL = can({ buttons: ['RIDER_REVEAL'] });

export const riderRow = z.object({
  id: z.number().int(),
  districtId: z.number().int(),
  districtName: z.string().nullable(),
  /** Masked: 138****5678. */
  phone: z.string(),
  /** Masked: 110***********123X; null before real-name verification. */
  citizenId: z.string().nullable(),
  /** Masked: 张*. */
  name: z.string().nullable(),
  realName: z.union([z.literal(0), z.literal(1)]),
  state: z.union([z.literal(0), z.literal(1)]),
  abnormalReason: z.string().nullable(),
  cards: z.number().int(),
  createdDate: timestamp,
});
export type Rider = z.infer<typeof riderRow>;

export const cardRow = z.object({
  id: z.number().int(),
  cardNo: z.string(),
  districtId: z.number().int(),
  state: z.number().int(),
  category: z.number().int(),
  balance: z.number().int(),
  issuedDate: timestamp,
  holder: z.object({ id: z.number().int(), name: z.string().nullable(), phone: z.string() }).nullable(),
});
export type Card = z.infer<typeof cardRow>;

export const riderPage = endpoint({
  id: 'rider.page',
  title: '乘客用户列表',
  method: 'GET',
  path: `${BUSCODE}/wx-user/page`,
  query: pageQuery(['createdDate'] as const).extend({
    /** Exact phone (with spaces or dashes) or its last four digits. */
    phone: optionalText('手机号', 20).optional(),
    citizenCardNo: optionalText('身份证号', 18).optional(),
    realName: z.enum(['0', '1'], { error: '实名状态应为 0 或 1' }).transform(Number).optional(),
    state: z.enum(['0', '1'], { error: '用户状态应为 0 或 1' }).transform(Number).optional(),
  }),
  response: pageOf(riderRow),
  permission: BUS_USER_READ,
  timeoutMs: 40_000,
});

/** The riders list with its filters (a phone, a citizen id) in a POST body: what the console sends. */
export const riderPageByBody = readByBody(riderPage, { id: 'rider.pageByBody', title: '乘客用户列表（条件在请求体）' });

export const riderSummary = endpoint({
  id: 'rider.summary',
  title: '乘客用户统计',
  method: 'GET',
  path: `${BUSCODE}/wx-user/summary`,
  response: z.object({ total: z.number().int(), realName: z.number().int(), abnormal: z.number().int(), cards: z.number().int() }),
  permission: BUS_USER_READ,
  timeoutMs: 40_000,
});

/** One rider in full, with a reason the log keeps (never the values); answered no-store. */
export const riderReveal = endpoint({
  id: 'rider.reveal',
  title: '查看实名信息',
  method: 'GET',
  path: `${BUSCODE}/wx-user/getShiMingXinXiById`,
  query: z.object({
    id: id('乘客ID'),
    reason: z.string({ error: '请填写查看原因' }).trim().min(4, { error: '查看原因至少4个字' }).max(100, { error: '查看原因不能超过100个字' }),
  }),
  response: z.object({ id: z.number().int(), phone: z.string(), citizenId: z.string().nullable(), name: z.string().nullable() }),
  permission: RIDER_REVEAL,
});

/** The reveal with the reason (free text, which may quote a number) in a POST body: what the console sends. */
export const riderRevealByBody = readByBody(riderReveal, { id: 'rider.revealByBody', title: '查看实名信息' });

/** What the palette's typed number finds: cards by number, riders by phone or citizen id (masked). */
export const cardLookup = endpoint({
  id: 'card.lookup',
  title: '查询卡片与乘客',
  method: 'POST',
  path: `${BUSCODE}/card/lookup`,
  // A POST body: a citizen id or phone never sits in a URL, a log line or the browser history.
  body: z.object({ q: z.string({ error: '请输入卡号、身份证号或手机号' }).trim().min(4, { error: '至少输入4位' }).max(40, { error: '不能超过40个字符' }) }),
  response: z.object({ cards: z.array(cardRow), riders: z.array(riderRow) }),
  permission: BUS_USER_READ,
  readsOnly: true,
});

export const cardBinding = z.object({
  id: z.number().int(),
  relation: z.string(),
  /** 1 bound, 0 unbound. */
  status: z.number().int(),
  boundDate: timestamp,
  expiresDate: timestamp,
  unboundDate: timestamp.nullable(),
  /** The citizen who bound the card (masked). */
  holder: z.object({ id: z.number().int(), name: z.string().nullable(), phone: z.string(), citizenId: z.string().nullable() }),
  renewals: z.number().int(),
});

export const cardOrder = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  productName: z.string(),
  ticketType: z.number().int(),
  amount: z.number().int(),
  payStatus: z.number().int(),
  createdDate: timestamp,
  paidDate: timestamp.nullable(),
  refundedDate: timestamp.nullable(),
});

/** A ride as the card view lists it. */
export const cardRide = z.object({
  id: z.number().int(),
  rideDate: timestamp,
  lineName: z.string(),
  busName: z.string(),
  stationName: z.string().nullable(),
  ticketType: z.number().int(),
  amount: z.number().int(),
  payStatus: z.number().int(),
});

/**
 * `data` of card/view's 403 for a card of another district: which district it belongs to and
 * nothing else of it (a district's name is not personal data; the card's state, holder and orders
 * stay unsaid). The agent is told where the card is instead of a bare refusal.
 */
export const foreignCard = z.object({ districtId: z.number().int().nullable(), districtName: z.string().nullable() });
export type ForeignCard = z.infer<typeof foreignCard>;
export const foreignCardMsg = (districtName: string | null) =>
  districtName ? `该卡属于 ${districtName}，当前账号无权查看` : '该卡不属于当前区域，当前账号无权查看';

/**
 * The card's money as the desk shows it (issue 22). Each part is its module's, and null when the
 * account may not read that module (no 储值管理 menu → no wallet data at all), so one answer still
 * carries only what the account may see. The shapes are declared here, not imported from the money
 * contracts: those import this file (PAY_STATUS, CARD_NO), and a cycle of module-level schemas breaks.
 */
export const cardWalletOrder = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  payAmount: z.number().int(),
  giftAmount: z.number().int(),
  paidDate: timestamp.nullable(),
});
export const cardWallet = z.object({
  /** The holder's wallet (储值 belongs to the rider, so every card of theirs shows it); null: none. */
  account: z.object({ walletId: z.number().int(), principal: z.number().int(), gift: z.number().int(), status: z.number().int() }).nullable(),
  /** The holder's top-up orders a refund may still take (已到账), newest first. */
  refundable: z.array(cardWalletOrder),
});
export const cardPackage = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  packageName: z.string(),
  amount: z.number().int(),
  rides: z.number().int(),
  remainingRides: z.number().int(),
  status: z.number().int(),
  expireDate: timestamp.nullable(),
});
export const cardTopUp = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  amount: z.number().int(),
  payStatus: z.number().int(),
  writeState: z.number().int(),
  createdDate: timestamp,
});
export type CardWallet = z.infer<typeof cardWallet>;
export type CardPackage = z.infer<typeof cardPackage>;
export type CardTopUp = z.infer<typeof cardTopUp>;

/** Everything the desk shows about one card, in one answer (masked like every list). */
export const cardView = endpoint({
  id: 'card.view',
  title: '卡片详情',
  method: 'POST',
  path: `${BUSCODE}/card/view`,
  body: z.object({ cardNo: z.string({ error: '请输入卡号' }).trim().regex(CARD_NO, { error: '卡号应为16位数字' }) }),
  response: z.object({
    card: cardRow,
    districtName: z.string().nullable(),
    holder: riderRow.nullable(),
    bindings: z.array(cardBinding),
    orders: z.array(cardOrder),
    /** The card's latest rides (issue 12), newest first. */
    rides: z.array(cardRide),
    /** 储值: the holder's wallet; null without the 储值管理 menu. */
    wallet: cardWallet.nullable(),
    /** 套餐: the holder's packages (live ones and those of the last 90 days); null without 套餐购买. */
    packages: z.array(cardPackage).nullable(),
    /** NFC充值: the card's latest top-ups with their write state; null without NFC充值. */
    topUps: z.array(cardTopUp).nullable(),
  }),
  permission: BUS_USER_READ,
  readsOnly: true,
});

/** A new rider entered by staff (a caller without the mini-program): phone, and a verified identity when given. */
export const riderAdd = endpoint({
  id: 'rider.add',
  title: '新增乘客',
  method: 'POST',
  path: `${BUSCODE}/wx-user/addUser`,
  body: z
    .object({
      phone: z
        .string({ error: '手机号不能为空' })
        .transform((v) => v.replace(/[\s-]/g, ''))
        .pipe(z.string().regex(/^1[3-9]\d{9}$/, { error: '手机号应为11位，以1开头' })),
      citizenCardNo: z
        .string()
        .trim()
        .transform((v) => v.toUpperCase())
        .refine((v) => isValidCitizenId(v), { error: '身份证号不正确（位数、出生日期或校验位）' })
        .optional(),
      name: z.string().trim().min(1, { error: '姓名不能为空' }).max(20, { error: '姓名不能超过20个字' }).optional(),
    })
    .refine((b) => !b.citizenCardNo === !b.name, { error: '实名信息需同时填写姓名和身份证号', path: ['name'] }),
  response: riderRow,
  permission: can({ buttons: ['RIDER_ADD'] }),
});

/** The riders as a spreadsheet (masked, formula text escaped, audited): a task of the download centre. */
export const riderExport = exportTaskEndpoint({
  id: 'rider.export',
  title: '导出乘客用户',
  path: `${BUSCODE}/xls/async/user/export`,
  query: z.object({
    realName: z.enum(['0', '1'], { error: '实名状态应为 0 或 1' }).transform(Number).optional(),
    state: z.enum(['0', '1'], { error: '用户状态应为 0 或 1' }).transform(Number).optional(),
  }),
  permission: BUS_USER_READ,
});

/**
 * 卡片列表 (handleCard card-list): the area's cards by number prefix, state and category. Card numbers
 * are not personal data (the holder is masked), so a prefix may sit in the query.
 */
export const cardPage = endpoint({
  id: 'card.page',
  title: '卡片列表',
  method: 'GET',
  path: `${BUSCODE}/busCard/page`,
  query: pageQuery(['issuedDate', 'balance'] as const).extend({
    cardNo: z.string().trim().regex(/^\d{0,16}$/, { error: '卡号只能是数字，最多16位' }).optional(),
    state: z.enum(Object.keys(CARD_STATES) as [string, ...string[]], { error: '卡状态应为 0–11' }).transform(Number).optional(),
    category: z.enum(Object.keys(CARD_CATEGORIES) as [string, ...string[]], { error: '卡类别应为 1–6' }).transform(Number).optional(),
  }),
  response: pageOf(cardRow),
  permission: HANDLE_CARD_READ,
  timeoutMs: 40_000,
});

/** The area's cards counted by state (the card list's summary line). */
export const cardStateCounts = endpoint({
  id: 'card.stateCounts',
  title: '卡片状态统计',
  method: 'GET',
  path: `${BUSCODE}/busCard/summary`,
  response: z.object({ total: z.number().int(), byState: z.array(z.object({ state: z.number().int(), count: z.number().int() })) }),
  permission: HANDLE_CARD_READ,
  timeoutMs: 40_000,
});

/**
 * 异常处理 on 异常用户: the spec's `ycOrder` key (README decision 79). The agent has checked the
 * abnormal rider with the caller and clears the flag with a note; the note and the old reason stay in
 * the system log.
 */
export const riderResolve = endpoint({
  id: 'rider.resolveAbnormal',
  title: '处理异常用户',
  method: 'POST',
  path: `${BUSCODE}/wx-user/resolveAbnormal`,
  body: z.object({
    id: id('乘客ID'),
    note: z.string({ error: '请填写处理说明' }).trim().min(4, { error: '处理说明至少4个字' }).max(100, { error: '处理说明不能超过100个字' }),
  }),
  response: riderRow,
  permission: can({ buttons: ['ycOrder'] }),
});
