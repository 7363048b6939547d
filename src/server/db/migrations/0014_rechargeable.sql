CREATE TABLE "recharge_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer,
	"name" text NOT NULL,
	"amount" integer NOT NULL,
	"gift_amount" integer DEFAULT 0 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"sale_start" timestamp with time zone,
	"sale_end" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "recharge_plans_amount_ck" CHECK ("recharge_plans"."amount" > 0 and "recharge_plans"."gift_amount" >= 0 and "recharge_plans"."gift_amount" * 2 <= "recharge_plans"."amount"),
	CONSTRAINT "recharge_plans_status_ck" CHECK ("recharge_plans"."status" in (0, 1)),
	CONSTRAINT "recharge_plans_sale_ck" CHECK ("recharge_plans"."sale_end" is null or "recharge_plans"."sale_start" is null or "recharge_plans"."sale_end" > "recharge_plans"."sale_start")
);
--> statement-breakpoint
CREATE TABLE "recharge_settings" (
	"id" smallint PRIMARY KEY NOT NULL,
	"min_fen" integer NOT NULL,
	"max_fen" integer NOT NULL,
	"balance_cap_fen" integer NOT NULL,
	"daily_times" integer NOT NULL,
	"daily_fen" integer NOT NULL,
	"consume_order" smallint NOT NULL,
	"gift_refundable" boolean DEFAULT false NOT NULL,
	"adjust_single_max_fen" integer NOT NULL,
	"unpaid_timeout_minutes" integer DEFAULT 30 NOT NULL,
	"updated_at" timestamp with time zone,
	"row_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "recharge_settings_one_ck" CHECK ("recharge_settings"."id" = 1),
	CONSTRAINT "recharge_settings_range_ck" CHECK ("recharge_settings"."min_fen" <= "recharge_settings"."max_fen" and "recharge_settings"."consume_order" in (1, 2))
);
--> statement-breakpoint
CREATE TABLE "wallet_adjustments" (
	"id" serial PRIMARY KEY NOT NULL,
	"wallet_id" integer NOT NULL,
	"district_id" integer NOT NULL,
	"bucket" smallint NOT NULL,
	"delta" integer NOT NULL,
	"reason" text NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"maker_id" integer NOT NULL,
	"checker_id" integer,
	"check_reason" text,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"checked_at" timestamp with time zone,
	CONSTRAINT "wallet_adjustments_ck" CHECK ("wallet_adjustments"."bucket" in (1, 2) and "wallet_adjustments"."delta" <> 0 and "wallet_adjustments"."status" between 0 and 3 and char_length("wallet_adjustments"."reason") >= 10),
	CONSTRAINT "wallet_adjustments_checker_ck" CHECK ("wallet_adjustments"."checker_id" is null or "wallet_adjustments"."checker_id" <> "wallet_adjustments"."maker_id")
);
--> statement-breakpoint
CREATE TABLE "wallet_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"wallet_id" integer NOT NULL,
	"district_id" integer NOT NULL,
	"type" smallint NOT NULL,
	"principal_delta" integer NOT NULL,
	"gift_delta" integer NOT NULL,
	"principal_after" integer NOT NULL,
	"gift_after" integer NOT NULL,
	"ref_kind" text NOT NULL,
	"ref_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" integer,
	CONSTRAINT "wallet_ledger_type_ck" CHECK ("wallet_ledger"."type" between 1 and 6),
	CONSTRAINT "wallet_ledger_after_ck" CHECK ("wallet_ledger"."principal_after" >= 0 and "wallet_ledger"."gift_after" >= 0)
);
--> statement-breakpoint
CREATE TABLE "wallet_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_no" text NOT NULL,
	"district_id" integer NOT NULL,
	"rider_id" integer NOT NULL,
	"wallet_id" integer NOT NULL,
	"plan_id" integer,
	"snapshot" jsonb NOT NULL,
	"pay_amount" integer NOT NULL,
	"gift_amount" integer DEFAULT 0 NOT NULL,
	"pay_status" smallint DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"principal_after" integer,
	"refund_amount" integer DEFAULT 0 NOT NULL,
	"gift_clawback" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	CONSTRAINT "wallet_orders_status_ck" CHECK ("wallet_orders"."status" between 0 and 3 and "wallet_orders"."pay_status" between 0 and 2),
	CONSTRAINT "wallet_orders_amount_ck" CHECK ("wallet_orders"."pay_amount" > 0 and "wallet_orders"."gift_amount" >= 0),
	CONSTRAINT "wallet_orders_refund_ck" CHECK ("wallet_orders"."refund_amount" between 0 and "wallet_orders"."pay_amount" and "wallet_orders"."gift_clawback" between 0 and "wallet_orders"."gift_amount")
);
--> statement-breakpoint
CREATE TABLE "wallet_reconcile_runs" (
	"day" date PRIMARY KEY NOT NULL,
	"wallets" integer NOT NULL,
	"broken" integer NOT NULL,
	"principal" bigint NOT NULL,
	"gift" bigint NOT NULL,
	"breaks" jsonb NOT NULL,
	"ms" integer NOT NULL,
	"ran_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallets" (
	"id" serial PRIMARY KEY NOT NULL,
	"rider_id" integer NOT NULL,
	"district_id" integer NOT NULL,
	"principal" integer DEFAULT 0 NOT NULL,
	"gift" integer DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"status_reason" text,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "wallets_balance_ck" CHECK ("wallets"."principal" >= 0 and "wallets"."gift" >= 0),
	CONSTRAINT "wallets_status_ck" CHECK ("wallets"."status" in (0, 1, 2)),
	CONSTRAINT "wallets_closed_ck" CHECK ("wallets"."status" <> 0 or ("wallets"."principal" = 0 and "wallets"."gift" = 0))
);
--> statement-breakpoint
ALTER TABLE "recharge_plans" ADD CONSTRAINT "recharge_plans_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_adjustments" ADD CONSTRAINT "wallet_adjustments_wallet_id_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."wallets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_adjustments" ADD CONSTRAINT "wallet_adjustments_maker_id_users_id_fk" FOREIGN KEY ("maker_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_adjustments" ADD CONSTRAINT "wallet_adjustments_checker_id_users_id_fk" FOREIGN KEY ("checker_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_ledger" ADD CONSTRAINT "wallet_ledger_wallet_id_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."wallets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_ledger" ADD CONSTRAINT "wallet_ledger_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_orders" ADD CONSTRAINT "wallet_orders_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_orders" ADD CONSTRAINT "wallet_orders_rider_id_riders_id_fk" FOREIGN KEY ("rider_id") REFERENCES "public"."riders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_orders" ADD CONSTRAINT "wallet_orders_wallet_id_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."wallets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_orders" ADD CONSTRAINT "wallet_orders_plan_id_recharge_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."recharge_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_rider_id_riders_id_fk" FOREIGN KEY ("rider_id") REFERENCES "public"."riders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recharge_plans_district_idx" ON "recharge_plans" USING btree ("district_id","sort");--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_adjustments_key_uq" ON "wallet_adjustments" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "wallet_adjustments_wallet_idx" ON "wallet_adjustments" USING btree ("wallet_id");--> statement-breakpoint
CREATE INDEX "wallet_adjustments_queue_idx" ON "wallet_adjustments" USING btree ("district_id","created_at") WHERE "wallet_adjustments"."status" = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_ledger_ref_uq" ON "wallet_ledger" USING btree ("ref_kind","ref_id","type");--> statement-breakpoint
CREATE INDEX "wallet_ledger_wallet_idx" ON "wallet_ledger" USING btree ("wallet_id","id");--> statement-breakpoint
CREATE INDEX "wallet_ledger_created_idx" ON "wallet_ledger" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_orders_no_uq" ON "wallet_orders" USING btree ("order_no");--> statement-breakpoint
CREATE INDEX "wallet_orders_district_idx" ON "wallet_orders" USING btree ("district_id","created_at");--> statement-breakpoint
CREATE INDEX "wallet_orders_wallet_idx" ON "wallet_orders" USING btree ("wallet_id","created_at");--> statement-breakpoint
CREATE INDEX "wallet_orders_created_idx" ON "wallet_orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "wallet_orders_unpaid_idx" ON "wallet_orders" USING btree ("created_at") WHERE "wallet_orders"."status" = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "wallets_rider_uq" ON "wallets" USING btree ("rider_id");--> statement-breakpoint
CREATE INDEX "wallets_district_idx" ON "wallets" USING btree ("district_id","id");