import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { busCards, districts, riders, rowVersion, users } from '../../db/schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * NFC充值 (second-wave §3): a rider pays in the mini-program, then taps the card on the phone to
 * write (圈存) the amount onto it. Paying and writing are two separate facts: payStatus 0 未支付 /
 * 1 已支付 / 2 已退款 (spec), writeState 0 待写卡 / 1 写卡中 / 2 写卡成功 / 3 写卡失败 / 4 可疑 /
 * 5 已关闭. rechargeStatus (spec 0 未充值 / 1 已充值) is derived: writeState = 2.
 */
export const rechargeOrders = pgTable(
  'recharge_orders',
  {
    id: serial('id').primaryKey(),
    orderNo: text('order_no').notNull(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    riderId: integer('rider_id').references(() => riders.id),
    cardId: integer('card_id')
      .notNull()
      .references(() => busCards.id),
    /** The card's face number (16 digits), kept as it was at the order. */
    cardNo: text('card_no').notNull(),
    cardInnerNo: text('card_inner_no').notNull(),
    cardCategory: smallint('card_category').notNull(),
    /** What is written onto the card (txnAmt), fen. */
    amount: integer('amount').notNull(),
    /** What the rider paid, fen (equal to amount: NFC top-ups carry no discount). */
    payAmount: integer('pay_amount').notNull(),
    /** The spec's payInfo code: 1 微信, 2 支付宝, 3 云闪付. */
    payChannel: smallint('pay_channel').notNull(),
    payStatus: smallint('pay_status').notNull().default(0),
    writeState: smallint('write_state').notNull().default(0),
    befBal: integer('bef_bal'),
    aftBal: integer('aft_bal'),
    deviceModel: text('device_model'),
    /** The card's transaction sequence of the load, and its TAC (8 hex): the card's proof. */
    txnSeq: text('txn_seq'),
    tac: text('tac'),
    failReason: text('fail_reason'),
    createdAt: ts('created_at').notNull(),
    paidAt: ts('paid_at'),
    /** When the last write began (1 写卡中): the suspect job's clock and 核实未到账's 10 minutes. */
    writeStartedAt: ts('write_started_at'),
    writtenAt: ts('written_at'),
    suspectAt: ts('suspect_at'),
    refundedAt: ts('refunded_at'),
    closedAt: ts('closed_at'),
    /** Who settled a 可疑 order (null: the system, from the centre's record). */
    resolvedBy: integer('resolved_by').references(() => users.id),
    resolvedAt: ts('resolved_at'),
    /** The centre's number of the load a 核实已到账 rests on, and the note of any 核实. */
    centreTxnNo: text('centre_txn_no'),
    resolutionNote: text('resolution_note'),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [
    uniqueIndex('recharge_orders_no_uq').on(t.orderNo),
    index('recharge_orders_district_idx').on(t.districtId, t.createdAt),
    index('recharge_orders_card_idx').on(t.cardNo, t.createdAt),
    index('recharge_orders_state_idx').on(t.writeState, t.createdAt),
    // The suspect job's work: writes in progress, by when they began.
    index('recharge_orders_writing_idx').on(t.writeStartedAt).where(sql`${t.writeState} = 1`),
    check('recharge_orders_pay_ck', sql`${t.payStatus} between 0 and 2`),
    check('recharge_orders_write_ck', sql`${t.writeState} between 0 and 5`),
    check('recharge_orders_amount_ck', sql`${t.amount} between 1000 and 99900 and ${t.payAmount} = ${t.amount}`),
    // Only a paid order is written; a written one carries its TAC; a refunded one is closed.
    check('recharge_orders_paid_write_ck', sql`${t.writeState} in (0, 5) or ${t.payStatus} = 1`),
    check('recharge_orders_tac_ck', sql`${t.writeState} <> 2 or (${t.tac} is not null and ${t.txnSeq} is not null)`),
    check('recharge_orders_refund_ck', sql`${t.payStatus} <> 2 or ${t.writeState} = 5`),
  ],
);

/**
 * Each step of an order's writing (spec attempts[] {at, step, result}): what the phone and the
 * system said, in order. Append-only: the drawer shows it beside the centre's record.
 */
export const rechargeAttempts = pgTable(
  'recharge_attempts',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => rechargeOrders.id),
    at: ts('at').notNull(),
    /** pay, start, confirm, fail, suspect, requery, resolve, refund, reconcile. */
    step: text('step').notNull(),
    /** 0 失败, 1 成功 (spec Result). */
    result: smallint('result').notNull(),
    detail: text('detail'),
  },
  (t) => [index('recharge_attempts_order_idx').on(t.orderId, t.id), check('recharge_attempts_result_ck', sql`${t.result} in (0, 1)`)],
);

/**
 * Our card ledger: the loads the built-in card centre knows (what a real centre would answer from
 * its own books). A row appears when a card actually takes a load, whether or not the phone's
 * confirmation reaches us: that gap is what 可疑 is. One row per card transaction and per order.
 */
export const cardCentreLoads = pgTable(
  'card_centre_loads',
  {
    id: serial('id').primaryKey(),
    centreTxnNo: text('centre_txn_no').notNull(),
    cardNo: text('card_no').notNull(),
    orderNo: text('order_no').notNull(),
    txnSeq: text('txn_seq').notNull(),
    tac: text('tac').notNull(),
    amount: integer('amount').notNull(),
    befBal: integer('bef_bal').notNull(),
    aftBal: integer('aft_bal').notNull(),
    loadedAt: ts('loaded_at').notNull(),
    /** The Shanghai day it settles on, `YYYY-MM-DD`. */
    settleDay: text('settle_day').notNull(),
  },
  (t) => [
    uniqueIndex('card_centre_loads_txn_uq').on(t.centreTxnNo),
    uniqueIndex('card_centre_loads_card_seq_uq').on(t.cardNo, t.txnSeq),
    uniqueIndex('card_centre_loads_order_uq').on(t.orderNo),
    index('card_centre_loads_day_idx').on(t.settleDay),
    check('card_centre_loads_amount_ck', sql`${t.amount} > 0 and ${t.aftBal} = ${t.befBal} + ${t.amount}`),
  ],
);

/** The days 圈存日对账 has matched: one row per day, taken by one instance. */
export const rechargeSettlementDays = pgTable('recharge_settlement_days', {
  day: text('day').primaryKey(),
  centreLoads: integer('centre_loads').notNull(),
  centreAmount: integer('centre_amount').notNull(),
  paidOrders: integer('paid_orders').notNull(),
  anomalies: integer('anomalies').notNull(),
  ranAt: ts('ran_at').notNull(),
});

/**
 * ★ 圈存日对账's worklist: what the centre's settlement and our orders disagree on. kind 1 已付未圈
 * (paid, no load at the centre), 2 圈存未付 (a load without a paid order), 3 金额不符. status 0 待处理,
 * 1 已消除 (a later run found them agreeing: refunded, written, resolved).
 */
export const rechargeReconcileItems = pgTable(
  'recharge_reconcile_items',
  {
    id: serial('id').primaryKey(),
    day: text('day').notNull(),
    kind: smallint('kind').notNull(),
    districtId: integer('district_id').references(() => districts.id),
    orderId: integer('order_id').references(() => rechargeOrders.id),
    orderNo: text('order_no').notNull(),
    cardNo: text('card_no').notNull(),
    orderAmount: integer('order_amount'),
    centreAmount: integer('centre_amount'),
    centreTxnNo: text('centre_txn_no'),
    status: smallint('status').notNull().default(0),
    note: text('note').notNull(),
    createdAt: ts('created_at').notNull(),
    clearedAt: ts('cleared_at'),
  },
  (t) => [
    uniqueIndex('recharge_reconcile_items_uq').on(t.kind, t.orderNo),
    index('recharge_reconcile_items_day_idx').on(t.status, t.day),
    check('recharge_reconcile_items_kind_ck', sql`${t.kind} between 1 and 3`),
    check('recharge_reconcile_items_status_ck', sql`${t.status} in (0, 1)`),
  ],
);
