CREATE TABLE "money_refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"order_id" integer NOT NULL,
	"item_id" integer DEFAULT 0 NOT NULL,
	"district_id" integer NOT NULL,
	"order_no" text NOT NULL,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"out_refund_no" text NOT NULL,
	"state" smallint DEFAULT 0 NOT NULL,
	"channel_refund_no" text,
	"fail_reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"operator_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "money_refunds_amount_ck" CHECK ("money_refunds"."amount" >= 0),
	CONSTRAINT "money_refunds_state_ck" CHECK ("money_refunds"."state" in (0, 1, 2))
);
--> statement-breakpoint
ALTER TABLE "money_refunds" ADD CONSTRAINT "money_refunds_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_refunds" ADD CONSTRAINT "money_refunds_operator_id_users_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "money_refunds_item_uq" ON "money_refunds" USING btree ("kind","order_id","item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "money_refunds_key_uq" ON "money_refunds" USING btree ("idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "money_refunds_out_uq" ON "money_refunds" USING btree ("out_refund_no");--> statement-breakpoint
CREATE INDEX "money_refunds_state_idx" ON "money_refunds" USING btree ("state") WHERE "money_refunds"."state" <> 1;