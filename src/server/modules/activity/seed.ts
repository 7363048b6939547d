import { asc, sql } from 'drizzle-orm';
import type { ActivityRule } from '../../../shared/api/activity';
import { addDays, shanghaiDate, shanghaiMidnight } from '../../../shared/domain/time';
import { DAY_MS, type SeedContext, type SeedGenerator } from '../../db/seed/context';
import * as t from '../../db/schema';
import { activities, activityLimits } from './schema';

/**
 * 活动 (second wave §13): 14 activities in every derived status (2 进行中, 3 未开始, 1 已暂停, 6 已结束,
 * 1 预算耗尽, 1 never enabled), 4 limits, usages on ≈18% of the last 30 days' rides (≈30% of the
 * paid ones: a free ride — a monthly ticket, a staff card — has nothing to discount; ≈7,500 in the
 * demo, by one `insert … select` per activity over ride_records, so the first start stays fast; the
 * small profile keeps the last two days, a few dozen), each activity's used amount their sum, and
 * its operate record: the ACTIVITY_* rows of the system log its life so far would have written
 * (≈150 in the demo) — sys_log by its own operation types, as money_refunds is seeded by kind.
 */

interface Plan {
  name: string;
  /** Index into the seeded districts; null: city-wide. */
  district: 0 | 1 | 2 | null;
  type: 1 | 2 | 3 | 4;
  rule: ActivityRule;
  lines?: number;
  cardCategories?: number[];
  payChannels?: string[];
  /** Days from now (negative: past). */
  start: number;
  end: number;
  enabled: boolean;
  neverEnabled?: boolean;
  /** Ended by an operator this many days ago. */
  endedDaysAgo?: number;
  budgetYuan: number;
  priority: number;
  stackable: boolean;
  /** The hash buckets (of 100) of the area's paid rides in its window that it discounted (disjoint where two could meet one ride). */
  share?: [number, number];
  exhausted?: boolean;
}

const PLANS: Plan[] = [
  // 进行中
  { name: '工作日早高峰8折', district: 1, type: 1, rule: { rate: 800 }, start: -20, end: 40, enabled: true, budgetYuan: 60_000, priority: 10, stackable: false, share: [30, 34] },
  // City-wide (the super user's): most of the usages, on every district's rides.
  { name: '90分钟换乘优惠', district: null, type: 3, rule: { windowMin: 90, maxFen: 200, perDay: 2 }, start: -29, end: 60, enabled: true, budgetYuan: 40_000, priority: 5, stackable: true, share: [0, 30] },
  // 未开始
  { name: '元旦出行9折', district: 0, type: 1, rule: { rate: 900 }, start: 24, end: 30, enabled: true, budgetYuan: 20_000, priority: 8, stackable: false },
  { name: '学生卡月累计阶梯优惠', district: 1, type: 2, rule: { tiers: [{ fromFen: 5_000, rate: 900 }, { fromFen: 10_000, rate: 700 }, { fromFen: 15_000, rate: 500 }] }, cardCategories: [4], start: 10, end: 100, enabled: true, budgetYuan: 30_000, priority: 6, stackable: true },
  { name: '数字人民币次日返还', district: 1, type: 4, rule: { rebateRate: 500 }, payChannels: ['数字人民币'], start: 3, end: 33, enabled: true, budgetYuan: 10_000, priority: 3, stackable: true },
  // 已暂停 (its 恢复 meets the morning-peak activity: the overlap refusal, shown on purpose)
  { name: '夜班线路5折', district: 1, type: 1, rule: { rate: 500 }, lines: 3, start: -12, end: 50, enabled: false, budgetYuan: 8_000, priority: 9, stackable: false },
  // 已结束: four ran out their window, two were ended by an operator
  { name: '国庆假期8.5折', district: 0, type: 1, rule: { rate: 850 }, start: -68, end: -60, enabled: true, budgetYuan: 15_000, priority: 7, stackable: false },
  { name: '十一月换乘返还', district: 2, type: 4, rule: { rebateRate: 300 }, start: -29, end: -8, enabled: true, budgetYuan: 12_000, priority: 4, stackable: false, share: [30, 34] },
  { name: '老年卡月累计阶梯', district: 1, type: 2, rule: { tiers: [{ fromFen: 3_000, rate: 900 }, { fromFen: 8_000, rate: 600 }] }, cardCategories: [5], start: -120, end: -90, enabled: true, budgetYuan: 9_000, priority: 2, stackable: true },
  { name: '银联闪付立减', district: 0, type: 1, rule: { rate: 700 }, payChannels: ['银联闪付'], start: -45, end: 15, enabled: true, endedDaysAgo: 12, budgetYuan: 5_000, priority: 6, stackable: true, share: [30, 32] },
  { name: '全市公交周活动', district: null, type: 1, rule: { rate: 950 }, start: -200, end: -193, enabled: true, budgetYuan: 50_000, priority: 1, stackable: true },
  { name: '夏季夜间换乘', district: 1, type: 3, rule: { windowMin: 60, maxFen: 100, perDay: 0 }, start: -160, end: 20, enabled: true, endedDaysAgo: 90, budgetYuan: 6_000, priority: 4, stackable: true },
  // 预算耗尽
  { name: '老年卡次日返还', district: 0, type: 4, rule: { rebateRate: 200 }, cardCategories: [5], start: -15, end: 45, enabled: true, budgetYuan: 300, priority: 2, stackable: true, share: [32, 42], exhausted: true },
  // never enabled (a draft to look at first)
  { name: '周末亲子出行8.5折', district: 1, type: 1, rule: { rate: 850 }, start: 14, end: 74, enabled: false, neverEnabled: true, budgetYuan: 10_000, priority: 5, stackable: false },
];

/** The discount a ride got in SQL, as rules.ts computes it (type 3 counted as a transfer at its cap). */
const discountSql = (p: Plan) => {
  const r = p.rule;
  if (p.type === 1) return sql.raw(`r.amount - floor(r.amount * ${r.rate} / 1000)::int`);
  if (p.type === 2) return sql.raw(`r.amount - floor(r.amount * ${r.tiers![0]!.rate} / 1000)::int`);
  if (p.type === 3) return sql.raw(`least(r.amount, ${r.maxFen})`);
  return sql.raw(`floor(r.amount * ${r.rebateRate} / 1000)::int`);
};

async function seedActivities(ctx: SeedContext): Promise<void> {
  const { db, now, profile, rng } = ctx;
  const small = profile.name === 'small';
  const districts = await db.select({ id: t.districts.id }).from(t.districts).orderBy(asc(t.districts.sort));
  const staff = await db.select({ id: t.users.id, login: t.users.login, districtId: t.users.districtId }).from(t.users).where(sql`${t.users.login} in ('admin', 'manager')`);
  const admin = staff.find((s) => s.login === 'admin') ?? null;
  const manager = staff.find((s) => s.login === 'manager') ?? admin;
  const districtOf = (i: Plan['district']) => (i === null ? null : (districts[Math.min(i, districts.length - 1)]?.id ?? null));
  const at = (days: number) => new Date(now.getTime() + days * DAY_MS);
  // Whole Shanghai days, as the form sets them.
  const dayAt = (days: number) => shanghaiMidnight(addDays(shanghaiDate(now), days));

  const lineRows = (await db.execute(sql`select district_id, line_code from ride_records group by 1, 2 order by 1, 2`)) as unknown as { rows: { district_id: number; line_code: string }[] };
  const linesOf = (districtId: number | null, n: number) => lineRows.rows.filter((r) => r.district_id === districtId).slice(0, n).map((r) => r.line_code);

  const rows = PLANS.map((p, i) => {
    const districtId = districtOf(p.district);
    const startAt = dayAt(p.start);
    const created = new Date(Math.min(startAt.getTime(), now.getTime()) - (3 + (i % 5)) * DAY_MS);
    return {
      districtId,
      name: p.name,
      type: p.type,
      rule: p.rule,
      lineCodes: p.lines ? linesOf(districtId, p.lines) : [],
      cardCategories: p.cardCategories ?? [],
      payChannels: p.payChannels ?? [],
      startAt,
      endAt: dayAt(p.end),
      enabled: p.enabled,
      enabledAt: p.neverEnabled ? null : created,
      endedAt: p.endedDaysAgo ? at(-p.endedDaysAgo) : null,
      budgetFen: p.budgetYuan * 100,
      usedFen: 0,
      priority: p.priority,
      stackable: p.stackable,
      createdBy: (districtId === null ? admin : manager)?.id ?? null,
      createdAt: created,
      updatedAt: created,
    };
  });
  const made = await db.insert(activities).values(rows).returning();

  // Usages: the rides of each activity's area, window and scope in its hash buckets, paid and not free.
  const since = small ? at(-2) : at(-30);
  for (const [i, p] of PLANS.entries()) {
    const a = made[i]!;
    if (!p.share) continue;
    const until = new Date(Math.min(a.endAt.getTime(), (a.endedAt ?? now).getTime(), now.getTime()));
    const from = new Date(Math.max(a.startAt.getTime(), since.getTime()));
    if (from >= until) continue;
    const scope = [
      a.districtId === null ? sql`true` : sql`r.district_id = ${a.districtId}`,
      a.lineCodes.length ? sql`r.line_code in (${sql.join(a.lineCodes.map((l) => sql`${l}`), sql`, `)})` : sql`true`,
      a.cardCategories.length ? sql`r.card_category in (${sql.join(a.cardCategories.map((c) => sql`${c}`), sql`, `)})` : sql`true`,
      a.payChannels.length ? sql`r.pay_channel in (${sql.join(a.payChannels.map((c) => sql`${c}`), sql`, `)})` : sql`true`,
    ];
    await db.execute(sql`insert into activity_usages (activity_id, ride_record_id, ride_at, district_id, card_no, rider_id, line_code, amount_fen, discount_fen, created_at)
      select ${a.id}, r.id, r.ride_at, r.district_id, r.card_no, c.rider_id, r.line_code, r.amount, ${discountSql(p)}, r.ride_at
      from ride_records r left join bus_cards c on c.card_no = r.card_no
      where r.ride_at >= ${from} and r.ride_at < ${until} and r.pay_status = 1 and r.amount > 0
        and mod(abs(hashtext(r.order_no)), 100) >= ${p.share[0]} and mod(abs(hashtext(r.order_no)), 100) < ${p.share[1]}
        and ${sql.join(scope, sql` and `)} and ${discountSql(p)} > 0`);
  }
  // What each used; the exhausted one's budget is exactly that, the others hold it with room.
  await db.execute(sql`update activities a set used_fen = s.used from (select activity_id, sum(discount_fen)::bigint as used from activity_usages group by 1) s where s.activity_id = a.id`);
  await db.execute(sql`update activities set budget_fen = greatest(used_fen, 1), used_fen = greatest(used_fen, 1) where name = '老年卡次日返还'`);
  await db.execute(sql`update activities set budget_fen = used_fen * 3 where used_fen * 3 > budget_fen and name <> '老年卡次日返还'`);

  // 4 limits: two over every activity of an area, one on the (city-wide) transfer activity, one switched off.
  const [morning, transfer] = [made[0]!, made[1]!];
  await db.insert(activityLimits).values([
    { districtId: morning.districtId, activityId: null, dimension: 'card', period: 'day', maxTimes: 4, maxFen: 0, enabled: true, createdAt: at(-30), updatedAt: at(-30) },
    { districtId: districtOf(0), activityId: null, dimension: 'rider', period: 'month', maxTimes: 0, maxFen: 3_000, enabled: true, createdAt: at(-30), updatedAt: at(-30) },
    { districtId: transfer.districtId, activityId: transfer.id, dimension: 'card', period: 'day', maxTimes: 2, maxFen: 400, enabled: true, createdAt: at(-25), updatedAt: at(-25) },
    { districtId: morning.districtId, activityId: morning.id, dimension: 'rider', period: 'day', maxTimes: 0, maxFen: 500, enabled: false, createdAt: at(-20), updatedAt: at(-10) },
  ]);

  // The operate record each life would have written.
  const used = await db.select().from(activities).orderBy(asc(activities.id));
  type LogRow = typeof t.sysLog.$inferInsert;
  const log: LogRow[] = [];
  const snap = (a: (typeof used)[number]) => ({
    name: a.name,
    type: a.type,
    rule: a.rule,
    lineCodes: a.lineCodes,
    cardCategories: a.cardCategories,
    payChannels: a.payChannels,
    startAt: a.startAt.toISOString(),
    endAt: a.endAt.toISOString(),
    budgetFen: a.budgetFen,
    priority: a.priority,
    stackable: a.stackable,
    enabled: a.enabledAt !== null,
  });
  const row = (a: (typeof used)[number], type: string, when: Date, summary: string, before: unknown, after: unknown): LogRow => {
    const who = a.districtId === null ? admin : manager;
    return { operatorId: who?.id ?? null, operatorLogin: who?.login ?? 'system', operationType: type, target: `activity/${a.id}`, summary, before: before as object, after: after as object, ip: '10.0.0.8', result: 1, districtId: who?.districtId ?? null, targetDistrictId: a.districtId, createdAt: when };
  };
  const REASONS = ['客流异常，先暂停观察', '预算消耗过快', '线路临时调整', '配合运营检查', '恢复正常运营'];
  for (const a of used) {
    const s = snap(a);
    log.push(row(a, 'ACTIVITY_SAVE', a.createdAt, `新增活动「${a.name}」`, null, s));
    // The demo's fuller histories: edits before the start, pauses and resumes while running.
    const edits = small ? 0 : rng.int(3, 6);
    for (let k = 0; k < edits; k++) {
      const when = new Date(a.createdAt.getTime() + (k + 1) * 3_600_000);
      const older = { ...s, name: k === 0 ? `${a.name}（草稿）` : a.name, priority: Math.max(0, a.priority - 1), endAt: new Date(a.endAt.getTime() - DAY_MS).toISOString() };
      log.push(row(a, 'ACTIVITY_SAVE', when, `编辑活动「${a.name}」`, older, s));
    }
    const started = a.enabledAt !== null && a.startAt.getTime() < now.getTime();
    const pauses = small || !started ? 0 : rng.int(1, 4);
    for (let k = 0; k < pauses; k++) {
      const when = new Date(a.startAt.getTime() + (k + 1) * DAY_MS + rng.int(0, 600) * 60_000);
      if (when.getTime() >= now.getTime() - 2 * DAY_MS) break;
      const reason = REASONS[rng.int(0, REASONS.length - 2)]!;
      log.push(row(a, 'ACTIVITY_PAUSE', when, `暂停活动「${a.name}」：${reason}`, { status: 1, enabled: true }, { status: 2, enabled: false, reason }));
      log.push(row(a, 'ACTIVITY_RESUME', new Date(when.getTime() + 2 * 3_600_000), `恢复活动「${a.name}」：${REASONS[4]}`, { status: 2, enabled: false }, { status: 1, enabled: true, reason: REASONS[4] }));
    }
    if (!a.enabled && a.enabledAt !== null) log.push(row(a, 'ACTIVITY_PAUSE', at(-1), `暂停活动「${a.name}」：${REASONS[0]}`, { status: 1, enabled: true }, { status: 2, enabled: false, reason: REASONS[0] }));
    if (a.endedAt) log.push(row(a, 'ACTIVITY_END', a.endedAt, `结束活动「${a.name}」：活动效果未达预期`, { status: 1, enabled: true }, { status: 3, enabled: true, reason: '活动效果未达预期' }));
    if (!small && a.usedFen > 0 && a.usedFen < a.budgetFen) {
      const when = new Date(Math.max(a.createdAt.getTime(), a.startAt.getTime()) + 5 * DAY_MS);
      if (when.getTime() < now.getTime()) log.push(row(a, 'ACTIVITY_BUDGET', when, `追加活动「${a.name}」预算`, { budgetFen: Math.round(a.budgetFen * 0.6) }, { budgetFen: a.budgetFen }));
    }
  }
  log.sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime());
  if (log.length) await db.insert(t.sysLog).values(log);
}

export const activityDemoSeed: SeedGenerator[] = [{ name: 'activities', run: seedActivities }];
