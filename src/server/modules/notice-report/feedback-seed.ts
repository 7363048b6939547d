import { and, asc, eq, gt, gte, isNotNull, sql } from 'drizzle-orm';
import { bulkInsert } from '../../db/seed/bulk';
import { type FeedbackCategory, type FeedbackStatus, feedbackDueAt } from '../../../shared/api/feedback';
import { DAY_MS, type SeedContext, type SeedGenerator } from '../../db/seed/context';
import type { Rng } from '../../db/seed/rng';
import * as t from '../../db/schema';
import { placeholderImage, storeSealedFiles } from '../../lib/sealed-files';
import { linkSeededRides } from './feedback-service';
import { feedback } from './schema';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** What riders write, by category (second wave §2's five). */
const CONTENT: Record<FeedbackCategory, readonly string[]> = {
  1: ['早高峰等了四十分钟才来一班车，发车间隔太长了', '末班车提前发车，没有赶上', '车辆过站不停，站台上好几个人在等', '线路调整后没有提前通知，绕了很远', '希望增加晚高峰的班次'],
  2: ['司机急刹车，车上老人差点摔倒', '司机开车时打电话，很不安全', '驾驶员态度很差，问路不理人', '司机没等乘客坐稳就起步', '感谢司机师傅帮忙找回了丢失的钱包'],
  3: ['车上空调不制冷，闷热难受', '后门关不严，一路上都在响', '车厢里座椅有破损，划破了裤子', '报站器不报站，坐过了站', '车内地板湿滑，有积水'],
  4: ['刷乘车码扣了两次钱', '乘车码显示支付成功但闸机不响应', '扫码后一直转圈，司机让我投币', '月票已购买但刷码仍然扣费', '退款申请一周了还没到账'],
  5: ['建议站台增加遮雨棚', '希望小程序能显示实时到站信息', '公交卡充值网点太少', '建议在学校附近增设站点'],
};

const REPLIES = [
  '您好，感谢您的反馈。我们已核实该班次情况并责成车队整改，给您带来不便深表歉意。',
  '您好，经核查车辆运行记录，情况属实，已对驾驶员进行教育并纳入考核。',
  '您好，您反映的问题已转交车队维修，车辆已安排检修。感谢您的监督。',
  '您好，经核实为系统重复扣款，款项将在3个工作日内原路退回。',
  '您好，您的建议我们已记录，将在线路优化时综合考虑。',
];
const DECLINES = ['反馈内容与公交服务无关', '重复提交，已在其他反馈中处理', '信息不足且多次联系未果', '不属于本区域管辖，已告知乘客咨询渠道'];

/** The status mix of §2: 60% 已处理, 10% 不处理, 5% 处理中, 25% 未处理 (40 of them overdue). */
function statusPlan(total: number, overdueOpen: number): { status: FeedbackStatus; overdue: boolean }[] {
  const replied = Math.round(total * 0.6);
  const declined = Math.round(total * 0.1);
  const handling = Math.round(total * 0.05);
  const open = total - replied - declined - handling;
  return [
    ...Array.from({ length: replied }, () => ({ status: 1 as const, overdue: false })),
    ...Array.from({ length: declined }, () => ({ status: 2 as const, overdue: false })),
    ...Array.from({ length: handling }, () => ({ status: 3 as const, overdue: false })),
    ...Array.from({ length: open }, (_, i) => ({ status: 0 as const, overdue: i < overdueOpen })),
  ];
}

function shuffle<T>(rng: Rng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** When an item of a status came in: open ones recently enough to be on time (or, the overdue ones, long enough ago). */
function createdFor(rng: Rng, now: Date, p: { status: FeedbackStatus; overdue: boolean }): Date {
  const ago = (ms: number) => new Date(now.getTime() - ms);
  if (p.overdue) return ago(rng.int(6, 20) * DAY_MS + rng.int(0, 23) * HOUR_MS);
  if (p.status === 0 || p.status === 3) {
    for (;;) {
      const at = ago(rng.int(10, 72 * 60) * MINUTE_MS);
      if (feedbackDueAt(at).getTime() > now.getTime() + HOUR_MS) return at;
    }
  }
  return ago(rng.int(4 * 24 * 60, 90 * 24 * 60) * MINUTE_MS);
}

type Ride = { id: number; rideAt: Date; districtId: number; lineCode: string; lineName: string; busName: string; riderId: number };

/** The latest ride before `at` (within two days) in the time-ordered pool, at random among the nearest few. */
function rideBefore(rng: Rng, rides: readonly Ride[], at: number): Ride | null {
  let lo = 0;
  let hi = rides.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rides[mid]!.rideAt.getTime() < at - 10 * MINUTE_MS) lo = mid + 1;
    else hi = mid;
  }
  const i = lo - 1 - rng.int(0, 30);
  const r = i >= 0 ? rides[i] : undefined;
  return r && r.rideAt.getTime() > at - 2 * DAY_MS ? r : null;
}

async function seedFeedback(ctx: SeedContext): Promise<void> {
  const { db, rng, now, pii } = ctx;
  const small = ctx.profile.name === 'small';
  const total = small ? 8 : 3_000;
  const overdueOpen = small ? 1 : 40;
  const riders = await db.select({ id: t.riders.id, districtId: t.riders.districtId }).from(t.riders).orderBy(asc(t.riders.id)).limit(small ? 200 : 20_000);
  if (!riders.length) return;
  const lines = await db
    .select({ code: t.busLines.code, name: t.busLines.name, districtId: t.lineVersions.districtId })
    .from(t.busLines)
    .innerJoin(t.lineVersions, eq(t.lineVersions.id, t.busLines.versionId))
    .where(eq(t.lineVersions.status, 3))
    .orderBy(asc(t.busLines.id));
  // Handlers: the desk (客服坐席组) and the district managers, else the super user.
  const staff = await db
    .select({ id: t.users.id, districtId: t.users.districtId, login: t.users.login, group: t.roleGroups.name })
    .from(t.users)
    .leftJoin(t.roleGroups, eq(t.roleGroups.id, t.users.groupId))
    .orderBy(asc(t.users.id));
  const admin = staff.find((u) => u.login === 'admin') ?? staff[0];
  if (!admin) return;
  const handlersIn = (districtId: number) => {
    const own = staff.filter((u) => u.districtId === districtId && (u.group === '客服坐席组' || u.group === '区域管理员组'));
    return own.length ? own : [admin];
  };
  // The rides of riders' own cards in the raw window (the last 30 days), oldest first.
  const rides: Ride[] = (
    await db
      .select({ id: t.rideRecords.id, rideAt: t.rideRecords.rideAt, districtId: t.rideRecords.districtId, lineCode: t.rideRecords.lineCode, lineName: t.rideRecords.lineName, busName: t.rideRecords.busName, riderId: t.busCards.riderId })
      .from(t.rideRecords)
      .innerJoin(t.busCards, eq(t.busCards.cardNo, t.rideRecords.cardNo))
      .where(and(isNotNull(t.busCards.riderId), gte(t.rideRecords.rideAt, new Date(now.getTime() - 31 * DAY_MS)), small ? undefined : sql`${t.rideRecords.id} % 3 = 0`))
      .orderBy(asc(t.rideRecords.rideAt))
      .limit(small ? 2_000 : 20_000)
  ).map((r) => ({ ...r, riderId: r.riderId! }));

  // The small profile (every test server): one of each, two open on time, one overdue.
  const plan = small
    ? ([1, 1, 1, 2, 3, 0, 0].map((status) => ({ status, overdue: false })) as { status: FeedbackStatus; overdue: boolean }[]).concat([{ status: 0, overdue: true }])
    : shuffle(rng, statusPlan(total, overdueOpen));
  const ridersIn = new Map<number, typeof riders>();
  for (const r of riders) ridersIn.set(r.districtId, [...(ridersIn.get(r.districtId) ?? []), r]);
  const districtOf = new Map(riders.map((r) => [r.id, r.districtId]));
  const rows: (typeof feedback.$inferInsert)[] = [];
  for (const p of plan) {
    const createdAt = createdFor(rng, now, p);
    const category = small ? rng.pick([1, 2, 3, 4] as const) : rng.pick([1, 1, 2, 2, 3, 4, 4, 5] as const);
    // Most complaints come from a ride the rider just took; the rest name a line, or nothing.
    const ride = category !== 5 && rng.next() < 0.8 ? rideBefore(rng, rides, createdAt.getTime()) : null;
    const line = ride ? null : lines.length && category !== 5 ? rng.pick(lines) : null;
    const rider = ride ? { id: ride.riderId } : rng.pick((line && ridersIn.get(line.districtId)) || riders);
    const districtId = ride?.districtId ?? line?.districtId ?? districtOf.get(rider.id) ?? riders[0]!.districtId;
    const occurredAt = ride ? new Date(ride.rideAt.getTime() + rng.int(-5, 15) * MINUTE_MS) : line ? new Date(createdAt.getTime() - rng.int(30, 600) * MINUTE_MS) : null;
    const handler = p.status === 0 ? null : rng.pick(handlersIn(districtId)).id;
    const repliedAt = p.status === 1 ? new Date(Math.min(createdAt.getTime() + rng.int(1, 70) * HOUR_MS, now.getTime() - MINUTE_MS)) : null;
    rows.push({
      districtId,
      riderId: rider.id,
      contactPhoneEnc: rng.next() < 0.6 ? pii.encrypt(`13${rng.int(0, 9)}${String(rng.int(0, 99_999_999)).padStart(8, '0')}`) : null,
      category,
      content: rng.pick(CONTENT[category]),
      imageCount: rng.next() < 0.15 ? rng.int(1, 3) : 0,
      lineCode: ride?.lineCode ?? line?.code ?? null,
      lineName: ride?.lineName ?? line?.name ?? null,
      busNo: ride?.busName ?? (line ? `沪B-${line.code.padStart(3, '0')}0${rng.int(1, 3)}` : null),
      occurredAt,
      status: p.status,
      handlerId: handler,
      reply: p.status === 1 ? rng.pick(REPLIES) : null,
      repliedAt,
      closeReason: p.status === 2 ? rng.pick(DECLINES) : null,
      dueAt: feedbackDueAt(createdAt),
      createdAt,
      updatedAt: repliedAt ?? createdAt,
    });
  }
  // ★ 同车同时段: a few incidents several riders wrote about (an open one of each, so the cluster shows in 未处理).
  const incidents = rows.filter((r) => r.status === 0 && r.busNo && r.occurredAt && r.dueAt.getTime() > now.getTime()).slice(0, small ? 1 : 12);
  // Their riders' items take the place of as many plain open ones, so the totals stay §2's.
  const extras = incidents.map(() => (small ? 1 : rng.int(2, 4)));
  if (!small) {
    const heads = new Set(incidents);
    let drop = extras.reduce((a, b) => a + b, 0);
    for (let i = rows.length - 1; i >= 0 && drop > 0; i--) {
      const r = rows[i]!;
      if (r.status === 0 && !heads.has(r) && r.dueAt.getTime() > now.getTime()) {
        rows.splice(i, 1);
        drop--;
      }
    }
  }
  for (const [n, head] of incidents.entries()) {
    const extra = extras[n]!;
    const peers = ridersIn.get(head.districtId) ?? [];
    for (let k = 0; k < extra; k++) {
      const createdAt = new Date(Math.min(head.createdAt.getTime() + rng.int(5, 90) * MINUTE_MS, now.getTime() - MINUTE_MS));
      rows.push({ ...head, riderId: rng.pick(peers.length ? peers : riders).id, contactPhoneEnc: null, imageCount: 0, occurredAt: new Date(head.occurredAt!.getTime() + rng.int(-40, 40) * MINUTE_MS), createdAt, updatedAt: createdAt, dueAt: feedbackDueAt(createdAt) });
    }
  }
  if (small) rows.forEach((r, i) => (r.imageCount = i < 2 ? i + 1 : 0));
  // One bulk load (COPY on PGlite), then the new ids in load order: the table was empty before.
  const [before] = await db.select({ max: sql<number>`coalesce(max(${feedback.id}), 0)`.mapWith(Number) }).from(feedback);
  await bulkInsert(
    db,
    'feedback',
    ['district_id', 'rider_id', 'contact_phone_enc', 'category', 'content', 'image_count', 'line_code', 'line_name', 'bus_no', 'occurred_at', 'status', 'handler_id', 'reply', 'replied_at', 'close_reason', 'due_at', 'created_at', 'updated_at'],
    rows.map((r) => [
      r.districtId,
      r.riderId,
      r.contactPhoneEnc ?? null,
      r.category,
      r.content,
      r.imageCount ?? 0,
      r.lineCode ?? null,
      r.lineName ?? null,
      r.busNo ?? null,
      r.occurredAt ? r.occurredAt.toISOString() : null,
      r.status ?? 0,
      r.handlerId ?? null,
      r.reply ?? null,
      r.repliedAt ? r.repliedAt.toISOString() : null,
      r.closeReason ?? null,
      r.dueAt.toISOString(),
      r.createdAt.toISOString(),
      r.updatedAt.toISOString(),
    ]),
  );
  const ids = (await db.select({ id: feedback.id }).from(feedback).where(gt(feedback.id, before?.max ?? 0)).orderBy(asc(feedback.id))).map((r) => r.id);
  // Their pictures, sealed (placeholders: no real photos in the demo).
  const files = rows.flatMap((r, i) =>
    Array.from({ length: r.imageCount ?? 0 }, (_, k) => {
      const img = placeholderImage(`反馈图片${k + 1}`, 480, 360, '#fef3c7');
      return { kind: 'feedback' as const, refId: ids[i]!, label: `图片${k + 1}`, ...img };
    }),
  );
  for (let i = 0; i < files.length; i += 300) await storeSealedFiles(db, pii, files.slice(i, i + 300), now);
  await linkSeededRides(db, new Date(now.getTime() - 32 * DAY_MS));
}

/** Demo: 3,000 riders' feedback over 90 days on real lines and rides (a handful in the small profile). */
export const feedbackDemoSeed: SeedGenerator[] = [{ name: 'feedback', run: seedFeedback }];
