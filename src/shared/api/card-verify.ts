import { z } from 'zod';
import { statusFlow } from '../frame/status-flow';
import { BUSCODE, type Endpoint, endpoint, readByBody } from './endpoint';
import { exportTaskEndpoint } from './export-task';
import { id, isoDateTime, optionalText, timestamp, wholeNumber } from './fields';
import { pageOf, pageQuery } from './paging';
import { claimBody, releaseAnswer, releaseBody } from './review-claim';
import { grant, grantIn } from './permissions';

/**
 * 线上验卡 (second wave §4, prefix /buscodepc/fyapi/cardVerify): concession-card check applications,
 * their review queue and the configuration per card type and district. A rider submits an
 * application with materials (sealed images); the server runs the automatic checks on submission,
 * so a reviewer judges the exceptions and batch-approves the all-green. One reviewer holds an
 * application at a time (a 10-minute claim, lib/review-claim.ts); a decision is a guarded update.
 */

/** The module's button permissions (second wave §0), declared once with their labels. */
export const buttons = {
  CARD_VERIFY_AUDIT: '审核验卡申请',
  CARD_VERIFY_REVOKE: '撤销验卡通过',
  CARD_VERIFY_CONFIG: '修改验卡配置',
} as const;
const can = grantIn(buttons);

/** Reading is for those who see the menu (decision 81). */
export const CARD_VERIFY_READ = grant({ menus: ['cardVerify'] });
export const CARD_VERIFY_AUDITOR = can({ buttons: ['CARD_VERIFY_AUDIT'] });
export const CARD_VERIFY_REVOKER = can({ buttons: ['CARD_VERIFY_REVOKE'] });
export const CARD_VERIFY_CONFIGURER = can({ buttons: ['CARD_VERIFY_CONFIG'] });
/** Who may take over another reviewer's claim (the server checks the role too). */
export const CARD_VERIFY_TAKEOVER = grant({ roles: ['ROLE_ADMIN'] });

/**
 * 审核状态. People move 0 → 1 | 2 (CARD_VERIFY_AUDIT) and 1 → 2 (撤销通过, CARD_VERIFY_REVOKE); the
 * rider alone moves 0 → 3 (撤销申请). Nothing leaves 2 or 3: a new cycle is a new application.
 */
export const VERIFY_STATUS = statusFlow({
  name: '审核状态',
  states: [
    { code: 0, label: '待审核', tone: 'amber' },
    { code: 1, label: '已通过', tone: 'green' },
    { code: 2, label: '已驳回', tone: 'red' },
    { code: 3, label: '已撤销', tone: 'gray' },
  ],
  transitions: { '0': [1, 2, 3], '1': [2] },
});
export type VerifyStatus = (typeof VERIFY_STATUS.codes)[number];

/** The concession categories checked (spec §3 codes). */
export const VERIFY_CATEGORY = statusFlow({
  name: '卡类型',
  states: [
    { code: 4, label: '学生卡', tone: 'blue' },
    { code: 5, label: '老年卡', tone: 'blue' },
  ],
});
export type VerifyCategory = (typeof VERIFY_CATEGORY.codes)[number];

/** 自动核验: all five checks green, or at least one red. */
export const AUTO_CHECK = statusFlow({
  name: '自动核验',
  states: [
    { code: 1, label: '全部通过', tone: 'green' },
    { code: 0, label: '有异常', tone: 'red' },
  ],
});

/** The materials a rider uploads, in the order the queue's `1`–`5` keys show them. */
export const MATERIAL_KINDS = ['身份证人像面', '身份证国徽面', '学生证', '在读证明', '人脸照片'] as const;
export type MaterialKind = (typeof MATERIAL_KINDS)[number];

/** The automatic checks, in the order the queue lists them. */
export const CHECK_KEYS = ['idChecksum', 'age', 'cardState', 'holderMatch', 'face'] as const;
export type CheckKey = (typeof CHECK_KEYS)[number];
export const CHECK_LABELS: Record<CheckKey, string> = { idChecksum: '身份证号校验', age: '年龄条件', cardState: '卡片状态', holderMatch: '持卡人一致', face: '人脸比对' };

/** A claim lasts this long; taking the next or deciding renews nothing else. */
export const CLAIM_MS = 10 * 60_000;
/** Face and ID images are purged this long after the final decision (second wave §1; the hash stays). */
export const PURGE_AFTER_DAYS = 30;
export const BATCH_MAX = 100;
/** Applicants younger than this need a guardian's consent (PIPL Art. 31). */
export const GUARDIAN_AGE = 14;
/** The radar looks this far ahead. */
export const RADAR_DAYS = 90;
/** What one review takes, for the workload forecast (the queue's keyboard path: take, look, decide). */
export const REVIEW_MINUTES = 2;

/** Preset rejection reasons: `r` then `1`–`9` in the queue. */
export const PRESET_REASONS = [
  '身份证照片模糊，无法辨认',
  '人脸照片与身份证不符',
  '学生证或在读证明已过期',
  '材料不全，请补充后重新提交',
  '持卡人信息与申请人不一致',
  '卡片状态异常，请先到服务网点处理',
  '年龄不符合该卡种验卡条件',
  '在读证明缺少学校盖章',
  '照片经过编辑或翻拍，请上传原件照片',
] as const;

/** The design's refusals (§4), one place for the server, the console and the tests. */
export const REFUSAL = {
  decided: '该申请已被处理，请刷新后查看',
  claimedBy: (name: string) => `该申请正由${name}审核中`,
  rejectReason: '请填写驳回原因（至少4个字）',
  seniorAge: (min: number) => `持卡人未满${min}周岁，不符合老年卡验卡条件`,
  studentAge: (min: number, max: number) => `持卡人年龄超出学生卡范围（${min}–${max}周岁）`,
  cardState: (state: string) => `卡片状态为「${state}」，不能通过验卡`,
  holder: '申请人身份证号与持卡人不一致',
  face: (score: number) => `人脸比对未通过（${score}分），请填写人工核验说明`,
  batchGreen: '批量通过仅适用于自动核验全部通过的申请',
  windowMonths: '验卡提前月数应在1–6之间',
  /** Ours: the spec's checksum rule, worded as 线上办卡's. */
  idChecksum: '身份证号校验不通过',
  /** Ours: only an approval can be revoked. */
  revokeOnlyApproved: '只能撤销已通过的申请',
  revokeReason: '请填写撤销原因（至少4个字）',
  /** Ours: a face note shorter than 10 characters. */
  faceNote: '人工核验说明至少10个字',
  materialGone: '该材料已按规定清除（保留哈希），不能查看',
  ageRange: '年龄下限不能大于上限',
  duplicatePending: '该卡已有待审核的验卡申请',
  withdrawOnlyPending: '只能撤销待审核的申请',
  /** 线上办卡's words (second wave §10), for the same rule here. */
  guardian: '未满14周岁的申请须有监护人同意',
} as const;

export const checksRow = z.object({ idChecksum: z.boolean(), age: z.boolean(), cardState: z.boolean(), holderMatch: z.boolean(), face: z.boolean() });
export type Checks = z.infer<typeof checksRow>;

export const materialRow = z.object({
  id: z.number().int(),
  label: z.string(),
  mime: z.string(),
  bytes: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  sha256: z.string(),
  purged: z.boolean(),
});

export const verifyRow = z.object({
  id: z.number().int(),
  applyNo: z.string(),
  districtId: z.number().int(),
  districtName: z.string().nullable(),
  cardNo: z.string(),
  cardCategory: VERIFY_CATEGORY.schema,
  /** Masked: 张*, 110***********123X, 138****5678. */
  name: z.string(),
  idNo: z.string(),
  phone: z.string(),
  /** Whole years at submission, from the id's birth date. */
  age: z.number().int().nullable(),
  school: z.string().nullable(),
  guardianConsent: z.boolean(),
  faceScore: z.number().int().nullable(),
  checks: checksRow,
  autoPass: z.boolean(),
  status: VERIFY_STATUS.schema,
  reason: z.string().nullable(),
  note: z.string().nullable(),
  reviewerName: z.string().nullable(),
  reviewedDate: timestamp.nullable(),
  /** Who holds the live claim (null: free or expired), and until when. */
  claimById: z.number().int().nullable(),
  claimByName: z.string().nullable(),
  claimUntil: timestamp.nullable(),
  validUntil: z.string().nullable(),
  cycleYear: z.number().int(),
  createdDate: timestamp,
  purged: z.boolean(),
  /** An approval whose check was missed (past validUntil + graceDays): the card's concession is suspended since then. */
  suspendedDate: timestamp.nullable(),
});
export type VerifyApplication = z.infer<typeof verifyRow>;

export const verifyDetail = verifyRow.extend({
  materials: z.array(materialRow),
  /** The card as it stands now (its state may have changed since the submission). */
  cardState: z.number().int(),
  cardStateLabel: z.string(),
  /** The configuration that applies (category × district), for the reviewer's checks list. */
  config: z.object({ ageMin: z.number().int(), ageMax: z.number().int(), faceThreshold: z.number().int(), validMonths: z.number().int(), requireFace: z.boolean() }),
  /** Each check with what it compared, in CHECK_KEYS order. */
  checkList: z.array(z.object({ key: z.enum(CHECK_KEYS), label: z.string(), ok: z.boolean(), detail: z.string() })),
  revokedByName: z.string().nullable(),
  revokedDate: timestamp.nullable(),
  revokeReason: z.string().nullable(),
});
export type VerifyDetail = z.infer<typeof verifyDetail>;

const N = `${BUSCODE}/cardVerify`;

const idNoFilter = z
  .string()
  .trim()
  .regex(/^\d{17}[\dXx]$|^$/, { error: '身份证号应为18位' })
  .optional();

/** The list's filters, shared by the page, its summary and its export (without the id number). */
const filterShape = {
  applyNo: optionalText('申请号', 40).optional(),
  cardNo: z.string().trim().regex(/^\d{16}$|^$/, { error: '卡号应为16位数字' }).optional(),
  /** Exact id number: looked up through the blind index, never stored or compared in clear. */
  idNo: idNoFilter,
  status: VERIFY_STATUS.filter.optional(),
  category: VERIFY_CATEGORY.filter.optional(),
  autoCheck: AUTO_CHECK.filter.optional(),
  startTime: isoDateTime('开始时间').optional(),
  endTime: isoDateTime('结束时间').optional(),
};
const ordered = (q: { startTime?: string | undefined; endTime?: string | undefined }, ctx: z.RefinementCtx) => {
  if (q.startTime && q.endTime && Date.parse(q.endTime) < Date.parse(q.startTime)) ctx.addIssue({ code: 'custom', path: ['endTime'], message: '结束时间不能早于开始时间' });
};

export const verifyPage = endpoint({
  id: 'cardVerify.page',
  title: '验卡记录',
  method: 'GET',
  path: `${N}/page`,
  query: pageQuery(['createdDate', 'reviewedDate', 'faceScore'] as const).extend(filterShape).superRefine(ordered),
  response: pageOf(verifyRow),
  permission: CARD_VERIFY_READ,
  timeoutMs: 20_000,
});

export const verifyTotal = endpoint({
  id: 'cardVerify.total',
  title: '验卡统计',
  method: 'GET',
  path: `${N}/total`,
  // Counted per status, so the status filter itself is not applied.
  query: z.object(filterShape).superRefine(ordered),
  response: z.object({
    total: z.number().int(),
    /** Keyed by status code. */
    byStatus: z.record(z.string(), z.number().int()),
    pending: z.number().int(),
    /** Pending and held by a live claim (anyone's), and by the caller. */
    claimed: z.number().int(),
    claimedByMe: z.number().int(),
    /** Pending with every automatic check green: what 批量通过 takes. */
    pendingGreen: z.number().int(),
    decidedToday: z.number().int(),
    /** Approvals whose check was missed: the concession suspended (second wave §4). */
    suspended: z.number().int(),
  }),
  permission: CARD_VERIFY_READ,
  timeoutMs: 20_000,
});

/** The list and its summary with their filters in a body: an id number typed as a filter never sits in a URL (decision 82). */
export const verifyPageByBody = readByBody(verifyPage, { id: 'cardVerify.pageByBody', title: '验卡记录（条件在请求体）' });
export const verifyTotalByBody = readByBody(verifyTotal, { id: 'cardVerify.totalByBody', title: '验卡统计（条件在请求体）' });

export const verifyMsg = endpoint({
  id: 'cardVerify.msg',
  title: '验卡申请详情',
  method: 'GET',
  path: `${N}/query/msg`,
  query: z.object({ id: id('申请ID') }),
  response: verifyDetail,
  permission: CARD_VERIFY_READ,
});

/**
 * 审核下一条 / 认领: without an id, the oldest pending application nobody else holds is claimed for
 * the caller (null when the queue is empty); with one, that application (ROLE_ADMIN may take over
 * another's claim with `takeOver`). Answers the detail, claim included.
 */
export const verifyClaim = endpoint({
  id: 'cardVerify.claim',
  title: '认领验卡申请',
  method: 'POST',
  path: `${N}/claim`,
  body: claimBody(BATCH_MAX).extend({ category: VERIFY_CATEGORY.filter.optional() }),
  response: verifyDetail.nullable(),
  permission: CARD_VERIFY_AUDITOR,
});

export const verifyRelease = endpoint({
  id: 'cardVerify.release',
  title: '放弃认领验卡申请',
  method: 'POST',
  path: `${N}/release`,
  body: releaseBody,
  response: releaseAnswer,
  permission: CARD_VERIFY_AUDITOR,
});

const reasonText = (label: string) => z.string({ error: `${label}必须是文本` }).trim().max(100, { error: `${label}不能超过100个字` });

export const verifyAudit = endpoint({
  id: 'cardVerify.audit',
  title: '审核验卡申请',
  method: 'POST',
  path: `${N}/audit`,
  body: z.object({
    id: id('申请ID'),
    fromStatus: z.literal(0, { error: '只能审核待审核的申请' }),
    toStatus: z.union([z.literal(1), z.literal(2)], { error: '审核结果应为 1（通过）或 2（驳回）' }),
    reason: reasonText('驳回原因').optional(),
    /** 人工核验说明: needed to approve despite a failed face match. */
    note: z.string({ error: '人工核验说明必须是文本' }).trim().max(200, { error: '人工核验说明不能超过200个字' }).optional(),
    takeOver: z.boolean().optional(),
  }),
  response: verifyRow,
  permission: CARD_VERIFY_AUDITOR,
});

export const verifyAuditBatch = endpoint({
  id: 'cardVerify.auditBatch',
  title: '批量通过验卡申请',
  method: 'POST',
  path: `${N}/auditBatch`,
  body: z.object({
    ids: z
      .array(id('申请ID'), { error: '请选择申请' })
      .min(1, { error: '请选择申请' })
      .max(BATCH_MAX, { error: `每次最多批量通过${BATCH_MAX}条` })
      .refine((ids) => new Set(ids).size === ids.length, { error: '申请不能重复' }),
    idempotencyKey: z.string({ error: '缺少幂等键' }).regex(/^[A-Za-z0-9_-]{8,64}$/, { error: '幂等键应为8–64位字母、数字、_ 或 -' }),
  }),
  response: z.object({ approved: z.array(z.number().int()), replayed: z.boolean() }),
  permission: CARD_VERIFY_AUDITOR,
});

export const verifyRevoke = endpoint({
  id: 'cardVerify.revoke',
  title: '撤销验卡通过',
  method: 'POST',
  path: `${N}/revoke`,
  body: z.object({ id: id('申请ID'), fromStatus: z.literal(1, { error: REFUSAL.revokeOnlyApproved }), reason: reasonText('撤销原因') }),
  response: verifyRow,
  permission: CARD_VERIFY_REVOKER,
});

/** One material's image, opened: with a reason the log keeps; answered no-store. */
export const verifyMaterial = endpoint({
  id: 'cardVerify.material',
  title: '查看验卡材料',
  method: 'POST',
  path: `${N}/material`,
  body: z.object({
    id: id('申请ID'),
    materialId: id('材料ID'),
    reason: z.string({ error: '请填写查看原因' }).trim().min(2, { error: '查看原因至少2个字' }).max(50, { error: '查看原因不能超过50个字' }),
  }),
  response: z.object({ id: z.number().int(), label: z.string(), mime: z.string(), sha256: z.string(), width: z.number().int().nullable(), height: z.number().int().nullable(), dataBase64: z.string() }),
  permission: CARD_VERIFY_AUDITOR,
  readsOnly: true,
});

export const radarWeek = z.object({
  /** Monday of the week, `YYYY-MM-DD` (Shanghai). */
  weekStart: z.string(),
  due: z.number().int(),
  /** Of those, riders who rode in the last 30 days. */
  active: z.number().int(),
  reminded: z.number().int(),
  /** Applications expected that week, and the reviewer hours they take. */
  forecast: z.number().int(),
  reviewerHours: z.number(),
});

export const radarItem = z.object({
  cardNo: z.string(),
  cardCategory: VERIFY_CATEGORY.schema,
  districtName: z.string().nullable(),
  /** Masked. */
  name: z.string(),
  phone: z.string(),
  validUntil: z.string(),
  rides30d: z.number().int(),
  reminded: z.boolean(),
});

const radarQuery = z.object({
  days: wholeNumber('天数', 1, RADAR_DAYS).default(RADAR_DAYS),
  category: VERIFY_CATEGORY.filter.optional(),
});

/** ★ 到期雷达: cards whose check falls due in the next N days, per week, active riders first, and the workload. */
export const verifyDueRadar = endpoint({
  id: 'cardVerify.dueRadar',
  title: '验卡到期雷达',
  method: 'GET',
  path: `${N}/dueRadar`,
  query: radarQuery,
  response: z.object({
    days: z.number().int(),
    totalDue: z.number().int(),
    activeDue: z.number().int(),
    reminded: z.number().int(),
    /** Share of cards falling due that applied in the last 90 days (‰), behind the forecast. */
    renewalRate: z.number().int(),
    weeks: z.array(radarWeek),
    /** Active riders first, then by due date: the first 200. */
    items: z.array(radarItem),
  }),
  permission: CARD_VERIFY_READ,
  timeoutMs: 20_000,
});

/** The radar's batch reminder (a subscribe message, S17): each card once per due date. */
export const verifyDueRemind = endpoint({
  id: 'cardVerify.dueRemind',
  title: '发送验卡到期提醒',
  method: 'POST',
  path: `${N}/dueRemind`,
  body: z.object({ days: wholeNumber('天数', 1, RADAR_DAYS), category: VERIFY_CATEGORY.filter.optional(), activeOnly: z.boolean().optional() }),
  response: z.object({ sent: z.number().int(), skipped: z.number().int() }),
  permission: CARD_VERIFY_AUDITOR,
});

const { idNo: _idNo, ...exportShape } = filterShape;

export const verifyExport = exportTaskEndpoint({
  id: 'cardVerify.export',
  title: '导出验卡记录',
  path: `${N}/export`,
  query: z.object(exportShape).superRefine(ordered),
  permission: CARD_VERIFY_READ,
});

export const configRow = z.object({
  id: z.number().int(),
  districtId: z.number().int(),
  districtName: z.string().nullable(),
  category: VERIFY_CATEGORY.schema,
  enabled: z.boolean(),
  windowMonthsBefore: z.number().int(),
  validMonths: z.number().int(),
  requireFace: z.boolean(),
  faceThreshold: z.number().int(),
  requireOcr: z.boolean(),
  yearlyProof: z.boolean(),
  graceDays: z.number().int(),
  suspendOnMiss: z.boolean(),
  ageMin: z.number().int(),
  ageMax: z.number().int(),
  materials: z.array(z.enum(MATERIAL_KINDS)),
  noticeCode: z.string().nullable(),
  rowVersion: z.number().int(),
  updatedDate: timestamp,
});
export type VerifyConfig = z.infer<typeof configRow>;

export const verifyConfigList = endpoint({
  id: 'cardVerify.configList',
  title: '验卡配置',
  method: 'GET',
  path: `${N}/config/list`,
  query: z.object({ category: VERIFY_CATEGORY.filter.optional() }),
  response: z.array(configRow),
  permission: CARD_VERIFY_READ,
});

const int = (label: string, min: number, max: number) => z.number({ error: `${label}必须是数字` }).int({ error: `${label}必须是整数` }).min(min, { error: `${label}应在${min}–${max}之间` }).max(max, { error: `${label}应在${min}–${max}之间` });

export const verifyConfigSave = endpoint({
  id: 'cardVerify.configSave',
  title: '保存验卡配置',
  method: 'POST',
  path: `${N}/config/saveOrUpdate`,
  body: z.object({
    id: id('配置ID').optional(),
    districtId: id('区域'),
    category: VERIFY_CATEGORY.schema,
    enabled: z.boolean({ error: '是否启用应为是或否' }),
    // Its range (1–6) is the server's refusal in the design's own words, not a malformed request.
    windowMonthsBefore: z.number({ error: '验卡提前月数必须是数字' }).int({ error: '验卡提前月数必须是整数' }),
    validMonths: int('有效期（月）', 1, 36),
    requireFace: z.boolean({ error: '是否人脸比对应为是或否' }),
    faceThreshold: int('人脸比对阈值', 50, 100),
    requireOcr: z.boolean({ error: '是否证件识别应为是或否' }),
    yearlyProof: z.boolean({ error: '是否每年提交在读证明应为是或否' }),
    graceDays: int('宽限天数', 0, 90),
    suspendOnMiss: z.boolean({ error: '逾期是否暂停优惠应为是或否' }),
    ageMin: int('年龄下限', 0, 120),
    ageMax: int('年龄上限', 0, 150),
    materials: z.array(z.enum(MATERIAL_KINDS, { error: '材料类型不正确' })).min(1, { error: '请至少选择一种材料' }).max(5, { error: '材料最多5种' }),
    noticeCode: optionalText('提醒模板编号', 40).nullable().optional(),
    rowVersion: z.number().int().optional(),
  }),
  response: configRow,
  permission: CARD_VERIFY_CONFIGURER,
});

/** Every endpoint of the module, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [
  verifyPage,
  verifyPageByBody,
  verifyMsg,
  verifyTotal,
  verifyTotalByBody,
  verifyClaim,
  verifyRelease,
  verifyAudit,
  verifyAuditBatch,
  verifyRevoke,
  verifyMaterial,
  verifyDueRadar,
  verifyDueRemind,
  verifyExport,
  verifyConfigList,
  verifyConfigSave,
];

/** An application number as printed: YZ + date + 6 digits. */
export const isApplyNo = (s: string) => /^YZ\d{8}\d{6}$/.test(s.trim());
