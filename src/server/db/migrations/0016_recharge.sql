CREATE TABLE "card_centre_loads" (
	"id" serial PRIMARY KEY NOT NULL,
	"centre_txn_no" text NOT NULL,
	"card_no" text NOT NULL,
	"order_no" text NOT NULL,
	"txn_seq" text NOT NULL,
	"tac" text NOT NULL,
	"amount" integer NOT NULL,
	"bef_bal" integer NOT NULL,
	"aft_bal" integer NOT NULL,
	"loaded_at" timestamp with time zone NOT NULL,
	"settle_day" text NOT NULL,
	CONSTRAINT "card_centre_loads_amount_ck" CHECK ("card_centre_loads"."amount" > 0 and "card_centre_loads"."aft_bal" = "card_centre_loads"."bef_bal" + "card_centre_loads"."amount")
);
--> statement-breakpoint
CREATE TABLE "recharge_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"step" text NOT NULL,
	"result" smallint NOT NULL,
	"detail" text,
	CONSTRAINT "recharge_attempts_result_ck" CHECK ("recharge_attempts"."result" in (0, 1))
);
--> statement-breakpoint
CREATE TABLE "recharge_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_no" text NOT NULL,
	"district_id" integer NOT NULL,
	"rider_id" integer,
	"card_id" integer NOT NULL,
	"card_no" text NOT NULL,
	"card_inner_no" text NOT NULL,
	"card_category" smallint NOT NULL,
	"amount" integer NOT NULL,
	"pay_amount" integer NOT NULL,
	"pay_channel" smallint NOT NULL,
	"pay_status" smallint DEFAULT 0 NOT NULL,
	"write_state" smallint DEFAULT 0 NOT NULL,
	"bef_bal" integer,
	"aft_bal" integer,
	"device_model" text,
	"txn_seq" text,
	"tac" text,
	"fail_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"write_started_at" timestamp with time zone,
	"written_at" timestamp with time zone,
	"suspect_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"resolved_by" integer,
	"resolved_at" timestamp with time zone,
	"centre_txn_no" text,
	"resolution_note" text,
	"updated_at" timestamp with time zone NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "recharge_orders_pay_ck" CHECK ("recharge_orders"."pay_status" between 0 and 2),
	CONSTRAINT "recharge_orders_write_ck" CHECK ("recharge_orders"."write_state" between 0 and 5),
	CONSTRAINT "recharge_orders_amount_ck" CHECK ("recharge_orders"."amount" between 1000 and 99900 and "recharge_orders"."pay_amount" = "recharge_orders"."amount"),
	CONSTRAINT "recharge_orders_paid_write_ck" CHECK ("recharge_orders"."write_state" in (0, 5) or "recharge_orders"."pay_status" = 1),
	CONSTRAINT "recharge_orders_tac_ck" CHECK ("recharge_orders"."write_state" <> 2 or ("recharge_orders"."tac" is not null and "recharge_orders"."txn_seq" is not null)),
	CONSTRAINT "recharge_orders_refund_ck" CHECK ("recharge_orders"."pay_status" <> 2 or "recharge_orders"."write_state" = 5)
);
--> statement-breakpoint
CREATE TABLE "recharge_reconcile_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"day" text NOT NULL,
	"kind" smallint NOT NULL,
	"district_id" integer,
	"order_id" integer,
	"order_no" text NOT NULL,
	"card_no" text NOT NULL,
	"order_amount" integer,
	"centre_amount" integer,
	"centre_txn_no" text,
	"status" smallint DEFAULT 0 NOT NULL,
	"note" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"cleared_at" timestamp with time zone,
	CONSTRAINT "recharge_reconcile_items_kind_ck" CHECK ("recharge_reconcile_items"."kind" between 1 and 3),
	CONSTRAINT "recharge_reconcile_items_status_ck" CHECK ("recharge_reconcile_items"."status" in (0, 1))
);
--> statement-breakpoint
CREATE TABLE "recharge_settlement_days" (
	"day" text PRIMARY KEY NOT NULL,
	"centre_loads" integer NOT NULL,
	"centre_amount" integer NOT NULL,
	"paid_orders" integer NOT NULL,
	"anomalies" integer NOT NULL,
	"ran_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "recharge_attempts" ADD CONSTRAINT "recharge_attempts_order_id_recharge_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."recharge_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharge_orders" ADD CONSTRAINT "recharge_orders_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharge_orders" ADD CONSTRAINT "recharge_orders_rider_id_riders_id_fk" FOREIGN KEY ("rider_id") REFERENCES "public"."riders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharge_orders" ADD CONSTRAINT "recharge_orders_card_id_bus_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."bus_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharge_orders" ADD CONSTRAINT "recharge_orders_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharge_reconcile_items" ADD CONSTRAINT "recharge_reconcile_items_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharge_reconcile_items" ADD CONSTRAINT "recharge_reconcile_items_order_id_recharge_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."recharge_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_centre_loads_txn_uq" ON "card_centre_loads" USING btree ("centre_txn_no");--> statement-breakpoint
CREATE UNIQUE INDEX "card_centre_loads_card_seq_uq" ON "card_centre_loads" USING btree ("card_no","txn_seq");--> statement-breakpoint
CREATE UNIQUE INDEX "card_centre_loads_order_uq" ON "card_centre_loads" USING btree ("order_no");--> statement-breakpoint
CREATE INDEX "card_centre_loads_day_idx" ON "card_centre_loads" USING btree ("settle_day");--> statement-breakpoint
CREATE INDEX "recharge_attempts_order_idx" ON "recharge_attempts" USING btree ("order_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "recharge_orders_no_uq" ON "recharge_orders" USING btree ("order_no");--> statement-breakpoint
CREATE INDEX "recharge_orders_district_idx" ON "recharge_orders" USING btree ("district_id","created_at");--> statement-breakpoint
CREATE INDEX "recharge_orders_card_idx" ON "recharge_orders" USING btree ("card_no","created_at");--> statement-breakpoint
CREATE INDEX "recharge_orders_state_idx" ON "recharge_orders" USING btree ("write_state","created_at");--> statement-breakpoint
CREATE INDEX "recharge_orders_writing_idx" ON "recharge_orders" USING btree ("write_started_at") WHERE "recharge_orders"."write_state" = 1;--> statement-breakpoint
CREATE UNIQUE INDEX "recharge_reconcile_items_uq" ON "recharge_reconcile_items" USING btree ("kind","order_no");--> statement-breakpoint
CREATE INDEX "recharge_reconcile_items_day_idx" ON "recharge_reconcile_items" USING btree ("status","day");