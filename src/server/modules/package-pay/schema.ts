import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { districts, riders, rowVersion, users } from '../../db/schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * 套餐 (second wave §7): a number of rides for a price, valid some days from payment. `stock` is what
 * is left to sell (null: unlimited) and `sold` what was sold: the buy's guarded update moves both, and
 * the check keeps stock from going below zero whatever a caller does.
 */
export const packages = pgTable(
  'packages',
  {
    id: serial('id').primaryKey(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    name: text('name').notNull(),
    /** Fen. */
    price: integer('price').notNull(),
    /** Fen: what the rides cost as singles, shown struck through; the intended discount is price / originalPrice. */
    originalPrice: integer('original_price').notNull(),
    rides: integer('rides').notNull(),
    validDays: integer('valid_days').notNull(),
    /** Line codes the rides may be taken on; null: every line. */
    lineScope: text('line_scope').array(),
    /** Rides per Shanghai day; 0: no limit. */
    dailyLimit: integer('daily_limit').notNull().default(0),
    /** Orders of this package one rider may hold at once (待支付 or 生效中); 0: no limit. */
    perUserLimit: integer('per_user_limit').notNull().default(0),
    saleStart: ts('sale_start').notNull(),
    saleEnd: ts('sale_end').notNull(),
    stock: integer('stock'),
    sold: integer('sold').notNull().default(0),
    /** 0 草稿, 1 在售, 2 已下架 (PACKAGE_STATUS). */
    status: smallint('status').notNull().default(0),
    sort: integer('sort').notNull().default(0),
    image: text('image'),
    description: text('description').notNull().default(''),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [
    index('packages_district_idx').on(t.districtId, t.status),
    check('packages_status_ck', sql`${t.status} between 0 and 2`),
    check('packages_name_ck', sql`char_length(${t.name}) between 1 and 20`),
    check('packages_price_ck', sql`${t.price} > 0 and ${t.price} <= ${t.originalPrice}`),
    check('packages_rides_ck', sql`${t.rides} between 1 and 999`),
    check('packages_valid_days_ck', sql`${t.validDays} between 1 and 366`),
    check('packages_limits_ck', sql`${t.dailyLimit} >= 0 and ${t.perUserLimit} >= 0`),
    check('packages_sale_ck', sql`${t.saleEnd} > ${t.saleStart}`),
    check('packages_stock_ck', sql`${t.stock} is null or ${t.stock} >= 0`),
    check('packages_sold_ck', sql`${t.sold} >= 0`),
  ],
);

/** What an order keeps of its package as sold: later edits of the package never change a rider's rides. */
export interface PackageSnapshot {
  name: string;
  price: number;
  originalPrice: number;
  rides: number;
  validDays: number;
  lineScope: string[] | null;
  dailyLimit: number;
}

/**
 * 套餐订单: one rider's purchase. `rides` repeats the snapshot's so the check `used_rides <= rides`
 * holds in the database, not only in the ride's guarded update.
 */
export const packageOrders = pgTable(
  'package_orders',
  {
    id: serial('id').primaryKey(),
    orderNo: text('order_no').notNull(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    riderId: integer('rider_id')
      .notNull()
      .references(() => riders.id),
    packageId: integer('package_id')
      .notNull()
      .references(() => packages.id),
    snapshot: jsonb('snapshot').$type<PackageSnapshot>().notNull(),
    amount: integer('amount').notNull(),
    rides: integer('rides').notNull(),
    usedRides: integer('used_rides').notNull().default(0),
    /** 0 未支付, 1 已支付, 2 已退款 (spec §3). */
    payStatus: smallint('pay_status').notNull().default(0),
    /** 0 待支付, 1 生效中, 2 已用完, 3 已过期, 4 已退款, 5 已关闭 (PACKAGE_ORDER_STATUS). */
    status: smallint('status').notNull().default(0),
    paidAt: ts('paid_at'),
    effectiveAt: ts('effective_at'),
    /** Exclusive: a ride at or after it is not the package's. */
    expireAt: ts('expire_at'),
    closedAt: ts('closed_at'),
    refundAmount: integer('refund_amount').notNull().default(0),
    refundedAt: ts('refunded_at'),
    /**
     * The 套餐协议 the rider accepted: the area's agreement of code 'package' (one per district, so the
     * order's district names it) at this version, its row version then (second wave §14.3).
     */
    agreementVersion: integer('agreement_version'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('package_orders_no_uq').on(t.orderNo),
    index('package_orders_district_idx').on(t.districtId, t.createdAt),
    index('package_orders_rider_idx').on(t.riderId, t.packageId, t.status),
    index('package_orders_package_idx').on(t.packageId, t.status),
    // The jobs' work: unpaid orders by age, active ones by expiry.
    index('package_orders_unpaid_idx').on(t.createdAt).where(sql`${t.status} = 0`),
    index('package_orders_active_idx').on(t.expireAt).where(sql`${t.status} = 1`),
    check('package_orders_status_ck', sql`${t.status} between 0 and 5`),
    check('package_orders_pay_status_ck', sql`${t.payStatus} between 0 and 2`),
    check('package_orders_used_ck', sql`${t.usedRides} >= 0 and ${t.usedRides} <= ${t.rides}`),
    check('package_orders_amount_ck', sql`${t.amount} >= 0 and ${t.refundAmount} >= 0 and ${t.refundAmount} <= ${t.amount}`),
    check('package_orders_active_ck', sql`${t.status} in (0, 5) or (${t.effectiveAt} is not null and ${t.expireAt} is not null)`),
  ],
);

/**
 * 套餐使用记录: one ride paid by a package. `singleFare` is what the ride would have cost as a single
 * (what the refund deducts and the 套餐体检 compares with); `rideRecordId` points into the partitioned
 * ride_records (no foreign key: its key holds ride_at too).
 */
export const packageUsages = pgTable(
  'package_usages',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => packageOrders.id),
    rideRecordId: bigint('ride_record_id', { mode: 'number' }),
    rideAt: ts('ride_at').notNull(),
    lineCode: text('line_code').notNull(),
    busNo: text('bus_no').notNull(),
    singleFare: integer('single_fare').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('package_usages_order_idx').on(t.orderId, t.rideAt),
    index('package_usages_ride_at_idx').on(t.rideAt),
    // A reader that times out sends the same ride again: it is paid by the package once.
    uniqueIndex('package_usages_ride_uq').on(t.orderId, t.rideRecordId).where(sql`${t.rideRecordId} is not null`),
    check('package_usages_fare_ck', sql`${t.singleFare} >= 0`),
  ],
);
