import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, date, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { districts, riders, rowVersion, users } from '../../db/schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * 储值管理's tables (second wave §9). Money is fen. The wallet holds principal (本金, the rider's own
 * money, refundable) and gift (赠送, the operator's, never paid out) apart; every change of either is
 * one row of `wallet_ledger`, written in the transaction that changes the wallet, so the ledger sums
 * to the wallet at every commit (the reconcile proves it nightly).
 */

/** 储值档位: what a rider may buy; null district: city-wide (the super user's). */
export const rechargePlans = pgTable(
  'recharge_plans',
  {
    id: serial('id').primaryKey(),
    districtId: integer('district_id').references(() => districts.id),
    name: text('name').notNull(),
    amount: integer('amount').notNull(),
    giftAmount: integer('gift_amount').notNull().default(0),
    sort: integer('sort').notNull().default(0),
    /** 1 启用, 0 停用. */
    status: smallint('status').notNull().default(1),
    saleStart: ts('sale_start'),
    saleEnd: ts('sale_end'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [
    index('recharge_plans_district_idx').on(t.districtId, t.sort),
    check('recharge_plans_amount_ck', sql`${t.amount} > 0 and ${t.giftAmount} >= 0 and ${t.giftAmount} * 2 <= ${t.amount}`),
    check('recharge_plans_status_ck', sql`${t.status} in (0, 1)`),
    check('recharge_plans_sale_ck', sql`${t.saleEnd} is null or ${t.saleStart} is null or ${t.saleEnd} > ${t.saleStart}`),
  ],
);

/** One wallet per rider; its district is the rider's. `version` counts its changes (each ledger row). */
export const wallets = pgTable(
  'wallets',
  {
    id: serial('id').primaryKey(),
    riderId: integer('rider_id')
      .notNull()
      .references(() => riders.id),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    principal: integer('principal').notNull().default(0),
    gift: integer('gift').notNull().default(0),
    /** 1 正常, 2 冻结, 0 已注销. */
    status: smallint('status').notNull().default(1),
    statusReason: text('status_reason'),
    version: integer('version').notNull().default(0),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('wallets_rider_uq').on(t.riderId),
    index('wallets_district_idx').on(t.districtId, t.id),
    // The last word on "never negative": every racing debit that would overdraw fails here.
    check('wallets_balance_ck', sql`${t.principal} >= 0 and ${t.gift} >= 0`),
    check('wallets_status_ck', sql`${t.status} in (0, 1, 2)`),
    check('wallets_closed_ck', sql`${t.status} <> 0 or (${t.principal} = 0 and ${t.gift} = 0)`),
  ],
);

/** 储值订单: 0 待支付 → 1 已到账 / 3 已关闭; 1 → 2 已退款. The plan is kept as a snapshot too. */
export const walletOrders = pgTable(
  'wallet_orders',
  {
    id: serial('id').primaryKey(),
    orderNo: text('order_no').notNull(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    riderId: integer('rider_id')
      .notNull()
      .references(() => riders.id),
    walletId: integer('wallet_id')
      .notNull()
      .references(() => wallets.id),
    planId: integer('plan_id').references(() => rechargePlans.id),
    snapshot: jsonb('snapshot').notNull(),
    payAmount: integer('pay_amount').notNull(),
    giftAmount: integer('gift_amount').notNull().default(0),
    /** The spec's pay status: 0 未支付, 1 已支付, 2 已退款. */
    payStatus: smallint('pay_status').notNull().default(0),
    status: smallint('status').notNull().default(0),
    principalAfter: integer('principal_after'),
    refundAmount: integer('refund_amount').notNull().default(0),
    giftClawback: integer('gift_clawback').notNull().default(0),
    createdAt: ts('created_at').notNull(),
    paidAt: ts('paid_at'),
    refundedAt: ts('refunded_at'),
    closedAt: ts('closed_at'),
  },
  (t) => [
    uniqueIndex('wallet_orders_no_uq').on(t.orderNo),
    index('wallet_orders_district_idx').on(t.districtId, t.createdAt),
    index('wallet_orders_wallet_idx').on(t.walletId, t.createdAt),
    index('wallet_orders_created_idx').on(t.createdAt, t.id),
    // 储值档位's 订单数 per plan (an index-only count, not a scan of every order per plan).
    index('wallet_orders_plan_idx').on(t.planId),
    // The timeout job's work: unpaid orders by age.
    index('wallet_orders_unpaid_idx').on(t.createdAt).where(sql`${t.status} = 0`),
    check('wallet_orders_status_ck', sql`${t.status} between 0 and 3 and ${t.payStatus} between 0 and 2`),
    check('wallet_orders_amount_ck', sql`${t.payAmount} > 0 and ${t.giftAmount} >= 0`),
    check('wallet_orders_refund_ck', sql`${t.refundAmount} between 0 and ${t.payAmount} and ${t.giftClawback} between 0 and ${t.giftAmount}`),
  ],
);

/**
 * The wallet ledger, append-only: a trigger (custom migration rechargeable_guards) refuses UPDATE
 * and DELETE. One row per (ref kind, ref id, type): a pay notice delivered three times inserts its
 * rows once, the second insert failing the whole transaction. The after-values chain the rows, so
 * the first row whose running sum disagrees is where a wallet broke.
 */
export const walletLedger = pgTable(
  'wallet_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    walletId: integer('wallet_id')
      .notNull()
      .references(() => wallets.id),
    districtId: integer('district_id').notNull(),
    /** 1 充值, 2 赠送, 3 消费, 4 退款, 5 人工调整, 6 赠送回收. */
    type: smallint('type').notNull(),
    principalDelta: integer('principal_delta').notNull(),
    giftDelta: integer('gift_delta').notNull(),
    principalAfter: integer('principal_after').notNull(),
    giftAfter: integer('gift_after').notNull(),
    /** 'order' (types 1, 2, 4, 6), 'ride' (3), 'adjust' (5). */
    refKind: text('ref_kind').notNull(),
    refId: text('ref_id').notNull(),
    createdAt: ts('created_at').notNull(),
    createdBy: integer('created_by').references(() => users.id),
  },
  (t) => [
    uniqueIndex('wallet_ledger_ref_uq').on(t.refKind, t.refId, t.type),
    index('wallet_ledger_wallet_idx').on(t.walletId, t.id),
    index('wallet_ledger_created_idx').on(t.createdAt),
    check('wallet_ledger_type_ck', sql`${t.type} between 1 and 6`),
    check('wallet_ledger_after_ck', sql`${t.principalAfter} >= 0 and ${t.giftAfter} >= 0`),
  ],
);

/** 人工调账: made by one person, in effect only when a second approves (maker ≠ checker, in SQL). */
export const walletAdjustments = pgTable(
  'wallet_adjustments',
  {
    id: serial('id').primaryKey(),
    walletId: integer('wallet_id')
      .notNull()
      .references(() => wallets.id),
    districtId: integer('district_id').notNull(),
    /** 1 本金, 2 赠送. */
    bucket: smallint('bucket').notNull(),
    delta: integer('delta').notNull(),
    reason: text('reason').notNull(),
    /** 0 待复核, 1 已生效, 2 已驳回, 3 已撤回. */
    status: smallint('status').notNull().default(0),
    makerId: integer('maker_id')
      .notNull()
      .references(() => users.id),
    checkerId: integer('checker_id').references(() => users.id),
    checkReason: text('check_reason'),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: ts('created_at').notNull(),
    checkedAt: ts('checked_at'),
  },
  (t) => [
    uniqueIndex('wallet_adjustments_key_uq').on(t.idempotencyKey),
    index('wallet_adjustments_wallet_idx').on(t.walletId),
    index('wallet_adjustments_queue_idx').on(t.districtId, t.createdAt).where(sql`${t.status} = 0`),
    check('wallet_adjustments_ck', sql`${t.bucket} in (1, 2) and ${t.delta} <> 0 and ${t.status} between 0 and 3 and char_length(${t.reason}) >= 10`),
    check('wallet_adjustments_checker_ck', sql`${t.checkerId} is null or ${t.checkerId} <> ${t.makerId}`),
  ],
);

/** 储值设置: one city-wide row (id 1); stored-value rules are the operator's, not a district's. */
export const rechargeSettings = pgTable(
  'recharge_settings',
  {
    id: smallint('id').primaryKey(),
    minFen: integer('min_fen').notNull(),
    maxFen: integer('max_fen').notNull(),
    balanceCapFen: integer('balance_cap_fen').notNull(),
    dailyTimes: integer('daily_times').notNull(),
    dailyFen: integer('daily_fen').notNull(),
    consumeOrder: smallint('consume_order').notNull(),
    giftRefundable: boolean('gift_refundable').notNull().default(false),
    adjustSingleMaxFen: integer('adjust_single_max_fen').notNull(),
    unpaidTimeoutMinutes: integer('unpaid_timeout_minutes').notNull().default(30),
    updatedAt: ts('updated_at'),
    rowVersion: rowVersion(),
  },
  (t) => [check('recharge_settings_one_ck', sql`${t.id} = 1`), check('recharge_settings_range_ck', sql`${t.minFen} <= ${t.maxFen} and ${t.consumeOrder} in (1, 2)`)],
);

/** 每日轧账: the nightly job's result per Shanghai day (its breaks as JSON, with the liability). */
export const walletReconcileRuns = pgTable('wallet_reconcile_runs', {
  day: date('day', { mode: 'string' }).primaryKey(),
  wallets: integer('wallets').notNull(),
  broken: integer('broken').notNull(),
  principal: bigint('principal', { mode: 'number' }).notNull(),
  gift: bigint('gift', { mode: 'number' }).notNull(),
  breaks: jsonb('breaks').notNull(),
  /** Each district's wallets and broken ones, so a district manager reads their share of the run (null: a run from before). */
  districts: jsonb('districts').$type<{ districtId: number; wallets: number; broken: number }[]>(),
  ms: integer('ms').notNull(),
  ranAt: ts('ran_at').notNull(),
});
