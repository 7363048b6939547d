import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  bigserial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

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
  },
  (t) => [uniqueIndex('agreements_district_code_uq').on(t.districtId, t.code)],
);

export const appConfig = pgTable('app_config', {
  key: text('key').primaryKey(),
  value: jsonb('value'),
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
