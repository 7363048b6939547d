import { z } from 'zod';
import { statusFlow } from '../frame/status-flow';
import { type LadderRow } from '../custom/refund-ladder';
import { BUSCODE, endpoint, type Endpoint } from './endpoint';
import { id, isoDateTime, optionalText, rowVersion, timestamp, wholeNumber } from './fields';
import { grant, grantIn } from './permissions';

/** 定制公交设置 (second wave §6, prefix /buscodepc/fyapi customSetting/): base settings, refund ladder versions. */

export const buttons = {
  CUSTOM_SETTING_UPDATE: '修改定制公交设置',
} as const;
const can = grantIn(buttons);

/** Reading is for those who see the menu (decision 81). */
export const CUSTOM_SETTING_READ = grant({ menus: ['customSetting'] });
export const CUSTOM_SETTING_EDITOR = can({ buttons: ['CUSTOM_SETTING_UPDATE'] });
/** ★ 跨区同步 is the super user's: the endpoint's permission and what the console offers it to (the service checks again). */
export const CUSTOM_SETTING_SYNC = grant({ roles: ['ROLE_APP_ADMIN'] });

/**
 * 0 草稿 → 1 待生效 (published for a later time) / 2 生效中 (published now); 1 → 2 is the job's
 * (refundRule.activate), which also moves the old 2 → 3 已失效; 1 → 0 撤回.
 */
export const REFUND_RULE_STATUS = statusFlow({
  name: '规则状态',
  states: [
    { code: 0, label: '草稿', tone: 'gray' },
    { code: 1, label: '待生效', tone: 'amber' },
    { code: 2, label: '生效中', tone: 'green' },
    { code: 3, label: '已失效', tone: 'red' },
  ],
  transitions: { '0': [1, 2], '1': [0, 2], '2': [3] },
});
export type RefundRuleStatus = (typeof REFUND_RULE_STATUS.codes)[number];

/** An integer in a range, with the design's one message for both ends. */
const ranged = (label: string, min: number, max: number, msg: string) =>
  z.preprocess((v) => (typeof v === 'string' && /^-?\d{1,16}$/.test(v) ? Number(v) : v), z.number({ error: `${label}必须是数字` }).int({ error: `${label}必须是整数` }).min(min, { error: msg }).max(max, { error: msg }));

export const BOARDING_NOTICE_MAX = 500;
export const LADDER_ROWS_MAX = 20;
export const RULE_REMARK_MAX = 100;
/** A ladder bound: a week is far beyond any class's sale window. */
export const LADDER_MINUTES_MAX = 100_000;

// ---------------------------------------------------------------- base settings

/** The fields of 基础设置, in the form's order, with their labels (the ★ sync names them). */
export const BASE_FIELDS = {
  saleDaysAhead: '提前售票天数',
  saleOpenTime: '每日开售时间',
  payTimeoutMin: '支付超时时间',
  maxSeatsPerUserPerClass: '每人每班次限购',
  stopSaleMinBefore: '发车前停售（分钟）',
  checkOpenMinBefore: '发车前开始验票（分钟）',
  monthTicketEnabled: '开通月票',
  monthSaleUntilDay: '月票截止销售日',
  boardingNotice: '购票须知',
  servicePhone: '客服电话',
} as const;
export type BaseField = keyof typeof BASE_FIELDS;
export const BASE_FIELD_KEYS = Object.keys(BASE_FIELDS) as BaseField[];

const baseValues = {
  saleDaysAhead: ranged('提前售票天数', 1, 62, '提前售票天数应在1–62天之间'),
  /** Seconds after midnight, Shanghai (spec §5's time-of-day convention). */
  saleOpenTime: ranged('每日开售时间', 0, 86_399, '每日开售时间应在00:00–23:59之间'),
  payTimeoutMin: ranged('支付超时时间', 1, 30, '支付超时时间应在1–30分钟之间'),
  maxSeatsPerUserPerClass: ranged('每人每班次限购', 1, 10, '每人每班次限购应在1–10张之间'),
  stopSaleMinBefore: ranged('发车前停售时间', 0, 1440, '发车前停售时间应在0–1440分钟之间'),
  checkOpenMinBefore: ranged('发车前开始验票时间', 0, 1440, '发车前开始验票时间应在0–1440分钟之间'),
  monthTicketEnabled: z.boolean({ error: '开通月票应为是或否' }),
  monthSaleUntilDay: ranged('月票截止销售日', 1, 28, '月票截止销售日应在每月1–28日之间'),
  boardingNotice: optionalText('购票须知', BOARDING_NOTICE_MAX),
  servicePhone: optionalText('客服电话', 20).regex(/^[\d-]*$/, { error: '客服电话只能包含数字和短横线' }),
};

export const baseRow = z.object({
  districtId: z.number().int(),
  districtName: z.string().nullable(),
  saleDaysAhead: z.number().int(),
  saleOpenTime: z.number().int(),
  payTimeoutMin: z.number().int(),
  maxSeatsPerUserPerClass: z.number().int(),
  stopSaleMinBefore: z.number().int(),
  checkOpenMinBefore: z.number().int(),
  monthTicketEnabled: z.boolean(),
  monthSaleUntilDay: z.number().int(),
  boardingNotice: z.string(),
  servicePhone: z.string(),
  /** null: never saved, the defaults apply. */
  updatedDate: timestamp.nullable(),
  updatedBy: z.string().nullable(),
  /** 0 while never saved; a save sends the version it was made from. */
  rowVersion,
});
export type CustomBaseRow = z.infer<typeof baseRow>;

/** The district a call is about: a scoped account's own; the super user on 全部区域 names one. */
const districtChoice = { districtId: id('区域').optional() };

const S = `${BUSCODE}/customSetting`;

export const baseQuery = endpoint({
  id: 'customSetting.base.query',
  title: '定制公交基础设置',
  method: 'GET',
  path: `${S}/base/query`,
  query: z.object(districtChoice),
  response: baseRow,
  permission: CUSTOM_SETTING_READ,
});

export const baseSave = endpoint({
  id: 'customSetting.base.saveOrUpdate',
  title: '保存定制公交基础设置',
  method: 'POST',
  path: `${S}/base/saveOrUpdate`,
  body: z.object({
    ...districtChoice,
    ...baseValues,
    rowVersion: wholeNumber('记录版本', 0, 2_147_483_647),
  }),
  response: baseRow,
  permission: CUSTOM_SETTING_EDITOR,
});

export const baseChange = z.object({
  field: z.enum(BASE_FIELD_KEYS as [BaseField, ...BaseField[]]),
  label: z.string(),
  old: z.union([z.number(), z.string(), z.boolean()]),
  new: z.union([z.number(), z.string(), z.boolean()]),
});
export type BaseChange = z.infer<typeof baseChange>;

/** ★ 跨区同步: the source district's values of `fields` onto each target district. */
export const baseApplyTo = endpoint({
  id: 'customSetting.base.applyTo',
  title: '同步定制公交设置到区域',
  method: 'POST',
  path: `${S}/base/applyTo`,
  body: z.object({
    ...districtChoice,
    fields: z
      .array(z.enum(BASE_FIELD_KEYS as [BaseField, ...BaseField[]], { error: '同步的字段无效' }), { error: '请选择要同步的字段' })
      .min(1, { error: '请选择要同步的字段' })
      .max(BASE_FIELD_KEYS.length, { error: '同步的字段过多' }),
    districtIds: z.array(id('区域'), { error: '请选择目标区域' }).min(1, { error: '请选择目标区域' }).max(100, { error: '目标区域最多100个' }),
    dryRun: z.boolean({ error: '试算应为是或否' }),
  }),
  response: z.object({
    sourceDistrictId: z.number().int(),
    applied: z.boolean(),
    districts: z.array(z.object({ districtId: z.number().int(), districtName: z.string(), changes: z.array(baseChange) })),
  }),
  permission: CUSTOM_SETTING_SYNC,
});

// ---------------------------------------------------------------- refund ladder

const ladderRowInput = z.object(
  {
    fromMin: ranged('起始分钟', 0, LADDER_MINUTES_MAX, `起始分钟应在0–${LADDER_MINUTES_MAX}之间`),
    toMin: z.union([ranged('截止分钟', 1, LADDER_MINUTES_MAX, `截止分钟应在1–${LADDER_MINUTES_MAX}之间`), z.null()]),
    refundable: z.union([z.literal(0), z.literal(1)], { error: '是否可退应为0或1' }),
    feeRate: ranged('手续费比例', 0, 1000, '手续费比例应在0–100%之间'),
    minFee: ranged('最低手续费', 0, 10_000_000, '最低手续费应在0–100000元之间'),
  },
  { error: '退款阶梯的行无效' },
);

export const ladderRow = z.object({
  fromMin: z.number().int(),
  toMin: z.number().int().nullable(),
  refundable: z.union([z.literal(0), z.literal(1)]),
  feeRate: z.number().int(),
  minFee: z.number().int(),
}) satisfies z.ZodType<LadderRow>;

export const refundRuleRow = z.object({
  id: z.number().int(),
  districtId: z.number().int(),
  districtName: z.string().nullable(),
  rows: z.array(ladderRow),
  status: REFUND_RULE_STATUS.schema,
  effectiveAt: timestamp.nullable(),
  remark: z.string(),
  createdBy: z.string().nullable(),
  publishedBy: z.string().nullable(),
  createdDate: timestamp,
  updatedDate: timestamp,
  rowVersion,
});
export type RefundRule = z.infer<typeof refundRuleRow>;

export const refundRuleList = endpoint({
  id: 'customSetting.refundRule.list',
  title: '退款规则版本',
  method: 'GET',
  path: `${S}/refundRule/list`,
  query: z.object(districtChoice),
  response: z.object({
    content: z.array(refundRuleRow),
    /** The summary line: how many in each status. */
    total: z.object({ draft: z.number().int(), pending: z.number().int(), inForce: z.number().int(), expired: z.number().int() }),
  }),
  permission: CUSTOM_SETTING_READ,
});

export const refundRuleSave = endpoint({
  id: 'customSetting.refundRule.saveOrUpdate',
  title: '保存退款规则草稿',
  method: 'POST',
  path: `${S}/refundRule/saveOrUpdate`,
  body: z.object({
    id: id('规则ID').optional(),
    ...districtChoice,
    rows: z.array(ladderRowInput, { error: '退款阶梯应为行的列表' }).min(1, { error: '退款阶梯至少需要一行' }).max(LADDER_ROWS_MAX, { error: `退款阶梯最多${LADDER_ROWS_MAX}行` }),
    remark: optionalText('备注', RULE_REMARK_MAX).default(''),
    rowVersion: wholeNumber('记录版本', 1, 2_147_483_647).optional(),
  }),
  response: refundRuleRow,
  permission: CUSTOM_SETTING_EDITOR,
});

export const refundRulePublish = endpoint({
  id: 'customSetting.refundRule.publish',
  title: '发布退款规则',
  method: 'POST',
  path: `${S}/refundRule/publish`,
  body: z.object({
    id: id('规则ID'),
    /** Absent: in force now (the old one 已失效 in the same transaction); later: 待生效 until the job. */
    effectiveAt: isoDateTime('生效时间').optional(),
    rowVersion: wholeNumber('记录版本', 1, 2_147_483_647).optional(),
  }),
  response: refundRuleRow,
  permission: CUSTOM_SETTING_EDITOR,
});

export const refundRuleWithdraw = endpoint({
  id: 'customSetting.refundRule.withdraw',
  title: '撤回退款规则',
  method: 'POST',
  path: `${S}/refundRule/withdraw`,
  body: z.object({ id: id('规则ID'), rowVersion: wholeNumber('记录版本', 1, 2_147_483_647).optional() }),
  response: refundRuleRow,
  permission: CUSTOM_SETTING_EDITOR,
});

/** 退款试算: what a refund of `amount` fen `minutesBefore` departure gives back under a ladder. */
export const refundRulePreview = endpoint({
  id: 'customSetting.refundRule.preview',
  title: '退款试算',
  method: 'GET',
  path: `${S}/refundRule/preview`,
  query: z.object({
    ...districtChoice,
    /** Absent: the district's ladder in force (the default ladder when it has none). */
    ruleId: id('规则ID').optional(),
    amount: ranged('金额', 0, 10_000_000, '金额应在0–100000元之间'),
    minutesBefore: ranged('距发车分钟', -LADDER_MINUTES_MAX, LADDER_MINUTES_MAX, `距发车分钟应在±${LADDER_MINUTES_MAX}之间`),
  }),
  response: z.object({
    ruleId: z.number().int().nullable(),
    amount: z.number().int(),
    minutesBefore: z.number().int(),
    row: ladderRow.nullable(),
    refundable: z.boolean(),
    fee: z.number().int(),
    refund: z.number().int(),
  }),
  permission: CUSTOM_SETTING_READ,
});

/** Every endpoint of this module, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [baseQuery, baseSave, baseApplyTo, refundRuleList, refundRuleSave, refundRulePublish, refundRuleWithdraw, refundRulePreview];
