import { createHash } from 'node:crypto';
import type { PrecheckItem } from '../../../shared/api/handle-card';
import { citizenCheckChar } from '../../../shared/domain/citizen-id';
import { shanghaiDate } from '../../../shared/domain/time';
import type { PlanInput, SeedPlan } from '../../db/seed/ahead';
import { DISTRICTS, GIVEN_NAMES, SURNAMES, demoDistricts } from '../../db/seed/city';
import type { Literal, Rows } from '../../db/seed/copy-text';

/**
 * 线上办卡 (second wave §10, §13): the applications of six months, the card-number pool and the
 * refunds of the rejected, made from the plan's input alone (on the seed's worker at a first start).
 * Riders are the rider plan's ids 1…n; applications and pool rows get their ids here.
 */

const DAY_MS = 86_400_000;
const pad = (n: number, w: number) => String(n).padStart(w, '0');

export const CATEGORIES = [2, 4, 5, 6] as const;
const CAT_NAME: Record<number, string> = { 2: '记名个性化卡', 4: '学生卡', 5: '老年卡', 6: '记名卡' };

/** The settings of a category, the same in every district. */
export const SETTING_TEMPLATES: Record<number, { ageMin: number; ageMax: number; feeFen: number; deliveryModes: number[]; materials: string[]; dailyQuota: number }> = {
  2: { ageMin: 0, ageMax: 120, feeFen: 2_000, deliveryModes: [1, 2], materials: ['photo', 'idFront', 'idBack'], dailyQuota: 0 },
  4: { ageMin: 6, ageMax: 25, feeFen: 1_000, deliveryModes: [1, 2], materials: ['photo', 'idFront', 'idBack', 'studentCard'], dailyQuota: 200 },
  5: { ageMin: 60, ageMax: 120, feeFen: 0, deliveryModes: [1, 2], materials: ['photo', 'idFront', 'idBack', 'residence'], dailyQuota: 0 },
  6: { ageMin: 0, ageMax: 120, feeFen: 2_000, deliveryModes: [1, 2], materials: ['photo', 'idFront', 'idBack'], dailyQuota: 0 },
};

export const ruleTextOf = (category: number, district: string) =>
  [
    `${district}${CAT_NAME[category]}线上办理须知`,
    '1. 请上传本人近期免冠白底证件照（358×441像素，小于100KB）及身份证正反面照片。',
    '2. 提交后系统即时预检，人工审核一般在2个工作日内完成；审核通过后进入制卡，约7个工作日。',
    '3. 选择邮寄的，卡片寄出后可在小程序查看快递单号；选择自取的，请凭身份证到领取网点领取。',
    '4. 未满14周岁的申请人须由监护人同意并上传监护人同意书。',
    '5. 审核未通过或制卡失败的，工本费原路退回。',
  ].join('\n');

/** A valid citizen id of a district, born on a day, with a sequence number. */
export function citizenIdOf(districtCode: string, birth: string, seq: number, female: boolean): string {
  const s = pad(((seq % 500) * 2 + (female ? 0 : 1)) % 1000, 3);
  const first17 = `${districtCode}${birth.replaceAll('-', '')}${s}`;
  return `${first17}${citizenCheckChar(first17)}`;
}

/** The pool's card numbers: 3102, the category, eleven digits (the demo city's own cards start 3101). */
export const poolCardNo = (category: number, seq: number) => `3102${category}${pad(seq, 11)}`;

export const volumes = (demo: boolean) => ({ applications: demo ? 6_000 : 10, pool: demo ? 10_000 : 40, riders: demo ? 12_000 : 60 });

export const APPLICATION_COLUMNS = [
  'id', 'apply_no', 'district_id', 'rider_id', 'card_category', 'name_enc', 'id_enc', 'id_hash', 'phone_enc', 'phone_idx', 'address_enc', 'address_street', 'birth_date', 'guardian_consent', 'school',
  'delivery', 'pickup_point', 'fee', 'pay_status', 'status', 'reason', 'card_no', 'batch_no', 'tracking_no', 'precheck', 'precheck_green', 'created_at', 'paid_at', 'decided_at', 'shipped_at', 'completed_at',
  'cancelled_at', 'images_purged_at', 'updated_at',
] as const;
export const POOL_COLUMNS = ['id', 'card_no', 'card_category', 'state', 'application_id', 'updated_at'] as const;
export const REFUND_COLUMNS = ['kind', 'order_id', 'item_id', 'district_id', 'order_no', 'amount', 'reason', 'idempotency_key', 'out_refund_no', 'state', 'channel_refund_no', 'attempts', 'created_at', 'settled_at'] as const;

const REJECTS = ['照片不符合要求，请重新上传', '身份证照片不清晰，请重新上传', '证明材料不全，请补充后重新申请', '证件信息与实名信息不一致'];
const ROADS = ['漕溪北路', '衡山路', '南京西路', '淮海中路', '肇嘉浜路', '天钥桥路', '中山南路', '四川北路'];

/** Planned outcome of the n-th application: the design's volumes (150 待审核, 80 制卡中, 60 待领取, 5% 驳回). */
function outcomeOf(n: number, demo: boolean, roll: number): number {
  if (!demo) return [1, 1, 1, 2, 4, 3, 0, 6, 5, 5][n % 10]!;
  if (n < 150) return 1;
  if (n < 230) return 2;
  if (n < 290) return 4;
  if (n < 298) return 0;
  if (roll < 0.05) return 3;
  if (roll < 0.08) return 6;
  return 5;
}

const outRefundNo = (key: string) => `RF${createHash('sha256').update(key).digest('hex').slice(0, 30).toUpperCase()}`;

/** The bulk: applications, the pool, the refunds. */
export const handleCardPlan: SeedPlan<{ applications: Rows; pool: Rows; refunds: Rows }> = {
  name: 'handleCard/applications',
  make({ rng, now, profile, pii }: PlanInput) {
    const demo = profile.name === 'demo';
    const v = volumes(demo);
    const districts = demoDistricts(profile.districts);
    const nowMs = now.getTime();
    const at = (msAgo: number) => new Date(nowMs - msAgo);
    const applications: Literal[][] = [];
    const refunds: Literal[][] = [];
    // The pool: equal shares per category; the numbers the seeded cards took are marked below.
    const perCat = Math.floor(v.pool / CATEGORIES.length);
    const next: Record<number, number> = { 2: 0, 4: 0, 5: 0, 6: 0 };
    const poolState = new Map<string, { state: number; app: number }>();
    const seen = new Set<string>();
    for (let n = 0; n < v.applications; n++) {
      const id = n + 1;
      const status = outcomeOf(n, demo, rng.next());
      const d = demo ? rng.pick(districts) : districts[n % districts.length]!;
      const code = DISTRICTS[d.id - 1]!.code;
      const category = demo ? rng.pick(CATEGORIES) : ([2, 4, 5, 6, 2, 6, 2, 4, 6, 2] as const)[n % 10]!;
      const t = SETTING_TEMPLATES[category]!;
      const today = shanghaiDate(now);
      const ageLo = Math.max(t.ageMin, category === 4 ? 7 : 18);
      const ageHi = Math.min(t.ageMax, category === 5 ? 85 : 60);
      const age = rng.int(ageLo, ageHi);
      const birth = `${Number(today.slice(0, 4)) - age - 1}-${pad(rng.int(1, 12), 2)}-${pad(rng.int(1, 28), 2)}`;
      let idNo = citizenIdOf(code, birth, id, rng.next() < 0.5);
      for (let k = 1; seen.has(idNo); k++) idNo = citizenIdOf(code, birth, id + k * 7, false);
      seen.add(idNo);
      const name = `${rng.pick(SURNAMES)}${rng.pick(GIVEN_NAMES)}`;
      const phone = `139${pad(rng.int(0, 99_999_999), 8)}`;
      const delivery = rng.next() < 0.6 ? 2 : 1;
      const address = delivery === 2 ? `上海市${d.name}${rng.pick(ROADS)}${rng.int(1, 999)}号${rng.int(1, 30)}0${rng.int(1, 4)}室` : null;
      // When it was made: 待审核 in the last 3 days, 制卡中 the last week, 待领取 the last 3 weeks, 待支付 minutes ago, the rest over six months.
      const span = status === 1 ? 3 * DAY_MS : status === 2 ? 7 * DAY_MS : status === 4 ? 21 * DAY_MS : (demo ? 180 : 40) * DAY_MS;
      const created = status === 0 ? at(rng.int(1, 10) * 60_000) : at(rng.int(2 * DAY_MS / 24, span));
      const fee = t.feeFen;
      const paid = status !== 0 && !(status === 6 && rng.next() < 0.7);
      const paidAt = paid ? new Date(created.getTime() + rng.int(30_000, 600_000)) : null;
      const decidedAt = [2, 3, 4, 5].includes(status) ? new Date(paidAt!.getTime() + rng.int(DAY_MS / 24, Math.max(DAY_MS / 12, Math.min(2 * DAY_MS, nowMs - paidAt!.getTime() - 60_000)))) : null;
      const shippedAt = status === 4 || status === 5 ? new Date(Math.min(nowMs - 60_000, decidedAt!.getTime() + rng.int(DAY_MS, 7 * DAY_MS))) : null;
      const completedAt = status === 5 ? new Date(Math.min(nowMs - 30_000, shippedAt!.getTime() + rng.int(DAY_MS, 5 * DAY_MS))) : null;
      const cancelledAt = status === 6 ? new Date(Math.min(nowMs - 1_000, paidAt ? paidAt.getTime() + rng.int(60_000, DAY_MS) : created.getTime() + 30 * 60_000)) : null;
      let cardNo: string | null = null;
      if (status === 2 || status === 4 || status === 5) {
        const seq = ++next[category]!;
        if (seq <= perCat) {
          cardNo = poolCardNo(category, seq);
          poolState.set(cardNo, { state: status === 2 ? 1 : 2, app: id });
        } else cardNo = poolCardNo(category, 50_000 + seq);
      }
      // Precheck: most green; some 待审核 with a proof missing or an old card reported lost.
      const red = status === 1 ? (demo ? rng.next() < 0.15 : n % 10 === 2) : status === 3 && rng.next() < 0.5;
      const redKind = red ? (rng.next() < 0.6 ? 'materials' : 'existingCard') : null;
      const precheck: PrecheckItem[] = [
        { key: 'photo', label: '照片规格', ok: true, note: `358×441，${rng.int(28, 96)}KB` },
        { key: 'idChecksum', label: '身份证校验', ok: true, note: '校验通过' },
        { key: 'age', label: '年龄', ok: true, note: `${age}周岁（${t.ageMin}–${t.ageMax}周岁）` },
        { key: 'onePerId', label: '一证一卡', ok: true, note: '无有效同类卡' },
        { key: 'existingCard', label: '已有卡片状态', ok: redKind !== 'existingCard', note: redKind === 'existingCard' ? `已有${CAT_NAME[category]} 3101${pad(rng.int(0, 999_999_999), 12)}，状态已挂失，请核实是否补卡` : '无异常卡片' },
        { key: 'guardian', label: '监护人同意', ok: true, note: '已满14周岁，无须' },
        { key: 'materials', label: '证明材料', ok: redKind !== 'materials', note: redKind === 'materials' ? `缺少${category === 4 ? '学生证' : category === 5 ? '居住证明' : '身份证国徽面'}` : '齐全' },
      ];
      const reason = status === 3 ? rng.pick(REJECTS) : null;
      const finalAt = status === 3 ? decidedAt : status === 5 ? completedAt : status === 6 ? cancelledAt : null;
      const purged = finalAt !== null && nowMs - finalAt.getTime() > 30 * DAY_MS;
      const applyNo = `BK${shanghaiDate(created).replaceAll('-', '')}${pad(id, 8)}`;
      const refunded = paid && fee > 0 && (status === 3 || status === 6);
      applications.push([
        id,
        applyNo,
        d.id,
        rng.int(1, v.riders),
        category,
        pii.encrypt(name),
        pii.encrypt(idNo),
        pii.index('citizen', idNo),
        pii.encrypt(phone),
        pii.index('phone', phone),
        address ? pii.encrypt(address) : null,
        address ? `${address.slice(0, address.indexOf('路') + 1)}…` : null,
        birth,
        false,
        category === 4 ? `${d.name}第${rng.int(1, 9)}中学` : null,
        delivery,
        delivery === 1 ? `${d.name}公交卡服务网点` : null,
        fee,
        refunded ? 2 : paid ? 1 : 0,
        status,
        reason,
        cardNo,
        decidedAt && cardNo ? shanghaiDate(decidedAt) : null,
        (status === 4 || status === 5) && delivery === 2 ? `SF${pad(rng.int(0, 999_999_999), 12)}` : null,
        JSON.stringify(precheck),
        precheck.every((p) => p.ok),
        created,
        paidAt,
        decidedAt,
        shippedAt,
        completedAt,
        cancelledAt,
        purged ? new Date(Math.min(nowMs - 1_000, finalAt.getTime() + 30 * DAY_MS + 3_600_000)) : null,
        finalAt ?? shippedAt ?? decidedAt ?? paidAt ?? created,
      ]);
      if (refunded) {
        const when = (status === 3 ? decidedAt : cancelledAt)!;
        refunds.push(['handle', id, 0, d.id, applyNo, fee, status === 3 ? `办卡申请驳回：${reason}` : '乘客取消办卡申请', applyNo, outRefundNo(applyNo), 1, `CHBK${id}`, 1, when, when]);
      }
    }
    const pool: Literal[][] = [];
    let poolId = 0;
    for (const c of CATEGORIES) {
      for (let seq = 1; seq <= perCat; seq++) {
        const no = poolCardNo(c, seq);
        const used = poolState.get(no);
        pool.push([++poolId, no, c, used?.state ?? 0, used?.app ?? null, now]);
      }
    }
    return { applications, pool, refunds };
  },
};
