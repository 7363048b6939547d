CREATE TABLE "activities" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer,
	"name" text NOT NULL,
	"type" smallint NOT NULL,
	"rule" jsonb NOT NULL,
	"line_codes" text[] DEFAULT '{}'::text[] NOT NULL,
	"card_categories" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"pay_channels" text[] DEFAULT '{}'::text[] NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"enabled" boolean NOT NULL,
	"enabled_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"budget_fen" bigint NOT NULL,
	"used_fen" bigint DEFAULT 0 NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"stackable" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "activities_type_ck" CHECK ("activities"."type" between 1 and 4),
	CONSTRAINT "activities_name_ck" CHECK (char_length("activities"."name") between 1 and 30),
	CONSTRAINT "activities_window_ck" CHECK ("activities"."end_at" > "activities"."start_at"),
	CONSTRAINT "activities_budget_ck" CHECK ("activities"."budget_fen" > 0 and "activities"."used_fen" >= 0 and "activities"."used_fen" <= "activities"."budget_fen"),
	CONSTRAINT "activities_priority_ck" CHECK ("activities"."priority" between 0 and 999)
);
--> statement-breakpoint
CREATE TABLE "activity_counters" (
	"key" text NOT NULL,
	"subject" text NOT NULL,
	"period" text NOT NULL,
	"times" integer DEFAULT 0 NOT NULL,
	"fen" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "activity_counters_pk" PRIMARY KEY("key","subject","period"),
	CONSTRAINT "activity_counters_ck" CHECK ("activity_counters"."times" >= 0 and "activity_counters"."fen" >= 0)
);
--> statement-breakpoint
CREATE TABLE "activity_limits" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer,
	"activity_id" integer,
	"dimension" text NOT NULL,
	"period" text NOT NULL,
	"max_times" integer DEFAULT 0 NOT NULL,
	"max_fen" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "activity_limits_dimension_ck" CHECK ("activity_limits"."dimension" in ('rider', 'card')),
	CONSTRAINT "activity_limits_period_ck" CHECK ("activity_limits"."period" in ('day', 'month')),
	CONSTRAINT "activity_limits_caps_ck" CHECK ("activity_limits"."max_times" >= 0 and "activity_limits"."max_fen" >= 0 and ("activity_limits"."max_times" > 0 or "activity_limits"."max_fen" > 0))
);
--> statement-breakpoint
CREATE TABLE "activity_usages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"activity_id" integer NOT NULL,
	"ride_record_id" bigint,
	"ride_at" timestamp with time zone NOT NULL,
	"district_id" integer NOT NULL,
	"card_no" text NOT NULL,
	"rider_id" integer,
	"line_code" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"discount_fen" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "activity_usages_discount_ck" CHECK ("activity_usages"."discount_fen" > 0 and "activity_usages"."discount_fen" <= "activity_usages"."amount_fen")
);
--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_limits" ADD CONSTRAINT "activity_limits_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_limits" ADD CONSTRAINT "activity_limits_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_usages" ADD CONSTRAINT "activity_usages_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activities_district_idx" ON "activities" USING btree ("district_id","start_at");--> statement-breakpoint
CREATE INDEX "activities_live_idx" ON "activities" USING btree ("end_at") WHERE "activities"."enabled" and "activities"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "activity_limits_district_idx" ON "activity_limits" USING btree ("district_id");--> statement-breakpoint
CREATE INDEX "activity_usages_activity_idx" ON "activity_usages" USING btree ("activity_id","ride_at");--> statement-breakpoint
CREATE UNIQUE INDEX "activity_usages_ride_uq" ON "activity_usages" USING btree ("activity_id","ride_record_id") WHERE "activity_usages"."ride_record_id" is not null;