import { z } from 'zod';
import { statusFlow } from '../frame/status-flow';
import { CARD_CATEGORIES, PAY_STATUS } from './card';
import { BUSCODE, type Endpoint, endpoint, readByBody } from './endpoint';
import { exportTaskEndpoint } from './export-task';
import { id, isoDateTime, optionalText, timestamp, wholeNumber } from './fields';
import { pageOf, pageQuery } from './paging';
import { claimBody, releaseAnswer, releaseBody } from './review-claim';
import { grant, grantIn } from './permissions';

/**
 * 线上办卡's applications (second wave §10, prefix /buscodepc/fyapi/handleCard): 办卡申请 from payment
 * through review, card making and delivery; 办卡设置 and 办卡规则编辑 per card type and district. The
 * area's card list (卡片列表) is card.ts's.
 */

/** The module's button permissions (second wave §0), declared once with their labels. */
export const buttons = {
  HANDLE_CARD_AUDIT: '审核办卡申请',
  HANDLE_CARD_SHIP: '办卡寄送与领取',
  HANDLE_CARD_SETTING: '修改办卡设置',
  HANDLE_CARD_FACTORY_EXPORT: '导出制卡文件',
} as const;
const can = grantIn(buttons);

/** Reading is for those who see the menu (decision 81). */
export const HANDLE_CARD_READ = grant({ menus: ['handleCard'] });
export const HANDLE_CARD_AUDITOR = can({ buttons: ['HANDLE_CARD_AUDIT'] });
export const HANDLE_CARD_SHIPPER = can({ buttons: ['HANDLE_CARD_SHIP'] });
export const HANDLE_CARD_SETTER = can({ buttons: ['HANDLE_CARD_SETTING'] });
export const HANDLE_CARD_FACTORY_EXPORTER = can({ buttons: ['HANDLE_CARD_FACTORY_EXPORT'] });
/** Who may take over another reviewer's claim (the server checks the role too), as in 线上验卡. */
export const HANDLE_CARD_TAKEOVER = grant({ roles: ['ROLE_ADMIN'] });

/** The card types applied for online (spec §3's named ones): 2 记名个性化卡, 4 学生卡, 5 老年卡, 6 记名卡. */
export const APPLY_CATEGORIES = [2, 4, 5, 6] as const;
export type ApplyCategory = (typeof APPLY_CATEGORIES)[number];
export const applyCategoryLabel = (c: number) => CARD_CATEGORIES[c as keyof typeof CARD_CATEGORIES] ?? String(c);
export const APPLY_CATEGORY_OPTIONS = APPLY_CATEGORIES.map((c) => ({ value: String(c), label: applyCategoryLabel(c) }));

/**
 * 0 待支付 → 1 待审核 (paid) / 6 已取消 (timeout); 1 → 6 (the rider cancels, refunded); 1 → 2 制卡中
 * (通过: a card number reserved); 1 → 3 已驳回, 2 → 3 (制卡失败: refunded once); 2 → 4 已寄出/待领取;
 * 4 → 5 已完成. The transitions here are the console's (a person's); the rest are the rider side's and
 * the job's.
 */
export const APPLY_STATUS = statusFlow({
  name: '申请状态',
  states: [
    { code: 0, label: '待支付', tone: 'gray' },
    { code: 1, label: '待审核', tone: 'amber' },
    { code: 2, label: '制卡中', tone: 'blue' },
    { code: 3, label: '已驳回', tone: 'red' },
    { code: 4, label: '已寄出/待领取', tone: 'blue' },
    { code: 5, label: '已完成', tone: 'green' },
    { code: 6, label: '已取消', tone: 'gray' },
  ],
  transitions: { '1': [2, 3], '2': [3, 4], '4': [5] },
});
export type ApplyStatus = (typeof APPLY_STATUS.codes)[number];

export const APPLY_PAY_STATUS = statusFlow({
  name: '支付状态',
  states: [
    { code: 0, label: PAY_STATUS[0], tone: 'gray' },
    { code: 1, label: PAY_STATUS[1], tone: 'green' },
    { code: 2, label: PAY_STATUS[2], tone: 'amber' },
  ],
  transitions: { '0': [1], '1': [2] },
});

/** 1 自取, 2 邮寄. */
export const DELIVERY_MODES = { 1: '自取', 2: '邮寄' } as const;
export const deliveryLabel = (d: number) => DELIVERY_MODES[d as keyof typeof DELIVERY_MODES] ?? String(d);

/** The materials a setting may require (second wave §10 [R S10]); 证件照 and both sides of the id always. */
export const MATERIALS = { photo: '证件照', idFront: '身份证人像面', idBack: '身份证国徽面', studentCard: '学生证', schoolProof: '在读证明', residence: '居住证明', guardianConsent: '监护人同意书' } as const;
export type MaterialKey = keyof typeof MATERIALS;
export const MATERIAL_KEYS = Object.keys(MATERIALS) as MaterialKey[];

/** The photo rule [R S10]: 358×441 pixels, under 100 KB. */
export const PHOTO_WIDTH = 358;
export const PHOTO_HEIGHT = 441;
export const PHOTO_MAX_BYTES = 100 * 1024;
/** Under this age (whole years) the application needs a guardian's consent (PIPL Art. 31). */
export const GUARDIAN_AGE = 14;
/** An unpaid application is cancelled after this long (the job handleCard.payTimeout). */
export const APPLY_PAY_TIMEOUT_MINUTES = 30;
/** Images are purged this many days after the final decision (SHA-256 kept). */
export const IMAGE_RETENTION_DAYS = 30;
/** An auditBatch takes at most this many. */
export const AUDIT_BATCH_MAX = 100;
export const RULE_TEXT_MAX = 5000;
export const REASON_MIN = 4;
/** A reviewer's claim on a 待审核 application lasts this long (lib/review-claim.ts, as 线上验卡's). */
export const CLAIM_MS = 10 * 60_000;

/** The design's refusals, word for word (second wave §10). */
export const REFUSALS = {
  stale: '该申请已被处理，请刷新后查看',
  duplicate: (category: string, cardNo: string) => `该身份证已有有效的${category}（卡号${cardNo}），不能重复办理`,
  age: (category: string, min: number, max: number) => `申请人年龄不符合${category}办理条件（${min}–${max}周岁）`,
  photo: '照片应为358×441像素且小于100KB',
  idChecksum: '身份证号校验不通过',
  guardian: '未满14周岁的申请须有监护人同意',
  reason: '请填写驳回原因（至少4个字）',
  tracking: '邮寄办理须填写快递单号',
  closed: (category: string) => `${category}暂未开放线上办理`,
  pool: '卡号池余量不足，请先导入卡号段',
  claimedBy: (name: string) => `该申请正由${name}审核中`,
  takeOver: '只有管理员可以接管他人正在审核的申请',
} as const;

/** The presets `1`–`9` of 驳回 (the reviewer's usual reasons; any text of ≥4 characters is allowed). */
export const REJECT_PRESETS = [
  '照片不符合要求，请重新上传',
  '身份证照片不清晰，请重新上传',
  '证明材料不全，请补充后重新申请',
  '申请人年龄不符合办理条件',
  '证件信息与实名信息不一致',
  '已有有效同类卡，不能重复办理',
  '学生证或在读证明已过期',
  '监护人同意书缺失或不清晰',
  '制卡失败，请重新申请',
] as const;

/** One line of ★ 提交即预检: what the server measured at submission, green or red. */
export const precheckItem = z.object({
  key: z.enum(['photo', 'idChecksum', 'age', 'onePerId', 'existingCard', 'guardian', 'materials']),
  label: z.string(),
  ok: z.boolean(),
  note: z.string(),
});
export type PrecheckItem = z.infer<typeof precheckItem>;

export const applyRow = z.object({
  id: z.number().int(),
  applyNo: z.string(),
  districtId: z.number().int(),
  districtName: z.string().nullable(),
  riderId: z.number().int(),
  cardCategory: z.number().int(),
  /** Masked: 张*. */
  name: z.string(),
  /** Masked: 110***********123X. */
  idNo: z.string(),
  /** Masked: 138****5678. */
  phone: z.string(),
  age: z.number().int(),
  guardianConsent: z.boolean(),
  delivery: z.number().int(),
  /** 邮寄: the address cut to its street; 自取: the pickup point. */
  deliveryTo: z.string(),
  school: z.string().nullable(),
  fee: z.number().int(),
  payStatus: APPLY_PAY_STATUS.schema,
  status: APPLY_STATUS.schema,
  reason: z.string().nullable(),
  reviewerName: z.string().nullable(),
  cardNo: z.string().nullable(),
  batchNo: z.string().nullable(),
  trackingNo: z.string().nullable(),
  /** Every precheck line green: the batch approval takes it. */
  precheckGreen: z.boolean(),
  /** The red lines' labels, for the list. */
  precheckRed: z.array(z.string()),
  /** Who holds the live review claim (null: free or expired), and until when. */
  claimById: z.number().int().nullable(),
  claimByName: z.string().nullable(),
  claimUntil: timestamp.nullable(),
  createdDate: timestamp,
  paidDate: timestamp.nullable(),
  decidedDate: timestamp.nullable(),
  shippedDate: timestamp.nullable(),
  completedDate: timestamp.nullable(),
});
export type HandleApply = z.infer<typeof applyRow>;

export const materialInfo = z.object({
  id: z.number().int(),
  label: z.string(),
  mime: z.string(),
  bytes: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  sha256: z.string(),
  purged: z.boolean(),
});

export const refundInfo = z.object({ id: z.number().int(), amount: z.number().int(), reason: z.string(), state: z.number().int(), createdDate: timestamp });

const applyDetail = applyRow.extend({ precheck: z.array(precheckItem), materials: z.array(materialInfo), refunds: z.array(refundInfo), imagesPurged: z.boolean() });
export type HandleApplyDetail = z.infer<typeof applyDetail>;

const H = `${BUSCODE}/handleCard`;

const day = (label: string) => z.string({ error: `${label}必须是日期` }).regex(/^\d{4}-\d{2}-\d{2}$/, { error: `${label}应为 YYYY-MM-DD` });
const category = wholeNumber('卡类型', 1, 6).refine((c) => (APPLY_CATEGORIES as readonly number[]).includes(c), { error: '卡类型应为记名个性化卡、学生卡、老年卡或记名卡' });
const idempotencyKey = z.string({ error: '缺少幂等键' }).regex(/^[A-Za-z0-9_-]{8,64}$/, { error: '幂等键应为8–64位字母、数字、_ 或 -' });

const applyFilters = z.object({
  applyNo: optionalText('申请号', 40).optional(),
  /** Exact phone or citizen id, through the blind index; only in the body form (never a URL). */
  phone: optionalText('手机号', 20).optional(),
  idNo: optionalText('身份证号', 20).optional(),
  cardCategory: category.optional(),
  status: APPLY_STATUS.filter.optional(),
  delivery: wholeNumber('领取方式', 1, 2).optional(),
  /** true: only all-green prechecks; false: only those with a red line. */
  precheck: z.enum(['green', 'red'], { error: '预检应为 green 或 red' }).optional(),
  startTime: isoDateTime('开始时间').optional(),
  endTime: isoDateTime('结束时间').optional(),
});
/** The export's filters: without the phone and id (a task's filters are stored and sit in its address). */
const applyUrlFilters = applyFilters.omit({ phone: true, idNo: true });

export const applyPage = endpoint({
  id: 'handleCard.page',
  title: '办卡申请列表',
  method: 'GET',
  path: `${H}/page`,
  query: pageQuery(['createdDate', 'paidDate', 'fee'] as const).extend(applyFilters.shape),
  response: pageOf(applyRow),
  permission: HANDLE_CARD_READ,
  timeoutMs: 40_000,
});
export const applyPageByBody = readByBody(applyPage, { id: 'handleCard.pageByBody', title: '办卡申请列表（条件在请求体）' });

export const applyTotalRow = z.object({
  total: z.number().int(),
  /** Count per status code. */
  byStatus: z.record(z.string(), z.number().int()),
  /** 待审核 with every precheck line green: what 批量通过预检全绿 would take. */
  pendingGreen: z.number().int(),
  /** 待审核 held by a live claim (anyone's), and by the caller. */
  claimed: z.number().int(),
  claimedByMe: z.number().int(),
  /** Fees paid and not refunded (fen). */
  feePaid: z.number().int(),
  refunded: z.number().int(),
  /** Free numbers left in the pool, per category. */
  poolFree: z.record(z.string(), z.number().int()),
});

export const applyTotal = endpoint({
  id: 'handleCard.total',
  title: '办卡申请统计',
  method: 'GET',
  path: `${H}/total`,
  query: applyFilters,
  response: applyTotalRow,
  permission: HANDLE_CARD_READ,
  timeoutMs: 40_000,
});
export const applyTotalByBody = readByBody(applyTotal, { id: 'handleCard.totalByBody', title: '办卡申请统计（条件在请求体）' });

export const applyMsg = endpoint({
  id: 'handleCard.msg',
  title: '办卡申请详情',
  method: 'GET',
  path: `${H}/query/msg`,
  query: z.object({ id: id('申请ID') }),
  response: applyDetail,
  permission: HANDLE_CARD_READ,
});

export const applyAudit = endpoint({
  id: 'handleCard.audit',
  title: '审核办卡申请',
  method: 'POST',
  path: `${H}/audit`,
  // A 驳回 without a reason of ≥4 characters is the service's refusal, in the design's words (not a 参数错误).
  body: z.object({
    id: id('申请ID'),
    fromStatus: APPLY_STATUS.schema,
    toStatus: z.union([z.literal(2), z.literal(3)], { error: '审核结果应为 2（通过）或 3（驳回/制卡失败）' }),
    reason: optionalText('原因', 100).optional(),
    idempotencyKey,
    /** ROLE_ADMIN deciding one another reviewer holds (audited as a take-over). */
    takeOver: z.boolean({ error: '接管应为 true 或 false' }).optional(),
  }),
  response: z.object({ apply: applyRow, replayed: z.boolean() }),
  permission: HANDLE_CARD_AUDITOR,
});

/**
 * 下一条办卡审核 / 认领: without an id, the oldest 待审核 application in the area nobody else holds is
 * claimed for the caller (null when the queue is empty); with one, that application (ROLE_ADMIN may
 * take over another's claim with `takeOver`). Answers the detail, claim included.
 */
export const applyClaim = endpoint({
  id: 'handleCard.claim',
  title: '认领办卡申请',
  method: 'POST',
  path: `${H}/claim`,
  body: claimBody(AUDIT_BATCH_MAX),
  response: applyDetail.nullable(),
  permission: HANDLE_CARD_AUDITOR,
});

export const applyRelease = endpoint({
  id: 'handleCard.release',
  title: '放弃认领办卡申请',
  method: 'POST',
  path: `${H}/release`,
  body: releaseBody,
  response: releaseAnswer,
  permission: HANDLE_CARD_AUDITOR,
});

export const applyAuditBatch = endpoint({
  id: 'handleCard.auditBatch',
  title: '批量通过预检全绿',
  method: 'POST',
  path: `${H}/auditBatch`,
  body: z.object({
    ids: z.array(id('申请ID'), { error: '请选择申请' }).min(1, { error: '请选择申请' }).max(AUDIT_BATCH_MAX, { error: `一次最多通过${AUDIT_BATCH_MAX}条` }),
    idempotencyKey,
  }),
  response: z.object({
    approved: z.array(z.object({ id: z.number().int(), applyNo: z.string(), cardNo: z.string() })),
    /** Not approved, with why (no longer 待审核, a red line, the pool empty). */
    skipped: z.array(z.object({ id: z.number().int(), applyNo: z.string().nullable(), reason: z.string() })),
    replayed: z.boolean(),
  }),
  permission: HANDLE_CARD_AUDITOR,
});

export const applyShip = endpoint({
  id: 'handleCard.ship',
  title: '寄出/待领取',
  method: 'POST',
  path: `${H}/ship`,
  body: z.object({
    id: id('申请ID'),
    trackingNo: z
      .string({ error: '快递单号必须是文本' })
      .trim()
      .regex(/^[A-Za-z0-9]{0,30}$/, { error: '快递单号应为30位以内的字母或数字' })
      .optional(),
    pickupReady: z.boolean({ error: '待领取应为 true 或 false' }).optional(),
  }),
  response: applyRow,
  permission: HANDLE_CARD_SHIPPER,
});

export const applyComplete = endpoint({
  id: 'handleCard.complete',
  title: '办卡完成',
  method: 'POST',
  path: `${H}/complete`,
  body: z.object({ id: id('申请ID') }),
  response: applyRow,
  permission: HANDLE_CARD_SHIPPER,
});

export const applyMaterial = endpoint({
  id: 'handleCard.material',
  title: '查看办卡材料',
  method: 'POST',
  path: `${H}/material`,
  body: z.object({
    id: id('申请ID'),
    materialId: id('材料ID'),
    reason: z.string({ error: '请填写查看原因' }).trim().min(2, { error: '查看原因至少2个字' }).max(100, { error: '查看原因不能超过100个字' }),
  }),
  response: z.object({ id: z.number().int(), label: z.string(), mime: z.string(), width: z.number().int().nullable(), height: z.number().int().nullable(), dataUrl: z.string() }),
  permission: HANDLE_CARD_READ,
  readsOnly: true,
});

export const applyFactoryExport = exportTaskEndpoint({
  id: 'handleCard.factoryExport',
  title: '导出制卡文件',
  path: `${H}/factory/export`,
  query: z.object({ batchDate: day('制卡日期') }),
  permission: HANDLE_CARD_FACTORY_EXPORTER,
});

export const applyExport = exportTaskEndpoint({
  id: 'handleCard.export',
  title: '导出办卡申请',
  path: `${H}/export`,
  query: applyUrlFilters,
  permission: HANDLE_CARD_READ,
});

// ---- settings (办卡设置, 办卡规则编辑) ----

export const settingRow = z.object({
  id: z.number().int(),
  districtId: z.number().int(),
  districtName: z.string().nullable(),
  cardCategory: z.number().int(),
  open: z.boolean(),
  ageMin: z.number().int(),
  ageMax: z.number().int(),
  feeFen: z.number().int(),
  /** 1 自取, 2 邮寄. */
  deliveryModes: z.array(z.number().int()),
  materials: z.array(z.string()),
  onePerId: z.boolean(),
  /** Applications a day (Shanghai); 0: no limit. */
  dailyQuota: z.number().int(),
  /** 办卡须知, edited on 办卡规则编辑. */
  ruleText: z.string(),
  updatedDate: timestamp,
});
export type HandleSetting = z.infer<typeof settingRow>;

const S = `${H}/setting`;

export const settingList = endpoint({
  id: 'handleCard.settingList',
  title: '办卡设置',
  method: 'GET',
  path: `${S}/list`,
  query: z.object({ cardCategory: category.optional() }),
  response: z.array(settingRow),
  permission: HANDLE_CARD_READ,
});

export const settingById = endpoint({
  id: 'handleCard.settingById',
  title: '办卡设置详情',
  method: 'GET',
  path: `${S}/queryById`,
  query: z.object({ id: id('设置ID') }),
  response: settingRow,
  permission: HANDLE_CARD_READ,
});

const ranged = (label: string, min: number, max: number) => wholeNumber(label, min, max);

export const settingSave = endpoint({
  id: 'handleCard.settingSave',
  title: '保存办卡设置',
  method: 'POST',
  path: `${S}/saveOrUpdate`,
  body: z
    .object({
      /** Absent: a new setting of the account's district (or `districtId` for an unscoped account). */
      id: id('设置ID').optional(),
      districtId: id('区域').optional(),
      cardCategory: category,
      open: z.boolean({ error: '是否开放应为 true 或 false' }),
      ageMin: ranged('最小年龄', 0, 120),
      ageMax: ranged('最大年龄', 0, 120),
      feeFen: ranged('工本费', 0, 100_000),
      deliveryModes: z
        .array(z.union([z.literal(1), z.literal(2)], { error: '领取方式应为 1（自取）或 2（邮寄）' }), { error: '请选择领取方式' })
        .min(1, { error: '请至少选择一种领取方式' })
        .max(2, { error: '领取方式最多两种' }),
      materials: z.array(z.enum(MATERIAL_KEYS as [MaterialKey, ...MaterialKey[]], { error: '未知的材料' }), { error: '材料应为列表' }).max(MATERIAL_KEYS.length, { error: '材料重复' }),
      onePerId: z.boolean({ error: '一证一卡应为 true 或 false' }),
      dailyQuota: ranged('每日名额', 0, 100_000),
      /** Omitted: kept (办卡设置 does not edit it; 办卡规则编辑 does). */
      ruleText: optionalText('办卡须知', RULE_TEXT_MAX).optional(),
    })
    .refine((b) => b.ageMin <= b.ageMax, { error: '最小年龄不能大于最大年龄', path: ['ageMax'] }),
  response: settingRow,
  permission: HANDLE_CARD_SETTER,
});

/** Every endpoint of the applications, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [
  applyPage,
  applyPageByBody,
  applyTotal,
  applyTotalByBody,
  applyMsg,
  applyAudit,
  applyAuditBatch,
  applyClaim,
  applyRelease,
  applyShip,
  applyComplete,
  applyMaterial,
  applyFactoryExport,
  applyExport,
  settingList,
  settingById,
  settingSave,
];
