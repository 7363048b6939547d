import { asc } from 'drizzle-orm';
import { DAY_MS, type SeedGenerator } from '../../db/seed/context';
import { bulkInsert, continueIds } from '../../db/seed/bulk';
import type { Rows } from '../../db/seed/copy-text';
import type { Rng } from '../../db/seed/rng';
import * as t from '../../db/schema';
import { DEFAULT_SETTING } from '../../../shared/api/wallet';
import { outRefundNo } from '../../lib/payment-channel';
import { rechargePlans } from './schema';

/**
 * 储值's demo (second wave §9, §13): 6 plans, 15,000 wallets, 30,000 orders over 6 months (1.5 %
 * refunded), ≈60,000 ledger rows (rides consume), 40 adjustments (30 生效, 6 待复核, 4 驳回), 20
 * frozen. The wallets' histories are simulated in order, so every ledger row's after-values and
 * every wallet's balance agree: the reconcile passes on the seed. Loaded in bulk (COPY on PGlite).
 * The small (test) profile keeps a handful of each.
 */

const PLANS = [
  { name: '充50元', amount: 5_000, giftAmount: 0, sort: 1, status: 1, weight: 35 },
  { name: '充100送5元', amount: 10_000, giftAmount: 500, sort: 2, status: 1, weight: 25 },
  { name: '充200送15元', amount: 20_000, giftAmount: 1_500, sort: 3, status: 1, weight: 20 },
  { name: '充300送30元', amount: 30_000, giftAmount: 3_000, sort: 4, status: 1, weight: 12 },
  { name: '充500送60元', amount: 50_000, giftAmount: 6_000, sort: 5, status: 1, weight: 8 },
  { name: '充800送100元（已停用）', amount: 80_000, giftAmount: 10_000, sort: 6, status: 0, weight: 0 },
] as const;

const RIDE_FEES = [100, 150, 200, 200, 200, 300] as const;
const MINUTE = 60_000;
const CAP = DEFAULT_SETTING.balanceCapFen;

interface Volumes {
  wallets: number;
  ledgerTarget: number;
  adjustments: readonly [approved: number, pending: number, rejected: number];
  frozen: number;
}
const VOLUMES: Record<'demo' | 'small', Volumes> = {
  demo: { wallets: 15_000, ledgerTarget: 60_000, adjustments: [30, 6, 4], frozen: 20 },
  small: { wallets: 4, ledgerTarget: 16, adjustments: [1, 1, 1], frozen: 1 },
};

type Ledger = { walletId: number; districtId: number; type: number; dp: number; dg: number; pa: number; ga: number; refKind: string; refId: string; at: Date; by: number | null; seq: number };

function pickPlan(rng: Rng, room: number) {
  const fits = PLANS.filter((p) => p.status === 1 && p.amount + p.giftAmount <= room);
  if (!fits.length) return null;
  const total = fits.reduce((s, p) => s + p.weight, 0);
  let r = rng.next() * total;
  for (const p of fits) if ((r -= p.weight) < 0) return p;
  return fits[0]!;
}

export const rechargeableDemoSeed: SeedGenerator[] = [
  {
    name: 'recharge-plans-wallets-orders-ledger',
    async run({ db, rng, now, profile }) {
      const v = VOLUMES[profile.name];
      const stamp = now.getTime();
      // Plans: city-wide, the super user's.
      const plans = await db
        .insert(rechargePlans)
        .values(PLANS.map((p) => ({ districtId: null, name: p.name, amount: p.amount, giftAmount: p.giftAmount, sort: p.sort, status: p.status, createdAt: new Date(stamp - 200 * DAY_MS), updatedAt: new Date(stamp - 200 * DAY_MS) })))
        .returning({ id: rechargePlans.id, name: rechargePlans.name });
      const planId = (name: string) => plans.find((p) => p.name === name)!.id;

      const riders = await db.select({ id: t.riders.id, districtId: t.riders.districtId }).from(t.riders).orderBy(asc(t.riders.id)).limit(v.wallets);
      const staff = await db.select({ id: t.users.id, login: t.users.login }).from(t.users);
      const agent = staff.find((u) => u.login === 'agent')?.id ?? staff[0]!.id;
      const manager = staff.find((u) => u.login === 'manager')?.id ?? staff[0]!.id;

      const start = stamp - 180 * DAY_MS;
      const walletRows: (string | number | Date | null)[][] = [];
      const orderRows: (readonly (string | number | Date | null)[])[] = [];
      const refundRows: (readonly (string | number | Date | null)[])[] = [];
      const ledger: Ledger[] = [];
      const state: { id: number; districtId: number; p: number; g: number; last: number; created: number }[] = [];
      let seq = 0;
      let orderId = 0;
      let refundId = 0;
      const small = profile.name === 'small';

      riders.forEach((rider, i) => {
        const w = { id: i + 1, districtId: rider.districtId, p: 0, g: 0, last: 0, created: 0 };
        const push = (type: number, dp: number, dg: number, refKind: string, refId: string, at: number, by: number | null = null) => {
          w.p += dp;
          w.g += dg;
          ledger.push({ walletId: w.id, districtId: w.districtId, type, dp, dg, pa: w.p, ga: w.g, refKind, refId, at: new Date(at), by, seq: seq++ });
          w.last = at;
        };
        const k = small ? 2 : rng.pick([1, 2, 2, 3]);
        const times = Array.from({ length: k }, () => rng.int(start, stamp - 4 * DAY_MS)).sort((a, b) => a - b);
        w.created = times[0]! - rng.int(1, 30) * MINUTE;
        w.last = w.created;
        times.forEach((at0, j) => {
          const at = Math.max(at0, w.last + MINUTE);
          const plan = pickPlan(rng, CAP - w.p - w.g) ?? PLANS[0];
          const id = ++orderId;
          const orderNo = `W${new Date(at + 8 * 3_600_000).toISOString().replace(/\D/g, '').slice(0, 14)}${String(id).padStart(6, '0')}`;
          const roll = rng.next();
          // Small profile: the first wallet's orders are one refunded, one closed; the rest paid.
          const closed = small ? i === 0 && j === 1 : roll < 0.02;
          const refunded = small ? i === 1 && j === 0 : !closed && roll < 0.035;
          const snapshot = JSON.stringify({ name: plan.name, amount: plan.amount, giftAmount: plan.giftAmount });
          if (closed || w.p + w.g + plan.amount + plan.giftAmount > CAP) {
            orderRows.push([id, orderNo, w.districtId, rider.id, w.id, planId(plan.name), snapshot, plan.amount, plan.giftAmount, 0, 3, null, 0, 0, new Date(at), null, null, new Date(at + 30 * MINUTE)]);
            w.last = at + 30 * MINUTE;
            return;
          }
          const paidAt = at + rng.int(5, 120) * 1000;
          push(1, plan.amount, 0, 'order', String(id), paidAt);
          if (plan.giftAmount) push(2, 0, plan.giftAmount, 'order', String(id), paidAt);
          const principalAfter = w.p;
          if (!refunded) {
            orderRows.push([id, orderNo, w.districtId, rider.id, w.id, planId(plan.name), snapshot, plan.amount, plan.giftAmount, 1, 1, principalAfter, 0, 0, new Date(at), new Date(paidAt), null, null]);
            return;
          }
          // Refunded a few hours later: the whole amount (nothing spent since), the order's gift taken back.
          const refundedAt = paidAt + rng.int(1, 48) * 60 * MINUTE;
          const back = Math.min(plan.amount, w.p);
          const claw = Math.min(plan.giftAmount, w.g);
          push(4, -back, 0, 'order', String(id), refundedAt, manager);
          if (claw) push(6, 0, -claw, 'order', String(id), refundedAt, manager);
          orderRows.push([id, orderNo, w.districtId, rider.id, w.id, planId(plan.name), snapshot, plan.amount, plan.giftAmount, 2, 2, principalAfter, back, claw, new Date(at), new Date(paidAt), new Date(refundedAt), null]);
          const key = `seed-wallet-refund-${id}`;
          refundRows.push([++refundId, 'wallet', id, 0, w.districtId, orderNo, back, '乘客申请退回储值余额', key, outRefundNo(key), 1, `CH${outRefundNo(key).slice(2, 22)}`, 1, manager, new Date(refundedAt), new Date(refundedAt + MINUTE)]);
        });
        state.push(w);
      });

      // Rides: spread over the wallets, after their last order, until the ledger reaches its size.
      const rideEnd = stamp - 3 * DAY_MS;
      let rides = Math.max(0, v.ledgerTarget - ledger.length - v.adjustments[0]);
      for (let guard = 0; rides > 0 && guard < rides * 20; guard++) {
        const w = rng.pick(state);
        const fee = rng.pick(RIDE_FEES);
        if (w.p + w.g < fee || w.last >= rideEnd - MINUTE) continue;
        const at = w.last + rng.int(1, Math.max(1, Math.min(3 * DAY_MS, rideEnd - w.last) / MINUTE)) * MINUTE;
        if (at >= rideEnd) continue;
        const fromP = Math.min(fee, w.p);
        const dp = -fromP;
        const dg = -(fee - fromP);
        w.p += dp;
        w.g += dg;
        ledger.push({ walletId: w.id, districtId: w.districtId, type: 3, dp, dg, pa: w.p, ga: w.g, refKind: 'ride', refId: `R${w.id}-${seq}`, at: new Date(at), by: null, seq: seq++ });
        w.last = at;
        rides--;
      }

      // Adjustments: made by the agent, checked by the manager; the approved ones are ledger rows.
      const adjustRows: (readonly (string | number | Date | null)[])[] = [];
      const [approved, pending, rejected] = v.adjustments;
      const REASONS = ['乘车扣费异常，系统重复扣款，人工退回', '活动赠送未到账，按活动规则补发赠送金', '乘客投诉充值未到账，核实后人工补入本金', '测试账户清理余额，按财务要求扣回'];
      for (let i = 0; i < approved + pending + rejected; i++) {
        const w = state[(i * 37) % state.length]!;
        const status = i < approved ? 1 : i < approved + pending ? 0 : 2;
        const bucket = i % 3 === 2 ? 2 : 1;
        const delta = rng.next() < 0.8 ? rng.pick([200, 500, 1_000, 2_000, 5_000]) : -Math.min(bucket === 1 ? w.p : w.g, rng.pick([100, 200, 500]));
        const d = delta === 0 ? 300 : delta;
        const madeAt = Math.max(w.last, stamp - 3 * DAY_MS) + rng.int(10, 600) * MINUTE;
        const checkedAt = status === 0 ? null : madeAt + rng.int(5, 120) * MINUTE;
        const id = i + 1;
        if (status === 1) {
          const dp = bucket === 1 ? d : 0;
          const dg = bucket === 2 ? d : 0;
          if (w.p + dp < 0 || w.g + dg < 0) continue;
          w.p += dp;
          w.g += dg;
          ledger.push({ walletId: w.id, districtId: w.districtId, type: 5, dp, dg, pa: w.p, ga: w.g, refKind: 'adjust', refId: String(id), at: new Date(checkedAt!), by: manager, seq: seq++ });
          w.last = checkedAt!;
        }
        adjustRows.push([id, w.id, w.districtId, bucket, d, REASONS[i % REASONS.length]!, status, agent, status === 0 ? null : manager, status === 2 ? '依据不足，请补充工单截图' : null, `seed-adjust-${id}`, new Date(madeAt), checkedAt === null ? null : new Date(checkedAt)]);
      }

      // Frozen: spread over the wallets, with their reason.
      const frozen = new Set<number>();
      for (let i = 0; frozen.size < Math.min(v.frozen, state.length); i++) frozen.add(state[(i * 101 + 7) % state.length]!.id);
      for (const w of state) {
        const isFrozen = frozen.has(w.id);
        walletRows.push([w.id, riders[w.id - 1]!.id, w.districtId, w.p, w.g, isFrozen ? 2 : 1, isFrozen ? '乘客挂失，申请冻结储值余额' : null, 0, new Date(w.created), new Date(Math.max(w.last, w.created))]);
      }
      // A wallet's version counts its ledger rows, as the services keep it.
      const versions = new Map<number, number>();
      for (const l of ledger) versions.set(l.walletId, (versions.get(l.walletId) ?? 0) + 1);
      for (const r of walletRows) r[7] = versions.get(r[0] as number) ?? 0;

      ledger.sort((a, b) => a.at.getTime() - b.at.getTime() || a.seq - b.seq);
      const ledgerRows: Rows = ledger.map((l, i) => [i + 1, l.walletId, l.districtId, l.type, l.dp, l.dg, l.pa, l.ga, l.refKind, l.refId, l.at, l.by]);

      await bulkInsert(db, 'wallets', ['id', 'rider_id', 'district_id', 'principal', 'gift', 'status', 'status_reason', 'version', 'created_at', 'updated_at'], walletRows);
      await bulkInsert(
        db,
        'wallet_orders',
        ['id', 'order_no', 'district_id', 'rider_id', 'wallet_id', 'plan_id', 'snapshot', 'pay_amount', 'gift_amount', 'pay_status', 'status', 'principal_after', 'refund_amount', 'gift_clawback', 'created_at', 'paid_at', 'refunded_at', 'closed_at'],
        orderRows,
      );
      await bulkInsert(db, 'wallet_ledger', ['id', 'wallet_id', 'district_id', 'type', 'principal_delta', 'gift_delta', 'principal_after', 'gift_after', 'ref_kind', 'ref_id', 'created_at', 'created_by'], ledgerRows);
      if (adjustRows.length) await bulkInsert(db, 'wallet_adjustments', ['id', 'wallet_id', 'district_id', 'bucket', 'delta', 'reason', 'status', 'maker_id', 'checker_id', 'check_reason', 'idempotency_key', 'created_at', 'checked_at'], adjustRows);
      if (refundRows.length) {
        // The shared refund ledger already has ids of other kinds: let the sequence give them.
        await bulkInsert(
          db,
          'money_refunds',
          ['kind', 'order_id', 'item_id', 'district_id', 'order_no', 'amount', 'reason', 'idempotency_key', 'out_refund_no', 'state', 'channel_refund_no', 'attempts', 'operator_id', 'created_at', 'settled_at'],
          refundRows.map((r) => r.slice(1)),
        );
      }
      for (const table of ['wallets', 'wallet_orders', 'wallet_ledger', 'wallet_adjustments']) await continueIds(db, table);
    },
  },
];
