CREATE TABLE "custom_cars" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer NOT NULL,
	"plate_no" text NOT NULL,
	"seats" integer NOT NULL,
	"model" text DEFAULT '' NOT NULL,
	"company" text DEFAULT '' NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"inspection_until" date NOT NULL,
	"insurance_until" date NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "custom_cars_status_ck" CHECK ("custom_cars"."status" between 0 and 2),
	CONSTRAINT "custom_cars_seats_ck" CHECK ("custom_cars"."seats" between 1 and 80)
);
--> statement-breakpoint
CREATE TABLE "custom_classes" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer NOT NULL,
	"line_id" integer NOT NULL,
	"direction" smallint NOT NULL,
	"depart_date" date NOT NULL,
	"depart_time" integer NOT NULL,
	"depart_at" timestamp with time zone NOT NULL,
	"arrive_at" timestamp with time zone NOT NULL,
	"publish" integer NOT NULL,
	"stock" integer NOT NULL,
	"held" integer DEFAULT 0 NOT NULL,
	"sold" integer DEFAULT 0 NOT NULL,
	"price" integer NOT NULL,
	"sale_open_at" timestamp with time zone NOT NULL,
	"sale_close_at" timestamp with time zone NOT NULL,
	"car_id" integer,
	"driver_id" integer,
	"status" smallint DEFAULT 0 NOT NULL,
	"cancel_reason" text,
	"cancelled_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "custom_classes_status_ck" CHECK ("custom_classes"."status" between 0 and 4),
	CONSTRAINT "custom_classes_direction_ck" CHECK ("custom_classes"."direction" in (0, 1)),
	CONSTRAINT "custom_classes_seats_ck" CHECK ("custom_classes"."stock" >= 0 and "custom_classes"."held" >= 0 and "custom_classes"."sold" >= 0 and "custom_classes"."stock" + "custom_classes"."held" + "custom_classes"."sold" = "custom_classes"."publish"),
	CONSTRAINT "custom_classes_publish_ck" CHECK ("custom_classes"."publish" between 0 and 80),
	CONSTRAINT "custom_classes_time_ck" CHECK ("custom_classes"."depart_time" between 0 and 86399 and "custom_classes"."arrive_at" > "custom_classes"."depart_at"),
	CONSTRAINT "custom_classes_sale_ck" CHECK ("custom_classes"."sale_close_at" > "custom_classes"."sale_open_at"),
	CONSTRAINT "custom_classes_price_ck" CHECK ("custom_classes"."price" > 0)
);
--> statement-breakpoint
CREATE TABLE "custom_demand_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer NOT NULL,
	"demand_id" integer,
	"rider_id" integer NOT NULL,
	"home_name" text DEFAULT '' NOT NULL,
	"home_enc" text NOT NULL,
	"home_cell" text NOT NULL,
	"work_name" text DEFAULT '' NOT NULL,
	"work_enc" text NOT NULL,
	"work_cell" text NOT NULL,
	"go_time" integer NOT NULL,
	"back_time" integer,
	"status" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "custom_demand_records_status_ck" CHECK ("custom_demand_records"."status" between 0 and 2),
	CONSTRAINT "custom_demand_records_time_ck" CHECK ("custom_demand_records"."go_time" between 0 and 86399 and ("custom_demand_records"."back_time" is null or "custom_demand_records"."back_time" between 0 and 86399))
);
--> statement-breakpoint
CREATE TABLE "custom_demands" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer NOT NULL,
	"from_name" text NOT NULL,
	"from_lng" double precision NOT NULL,
	"from_lat" double precision NOT NULL,
	"from_radius_m" integer DEFAULT 1000 NOT NULL,
	"to_name" text NOT NULL,
	"to_lng" double precision NOT NULL,
	"to_lat" double precision NOT NULL,
	"to_radius_m" integer DEFAULT 1000 NOT NULL,
	"go_from" integer NOT NULL,
	"go_to" integer NOT NULL,
	"back_from" integer,
	"back_to" integer,
	"distance_m" integer NOT NULL,
	"supporters" integer DEFAULT 0 NOT NULL,
	"threshold" integer DEFAULT 30 NOT NULL,
	"state" smallint DEFAULT 0 NOT NULL,
	"line_id" integer,
	"reply" text DEFAULT '' NOT NULL,
	"handled_by" integer,
	"handled_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "custom_demands_state_ck" CHECK ("custom_demands"."state" between 0 and 2),
	CONSTRAINT "custom_demands_line_ck" CHECK (("custom_demands"."state" = 1) = ("custom_demands"."line_id" is not null)),
	CONSTRAINT "custom_demands_window_ck" CHECK ("custom_demands"."go_to" >= "custom_demands"."go_from" and ("custom_demands"."back_from" is null or "custom_demands"."back_to" >= "custom_demands"."back_from"))
);
--> statement-breakpoint
CREATE TABLE "custom_drivers" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer NOT NULL,
	"name" text NOT NULL,
	"phone_enc" text NOT NULL,
	"phone_idx" text NOT NULL,
	"id_enc" text NOT NULL,
	"id_idx" text NOT NULL,
	"licence_class" text NOT NULL,
	"licence_until" date NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "custom_drivers_status_ck" CHECK ("custom_drivers"."status" between 0 and 2),
	CONSTRAINT "custom_drivers_class_ck" CHECK ("custom_drivers"."licence_class" in ('A1', 'A3', 'B1'))
);
--> statement-breakpoint
CREATE TABLE "custom_line_paths" (
	"line_id" integer NOT NULL,
	"direction" smallint NOT NULL,
	"points" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "custom_line_paths_line_id_direction_pk" PRIMARY KEY("line_id","direction"),
	CONSTRAINT "custom_line_paths_direction_ck" CHECK ("custom_line_paths"."direction" in (0, 1))
);
--> statement-breakpoint
CREATE TABLE "custom_line_stops" (
	"id" serial PRIMARY KEY NOT NULL,
	"line_id" integer NOT NULL,
	"direction" smallint NOT NULL,
	"seq" integer NOT NULL,
	"station_id" integer NOT NULL,
	"offset_min" integer NOT NULL,
	"mode" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "custom_line_stops_direction_ck" CHECK ("custom_line_stops"."direction" in (0, 1)),
	CONSTRAINT "custom_line_stops_mode_ck" CHECK ("custom_line_stops"."mode" between 0 and 2),
	CONSTRAINT "custom_line_stops_offset_ck" CHECK ("custom_line_stops"."offset_min" between 0 and 720)
);
--> statement-breakpoint
CREATE TABLE "custom_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer NOT NULL,
	"line_no" text NOT NULL,
	"name" text NOT NULL,
	"direction" smallint NOT NULL,
	"start_station_id" integer,
	"end_station_id" integer,
	"depart_time" integer NOT NULL,
	"arrive_time" integer NOT NULL,
	"return_depart_time" integer,
	"return_arrive_time" integer,
	"original_price" integer NOT NULL,
	"discount_type" smallint DEFAULT 1 NOT NULL,
	"discount_rate" integer,
	"discount_price" integer,
	"price" integer NOT NULL,
	"ticket_types" smallint[] NOT NULL,
	"default_seats" integer NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"demand_id" integer,
	"remark" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "custom_lines_direction_ck" CHECK ("custom_lines"."direction" in (-1, 0, 1)),
	CONSTRAINT "custom_lines_status_ck" CHECK ("custom_lines"."status" between 0 and 2),
	CONSTRAINT "custom_lines_name_ck" CHECK (char_length("custom_lines"."name") between 1 and 15),
	CONSTRAINT "custom_lines_times_ck" CHECK ("custom_lines"."depart_time" between 0 and 86399 and "custom_lines"."arrive_time" between 0 and 86399),
	CONSTRAINT "custom_lines_return_ck" CHECK (("custom_lines"."direction" = -1) = ("custom_lines"."return_depart_time" is not null and "custom_lines"."return_arrive_time" is not null)),
	CONSTRAINT "custom_lines_discount_type_ck" CHECK ("custom_lines"."discount_type" between 1 and 3),
	CONSTRAINT "custom_lines_price_ck" CHECK ("custom_lines"."original_price" > 0 and "custom_lines"."price" > 0 and "custom_lines"."price" <= "custom_lines"."original_price"),
	CONSTRAINT "custom_lines_seats_ck" CHECK ("custom_lines"."default_seats" between 1 and 80)
);
--> statement-breakpoint
CREATE TABLE "custom_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_no" text NOT NULL,
	"district_id" integer NOT NULL,
	"rider_id" integer NOT NULL,
	"line_id" integer NOT NULL,
	"direction" smallint NOT NULL,
	"classes_id" integer,
	"month" text,
	"ticket_type" smallint NOT NULL,
	"seats" integer NOT NULL,
	"amount" integer NOT NULL,
	"refunded_amount" integer DEFAULT 0 NOT NULL,
	"pay_status" smallint DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"rule_version_id" integer,
	"agreement_version" integer,
	"hold_until" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "custom_orders_ticket_type_ck" CHECK ("custom_orders"."ticket_type" in (1, 2)),
	CONSTRAINT "custom_orders_kind_ck" CHECK (("custom_orders"."ticket_type" = 1 and "custom_orders"."classes_id" is not null and "custom_orders"."month" is null) or ("custom_orders"."ticket_type" = 2 and "custom_orders"."classes_id" is null and "custom_orders"."month" ~ '^\d{4}-\d{2}$')),
	CONSTRAINT "custom_orders_seats_ck" CHECK ("custom_orders"."seats" between 1 and 10),
	CONSTRAINT "custom_orders_amount_ck" CHECK ("custom_orders"."amount" >= 0 and "custom_orders"."refunded_amount" >= 0 and "custom_orders"."refunded_amount" <= "custom_orders"."amount"),
	CONSTRAINT "custom_orders_status_ck" CHECK ("custom_orders"."status" between 0 and 4),
	CONSTRAINT "custom_orders_pay_status_ck" CHECK ("custom_orders"."pay_status" between 0 and 2),
	CONSTRAINT "custom_orders_direction_ck" CHECK ("custom_orders"."direction" in (0, 1))
);
--> statement-breakpoint
CREATE TABLE "custom_stations" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer NOT NULL,
	"name" text NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"lng" double precision NOT NULL,
	"lat" double precision NOT NULL,
	"bus_station_id" integer,
	"status" smallint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "custom_stations_status_ck" CHECK ("custom_stations"."status" in (0, 1)),
	CONSTRAINT "custom_stations_name_ck" CHECK (char_length("custom_stations"."name") between 1 and 20)
);
--> statement-breakpoint
CREATE TABLE "custom_tickets" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"classes_id" integer NOT NULL,
	"ticket_no" text NOT NULL,
	"state" smallint DEFAULT 0 NOT NULL,
	"amount" integer NOT NULL,
	"refunded_amount" integer DEFAULT 0 NOT NULL,
	"refunded_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"check_plate_no" text,
	"check_method" smallint,
	"checked_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "custom_tickets_state_ck" CHECK ("custom_tickets"."state" between 0 and 4),
	CONSTRAINT "custom_tickets_amount_ck" CHECK ("custom_tickets"."amount" >= 0 and "custom_tickets"."refunded_amount" >= 0 and "custom_tickets"."refunded_amount" <= "custom_tickets"."amount"),
	CONSTRAINT "custom_tickets_check_ck" CHECK (("custom_tickets"."state" = 2) = ("custom_tickets"."checked_at" is not null)),
	CONSTRAINT "custom_tickets_method_ck" CHECK ("custom_tickets"."check_method" is null or "custom_tickets"."check_method" in (1, 2))
);
--> statement-breakpoint
CREATE TABLE "custom_base_settings" (
	"district_id" integer PRIMARY KEY NOT NULL,
	"sale_days_ahead" integer DEFAULT 7 NOT NULL,
	"sale_open_time" integer DEFAULT 43200 NOT NULL,
	"pay_timeout_min" integer DEFAULT 2 NOT NULL,
	"max_seats_per_user_per_class" integer DEFAULT 4 NOT NULL,
	"stop_sale_min_before" integer DEFAULT 10 NOT NULL,
	"check_open_min_before" integer DEFAULT 30 NOT NULL,
	"month_ticket_enabled" boolean DEFAULT true NOT NULL,
	"month_sale_until_day" integer DEFAULT 25 NOT NULL,
	"boarding_notice" text DEFAULT '' NOT NULL,
	"service_phone" text DEFAULT '' NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "custom_base_pay_timeout_ck" CHECK ("custom_base_settings"."pay_timeout_min" between 1 and 30),
	CONSTRAINT "custom_base_max_seats_ck" CHECK ("custom_base_settings"."max_seats_per_user_per_class" between 1 and 10),
	CONSTRAINT "custom_base_sale_days_ck" CHECK ("custom_base_settings"."sale_days_ahead" between 1 and 62),
	CONSTRAINT "custom_base_sale_open_ck" CHECK ("custom_base_settings"."sale_open_time" between 0 and 86399),
	CONSTRAINT "custom_base_minutes_ck" CHECK ("custom_base_settings"."stop_sale_min_before" between 0 and 1440 and "custom_base_settings"."check_open_min_before" between 0 and 1440),
	CONSTRAINT "custom_base_month_day_ck" CHECK ("custom_base_settings"."month_sale_until_day" between 1 and 28),
	CONSTRAINT "custom_base_notice_ck" CHECK (char_length("custom_base_settings"."boarding_notice") <= 500)
);
--> statement-breakpoint
CREATE TABLE "custom_refund_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer NOT NULL,
	"rows" jsonb NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"effective_at" timestamp with time zone,
	"remark" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"published_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "custom_refund_rules_status_ck" CHECK ("custom_refund_rules"."status" between 0 and 3),
	CONSTRAINT "custom_refund_rules_effective_ck" CHECK ("custom_refund_rules"."status" = 0 or "custom_refund_rules"."effective_at" is not null)
);
--> statement-breakpoint
ALTER TABLE "custom_cars" ADD CONSTRAINT "custom_cars_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_classes" ADD CONSTRAINT "custom_classes_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_classes" ADD CONSTRAINT "custom_classes_line_id_custom_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."custom_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_classes" ADD CONSTRAINT "custom_classes_car_id_custom_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."custom_cars"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_classes" ADD CONSTRAINT "custom_classes_driver_id_custom_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."custom_drivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_classes" ADD CONSTRAINT "custom_classes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_demand_records" ADD CONSTRAINT "custom_demand_records_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_demand_records" ADD CONSTRAINT "custom_demand_records_demand_id_custom_demands_id_fk" FOREIGN KEY ("demand_id") REFERENCES "public"."custom_demands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_demand_records" ADD CONSTRAINT "custom_demand_records_rider_id_riders_id_fk" FOREIGN KEY ("rider_id") REFERENCES "public"."riders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_demands" ADD CONSTRAINT "custom_demands_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_demands" ADD CONSTRAINT "custom_demands_line_id_custom_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."custom_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_demands" ADD CONSTRAINT "custom_demands_handled_by_users_id_fk" FOREIGN KEY ("handled_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_drivers" ADD CONSTRAINT "custom_drivers_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_line_paths" ADD CONSTRAINT "custom_line_paths_line_id_custom_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."custom_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_line_stops" ADD CONSTRAINT "custom_line_stops_line_id_custom_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."custom_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_line_stops" ADD CONSTRAINT "custom_line_stops_station_id_custom_stations_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."custom_stations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_lines" ADD CONSTRAINT "custom_lines_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_lines" ADD CONSTRAINT "custom_lines_start_station_id_custom_stations_id_fk" FOREIGN KEY ("start_station_id") REFERENCES "public"."custom_stations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_lines" ADD CONSTRAINT "custom_lines_end_station_id_custom_stations_id_fk" FOREIGN KEY ("end_station_id") REFERENCES "public"."custom_stations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_lines" ADD CONSTRAINT "custom_lines_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_orders" ADD CONSTRAINT "custom_orders_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_orders" ADD CONSTRAINT "custom_orders_rider_id_riders_id_fk" FOREIGN KEY ("rider_id") REFERENCES "public"."riders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_orders" ADD CONSTRAINT "custom_orders_line_id_custom_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."custom_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_orders" ADD CONSTRAINT "custom_orders_classes_id_custom_classes_id_fk" FOREIGN KEY ("classes_id") REFERENCES "public"."custom_classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_orders" ADD CONSTRAINT "custom_orders_rule_version_id_custom_refund_rules_id_fk" FOREIGN KEY ("rule_version_id") REFERENCES "public"."custom_refund_rules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_stations" ADD CONSTRAINT "custom_stations_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_stations" ADD CONSTRAINT "custom_stations_bus_station_id_stations_id_fk" FOREIGN KEY ("bus_station_id") REFERENCES "public"."stations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_tickets" ADD CONSTRAINT "custom_tickets_order_id_custom_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."custom_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_tickets" ADD CONSTRAINT "custom_tickets_classes_id_custom_classes_id_fk" FOREIGN KEY ("classes_id") REFERENCES "public"."custom_classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_tickets" ADD CONSTRAINT "custom_tickets_checked_by_users_id_fk" FOREIGN KEY ("checked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_base_settings" ADD CONSTRAINT "custom_base_settings_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_base_settings" ADD CONSTRAINT "custom_base_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_refund_rules" ADD CONSTRAINT "custom_refund_rules_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_refund_rules" ADD CONSTRAINT "custom_refund_rules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_refund_rules" ADD CONSTRAINT "custom_refund_rules_published_by_users_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "custom_cars_plate_uq" ON "custom_cars" USING btree ("plate_no");--> statement-breakpoint
CREATE INDEX "custom_cars_district_idx" ON "custom_cars" USING btree ("district_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "custom_classes_slot_uq" ON "custom_classes" USING btree ("line_id","direction","depart_date","depart_time") WHERE "custom_classes"."status" <> 4;--> statement-breakpoint
CREATE INDEX "custom_classes_district_date_idx" ON "custom_classes" USING btree ("district_id","depart_date");--> statement-breakpoint
CREATE INDEX "custom_classes_line_date_idx" ON "custom_classes" USING btree ("line_id","depart_date");--> statement-breakpoint
CREATE INDEX "custom_classes_car_idx" ON "custom_classes" USING btree ("car_id","depart_at") WHERE "custom_classes"."car_id" is not null and "custom_classes"."status" <> 4;--> statement-breakpoint
CREATE INDEX "custom_classes_driver_idx" ON "custom_classes" USING btree ("driver_id","depart_at") WHERE "custom_classes"."driver_id" is not null and "custom_classes"."status" <> 4;--> statement-breakpoint
CREATE INDEX "custom_classes_due_idx" ON "custom_classes" USING btree ("status","sale_open_at") WHERE "custom_classes"."status" in (0, 1, 2);--> statement-breakpoint
CREATE INDEX "custom_demand_records_district_idx" ON "custom_demand_records" USING btree ("district_id","created_at");--> statement-breakpoint
CREATE INDEX "custom_demand_records_demand_idx" ON "custom_demand_records" USING btree ("demand_id");--> statement-breakpoint
CREATE INDEX "custom_demand_records_cells_idx" ON "custom_demand_records" USING btree ("district_id","home_cell","work_cell");--> statement-breakpoint
CREATE INDEX "custom_demand_records_rider_idx" ON "custom_demand_records" USING btree ("rider_id");--> statement-breakpoint
CREATE INDEX "custom_demands_district_idx" ON "custom_demands" USING btree ("district_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "custom_drivers_id_uq" ON "custom_drivers" USING btree ("id_idx");--> statement-breakpoint
CREATE INDEX "custom_drivers_district_idx" ON "custom_drivers" USING btree ("district_id","status");--> statement-breakpoint
CREATE INDEX "custom_drivers_phone_idx" ON "custom_drivers" USING btree ("phone_idx");--> statement-breakpoint
CREATE UNIQUE INDEX "custom_line_stops_seq_uq" ON "custom_line_stops" USING btree ("line_id","direction","seq");--> statement-breakpoint
CREATE INDEX "custom_line_stops_station_idx" ON "custom_line_stops" USING btree ("station_id");--> statement-breakpoint
CREATE UNIQUE INDEX "custom_lines_no_uq" ON "custom_lines" USING btree ("district_id","line_no");--> statement-breakpoint
CREATE INDEX "custom_lines_district_idx" ON "custom_lines" USING btree ("district_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "custom_orders_no_uq" ON "custom_orders" USING btree ("order_no");--> statement-breakpoint
CREATE INDEX "custom_orders_district_idx" ON "custom_orders" USING btree ("district_id","created_at");--> statement-breakpoint
CREATE INDEX "custom_orders_rider_idx" ON "custom_orders" USING btree ("rider_id","created_at");--> statement-breakpoint
CREATE INDEX "custom_orders_classes_idx" ON "custom_orders" USING btree ("classes_id");--> statement-breakpoint
CREATE INDEX "custom_orders_line_idx" ON "custom_orders" USING btree ("line_id","created_at");--> statement-breakpoint
CREATE INDEX "custom_orders_unpaid_idx" ON "custom_orders" USING btree ("hold_until") WHERE "custom_orders"."status" = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "custom_stations_name_uq" ON "custom_stations" USING btree ("district_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "custom_tickets_no_uq" ON "custom_tickets" USING btree ("ticket_no");--> statement-breakpoint
CREATE INDEX "custom_tickets_order_idx" ON "custom_tickets" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "custom_tickets_classes_idx" ON "custom_tickets" USING btree ("classes_id","state");--> statement-breakpoint
CREATE INDEX "custom_refund_rules_district_idx" ON "custom_refund_rules" USING btree ("district_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "custom_refund_rules_active_uq" ON "custom_refund_rules" USING btree ("district_id") WHERE "custom_refund_rules"."status" = 2;--> statement-breakpoint
CREATE INDEX "custom_refund_rules_due_idx" ON "custom_refund_rules" USING btree ("effective_at") WHERE "custom_refund_rules"."status" = 1;