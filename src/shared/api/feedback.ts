import { z } from 'zod';
import { BUSLINE, type Endpoint, endpoint } from './endpoint';
import { exportTaskEndpoint } from './export-task';
import { id, isoDateTime, optionalText, queryBool, timestamp } from './fields';
import { pageOf, pageQuery } from './paging';
import { grant, grantIn } from './permissions';
import { statusFlow } from '../frame/status-flow';
import { DAY_MS, SHANGHAI_OFFSET_MS } from '../domain/time';

/**
 * 意见反馈 (second wave §2, prefix /busline/api/bus/feedback): riders' feedback, claimed, answered or
 * declined with a reason, reopened by an administrator; overdue by working days.
 */

/** The module part's button permissions (second wave §0), declared once with their labels. */
export const buttons = {
  FEEDBACK_HANDLE: '处理意见反馈',
} as const;
const can = grantIn(buttons);

/** Reading is for those who see the menu (decision 81). */
export const FEEDBACK_READ = grant({ menus: ['noticeReport'] });
export const FEEDBACK_HANDLER = can({ buttons: ['FEEDBACK_HANDLE'] });
/** 重新打开 a closed item is an administrator's call (second wave §2). */
export const FEEDBACK_REOPENER = grant({ roles: ['ROLE_ADMIN'] });

/**
 * 0 未处理 → 3 处理中 (认领); 0/3 → 1 已处理 (回复); 0/3 → 2 不处理 (with a reason); 1/2 → 3 重新打开
 * (ROLE_ADMIN). The codes 0/1/2 are smart-admin's (S5); 3 is ours.
 */
export const FEEDBACK_STATUS = statusFlow({
  name: '处理状态',
  states: [
    { code: 0, label: '未处理', tone: 'amber' },
    { code: 3, label: '处理中', tone: 'blue' },
    { code: 1, label: '已处理', tone: 'green' },
    { code: 2, label: '不处理', tone: 'gray' },
  ],
  transitions: { '0': [3, 1, 2], '3': [1, 2], '1': [3], '2': [3] },
});
export type FeedbackStatus = (typeof FEEDBACK_STATUS.codes)[number];

/** A kind, not a status: the same labels, badge and filter from one declaration. */
export const FEEDBACK_CATEGORY = statusFlow({
  name: '反馈类型',
  states: [
    { code: 1, label: '线路与班次', tone: 'blue' },
    { code: 2, label: '司乘服务', tone: 'amber' },
    { code: 3, label: '车辆设施', tone: 'gray' },
    { code: 4, label: '乘车码与支付', tone: 'green' },
    { code: 5, label: '其他', tone: 'gray' },
  ],
});
export type FeedbackCategory = (typeof FEEDBACK_CATEGORY.codes)[number];

export const FEEDBACK_CONTENT_MAX = 500;
export const FEEDBACK_REPLY_MAX = 500;
export const FEEDBACK_IMAGES_MAX = 3;
/** Working days to answer (weekends skipped; public holidays are not known to the system). */
export const FEEDBACK_DUE_WORKING_DAYS = 3;
/** A complaint is matched to the rider's own rides this close to when it happened. */
export const RIDE_MATCH_MS = 30 * 60_000;
/** Complaints on one bus this close together form one cluster (「同车同时段 N 条」). */
export const CLUSTER_WINDOW_MS = 60 * 60_000;
export const CLOSE_REASON_MIN = 4;

/** The design's refusals, one place for the server, the console and the tests. */
export const FEEDBACK_REFUSAL = {
  handled: '该反馈已被处理，请刷新后查看',
  heldBy: (name: string) => `该反馈正由${name}处理`,
  closeReason: '请填写不处理原因（至少4个字）',
  reply: '请填写回复内容',
  notFound: '反馈不存在',
} as const;

const weekday = (ms: number) => new Date(ms + SHANGHAI_OFFSET_MS).getUTCDay();
const isWeekend = (ms: number) => weekday(ms) === 0 || weekday(ms) === 6;
const shanghaiDayStart = (ms: number) => ms - ((ms + SHANGHAI_OFFSET_MS) % DAY_MS);

/**
 * When an item is due: `days` working days (Monday–Friday in Shanghai) after it came in, at the same
 * time of day. One that came in on a weekend counts from Monday 00:00. Public holidays and their
 * make-up Saturdays are not modelled (no calendar source): they count as ordinary days.
 */
export function feedbackDueAt(created: Date, days = FEEDBACK_DUE_WORKING_DAYS): Date {
  let at = created.getTime();
  while (isWeekend(at)) at = shanghaiDayStart(at) + DAY_MS;
  for (let left = days; left > 0; ) {
    at += DAY_MS;
    if (!isWeekend(at)) left--;
  }
  return new Date(at);
}

export const feedbackRow = z.object({
  id: z.number().int(),
  districtId: z.number().int(),
  districtName: z.string().nullable(),
  riderId: z.number().int(),
  /** Masked: 138****5678. */
  riderPhone: z.string(),
  /** The contact the rider left, masked (opened through `material` with a reason). */
  contactPhone: z.string().nullable(),
  category: FEEDBACK_CATEGORY.schema,
  /** The rider's words, numbers in them masked. */
  content: z.string(),
  imageCount: z.number().int(),
  lineCode: z.string().nullable(),
  lineName: z.string().nullable(),
  busNo: z.string().nullable(),
  occurredAt: timestamp.nullable(),
  status: FEEDBACK_STATUS.schema,
  handlerId: z.number().int().nullable(),
  handlerName: z.string().nullable(),
  reply: z.string().nullable(),
  repliedAt: timestamp.nullable(),
  closeReason: z.string().nullable(),
  dueAt: timestamp,
  /** Open (未处理 / 处理中) and past its due time. */
  overdue: z.boolean(),
  /** ★ The rider's rides matched to it (±30 min). */
  linkedRides: z.number().int(),
  /** ★ 同车同时段: open or not, the items on the same bus within an hour, this one included (1: alone). */
  clusterSize: z.number().int(),
  createdDate: timestamp,
  updatedDate: timestamp,
});
export type Feedback = z.infer<typeof feedbackRow>;

export const linkedRideRow = z.object({
  id: z.number().int(),
  rideAt: timestamp,
  lineCode: z.string(),
  lineName: z.string(),
  busName: z.string(),
  direction: z.number().int(),
  stationName: z.string().nullable(),
  cardNo: z.string(),
  amount: z.number().int(),
  payStatus: z.number().int(),
  payChannel: z.string(),
  orderNo: z.string(),
});

export const clusterItem = z.object({
  id: z.number().int(),
  status: FEEDBACK_STATUS.schema,
  category: FEEDBACK_CATEGORY.schema,
  content: z.string(),
  riderPhone: z.string(),
  occurredAt: timestamp.nullable(),
  handlerId: z.number().int().nullable(),
  handlerName: z.string().nullable(),
});

export const imageInfo = z.object({ id: z.number().int(), label: z.string(), mime: z.string(), bytes: z.number().int(), purged: z.boolean() });

const F = `${BUSLINE}/bus/feedback`;

const spanOk = (q: { startTime?: string | undefined; endTime?: string | undefined }, ctx: z.RefinementCtx) => {
  if (q.startTime && q.endTime && Date.parse(q.endTime) < Date.parse(q.startTime)) ctx.addIssue({ code: 'custom', path: ['endTime'], message: '结束时间不能早于开始时间' });
};

/** The list's filters, shared by the page, its summary and its export. */
const filterShape = {
  status: FEEDBACK_STATUS.filter.optional(),
  category: FEEDBACK_CATEGORY.filter.optional(),
  lineCode: optionalText('线路编号', 20).optional(),
  overdue: queryBool('是否超时').optional(),
  /** Only the items this account holds (我的待处理反馈). */
  mine: queryBool('只看我的').optional(),
  startTime: isoDateTime('开始时间').optional(),
  endTime: isoDateTime('结束时间').optional(),
};
const { status: _status, ...summaryShape } = filterShape;
/** A task's params are stored and run without the asker's session: 只看我的 is the list's alone. */
const { mine: _mine, ...exportShape } = filterShape;

export const feedbackPage = endpoint({
  id: 'feedback.page',
  title: '意见反馈列表',
  method: 'GET',
  path: `${F}/page`,
  query: pageQuery(['dueAt', 'createdDate'] as const).extend(filterShape).superRefine(spanOk),
  response: pageOf(feedbackRow),
  permission: FEEDBACK_READ,
});

export const feedbackById = endpoint({
  id: 'feedback.queryById',
  title: '意见反馈详情',
  method: 'GET',
  path: `${F}/queryById`,
  query: z.object({ id: id('反馈ID') }),
  response: feedbackRow.extend({
    images: z.array(imageInfo),
    /** ★ The rider's own rides ±30 min of when it happened (line, bus, payment order). */
    rides: z.array(linkedRideRow),
    /** ★ The other items on the same bus within an hour. */
    cluster: z.array(clusterItem),
  }),
  permission: FEEDBACK_READ,
  // The linked rides are the ride module's.
  reads: ['noticeReport', 'order'],
});

export const feedbackAssign = endpoint({
  id: 'feedback.assign',
  title: '认领意见反馈',
  method: 'POST',
  path: `${F}/assign`,
  body: z.object({
    id: id('反馈ID'),
    /** An administrator taking over an item another handler holds. */
    takeOver: z.boolean({ error: 'takeOver 应为 true 或 false' }).optional(),
  }),
  response: feedbackRow,
  permission: FEEDBACK_HANDLER,
});

export const feedbackReply = endpoint({
  id: 'feedback.reply',
  title: '回复意见反馈',
  method: 'POST',
  path: `${F}/reply`,
  body: z.object({
    id: id('反馈ID'),
    fromStatus: z.union([z.literal(0), z.literal(3)], { error: '只能回复未处理或处理中的反馈' }),
    reply: z
      .string({ error: FEEDBACK_REFUSAL.reply })
      .trim()
      .min(1, { error: FEEDBACK_REFUSAL.reply })
      .max(FEEDBACK_REPLY_MAX, { error: `回复内容不能超过${FEEDBACK_REPLY_MAX}个字` }),
    /** ★ The cluster's other open items answered with the same reply (the ones the handler saw). */
    clusterIds: z.array(id('反馈ID'), { error: 'clusterIds 应为反馈ID列表' }).max(50, { error: '一次最多同时回复50条' }).optional(),
    /** An administrator answering an item another handler holds. */
    takeOver: z.boolean({ error: 'takeOver 应为 true 或 false' }).optional(),
  }),
  response: feedbackRow.extend({
    /** The cluster's items answered by this call besides this one. */
    alsoAnswered: z.array(z.number().int()),
    /** The cluster's items not answered, each with why (handled meanwhile, held by another). */
    skipped: z.array(z.object({ id: z.number().int(), msg: z.string() })),
  }),
  permission: FEEDBACK_HANDLER,
});

export const feedbackUpdateStatus = endpoint({
  id: 'feedback.updateStatus',
  title: '修改反馈状态',
  method: 'POST',
  path: `${F}/update/status`,
  body: z.object({
    id: id('反馈ID'),
    fromStatus: FEEDBACK_STATUS.schema,
    /** 2 不处理 (FEEDBACK_HANDLE, a reason) or 3: 认领 from 0, 重新打开 from 1/2 (ROLE_ADMIN). 已处理 is `reply`'s. */
    toStatus: z.union([z.literal(2), z.literal(3)], { error: '目标状态应为 2（不处理）或 3（处理中）' }),
    reason: optionalText('原因', 200).optional(),
    takeOver: z.boolean({ error: 'takeOver 应为 true 或 false' }).optional(),
  }),
  response: feedbackRow,
  // 重新打开 is checked against FEEDBACK_REOPENER by the server.
  permission: grantIn(buttons)({ buttons: ['FEEDBACK_HANDLE'], roles: ['ROLE_ADMIN'] }),
});

export const feedbackSummary = endpoint({
  id: 'feedback.summary',
  title: '意见反馈统计',
  method: 'GET',
  path: `${F}/summary`,
  // Counted by status, so the status filter itself is not applied.
  query: z.object(summaryShape).superRefine(spanOk),
  response: z.object({
    total: z.number().int(),
    byStatus: z.object({ open: z.number().int(), handling: z.number().int(), replied: z.number().int(), declined: z.number().int() }),
    /** Open and past due. */
    overdue: z.number().int(),
    /** Median hours from coming in to the reply, of the answered ones (null: none answered). */
    medianReplyHours: z.number().nullable(),
  }),
  permission: FEEDBACK_READ,
});

export const feedbackExport = exportTaskEndpoint({
  id: 'feedback.export',
  title: '导出意见反馈',
  path: `${F}/export`,
  query: z.object(exportShape).superRefine(spanOk),
  permission: FEEDBACK_READ,
});

/** An image of the item, or the contact phone when no file is named, in clear: with a reason, no-store, audited. */
export const feedbackMaterial = endpoint({
  id: 'feedback.material',
  title: '查看反馈图片与联系电话',
  method: 'POST',
  path: `${F}/material`,
  body: z.object({
    id: id('反馈ID'),
    fileId: id('图片ID').optional(),
    reason: z.string({ error: '请填写查看原因' }).trim().min(4, { error: '查看原因至少4个字' }).max(100, { error: '查看原因不能超过100个字' }),
  }),
  response: z.object({
    id: z.number().int(),
    contactPhone: z.string().nullable(),
    image: z.object({ id: z.number().int(), label: z.string(), mime: z.string(), dataUrl: z.string() }).nullable(),
  }),
  permission: FEEDBACK_HANDLER,
  readsOnly: true,
});

/** Every endpoint of 意见反馈, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [feedbackPage, feedbackById, feedbackAssign, feedbackReply, feedbackUpdateStatus, feedbackSummary, feedbackExport, feedbackMaterial];
