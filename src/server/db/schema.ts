import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  bigserial,
  bigint,
  date,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * An editable record's version (issue 21: edits never overwrite another's): every save and status
 * change of the row adds one, and a save or move sent from another version is refused
 * (`lib/row-version.ts`). Counted, not a timestamp: two saves in one millisecond (or under a test's
 * fixed clock) would share an `updated_at`.
 */
export const rowVersion = () => integer('row_version').notNull().default(1);

export const districts = pgTable('districts', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  code: text('code').notNull().unique(),
  lat: doublePrecision('lat'),
  lon: doublePrecision('lon'),
  sort: integer('sort').notNull().default(0),
});

export const authItems = pgTable('auth_items', {
  id: text('id').primaryKey(),
  parentId: text('parent_id'),
  name: text('name').notNull(),
  path: text('path').notNull(),
  para: text('para').notNull(),
  type: text('type', { enum: ['menu', 'page', 'button'] }).notNull(),
  sort: integer('sort').notNull().default(0),
});

export const roleGroups = pgTable('role_groups', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  description: text('description').notNull().default(''),
  createdAt: ts('created_at').notNull(),
  updatedAt: ts('updated_at').notNull(),
  rowVersion: rowVersion(),
});

export const roleGroupItems = pgTable(
  'role_group_items',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => roleGroups.id, { onDelete: 'cascade' }),
    itemId: text('item_id')
      .notNull()
      .references(() => authItems.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.itemId] })],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Stored lower-case: logins are case-insensitive. */
    login: text('login').notNull().unique(),
    firstName: text('first_name').notNull(),
    phone: text('phone'),
    passwordHash: text('password_hash').notNull(),
    activated: boolean('activated').notNull().default(true),
    authorities: text('authorities').array().notNull(),
    groupId: integer('group_id').references(() => roleGroups.id),
    districtId: integer('district_id').references(() => districts.id),
    openDistrict: boolean('open_district').notNull().default(false),
    failedCount: integer('failed_count').notNull().default(0),
    failedWindowStart: ts('failed_window_start'),
    lockedUntil: ts('locked_until'),
    passwordChangedAt: ts('password_changed_at').notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [index('users_district_idx').on(t.districtId)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: ts('created_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull(),
    endedAt: ts('ended_at'),
    /** logout | replaced | disabled | password | idle | expired */
    endReason: text('end_reason'),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_live_idx').on(t.userId).where(sql`${t.endedAt} is null`)],
);

export const sysLog = pgTable(
  'sys_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    operatorId: integer('operator_id'),
    operatorLogin: text('operator_login'),
    operationType: text('operation_type').notNull(),
    target: text('target'),
    summary: text('summary').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    result: smallint('result').notNull(),
    /** The operator's working district when acting. */
    districtId: integer('district_id'),
    /** The district the row is about (target account, agreement): what district-scoped readers filter on; null = about none. */
    targetDistrictId: integer('target_district_id'),
    /** Set on rows that count repeats (failed logins by unknown names) instead of adding a row each. */
    aggregateKey: text('aggregate_key'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('sys_log_created_idx').on(t.createdAt),
    index('sys_log_type_idx').on(t.operationType, t.createdAt),
    index('sys_log_target_district_idx').on(t.targetDistrictId, t.createdAt),
    uniqueIndex('sys_log_aggregate_uq').on(t.aggregateKey).where(sql`${t.aggregateKey} is not null`),
  ],
);

/**
 * Password attempts since the last success per source (address) and typed name, known or not: what
 * backs off an attacker's address without locking the account's owner out (lib/login-throttle.ts).
 * The name is kept only as a keyed hash: people type their password into the name field.
 */
export const loginThrottle = pgTable(
  'login_throttle',
  {
    source: text('source').notNull(),
    nameKey: text('name_key').notNull(),
    attempts: integer('attempts').notNull(),
    windowStart: ts('window_start').notNull(),
    lockedUntil: ts('locked_until'),
  },
  (t) => [
    primaryKey({ columns: [t.source, t.nameKey] }),
    index('login_throttle_name_idx').on(t.nameKey),
    index('login_throttle_window_idx').on(t.windowStart),
  ],
);

export const agreements = pgTable(
  'agreements',
  {
    id: serial('id').primaryKey(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    code: text('code').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [uniqueIndex('agreements_district_code_uq').on(t.districtId, t.code)],
);

export const appConfig = pgTable('app_config', {
  key: text('key').primaryKey(),
  value: jsonb('value'),
  rowVersion: rowVersion(),
});

export const payInfo = pgTable('pay_info', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  sort: integer('sort').notNull().default(0),
});

/** One row: the JWT signing key, made on first start so every instance shares it. */
export const serverSecret = pgTable('server_secret', {
  id: smallint('id').primaryKey(),
  jwtSecret: text('jwt_secret').notNull(),
});

/**
 * Stations of a district, shared by all its line versions (README decision 59). Coordinates are
 * GCJ-02. `qr_code` is the short scene of the station's mini-program QR, unique once generated.
 */
export const stations = pgTable(
  'stations',
  {
    id: serial('id').primaryKey(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    name: text('name').notNull(),
    lng: doublePrecision('lng').notNull(),
    lat: doublePrecision('lat').notNull(),
    /** 1 in service, 0 out of service. */
    state: smallint('state').notNull().default(1),
    qrCode: text('qr_code').unique(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [index('stations_district_name_idx').on(t.districtId, t.name), check('stations_state_ck', sql`${t.state} in (0, 1)`)],
);

/**
 * Line-network versions of a district (spec §3): 0 open, 1 pending review, 2 review passed (pending
 * online), 3 online, 4 offline, 5 voided. At most one open and at most one online per district,
 * held by partial unique indexes; the go-live job swaps online ↔ offline in one transaction.
 */
export const lineVersions = pgTable(
  'line_versions',
  {
    id: serial('id').primaryKey(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    name: text('name').notNull(),
    status: smallint('status').notNull().default(0),
    /** When a passed version goes online (set on status 2; the job takes it then). */
    onlineAt: ts('online_at'),
    wentOnlineAt: ts('went_online_at'),
    remark: text('remark'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [
    uniqueIndex('line_versions_one_open_uq').on(t.districtId).where(sql`${t.status} = 0`),
    uniqueIndex('line_versions_one_online_uq').on(t.districtId).where(sql`${t.status} = 3`),
    index('line_versions_due_idx').on(t.onlineAt).where(sql`${t.status} = 2`),
    check('line_versions_status_ck', sql`${t.status} between 0 and 5`),
  ],
);

/** A line of one version: code (49), name (49路), direction (-1 both, 0 up only, 1 down only), loop. */
export const busLines = pgTable(
  'bus_lines',
  {
    id: serial('id').primaryKey(),
    versionId: integer('version_id')
      .notNull()
      .references(() => lineVersions.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    name: text('name').notNull(),
    direction: smallint('direction').notNull().default(-1),
    isLoop: boolean('is_loop').notNull().default(false),
    /** 1 running, 0 disabled (busLine/disable). */
    state: smallint('state').notNull().default(1),
    firstBus: text('first_bus'),
    lastBus: text('last_bus'),
    /** Fare in fen. */
    fare: integer('fare').notNull().default(200),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [uniqueIndex('bus_lines_version_code_uq').on(t.versionId, t.code), check('bus_lines_direction_ck', sql`${t.direction} in (-1, 0, 1)`)],
);

/** The ordered stops of a line per direction (0 up, 1 down); a loop repeats its first stop last. */
export const lineStations = pgTable(
  'line_stations',
  {
    id: serial('id').primaryKey(),
    lineId: integer('line_id')
      .notNull()
      .references(() => busLines.id, { onDelete: 'cascade' }),
    direction: smallint('direction').notNull(),
    seq: integer('seq').notNull(),
    stationId: integer('station_id')
      .notNull()
      .references(() => stations.id),
  },
  (t) => [
    uniqueIndex('line_stations_line_dir_seq_uq').on(t.lineId, t.direction, t.seq),
    index('line_stations_station_idx').on(t.stationId),
    check('line_stations_direction_ck', sql`${t.direction} in (0, 1)`),
  ],
);

/** A line's path per direction: GCJ-02 points [[lng, lat], …]. */
export const lineRoutes = pgTable(
  'line_routes',
  {
    id: serial('id').primaryKey(),
    lineId: integer('line_id')
      .notNull()
      .references(() => busLines.id, { onDelete: 'cascade' }),
    direction: smallint('direction').notNull(),
    points: jsonb('points').$type<[number, number][]>().notNull(),
  },
  (t) => [uniqueIndex('line_routes_line_dir_uq').on(t.lineId, t.direction)],
);

/** Sub-lines (line details): a short working or express service of a line, with its own stops. */
export const lineDetails = pgTable('line_details', {
  id: serial('id').primaryKey(),
  lineId: integer('line_id')
    .notNull()
    .references(() => busLines.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  direction: smallint('direction').notNull().default(0),
  /** setAllBusLineStationOn: whether every stop of the line is served (1) or only the listed ones (0). */
  allStationsOn: boolean('all_stations_on').notNull().default(false),
  state: smallint('state').notNull().default(1),
  createdAt: ts('created_at').notNull(),
  updatedAt: ts('updated_at').notNull(),
  rowVersion: rowVersion(),
});

export const lineDetailStations = pgTable(
  'line_detail_stations',
  {
    id: serial('id').primaryKey(),
    detailId: integer('detail_id')
      .notNull()
      .references(() => lineDetails.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    stationId: integer('station_id')
      .notNull()
      .references(() => stations.id),
  },
  (t) => [uniqueIndex('line_detail_stations_seq_uq').on(t.detailId, t.seq), index('line_detail_stations_station_idx').on(t.stationId)],
);

/**
 * Riders (the mini-program's users, spec `wx-user`). Phone, citizen id and name are stored sealed
 * (lib/pii.ts: AES-256-GCM); `*_idx` are HMAC blind indexes for exact lookups. Nothing here is
 * readable without PII_KEY.
 */
export const riders = pgTable(
  'riders',
  {
    id: serial('id').primaryKey(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    phoneEnc: text('phone_enc').notNull(),
    phoneIdx: text('phone_idx').notNull(),
    citizenEnc: text('citizen_enc'),
    citizenIdx: text('citizen_idx'),
    nameEnc: text('name_enc'),
    /** 1 real-name verified (实名认证), 0 not. */
    realName: smallint('real_name').notNull().default(0),
    /** 1 normal, 0 abnormal (异常用户: flagged for review, spec key `ycOrder`). */
    state: smallint('state').notNull().default(1),
    abnormalReason: text('abnormal_reason'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  // One rider per phone number: the blind index holds it unique without the number itself.
  (t) => [uniqueIndex('riders_phone_uq').on(t.phoneIdx), index('riders_citizen_idx').on(t.citizenIdx), index('riders_district_idx').on(t.districtId, t.id)],
);

/** Bus cards (spec §3): state 0–11, category 1–6, balance in fen; the holder is a rider when known. */
export const busCards = pgTable(
  'bus_cards',
  {
    id: serial('id').primaryKey(),
    cardNo: text('card_no').notNull().unique(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    state: smallint('state').notNull().default(1),
    category: smallint('category').notNull(),
    riderId: integer('rider_id').references(() => riders.id),
    balance: integer('balance').notNull().default(0),
    issuedAt: ts('issued_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('bus_cards_rider_idx').on(t.riderId), index('bus_cards_district_idx').on(t.districtId, t.id), check('bus_cards_state_ck', sql`${t.state} between 0 and 11`), check('bus_cards_category_ck', sql`${t.category} between 1 and 6`)],
);

/** 亲情卡: a rider (the citizen) binds a relative's card; one live binding per card. */
export const familyBindings = pgTable(
  'family_bindings',
  {
    id: serial('id').primaryKey(),
    holderId: integer('holder_id')
      .notNull()
      .references(() => riders.id),
    cardId: integer('card_id')
      .notNull()
      .references(() => busCards.id),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    relation: text('relation').notNull(),
    /** 1 bound, 0 unbound. */
    status: smallint('status').notNull().default(1),
    boundAt: ts('bound_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    unboundAt: ts('unbound_at'),
    rowVersion: rowVersion(),
  },
  (t) => [uniqueIndex('family_bindings_live_card_uq').on(t.cardId).where(sql`${t.status} = 1`), index('family_bindings_holder_idx').on(t.holderId), index('family_bindings_district_idx').on(t.districtId, t.id)],
);

/** Renewals of a family binding (续期), with what was paid. */
export const familyRenewals = pgTable(
  'family_renewals',
  {
    id: serial('id').primaryKey(),
    bindingId: integer('binding_id')
      .notNull()
      .references(() => familyBindings.id),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    months: integer('months').notNull(),
    amount: integer('amount').notNull(),
    renewedAt: ts('renewed_at').notNull(),
  },
  (t) => [
    index('family_renewals_binding_idx').on(t.bindingId),
    index('family_renewals_district_idx').on(t.districtId, t.renewedAt),
    // The city-wide export walks (renewed_at, id) as its keyset: without a district to lead with, the one above cannot serve it.
    index('family_renewals_renewed_idx').on(t.renewedAt, t.id),
  ],
);

/** 优惠卡 products (spec `busDiscountCard`): ticket type 1 single, 2 monthly, 3 yearly; price in fen. */
export const discountProducts = pgTable(
  'discount_products',
  {
    id: serial('id').primaryKey(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    name: text('name').notNull(),
    ticketType: smallint('ticket_type').notNull(),
    price: integer('price').notNull(),
    /** 1 on sale, 0 off sale. */
    status: smallint('status').notNull().default(1),
    validDays: integer('valid_days').notNull(),
    description: text('description'),
    deletedAt: ts('deleted_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [check('discount_products_ticket_ck', sql`${t.ticketType} in (1, 2, 3)`)],
);

/** Orders of discount cards: payment status 0 unpaid, 1 paid, 2 refunded. */
export const discountOrders = pgTable(
  'discount_orders',
  {
    id: serial('id').primaryKey(),
    orderNo: text('order_no').notNull().unique(),
    productId: integer('product_id')
      .notNull()
      .references(() => discountProducts.id),
    cardId: integer('card_id')
      .notNull()
      .references(() => busCards.id),
    riderId: integer('rider_id').references(() => riders.id),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    amount: integer('amount').notNull(),
    payStatus: smallint('pay_status').notNull().default(0),
    paidAt: ts('paid_at'),
    refundedAt: ts('refunded_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('discount_orders_card_idx').on(t.cardId), index('discount_orders_district_idx').on(t.districtId, t.createdAt), check('discount_orders_pay_ck', sql`${t.payStatus} in (0, 1, 2)`)],
);

/** The refund ledger: one row per refunded order (unique), keyed by the caller's idempotency key. */
export const refunds = pgTable('refunds', {
  id: serial('id').primaryKey(),
  orderId: integer('order_id')
    .notNull()
    .unique()
    .references(() => discountOrders.id),
  amount: integer('amount').notNull(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  reason: text('reason').notNull(),
  operatorId: integer('operator_id').references(() => users.id),
  createdAt: ts('created_at').notNull(),
});

/**
 * The money modules' refund ledger (储值, NFC充值, 套餐, later 定制公交; second-wave §1): one row per
 * refunded order or item of a kind, and one per idempotency key, written in the transaction that
 * moves the order. The channel side follows the commit: 0 退款中 → 1 退款成功 / 2 退款异常, retried
 * under the same `out_refund_no` (derived from the key). The discount module keeps its own `refunds`.
 */
export const moneyRefunds = pgTable(
  'money_refunds',
  {
    id: serial('id').primaryKey(),
    /** 'wallet' | 'nfc' | 'package' (RefundKind). */
    kind: text('kind').notNull(),
    orderId: integer('order_id').notNull(),
    /** 0 when the whole order is refunded; an item's id when refunds are per item. */
    itemId: integer('item_id').notNull().default(0),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    orderNo: text('order_no').notNull(),
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    outRefundNo: text('out_refund_no').notNull(),
    /** 0 退款中, 1 退款成功, 2 退款异常. */
    state: smallint('state').notNull().default(0),
    channelRefundNo: text('channel_refund_no'),
    failReason: text('fail_reason'),
    attempts: integer('attempts').notNull().default(0),
    operatorId: integer('operator_id').references(() => users.id),
    createdAt: ts('created_at').notNull(),
    settledAt: ts('settled_at'),
  },
  (t) => [
    uniqueIndex('money_refunds_item_uq').on(t.kind, t.orderId, t.itemId),
    uniqueIndex('money_refunds_key_uq').on(t.idempotencyKey),
    uniqueIndex('money_refunds_out_uq').on(t.outRefundNo),
    index('money_refunds_state_idx').on(t.state).where(sql`${t.state} <> 1`),
    check('money_refunds_amount_ck', sql`${t.amount} >= 0`),
    check('money_refunds_state_ck', sql`${t.state} in (0, 1, 2)`),
  ],
);

/**
 * Ride records (乘车记录): one row per tap. Partitioned by month on `ride_at` (the migration declares
 * `partition by range`; lib/ride-partitions.ts creates the months ahead), so a line's day or a card's
 * latest rides read one or two partitions. Line, bus and station are kept as they were at the ride
 * (names change with line versions). The primary key holds the partition key, as PostgreSQL requires.
 */
export const rideRecords = pgTable(
  'ride_records',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    rideAt: ts('ride_at').notNull(),
    districtId: integer('district_id').notNull(),
    lineCode: text('line_code').notNull(),
    lineName: text('line_name').notNull(),
    busName: text('bus_name').notNull(),
    /** 0 up, 1 down. */
    direction: smallint('direction').notNull(),
    stationName: text('station_name'),
    cardNo: text('card_no').notNull(),
    cardCategory: smallint('card_category').notNull(),
    /** 1 single, 2 monthly, 3 yearly. */
    ticketType: smallint('ticket_type').notNull(),
    amount: integer('amount').notNull(),
    /** 0 unpaid, 1 paid, 2 refunded. */
    payStatus: smallint('pay_status').notNull(),
    /** 0 not recharged, 1 recharged. */
    rechargeStatus: smallint('recharge_status').notNull(),
    orderNo: text('order_no').notNull(),
    payChannel: text('pay_channel').notNull(),
    paidAt: ts('paid_at'),
  },
  (t) => [
    primaryKey({ name: 'ride_records_pk', columns: [t.rideAt, t.id] }),
    index('ride_records_card_idx').on(t.cardNo, t.rideAt.desc()),
    index('ride_records_line_idx').on(t.lineCode, t.rideAt),
    index('ride_records_district_idx').on(t.districtId, t.rideAt),
    // A record by id (its payment order): the key leads with ride_at, so id needs its own index.
    index('ride_records_id_idx').on(t.id),
  ],
);

/**
 * Daily ridership per line × bus × ticket type × card category (day-take-bus-total), kept with the
 * records: whatever writes rides adds them here in the same transaction.
 */
export const dayTakeBusTotals = pgTable(
  'day_take_bus_totals',
  {
    day: date('day', { mode: 'string' }).notNull(),
    districtId: integer('district_id').notNull(),
    lineCode: text('line_code').notNull(),
    lineName: text('line_name').notNull(),
    busName: text('bus_name').notNull(),
    ticketType: smallint('ticket_type').notNull(),
    cardCategory: smallint('card_category').notNull(),
    rides: integer('rides').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'day_take_bus_totals_pk', columns: [t.day, t.districtId, t.lineCode, t.busName, t.ticketType, t.cardCategory] }),
    index('day_take_bus_totals_district_idx').on(t.districtId, t.day),
    index('day_take_bus_totals_line_idx').on(t.lineCode, t.day),
  ],
);

/**
 * Export tasks of the download centre (README decision 88): claimed by one instance with
 * `for update skip locked`, kept alive by a heartbeat, so a task whose instance died is taken up
 * again (or failed after a few attempts) instead of staying "in progress".
 */
export const exportTasks = pgTable(
  'export_tasks',
  {
    id: serial('id').primaryKey(),
    /** What is exported: a kind a server module declares (`ride.records`, `ride.ridership`, …). */
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    fileName: text('file_name').notNull(),
    /** The creation call's parsed query: the worker runs the same filters. */
    params: jsonb('params').notNull(),
    userId: integer('user_id').notNull(),
    /** The district scope the task was asked under (null: every district). */
    districtScope: integer('district_scope'),
    /** queued, running, done, failed, cancelled, expired, deleted; spec §3's status is derived from it. */
    phase: text('phase').notNull(),
    rowsDone: integer('rows_done').notNull().default(0),
    rowsTotal: integer('rows_total'),
    fileSize: bigint('file_size', { mode: 'number' }),
    error: text('error'),
    claimedBy: text('claimed_by'),
    heartbeatAt: ts('heartbeat_at'),
    attempts: smallint('attempts').notNull().default(0),
    createdAt: ts('created_at').notNull(),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    expiresAt: ts('expires_at'),
  },
  (t) => [index('export_tasks_user_idx').on(t.userId, t.id.desc()), index('export_tasks_open_idx').on(t.phase, t.id).where(sql`phase in ('queued', 'running')`)],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength)),
});

/**
 * A finished export's file, in pieces of about a megabyte: any instance can serve it (no shared disk
 * needed) and a download streams it a piece at a time.
 */
export const exportFileChunks = pgTable(
  'export_file_chunks',
  {
    taskId: integer('task_id')
      .notNull()
      .references(() => exportTasks.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ name: 'export_file_chunks_pk', columns: [t.taskId, t.seq] })],
);

/**
 * Applicants' images (id cards, photos, proofs, feedback pictures) for the review queues of 线上验卡,
 * 线上办卡 and 意见反馈 (second wave §1): sealed with the personal-data key (lib/sealed-files.ts),
 * read only through a reasoned, audited call. Purging after the final decision drops the bytes and
 * keeps the SHA-256, so a later dispute can still prove which file was judged.
 */
export const sealedFiles = pgTable(
  'sealed_files',
  {
    id: serial('id').primaryKey(),
    /** The owning module's kind: 'verify' | 'handle' | 'feedback' (SealedFileKind). */
    kind: text('kind').notNull(),
    /** The owning record's id (an application, a feedback). */
    refId: integer('ref_id').notNull(),
    /** What the file shows, as the reviewer reads it: 人像面, 国徽面, 学生证, 证件照… */
    label: text('label').notNull(),
    mime: text('mime').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width'),
    height: integer('height'),
    sha256: text('sha256').notNull(),
    /** AES-256-GCM (iv ‖ tag ‖ body); null once purged. */
    data: bytea('data'),
    createdAt: ts('created_at').notNull(),
    purgedAt: ts('purged_at'),
  },
  (t) => [index('sealed_files_ref_idx').on(t.kind, t.refId), check('sealed_files_kind_ck', sql`${t.kind} in ('verify', 'handle', 'feedback')`)],
);
