CREATE TABLE "package_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_no" text NOT NULL,
	"district_id" integer NOT NULL,
	"rider_id" integer NOT NULL,
	"package_id" integer NOT NULL,
	"snapshot" jsonb NOT NULL,
	"amount" integer NOT NULL,
	"rides" integer NOT NULL,
	"used_rides" integer DEFAULT 0 NOT NULL,
	"pay_status" smallint DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"paid_at" timestamp with time zone,
	"effective_at" timestamp with time zone,
	"expire_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"refund_amount" integer DEFAULT 0 NOT NULL,
	"refunded_at" timestamp with time zone,
	"agreement_version" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "package_orders_status_ck" CHECK ("package_orders"."status" between 0 and 5),
	CONSTRAINT "package_orders_pay_status_ck" CHECK ("package_orders"."pay_status" between 0 and 2),
	CONSTRAINT "package_orders_used_ck" CHECK ("package_orders"."used_rides" >= 0 and "package_orders"."used_rides" <= "package_orders"."rides"),
	CONSTRAINT "package_orders_amount_ck" CHECK ("package_orders"."amount" >= 0 and "package_orders"."refund_amount" >= 0 and "package_orders"."refund_amount" <= "package_orders"."amount"),
	CONSTRAINT "package_orders_active_ck" CHECK ("package_orders"."status" in (0, 5) or ("package_orders"."effective_at" is not null and "package_orders"."expire_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "package_usages" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"ride_record_id" bigint,
	"ride_at" timestamp with time zone NOT NULL,
	"line_code" text NOT NULL,
	"bus_no" text NOT NULL,
	"single_fare" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "package_usages_fare_ck" CHECK ("package_usages"."single_fare" >= 0)
);
--> statement-breakpoint
CREATE TABLE "packages" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer NOT NULL,
	"name" text NOT NULL,
	"price" integer NOT NULL,
	"original_price" integer NOT NULL,
	"rides" integer NOT NULL,
	"valid_days" integer NOT NULL,
	"line_scope" text[],
	"daily_limit" integer DEFAULT 0 NOT NULL,
	"per_user_limit" integer DEFAULT 0 NOT NULL,
	"sale_start" timestamp with time zone NOT NULL,
	"sale_end" timestamp with time zone NOT NULL,
	"stock" integer,
	"sold" integer DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"image" text,
	"description" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "packages_status_ck" CHECK ("packages"."status" between 0 and 2),
	CONSTRAINT "packages_name_ck" CHECK (char_length("packages"."name") between 1 and 20),
	CONSTRAINT "packages_price_ck" CHECK ("packages"."price" > 0 and "packages"."price" <= "packages"."original_price"),
	CONSTRAINT "packages_rides_ck" CHECK ("packages"."rides" between 1 and 999),
	CONSTRAINT "packages_valid_days_ck" CHECK ("packages"."valid_days" between 1 and 366),
	CONSTRAINT "packages_limits_ck" CHECK ("packages"."daily_limit" >= 0 and "packages"."per_user_limit" >= 0),
	CONSTRAINT "packages_sale_ck" CHECK ("packages"."sale_end" > "packages"."sale_start"),
	CONSTRAINT "packages_stock_ck" CHECK ("packages"."stock" is null or "packages"."stock" >= 0),
	CONSTRAINT "packages_sold_ck" CHECK ("packages"."sold" >= 0)
);
--> statement-breakpoint
ALTER TABLE "package_orders" ADD CONSTRAINT "package_orders_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_orders" ADD CONSTRAINT "package_orders_rider_id_riders_id_fk" FOREIGN KEY ("rider_id") REFERENCES "public"."riders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_orders" ADD CONSTRAINT "package_orders_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_usages" ADD CONSTRAINT "package_usages_order_id_package_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."package_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "packages" ADD CONSTRAINT "packages_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "packages" ADD CONSTRAINT "packages_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "package_orders_no_uq" ON "package_orders" USING btree ("order_no");--> statement-breakpoint
CREATE INDEX "package_orders_district_idx" ON "package_orders" USING btree ("district_id","created_at");--> statement-breakpoint
CREATE INDEX "package_orders_rider_idx" ON "package_orders" USING btree ("rider_id","package_id","status");--> statement-breakpoint
CREATE INDEX "package_orders_package_idx" ON "package_orders" USING btree ("package_id","status");--> statement-breakpoint
CREATE INDEX "package_orders_unpaid_idx" ON "package_orders" USING btree ("created_at") WHERE "package_orders"."status" = 0;--> statement-breakpoint
CREATE INDEX "package_orders_active_idx" ON "package_orders" USING btree ("expire_at") WHERE "package_orders"."status" = 1;--> statement-breakpoint
CREATE INDEX "package_usages_order_idx" ON "package_usages" USING btree ("order_id","ride_at");--> statement-breakpoint
CREATE INDEX "package_usages_ride_at_idx" ON "package_usages" USING btree ("ride_at");--> statement-breakpoint
CREATE INDEX "packages_district_idx" ON "packages" USING btree ("district_id","status");