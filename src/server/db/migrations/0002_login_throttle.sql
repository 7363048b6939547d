CREATE TABLE "login_throttle" (
	"source" text NOT NULL,
	"login" text NOT NULL,
	"failures" integer NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	CONSTRAINT "login_throttle_source_login_pk" PRIMARY KEY("source","login")
);
--> statement-breakpoint
ALTER TABLE "sys_log" ADD COLUMN "aggregate_key" text;--> statement-breakpoint
CREATE INDEX "login_throttle_login_idx" ON "login_throttle" USING btree ("login");--> statement-breakpoint
CREATE INDEX "login_throttle_window_idx" ON "login_throttle" USING btree ("window_start");--> statement-breakpoint
CREATE UNIQUE INDEX "sys_log_aggregate_uq" ON "sys_log" USING btree ("aggregate_key") WHERE "sys_log"."aggregate_key" is not null;