import { z } from 'zod';
import { BUSCODE, type Endpoint, endpoint } from './endpoint';
import { exportTaskEndpoint } from './export-task';
import { fromVersion, id, isoDateTime, optionalText, requiredText, rowVersion, timestamp } from './fields';
import { pageOf, pageQuery } from './paging';
import { grant, grantIn } from './permissions';
import { statusFlow } from '../frame/status-flow';
import { fenToYuan } from '../domain/money';

/**
 * 活动管理 (second wave §8, prefix /buscodepc/fyapi): fare activities (activity/), the limits on
 * them (discountLimit/) and their operate record (operateRecord/, a view over the system log).
 * Settling a ride against the activities is the rider side's: a service function, not a console call.
 */

/** The module's button permissions (second wave §0), declared once with their labels. */
export const buttons = {
  ACTIVITY_EDIT: '编辑活动',
  ACTIVITY_UPDATE_STATUS: '暂停/恢复/结束活动',
  ACTIVITY_BUDGET: '活动预算',
} as const;
const can = grantIn(buttons);

/** Reading is for those who see the menu (decision 81). */
export const ACTIVITY_READ = grant({ menus: ['acitivity'] });
export const ACTIVITY_EDITOR = can({ buttons: ['ACTIVITY_EDIT'] });
export const ACTIVITY_STATUS_MOVER = can({ buttons: ['ACTIVITY_UPDATE_STATUS'] });
export const ACTIVITY_BUDGETER = can({ buttons: ['ACTIVITY_BUDGET'] });
/** saveOrUpdate admits either key; the service checks which fields move (decision 8's rule). */
export const ACTIVITY_SAVER = can({ buttons: ['ACTIVITY_EDIT', 'ACTIVITY_BUDGET'] });

/**
 * The derived status (second wave §8): stored are `enabled`, `endedAt`, the window and the budget.
 * 3 已结束 wins over everything, then 2 已暂停 (enabled off), 4 预算耗尽, 0 未开始, else 1 进行中.
 * Transitions: 暂停 0/1/4 → 2, 恢复 2 → 0/1, 结束 0/1/2/4 → 3 (terminal), 追加预算 4 → 1.
 */
export const ACTIVITY_STATUS = statusFlow({
  name: '活动状态',
  states: [
    { code: 0, label: '未开始', tone: 'blue' },
    { code: 1, label: '进行中', tone: 'green' },
    { code: 2, label: '已暂停', tone: 'amber' },
    { code: 3, label: '已结束', tone: 'gray' },
    { code: 4, label: '预算耗尽', tone: 'red' },
  ],
  transitions: { '0': [2, 3], '1': [2, 3], '2': [0, 1, 3], '4': [1, 2, 3] },
});
export type ActivityStatus = (typeof ACTIVITY_STATUS.codes)[number];

export const ACTIVITY_TYPES = { 1: '折扣乘车', 2: '月累计阶梯', 3: '换乘优惠', 4: '次日返还' } as const;
export type ActivityType = 1 | 2 | 3 | 4;
export const activityTypeLabel = (t: number) => ACTIVITY_TYPES[t as ActivityType] ?? String(t);

/** A rule in words: 8折, 满50元9折/满100元7折, 90分钟内换乘最高减2元（每日2次）, 次日返还50%. */
export function ruleText(type: number, rule: ActivityRule): string {
  const zhe = (rate: number) => `${(rate / 100).toFixed(2).replace(/\.?0+$/, '')}折`;
  if (type === 1 && rule.rate !== undefined) return zhe(rule.rate);
  if (type === 2) return (rule.tiers ?? []).map((x) => `月累计满${fenToYuan(x.fromFen)}元${zhe(x.rate)}`).join('，');
  if (type === 3) return `${rule.windowMin ?? '?'}分钟内换乘最高减${fenToYuan(rule.maxFen ?? 0)}元${rule.perDay ? `（每日${rule.perDay}次）` : ''}`;
  if (type === 4) return `次日返还${((rule.rebateRate ?? 0) / 10).toFixed(1).replace(/\.0$/, '')}%`;
  return '';
}

/** The actions of update/status, in the operator's words. */
export const ACTIVITY_ACTIONS = ['暂停', '恢复', '结束'] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** How riders pay for a ride (the ride records' pay_channel). */
export const ACTIVITY_PAY_CHANNELS = ['乘车码', '交通卡', '银联闪付', '数字人民币'] as const;

export const ACTIVITY_NAME_MAX = 30;
export const ACTIVITY_REASON_MAX = 100;
/** A rate in ‰ of the fare paid: 10 = 0.1折, 990 = 9.9折 (the design's bounds). */
export const RATE_MIN = 10;
export const RATE_MAX = 990;
export const RATE_REFUSAL = '折扣应在0.1折到9.9折之间';
export const TIERS_REFUSAL = '阶梯金额须递增且折扣须逐级加大';
export const WINDOW_REFUSAL = '换乘时间窗应在1–180分钟之间';
export const REBATE_REFUSAL = '返还比例应在1%到100%之间';
export const BUDGET_PERMISSION_REFUSAL = '修改预算需要「活动预算」权限';
export const ENDED_RESTART_REFUSAL = '活动已结束，不能重新启用，请复制为新活动';
export const RUNNING_RULE_REFUSAL = '进行中的活动不能修改优惠规则，请先暂停';
export const PAST_START_REFUSAL = '开始时间不能早于当前时间';
export const END_BEFORE_START_REFUSAL = '结束时间必须晚于开始时间';
export const budgetBelowUsedRefusal = (usedYuan: string) => `预算不能低于已使用金额（${usedYuan}元）`;
export const overlapRefusal = (name: string) => `与活动「${name}」时间和范围重叠，且均不可叠加`;

/** An integer from JSON or a plain decimal string, one message for both ends of its range. */
const ranged = (label: string, min: number, max: number, msg: string) =>
  z.preprocess((v) => (typeof v === 'string' && /^-?\d{1,16}$/.test(v) ? Number(v) : v), z.number({ error: `${label}必须是数字` }).int({ error: `${label}必须是整数` }).min(min, { error: msg }).max(max, { error: msg }));
const rate = (label: string) => ranged(label, RATE_MIN, RATE_MAX, RATE_REFUSAL);

/**
 * The rule of each type, one object with the fields its type reads (the others absent):
 * 1 折扣乘车 {rate} · 2 月累计阶梯 {tiers: [{fromFen, rate}]} (the month's spend so far picks the tier)
 * · 3 换乘优惠 {windowMin, maxFen, perDay} (a ride within windowMin of the card's last ride on
 * another line, at most maxFen off, perDay times a day; 0 = no daily cap) · 4 次日返还 {rebateRate}
 * (that share of the fare credited the next day).
 */
export const activityRule = z.object(
  {
    rate: rate('折扣').optional(),
    tiers: z
      .array(z.object({ fromFen: ranged('阶梯金额', 0, 100_000_000, '阶梯金额应在0–1000000元之间'), rate: rate('阶梯折扣') }, { error: '阶梯应为 {起始金额, 折扣}' }), { error: '阶梯应为列表' })
      .min(1, { error: '请至少设置一个阶梯' })
      .max(10, { error: '阶梯最多10级' })
      .optional(),
    windowMin: ranged('换乘时间窗', 1, 180, WINDOW_REFUSAL).optional(),
    maxFen: ranged('最高优惠', 1, 100_000, '最高优惠应在0.01–1000元之间').optional(),
    perDay: ranged('每日次数', 0, 20, '每日次数应在0–20之间（0为不限）').optional(),
    rebateRate: ranged('返还比例', 10, 1000, REBATE_REFUSAL).optional(),
  },
  { error: '优惠规则应为对象' },
);
export type ActivityRule = z.infer<typeof activityRule>;

/** Empty lists mean every line / card category / pay channel. */
export const activityScope = z.object(
  {
    lineCodes: z
      .array(z.string({ error: '线路编号必须是文本' }).trim().min(1, { error: '线路编号不能为空' }).max(20, { error: '线路编号不能超过20个字符' }), { error: '适用线路应为线路编号的列表' })
      .max(200, { error: '适用线路最多200条' })
      .default([]),
    cardCategories: z.array(ranged('卡类别', 1, 7, '卡类别应为 1–7'), { error: '适用卡类应为列表' }).max(7, { error: '适用卡类最多7种' }).default([]),
    payChannels: z.array(z.enum(ACTIVITY_PAY_CHANNELS, { error: `支付方式应为 ${ACTIVITY_PAY_CHANNELS.join('、')}` }), { error: '支付方式应为列表' }).max(4, { error: '支付方式最多4种' }).default([]),
  },
  { error: '适用范围应为对象' },
);
export type ActivityScope = z.infer<typeof activityScope>;

const TYPE_ERROR = '活动类型应为 1 折扣乘车、2 月累计阶梯、3 换乘优惠 或 4 次日返还';
const activityType = z.preprocess((v) => (typeof v === 'string' && /^\d$/.test(v) ? Number(v) : v), z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)], { error: TYPE_ERROR }));

/** Each type's rule has what it needs; tiers rise in amount and deepen in discount. */
function checkRule(b: { type: ActivityType; rule: ActivityRule }, ctx: z.RefinementCtx) {
  const r = b.rule;
  const need = (field: keyof ActivityRule, msg: string) => r[field] === undefined && ctx.addIssue({ code: 'custom', message: msg, path: ['rule', field] });
  if (b.type === 1) need('rate', '请填写折扣');
  if (b.type === 2) {
    need('tiers', '请设置阶梯');
    const tiers = r.tiers ?? [];
    for (let i = 1; i < tiers.length; i++)
      if (tiers[i]!.fromFen <= tiers[i - 1]!.fromFen || tiers[i]!.rate >= tiers[i - 1]!.rate) {
        ctx.addIssue({ code: 'custom', message: TIERS_REFUSAL, path: ['rule', 'tiers'] });
        break;
      }
  }
  if (b.type === 3) {
    need('windowMin', '请填写换乘时间窗');
    need('maxFen', '请填写最高优惠');
  }
  if (b.type === 4) need('rebateRate', '请填写返还比例');
}

const draftShape = {
  name: requiredText('活动名称', ACTIVITY_NAME_MAX),
  type: activityType,
  rule: activityRule,
  scope: activityScope.default({ lineCodes: [], cardCategories: [], payChannels: [] }),
  startAt: isoDateTime('开始时间'),
  endAt: isoDateTime('结束时间'),
  budgetFen: ranged('预算', 1, 1_000_000_000, '预算应在0.01–10000000元之间'),
  priority: ranged('优先级', 0, 999, '优先级应在0–999之间').default(0),
  stackable: z.boolean({ error: '可叠加应为 true 或 false' }).default(false),
};
const endAfterStart = (b: { startAt: string; endAt: string }) => Date.parse(b.endAt) > Date.parse(b.startAt);

export const activityRow = z.object({
  id: z.number().int(),
  /** null: city-wide (written by the super user only). */
  districtId: z.number().int().nullable(),
  districtName: z.string().nullable(),
  name: z.string(),
  type: z.number().int(),
  rule: activityRule,
  scope: z.object({ lineCodes: z.array(z.string()), cardCategories: z.array(z.number().int()), payChannels: z.array(z.string()) }),
  startAt: timestamp,
  endAt: timestamp,
  enabled: z.boolean(),
  /** Never enabled (a copy, a draft): 恢复 reads 启用 for it. */
  neverEnabled: z.boolean(),
  endedAt: timestamp.nullable(),
  budgetFen: z.number().int(),
  usedFen: z.number().int(),
  priority: z.number().int(),
  stackable: z.boolean(),
  status: ACTIVITY_STATUS.schema,
  /** Rides the activity discounted. */
  rides: z.number().int(),
  createdDate: timestamp,
  updatedDate: timestamp,
  rowVersion,
});
export type Activity = z.infer<typeof activityRow>;

const A = `${BUSCODE}/activity`;

const activityFilters = z.object({
  name: optionalText('活动名称', ACTIVITY_NAME_MAX).optional(),
  status: ACTIVITY_STATUS.filter.optional(),
  type: z.enum(['1', '2', '3', '4'], { error: TYPE_ERROR }).transform(Number).optional(),
});

export const activityPage = endpoint({
  id: 'activity.page',
  title: '活动列表',
  method: 'GET',
  path: `${A}/page`,
  query: pageQuery(['startAt', 'priority', 'usedFen', 'createdDate'] as const).extend(activityFilters.shape),
  response: pageOf(activityRow),
  permission: ACTIVITY_READ,
});

export const activityById = endpoint({
  id: 'activity.queryById',
  title: '活动详情',
  method: 'GET',
  path: `${A}/queryById`,
  query: z.object({ id: id('活动ID') }),
  response: activityRow,
  permission: ACTIVITY_READ,
});

export const activitySave = endpoint({
  id: 'activity.saveOrUpdate',
  title: '保存活动',
  method: 'POST',
  path: `${A}/saveOrUpdate`,
  body: z
    .object({
      id: id('活动ID').optional(),
      /** A new activity's district when the account works across all (全部区域); otherwise its own. Null with no id: city-wide (super user). */
      districtId: id('区域').nullable().optional(),
      ...draftShape,
      /** A new activity starts enabled unless this says otherwise (a draft to look at first); ignored on edits (暂停/恢复 move it). */
      enabled: z.boolean({ error: '启用应为 true 或 false' }).default(true),
      rowVersion: fromVersion,
    })
    .superRefine(checkRule)
    .refine(endAfterStart, { error: END_BEFORE_START_REFUSAL, path: ['endAt'] }),
  response: activityRow,
  permission: ACTIVITY_SAVER,
});

export const activityUpdateStatus = endpoint({
  id: 'activity.updateStatus',
  title: '暂停/恢复/结束活动',
  method: 'POST',
  path: `${A}/update/status`,
  body: z.object({
    id: id('活动ID'),
    action: z.enum(ACTIVITY_ACTIONS, { error: '操作应为 暂停、恢复 或 结束' }),
    reason: optionalText('原因', ACTIVITY_REASON_MAX).optional(),
    rowVersion: fromVersion,
  }),
  response: activityRow,
  permission: ACTIVITY_STATUS_MOVER,
});

export const activityCopy = endpoint({
  id: 'activity.copy',
  title: '复制活动',
  method: 'POST',
  path: `${A}/copy`,
  body: z.object({ id: id('活动ID') }),
  response: activityRow,
  permission: ACTIVITY_EDITOR,
});

export const activityTotal = endpoint({
  id: 'activity.total',
  title: '活动统计',
  method: 'GET',
  path: `${A}/total`,
  // Counted by status, so the status filter itself is not applied.
  query: activityFilters,
  response: z.object({
    total: z.number().int(),
    notStarted: z.number().int(),
    running: z.number().int(),
    paused: z.number().int(),
    ended: z.number().int(),
    exhausted: z.number().int(),
    budgetFen: z.number().int(),
    usedFen: z.number().int(),
  }),
  permission: ACTIVITY_READ,
});

export const activityExport = exportTaskEndpoint({
  id: 'activity.export',
  title: '导出活动',
  path: `${A}/export`,
  query: activityFilters,
  permission: ACTIVITY_READ,
});

export const simulateDayRow = z.object({ day: z.string(), riders: z.number().int(), rides: z.number().int(), costFen: z.number().int(), cumulativeFen: z.number().int() });

/** A running activity the draft meets on the same rides, and who takes them. */
export const simulateOverlapRow = z.object({
  activityId: z.number().int(),
  name: z.string(),
  priority: z.number().int(),
  stackable: z.boolean(),
  /** Rides both would discount. */
  rides: z.number().int(),
  /** …of which the draft takes (higher priority, or the bigger discount at equal priority). */
  draftWins: z.number().int(),
  /** …the running activity keeps. */
  otherWins: z.number().int(),
  /** …both apply (both stackable). */
  stacked: z.number().int(),
});

export const activitySimulate = endpoint({
  id: 'activity.simulate',
  title: '活动预演',
  method: 'POST',
  path: `${A}/simulate`,
  body: z
    .object({
      /** The activity the draft edits (left out of its own overlaps), or a saved one run as it is. */
      id: id('活动ID').optional(),
      districtId: id('区域').nullable().optional(),
      ...draftShape,
    })
    .superRefine(checkRule)
    .refine(endAfterStart, { error: END_BEFORE_START_REFUSAL, path: ['endAt'] }),
  response: z.object({
    /** The 30 whole Shanghai days run over, oldest first. */
    from: z.string(),
    to: z.string(),
    days: z.array(simulateDayRow),
    riders: z.number().int(),
    rides: z.number().int(),
    costFen: z.number().int(),
    budgetFen: z.number().int(),
    /** The day of the run on which the cumulative cost reached the budget (1–30), null: it lasts. */
    exhaustedOnDay: z.number().int().nullable(),
    /** That many days after the activity starts (or today, when it has started): when the budget would run out. */
    exhaustDate: z.string().nullable(),
    /** At the run's average a day, the days the budget lasts (null without cost). */
    budgetDays: z.number().int().nullable(),
    overlaps: z.array(simulateOverlapRow),
  }),
  permission: ACTIVITY_READ,
  readsOnly: true,
  timeoutMs: 40_000,
});

export const EFFECT_DAYS_MAX = 90;
const effectQuery = z.object({ id: id('活动ID'), days: ranged('天数', 1, EFFECT_DAYS_MAX, `天数应在1–${EFFECT_DAYS_MAX}之间`).default(30) });

export const effectDayRow = z.object({ day: z.string(), riders: z.number().int(), rides: z.number().int(), discountFen: z.number().int() });

export const activityEffect = endpoint({
  id: 'activity.effect',
  title: '活动效果',
  method: 'GET',
  path: `${A}/effect`,
  query: effectQuery,
  response: z.object({ activity: activityRow, days: z.array(effectDayRow), riders: z.number().int(), rides: z.number().int(), discountFen: z.number().int() }),
  permission: ACTIVITY_READ,
  timeoutMs: 20_000,
});

export const activityEffectExport = exportTaskEndpoint({
  id: 'activity.effectExport',
  title: '导出活动效果',
  path: `${A}/effect/export`,
  query: effectQuery,
  permission: ACTIVITY_READ,
});

// ---- 优惠限制 ----

export const LIMIT_DIMENSIONS = { rider: '每位乘客', card: '每张卡' } as const;
export const LIMIT_PERIODS = { day: '每日', month: '每月' } as const;

export const discountLimitRow = z.object({
  id: z.number().int(),
  districtId: z.number().int().nullable(),
  districtName: z.string().nullable(),
  /** null: every activity of the area ('all'). */
  activityId: z.number().int().nullable(),
  activityName: z.string().nullable(),
  dimension: z.enum(['rider', 'card']),
  period: z.enum(['day', 'month']),
  /** 0: no cap on the count. */
  maxTimes: z.number().int(),
  /** 0: no cap on the amount (fen). */
  maxFen: z.number().int(),
  enabled: z.boolean(),
  updatedDate: timestamp,
  rowVersion,
});
export type DiscountLimit = z.infer<typeof discountLimitRow>;

const L = `${BUSCODE}/discountLimit`;

export const discountLimitList = endpoint({
  id: 'discountLimit.list',
  title: '优惠限制',
  method: 'GET',
  path: `${L}/list`,
  response: z.object({ rows: z.array(discountLimitRow) }),
  permission: ACTIVITY_READ,
});

export const discountLimitSave = endpoint({
  id: 'discountLimit.saveOrUpdate',
  title: '保存优惠限制',
  method: 'POST',
  path: `${L}/saveOrUpdate`,
  body: z
    .object({
      id: id('限制ID').optional(),
      districtId: id('区域').nullable().optional(),
      scope: z.enum(['all', 'activity'], { error: '范围应为 all 或 activity' }),
      activityId: id('活动').nullable().optional(),
      dimension: z.enum(['rider', 'card'], { error: '维度应为 rider 或 card' }),
      period: z.enum(['day', 'month'], { error: '周期应为 day 或 month' }),
      maxTimes: ranged('次数上限', 0, 1000, '次数上限应在0–1000之间（0为不限）'),
      maxFen: ranged('金额上限', 0, 10_000_000, '金额上限应在0–100000元之间（0为不限）'),
      enabled: z.boolean({ error: '启用应为 true 或 false' }).default(true),
      rowVersion: fromVersion,
    })
    .refine((b) => b.scope === 'all' || b.activityId != null, { error: '请选择活动', path: ['activityId'] })
    .refine((b) => b.maxTimes > 0 || b.maxFen > 0, { error: '次数上限和金额上限至少填一项', path: ['maxTimes'] }),
  response: discountLimitRow,
  permission: ACTIVITY_EDITOR,
});

// ---- 操作记录 ----

export const operateChangeRow = z.object({ field: z.string(), before: z.string(), after: z.string() });

export const operateRecordRow = z.object({
  id: z.number().int(),
  operatorLogin: z.string().nullable(),
  operationType: z.string(),
  operationLabel: z.string(),
  activityId: z.number().int().nullable(),
  summary: z.string(),
  reason: z.string().nullable(),
  /** Field by field, what the action changed (labels and values in words). */
  changes: z.array(operateChangeRow),
  result: z.number().int(),
  createdDate: timestamp,
});
export type OperateRecord = z.infer<typeof operateRecordRow>;

export const operateRecordPage = endpoint({
  id: 'operateRecord.page',
  title: '操作记录',
  method: 'GET',
  path: `${BUSCODE}/operateRecord/page`,
  query: pageQuery(['createdDate'] as const).extend({
    activityId: id('活动').optional(),
    operationType: z.string().trim().regex(/^ACTIVITY_[A-Z_]{1,40}$/, { error: '操作类型应为 ACTIVITY_ 开头' }).optional(),
    operator: optionalText('操作人', 32).optional(),
    startTime: isoDateTime('开始时间').optional(),
    endTime: isoDateTime('结束时间').optional(),
  }),
  response: pageOf(operateRecordRow),
  permission: ACTIVITY_READ,
});

/** Every endpoint of the module, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [
  activityPage,
  activityById,
  activitySave,
  activityUpdateStatus,
  activityCopy,
  activityTotal,
  activityExport,
  activitySimulate,
  activityEffect,
  activityEffectExport,
  discountLimitList,
  discountLimitSave,
  operateRecordPage,
];
