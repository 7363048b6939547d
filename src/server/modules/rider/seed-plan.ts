import { citizenCheckChar } from '../../../shared/domain/citizen-id';
import type { PlanInput, SeedPlan } from '../../db/seed/ahead';
import type { Rows } from '../../db/seed/copy-text';
import { demoDistricts } from '../../db/seed/city';
import type { Rng } from '../../db/seed/rng';

/**
 * Demo riders and cards, in bulk (COPY, db/seed/bulk.ts): ~50,000 riders and ~200,000 cards
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

const SURNAME_LIST = [...SURNAMES];
const GIVEN_LIST = [...GIVEN];
const name = (rng: Rng) => rng.pick(SURNAME_LIST) + Array.from({ length: rng.next() < 0.6 ? 2 : 1 }, () => rng.pick(GIVEN_LIST)).join('');

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

export const RIDER_COLUMNS = ['id', 'district_id', 'phone_enc', 'phone_idx', 'citizen_enc', 'citizen_idx', 'name_enc', 'real_name', 'state', 'abnormal_reason', 'created_at', 'updated_at'] as const;
export const CARD_COLUMNS = ['card_no', 'district_id', 'state', 'category', 'rider_id', 'balance', 'issued_at', 'updated_at'] as const;

/**
 * The riders (ids 1…n, as loaded) and their cards, from the plan's input alone: made on the seed's
 * worker at a first start (db/seed/ahead.ts), in place otherwise.
 */
export const ridersAndCardsPlan: SeedPlan<{ riders: Rows; cards: Rows }> = {
  name: 'busUser/riders-and-cards',
  make({ rng, now, profile, pii }: PlanInput) {
    const districts = demoDistricts(profile.districts).map((d) => d.id);
    const [riderCount, cardCount] = profile.name === 'demo' ? [50_000, 200_000] : [300, 1_000];
    const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000);
    const phones = new Set<string>();
    const riders: { id: number; districtId: number; phone: string; citizen: string | null; name: string | null; birthYear: number; state: number; createdAt: Date }[] = [];
    for (let i = 0; i < riderCount; i++) {
      let phone: string;
      do phone = `1${rng.pick(['3', '5', '7', '8', '9'])}${pad(rng.int(0, 999_999_999), 9)}`;
      while (phones.has(phone));
      phones.add(phone);
      // Riders span the ages the cards need: a quarter seniors, a tenth students.
      const bucket = rng.next();
      const birthYear = bucket < 0.25 ? rng.int(1935, 1960) : bucket < 0.35 ? rng.int(2006, 2016) : rng.int(1961, 2005);
      const verified = rng.next() < 0.8;
      const citizen = verified ? citizenId(rng, birthYear) : null;
      const createdAt = at(rng.int(1, 900));
      riders.push({ id: i + 1, districtId: rng.pick(districts), phone, citizen, name: verified ? name(rng) : null, birthYear, state: rng.next() < 0.02 ? 0 : 1, createdAt });
    }
    // Every district has abnormal riders to review (2 % alone leaves a small city's district with one or none).
    for (const d of districts) for (const r of riders.filter((x) => x.districtId === d).slice(0, 2)) r.state = 0;
    const reasons = riders.map((r) => (r.state === 0 ? rng.pick(['同一身份证绑定多个账号', '短时间内频繁退款', '异地频繁刷卡', '实名信息与卡片不符']) : null));
    // Riders by birth year, to give a senior card to a senior and a student card to a student.
    const verifiedByAge = (from: number, to: number) => riders.filter((r) => r.citizen && r.birthYear >= from && r.birthYear <= to);
    const pools = new Map(CATEGORY_MIX.filter((c) => c[2]).map(([category, , years]) => [category, verifiedByAge(years![0], years![1])]));

    const cards: Rows[number][] = [];
    for (let i = 0; i < cardCount; i++) {
      const category = weighted(rng, CATEGORY_MIX);
      const pool = pools.get(category);
      const issued = at(rng.int(1, 2_000));
      const holder = pool?.length ? rng.pick(pool) : null;
      cards.push([
        `3101${pad(20_000_000 + i * 37 + rng.int(0, 36), 12)}`,
        // A held card belongs to its holder's district: the desk of that district answers for both.
        holder ? holder.districtId : rng.pick(districts),
        weighted(rng, STATE_MIX),
        category,
        holder?.id ?? null,
        rng.next() < 0.1 ? 0 : rng.int(0, 30_000),
        issued,
        issued,
      ]);
    }
    // Sealed last, after every draw: encryption takes no randomness from the stream.
    const rows = riders.map((r, i) => [
      r.id,
      r.districtId,
      pii.encrypt(r.phone),
      pii.index('phone', r.phone),
      r.citizen ? pii.encrypt(r.citizen) : null,
      r.citizen ? pii.index('citizen', r.citizen) : null,
      r.name ? pii.encrypt(r.name) : null,
      r.citizen ? 1 : 0,
      r.state,
      reasons[i] ?? null,
      r.createdAt,
      r.createdAt,
    ]);
    return { riders: rows, cards };
  },
};

