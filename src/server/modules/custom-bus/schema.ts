import { sql } from 'drizzle-orm';
import { check, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { districts, riders, rowVersion, stations, users } from '../../db/schema';
import { customRefundRules } from '../custom-setting/schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/*
 * 定制公交 (second wave §5). Money in fen, rates in ‰, times of day in seconds after midnight,
 * instants in UTC and days in Asia/Shanghai (a class's `departDate` is its Shanghai day).
 */

/** 定制站点: 1 启用 / 0 停用; `busStationId` links it to a regular stop when it shares one. */
export const customStations = pgTable(
  'custom_stations',
  {
    id: serial('id').primaryKey(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    name: text('name').notNull(),
    address: text('address').notNull().default(''),
    /** GCJ-02, as the regular stations. */
    lng: doublePrecision('lng').notNull(),
    lat: doublePrecision('lat').notNull(),
    busStationId: integer('bus_station_id').references(() => stations.id),
    status: smallint('status').notNull().default(1),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [
    uniqueIndex('custom_stations_name_uq').on(t.districtId, t.name),
    check('custom_stations_status_ck', sql`${t.status} in (0, 1)`),
    check('custom_stations_name_ck', sql`char_length(${t.name}) between 1 and 20`),
  ],
);

/**
 * 定制线路. `direction` −1 往返 (morning 上行 and evening 下行), 0 上行 only, 1 下行 only; the return
 * leg's times are set exactly when it is 往返. `price` is derived from the original price and the
 * discount (1 无折扣, 2 折扣 ‰, 3 折后金额) and stored so lists and classes need not recompute it.
 * `ticketTypes` ⊆ {1 单次票, 2 月票}. Status 0 草稿 → 1 已上架 ⇄ 2 已下架.
 */
export const customLines = pgTable(
  'custom_lines',
  {
    id: serial('id').primaryKey(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    lineNo: text('line_no').notNull(),
    name: text('name').notNull(),
    direction: smallint('direction').notNull(),
    startStationId: integer('start_station_id').references(() => customStations.id),
    endStationId: integer('end_station_id').references(() => customStations.id),
    departTime: integer('depart_time').notNull(),
    arriveTime: integer('arrive_time').notNull(),
    returnDepartTime: integer('return_depart_time'),
    returnArriveTime: integer('return_arrive_time'),
    originalPrice: integer('original_price').notNull(),
    discountType: smallint('discount_type').notNull().default(1),
    discountRate: integer('discount_rate'),
    discountPrice: integer('discount_price'),
    price: integer('price').notNull(),
    ticketTypes: smallint('ticket_types').array().notNull(),
    defaultSeats: integer('default_seats').notNull(),
    status: smallint('status').notNull().default(0),
    sort: integer('sort').notNull().default(0),
    /** The 定制列表 demand it was opened for (需求成线), if any; no foreign key (the demand points back). */
    demandId: integer('demand_id'),
    remark: text('remark').notNull().default(''),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [
    uniqueIndex('custom_lines_no_uq').on(t.districtId, t.lineNo),
    index('custom_lines_district_idx').on(t.districtId, t.status),
    check('custom_lines_direction_ck', sql`${t.direction} in (-1, 0, 1)`),
    check('custom_lines_status_ck', sql`${t.status} between 0 and 2`),
    check('custom_lines_name_ck', sql`char_length(${t.name}) between 1 and 15`),
    check('custom_lines_times_ck', sql`${t.departTime} between 0 and 86399 and ${t.arriveTime} between 0 and 86399`),
    check('custom_lines_return_ck', sql`(${t.direction} = -1) = (${t.returnDepartTime} is not null and ${t.returnArriveTime} is not null)`),
    check('custom_lines_discount_type_ck', sql`${t.discountType} between 1 and 3`),
    check('custom_lines_price_ck', sql`${t.originalPrice} > 0 and ${t.price} > 0 and ${t.price} <= ${t.originalPrice}`),
    check('custom_lines_seats_ck', sql`${t.defaultSeats} between 1 and 80`),
  ],
);

/**
 * 定制线路轨迹: a direction's ordered stops (0 上行, 1 下行). `offsetMin` is minutes after the leg's
 * departure, strictly increasing along `seq`; `mode` 0 上下客, 1 仅上车, 2 仅下车.
 */
export const customLineStops = pgTable(
  'custom_line_stops',
  {
    id: serial('id').primaryKey(),
    lineId: integer('line_id')
      .notNull()
      .references(() => customLines.id, { onDelete: 'cascade' }),
    direction: smallint('direction').notNull(),
    seq: integer('seq').notNull(),
    stationId: integer('station_id')
      .notNull()
      .references(() => customStations.id),
    offsetMin: integer('offset_min').notNull(),
    mode: smallint('mode').notNull().default(0),
  },
  (t) => [
    uniqueIndex('custom_line_stops_seq_uq').on(t.lineId, t.direction, t.seq),
    index('custom_line_stops_station_idx').on(t.stationId),
    check('custom_line_stops_direction_ck', sql`${t.direction} in (0, 1)`),
    check('custom_line_stops_mode_ck', sql`${t.mode} between 0 and 2`),
    check('custom_line_stops_offset_ck', sql`${t.offsetMin} between 0 and 720`),
  ],
);

/** The drawn path of a direction: [lng, lat] points (GCJ-02), saved with its stops. */
export const customLinePaths = pgTable(
  'custom_line_paths',
  {
    lineId: integer('line_id')
      .notNull()
      .references(() => customLines.id, { onDelete: 'cascade' }),
    direction: smallint('direction').notNull(),
    points: jsonb('points').$type<[number, number][]>().notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.lineId, t.direction] }), check('custom_line_paths_direction_ck', sql`${t.direction} in (0, 1)`)],
);

/** 车辆: 1 可用, 2 维修, 0 停用. A car whose inspection has lapsed is never scheduled. */
export const customCars = pgTable(
  'custom_cars',
  {
    id: serial('id').primaryKey(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    plateNo: text('plate_no').notNull(),
    seats: integer('seats').notNull(),
    model: text('model').notNull().default(''),
    company: text('company').notNull().default(''),
    status: smallint('status').notNull().default(1),
    /** Shanghai days: the last day the inspection / insurance covers. */
    inspectionUntil: date('inspection_until', { mode: 'string' }).notNull(),
    insuranceUntil: date('insurance_until', { mode: 'string' }).notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [
    uniqueIndex('custom_cars_plate_uq').on(t.plateNo),
    index('custom_cars_district_idx').on(t.districtId, t.status),
    check('custom_cars_status_ck', sql`${t.status} between 0 and 2`),
    check('custom_cars_seats_ck', sql`${t.seats} between 1 and 80`),
  ],
);

/**
 * 司机: the licence number is the citizen id, stored once and sealed (`idEnc`, blind index `idIdx`),
 * revealed only through a reasoned, audited call. The phone is sealed too and shown masked.
 * 1 在岗, 2 请假, 0 停用.
 */
export const customDrivers = pgTable(
  'custom_drivers',
  {
    id: serial('id').primaryKey(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    name: text('name').notNull(),
    phoneEnc: text('phone_enc').notNull(),
    phoneIdx: text('phone_idx').notNull(),
    idEnc: text('id_enc').notNull(),
    idIdx: text('id_idx').notNull(),
    /** A1, A3, B1. */
    licenceClass: text('licence_class').notNull(),
    licenceUntil: date('licence_until', { mode: 'string' }).notNull(),
    status: smallint('status').notNull().default(1),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [
    uniqueIndex('custom_drivers_id_uq').on(t.idIdx),
    index('custom_drivers_district_idx').on(t.districtId, t.status),
    index('custom_drivers_phone_idx').on(t.phoneIdx),
    check('custom_drivers_status_ck', sql`${t.status} between 0 and 2`),
    check('custom_drivers_class_ck', sql`${t.licenceClass} in ('A1', 'A3', 'B1')`),
  ],
);

/**
 * 班次: one dated departure of a line's direction. Seats: `publish` issued = `stock` free + `held` by
 * unpaid orders + `sold` paid; the checks hold this whatever a caller does, so a buy's guarded
 * `stock = stock − n where stock >= n` can never oversell. `departAt`/`arriveAt` are the instants
 * (from the Shanghai day and the times) that scheduling compares for a car's or a driver's clash.
 * Status 0 待售, 1 售票中, 2 停售, 3 已发车, 4 已取消.
 */
export const customClasses = pgTable(
  'custom_classes',
  {
    id: serial('id').primaryKey(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    lineId: integer('line_id')
      .notNull()
      .references(() => customLines.id),
    direction: smallint('direction').notNull(),
    departDate: date('depart_date', { mode: 'string' }).notNull(),
    departTime: integer('depart_time').notNull(),
    departAt: ts('depart_at').notNull(),
    arriveAt: ts('arrive_at').notNull(),
    publish: integer('publish').notNull(),
    stock: integer('stock').notNull(),
    held: integer('held').notNull().default(0),
    sold: integer('sold').notNull().default(0),
    /** Fen per seat, the line's price when scheduled (a later price change leaves sold classes alone). */
    price: integer('price').notNull(),
    saleOpenAt: ts('sale_open_at').notNull(),
    saleCloseAt: ts('sale_close_at').notNull(),
    carId: integer('car_id').references(() => customCars.id),
    driverId: integer('driver_id').references(() => customDrivers.id),
    status: smallint('status').notNull().default(0),
    cancelReason: text('cancel_reason'),
    cancelledAt: ts('cancelled_at'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [
    // 该线路{date} {time}已有班次: a cancelled class frees its slot.
    uniqueIndex('custom_classes_slot_uq').on(t.lineId, t.direction, t.departDate, t.departTime).where(sql`${t.status} <> 4`),
    index('custom_classes_district_date_idx').on(t.districtId, t.departDate),
    index('custom_classes_line_date_idx').on(t.lineId, t.departDate),
    index('custom_classes_car_idx').on(t.carId, t.departAt).where(sql`${t.carId} is not null and ${t.status} <> 4`),
    index('custom_classes_driver_idx').on(t.driverId, t.departAt).where(sql`${t.driverId} is not null and ${t.status} <> 4`),
    index('custom_classes_due_idx').on(t.status, t.saleOpenAt).where(sql`${t.status} in (0, 1, 2)`),
    check('custom_classes_status_ck', sql`${t.status} between 0 and 4`),
    check('custom_classes_direction_ck', sql`${t.direction} in (0, 1)`),
    check('custom_classes_seats_ck', sql`${t.stock} >= 0 and ${t.held} >= 0 and ${t.sold} >= 0 and ${t.stock} + ${t.held} + ${t.sold} = ${t.publish}`),
    check('custom_classes_publish_ck', sql`${t.publish} between 0 and 80`),
    check('custom_classes_time_ck', sql`${t.departTime} between 0 and 86399 and ${t.arriveAt} > ${t.departAt}`),
    check('custom_classes_sale_ck', sql`${t.saleCloseAt} > ${t.saleOpenAt}`),
    check('custom_classes_price_ck', sql`${t.price} > 0`),
  ],
);

/**
 * 定制订单: a rider's purchase of 1–4 seats on one class (单次票) or a seat on every class of a line's
 * direction in a month (月票, `month` 'YYYY-MM', `classesId` null). It keeps the refund ladder and the
 * agreement version it was sold under. `holdUntil`: an unpaid order's seats return after it.
 * Status 0 待支付, 1 已支付, 2 已关闭 (hold expired), 3 部分退款, 4 已退款; payStatus as spec §3.
 */
export const customOrders = pgTable(
  'custom_orders',
  {
    id: serial('id').primaryKey(),
    orderNo: text('order_no').notNull(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    riderId: integer('rider_id')
      .notNull()
      .references(() => riders.id),
    lineId: integer('line_id')
      .notNull()
      .references(() => customLines.id),
    direction: smallint('direction').notNull(),
    classesId: integer('classes_id').references(() => customClasses.id),
    month: text('month'),
    ticketType: smallint('ticket_type').notNull(),
    seats: integer('seats').notNull(),
    amount: integer('amount').notNull(),
    refundedAmount: integer('refunded_amount').notNull().default(0),
    payStatus: smallint('pay_status').notNull().default(0),
    status: smallint('status').notNull().default(0),
    ruleVersionId: integer('rule_version_id').references(() => customRefundRules.id),
    agreementVersion: integer('agreement_version'),
    holdUntil: ts('hold_until').notNull(),
    paidAt: ts('paid_at'),
    closedAt: ts('closed_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('custom_orders_no_uq').on(t.orderNo),
    index('custom_orders_district_idx').on(t.districtId, t.createdAt),
    index('custom_orders_rider_idx').on(t.riderId, t.createdAt),
    index('custom_orders_classes_idx').on(t.classesId),
    index('custom_orders_line_idx').on(t.lineId, t.createdAt),
    index('custom_orders_unpaid_idx').on(t.holdUntil).where(sql`${t.status} = 0`),
    check('custom_orders_ticket_type_ck', sql`${t.ticketType} in (1, 2)`),
    check('custom_orders_kind_ck', sql`(${t.ticketType} = 1 and ${t.classesId} is not null and ${t.month} is null) or (${t.ticketType} = 2 and ${t.classesId} is null and ${t.month} ~ '^\\d{4}-\\d{2}$')`),
    check('custom_orders_seats_ck', sql`${t.seats} between 1 and 10`),
    check('custom_orders_amount_ck', sql`${t.amount} >= 0 and ${t.refundedAmount} >= 0 and ${t.refundedAmount} <= ${t.amount}`),
    check('custom_orders_status_ck', sql`${t.status} between 0 and 4`),
    check('custom_orders_pay_status_ck', sql`${t.payStatus} between 0 and 2`),
    check('custom_orders_direction_ck', sql`${t.direction} in (0, 1)`),
  ],
);

/**
 * 车票: one seat on one class. A 月票 of one seat has a ticket per class of its month; its `amount`
 * is its share of the order's (shares add up to the order's amount to the fen). State 0 待支付,
 * 1 已支付, 2 已核销, 3 已退票, 4 已关闭. The check (验票) is kept on the ticket: one per ticket.
 */
export const customTickets = pgTable(
  'custom_tickets',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => customOrders.id),
    classesId: integer('classes_id')
      .notNull()
      .references(() => customClasses.id),
    ticketNo: text('ticket_no').notNull(),
    state: smallint('state').notNull().default(0),
    amount: integer('amount').notNull(),
    refundedAmount: integer('refunded_amount').notNull().default(0),
    refundedAt: ts('refunded_at'),
    checkedAt: ts('checked_at'),
    checkPlateNo: text('check_plate_no'),
    /** 1 扫码, 2 人工. */
    checkMethod: smallint('check_method'),
    checkedBy: integer('checked_by').references(() => users.id),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('custom_tickets_no_uq').on(t.ticketNo),
    index('custom_tickets_order_idx').on(t.orderId),
    index('custom_tickets_classes_idx').on(t.classesId, t.state),
    check('custom_tickets_state_ck', sql`${t.state} between 0 and 4`),
    check('custom_tickets_amount_ck', sql`${t.amount} >= 0 and ${t.refundedAmount} >= 0 and ${t.refundedAmount} <= ${t.amount}`),
    check('custom_tickets_check_ck', sql`(${t.state} = 2) = (${t.checkedAt} is not null)`),
    check('custom_tickets_method_ck', sql`${t.checkMethod} is null or ${t.checkMethod} in (1, 2)`),
  ],
);

/**
 * 定制列表: aggregated rider demand between two areas in a time window. State 0 未开通, 1 已开通 (a
 * line linked), 2 暂不开通 (a reply given); 2 → 0 reopens. `supporters` counts its records.
 */
export const customDemands = pgTable(
  'custom_demands',
  {
    id: serial('id').primaryKey(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    fromName: text('from_name').notNull(),
    fromLng: doublePrecision('from_lng').notNull(),
    fromLat: doublePrecision('from_lat').notNull(),
    fromRadiusM: integer('from_radius_m').notNull().default(1000),
    toName: text('to_name').notNull(),
    toLng: doublePrecision('to_lng').notNull(),
    toLat: doublePrecision('to_lat').notNull(),
    toRadiusM: integer('to_radius_m').notNull().default(1000),
    /** Seconds after midnight: the morning window and (optional) the evening one. */
    goFrom: integer('go_from').notNull(),
    goTo: integer('go_to').notNull(),
    backFrom: integer('back_from'),
    backTo: integer('back_to'),
    distanceM: integer('distance_m').notNull(),
    supporters: integer('supporters').notNull().default(0),
    threshold: integer('threshold').notNull().default(30),
    state: smallint('state').notNull().default(0),
    lineId: integer('line_id').references(() => customLines.id),
    reply: text('reply').notNull().default(''),
    handledBy: integer('handled_by').references(() => users.id),
    handledAt: ts('handled_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    rowVersion: rowVersion(),
  },
  (t) => [
    index('custom_demands_district_idx').on(t.districtId, t.state),
    check('custom_demands_state_ck', sql`${t.state} between 0 and 2`),
    check('custom_demands_line_ck', sql`(${t.state} = 1) = (${t.lineId} is not null)`),
    check('custom_demands_window_ck', sql`${t.goTo} >= ${t.goFrom} and (${t.backFrom} is null or ${t.backTo} >= ${t.backFrom})`),
  ],
);

/**
 * 定制记录: one rider's submission. Home and work points are sealed (`homeEnc`, `workEnc`); what is
 * stored in the clear is the 500 m grid cell each falls in (`homeCell`, `workCell`, 'x:y'), which is
 * what the heat map clusters and what lists show. Status 0 待匹配, 1 已匹配, 2 已通知.
 */
export const customDemandRecords = pgTable(
  'custom_demand_records',
  {
    id: serial('id').primaryKey(),
    districtId: integer('district_id')
      .notNull()
      .references(() => districts.id),
    demandId: integer('demand_id').references(() => customDemands.id),
    riderId: integer('rider_id')
      .notNull()
      .references(() => riders.id),
    homeName: text('home_name').notNull().default(''),
    homeEnc: text('home_enc').notNull(),
    homeCell: text('home_cell').notNull(),
    workName: text('work_name').notNull().default(''),
    workEnc: text('work_enc').notNull(),
    workCell: text('work_cell').notNull(),
    goTime: integer('go_time').notNull(),
    backTime: integer('back_time'),
    status: smallint('status').notNull().default(0),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    index('custom_demand_records_district_idx').on(t.districtId, t.createdAt),
    index('custom_demand_records_demand_idx').on(t.demandId),
    index('custom_demand_records_cells_idx').on(t.districtId, t.homeCell, t.workCell),
    index('custom_demand_records_rider_idx').on(t.riderId),
    check('custom_demand_records_status_ck', sql`${t.status} between 0 and 2`),
    check('custom_demand_records_time_ck', sql`${t.goTime} between 0 and 86399 and (${t.backTime} is null or ${t.backTime} between 0 and 86399)`),
  ],
);
