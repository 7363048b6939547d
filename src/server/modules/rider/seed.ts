import { asc } from 'drizzle-orm';
import { citizenCheckChar } from '../../../shared/domain/citizen-id';
import { bulkInsert } from '../../db/seed/bulk';
import * as t from '../../db/schema';
import type { SeedContext, SeedGenerator } from '../../db/seed/context';
import type { Rng } from '../../db/seed/rng';

/**
 * Demo riders and cards, in bulk (literal multi-row inserts, db/seed/bulk.ts): ~50,000 riders and ~200,000 cards
 * with every state and category; citizen ids valid by the spec's checksum and consistent with the
 * card (seniors born 1935–1960, students 2006–2016). Deterministic from SEED; the small test
 * profile keeps a few hundred.
 */

const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤';
const GIVEN = '伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红建国志文辉斌鹏宇浩凯俊峰晨欣怡佳琪雪梅海燕丹宁颖雯婷倩慧子涵梓轩浩然思远一鸣雨桐';
/** Shanghai's district codes (GB/T 2260), the region part of a citizen id. */
const REGIONS = ['310101', '310104', '310105', '310106', '310107', '310109', '310110', '310112', '310113', '310114', '310115', '310116', '310117', '310118', '310120', '310151'];

const pad = (n: number, w: number) => String(n).padStart(w, '0');

export function citizenId(rng: Rng, birthYear: number): string {
  const month = rng.int(1, 12);
  const day = rng.int(1, new Date(Date.UTC(birthYear, month, 0)).getUTCDate());
  const first17 = `${rng.pick(REGIONS)}${birthYear}${pad(month, 2)}${pad(day, 2)}${pad(rng.int(1, 999), 3)}`;
  return first17 + citizenCheckChar(first17);
}

const name = (rng: Rng) => rng.pick([...SURNAMES]) + Array.from({ length: rng.next() < 0.6 ? 2 : 1 }, () => rng.pick([...GIVEN])).join('');

/** How many cards of each category (weights) and the birth years its holder can have. */
const CATEGORY_MIX: [category: number, weight: number, years: [number, number] | null][] = [
  [1, 10, null],
  [2, 10, [1965, 2004]],
  [3, 25, null],
  [4, 10, [2006, 2016]],
  [5, 15, [1935, 1960]],
  [6, 30, [1960, 2004]],
];
/** Most cards are sold and in use; every other state is present. */
const STATE_MIX: [state: number, weight: number][] = [[1, 80], [0, 3], [2, 2], [3, 3], [4, 2], [5, 1], [6, 2], [7, 1], [8, 1], [9, 2], [10, 2], [11, 1]];

function weighted<T>(rng: Rng, mix: readonly (readonly [T, number, ...unknown[]])[]): T {
  const total = mix.reduce((a, m) => a + m[1], 0);
  let r = rng.next() * total;
  for (const m of mix) if ((r -= m[1]) < 0) return m[0];
  return mix[0]![0];
}

export async function seedRidersAndCards({ db, rng, now, profile, pii }: SeedContext) {
  const districts = (await db.select({ id: t.districts.id }).from(t.districts).orderBy(asc(t.districts.id))).map((d) => d.id);
  const [riderCount, cardCount] = profile.name === 'demo' ? [50_000, 200_000] : [300, 1_000];
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000);
  const phones = new Set<string>();
  const riders: (typeof t.riders.$inferInsert)[] = [];
  const birthYears: number[] = [];
  for (let i = 0; i < riderCount; i++) {
    let phone: string;
    do phone = `1${rng.pick(['3', '5', '7', '8', '9'])}${pad(rng.int(0, 999_999_999), 9)}`;
    while (phones.has(phone));
    phones.add(phone);
    // Riders span the ages the cards need: a quarter seniors, a tenth students.
    const bucket = rng.next();
    const year = bucket < 0.25 ? rng.int(1935, 1960) : bucket < 0.35 ? rng.int(2006, 2016) : rng.int(1961, 2005);
    birthYears.push(year);
    const verified = rng.next() < 0.8;
    const id = verified ? citizenId(rng, year) : null;
    const created = at(rng.int(1, 900));
    riders.push({
      districtId: rng.pick(districts),
      phoneEnc: pii.encrypt(phone),
      phoneIdx: pii.index('phone', phone),
      citizenEnc: id ? pii.encrypt(id) : null,
      citizenIdx: id ? pii.index('citizen', id) : null,
      nameEnc: verified ? pii.encrypt(name(rng)) : null,
      realName: verified ? 1 : 0,
      state: rng.next() < 0.02 ? 0 : 1,
      abnormalReason: null,
      createdAt: created,
      updatedAt: created,
    });
  }
  // Every district has abnormal riders to review (2 % alone leaves a small city's district with one or none).
  for (const d of districts) for (const r of riders.filter((x) => x.districtId === d).slice(0, 2)) r.state = 0;
  for (const r of riders) if (r.state === 0) r.abnormalReason = rng.pick(['同一身份证绑定多个账号', '短时间内频繁退款', '异地频繁刷卡', '实名信息与卡片不符']);
  await bulkInsert(
    db,
    'riders',
    ['district_id', 'phone_enc', 'phone_idx', 'citizen_enc', 'citizen_idx', 'name_enc', 'real_name', 'state', 'abnormal_reason', 'created_at', 'updated_at'],
    riders.map((r) => [r.districtId, r.phoneEnc, r.phoneIdx, r.citizenEnc, r.citizenIdx, r.nameEnc, r.realName, r.state, r.abnormalReason, r.createdAt, r.updatedAt]),
  );
  const riderIds = (await db.select({ id: t.riders.id }).from(t.riders).orderBy(asc(t.riders.id))).map((r) => r.id);
  // Inserted in order: the i-th id is the i-th planned rider.
  const districtOf = new Map(riderIds.map((id, i) => [id, riders[i]!.districtId]));
  // Riders by birth year, to give a senior card to a senior and a student card to a student.
  const verifiedByAge = (from: number, to: number) => riderIds.filter((_, i) => riders[i]!.realName === 1 && birthYears[i]! >= from && birthYears[i]! <= to);
  const pools = new Map(CATEGORY_MIX.filter((c) => c[2]).map(([category, , years]) => [category, verifiedByAge(years![0], years![1])]));

  const cards: (typeof t.busCards.$inferInsert)[] = [];
  for (let i = 0; i < cardCount; i++) {
    const category = weighted(rng, CATEGORY_MIX);
    const pool = pools.get(category);
    const issued = at(rng.int(1, 2_000));
    const riderId = pool?.length ? rng.pick(pool) : null;
    cards.push({
      cardNo: `3101${pad(20_000_000 + i * 37 + rng.int(0, 36), 12)}`,
      // A held card belongs to its holder's district: the desk of that district answers for both.
      districtId: riderId ? districtOf.get(riderId)! : rng.pick(districts),
      state: weighted(rng, STATE_MIX),
      category,
      riderId,
      balance: rng.next() < 0.1 ? 0 : rng.int(0, 30_000),
      issuedAt: issued,
      updatedAt: issued,
    });
  }
  await bulkInsert(
    db,
    'bus_cards',
    ['card_no', 'district_id', 'state', 'category', 'rider_id', 'balance', 'issued_at', 'updated_at'],
    cards.map((c) => [c.cardNo, c.districtId, c.state, c.category, c.riderId, c.balance, c.issuedAt, c.updatedAt]),
  );
}

export const riderDemoSeed: SeedGenerator[] = [{ name: 'riders-and-cards', run: seedRidersAndCards }];
