CREATE TABLE "login_throttle" (
	"source" text NOT NULL,
	"name_key" text NOT NULL,
	"attempts" integer NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	CONSTRAINT "login_throttle_source_name_key_pk" PRIMARY KEY("source","name_key")
);
--> statement-breakpoint
ALTER TABLE "sys_log" ADD COLUMN "aggregate_key" text;--> statement-breakpoint
CREATE INDEX "login_throttle_name_idx" ON "login_throttle" USING btree ("name_key");--> statement-breakpoint
CREATE INDEX "login_throttle_window_idx" ON "login_throttle" USING btree ("window_start");--> statement-breakpoint
CREATE UNIQUE INDEX "sys_log_aggregate_uq" ON "sys_log" USING btree ("aggregate_key") WHERE "sys_log"."aggregate_key" is not null;--> statement-breakpoint
-- Failed logins by names that are no account no longer keep the name (it may be a password typed
-- into the wrong field): forget it in the rows written before.
UPDATE "sys_log" SET "target" = NULL, "operator_login" = NULL WHERE "operation_type" = 'LOGIN_FAIL' AND "operator_id" IS NULL;
