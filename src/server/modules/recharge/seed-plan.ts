import type { PlanInput, SeedPlan } from '../../db/seed/ahead';
import type { Rows } from '../../db/seed/copy-text';
import type { Rng } from '../../db/seed/rng';

/**
 * The demo's NFC top-ups (second-wave §3, §13), drawn without the database: 20,000 orders over 60
 * days, 96% 写卡成功, 2% 写卡失败 (half of them refunded), 1% unpaid and closed, 0.3% 可疑 (60, 10 of
 * them older than 24 h), a few waiting, writing or unpaid now; amounts 10–200 元, most often 50.
 * Each row's `card_id` is a slot (0…) the load maps onto a card in use (seed.ts), so the plan
 * needs no card of the rider module's. The small profile keeps two of each state.
 */

export const ORDER_COLUMNS = [
  'id',
  'order_no',
  'district_id',
  'card_id',
  'card_no',
  'card_inner_no',
  'card_category',
  'amount',
  'pay_amount',
  'pay_channel',
  'pay_status',
  'write_state',
  'bef_bal',
  'aft_bal',
  'device_model',
  'txn_seq',
  'tac',
  'fail_reason',
  'created_at',
  'paid_at',
  'write_started_at',
  'written_at',
  'suspect_at',
  'refunded_at',
  'closed_at',
  'updated_at',
] as const;

/** Riders pick a preset; 50 元 is the common one. */
const AMOUNTS: [fen: number, weight: number][] = [
  [1_000, 8],
  [2_000, 14],
  [3_000, 10],
  [5_000, 40],
  [10_000, 20],
  [20_000, 8],
];
const DEVICES = ['HUAWEI Mate 60', 'HUAWEI P50', 'Xiaomi 14', 'Xiaomi 13', 'OPPO Find X7', 'vivo X100', 'Honor Magic6', 'iPhone 15', 'iPhone 14 Pro', 'Redmi K70'];
const FAILS = ['卡片离开感应区，写卡中断', '卡片拒绝圈存（MAC校验失败）', '手机NFC读卡超时', '卡片已锁定，不能圈存'];

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

function weighted(rng: Rng, mix: readonly [number, number][]): number {
  const total = mix.reduce((a, m) => a + m[1], 0);
  let r = rng.next() * total;
  for (const m of mix) if ((r -= m[1]) < 0) return m[0];
  return mix[0]![0];
}

/** What one order is: its states and how long before now it was made (and, for a write, began). */
interface Kind {
  pay: 0 | 1 | 2;
  write: 0 | 1 | 2 | 3 | 4 | 5;
  /** ms before now the order was made. */
  age: number;
  /** 可疑 whose load the centre has (补查 finds it). */
  loaded?: boolean;
}

/** The mix of a profile, oldest orders drawn over 60 days. */
function kinds(rng: Rng, demo: boolean): Kind[] {
  const over60 = () => rng.int(10 * MIN, 60 * DAY);
  const out: Kind[] = [];
  const add = (n: number, make: () => Kind) => {
    for (let i = 0; i < n; i++) out.push(make());
  };
  if (!demo) {
    add(2, () => ({ pay: 0, write: 0, age: rng.int(1, 10) * MIN }));
    add(2, () => ({ pay: 1, write: 0, age: rng.int(20, 120) * MIN }));
    add(2, () => ({ pay: 1, write: 1, age: 2 * MIN }));
    add(2, () => ({ pay: 1, write: 2, age: over60() }));
    add(2, () => ({ pay: 1, write: 3, age: rng.int(1, 5) * DAY }));
    add(1, () => ({ pay: 1, write: 4, age: 30 * HOUR }));
    add(1, () => ({ pay: 1, write: 4, age: 40 * MIN, loaded: true }));
    add(2, () => ({ pay: 2, write: 5, age: rng.int(2, 20) * DAY }));
    add(2, () => ({ pay: 0, write: 5, age: rng.int(2, 20) * DAY }));
    return out;
  }
  // 20,000 in all: the named shares, the few live ones, the rest written.
  add(10, () => ({ pay: 1, write: 4, age: rng.int(25 * HOUR, 20 * DAY) }));
  add(42, () => ({ pay: 1, write: 4, age: rng.int(20 * MIN, 23 * HOUR) }));
  add(8, () => ({ pay: 1, write: 4, age: rng.int(15 * MIN, 50 * MIN), loaded: true }));
  add(200, () => ({ pay: 1, write: 3, age: over60() }));
  add(200, () => ({ pay: 2, write: 5, age: over60() }));
  add(200, () => ({ pay: 0, write: 5, age: over60() }));
  add(10, () => ({ pay: 0, write: 0, age: rng.int(1, 20) * MIN }));
  add(30, () => ({ pay: 1, write: 0, age: rng.int(10 * MIN, 4 * DAY) }));
  add(3, () => ({ pay: 1, write: 1, age: rng.int(1, 4) * MIN }));
  add(20_000 - out.length, () => ({ pay: 1, write: 2, age: over60() }));
  return out;
}

const hex8 = (rng: Rng) => rng.int(0, 0xffffffff).toString(16).toUpperCase().padStart(8, '0');

export const rechargeOrdersPlan: SeedPlan<{ orders: Rows; loadedSuspects: Rows }> = {
  name: 'recharge/orders',
  make({ rng, now, profile }: PlanInput) {
    const demo = profile.name === 'demo';
    const list = kinds(rng, demo).sort((a, b) => b.age - a.age);
    const slots = demo ? 16_000 : 400;
    const orders: Rows[number][] = [];
    const loadedSuspects: Rows[number][] = [];
    list.forEach((k, i) => {
      const id = i + 1;
      const created = new Date(now.getTime() - k.age);
      // Every moment drawn after the order is kept in the past.
      const past = (d: Date) => new Date(Math.min(d.getTime(), now.getTime() - 1_000));
      const at = (ms: number) => past(new Date(created.getTime() + ms));
      const stampText = new Date(created.getTime() + 8 * HOUR).toISOString().replace(/\D/g, '').slice(0, 14);
      const orderNo = `NFC${stampText}${String(id).padStart(6, '0')}`;
      const amount = weighted(rng, AMOUNTS);
      const paid = k.pay !== 0 ? at(rng.int(5, 60) * 1000) : null;
      // A write began on every paid order but the waiting ones and the refunded-before-writing half.
      const started = paid && k.write !== 0 ? past(new Date(paid.getTime() + rng.int(5, 120) * 1000)) : null;
      const bef = rng.next() < 0.1 ? 0 : rng.int(0, 300) * 100;
      const done = k.write === 2 && started ? past(new Date(started.getTime() + rng.int(3, 10) * 1000)) : null;
      const suspectAt = k.write === 4 && started ? past(new Date(started.getTime() + 5 * MIN + rng.int(0, 60) * 1000)) : null;
      const failed = (k.write === 3 || (k.write === 5 && k.pay === 2)) && started;
      const refunded = k.pay === 2 && started ? past(new Date(started.getTime() + rng.int(1, 48) * HOUR)) : null;
      const closed = k.write === 5 ? (refunded ?? at(30 * MIN)) : null;
      const txnSeq = started ? String(id % 1_000_000).padStart(6, '0') : null;
      orders.push([
        id,
        orderNo,
        1,
        rng.int(0, slots - 1),
        '',
        '',
        0,
        amount,
        amount,
        weighted(rng, [[1, 70], [2, 25], [3, 5]]),
        k.pay,
        k.write,
        started ? bef : null,
        done ? bef + amount : null,
        rng.pick(DEVICES),
        txnSeq,
        done ? hex8(rng) : null,
        failed ? rng.pick(FAILS) : null,
        created,
        paid,
        started,
        done,
        suspectAt,
        refunded,
        closed,
        refunded ?? done ?? suspectAt ?? closed ?? started ?? paid ?? created,
      ]);
      if (k.loaded) loadedSuspects.push([orderNo, hex8(rng)]);
    });
    return { orders, loadedSuspects };
  },
};
