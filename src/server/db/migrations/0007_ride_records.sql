-- Hand-edited after drizzle-kit generate: ride_records is partitioned by month (README decision 86).
CREATE TABLE "day_take_bus_totals" (
	"day" date NOT NULL,
	"district_id" integer NOT NULL,
	"line_code" text NOT NULL,
	"line_name" text NOT NULL,
	"bus_name" text NOT NULL,
	"ticket_type" smallint NOT NULL,
	"card_category" smallint NOT NULL,
	"rides" integer NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "day_take_bus_totals_pk" PRIMARY KEY("day","district_id","line_code","bus_name","ticket_type","card_category")
);
--> statement-breakpoint
CREATE TABLE "ride_records" (
	"id" bigserial NOT NULL,
	"ride_at" timestamp with time zone NOT NULL,
	"district_id" integer NOT NULL,
	"line_code" text NOT NULL,
	"line_name" text NOT NULL,
	"bus_name" text NOT NULL,
	"direction" smallint NOT NULL,
	"station_name" text,
	"card_no" text NOT NULL,
	"card_category" smallint NOT NULL,
	"ticket_type" smallint NOT NULL,
	"amount" integer NOT NULL,
	"pay_status" smallint NOT NULL,
	"recharge_status" smallint NOT NULL,
	"order_no" text NOT NULL,
	"pay_channel" text NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "ride_records_pk" PRIMARY KEY("ride_at","id")
) PARTITION BY RANGE ("ride_at");
--> statement-breakpoint
-- Months are created ahead by the server (lib/ride-partitions.ts); a ride outside them lands here
-- instead of failing.
CREATE TABLE "ride_records_default" PARTITION OF "ride_records" DEFAULT;
--> statement-breakpoint
CREATE INDEX "day_take_bus_totals_district_idx" ON "day_take_bus_totals" USING btree ("district_id","day");--> statement-breakpoint
CREATE INDEX "day_take_bus_totals_line_idx" ON "day_take_bus_totals" USING btree ("line_code","day");--> statement-breakpoint
CREATE INDEX "ride_records_card_idx" ON "ride_records" USING btree ("card_no","ride_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ride_records_line_idx" ON "ride_records" USING btree ("line_code","ride_at");--> statement-breakpoint
CREATE INDEX "ride_records_district_idx" ON "ride_records" USING btree ("district_id","ride_at");--> statement-breakpoint
CREATE INDEX "ride_records_id_idx" ON "ride_records" USING btree ("id");